/*
 * The CPU backend against the naive reference (tests/common): thousands of
 * seeded random cases over every op x dtype, layouts, dims and keepdim;
 * larger cases on 1 and 3 threads (bitwise reproducible per thread count);
 * then the semantics corners one at a time: NaN and ties of the extremes,
 * var/std corrections, norms, any/all, integer wrap, 16-bit float
 * conversions, 0-d inputs, empty reductions, f64 summation accuracy.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_test_ctx.h"

#include "rt_cases.h"
#include "rt_elem.h"
#include "rt_half.h"
#include "rt_ref.h"
#include "rt_small.h"

static rt_context *cpu_ctx(int threads)
{
    rt_context *ctx = NULL;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CPU, 0), RT_OK);
    assert_int_equal(rt_context_set_num_threads(ctx, threads), RT_OK);
    return ctx;
}

/* Runs one case on ctx and checks it; fails the test with the checker's
   description of the first mismatch. */
static void run_case(rt_context *ctx, rt_case *c)
{
    rt_ref ref;
    char msg[2048];
    assert_int_equal(rt_ref_compute(c, &ref), 0);
    rt_reduce_args a;
    rt_case_args(c, &a);
    rt_case_poison(c);
    rt_status s = reduce_tensor_ex(ctx, &a);
    bool ok = rt_ref_check(c, &ref, s, RT_ACC_F64, msg, sizeof msg);
    rt_ref_free(&ref);
    if (!ok)
        fail_msg("%s", msg);
}

/* 2000 fully random cases (see RT_TEST_CASES), then 3 for every allowed (op, input dtype,
   output dtype) triple. */
static void test_random_cases(void **state)
{
    (void)state;
    rt_context *ctx = cpu_ctx(0);
    rt_case_opts o;
    rt_case_opts_init(&o);
    rt_case_tally t;
    memset(&t, 0, sizeof t);
    rt_case c;
    /* RT_TEST_CASES=N runs more (or fewer) random cases, for a deeper hunt. */
    const char *env = getenv("RT_TEST_CASES");
    uint64_t n = env && atoll(env) > 0 ? (uint64_t)atoll(env) : 2000;
    for (uint64_t seed = 1; seed <= n; seed++) {
        assert_int_equal(rt_case_make(&c, seed, &o), 0);
        rt_case_tally_add(&t, &c);
        run_case(ctx, &c);
        rt_case_free(&c);
    }
    int triples = 0;
    for (int op = 0; op < RT_OP_COUNT; op++)
        for (int d = 0; d < RT_DTYPE_COUNT; d++)
            for (int od = 0; od < RT_DTYPE_COUNT; od++) {
                if (!rt_case_out_dtype_allowed((rt_op)op, (rt_dtype)d, (rt_dtype)od))
                    continue;
                triples++;
                o.op = op;
                o.dtype = d;
                o.out_dtype = od;
                for (uint64_t k = 0; k < 3; k++) {
                    uint64_t seed = 100000 + (uint64_t)(op * 1000 + d * 100 + od * 10) + k;
                    assert_int_equal(rt_case_make(&c, seed, &o), 0);
                    rt_case_tally_add(&t, &c);
                    run_case(ctx, &c);
                    rt_case_free(&c);
                }
            }
    rt_case_tally_print(&t, "random", stdout);
    printf("[ random ] (op, in dtype, out dtype) triples swept: %d\n", triples);
    for (int op = 0; op < RT_OP_COUNT; op++)
        assert_true(t.per_op[op] >= 100);
    assert_true(t.rank0 > 0 && t.empty > 0 && t.negative > 0 && t.broadcast > 0 && t.indices > 0);
    rt_context_destroy(ctx);
}

/* The generator's dtype rules agree with the library's. */
static void test_dtype_rules(void **state)
{
    (void)state;
    for (int op = 0; op < RT_OP_COUNT; op++)
        for (int d = 0; d < RT_DTYPE_COUNT; d++)
            for (int od = 0; od < RT_DTYPE_COUNT; od++)
                assert_int_equal(rt_case_out_dtype_allowed((rt_op)op, (rt_dtype)d, (rt_dtype)od),
                                 rt_reduce_out_dtype_ok((rt_op)op, (rt_dtype)d, (rt_dtype)od));
}

