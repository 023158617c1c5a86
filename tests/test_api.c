/*
 * The public API around the backends: validation (every status, with the
 * outputs left byte-identical), status/dtype/op tables, dtype rules,
 * contexts, rt_reduce_shape, and the problem the validator hands to the
 * backends. A few end-to-end calls check the dispatch; exhaustive numeric
 * tests live in the backends' test files.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rt_internal.h"

/* ---- a valid call, mutated by each error case ------------------------- */

/* All tensors of a call live in one arena, so "untouched" is one memcmp and
   covers the input and any bytes a stray write could reach. */
enum { IN_OFF = 0, OUT_OFF = 1024, IDX_OFF = 2048, ARENA = 4096 };

typedef struct call {
    _Alignas(16) unsigned char arena[ARENA];
    rt_tensor in, out, idx;
    int dims[4];
    rt_reduce_args args;
    rt_context *ctx;
} call;

static rt_tensor contiguous(void *data, rt_dtype dtype, int ndim, const int64_t *shape) {
    rt_tensor t;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.dtype = dtype;
    t.ndim = ndim;
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        t.shape[d] = shape[d];
        t.strides[d] = stride;
        stride *= shape[d];
    }
    return t;
}

static uint32_t lcg_state;
static float next_value(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)((lcg_state >> 8) % 2001u) / 100.0f - 10.0f; /* [-10, 10] */
}

/* max over dim 1 of a [2,3,4] f32 input into [2,4] values and indices:
   the call that exercises every operand. Tests drop what they don't need. */
static void call_init(call *c, rt_context *ctx) {
    memset(c, 0, sizeof *c);
    lcg_state = 12345u;
    float *x = (float *)(c->arena + IN_OFF);
    for (int i = 0; i < 24; i++)
        x[i] = next_value();
    memset(c->arena + OUT_OFF, 0xA5, ARENA - OUT_OFF);
    c->in = contiguous(x, RT_F32, 3, (int64_t[]){2, 3, 4});
    c->out = contiguous(c->arena + OUT_OFF, RT_F32, 2, (int64_t[]){2, 4});
    c->idx = contiguous(c->arena + IDX_OFF, RT_I64, 2, (int64_t[]){2, 4});
    c->dims[0] = 1;
    c->ctx = ctx;
    rt_reduce_args_init(&c->args);
    c->args.op = RT_OP_MAX;
    c->args.in = &c->in;
    c->args.dims = c->dims;
    c->args.ndims = 1;
    c->args.out = &c->out;
    c->args.indices = &c->idx;
}

/* Runs the call, checks the status and that no byte of the arena moved. */
static void expect_status(call *c, rt_status want) {
    unsigned char before[ARENA];
    memcpy(before, c->arena, ARENA);
    rt_status got = reduce_tensor_ex(c->ctx, &c->args);
    if (got != want)
        fail_msg("got %s, want %s", rt_status_name(got), rt_status_name(want));
    assert_memory_equal(before, c->arena, ARENA);
}

static int setup_ctx(void **state) {
    rt_context *ctx = NULL;
    if (rt_context_create(&ctx, RT_DEVICE_CPU, 0) != RT_OK)
        return -1;
    *state = ctx;
    return 0;
}

static int teardown_ctx(void **state) {
    rt_context_destroy(*state);
    return 0;
}

/* ---- validation: one test per status ----------------------------------- */

static void test_valid_baseline(void **state) {
    /* The unmutated call passes validation (checked without a backend). */
    call c;
    call_init(&c, *state);
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
}

static void test_null_pointer(void **state) {
    call c;
    call_init(&c, *state);
    c.ctx = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    assert_int_equal(reduce_tensor_ex(c.ctx, NULL), RT_ERR_NULL_POINTER);
    c.args.in = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    c.args.out = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    c.args.dims = NULL; /* with ndims 1 */
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    c.in.data = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    c.out.data = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    call_init(&c, *state);
    c.idx.data = NULL;
    expect_status(&c, RT_ERR_NULL_POINTER);
    /* The short form checks the same. */
    call_init(&c, *state);
    assert_int_equal(reduce_tensor(NULL, RT_OP_SUM, &c.in, c.dims, 1, false, &c.out),
                     RT_ERR_NULL_POINTER);
    assert_int_equal(reduce_tensor(c.ctx, RT_OP_SUM, &c.in, NULL, 2, false, &c.out),
                     RT_ERR_NULL_POINTER);
}

static void test_null_data_allowed_when_empty(void **state) {
    /* An empty input may have NULL data: sum over an empty dim is 0. Check
       through the validator only, so this does not need the backend. */
    call c;
    call_init(&c, *state);
    c.args.op = RT_OP_SUM;
    c.args.indices = NULL;
    c.in.shape[1] = 0;
    c.in.data = NULL;
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    assert_int_equal(pb.reduce_count, 0);
    assert_int_equal(pb.out_count, 8);
}

