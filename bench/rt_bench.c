/*
 * rt_bench: times reduce_tensor on the suite of bench/suite.c against the
 * streaming-read ceiling and CUB, in one process, and prints a table (and
 * JSON with --json). `rt_bench --help` lists the options; bench/NOTES.md
 * says how to run it and what the numbers mean.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "config.h"
#include "peers.h"
#include "rt_internal.h"

static const char usage[] =
    "usage: rt_bench [--filter SUBSTR] [--reps N] [--quick] [--policy compat|tuned]\n"
    "                [--json PATH] [--no-check] [--device N] [--list-json]\n"
    "                [--kinds-off LIST] [--spin-us US]\n"
    "  --filter SUBSTR  run only cases whose name contains SUBSTR (a comma list: any)\n"
    "  --reps N         timed calls per case (default 100); the median is reported\n"
    "  --quick          50 reps, 2 warm-up calls, 2000 host-overhead calls, no CPU check\n"
    "  --policy P       launch-configuration policy: tuned (default) or compat\n"
    "  --json PATH      also write the results as JSON to PATH\n"
    "  --no-check       skip comparing each case's result with the CPU backend\n"
    "  --device N       CUDA device index (default 0)\n"
    "  --spin-us US     queue every timed call (ceilings and CUB too) behind a GPU spin\n"
    "                   of US microseconds, outside its events: the GPU's time alone,\n"
    "                   even for calls shorter than their launch (default: back to back)\n"
    "  --kinds-off LIST kernel kinds TUNED must not choose, a comma list of tiny,\n"
    "                   stream, rows: their cases run on the general kernel (A/B);\n"
    "                   outer-tiles turns TUNED rule 9 off (outer tiles of 16 x 8),\n"
    "                   rows-warp the ROWS warp kernel (rows of 97-160 elements),\n"
    "                   row-block-wide the block kernel's wide rows (2 vectors a thread),\n"
    "                   outer-tall TUNED rule 10 (tall outer blocks of 16 x 32),\n"
    "                   outer-wave rule 11 (a wave of outer tiles of 32 x 16),\n"
    "                   row-two-pass the block kernel's two-pass var/std rows,\n"
    "                   chunked rule 7 (contiguous chunks of a block split),\n"
    "                   half-tile the ROWS tile's half tiles for rows of 128 bytes,\n"
    "                   outer-tall-split rule 12 (tall outer blocks for a split),\n"
    "                   uncapped-split rule 13 (PyTorch's 256-value cap on a split),\n"
    "                   walk the general kernel's walks over several reduced dims\n"
    "                   (every reduced index's offset divided out),\n"
    "                   rows-cols the ROWS column kernel (outer var/std of f32),\n"
    "                   row-exact the ROWS kernels' exact rows (o x stride, a straight store),\n"
    "                   memo the plan memo (every call planned whole),\n"
    "                   stream-dependent the STREAM kernel's dependent fold kernel\n"
    "                   (the grid's last block folds again),\n"
    "                   whole-rows rule 14 (one tile of every output over packed rows),\n"
    "                   pipelined rule 15 (the general kernel's pipelined strided and walk loops),\n"
    "                   lean-walk the LEAN walk kernel (d024's class through the general kernel)\n"
    "  --list-json      print the suite as JSON and exit (needs no GPU)\n";

/* One case's buffers: nslots input and output copies it rotates through. */
typedef struct case_state {
    rt__bench_env *env;
    const rt__bench_case *c;
    const rt__bench_layout *l;
    rt_tensor in, out;
    rt_reduce_args args;
    char *in_pool, *out_pool;
    size_t in_slot, out_slot;
    void *cub_temp;
    size_t cub_temp_bytes;
    rt_status status; /* the first failing call's status */
} case_state;

static void point_at_slot(case_state *s, int slot) {
    size_t elem = rt_dtype_size(s->in.dtype);
    s->in.data = s->in_pool + (size_t)slot * s->in_slot + (size_t)s->c->offset * elem;
    s->out.data = s->out_pool + (size_t)slot * s->out_slot;
}

static int rt_call(void *p, int slot) {
    case_state *s = p;
    point_at_slot(s, slot);
    rt_status st = reduce_tensor_ex(s->env->ctx, &s->args);
    if (st != RT_OK && s->status == RT_OK)
        s->status = st;
    return st != RT_OK;
}

