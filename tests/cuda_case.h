/*
 * Helpers of the CUDA tests (test_*cuda*.c), header-only so that the test
 * support library stays free of CUDA: running an rt_case (rt_cases.h) on a
 * CUDA context with device copies of its storage blocks, hand-made cases
 * for targeted shapes, and the launch configuration a case gets.
 *
 * A device copy keeps each block's bytes and the offset of element 0 from
 * a 256-byte aligned base, so the host block's misalignment is kept modulo
 * 16 bytes (malloc's alignment), which is what the kernels' vector paths
 * care about.
 */
#ifndef RT_TEST_CUDA_CASE_H
#define RT_TEST_CUDA_CASE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cuda_runtime_api.h>

#include "config.h"
#include "cuda_backend.h"
#include "iter.h"
#include "rt_cases.h"
#include "rt_elem.h"
#include "rt_ref.h"

/* A CUDA runtime call that must succeed (test infrastructure, not the
   library under test). */
#define CUDA_OK(expr)                                                                              \
    do {                                                                                           \
        cudaError_t cuda_ok_err = (expr);                                                          \
        if (cuda_ok_err != cudaSuccess)                                                            \
            fail_msg("%s: %s", #expr, cudaGetErrorString(cuda_ok_err));                            \
    } while (0)

/* Exit code CTest reads as "skipped": no GPU on this machine. */
#define CUDA_TEST_SKIP 77

/* Number of random cases: RT_TEST_CASES when set (sanitizer runs lower
   it), else `dflt`. */
static inline int cuda_test_case_count(int dflt) {
    const char *e = getenv("RT_TEST_CASES");
    if (e != NULL && *e != '\0') {
        int n = atoi(e);
        if (n > 0)
            return n;
    }
    return dflt;
}

/* A grow-only device buffer reused across cases. */
typedef struct dev_buf {
    void *p;
    size_t cap;
} dev_buf;

static inline void *dev_buf_get(dev_buf *b, size_t bytes) {
    if (bytes == 0)
        bytes = 1;
    if (bytes > b->cap) {
        if (b->p != NULL)
            CUDA_OK(cudaFree(b->p));
        b->p = NULL;
        CUDA_OK(cudaMalloc(&b->p, bytes));
        b->cap = bytes;
    }
    return b->p;
}

static inline void dev_buf_free(dev_buf *b) {
    if (b->p != NULL)
        CUDA_OK(cudaFree(b->p));
    b->p = NULL;
    b->cap = 0;
}

/* Device copies of a case's three blocks. */
typedef struct dev_case {
    dev_buf in, out, idx;
} dev_case;

static inline void dev_case_free(dev_case *d) {
    dev_buf_free(&d->in);
    dev_buf_free(&d->out);
    dev_buf_free(&d->idx);
}

/*
 * Runs case c on ctx (a CUDA context) with `policy`: copies the input
 * block to the device, fills the device output blocks with the poison
 * byte, calls reduce_tensor_ex, waits for `stream` (the context's) and
 * copies the output blocks back over c's host blocks, so rt_ref_check can
 * read them. Returns the call's status.
 */
static inline rt_status dev_case_run(rt_context *ctx, rt_case *c, dev_case *d, rt_policy policy,
                                     void *stream) {
    void *din = dev_buf_get(&d->in, c->in_buf.bytes);
    void *dout = dev_buf_get(&d->out, c->out_buf.bytes);
    void *didx = dev_buf_get(&d->idx, c->idx_buf.bytes);
    if (c->in_buf.bytes > 0)
        CUDA_OK(cudaMemcpy(din, c->in_buf.base, c->in_buf.bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dout, RT_CASE_POISON, c->out_buf.bytes));
    if (c->has_idx)
        CUDA_OK(cudaMemset(didx, RT_CASE_POISON, c->idx_buf.bytes));

    rt_tensor tin = rt_case_rebase(&c->in, &c->in_buf, din);
    rt_tensor tout = rt_case_rebase(&c->out, &c->out_buf, dout);
    rt_tensor tidx = rt_case_rebase(&c->idx, &c->idx_buf, didx);
    rt_reduce_args a;
    rt_case_args(c, &a);
    a.in = &tin;
    a.out = &tout;
    a.indices = c->has_idx ? &tidx : NULL;
    a.policy = policy;
    rt_status s = reduce_tensor_ex(ctx, &a);
    CUDA_OK(cudaStreamSynchronize((cudaStream_t)stream));
    CUDA_OK(cudaGetLastError());
    if (c->out_buf.bytes > 0)
        CUDA_OK(cudaMemcpy(c->out_buf.base, dout, c->out_buf.bytes, cudaMemcpyDeviceToHost));
    if (c->has_idx && c->idx_buf.bytes > 0)
        CUDA_OK(cudaMemcpy(c->idx_buf.base, didx, c->idx_buf.bytes, cudaMemcpyDeviceToHost));
    return s;
}

/* The naive reference of one case, computed at its first check and kept
   for every later run of the same case (TUNED, COMPAT, a rule turned
   off): rt_ref_compute walks the input in long double, 17-34 ns an element
   on a 2026 x86 core, which makes it most of a large case's time. Zero it
   before the first check; free it with case_ref_free. */
typedef struct case_ref {
    rt_ref ref;
    bool done;
} case_ref;

static inline void case_ref_free(case_ref *r) {
    if (r->done)
        rt_ref_free(&r->ref);
    memset(r, 0, sizeof *r);
}

/* Checks c's host blocks (after dev_case_run) against c's reference in r
   (computed here on the first check) under the GPU accumulation model;
   fails the test with the case's description on a mismatch (r freed). */
static inline void check_case_gpu_ref(const rt_case *c, case_ref *r, rt_status got,
                                      const char *what) {
    if (!r->done) {
        memset(&r->ref, 0, sizeof r->ref);
        if (rt_ref_compute(c, &r->ref) != 0)
            fail_msg("rt_ref_compute: out of memory");
        r->done = true;
    }
    char msg[1024], desc[1024];
    if (!rt_ref_check(c, &r->ref, got, RT_ACC_GPU, msg, sizeof msg)) {
        case_ref_free(r);
        rt_case_describe(c, desc, sizeof desc);
        fail_msg("%s: %s\n  case: %s", what, msg, desc);
    }
}

/* check_case_gpu_ref with a reference of its own. */
static inline void check_case_gpu(const rt_case *c, rt_status got, const char *what) {
    case_ref r;
    memset(&r, 0, sizeof r);
    check_case_gpu_ref(c, &r, got, what);
    case_ref_free(&r);
}

/* t as a contiguous tensor of dtype dt and `shape` (row-major strides);
   its data is left to the caller. */
static inline void set_contiguous(rt_tensor *t, rt_dtype dt, int nd, const int64_t *shape) {
    t->dtype = dt;
    t->ndim = nd;
    memcpy(t->shape, shape, sizeof(int64_t) * (size_t)nd);
    int64_t s = 1;
    for (int d = nd - 1; d >= 0; d--) {
        t->strides[d] = s;
        s *= shape[d] > 0 ? shape[d] : 1;
    }
}

/* A random value for dtype dt: floats in [-2, 2), integers over a range
   wide enough to overflow narrow sums, bools 0/1. */
static inline void put_random(void *p, rt_dtype dt, rt_rng *r) {
    switch (dt) {
    case RT_F32:
    case RT_F64:
    case RT_F16:
    case RT_BF16:
        rt_elem_put_f(p, dt, rt_rng_unit(r) * 4.0 - 2.0);
        break;
    case RT_BOOL:
        rt_elem_put_i(p, dt, (int64_t)(rt_rng_next(r) & 1));
        break;
    default:
        rt_elem_put_i(p, dt, rt_rng_range(r, -100, 100));
        break;
    }
}

static inline void case_buf_alloc(rt_case_buf *b, size_t bytes, size_t elem0) {
    b->bytes = bytes + elem0;
    b->elem0 = elem0;
    b->base = malloc(b->bytes > 0 ? b->bytes : 1);
    if (b->base == NULL)
        fail_msg("out of host memory");
    memset(b->base, RT_CASE_POISON, b->bytes);
}

/* Case c's outputs (and indices output when c->has_idx) for its input
   and dims: contiguous, of out_dt, poisoned. */
static inline void case_make_outputs(rt_case *c, rt_dtype out_dt) {
    const rt_tensor *in = &c->in;
    const int *dims = c->dims;
    const int ndims = c->ndims;
    const bool with_idx = c->has_idx;
    int ond = 0;
    int64_t oshape[RT_MAX_DIMS];
    if (rt_reduce_shape(in, dims, ndims, false, &ond, oshape) != RT_OK)
        fail_msg("case_make_outputs: bad dims");
    rt_tensor *out = &c->out;
    set_contiguous(out, out_dt, ond, oshape);
    int64_t onum = rt_case_numel(out);
    case_buf_alloc(&c->out_buf, (size_t)onum * rt_dtype_size(out_dt), 0);
    out->data = c->out_buf.base;
    if (with_idx) {
        c->idx = *out;
        c->idx.dtype = RT_I64;
        case_buf_alloc(&c->idx_buf, (size_t)onum * 8, 0);
        c->idx.data = c->idx_buf.base;
    }
}

/*
 * A hand-made case: a contiguous input of `shape` whose element 0 sits
 * `misalign` elements past a 16-byte boundary, reduced over dims with
 * keepdim false into a contiguous output of out_dt (and an int64 indices
 * output when with_idx), random data from seed. Free with rt_case_free.
 */
static inline void make_case(rt_case *c, rt_op op, rt_dtype dt, rt_dtype out_dt, int nd,
                             const int64_t *shape, const int *dims, int ndims, int misalign,
                             bool with_idx, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->op = op;
    c->correction = 1.0;
    c->p = 2.0;
    c->keepdim = false;
    c->ndims = ndims;
    memcpy(c->dims, dims, sizeof(int) * (size_t)ndims);
    c->has_idx = with_idx;

    rt_tensor *in = &c->in;
    set_contiguous(in, dt, nd, shape);
    size_t es = rt_dtype_size(dt);
    int64_t numel = rt_case_numel(in);
    case_buf_alloc(&c->in_buf, (size_t)numel * es, (size_t)misalign * es);
    in->data = c->in_buf.base + c->in_buf.elem0;
    rt_rng r;
    rt_rng_seed(&r, seed);
    for (int64_t i = 0; i < numel; i++)
        put_random((char *)in->data + i * (int64_t)es, dt, &r);

    case_make_outputs(c, out_dt);
}

/*
 * Makes c's input the view of its data with dims permuted: view dim d is
 * the current dim perm[d] (shape and strides), every element still there,
 * and remakes its outputs for c->dims over that view: a transposed or
 * otherwise permuted input from make_case's contiguous one.
 */
static inline void case_permute_input(rt_case *c, const int *perm) {
    rt_tensor *in = &c->in;
    int64_t shape[RT_MAX_DIMS], strides[RT_MAX_DIMS];
    for (int d = 0; d < in->ndim; d++) {
        shape[d] = in->shape[perm[d]];
        strides[d] = in->strides[perm[d]];
    }
    memcpy(in->shape, shape, sizeof(int64_t) * (size_t)in->ndim);
    memcpy(in->strides, strides, sizeof(int64_t) * (size_t)in->ndim);
    free(c->out_buf.base);
    free(c->idx_buf.base);
    memset(&c->out_buf, 0, sizeof c->out_buf);
    memset(&c->idx_buf, 0, sizeof c->idx_buf);
    case_make_outputs(c, c->out.dtype);
}

/*
 * The validated problem and iteration space the executor builds for case c
 * on ctx under policy. The case's device copy must exist (dev_case_run
 * ran), since validation asks the runtime where pointers live.
 */
static inline void case_iter(rt_context *ctx, const rt_case *c, const dev_case *d,
                             rt_policy policy, rt__problem *pb, rt__iter *it) {
    rt_tensor tin = rt_case_rebase(&c->in, &c->in_buf, d->in.p);
    rt_tensor tout = rt_case_rebase(&c->out, &c->out_buf, d->out.p);
    rt_tensor tidx = rt_case_rebase(&c->idx, &c->idx_buf, d->idx.p);
    rt_reduce_args a;
    rt_case_args(c, &a);
    a.in = &tin;
    a.out = &tout;
    a.indices = c->has_idx ? &tidx : NULL;
    a.policy = policy;
    assert_int_equal(rt__problem_init(ctx, &a, pb), RT_OK);
    rt__iter_build(pb, true, it);
}

/* An H100's and an H200's DRAM bandwidth (GB/s). TUNED takes the wide
   row blocks, the tile's half tiles, rule 7's chunks and the STREAM
   kernel's 4 vectors a thread over 64 MiB only on H100-class GPUs, and
   256 bytes a thread there on the others (rt__config_h100_class, tested
   in test_config_branches); the ROWS warp kernel's warps a block follow
   the bandwidth. The cases of those paths set the context's props (which
   the executor plans from) to one of these, so that any GPU runs them. */
enum { H100_CLASS_TEST_GBPS = 3352, H200_TEST_GBPS = 4915 };

/* Makes ctx plan as on a GPU of gbps DRAM bandwidth (its props' mem_gbps);
   returns the bandwidth it planned with before, to restore. */
static inline int case_plan_gbps(rt_context *ctx, int gbps) {
    rt__device_props *props = &ctx->cuda->props;
    const int had = props->mem_gbps;
    props->mem_gbps = gbps;
    return had;
}

/* The SMs of the small GPU that cases of rules with a floor in blocks a
   SM plan on (case_plan_sms): the ROWS column kernel's and the two-pass
   rows' cases. */
enum { SMALL_GPU_TEST_SMS = 4 };

/* Makes ctx plan as on a GPU of sms SMs (its props' num_sms), so that a
   rule with a floor in blocks a SM takes a small case; returns the count
   it planned with before, to restore. */
static inline int case_plan_sms(rt_context *ctx, int sms) {
    rt__device_props *props = &ctx->cuda->props;
    const int had = props->num_sms;
    props->num_sms = sms;
    return had;
}

/* The problem, iteration space and launch configuration case c gets on
   ctx under policy (one piece): the same validation, iter and config the
   executor computes. */
static inline rt__launch_config case_plan(rt_context *ctx, const rt_case *c, const dev_case *d,
                                          rt_policy policy, rt__problem *pb, rt__iter *it) {
    case_iter(ctx, c, d, policy, pb, it);
    rt__op_traits tr;
    assert_int_equal(rt__cuda_op_traits(ctx, pb, &tr), RT_OK);
    rt__launch_config cfg;
    /* As the executor plans it: without the kinds the context turns off. */
    assert_int_equal(rt__config_compute_without(it, &tr, rt__cuda_props(ctx), policy,
                                                ctx->kinds_off, &cfg),
                     RT_OK);
    return cfg;
}

/* The launch configuration alone (case_plan). */
static inline rt__launch_config case_config(rt_context *ctx, const rt_case *c, const dev_case *d,
                                            rt_policy policy) {
    rt__problem pb;
    rt__iter it;
    return case_plan(ctx, c, d, policy, &pb, &it);
}

/* The walk the executor packs for c under policy (launch.h: walk,
   walk_step, walk_digit, walk_carry, walk_count into walk[0..4]; walk 0:
   every reduced index's offset divided out, or another path; walk_count
   0: not uniform). */
static inline void case_walk(rt_context *ctx, const rt_case *c, const dev_case *d,
                             rt_policy policy, int32_t walk[5]) {
    rt__problem pb;
    rt__iter it;
    const rt__launch_config cfg = case_plan(ctx, c, d, policy, &pb, &it);
    assert_int_equal(rt__cuda_walk(&pb, &it, &cfg, walk), RT_OK);
}

/* The start of every GPU test's main: CUDA_TEST_SKIP without a CUDA
   device, 1 if a CUDA context on device 0 cannot be made, else 0 with
   *gpu ready. */
static inline int open_gpu_context(rt_context **gpu) {
    if (rt_cuda_device_count() <= 0) {
        printf("no CUDA device: skipped\n");
        return CUDA_TEST_SKIP;
    }
    if (rt_context_create(gpu, RT_DEVICE_CUDA, 0) != RT_OK) {
        printf("context creation failed\n");
        return 1;
    }
    return 0;
}

#endif /* RT_TEST_CUDA_CASE_H */
