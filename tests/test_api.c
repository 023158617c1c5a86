/*
 * The public API around the backends: the problem the validator hands the
 * backends, dispatch to the CPU backend, status/dtype/op tables, dtype
 * rules, contexts, rt_reduce_args_init and rt_reduce_shape. The error
 * statuses of reduce_tensor_ex are in test_api_validate.c; exhaustive
 * numeric tests live with the backends.
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

/* ---- what the validator hands the backends ----------------------------- */

static void test_problem_fields(void **state) {
    rt_context *ctx = *state;
    float x[24] = {0}, y[8];
    int64_t iy[8];
    rt_tensor in = contiguous(x, RT_F32, 3, (int64_t[]){2, 3, 4});
    /* [2,3,4] over (-1, 0) -> [3], with a stride-2 output. */
    rt_tensor out = contiguous(y, RT_F32, 1, (int64_t[]){3});
    out.strides[0] = 2;
    int dims[2] = {-1, 0};
    rt_reduce_args a;
    rt_reduce_args_init(&a);
    a.in = &in;
    a.out = &out;
    a.dims = dims;
    a.ndims = 2;
    rt__problem pb;
    assert_int_equal(rt__problem_init(ctx, &a, &pb), RT_OK);
    assert_int_equal(pb.op, RT_OP_SUM);
    assert_int_equal(pb.reduce_mask, 0x5);
    assert_int_equal(pb.reduce_count, 8);
    assert_int_equal(pb.out_count, 3);
    assert_int_equal(pb.out_full.ndim, 3);
    assert_true(pb.out_full.data == (void *)y);
    assert_int_equal(pb.out_full.dtype, RT_F32);
    assert_int_equal(pb.out_full.shape[0], 1);
    assert_int_equal(pb.out_full.shape[1], 3);
    assert_int_equal(pb.out_full.shape[2], 1);
    assert_int_equal(pb.out_full.strides[0], 0);
    assert_int_equal(pb.out_full.strides[1], 2);
    assert_int_equal(pb.out_full.strides[2], 0);
    assert_int_equal(pb.in.strides[0], 12);
    assert_false(pb.has_indices);
    assert_true(pb.correction == 1.0 && pb.p == 2.0);
    assert_int_equal(pb.policy, RT_POLICY_TUNED);

    /* keepdim, with indices: the output's own extent-1 strides become 0. */
    a.op = RT_OP_MAX;
    dims[0] = 1;
    a.ndims = 1;
    a.keepdim = true;
    out = contiguous(y, RT_F32, 3, (int64_t[]){2, 1, 4});
    out.strides[1] = 77;
    rt_tensor idx = contiguous(iy, RT_I64, 3, (int64_t[]){2, 1, 4});
    a.indices = &idx;
    a.policy = RT_POLICY_COMPAT;
    assert_int_equal(rt__problem_init(ctx, &a, &pb), RT_OK);
    assert_true(pb.has_indices);
    assert_int_equal(pb.reduce_mask, 0x2);
    assert_int_equal(pb.reduce_count, 3);
    assert_int_equal(pb.out_count, 8);
    assert_true(pb.idx_full.data == (void *)iy);
    assert_int_equal(pb.idx_full.strides[0], 4);
    assert_int_equal(pb.idx_full.strides[1], 0);
    assert_int_equal(pb.idx_full.strides[2], 1);
    assert_int_equal(pb.out_full.strides[1], 0);
    assert_int_equal(pb.out_full.shape[2], 4);
    assert_int_equal(pb.policy, RT_POLICY_COMPAT);

    /* The context's policy applies when the call says DEFAULT. */
    rt_context *compat = NULL;
    assert_int_equal(rt_context_create(&compat, RT_DEVICE_CPU, 0), RT_OK);
    assert_int_equal(rt_context_set_policy(compat, RT_POLICY_COMPAT), RT_OK);
    a.policy = RT_POLICY_DEFAULT;
    assert_int_equal(rt__problem_init(compat, &a, &pb), RT_OK);
    assert_int_equal(pb.policy, RT_POLICY_COMPAT);
    a.policy = RT_POLICY_TUNED; /* the call's own choice wins */
    assert_int_equal(rt__problem_init(compat, &a, &pb), RT_OK);
    assert_int_equal(pb.policy, RT_POLICY_TUNED);
    rt_context_destroy(compat);

    /* A scalar reduces to itself: mask 0, one element in, one out. */
    rt_reduce_args_init(&a);
    in.ndim = 0;
    out.ndim = 0;
    a.in = &in;
    a.out = &out;
    a.dims = dims;
    dims[0] = -1;
    a.ndims = 1;
    assert_int_equal(rt__problem_init(ctx, &a, &pb), RT_OK);
    assert_int_equal(pb.reduce_mask, 0);
    assert_int_equal(pb.reduce_count, 1);
    assert_int_equal(pb.out_count, 1);
    assert_int_equal(pb.out_full.ndim, 0);
}

/* ---- end to end through the CPU backend -------------------------------- */

static void test_dispatch_cpu(void **state) {
    rt_context *ctx = *state;
    float x[24], vals[8], sums[3];
    int64_t idx[8];
    uint32_t seed = 777u;
    for (int i = 0; i < 24; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)((seed >> 8) % 2001u) / 100.0f - 10.0f;
    }
    rt_tensor in = contiguous(x, RT_F32, 3, (int64_t[]){2, 3, 4});
    rt_tensor out = contiguous(vals, RT_F32, 2, (int64_t[]){2, 4});
    rt_tensor ind = contiguous(idx, RT_I64, 2, (int64_t[]){2, 4});
    int dim = 1;
    rt_reduce_args a;
    rt_reduce_args_init(&a);
    a.op = RT_OP_MAX;
    a.in = &in;
    a.dims = &dim;
    a.ndims = 1;
    a.out = &out;
    a.indices = &ind;
    assert_int_equal(reduce_tensor_ex(ctx, &a), RT_OK);
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
    out = contiguous(sums, RT_F32, 1, (int64_t[]){3});
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, dims, 2, false, &out), RT_OK);
    for (int j = 0; j < 3; j++) {
        double want = 0;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 4; k++)
                want += x[i * 12 + j * 4 + k];
        assert_true(fabs(sums[j] - want) <= 1e-4 * (1 + fabs(want)));
    }
    /* A scalar reduces to itself. */
    rt_tensor s_in = contiguous(&x[5], RT_F32, 0, NULL);
    rt_tensor s_out = contiguous(&sums[0], RT_F32, 0, NULL);
    assert_int_equal(reduce_tensor(ctx, RT_OP_MAX, &s_in, NULL, 0, false, &s_out), RT_OK);
    assert_true(sums[0] == x[5]);
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
    assert_int_equal(ctx->kinds_off, 0u); /* every kernel kind on by default */
    assert_int_equal(rt__context_set_kinds_off(NULL, 1u), RT_ERR_NULL_POINTER);
    assert_int_equal(rt__context_set_kinds_off(ctx, 12u), RT_OK);
    assert_int_equal(ctx->kinds_off, 12u);
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
        RT_TEST_WITH_CPU_CTX(test_problem_fields),
        RT_TEST_WITH_CPU_CTX(test_dispatch_cpu),
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