static void test_bad_argument(void **state) {
    call c;
    call_init(&c, *state);
    c.args.ndims = -1;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_VAR;
    c.args.correction = -0.5;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
    c.args.op = RT_OP_STD;
    c.args.correction = NAN;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
    c.args.op = RT_OP_NORM;
    c.args.correction = 1;
    c.args.p = NAN;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
    c.args.op = RT_OP_SUM;
    c.args.p = 2;
    c.args.policy = (rt_policy)7;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
    c.args.policy = (rt_policy)-1;
    expect_status(&c, RT_ERR_BAD_ARGUMENT);
}

static void test_params_only_checked_for_their_op(void **state) {
    /* A correction is meaningless to sum and a p to var: not errors. */
    call c;
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.args.correction = -3;
    c.args.p = NAN;
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    c.args.op = RT_OP_VAR;
    c.args.correction = INFINITY; /* allowed: N - inf <= 0 gives NaN */
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    c.args.op = RT_OP_NORM;
    c.args.p = -INFINITY;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
}

static void test_bad_ndim(void **state) {
    call c;
    call_init(&c, *state);
    c.in.ndim = RT_MAX_DIMS + 1;
    expect_status(&c, RT_ERR_BAD_NDIM);
    c.in.ndim = -1;
    expect_status(&c, RT_ERR_BAD_NDIM);
    call_init(&c, *state);
    c.out.ndim = RT_MAX_DIMS + 1;
    expect_status(&c, RT_ERR_BAD_NDIM);
    call_init(&c, *state);
    c.idx.ndim = -2;
    expect_status(&c, RT_ERR_BAD_NDIM);
}

static void test_bad_shape(void **state) {
    call c;
    call_init(&c, *state);
    c.in.shape[2] = -4;
    expect_status(&c, RT_ERR_BAD_SHAPE);
    call_init(&c, *state);
    c.out.shape[0] = -1;
    expect_status(&c, RT_ERR_BAD_SHAPE);
    call_init(&c, *state);
    c.idx.shape[1] = INT64_MIN;
    expect_status(&c, RT_ERR_BAD_SHAPE);
}

static void test_bad_dtype(void **state) {
    call c;
    call_init(&c, *state);
    c.in.dtype = RT_DTYPE_COUNT;
    expect_status(&c, RT_ERR_BAD_DTYPE);
    call_init(&c, *state);
    c.out.dtype = (rt_dtype)-1;
    expect_status(&c, RT_ERR_BAD_DTYPE);
    call_init(&c, *state);
    c.idx.dtype = (rt_dtype)99;
    expect_status(&c, RT_ERR_BAD_DTYPE);
}

static void test_bad_op(void **state) {
    call c;
    call_init(&c, *state);
    c.args.op = RT_OP_COUNT;
    expect_status(&c, RT_ERR_BAD_OP);
    c.args.op = (rt_op)-1;
    expect_status(&c, RT_ERR_BAD_OP);
}

static void test_bad_dim(void **state) {
    call c;
    call_init(&c, *state);
    c.dims[0] = 3;
    expect_status(&c, RT_ERR_BAD_DIM);
    c.dims[0] = -4;
    expect_status(&c, RT_ERR_BAD_DIM);
    /* A scalar accepts 0 and -1 only. */
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.in.ndim = 0;
    c.out.ndim = 0;
    c.dims[0] = 1;
    expect_status(&c, RT_ERR_BAD_DIM);
    c.dims[0] = -2;
    expect_status(&c, RT_ERR_BAD_DIM);
}

static void test_duplicate_dim(void **state) {
    call c;
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.out = contiguous(c.out.data, RT_F32, 1, (int64_t[]){2});
    c.dims[0] = 1;
    c.dims[1] = 1;
    c.args.ndims = 2;
    expect_status(&c, RT_ERR_DUPLICATE_DIM);
    c.dims[0] = -1;
    c.dims[1] = 2;
    expect_status(&c, RT_ERR_DUPLICATE_DIM);
    /* Out of range wins over a duplicate, whatever the order. */
    c.dims[0] = 1;
    c.dims[1] = 1;
    c.dims[2] = 7;
    c.args.ndims = 3;
    expect_status(&c, RT_ERR_BAD_DIM);
    /* The one virtual dim of a scalar, named twice. */
    c.in.ndim = 0;
    c.out.ndim = 0;
    c.dims[0] = 0;
    c.dims[1] = -1;
    c.args.ndims = 2;
    expect_status(&c, RT_ERR_DUPLICATE_DIM);
}