/* CUB on the same bytes: with temp NULL it only sizes its temp storage. */
static cudaError_t cub_enqueue(case_state *s) {
    const rt__bench_layout *l = s->l;
    if (l->cub == 1)
        return rt__bench_cub_sum(s->cub_temp, &s->cub_temp_bytes, s->in.data, s->out.data,
                                 l->cub_row_len, s->env->stream);
    return rt__bench_cub_row_sum(s->cub_temp, &s->cub_temp_bytes, s->in.data, s->out.data,
                                 l->cub_rows, l->cub_row_len, s->env->stream);
}

static int cub_call(void *p, int slot) {
    case_state *s = p;
    point_at_slot(s, slot);
    return cub_enqueue(s) != cudaSuccess;
}

/* Notes a failure of the CUB peer (reduce_tensor's numbers stand without
   it) and clears the runtime's last-error slot, so the next case starts
   clean. */
static void note_cub_failure(rt__bench_result *r, cudaError_t e) {
    snprintf(r->note, sizeof r->note, "CUB peer: %s", cudaGetErrorString(e));
    cudaGetLastError();
}

/* Records a CUDA failure that stops the case, and clears the runtime's
   last-error slot so a non-sticky error (an allocation) does not show up
   again in the next case's launch checks. */
static void set_error(rt__bench_result *r, const char *what, cudaError_t e) {
    snprintf(r->error, sizeof r->error, "%s: %s", what, cudaGetErrorString(e));
    cudaGetLastError();
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Back-to-back calls on one tiny tensor, one sync per batch: the rate at
   which the host can issue them (the GPU work is ~2 us, never the limit).
   Median over 5 batches. */
static void run_host_overhead(case_state *s, rt__bench_result *r) {
    rt__bench_env *env = s->env;
    double per_call[5];
    for (int b = 0; b < 5; ++b) {
        double t0 = now_s();
        for (int i = 0; i < env->host_calls; ++i)
            if (rt_call(s, 0) != 0)
                return;
        cudaError_t e = cudaStreamSynchronize(env->stream);
        if (e != cudaSuccess) {
            set_error(r, "sync", e);
            return;
        }
        per_call[b] = (now_s() - t0) / env->host_calls;
    }
    double med = rt__bench_median(per_call, 5);
    r->time_us = 1e6 * med;
    r->min_us = 1e6 * per_call[0];
    r->calls_per_s = 1.0 / med;
}

/* Times reduce_tensor (and CUB where it applies) on the case's buffers,
   after one checked call. */
static void measure(case_state *s, rt__bench_result *r) {
    rt__bench_env *env = s->env;
    const rt__bench_layout *l = s->l;
    if (rt_call(s, 0) != 0) {
        r->status = s->status;
        return;
    }
    cudaError_t e = env->check ? rt__bench_check(env, s->in_pool, s->out_pool, r) : cudaSuccess;
    if (e != cudaSuccess) {
        set_error(r, "the first call's result", e);
        return;
    }
    if (s->c->kind == RT__BENCH_HOST_OVERHEAD) {
        run_host_overhead(s, r);
        r->status = s->status;
        return;
    }
    /* With a CUB peer, the two in turn (rt__bench_time_interleaved) where
       the inputs rotate over several slots: a launch-bound size's time
       moves 5-15% from process to process and pass to pass, so timed one
       after the other the ratio measured the drift as much as the two.
       Inputs of one slot (4x the L2 or more) keep the two apart: there
       each call reads the bytes the other has just read, whose last ~50
       MiB are still in L2, and ours read 2^27 floats in 168.1 us after
       CUB's against 174.1 after its own (bench/NOTES.md v1.35). */
    bool cub_ok = false;
    if (l->cub != 0) {
        point_at_slot(s, 0);
        e = cub_enqueue(s); /* sizes the temp storage */
        if (e == cudaSuccess)
            e = cudaMalloc(&s->cub_temp, s->cub_temp_bytes > 0 ? s->cub_temp_bytes : 1);
        cub_ok = e == cudaSuccess;
        if (!cub_ok)
            note_cub_failure(r, e);
    }
    bool timed = false;
    if (cub_ok && r->nslots >= 2) {
        const rt__bench_call calls[2] = {rt_call, cub_call};
        void *const states[2] = {s, s};
        double med[2] = {0.0, 0.0}, min[2] = {0.0, 0.0};
        e = rt__bench_time_interleaved(env, 2, calls, states, r->nslots, med, min);
        timed = e == cudaSuccess || s->status != RT_OK;
        if (e == cudaSuccess) {
            r->time_us = med[0];
            r->min_us = min[0];
            r->cub_us = med[1];
        } else if (s->status == RT_OK) { /* CUB's failure: reduce_tensor alone */
            note_cub_failure(r, e);
            cudaStreamSynchronize(env->stream);
        }
        cub_ok = false;
    }
    if (!timed)
        e = rt__bench_time(env, rt_call, s, r->nslots, &r->time_us, &r->min_us);
    r->status = s->status;
    if (e != cudaSuccess) {
        if (r->status == RT_OK)
            set_error(r, "timing reduce_tensor", e);
        return;
    }
    if (cub_ok) { /* one slot: CUB after reduce_tensor, as apart as before */
        double cub_min = 0.0;
        e = rt__bench_time(env, cub_call, s, r->nslots, &r->cub_us, &cub_min);
        if (e != cudaSuccess) {
            r->cub_us = 0.0;
            note_cub_failure(r, e);
        }
    }
    double bytes = (double)(l->read_bytes + l->write_bytes);
    r->gbps = bytes / (r->time_us * 1e3);
    r->ceiling_gbps = rt__bench_read_ceiling(env, l->read_bytes + l->write_bytes);
    r->pct_ceiling = r->ceiling_gbps > 0.0 ? 100.0 * r->gbps / r->ceiling_gbps : 0.0;
    r->pct_copy = env->copy_gbps > 0.0 ? 100.0 * r->gbps / env->copy_gbps : 0.0;
}

static void run_case(rt__bench_env *env, const rt__bench_case *c, uint64_t seed,
                     rt__bench_result *r) {
    memset(r, 0, sizeof(*r));
    r->c = c;
    r->check = "off";
    rt_status st = rt__bench_case_layout(c, &r->l);
    if (st != RT_OK) {
        r->status = st;
        return;
    }
    const rt__bench_layout *l = &r->l;
    case_state s = {.env = env, .c = c, .l = l, .in = l->in, .out = l->out};
    rt_reduce_args_init(&s.args);
    s.args.op = c->op;
    s.args.in = &s.in;
    s.args.dims = c->dims;
    s.args.ndims = c->ndims;
    s.args.keepdim = c->keepdim;
    s.args.out = &s.out;
    s.args.p = l->p;
    s.args.policy = env->policy;
    s.in_slot = rt__bench_slot_bytes(l->storage_bytes);
    s.out_slot = rt__bench_slot_bytes(l->write_bytes);
    r->nslots = rt__bench_slot_count(env, s.in_slot + s.out_slot);
    if (c->kind == RT__BENCH_HOST_OVERHEAD)
        r->nslots = 1; /* what is measured is the host, not the memory */

    size_t elem = rt_dtype_size(c->dtype);
    size_t in_bytes = (size_t)r->nslots * s.in_slot, out_bytes = (size_t)r->nslots * s.out_slot;
    cudaError_t e = cudaMalloc((void **)&s.in_pool, in_bytes > 0 ? in_bytes : 1);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&s.out_pool, out_bytes > 0 ? out_bytes : 1);
    if (e != cudaSuccess) {
        set_error(r, "allocating the input and output copies", e);
    } else {
        /* Fresh data per case; outputs poisoned (0xff: NaN, -1, true) so a
           kernel that skips an element cannot pass the check. */
        e = rt__bench_fill_launch(s.in_pool, (int64_t)(in_bytes / elem), c->dtype,
                                  c->sparse ? RT__BENCH_FILL_SPARSE : RT__BENCH_FILL_DENSE,
                                  seed, env->stream);
        if (e == cudaSuccess)
            e = cudaMemsetAsync(s.out_pool, 0xff, out_bytes, env->stream);
        if (e == cudaSuccess)
            measure(&s, r);
        else
            set_error(r, "filling the input", e);
    }
    cudaStreamSynchronize(env->stream);
    cudaFree(s.cub_temp);
    cudaFree(s.in_pool);
    cudaFree(s.out_pool);
}

