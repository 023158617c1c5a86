/*
 * rt_bench's shared state and the functions its files give each other:
 * timing.c (events, rotation, ceilings), check.c (the CPU oracle),
 * report.c (table and JSON), rt_bench.c (options and the case runner).
 */
#ifndef RT_BENCH_H
#define RT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "suite.h"

/* The most calls rt__bench_time_interleaved times in turn (reduce_tensor
   and its CUB peer). */
enum { RT__BENCH_MAX_INTERLEAVED = 2 };

/* Everything one run shares: the device, the stream, the options. */
typedef struct rt__bench_env {
    int device;
    char device_name[256];
    int sm_count;
    size_t l2_bytes;
    size_t mem_bytes;
    int cc_major, cc_minor;
    cudaStream_t stream;
    rt_context *ctx;     /* CUDA context on `stream` */
    rt_context *cpu_ctx; /* the oracle for checks; NULL when checks are off */
    rt_policy policy;
    unsigned kinds_off;  /* kernel kinds TUNED leaves to the general kernel (RT__KIND_BIT) */
    int reps;            /* timed calls per measurement, >= 1 */
    int warmup;          /* untimed calls before them */
    int host_calls;      /* calls per host-overhead measurement */
    /* --spin-us: when spin_us > 0, every timed call is queued behind a spin
       of that long, spin_cycles of the SM clock (rt__bench_spin_calibrate). */
    double spin_us;
    long long spin_cycles;
    bool check;
    cudaEvent_t *events; /* 2 * RT__BENCH_MAX_INTERLEAVED * reps: a start and a stop per timed call */
    /* The ceiling kernel's scratch and its rotation pool (grown on demand),
       and the cache of read ceilings by byte count. */
    float *block_sums;
    void *ceiling_pool;
    size_t ceiling_pool_bytes;
    size_t cache_bytes[128];
    double cache_gbps[128];
    int cache_len;
    /* Whole-device figures measured once at start. */
    double read_large_gbps;
    size_t read_large_bytes;
    double copy_gbps;
    size_t copy_bytes;
    double cub_large_gbps;
    size_t cub_large_bytes;
} rt__bench_env;

/* One case's outcome; rt__bench_run_case fills it, report.c prints it. */
typedef struct rt__bench_result {
    const rt__bench_case *c;
    rt__bench_layout l;
    rt_status status;     /* the library's answer to the first call */
    char error[160];      /* a CUDA or allocation failure that stopped the case, "" if none */
    char note[160];       /* a problem that did not stop it (a peer failed), "" if none */
    int nslots;           /* input/output copies rotated through */
    double time_us;       /* median of reps */
    double min_us;
    double gbps;          /* (read + written bytes) / time */
    double ceiling_gbps;  /* the read kernel on the same byte count */
    double pct_ceiling;   /* gbps / ceiling_gbps, in percent */
    double pct_copy;      /* gbps / the device copy figure, in percent */
    double cub_us;        /* median of CUB on the same bytes; 0 if no CUB peer */
    double calls_per_s;   /* host-overhead cases */
    const char *check;    /* "ok", "MISMATCH", "cpu-failed", "off" */
    double max_err;       /* largest |gpu - cpu| / (atol + rtol |cpu|); <= 1 passes */
    int64_t mismatches;
} rt__bench_result;

/* A timed operation: enqueue one call that reads rotation slot `slot`.
   Returns 0 on success; on failure its own state says what went wrong. */
typedef int (*rt__bench_call)(void *state, int slot);

/* ---- timing.c ---- */

/* Rounds up to the 256-byte boundary rotation slots start on. */
size_t rt__bench_slot_bytes(size_t bytes);
/* How many slots of slot_bytes rotate to touch >= 4x the L2 between two
   uses of one slot: 1 when one slot already is that big. */
int rt__bench_slot_count(const rt__bench_env *env, size_t slot_bytes);
/* Median of v[0..n) (n >= 1); reorders v. */
double rt__bench_median(double *v, int n);
/*
 * env->warmup untimed calls, a stream sync, then env->reps calls each
 * between two events (with env->spin_cycles, each pair queued behind a
 * spin of that many cycles), one sync, and the median and minimum in
 * microseconds. Calls use slots 0, 1, ... modulo nslots, continuing across
 * warm-up and timing. Returns cudaSuccess, the first CUDA error, or
 * cudaErrorUnknown when call() failed (then the caller asks its state).
 */
cudaError_t rt__bench_time(rt__bench_env *env, rt__bench_call call, void *state, int nslots,
                           double *median_us, double *min_us);
/* rt__bench_time of k (1 .. RT__BENCH_MAX_INTERLEAVED) calls in turn:
   each warm-up and timed round makes calls[0], ..., calls[k - 1], each on
   the next slot and each between its own two events, so that two
   implementations timed together see the same drift over the run.
   median_us[j], min_us[j] are calls[j]'s. */
cudaError_t rt__bench_time_interleaved(rt__bench_env *env, int k, const rt__bench_call *calls,
                                       void *const *states, int nslots, double *median_us,
                                       double *min_us);
/* Sets env->spin_cycles to env->spin_us of the SM clock (nothing to do
   when spin_us <= 0): five spins of 10^6 cycles, each queued behind an
   untimed one, timed between events, give the cycles a microsecond.
   Returns the first CUDA error. */
cudaError_t rt__bench_spin_calibrate(rt__bench_env *env);
/* The streaming-read ceiling in GB/s for `bytes` (cached per byte count);
   0 when it could not be measured. */
double rt__bench_read_ceiling(rt__bench_env *env, size_t bytes);
/* Measures the whole-device figures (large read, device copy, CUB sum on
   2^27 floats) into env. Returns the first CUDA error. */
cudaError_t rt__bench_device_ceilings(rt__bench_env *env);
/* Frees what timing.c allocated in env. */
void rt__bench_timing_release(rt__bench_env *env);

/* ---- check.c ---- */

/*
 * Compares the GPU output at d_out (contiguous, r->l.out's shape) with the
 * CPU context's result for the same input, whose storage (r->l.storage
 * elements) is at d_storage. Sets r->check ("ok" or "MISMATCH"),
 * r->max_err and r->mismatches; a host-side failure (allocation, the CPU
 * backend refusing the case) gives "cpu-failed" and a reason in r->note.
 * Synchronises env->stream; returns the CUDA error of copying the result
 * back (a faulting kernel surfaces here), cudaSuccess otherwise.
 */
cudaError_t rt__bench_check(rt__bench_env *env, const void *d_storage, const void *d_out,
                            rt__bench_result *r);

/* ---- report.c ---- */

void rt__bench_print_header(FILE *f, const rt__bench_env *env);
void rt__bench_print_row(FILE *f, const rt__bench_result *r);
/* Writes the whole run as JSON to path. Returns false if the file could
   not be written. */
bool rt__bench_write_json(const char *path, const rt__bench_env *env,
                          const rt__bench_result *results, int n);

#endif /* RT_BENCH_H */