static void test_overflow(void **state) {
    call c;
    call_init(&c, *state);
    /* Element count past int64. */
    c.in.shape[0] = INT64_C(1) << 40;
    c.in.shape[2] = INT64_C(1) << 40;
    expect_status(&c, RT_ERR_OVERFLOW);
    /* Offsets fit in elements but not in bytes. */
    call_init(&c, *state);
    c.in.strides[0] = INT64_MAX / 2;
    expect_status(&c, RT_ERR_OVERFLOW);
    /* Negative reach past INT64_MIN. */
    call_init(&c, *state);
    c.in.strides[2] = INT64_MIN / 2;
    expect_status(&c, RT_ERR_OVERFLOW);
    /* The output's span. */
    call_init(&c, *state);
    c.out.strides[0] = INT64_MAX / 3;
    expect_status(&c, RT_ERR_OVERFLOW);
    call_init(&c, *state);
    c.idx.strides[1] = INT64_MAX / 8 + 1;
    expect_status(&c, RT_ERR_OVERFLOW);
    /* An empty input whose reduced extents alone overflow. */
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.in.shape[0] = 0;
    c.in.shape[1] = INT64_C(1) << 40;
    c.in.shape[2] = INT64_C(1) << 40;
    c.dims[1] = 2;
    c.args.ndims = 2;
    c.out = contiguous(c.out.data, RT_F32, 1, (int64_t[]){0});
    expect_status(&c, RT_ERR_OVERFLOW);
}

static void test_unsupported(void **state) {
    static const struct {
        rt_op op;
        rt_dtype in;
    } cases[] = {{RT_OP_MEAN, RT_I32}, {RT_OP_VAR, RT_BOOL}, {RT_OP_STD, RT_I64},
                 {RT_OP_NORM, RT_U8},  {RT_OP_MEAN, RT_I8}, {RT_OP_VAR, RT_I16}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        call c;
        call_init(&c, *state);
        c.args.indices = NULL;
        c.args.op = cases[i].op;
        c.in.dtype = cases[i].in;
        c.out.dtype = RT_F32;
        expect_status(&c, RT_ERR_UNSUPPORTED);
    }
}

static void test_out_dtype(void **state) {
    static const struct {
        rt_op op;
        rt_dtype in, out;
    } cases[] = {{RT_OP_SUM, RT_F32, RT_F16},   {RT_OP_SUM, RT_I32, RT_F32},
                 {RT_OP_MEAN, RT_F32, RT_I64},  {RT_OP_MAX, RT_F32, RT_F64},
                 {RT_OP_ARGMAX, RT_F32, RT_I32}, {RT_OP_ANY, RT_F32, RT_U8},
                 {RT_OP_PROD, RT_F16, RT_BF16}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        call c;
        call_init(&c, *state);
        c.args.indices = NULL;
        c.args.op = cases[i].op;
        c.in.dtype = cases[i].in;
        c.out.dtype = cases[i].out;
        expect_status(&c, RT_ERR_OUT_DTYPE);
    }
}

static void test_out_shape(void **state) {
    call c;
    call_init(&c, *state);
    c.out.shape[1] = 3;
    expect_status(&c, RT_ERR_OUT_SHAPE);
    /* keepdim asks for [2,1,4]; [2,4] has the wrong rank. */
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.keepdim = true;
    expect_status(&c, RT_ERR_OUT_SHAPE);
    /* Right rank, reduced dim not 1. */
    c.out = contiguous(c.out.data, RT_F32, 3, (int64_t[]){2, 3, 4});
    expect_status(&c, RT_ERR_OUT_SHAPE);
}

static void test_indices(void **state) {
    call c;
    call_init(&c, *state);
    c.args.op = RT_OP_SUM;
    expect_status(&c, RT_ERR_INDICES);
    c.args.op = RT_OP_ARGMAX;
    c.out.dtype = RT_I64;
    expect_status(&c, RT_ERR_INDICES);
    call_init(&c, *state);
    c.idx.dtype = RT_I32;
    expect_status(&c, RT_ERR_INDICES);
    call_init(&c, *state);
    c.idx.shape[0] = 1;
    expect_status(&c, RT_ERR_INDICES);
    call_init(&c, *state);
    c.idx.ndim = 3;
    c.idx.shape[2] = 1;
    expect_status(&c, RT_ERR_INDICES);
}

static void test_self_overlap(void **state) {
    call c;
    call_init(&c, *state);
    c.out.strides[1] = 0; /* four outputs in one element */
    expect_status(&c, RT_ERR_SELF_OVERLAP);
    call_init(&c, *state);
    c.out.strides[0] = 2; /* rows of 4 that start 2 apart */
    expect_status(&c, RT_ERR_SELF_OVERLAP);
    call_init(&c, *state);
    c.out.strides[0] = -3; /* negative strides are measured by magnitude */
    expect_status(&c, RT_ERR_SELF_OVERLAP);
    call_init(&c, *state);
    c.idx.strides[0] = 0;
    expect_status(&c, RT_ERR_SELF_OVERLAP);
    /* Zero strides on extent-1 dims and transposed/negative layouts are fine. */
    call_init(&c, *state);
    c.out.strides[0] = -1;
    c.out.strides[1] = 2;
    c.out.data = c.arena + OUT_OFF + 4 * sizeof(float);
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    c.args.keepdim = true;
    c.out = contiguous(c.arena + OUT_OFF, RT_F32, 3, (int64_t[]){2, 1, 4});
    c.out.strides[1] = 0;
    c.idx = contiguous(c.arena + IDX_OFF, RT_I64, 3, (int64_t[]){2, 1, 4});
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
}