/* Larger cases (the threaded paths start at 2^15 elements) on 1 and 3
   threads; two runs on 3 threads must agree bit for bit. */
static void test_threads(void **state)
{
    (void)state;
    rt_context *one = cpu_ctx(1), *three = cpu_ctx(3);
    rt_case_opts o;
    rt_case_opts_init(&o);
    o.max_elems = 1 << 17;
    o.big_lo = 1 << 14;
    o.big_hi = 1 << 17;
    o.p_big = 1.0;
    o.p_empty = 0.0;
    rt_case_tally t;
    memset(&t, 0, sizeof t);
    for (uint64_t seed = 7000; seed < 7150; seed++) {
        rt_case c;
        assert_int_equal(rt_case_make(&c, seed, &o), 0);
        rt_case_tally_add(&t, &c);
        run_case(one, &c);
        run_case(three, &c);
        unsigned char *first = malloc(c.out_buf.bytes + c.idx_buf.bytes + 1);
        assert_non_null(first);
        memcpy(first, c.out_buf.base, c.out_buf.bytes);
        if (c.idx_buf.base)
            memcpy(first + c.out_buf.bytes, c.idx_buf.base, c.idx_buf.bytes);
        run_case(three, &c);
        if (memcmp(first, c.out_buf.base, c.out_buf.bytes) != 0 ||
            (c.idx_buf.base && memcmp(first + c.out_buf.bytes, c.idx_buf.base, c.idx_buf.bytes))) {
            char desc[1024];
            rt_case_describe(&c, desc, sizeof desc);
            fail_msg("two runs on 3 threads differ: %s", desc);
        }
        free(first);
        rt_case_free(&c);
    }
    rt_case_tally_print(&t, "threads 1 and 3", stdout);
    rt_context_destroy(one);
    rt_context_destroy(three);
}

/* ---- semantics corners ------------------------------------------------- */

static const rt_dtype float_dtypes[] = {RT_F32, RT_F64, RT_F16, RT_BF16};

#define SMALL(ctx, op, in, out, param, ...)                                                        \
    rt_small_reduce(ctx, op, in, out, (const double[]){__VA_ARGS__},                               \
                    (int64_t)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double)), 1, param)

/* Index of the chosen element for argmin, argmax, min and max (all four
   must agree), and min/max's value NaN-ness. */
static void expect_extremes(rt_context *ctx, rt_dtype d, const double *x, int64_t n, int64_t stride,
                            int64_t want_min, int64_t want_max)
{
    rt_op ops[4] = {RT_OP_ARGMIN, RT_OP_MIN, RT_OP_ARGMAX, RT_OP_MAX};
    for (int i = 0; i < 4; i++) {
        rt_dtype od = (ops[i] == RT_OP_ARGMIN || ops[i] == RT_OP_ARGMAX) ? RT_I64 : d;
        rt_small_result r = rt_small_reduce(ctx, ops[i], d, od, x, n, stride, 0);
        int64_t want = i < 2 ? want_min : want_max;
        assert_int_equal(r.status, RT_OK);
        if (r.index != want)
            fail_msg("%s of %s (stride %lld): index %lld, want %lld", rt_op_name(ops[i]),
                     rt_dtype_name(d), (long long)stride, (long long)r.index, (long long)want);
        if (ops[i] == RT_OP_MIN || ops[i] == RT_OP_MAX) {
            double w = x[want];
            assert_true(isnan(w) ? isnan(r.value) : r.value == w);
            if (w == 0.0 && rt_elem_is_float(d)) /* the winner's sign of zero */
                assert_int_equal(signbit(r.value) != 0, signbit(w) != 0);
        }
    }
}

