/*
 * Timing with CUDA events, the L2 rotation, and the ceilings every case is
 * measured against (read kernel, device copy, CUB sum), in the same run.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peers.h"

size_t rt__bench_slot_bytes(size_t bytes) {
    return (bytes + 255) / 256 * 256;
}

int rt__bench_slot_count(const rt__bench_env *env, size_t slot_bytes) {
    /* 4x L2: whatever replacement policy the L2 has, a slot is long gone by
       the time the rotation comes back to it. */
    size_t target = 4 * env->l2_bytes;
    if (slot_bytes == 0 || slot_bytes >= target)
        return 1;
    return (int)((target + slot_bytes - 1) / slot_bytes);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double rt__bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

cudaError_t rt__bench_time_interleaved(rt__bench_env *env, int k, const rt__bench_call *calls,
                                       void *const *states, int nslots, double *median_us,
                                       double *min_us) {
    if (k < 1 || k > RT__BENCH_MAX_INTERLEAVED)
        return cudaErrorInvalidValue;
    int slot = 0;
    for (int i = 0; i < env->warmup; ++i)
        for (int j = 0; j < k; ++j) {
            if (calls[j](states[j], slot) != 0)
                return cudaErrorUnknown;
            slot = (slot + 1) % nslots;
        }
    cudaError_t e = cudaStreamSynchronize(env->stream);
    if (e != cudaSuccess)
        return e;
    /* No sync between calls: the queue stays full, so for anything longer
       than a launch the events bracket GPU time only. Each round times
       the k calls in turn, each on the next slot, so that drift over the
       run (clocks, the host's speed, what else the machine does) falls on
       every call alike. A spin ahead of a call's start event (--spin-us)
       holds the GPU while the host queues the call, so that even a call
       shorter than its launch is timed on the GPU alone. */
    for (int r = 0; r < env->reps; ++r)
        for (int j = 0; j < k; ++j) {
            cudaEvent_t *ev = &env->events[2 * (r * k + j)];
            if (env->spin_cycles > 0 &&
                (e = rt__bench_spin_launch(env->spin_cycles, env->stream)) != cudaSuccess)
                return e;
            if ((e = cudaEventRecord(ev[0], env->stream)) != cudaSuccess)
                return e;
            if (calls[j](states[j], slot) != 0)
                return cudaErrorUnknown;
            if ((e = cudaEventRecord(ev[1], env->stream)) != cudaSuccess)
                return e;
            slot = (slot + 1) % nslots;
        }
    if ((e = cudaStreamSynchronize(env->stream)) != cudaSuccess)
        return e;
    double *t = malloc((size_t)env->reps * sizeof(double));
    if (t == NULL)
        return cudaErrorMemoryAllocation;
    for (int j = 0; j < k && e == cudaSuccess; ++j) {
        for (int r = 0; r < env->reps && e == cudaSuccess; ++r) {
            float ms = 0.0f;
            const cudaEvent_t *ev = &env->events[2 * (r * k + j)];
            e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
            t[r] = 1000.0 * ms;
        }
        if (e == cudaSuccess) {
            median_us[j] = rt__bench_median(t, env->reps);
            min_us[j] = t[0]; /* sorted by the median */
        }
    }
    free(t);
    return e;
}

cudaError_t rt__bench_time(rt__bench_env *env, rt__bench_call call, void *state, int nslots,
                           double *median_us, double *min_us) {
    return rt__bench_time_interleaved(env, 1, &call, &state, nslots, median_us, min_us);
}