static void test_overlap(void **state) {
    call c;
    call_init(&c, *state);
    c.out.data = c.arena + IN_OFF + 20 * sizeof(float); /* tail of the input */
    expect_status(&c, RT_ERR_OVERLAP);
    /* Sharing one byte is enough: the output starts at the input's last
       byte (outputs need only element-size alignment in general; the
       validator looks at bytes). */
    call_init(&c, *state);
    c.out.data = c.arena + IN_OFF + 24 * sizeof(float) - 1;
    expect_status(&c, RT_ERR_OVERLAP);
    call_init(&c, *state);
    c.idx.data = c.arena + OUT_OFF + 4; /* values and indices share bytes */
    expect_status(&c, RT_ERR_OVERLAP);
    call_init(&c, *state);
    c.idx.data = c.arena + IN_OFF;
    expect_status(&c, RT_ERR_OVERLAP);
    /* Conservative by design: the output in the gaps of a strided input
       shares no element with it but lies inside its byte range. */
    call_init(&c, *state);
    c.args.indices = NULL;
    c.in = contiguous(c.arena + IN_OFF, RT_F32, 1, (int64_t[]){8});
    c.in.strides[0] = 2;
    c.out = contiguous(c.arena + IN_OFF + sizeof(float), RT_F32, 0, NULL);
    c.args.ndims = 0;
    expect_status(&c, RT_ERR_OVERLAP);
    /* Adjacent but disjoint ranges are fine. */
    c.in.strides[0] = 1;
    c.out.data = c.arena + IN_OFF + 8 * sizeof(float);
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
}

static void test_empty_reduction(void **state) {
    const rt_op ops[] = {RT_OP_MIN, RT_OP_MAX, RT_OP_ARGMIN, RT_OP_ARGMAX};
    for (size_t i = 0; i < 4; i++) {
        call c;
        call_init(&c, *state);
        c.args.op = ops[i];
        if (ops[i] == RT_OP_ARGMIN || ops[i] == RT_OP_ARGMAX) {
            c.args.indices = NULL;
            c.out.dtype = RT_I64;
        }
        c.in.shape[1] = 0;
        expect_status(&c, RT_ERR_EMPTY_REDUCTION);
        /* Even when the output is empty too. */
        c.in.shape[0] = 0;
        c.out.shape[0] = 0;
        c.idx.shape[0] = 0;
        expect_status(&c, RT_ERR_EMPTY_REDUCTION);
    }
}

static void test_first_problem_wins(void **state) {
    call c;
    call_init(&c, *state);
    c.args.op = RT_OP_COUNT; /* bad op ... */
    c.in.ndim = 99;          /* ... but a bad rank comes first */
    expect_status(&c, RT_ERR_BAD_NDIM);
    c.in.ndim = 3;
    c.in.shape[0] = -1;
    c.out.dtype = (rt_dtype)50; /* extents before dtypes */
    expect_status(&c, RT_ERR_BAD_SHAPE);
    call_init(&c, *state);
    c.out.dtype = RT_F64; /* bad dtype and bad shape: dtype first */
    c.out.shape[0] = 5;
    expect_status(&c, RT_ERR_OUT_DTYPE);
    call_init(&c, *state);
    c.out.strides[1] = 0; /* self-overlap and NULL input data */
    c.in.data = NULL;
    expect_status(&c, RT_ERR_SELF_OVERLAP);
}

static void test_wrong_memory_absent_on_cpu(void **state) {
    /* Without CUDA no host pointer is device memory: a CPU context accepts
       every host buffer. (The CUDA tests check the positive case.) */
    (void)state;
    float x = 1;
    assert_false(rt__cuda_pointer_is_device_only(&x));
#ifndef RT_HAVE_CUDA
    assert_int_equal(rt_cuda_device_count(), 0);
    assert_int_equal(rt__cuda_check_pointer(NULL, &x), RT_ERR_NO_CUDA);
#endif
}

/* ---- what the validator hands the backends ----------------------------- */

