/*
 * host_bench: where the host time of one tiny reduction goes. Times, per
 * call, back-to-back reduce_tensor on 256 floats (then one sync; a second
 * line with the plan memo off, each call planned whole), and each
 * host stage of that call alone: validation (rt__problem_init, with its
 * pointer checks), the iteration space, the launch configuration, one
 * pointer check (rt__cuda_check_pointer: the driver's
 * cuPointerGetAttributes) against the runtime's cudaPointerGetAttributes,
 * and cudaGetDevice and cudaGetLastError; then, enqueued without a sync, the executor alone on
 * the validated problem, its kernel launch alone (packed once), that
 * launch after each host stage in turn (what the stage costs between
 * launches, rather than in a loop of its own), CUB's
 * DeviceReduce::Sum on the same 256 floats, and empty kernels through each
 * launch path. Prints one line per stage, ns per call (median of 5
 * batches). Measurements: bench/NOTES-general.md, bench/NOTES.md.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "config.h"
#include "cuda_args.h"
#include "cuda_backend.h"
#include "iter.h"
#include "launch.h"
#include "rt_internal.h"

enum { CALLS = 20000, BATCHES = 5 };

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct job {
    rt_context *ctx;
    rt_reduce_args args;
    rt__problem pb;
    rt__iter it;
    rt__op_traits traits;
    float *dev;
    int sink;
    /* The reduction's own launch, packed once (st_launch_real). */
    rt__kernel_args real_args;
    rt__launch_config real_cfg;
    rt__launch_fn real_launch;
    size_t real_smem;
    /* or, where TUNED picks the TINY kernel, its launch and arguments */
    rt__tiny_args real_tiny_args;
    rt__tiny_launch_fn real_tiny;
    void *cub_temp;
    size_t cub_temp_bytes;
} job;

typedef void (*stage_fn)(job *j);

cudaError_t rt_bench_cub_sum_host(void *temp, size_t *temp_bytes, const float *in, float *out,
                                  int n); /* host_kernels.cu */

static void st_call(job *j) {
    j->sink += reduce_tensor_ex(j->ctx, &j->args);
}
/* The same call planned whole every time: the plan memo off
   (src/kernels/cuda_memo.c), as every call was before it. */
static void st_call_whole(job *j) {
    rt__context_set_kinds_off(j->ctx, RT__RULE_OFF_MEMO);
    j->sink += reduce_tensor_ex(j->ctx, &j->args);
    rt__context_set_kinds_off(j->ctx, 0);
}
static void st_validate(job *j) {
    j->sink += rt__problem_init(j->ctx, &j->args, &j->pb);
}
static void st_iter(job *j) {
    rt__iter_build(&j->pb, true, &j->it);
    j->sink += j->it.ndim;
}
static void st_config(job *j) {
    rt__launch_config c;
    j->sink += rt__config_compute(&j->it, &j->traits, rt__cuda_props(j->ctx), j->pb.policy, &c);
}
static void st_execute(job *j) {
    j->sink += rt__cuda_execute(j->ctx, &j->pb);
}
static void st_launch_real(job *j) {
    if (j->real_tiny != NULL)
        j->sink += j->real_tiny(&j->real_tiny_args, &j->real_cfg, 0, j->ctx->device_index);
    else
        j->sink += j->real_launch(&j->real_args, &j->real_cfg, j->real_smem, 0,
                                  j->ctx->device_index);
}
static void st_cub(job *j) {
    j->sink += rt_bench_cub_sum_host(j->cub_temp, &j->cub_temp_bytes, j->dev, j->dev + 256, 256);
}
static void st_attr(job *j) {
    struct cudaPointerAttributes a;
    j->sink += cudaPointerGetAttributes(&a, j->dev);
}
/* The library's own check: the driver's cuPointerGetAttributes where the
   runtime gave it (cuda_context.c). */
static void st_attr_driver(job *j) {
    j->sink += rt__cuda_check_pointer(j->ctx, j->dev);
}
static void st_getdev(job *j) {
    int d;
    j->sink += cudaGetDevice(&d);
}
/* A stage and then the reduction's own launch: what a stage costs between
   launches, where the driver's launch path may have left the CPU's caches
   (or the driver's locks) otherwise than a loop of the stage alone does. */