static void test_extremes_nan_ties(void **state)
{
    rt_context *ctx = *state;
    const double N_ = NAN;
    for (int s = 0; s < 3; s++) {
        int64_t stride = s == 0 ? 1 : s == 1 ? -1 : 3;
        for (size_t i = 0; i < 4; i++) {
            rt_dtype d = float_dtypes[i];
            expect_extremes(ctx, d, (double[]){N_, 1, 2, N_}, 4, stride, 0, 0);     /* NaN first */
            expect_extremes(ctx, d, (double[]){3, 1, 2, N_}, 4, stride, 3, 3);      /* NaN last */
            expect_extremes(ctx, d, (double[]){1, N_, 0, N_, 5}, 5, stride, 1, 1);  /* several */
            expect_extremes(ctx, d, (double[]){2, 5, 1, 5, 2, 1}, 6, stride, 2, 1); /* inner ties */
            expect_extremes(ctx, d, (double[]){1, 3, 3, 1}, 4, stride, 0, 1);       /* both ends */
            expect_extremes(ctx, d, (double[]){0.0, -0.0, 1, -0.0}, 4, stride, 0, 2); /* +0 first */
            expect_extremes(ctx, d, (double[]){-0.0, 0.0, -1, 0.0}, 4, stride, 2, 0); /* -0 first */
            expect_extremes(ctx, d, (double[]){-INFINITY, INFINITY, -INFINITY}, 3, stride, 0, 1);
        }
        for (rt_dtype d = RT_I8; d <= RT_I64; d++)
            expect_extremes(ctx, d, (double[]){4, 2, 7, 2, 7, 4}, 6, stride, 1, 2);
        expect_extremes(ctx, RT_BOOL, (double[]){1, 0, 1, 0}, 4, stride, 1, 0);
    }
    /* Long runs on 3 threads: the split must not move the winner. */
    rt_context *t3 = cpu_ctx(3);
    int64_t n = 200000;
    double *x = malloc(sizeof *x * (size_t)n);
    assert_non_null(x);
    for (int64_t i = 0; i < n; i++)
        x[i] = 1.0;
    expect_extremes(t3, RT_F32, x, n, 1, 0, 0); /* all equal */
    expect_extremes(t3, RT_F32, x, n, -2, 0, 0);
    x[150000] = NAN;
    x[90000] = NAN;
    x[199999] = 0.5;
    expect_extremes(t3, RT_F32, x, n, 1, 90000, 90000);
    x[90000] = x[150000] = 1.0;
    x[70000] = 0.5;
    x[130000] = 2.0;
    x[180000] = 2.0;
    expect_extremes(t3, RT_F64, x, n, 1, 70000, 130000);
    free(x);
    rt_context_destroy(t3);
}

/* argmax over several reduced dims of a transposed, reversed view: the
   index is row-major over the reduced dims in the view's dim order. */
static void test_extreme_index_layout(void **state)
{
    rt_context *ctx = *state;
    float base[24];
    for (int i = 0; i < 24; i++)
        base[i] = (float)((i * 7) % 24);
    /* View v[a][b][c] = base[(2 - a) * 8 + c * 2 + b]... built from strides. */
    rt_tensor v = {base + 16, RT_F32, 3, {3, 2, 4}, {-8, 1, 2}};
    int64_t out[2];
    rt_tensor o = {out, RT_I64, 1, {2}, {1}};
    int dims[2] = {2, 0}; /* reduce a and c; keep b */
    assert_int_equal(reduce_tensor(ctx, RT_OP_ARGMAX, &v, dims, 2, false, &o), RT_OK);
    for (int b = 0; b < 2; b++) {
        int64_t best = 0;
        float bv = -1;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 4; c++) {
                float val = base[16 - 8 * a + b + 2 * c];
                if (val > bv) {
                    bv = val;
                    best = a * 4 + c;
                }
            }
        assert_int_equal(out[b], best);
    }
}