static void test_problem_fields(void **state) {
    call c;
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.dims[0] = -1;
    c.dims[1] = 0;
    c.args.ndims = 2;
    /* [2,3,4] over (0, 2) -> [3], with a stride-2 output. */
    c.out = contiguous(c.out.data, RT_F32, 1, (int64_t[]){3});
    c.out.strides[0] = 2;
    rt__problem pb;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    assert_int_equal(pb.reduce_mask, 0x5);
    assert_int_equal(pb.reduce_count, 8);
    assert_int_equal(pb.out_count, 3);
    assert_int_equal(pb.out_full.ndim, 3);
    assert_true(pb.out_full.data == c.out.data);
    assert_int_equal(pb.out_full.shape[0], 1);
    assert_int_equal(pb.out_full.shape[1], 3);
    assert_int_equal(pb.out_full.shape[2], 1);
    assert_int_equal(pb.out_full.strides[0], 0);
    assert_int_equal(pb.out_full.strides[1], 2);
    assert_int_equal(pb.out_full.strides[2], 0);
    assert_false(pb.has_indices);
    assert_int_equal(pb.policy, RT_POLICY_TUNED);

    /* keepdim: the output's own extent-1 strides are replaced by 0. */
    call_init(&c, *state);
    c.args.keepdim = true;
    c.out = contiguous(c.out.data, RT_F32, 3, (int64_t[]){2, 1, 4});
    c.out.strides[1] = 77;
    c.idx = contiguous(c.idx.data, RT_I64, 3, (int64_t[]){2, 1, 4});
    c.args.policy = RT_POLICY_COMPAT;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    assert_true(pb.has_indices);
    assert_int_equal(pb.reduce_mask, 0x2);
    assert_int_equal(pb.idx_full.strides[0], 4);
    assert_int_equal(pb.idx_full.strides[1], 0);
    assert_int_equal(pb.out_full.strides[1], 0);
    assert_int_equal(pb.out_full.shape[2], 4);
    assert_int_equal(pb.policy, RT_POLICY_COMPAT);

    /* The context's policy applies when the call says DEFAULT. */
    rt_context *ctx = NULL;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CPU, 0), RT_OK);
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_COMPAT), RT_OK);
    c.ctx = ctx;
    c.args.policy = RT_POLICY_DEFAULT;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    assert_int_equal(pb.policy, RT_POLICY_COMPAT);
    rt_context_destroy(ctx);

    /* A scalar reduces to itself: mask 0, one element in, one out. */
    call_init(&c, *state);
    c.args.indices = NULL;
    c.in.ndim = 0;
    c.out.ndim = 0;
    c.dims[0] = -1;
    assert_int_equal(rt__problem_init(c.ctx, &c.args, &pb), RT_OK);
    assert_int_equal(pb.reduce_mask, 0);
    assert_int_equal(pb.reduce_count, 1);
    assert_int_equal(pb.out_count, 1);
    assert_int_equal(pb.out_full.ndim, 0);
}

/* ---- end to end through the CPU backend -------------------------------- */

static void test_zero_size_output_does_nothing(void **state) {
    call c;
    call_init(&c, *state);
    c.args.indices = NULL;
    c.args.op = RT_OP_SUM;
    c.in.shape[0] = 0;
    c.out.shape[0] = 0;
    c.out.data = NULL;
    expect_status(&c, RT_OK);
}

static void test_dispatch_cpu(void **state) {
    call c;
    call_init(&c, *state);
    const float *x = (const float *)c.in.data;
    assert_int_equal(reduce_tensor_ex(c.ctx, &c.args), RT_OK);
    const float *vals = (const float *)c.out.data;
    const int64_t *idx = (const int64_t *)c.idx.data;
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 4; k++) {
            int best = 0;
            for (int j = 1; j < 3; j++)
                if (x[i * 12 + j * 4 + k] > x[i * 12 + best * 4 + k])
                    best = j;
            assert_true(vals[i * 4 + k] == x[i * 12 + best * 4 + k]);
            assert_int_equal(idx[i * 4 + k], best);
        }
    }
    /* The short form, sum over (0, 2). */
    int dims[2] = {0, 2};
    rt_tensor out = contiguous(c.arena + OUT_OFF, RT_F32, 1, (int64_t[]){3});
    assert_int_equal(reduce_tensor(c.ctx, RT_OP_SUM, &c.in, dims, 2, false, &out), RT_OK);
    for (int j = 0; j < 3; j++) {
        double want = 0;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 4; k++)
                want += x[i * 12 + j * 4 + k];
        assert_true(fabs(((float *)out.data)[j] - want) <= 1e-4 * (1 + fabs(want)));
    }
    /* A scalar reduces to itself. */
    rt_tensor s_in = contiguous(c.arena + IN_OFF + 5 * sizeof(float), RT_F32, 0, NULL);
    rt_tensor s_out = contiguous(c.arena + OUT_OFF, RT_F32, 0, NULL);
    assert_int_equal(reduce_tensor(c.ctx, RT_OP_MAX, &s_in, NULL, 0, false, &s_out), RT_OK);
    assert_true(*(float *)s_out.data == x[5]);
}

/* ---- statuses, names, dtype rules -------------------------------------- */

static void test_status_strings(void **state) {
    (void)state;
    const struct {
        rt_status s;
        const char *name;
    } all[] = {
#define ROW(name, value, meaning) {name, #name},
        RT_STATUS_LIST(ROW)
#undef ROW
    };
    size_t n = sizeof all / sizeof all[0];
    assert_int_equal(n, RT_ERR_INTERNAL + 1);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(all[i].s, (rt_status)i);
        assert_string_equal(rt_status_name(all[i].s), all[i].name);
        const char *msg = rt_status_string(all[i].s);
        assert_non_null(msg);
        assert_true(strlen(msg) > 0);
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(msg, rt_status_string(all[j].s));
            assert_string_not_equal(rt_status_name(all[i].s), rt_status_name(all[j].s));
        }
    }
    assert_string_equal(rt_status_string(RT_OK), "success");
    const rt_status unknown[] = {(rt_status)-1, (rt_status)(RT_ERR_INTERNAL + 1),
                                 (rt_status)100000};
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(rt_status_name(unknown[i]), "RT_STATUS_UNKNOWN");
        assert_non_null(rt_status_string(unknown[i]));
        assert_true(strlen(rt_status_string(unknown[i])) > 0);
    }
}