cudaError_t rt__bench_spin_calibrate(rt__bench_env *env) {
    enum { CYCLES = 1000000, TRIES = 5 };
    if (env->spin_us <= 0.0)
        return cudaSuccess;
    double us[TRIES];
    const cudaEvent_t *ev = env->events; /* not yet in use: the cases come later */
    for (int i = 0; i < TRIES; ++i) {
        float ms = 0.0f;
        cudaError_t e = rt__bench_spin_launch(CYCLES, env->stream);
        if (e == cudaSuccess)
            e = cudaEventRecord(ev[0], env->stream);
        if (e == cudaSuccess)
            e = rt__bench_spin_launch(CYCLES, env->stream);
        if (e == cudaSuccess)
            e = cudaEventRecord(ev[1], env->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(ev[1]);
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
        if (e != cudaSuccess)
            return e;
        us[i] = 1000.0 * ms;
    }
    const double med = rt__bench_median(us, TRIES);
    if (med <= 0.0)
        return cudaErrorUnknown;
    env->spin_cycles = (long long)(env->spin_us * (double)CYCLES / med);
    return cudaSuccess;
}

/* Makes the ceiling pool at least `bytes` long (contents: set once, never
   read for meaning). */
static cudaError_t grow_pool(rt__bench_env *env, size_t bytes) {
    if (env->ceiling_pool_bytes >= bytes)
        return cudaSuccess;
    cudaFree(env->ceiling_pool);
    env->ceiling_pool = NULL;
    env->ceiling_pool_bytes = 0;
    cudaError_t e = cudaMalloc(&env->ceiling_pool, bytes);
    if (e != cudaSuccess)
        return e;
    env->ceiling_pool_bytes = bytes;
    return cudaMemsetAsync(env->ceiling_pool, 0x3c, bytes, env->stream);
}

typedef struct read_state {
    rt__bench_env *env;
    size_t bytes, slot_bytes;
} read_state;

static int read_call(void *p, int slot) {
    read_state *s = p;
    char *src = (char *)s->env->ceiling_pool + (size_t)slot * s->slot_bytes;
    return rt__bench_read_launch(src, s->bytes, s->env->block_sums, s->env->stream) > 0 ? 0 : 1;
}

double rt__bench_read_ceiling(rt__bench_env *env, size_t bytes) {
    bytes = bytes / 16 * 16;
    if (bytes == 0)
        bytes = 16;
    for (int i = 0; i < env->cache_len; ++i)
        if (env->cache_bytes[i] == bytes)
            return env->cache_gbps[i];
    if (env->block_sums == NULL &&
        cudaMalloc((void **)&env->block_sums, (size_t)rt__bench_read_blocks() * sizeof(float)) !=
            cudaSuccess)
        return 0.0;
    read_state s = {env, bytes, rt__bench_slot_bytes(bytes)};
    int nslots = rt__bench_slot_count(env, s.slot_bytes);
    double med = 0.0, min = 0.0;
    if (grow_pool(env, (size_t)nslots * s.slot_bytes) != cudaSuccess ||
        rt__bench_time(env, read_call, &s, nslots, &med, &min) != cudaSuccess || med <= 0.0) {
        cudaGetLastError(); /* reported as a 0 ceiling; keep it out of later checks */
        return 0.0;
    }
    double gbps = (double)bytes / (med * 1e3);
    if (env->cache_len < (int)(sizeof(env->cache_bytes) / sizeof(env->cache_bytes[0]))) {
        env->cache_bytes[env->cache_len] = bytes;
        env->cache_gbps[env->cache_len++] = gbps;
    }
    return gbps;
}

typedef struct copy_state {
    rt__bench_env *env;
    size_t bytes;
} copy_state;

static int copy_call(void *p, int slot) {
    copy_state *s = p;
    (void)slot; /* far above L2: no rotation needed */
    char *base = s->env->ceiling_pool;
    return cudaMemcpyAsync(base + s->bytes, base, s->bytes, cudaMemcpyDeviceToDevice,
                           s->env->stream) != cudaSuccess;
}

typedef struct cub_state {
    rt__bench_env *env;
    void *temp;
    size_t temp_bytes;
    int64_t n;
    float *out;
} cub_state;

static int cub_call(void *p, int slot) {
    cub_state *s = p;
    (void)slot;
    return rt__bench_cub_sum(s->temp, &s->temp_bytes, s->env->ceiling_pool, s->out, s->n,
                             s->env->stream) != cudaSuccess;
}

cudaError_t rt__bench_device_ceilings(rt__bench_env *env) {
    /* 1 GiB: the large-buffer read figure, as the 1 GB full sum reads. */
    env->read_large_bytes = (size_t)1 << 30;
    env->read_large_gbps = rt__bench_read_ceiling(env, env->read_large_bytes);
    if (env->read_large_gbps <= 0.0) {
        cudaError_t last = cudaGetLastError();
        return last != cudaSuccess ? last : cudaErrorUnknown;
    }

    /* Device copy of 512 MiB into the pool's other half: read + write. */
    copy_state cs = {env, (size_t)1 << 29};
    double med = 0.0, min = 0.0;
    cudaError_t e = grow_pool(env, 2 * cs.bytes);
    if (e == cudaSuccess)
        e = rt__bench_time(env, copy_call, &cs, 1, &med, &min);
    if (e != cudaSuccess)
        return e;
    env->copy_bytes = cs.bytes;
    env->copy_gbps = 2.0 * (double)cs.bytes / (med * 1e3);

    /* CUB DeviceReduce::Sum on 2^27 floats, DESIGN.md's reference size. */
    cub_state us = {env, NULL, 0, (int64_t)1 << 27, NULL};
    e = rt__bench_cub_sum(NULL, &us.temp_bytes, NULL, NULL, us.n, env->stream);
    if (e == cudaSuccess)
        e = cudaMalloc(&us.temp, us.temp_bytes > 0 ? us.temp_bytes : 1);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&us.out, sizeof(float));
    if (e == cudaSuccess)
        e = rt__bench_time(env, cub_call, &us, 1, &med, &min);
    if (e == cudaSuccess) {
        env->cub_large_bytes = (size_t)us.n * sizeof(float) + sizeof(float);
        env->cub_large_gbps = (double)env->cub_large_bytes / (med * 1e3);
    }
    cudaFree(us.temp);
    cudaFree(us.out);
    return e;
}

void rt__bench_timing_release(rt__bench_env *env) {
    cudaFree(env->ceiling_pool);
    cudaFree(env->block_sums);
    env->ceiling_pool = NULL;
    env->block_sums = NULL;
    env->ceiling_pool_bytes = 0;
}