static void test_var_std(void **state)
{
    rt_context *ctx = *state;
    for (size_t i = 0; i < 4; i++) {
        rt_dtype d = float_dtypes[i];
        rt_small_result r = SMALL(ctx, RT_OP_VAR, d, d, 0, 1, 2, 3, 4);
        assert_true(fabsl(r.value - 1.25L) < 1e-6L);
        r = SMALL(ctx, RT_OP_VAR, d, d, 1, 1, 2, 3, 4);
        assert_true(fabsl(r.value - 5.0L / 3) < 1e-2L);
        r = SMALL(ctx, RT_OP_STD, d, d, 1, 1, 2, 3, 4);
        assert_true(fabsl(r.value - sqrtl(5.0L / 3)) < 1e-2L);
        r = SMALL(ctx, RT_OP_VAR, d, d, 0, 7);
        assert_true(r.value == 0);
        assert_true(isnan(SMALL(ctx, RT_OP_VAR, d, d, 1, 7).value));    /* N == correction */
        assert_true(isnan(SMALL(ctx, RT_OP_STD, d, d, 2, 7, 8).value)); /* N == correction */
        assert_true(isnan(SMALL(ctx, RT_OP_VAR, d, d, 3, 7, 8).value)); /* N < correction */
        assert_true(isnan(rt_small_reduce(ctx, RT_OP_VAR, d, d, NULL, 0, 1, 0).value));
        assert_true(isnan(SMALL(ctx, RT_OP_VAR, d, d, 1, 1, NAN, 3).value));
    }
    /* A large offset: Welford/Chan keep the digits a naive sum of squares loses. */
    rt_small_result r =
        SMALL(ctx, RT_OP_VAR, RT_F64, RT_F64, 0, 1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4);
    assert_true(fabsl(r.value - 1.25L) < 1e-6L);
}

static void test_norms(void **state)
{
    rt_context *ctx = *state;
    for (size_t i = 0; i < 4; i++) {
        rt_dtype d = float_dtypes[i];
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, 0, 3, -4, 0, -0.0).value == 2);
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, 1, 3, -4, 0).value == 7);
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, 2, 3, -4, 0).value == 5);
        long double p3 = SMALL(ctx, RT_OP_NORM, d, d, 3, 3, -4, 0).value;
        assert_true(fabsl(p3 - cbrtl(91)) < 0.02L);
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, INFINITY, 3, -4, 0).value == 4);
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, -INFINITY, 3, -4, 0.5).value == 0.5);
        assert_true(isnan(SMALL(ctx, RT_OP_NORM, d, d, INFINITY, 3, NAN, 9).value));
        assert_true(isnan(SMALL(ctx, RT_OP_NORM, d, d, -INFINITY, 3, NAN, 9).value));
        assert_true(SMALL(ctx, RT_OP_NORM, d, d, 0, NAN, 0).value == 1); /* NaN is nonzero */
        double ps[] = {0, 1, 2, 3, 0.5, INFINITY};
        for (size_t k = 0; k < 6; k++) /* empty: 0 */
            assert_true(rt_small_reduce(ctx, RT_OP_NORM, d, d, NULL, 0, 1, ps[k]).value == 0);
        assert_true(rt_small_reduce(ctx, RT_OP_NORM, d, d, NULL, 0, 1, -INFINITY).value ==
                    INFINITY);
        assert_true(rt_small_reduce(ctx, RT_OP_NORM, d, d, NULL, 0, 1, -1).value == INFINITY);
    }
}

static void test_any_all(void **state)
{
    rt_context *ctx = *state;
    for (size_t i = 0; i < 4; i++) {
        rt_dtype d = float_dtypes[i];
        assert_true(SMALL(ctx, RT_OP_ANY, d, RT_BOOL, 0, NAN).bits == 1);
        assert_true(SMALL(ctx, RT_OP_ALL, d, RT_BOOL, 0, NAN, 1).bits == 1);
        assert_true(SMALL(ctx, RT_OP_ANY, d, RT_BOOL, 0, -0.0, 0.0).bits == 0);
        assert_true(SMALL(ctx, RT_OP_ALL, d, RT_BOOL, 0, 1, -0.0).bits == 0);
        assert_true(SMALL(ctx, RT_OP_ANY, d, RT_BOOL, 0, -0.0, 1e-30).bits ==
                    (d == RT_F16 ? 0 : 1));
    }
    for (rt_dtype d = RT_I8; d <= RT_BOOL; d++) {
        assert_true(SMALL(ctx, RT_OP_ANY, d, RT_BOOL, 0, 0, 0, 1).bits == 1);
        assert_true(SMALL(ctx, RT_OP_ALL, d, RT_BOOL, 0, 1, 1, 0).bits == 0);
        assert_true(rt_small_reduce(ctx, RT_OP_ANY, d, RT_BOOL, NULL, 0, 1, 0).bits == 0);
        assert_true(rt_small_reduce(ctx, RT_OP_ALL, d, RT_BOOL, NULL, 0, 1, 0).bits == 1);
    }
}

