/*
 * Validation of reduce_tensor_ex: every rt_status the validator can return,
 * each checked to come back for the right reason (one mutation of a valid
 * call) AND to leave every byte of the input and the poisoned outputs as it
 * was. Also which problem wins when a call has several.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rt_test_ctx.h"

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

/* A descriptor whose addresses run below 0 (a negative stride from data
   near the bottom of the address space, found by tests/fuzz): its offsets
   fit int64, but no memory is there, and its byte range would wrap and
   slip past the overlap test. (Past the top is the same check; from user
   space on a 64-bit machine no int64 byte span reaches it.) */
static void wrap_below(call *c) {
    /* Steps of 64 bytes down from data: more than data's address. */
    const int64_t below = (int64_t)((uintptr_t)c->in.data / 16) + 1;
    c->in.shape[0] = below + 1;
    c->in.strides[0] = -16;
    c->out.shape[0] = below + 1;
    c->idx.shape[0] = below + 1;
}

static void test_address_wrap(void **state) {
    call c;
    call_init(&c, *state);
    wrap_below(&c);
    expect_status(&c, RT_ERR_OVERFLOW);
    /* Checked before the overlap test: the same input with its output
       inside it. */
    call_init(&c, *state);
    wrap_below(&c);
    c.out.data = c.in.data;
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

/* A zero-size output succeeds without touching anything (no backend runs). */
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

int main(void) {
    const struct CMUnitTest tests[] = {
        RT_TEST_WITH_CPU_CTX(test_valid_baseline),
        RT_TEST_WITH_CPU_CTX(test_null_pointer),
        RT_TEST_WITH_CPU_CTX(test_null_data_allowed_when_empty),
        RT_TEST_WITH_CPU_CTX(test_bad_argument),
        RT_TEST_WITH_CPU_CTX(test_params_only_checked_for_their_op),
        RT_TEST_WITH_CPU_CTX(test_bad_ndim),
        RT_TEST_WITH_CPU_CTX(test_bad_shape),
        RT_TEST_WITH_CPU_CTX(test_bad_dtype),
        RT_TEST_WITH_CPU_CTX(test_bad_op),
        RT_TEST_WITH_CPU_CTX(test_bad_dim),
        RT_TEST_WITH_CPU_CTX(test_duplicate_dim),
        RT_TEST_WITH_CPU_CTX(test_overflow),
        RT_TEST_WITH_CPU_CTX(test_address_wrap),
        RT_TEST_WITH_CPU_CTX(test_unsupported),
        RT_TEST_WITH_CPU_CTX(test_out_dtype),
        RT_TEST_WITH_CPU_CTX(test_out_shape),
        RT_TEST_WITH_CPU_CTX(test_indices),
        RT_TEST_WITH_CPU_CTX(test_self_overlap),
        RT_TEST_WITH_CPU_CTX(test_overlap),
        RT_TEST_WITH_CPU_CTX(test_empty_reduction),
        RT_TEST_WITH_CPU_CTX(test_first_problem_wins),
        cmocka_unit_test(test_wrong_memory_absent_on_cpu),
        RT_TEST_WITH_CPU_CTX(test_zero_size_output_does_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