static void st_ptr2_launch(job *j) {
    st_attr(j);
    st_attr(j);
    st_launch_real(j);
}
static void st_drv2_launch(job *j) {
    st_attr_driver(j);
    st_attr_driver(j);
    st_launch_real(j);
}
static void st_getdev_launch(job *j) {
    st_getdev(j);
    st_launch_real(j);
}
static void st_validate_launch(job *j) {
    st_validate(j);
    st_launch_real(j);
}
static void st_plan_launch(job *j) {
    st_validate(j);
    st_iter(j);
    st_config(j);
    st_launch_real(j);
}
static void st_lasterr(job *j) {
    j->sink += cudaGetLastError();
}

static double time_stage(job *j, stage_fn f, bool sync) {
    double per[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        for (int i = 0; i < CALLS; i++)
            f(j);
        if (sync)
            cudaDeviceSynchronize();
        per[b] = (now_ns() - t0) / CALLS;
    }
    qsort(per, BATCHES, sizeof per[0], cmp_double);
    return per[BATCHES / 2];
}

cudaError_t rt_bench_launch_empty(int big, const rt__kernel_args *a); /* host_kernels.cu */

cudaError_t rt_bench_launch_empty_fast(const rt__kernel_args *a);    /* host_kernels.cu */
cudaError_t rt_bench_launch_empty_runtime(const rt__kernel_args *a); /* host_kernels.cu */

/* The launch reduce_tensor_ex makes for j's problem, packed as
   rt__cuda_execute packs it (one piece, first and last), so its cost can be
   told from the library's work around it. */
static int pack_real_launch(job *j) {
    rt__op_traits traits;
    if (rt__cuda_op_traits(j->ctx, &j->pb, &traits) != RT_OK ||
        rt__config_compute(&j->it, &traits, rt__cuda_props(j->ctx), RT_POLICY_TUNED,
                           &j->real_cfg) != RT_OK)
        return 1;
    const rt__kernel_entry *e = rt__kernel_lookup(RT__FAM_SUM, RT_F32);
    if (e == NULL)
        return 1;
    j->real_tiny = NULL;
    if (j->real_cfg.kernel == RT__KERNEL_TINY) {
        rt__kernel_args op;
        memset(&op, 0, sizeof op);
        op.out_dtype = RT_F32;
        rt__cuda_pack_tiny(&j->it, &op, true, true, &j->real_tiny_args);
        j->real_tiny = rt__tiny_lookup(RT__FAM_SUM, RT_F32);
        return j->real_tiny == NULL;
    }
    j->real_launch = j->real_cfg.kernel == RT__KERNEL_ROWS ? rt__rows_lookup(RT__FAM_SUM, RT_F32)
                                                            : e->launch;
    j->real_smem = (size_t)rt__cuda_shared_bytes(&j->real_cfg, e->acc_size);
    memset(&j->real_args, 0, sizeof j->real_args);
    j->real_args.out_dtype = RT_F32;
    rt__cuda_pack_iter(&j->it, &j->real_args);
    rt__cuda_pack_config(&j->real_cfg, &j->real_args);
    rt__cuda_pack_walk(&j->it, &j->real_cfg, e->input_vec, &j->real_args);
    j->real_args.first = 1;
    j->real_args.last = 1;
    return j->real_launch == NULL || j->real_cfg.staging_bytes != 0;
}

static rt__kernel_args g_empty_args;
static void st_empty_fast(job *j) {
    j->sink += rt_bench_launch_empty_fast(&g_empty_args);
}
static void st_empty_runtime(job *j) {
    j->sink += rt_bench_launch_empty_runtime(&g_empty_args);
}
static void st_empty_big(job *j) {
    j->sink += rt_bench_launch_empty(1, &g_empty_args);
}
static void st_empty_small(job *j) {
    j->sink += rt_bench_launch_empty(0, &g_empty_args);
}

/* Host time alone: ENQUEUE_CALLS calls, few enough that the launch queue
   never fills, timed without the final sync (which follows untimed). */
enum { ENQUEUE_CALLS = 200 };
static double time_enqueue(job *j, stage_fn f) {
    double per[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        cudaDeviceSynchronize();
        double t0 = now_ns();
        for (int i = 0; i < ENQUEUE_CALLS; i++)
            f(j);
        per[b] = (now_ns() - t0) / ENQUEUE_CALLS;
        cudaDeviceSynchronize();
    }
    qsort(per, BATCHES, sizeof per[0], cmp_double);
    return per[BATCHES / 2];
}