static void test_dtype_and_op_names(void **state) {
    (void)state;
    /* The names and sizes the header documents, written out independently. */
    static const char *dnames[] = {"f32", "f64", "f16", "bf16", "i8",
                                   "u8",  "i16", "i32", "i64",  "bool"};
    static const size_t dsizes[] = {4, 8, 2, 2, 1, 1, 2, 4, 8, 1};
    for (int d = 0; d < RT_DTYPE_COUNT; d++) {
        assert_string_equal(rt_dtype_name((rt_dtype)d), dnames[d]);
        assert_int_equal(rt_dtype_size((rt_dtype)d), dsizes[d]);
        rt_dtype back = RT_DTYPE_COUNT;
        assert_int_equal(rt_dtype_from_name(dnames[d], &back), RT_OK);
        assert_int_equal(back, d);
        assert_true(rt__dtype_valid((rt_dtype)d));
        assert_int_equal(rt__dtype_is_float((rt_dtype)d), d <= RT_BF16);
    }
    static const char *onames[] = {"sum", "prod", "mean",  "min", "max",  "argmin",
                                   "argmax", "var", "std", "norm", "any", "all"};
    for (int o = 0; o < RT_OP_COUNT; o++) {
        assert_string_equal(rt_op_name((rt_op)o), onames[o]);
        rt_op back = RT_OP_COUNT;
        assert_int_equal(rt_op_from_name(onames[o], &back), RT_OK);
        assert_int_equal(back, o);
        assert_true(rt__op_valid((rt_op)o));
    }
    assert_null(rt_dtype_name(RT_DTYPE_COUNT));
    assert_null(rt_dtype_name((rt_dtype)-1));
    assert_int_equal(rt_dtype_size((rt_dtype)-1), 0);
    assert_false(rt__dtype_valid(RT_DTYPE_COUNT));
    assert_false(rt__dtype_is_float((rt_dtype)42));
    assert_null(rt_op_name(RT_OP_COUNT));
    assert_null(rt_op_name((rt_op)-3));
    assert_false(rt__op_valid((rt_op)-3));
    rt_dtype dt = RT_F32;
    rt_op op = RT_OP_SUM;
    assert_int_equal(rt_dtype_from_name("F32", &dt), RT_ERR_BAD_DTYPE);
    assert_int_equal(rt_dtype_from_name("", &dt), RT_ERR_BAD_DTYPE);
    assert_int_equal(rt_dtype_from_name(NULL, &dt), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_dtype_from_name("f32", NULL), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_op_from_name("amax", &op), RT_ERR_BAD_OP);
    assert_int_equal(rt_op_from_name(NULL, &op), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_op_from_name("sum", NULL), RT_ERR_NULL_POINTER);
    assert_int_equal(dt, RT_F32); /* failed parses write nothing */
    assert_int_equal(op, RT_OP_SUM);
}

static void test_tracks_index(void **state) {
    (void)state;
    for (int o = 0; o < RT_OP_COUNT; o++) {
        bool arg = o == RT_OP_ARGMIN || o == RT_OP_ARGMAX;
        bool minmax = o == RT_OP_MIN || o == RT_OP_MAX;
        assert_int_equal(rt__op_tracks_index((rt_op)o, false), arg);
        assert_int_equal(rt__op_tracks_index((rt_op)o, true), arg || minmax);
    }
}

/* The header's rules, spelled out as literal lists per (op class, input):
   the allowed output dtypes, space separated, default first ("" = the op
   is unsupported for that input). */
static const char *allowed_sum[RT_DTYPE_COUNT] = {
    "f32 f64", "f64", "f16 f32 f64", "bf16 f32 f64", "i64 i8",
    "i64 u8",  "i64 i16", "i64 i32", "i64", "i64 bool"};
static const char *allowed_mean[RT_DTYPE_COUNT] = {
    "f32 f64", "f64", "f16 f32 f64", "bf16 f32 f64", "", "", "", "", "", ""};

static bool in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len;
        p += strspn(p, " ");
    }
    return false;
}

static const char *allowed_for(rt_op op, int in) {
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
        return allowed_sum[in];
    case RT_OP_MEAN:
    case RT_OP_VAR:
    case RT_OP_STD:
    case RT_OP_NORM:
        return allowed_mean[in];
    case RT_OP_MIN:
    case RT_OP_MAX:
        return rt_dtype_name((rt_dtype)in);
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return "i64";
    default:
        return "bool";
    }
}