/* The mask (RT__KIND_BIT, RT__RULE_OFF_*) of a comma list of kind and
   rule names; false on an unknown name. */
static bool parse_kinds(const char *list, unsigned *mask) {
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"tiny", RT__KIND_BIT(RT__KERNEL_TINY)},
                 {"stream", RT__KIND_BIT(RT__KERNEL_STREAM)},
                 {"rows", RT__KIND_BIT(RT__KERNEL_ROWS)},
                 {"outer-tiles", RT__RULE_OFF_OUTER_TILES},
                 {"rows-warp", RT__RULE_OFF_ROWS_WARP},
                 {"row-block-wide", RT__RULE_OFF_ROW_BLOCK_WIDE},
                 {"outer-tall", RT__RULE_OFF_OUTER_TALL},
                 {"outer-wave", RT__RULE_OFF_OUTER_WAVE},
                 {"row-two-pass", RT__RULE_OFF_ROW_TWO_PASS},
                 {"chunked", RT__RULE_OFF_CHUNKED},
                 {"half-tile", RT__RULE_OFF_HALF_TILE},
                 {"outer-tall-split", RT__RULE_OFF_OUTER_TALL_SPLIT},
                 {"uncapped-split", RT__RULE_OFF_UNCAPPED_SPLIT},
                 {"walk", RT__RULE_OFF_WALK},
                 {"rows-cols", RT__RULE_OFF_ROWS_COLS},
                 {"memo", RT__RULE_OFF_MEMO},
                 {"row-exact", RT__RULE_OFF_ROW_EXACT},
                 {"stream-dependent", RT__RULE_OFF_STREAM_DEPENDENT},
                 {"whole-rows", RT__RULE_OFF_WHOLE_ROWS},
                 {"pipelined", RT__RULE_OFF_PIPELINED},
                 {"lean-walk", RT__RULE_OFF_LEAN_WALK}};
    *mask = 0;
    for (const char *p = list; *p != '\0';) {
        const size_t len = strcspn(p, ",");
        bool known = false;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k].name) == len && strncmp(p, names[k].name, len) == 0) {
                *mask |= names[k].bit;
                known = true;
            }
        if (!known)
            return false;
        p += len + (p[len] == ',' ? 1 : 0);
    }
    return true;
}