int main(void) {
    job j;
    memset(&j, 0, sizeof j);
    if (rt_context_create(&j.ctx, RT_DEVICE_CUDA, 0) != RT_OK) {
        fprintf(stderr, "host_bench: no CUDA context\n");
        return 1;
    }
    if (cudaMalloc((void **)&j.dev, 257 * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemset(j.dev, 0, 257 * sizeof(float));
    static rt_tensor in, out;
    in = (rt_tensor){j.dev, RT_F32, 1, {256}, {1}};
    out = (rt_tensor){j.dev + 256, RT_F32, 0, {0}, {0}};
    rt_reduce_args_init(&j.args);
    j.args.op = RT_OP_SUM;
    j.args.in = &in;
    j.args.out = &out;
    j.traits = rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0);
    if (rt__problem_init(j.ctx, &j.args, &j.pb) != RT_OK)
        return 1;
    rt__iter_build(&j.pb, true, &j.it);
    if (pack_real_launch(&j) != 0 ||
        rt_bench_cub_sum_host(NULL, &j.cub_temp_bytes, NULL, NULL, 256) != cudaSuccess ||
        cudaMalloc(&j.cub_temp, j.cub_temp_bytes > 0 ? j.cub_temp_bytes : 1) != cudaSuccess) {
        fprintf(stderr, "host_bench: setup failed\n");
        cudaFree(j.dev);
        rt_context_destroy(j.ctx);
        return 1;
    }

    static const struct {
        const char *name;
        stage_fn f;
        bool sync;
    } stages[] = {
        {"reduce_tensor_ex (sum of 256 f32)", st_call, true},
        {"reduce_tensor_ex, memo off", st_call_whole, true},
        {"  rt__problem_init (validation)", st_validate, false},
        {"  rt__iter_build", st_iter, false},
        {"  rt__config_compute", st_config, false},
        {"  cudaPointerGetAttributes", st_attr, false},
        {"  rt__cuda_check_pointer (driver)", st_attr_driver, false},
        {"  cudaGetDevice", st_getdev, false},
        {"  cudaGetLastError", st_lasterr, false},
    };
    for (int pass = 0; pass < 2; pass++) {
        j.args.policy = pass == 0 ? RT_POLICY_COMPAT : RT_POLICY_TUNED;
        j.pb.policy = j.args.policy;
        printf("host_bench, policy %s, %d calls x %d batches, median ns per call\n",
               pass == 0 ? "compat" : "tuned", CALLS, BATCHES);
        for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
            (void)time_stage(&j, stages[s].f, stages[s].sync); /* warm-up */
            printf("  %-40s %8.1f\n", stages[s].name, time_stage(&j, stages[s].f, stages[s].sync));
        }
        static const struct {
            const char *name;
            stage_fn f;
        } enq[] = {{"reduce_tensor_ex, enqueue only (200)", st_call},
                   {"reduce_tensor_ex, memo off, enqueue", st_call_whole},
                   {"rt__cuda_execute (validated), enqueue", st_execute},
                   {"its kernel launch alone (packed), enqueue", st_launch_real},
                   {"  2 cudaPointerGetAttributes + launch", st_ptr2_launch},
                   {"  2 rt__cuda_check_pointer + launch", st_drv2_launch},
                   {"  cudaGetDevice + launch", st_getdev_launch},
                   {"  validation + launch", st_validate_launch},
                   {"  validation, iter, config + launch", st_plan_launch},
                   {"CUB DeviceReduce::Sum of 256 f32, enqueue", st_cub},
                   {"empty kernel, 900-byte args, enqueue", st_empty_big},
                   {"empty kernel, 12-byte args, enqueue", st_empty_small},
                   {"empty kernel, 900 B, cudaLaunchKernel", st_empty_runtime},
                   {"empty kernel, 900 B, launch_fast", st_empty_fast}};
        for (size_t e = 0; e < sizeof enq / sizeof enq[0]; e++) {
            (void)time_enqueue(&j, enq[e].f);
            printf("  %-40s %8.1f\n", enq[e].name, time_enqueue(&j, enq[e].f));
        }
    }
    cudaFree(j.cub_temp);
    cudaFree(j.dev);
    rt_context_destroy(j.ctx);
    return j.sink == -1;
}