static void test_dtype_rules(void **state) {
    (void)state;
    for (int o = 0; o < RT_OP_COUNT; o++) {
        for (int in = 0; in < RT_DTYPE_COUNT; in++) {
            const char *list = allowed_for((rt_op)o, in);
            rt_dtype def = (rt_dtype)-1;
            rt_status s = rt_reduce_default_dtype((rt_op)o, (rt_dtype)in, &def);
            if (list[0] == '\0') {
                assert_int_equal(s, RT_ERR_UNSUPPORTED);
            } else {
                assert_int_equal(s, RT_OK);
                size_t first = strcspn(list, " ");
                assert_int_equal(strlen(rt_dtype_name(def)), first);
                assert_memory_equal(rt_dtype_name(def), list, first);
            }
            for (int out = 0; out < RT_DTYPE_COUNT; out++) {
                bool want = in_list(list, rt_dtype_name((rt_dtype)out));
                if (rt_reduce_out_dtype_ok((rt_op)o, (rt_dtype)in, (rt_dtype)out) != want)
                    fail_msg("%s %s -> %s: want %d", rt_op_name((rt_op)o),
                             rt_dtype_name((rt_dtype)in), rt_dtype_name((rt_dtype)out), want);
            }
            assert_false(rt_reduce_out_dtype_ok((rt_op)o, (rt_dtype)in, RT_DTYPE_COUNT));
        }
    }
    assert_false(rt_reduce_out_dtype_ok(RT_OP_COUNT, RT_F32, RT_F32));
    assert_false(rt_reduce_out_dtype_ok(RT_OP_SUM, (rt_dtype)-1, RT_F32));
    rt_dtype d;
    assert_int_equal(rt_reduce_default_dtype(RT_OP_SUM, RT_F32, NULL), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_reduce_default_dtype(RT_OP_COUNT, RT_F32, &d), RT_ERR_BAD_OP);
    assert_int_equal(rt_reduce_default_dtype(RT_OP_SUM, RT_DTYPE_COUNT, &d), RT_ERR_BAD_DTYPE);
}

/* ---- contexts and args -------------------------------------------------- */

static void test_context_api(void **state) {
    (void)state;
    rt_context *ctx = (rt_context *)&ctx; /* not NULL: failures must clear it */
    assert_int_equal(rt_context_create(NULL, RT_DEVICE_CPU, 0), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_context_create(&ctx, (rt_device_kind)7, 0), RT_ERR_BAD_DEVICE);
    assert_null(ctx);
    int n = rt_cuda_device_count();
    assert_true(n >= 0);
    ctx = (rt_context *)&ctx;
    if (n == 0) {
        assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, 0), RT_ERR_NO_CUDA);
        assert_null(ctx);
    } else {
        assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, n), RT_ERR_BAD_DEVICE);
        assert_null(ctx);
        assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, -1), RT_ERR_BAD_DEVICE);
        assert_null(ctx);
    }

    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CPU, 3), RT_OK); /* index ignored */
    assert_non_null(ctx);
    assert_int_equal(rt_context_device_kind(ctx), RT_DEVICE_CPU);
    assert_int_equal(rt_context_device_kind(NULL), RT_DEVICE_CPU);
    assert_int_equal(rt_context_set_stream(ctx, NULL), RT_ERR_BAD_DEVICE);
    assert_int_equal(rt_context_set_stream(NULL, NULL), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_context_set_num_threads(ctx, -1), RT_ERR_BAD_ARGUMENT);
    assert_int_equal(rt_context_set_num_threads(NULL, 2), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_context_set_num_threads(ctx, 2), RT_OK);
    assert_int_equal(ctx->num_threads, 2);
    assert_int_equal(rt_context_set_num_threads(ctx, 0), RT_OK);
    assert_int_equal(ctx->num_threads, 0);
    assert_int_equal(ctx->policy, RT_POLICY_TUNED);
    assert_int_equal(rt_context_set_policy(ctx, (rt_policy)3), RT_ERR_BAD_ARGUMENT);
    assert_int_equal(rt_context_set_policy(NULL, RT_POLICY_TUNED), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_COMPAT), RT_OK);
    assert_int_equal(ctx->policy, RT_POLICY_COMPAT);
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_DEFAULT), RT_OK);
    assert_int_equal(ctx->policy, RT_POLICY_TUNED);
    assert_int_equal(rt__context_set_split_limit(ctx, -1), RT_ERR_BAD_ARGUMENT);
    assert_int_equal(rt__context_set_split_limit(NULL, 5), RT_ERR_NULL_POINTER);
    assert_int_equal(rt__context_set_split_limit(ctx, 1000), RT_OK);
    assert_int_equal(ctx->split_limit, 1000);
    rt_context_destroy(ctx);
    rt_context_destroy(NULL);
}

static void test_args_init(void **state) {
    (void)state;
    rt_reduce_args a;
    memset(&a, 0x5A, sizeof a);
    rt_reduce_args_init(&a);
    assert_int_equal(a.op, RT_OP_SUM);
    assert_null(a.in);
    assert_null(a.dims);
    assert_int_equal(a.ndims, 0);
    assert_false(a.keepdim);
    assert_null(a.out);
    assert_null(a.indices);
    assert_true(a.correction == 1.0);
    assert_true(a.p == 2.0);
    assert_int_equal(a.policy, RT_POLICY_DEFAULT);
    rt_reduce_args_init(NULL);
}