/* Parses argv into env and the output options. Returns 0, or 2 on a usage
   error (after printing why). */
static int parse_args(int argc, char **argv, rt__bench_env *env, const char **filter,
                      const char **json, bool *list) {
    int reps = 0; /* --reps wins over --quick, whatever their order */
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            env->reps = 50;
            env->warmup = 2;
            env->host_calls = 2000;
            env->check = false;
        } else if (strcmp(a, "--no-check") == 0) {
            env->check = false;
        } else if (strcmp(a, "--list-json") == 0) {
            *list = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else if (v != NULL && strcmp(a, "--filter") == 0) {
            *filter = argv[++i];
        } else if (v != NULL && strcmp(a, "--json") == 0) {
            *json = argv[++i];
        } else if (v != NULL && strcmp(a, "--reps") == 0 && atoi(v) > 0) {
            reps = atoi(argv[++i]);
        } else if (v != NULL && strcmp(a, "--spin-us") == 0 && atof(v) > 0.0) {
            env->spin_us = atof(argv[++i]);
        } else if (v != NULL && strcmp(a, "--device") == 0 && atoi(v) >= 0) {
            env->device = atoi(argv[++i]);
        } else if (v != NULL && strcmp(a, "--kinds-off") == 0 && parse_kinds(v, &env->kinds_off)) {
            ++i;
        } else if (v != NULL && strcmp(a, "--policy") == 0 &&
                   (strcmp(v, "tuned") == 0 || strcmp(v, "compat") == 0)) {
            env->policy = strcmp(argv[++i], "tuned") == 0 ? RT_POLICY_TUNED : RT_POLICY_COMPAT;
        } else {
            fprintf(stderr, "rt_bench: bad argument '%s'\n%s", a, usage);
            return 2;
        }
    }
    if (reps > 0)
        env->reps = reps;
    return 0;
}

/* Device properties, stream, contexts and events. Returns a message on
   failure, NULL on success. */