static void test_integer_wrap(void **state)
{
    rt_context *ctx = *state;
    /* Through reduce_tensor: literal doubles cannot hold every int64. */
    int64_t big[3] = {INT64_MAX, 1, 5};
    int64_t s = 0;
    rt_tensor in = {big, RT_I64, 1, {3}, {1}}, out = {&s, RT_I64, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
    assert_true(s == INT64_MIN + 5);
    big[0] = INT64_C(1) << 62;
    big[1] = 4;
    big[2] = 3;
    assert_int_equal(reduce_tensor(ctx, RT_OP_PROD, &in, NULL, 0, false, &out), RT_OK);
    assert_true(s == 0);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_I32, RT_I32, 0, 2147483647, 1).value == -2147483648.0L);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_I8, RT_I8, 0, 100, 100).value == -56);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_I8, RT_I64, 0, 100, 100).value == 200);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_U8, RT_U8, 0, 200, 100).value == 44);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_U8, RT_I64, 0, 200, 100).value == 300);
    assert_true(SMALL(ctx, RT_OP_PROD, RT_I16, RT_I16, 0, 300, 300).value ==
                (int16_t)(90000 - 65536 * 1));
    assert_true(SMALL(ctx, RT_OP_SUM, RT_BOOL, RT_I64, 0, 1, 1, 0, 1).value == 3);
    assert_true(SMALL(ctx, RT_OP_SUM, RT_BOOL, RT_BOOL, 0, 1, 1, 0, 1).bits == 1);
    /* 256 ones into an i8 sum wraps to 0; into a bool, 0 is false. */
    double ones[256];
    for (int i = 0; i < 256; i++)
        ones[i] = 1;
    assert_true(rt_small_reduce(ctx, RT_OP_SUM, RT_I8, RT_I8, ones, 256, 1, 0).value == 0);
    assert_true(rt_small_reduce(ctx, RT_OP_SUM, RT_U8, RT_BOOL, ones, 256, 1, 0).bits == 0);
}

/* Over 2^31 elements (DESIGN.md: such tensors must give the right answer),
   from a few bytes through zero strides, on 2 threads, so the reduced range
   is split and the partials merged past INT32_MAX: a count, and an index.
   About 8 s in Release on CI, 16 s under ASan; RT_TEST_BIG=0 skips it
   (as the GPU split tests). */
static void test_over_2_31_elements(void **state)
{
    (void)state;
    const char *big = getenv("RT_TEST_BIG");
    if (big != NULL && strcmp(big, "0") == 0) {
        print_message("RT_TEST_BIG=0: tensors over 2^31 elements not run\n");
        return;
    }
    const int64_t n = (INT64_C(1) << 31) + 3;
    rt_context *ctx = cpu_ctx(2);
    unsigned char one = 1;
    int64_t count = 0;
    rt_tensor ones = {&one, RT_BOOL, 1, {n}, {0}}, cnt = {&count, RT_I64, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &ones, NULL, 0, false, &cnt), RT_OK);
    assert_true(count == n);
    /* [2, n] over every dim: element (i, j) is x[i], so the first 2 is at
       flat index n, in the second thread's half. */
    float x[2] = {1.0f, 2.0f};
    int64_t at = -1;
    rt_tensor in = {x, RT_F32, 2, {2, n}, {1, 0}}, idx = {&at, RT_I64, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_ARGMAX, &in, NULL, 0, false, &idx), RT_OK);
    assert_true(at == n);
    rt_context_destroy(ctx);
}