/* ---- rt_reduce_shape ---------------------------------------------------- */

static void expect_shape(const rt_tensor *in, const int *dims, int ndims, bool keepdim,
                         int want_ndim, const int64_t *want) {
    int nd = -1;
    int64_t shape[RT_MAX_DIMS];
    assert_int_equal(rt_reduce_shape(in, dims, ndims, keepdim, &nd, shape), RT_OK);
    assert_int_equal(nd, want_ndim);
    for (int d = 0; d < want_ndim; d++)
        assert_int_equal(shape[d], want[d]);
}

static void test_reduce_shape(void **state) {
    (void)state;
    rt_tensor in = contiguous(NULL, RT_F32, 4, (int64_t[]){2, 3, 0, 5});
    expect_shape(&in, (int[]){1}, 1, false, 3, (int64_t[]){2, 0, 5});
    expect_shape(&in, (int[]){1}, 1, true, 4, (int64_t[]){2, 1, 0, 5});
    expect_shape(&in, (int[]){-1, 0}, 2, false, 2, (int64_t[]){3, 0});
    expect_shape(&in, (int[]){3, -4}, 2, true, 4, (int64_t[]){1, 3, 0, 1});
    expect_shape(&in, NULL, 0, false, 0, NULL);
    expect_shape(&in, NULL, 0, true, 4, (int64_t[]){1, 1, 1, 1});
    expect_shape(&in, (int[]){0, 1, 2, 3}, 4, false, 0, NULL);
    rt_tensor scalar = contiguous(NULL, RT_I8, 0, NULL);
    expect_shape(&scalar, NULL, 0, false, 0, NULL);
    expect_shape(&scalar, NULL, 0, true, 0, NULL);
    expect_shape(&scalar, (int[]){0}, 1, true, 0, NULL);
    expect_shape(&scalar, (int[]){-1}, 1, false, 0, NULL);

    int nd = 42;
    int64_t shape[RT_MAX_DIMS] = {42};
    assert_int_equal(rt_reduce_shape(NULL, NULL, 0, false, &nd, shape), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_reduce_shape(&in, NULL, 0, false, NULL, shape), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_reduce_shape(&in, NULL, 0, false, &nd, NULL), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_reduce_shape(&in, NULL, 1, false, &nd, shape), RT_ERR_NULL_POINTER);
    assert_int_equal(rt_reduce_shape(&in, (int[]){4}, 1, false, &nd, shape), RT_ERR_BAD_DIM);
    assert_int_equal(rt_reduce_shape(&in, (int[]){-5}, 1, false, &nd, shape), RT_ERR_BAD_DIM);
    assert_int_equal(rt_reduce_shape(&in, (int[]){2, -2}, 2, false, &nd, shape),
                     RT_ERR_DUPLICATE_DIM);
    assert_int_equal(rt_reduce_shape(&scalar, (int[]){1}, 1, false, &nd, shape),
                     RT_ERR_BAD_DIM);
    assert_int_equal(rt_reduce_shape(&in, (int[]){0}, -1, false, &nd, shape),
                     RT_ERR_BAD_ARGUMENT);
    in.shape[1] = -3;
    assert_int_equal(rt_reduce_shape(&in, NULL, 0, false, &nd, shape), RT_ERR_BAD_SHAPE);
    in.shape[1] = 3;
    in.dtype = RT_DTYPE_COUNT;
    assert_int_equal(rt_reduce_shape(&in, NULL, 0, false, &nd, shape), RT_ERR_BAD_DTYPE);
    in.ndim = RT_MAX_DIMS + 1;
    assert_int_equal(rt_reduce_shape(&in, NULL, 0, false, &nd, shape), RT_ERR_BAD_NDIM);
    assert_int_equal(nd, 42); /* failures write nothing */
    assert_int_equal(shape[0], 42);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_valid_baseline, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_null_pointer, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_null_data_allowed_when_empty, setup_ctx,
                                        teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_argument, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_params_only_checked_for_their_op, setup_ctx,
                                        teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_ndim, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_shape, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_dtype, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_op, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_bad_dim, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_duplicate_dim, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_overflow, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_unsupported, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_out_dtype, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_out_shape, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_indices, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_self_overlap, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_overlap, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_empty_reduction, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_first_problem_wins, setup_ctx, teardown_ctx),
        cmocka_unit_test(test_wrong_memory_absent_on_cpu),
        cmocka_unit_test_setup_teardown(test_problem_fields, setup_ctx, teardown_ctx),
        cmocka_unit_test_setup_teardown(test_zero_size_output_does_nothing, setup_ctx,
                                        teardown_ctx),
        cmocka_unit_test_setup_teardown(test_dispatch_cpu, setup_ctx, teardown_ctx),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_dtype_and_op_names),
        cmocka_unit_test(test_tracks_index),
        cmocka_unit_test(test_dtype_rules),
        cmocka_unit_test(test_context_api),
        cmocka_unit_test(test_args_init),
        cmocka_unit_test(test_reduce_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