static const char *setup(rt__bench_env *env) {
    static char msg[256];
    struct cudaDeviceProp prop;
    cudaError_t e = cudaSetDevice(env->device);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&prop, env->device);
    if (e != cudaSuccess) {
        snprintf(msg, sizeof msg, "CUDA device %d: %s", env->device, cudaGetErrorString(e));
        return msg;
    }
    snprintf(env->device_name, sizeof env->device_name, "%s", prop.name);
    env->sm_count = prop.multiProcessorCount;
    env->l2_bytes = (size_t)prop.l2CacheSize;
    env->mem_bytes = prop.totalGlobalMem;
    env->cc_major = prop.major;
    env->cc_minor = prop.minor;
    if ((e = cudaStreamCreateWithFlags(&env->stream, cudaStreamNonBlocking)) != cudaSuccess)
        return cudaGetErrorString(e);
    const int nevents = 2 * RT__BENCH_MAX_INTERLEAVED * env->reps;
    env->events = calloc((size_t)nevents, sizeof(cudaEvent_t));
    if (env->events == NULL)
        return "out of host memory";
    for (int i = 0; i < nevents; ++i)
        if ((e = cudaEventCreate(&env->events[i])) != cudaSuccess)
            return cudaGetErrorString(e);
    rt_status s = rt_context_create(&env->ctx, RT_DEVICE_CUDA, env->device);
    if (s == RT_OK)
        s = rt_context_set_stream(env->ctx, env->stream);
    if (s == RT_OK)
        s = rt__context_set_kinds_off(env->ctx, env->kinds_off);
    if (s == RT_OK && env->check)
        s = rt_context_create(&env->cpu_ctx, RT_DEVICE_CPU, 0);
    return s == RT_OK ? NULL : rt_status_string(s);
}

static void teardown(rt__bench_env *env) {
    rt_context_destroy(env->ctx);
    rt_context_destroy(env->cpu_ctx);
    rt__bench_timing_release(env);
    for (int i = 0; env->events != NULL && i < 2 * RT__BENCH_MAX_INTERLEAVED * env->reps; ++i)
        if (env->events[i] != NULL)
            cudaEventDestroy(env->events[i]);
    free(env->events);
    if (env->stream != NULL)
        cudaStreamDestroy(env->stream);
}

int main(int argc, char **argv) {
    rt__bench_env env = {.policy = RT_POLICY_TUNED, .reps = 100, .warmup = 10,
                         .host_calls = 10000, .check = true};
    const char *filter = NULL, *json = NULL;
    bool list = false;
    if (parse_args(argc, argv, &env, &filter, &json, &list) != 0)
        return 2;
    if (list)
        return rt__bench_list_json(stdout, filter) == RT_OK ? 0 : 1;

    const char *why = setup(&env);
    const char *stage = "calibrating the spin";
    cudaError_t e = why == NULL ? rt__bench_spin_calibrate(&env) : cudaSuccess;
    if (why == NULL && e == cudaSuccess) {
        stage = "measuring the ceilings";
        e = rt__bench_device_ceilings(&env);
    }
    char ceiling_msg[200];
    if (why == NULL && e != cudaSuccess) {
        snprintf(ceiling_msg, sizeof ceiling_msg, "%s: %s", stage, cudaGetErrorString(e));
        why = ceiling_msg;
    }
    if (why != NULL) {
        fprintf(stderr, "rt_bench: %s\n", why);
        teardown(&env);
        return 1;
    }
    rt__bench_print_header(stdout, &env);
    fflush(stdout);

    rt__bench_result *results = calloc((size_t)rt__bench_suite_len, sizeof(*results));
    int n = 0, failed = 0;
    for (int i = 0; results != NULL && i < rt__bench_suite_len; ++i) {
        const rt__bench_case *c = &rt__bench_suite[i];
        if (!rt__bench_case_matches(c, filter))
            continue;
        rt__bench_result *r = &results[n++];
        run_case(&env, c, 0x5eedbe9c00000000ull + (uint64_t)i, r);
        rt__bench_print_row(stdout, r);
        fflush(stdout); /* a long run shows progress, and a crash keeps rows */
        failed += r->status != RT_OK || r->error[0] != '\0' || strcmp(r->check, "MISMATCH") == 0 ||
                  strcmp(r->check, "cpu-failed") == 0;
    }
    if (results == NULL)
        fprintf(stderr, "rt_bench: out of host memory\n");
    if (json != NULL && results != NULL && !rt__bench_write_json(json, &env, results, n)) {
        fprintf(stderr, "rt_bench: cannot write %s\n", json);
        failed++;
    }
    if (n == 0 && results != NULL)
        fprintf(stderr, "rt_bench: no case matches '%s'\n", filter ? filter : "");
    printf("%d cases, %d failed\n", n, failed);
    free(results);
    teardown(&env);
    return failed || results == NULL || n == 0 ? 1 : 0;
}