static void test_half_conversions(void **state)
{
    (void)state;
    /* binary16 decoding: subnormals, the largest normal, inf, NaN, -0. */
    assert_true(rt__f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(rt__f16_to_f32(0x03ff) == 1023 * 0x1p-24f);
    assert_true(rt__f16_to_f32(0x0400) == 0x1p-14f);
    assert_true(rt__f16_to_f32(0x7bff) == 65504.0f);
    assert_true(rt__f16_to_f32(0x7c00) == INFINITY && rt__f16_to_f32(0xfc00) == -INFINITY);
    assert_true(isnan(rt__f16_to_f32(0x7e00)) && isnan(rt__f16_to_f32(0x7c01)));
    assert_true(rt__f16_to_f32(0x8000) == 0 && signbit(rt__f16_to_f32(0x8000)));
    /* binary16 encoding: round to nearest even, overflow, underflow. */
    assert_int_equal(rt__f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(rt__f32_to_f16(65519.0f), 0x7bff);
    assert_int_equal(rt__f32_to_f16(65520.0f), 0x7c00); /* the tie rounds to even: inf */
    assert_int_equal(rt__f32_to_f16(0x1p-24f), 0x0001);
    assert_int_equal(rt__f32_to_f16(0x1p-25f), 0x0000);        /* tie with 0: even */
    assert_int_equal(rt__f32_to_f16(0x1.8p-25f), 0x0001);      /* above the tie */
    assert_int_equal(rt__f32_to_f16(0x1.8p-24f), 0x0002);      /* 1.5 ulp: tie to even 2 */
    assert_int_equal(rt__f32_to_f16(0x1.ffcp-15f), 0x0400);    /* tie: even, the smallest normal */
    assert_int_equal(rt__f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie: even */
    assert_int_equal(rt__f32_to_f16(1.0f + 0x3p-11f), 0x3c02); /* tie: even (up) */
    assert_int_equal(rt__f32_to_f16(-0.0f), 0x8000);
    assert_int_equal(rt__f32_to_f16(-1e-10f), 0x8000);
    assert_int_equal(rt__f32_to_f16(-INFINITY), 0xfc00);
    assert_true((rt__f32_to_f16(NAN) & 0x7c00) == 0x7c00 && (rt__f32_to_f16(NAN) & 0x3ff));
    /* Straight from binary64: no double rounding through binary32. */
    assert_int_equal(rt__f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
    assert_int_equal(rt__f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
    /* bfloat16. */
    assert_int_equal(rt__f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
    assert_int_equal(rt__f32_to_bf16(1.0f + 0x3p-8f), 0x3f82);
    assert_int_equal(rt__f32_to_bf16(rt__f32_from_bits(0x7f7f8000u)), 0x7f80); /* tie: even = inf */
    assert_int_equal(rt__f32_to_bf16(rt__f32_from_bits(0x00010000u)), 0x0001); /* subnormal */
    uint16_t nb = rt__f32_to_bf16(rt__f32_from_bits(0x7f800001u));             /* NaN, not inf */
    assert_true((nb & 0x7f80) == 0x7f80 && (nb & 0x7f));
    assert_true(rt__bf16_to_f32(0x3f80) == 1.0f && rt__bf16_to_f32(0xff80) == -INFINITY);
    /* Every 16-bit pattern survives a round trip through binary32. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = rt__f16_to_f32((uint16_t)h), b = rt__bf16_to_f32((uint16_t)h);
        if (isnan(f))
            assert_true(isnan(rt__f16_to_f32(rt__f32_to_f16(f))));
        else
            assert_int_equal(rt__f32_to_f16(f), h);
        if (isnan(b))
            assert_true(isnan(rt__bf16_to_f32(rt__f32_to_bf16(b))));
        else
            assert_int_equal(rt__f32_to_bf16(b), h);
    }
#ifdef __FLT16_MAX__
    /* The compiler's own _Float16 as an independent oracle on random floats. */
    rt_rng g;
    rt_rng_seed(&g, 42);
    for (int i = 0; i < 200000; i++) {
        float f = rt__f32_from_bits((uint32_t)rt_rng_next(&g));
        if (i & 1)
            f = ldexpf(f - floorf(f), (int)rt_rng_range(&g, -30, 17));
        if (isnan(f))
            continue;
        _Float16 h = (_Float16)f;
        uint16_t hb;
        memcpy(&hb, &h, 2);
        if (rt__f32_to_f16(f) != hb)
            fail_msg("f32 %a: got 0x%04x, _Float16 gives 0x%04x", (double)f, rt__f32_to_f16(f), hb);
    }
#endif
    /* Through the library: an f16 sum rounds to even once, from binary64. */
    rt_context *ctx = cpu_ctx(1);
    rt_small_result r = SMALL(ctx, RT_OP_SUM, RT_F16, RT_F16, 0, 1.0, 0x1p-11, 0x1p-24);
    assert_int_equal(r.bits, 0x3c01); /* 1 + 2^-11 + 2^-24 is just above the tie */
    r = SMALL(ctx, RT_OP_SUM, RT_F16, RT_F16, 0, 1.0, 0x1p-11);
    assert_int_equal(r.bits, 0x3c00);
    r = SMALL(ctx, RT_OP_SUM, RT_F16, RT_F16, 0, 60000, 6000);
    assert_int_equal(r.bits, 0x7c00);
    r = SMALL(ctx, RT_OP_MEAN, RT_BF16, RT_BF16, 0, 1.0, 1.0 + 0x1p-7);
    assert_int_equal(r.bits, 0x3f80); /* 1 + 2^-8: tie to even */
    rt_context_destroy(ctx);
}

static void test_zero_dim(void **state)
{
    rt_context *ctx = *state;
    float x = -2.5f, y = 0;
    int64_t i = 7;
    bool b = false;
    rt_tensor in = {&x, RT_F32, 0, {0}, {0}};
    rt_tensor out = {&y, RT_F32, 0, {0}, {0}}, oi = {&i, RT_I64, 0, {0}, {0}},
              ob = {&b, RT_BOOL, 0, {0}, {0}};
    int d0 = 0, dm1 = -1;
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
    assert_true(y == -2.5f);
    assert_int_equal(reduce_tensor(ctx, RT_OP_NORM, &in, &d0, 1, true, &out), RT_OK);
    assert_true(y == 2.5f);
    assert_int_equal(reduce_tensor(ctx, RT_OP_ARGMAX, &in, &dm1, 1, false, &oi), RT_OK);
    assert_int_equal(i, 0);
    assert_int_equal(reduce_tensor(ctx, RT_OP_VAR, &in, NULL, 0, false, &out), RT_OK);
    assert_true(isnan(y)); /* N = 1 = correction */
    assert_int_equal(reduce_tensor(ctx, RT_OP_ALL, &in, &d0, 1, false, &ob), RT_OK);
    assert_true(b);
}

static void test_empty(void **state)
{
    rt_context *ctx = *state;
    float x[1] = {1}, y[3];
    rt_tensor in = {x, RT_F32, 2, {3, 0}, {0, 1}};
    rt_tensor out = {y, RT_F32, 1, {3}, {1}};
    int d1 = 1;
    struct {
        rt_op op;
        double p;
        float want;
    } rows[] = {{RT_OP_SUM, 2, 0},   {RT_OP_PROD, 2, 1},        {RT_OP_MEAN, 2, NAN},
                {RT_OP_VAR, 2, NAN}, {RT_OP_STD, 2, NAN},       {RT_OP_NORM, 0, 0},
                {RT_OP_NORM, 2, 0},  {RT_OP_NORM, INFINITY, 0}, {RT_OP_NORM, -INFINITY, INFINITY}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        rt_reduce_args a;
        rt_reduce_args_init(&a);
        a.op = rows[k].op;
        a.p = rows[k].p;
        a.in = &in;
        a.out = &out;
        a.dims = &d1;
        a.ndims = 1;
        y[0] = y[1] = y[2] = 42;
        assert_int_equal(reduce_tensor_ex(ctx, &a), RT_OK);
        for (int j = 0; j < 3; j++)
            assert_true(isnan(rows[k].want) ? isnan(y[j]) : y[j] == rows[k].want);
    }
    bool bo[3] = {true, true, true};
    rt_tensor ob = {bo, RT_BOOL, 1, {3}, {1}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_ANY, &in, &d1, 1, false, &ob), RT_OK);
    assert_true(!bo[0] && !bo[1] && !bo[2]);
    assert_int_equal(reduce_tensor(ctx, RT_OP_ALL, &in, &d1, 1, false, &ob), RT_OK);
    assert_true(bo[0] && bo[1] && bo[2]);
    y[0] = 42;
    assert_int_equal(reduce_tensor(ctx, RT_OP_MAX, &in, &d1, 1, false, &out),
                     RT_ERR_EMPTY_REDUCTION);
    assert_true(y[0] == 42);
    /* A zero-size output: nothing to do, nothing written. */
    rt_tensor in2 = {x, RT_F32, 2, {0, 3}, {3, 1}}, out2 = {y, RT_F32, 1, {0}, {1}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in2, &d1, 1, false, &out2), RT_OK);
    assert_true(y[0] == 42);
    /* An empty input needs no data (tests/fuzz reached both): NULL, and
       extents whose product without the 0 would overflow int64. */
    rt_tensor none = {NULL, RT_F64, 2, {2, 0}, {1, 1}};
    double v[2] = {42, 42};
    rt_tensor outv = {v, RT_F64, 1, {2}, {1}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_VAR, &none, &d1, 1, false, &outv), RT_OK);
    assert_true(isnan(v[0]) && isnan(v[1]));
    rt_tensor vast = {x, RT_F32, 3, {INT64_MAX, 8, 0}, {0, 0, 1}};
    y[0] = 42;
    rt_tensor scalar = {y, RT_F32, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_PROD, &vast, NULL, 0, false, &scalar), RT_OK);
    assert_true(y[0] == 1);
    /* Nor strides that describe memory: INT64_MIN on a kept dim, whose
       running offset overflowed while the outputs were walked (UBSan in
       CI's sanitizer build, tests/fuzz). */
    unsigned char u[1] = {7};
    rt_tensor wild = {u, RT_U8, 3, {4, 34, 0}, {36, INT64_MIN, 0}};
    bool all[34];
    memset(all, 0, sizeof all);
    rt_tensor outb = {all, RT_BOOL, 1, {34}, {1}};
    const int d02[2] = {-1, -3};
    assert_int_equal(reduce_tensor(ctx, RT_OP_ALL, &wild, d02, 2, false, &outb), RT_OK);
    for (int j = 0; j < 34; j++)
        assert_true(all[j]);
}

/* f64 sums must be at least as accurate as pairwise summation, on both
   paths (a run and columns), on 1 and 3 threads. 2^20 uniform [0, 1)
   values: naive left-to-right summation is off by ~10 eps (relative),
   pairwise by ~1; we must stay within 2. */
static void test_f64_accuracy(void **state)
{
    (void)state;
    int64_t n = 1 << 20;
    double *x = malloc(sizeof *x * (size_t)n), col[4];
    assert_non_null(x);
    rt_rng g;
    rt_rng_seed(&g, 5);
    long double exact = 0, exact_col[4] = {0, 0, 0, 0};
    for (int64_t i = 0; i < n; i++) {
        x[i] = rt_rng_unit(&g);
        exact += x[i];
        exact_col[i % 4] += x[i];
    }
    for (int threads = 1; threads <= 3; threads += 2) {
        rt_context *ctx = cpu_ctx(threads);
        double s = 0;
        rt_tensor in = {x, RT_F64, 1, {n}, {1}}, out = {&s, RT_F64, 0, {0}, {0}};
        assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
        assert_true(fabsl(s - exact) <= 2 * 0x1p-52L * exact);
        rt_tensor in2 = {x, RT_F64, 2, {n / 4, 4}, {4, 1}}, out2 = {col, RT_F64, 1, {4}, {1}};
        int d0 = 0;
        assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in2, &d0, 1, false, &out2), RT_OK);
        for (int j = 0; j < 4; j++)
            assert_true(fabsl(col[j] - exact_col[j]) <= 2 * 0x1p-52L * exact_col[j]);
        rt_context_destroy(ctx);
    }
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_conversions),
        cmocka_unit_test(test_extremes_nan_ties),
        cmocka_unit_test(test_extreme_index_layout),
        cmocka_unit_test(test_var_std),
        cmocka_unit_test(test_norms),
        cmocka_unit_test(test_any_all),
        cmocka_unit_test(test_integer_wrap),
        cmocka_unit_test(test_over_2_31_elements),
        cmocka_unit_test(test_zero_dim),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_f64_accuracy),
        cmocka_unit_test(test_dtype_rules),
        cmocka_unit_test(test_random_cases),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, rt_test_cpu_ctx_setup, rt_test_cpu_ctx_teardown);
}
