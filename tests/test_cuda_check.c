/*
 * The launch check of the CUDA backend (rt__cuda_check_config,
 * cuda_args.c) on the ROWS block kernel's two-pass var/std rows: host code,
 * so it runs in every CUDA build, with or without a GPU. The kernel
 * (reduce_rows.cuh two_pass_rows) trusts what the check passes: aligned rows
 * of whole vectors that one batch covers (exactly or in part), a row a
 * block, and a power-of-two count of warps for its butterfly over them;
 * 16-bit values at 4 vectors a thread among them. And the block kernel's
 * exact rows (rows_exact, reduce_rows.cuh exact_row), which start a row
 * at o x the one kept dim's stride and read one unguarded batch: aligned
 * rows of exactly rows_in_flight x block[0] vectors, a row a block, one
 * kept dim, not in two passes at 3 vectors a thread; in the direct, short
 * and warp kernels (row_starts, row_store) any rows of one kept dim, never
 * in the tile.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cuda_args.h"
#include "rt_test_config.h"

enum { ROWS = 32768 };

/* Rows of `len` elements of `elem` bytes over dim 1, packed and aligned. */
static rt__iter rows_of_elems(int64_t len, int elem) {
    const int64_t shape[] = {len, ROWS}, strides[] = {1, len};
    return rt_test_make_iter(2, 1, shape, strides, elem, 0);
}

/* f32 rows of `len`. */
static rt__iter rows_of(int64_t len) {
    return rows_of_elems(len, 4);
}

static rt__op_traits var_f32(void) {
    return rt__op_traits_for(RT_OP_VAR, RT_F32, RT_F32, false, 2.0);
}

/* TUNED's plan for op over dt values of *it on the model H100: a ROWS
   kernel, which the check passes. */
static rt__launch_config planned(const rt__iter *it, rt_op op, rt_dtype dt) {
    const rt__device_props h100 = rt_test_props_h100();
    const rt__launch_config c = rt_test_config_on(&h100, it, op, dt, RT_POLICY_TUNED, 0);
    assert_int_equal(c.kernel, RT__KERNEL_ROWS);
    const rt__op_traits t = rt__op_traits_for(op, dt, dt, false, 2.0);
    assert_int_equal(rt__cuda_check_config(it, &t, &c), RT_OK);
    return c;
}

/* TUNED's plan for var of dt over *it on the model H100: the ROWS block
   kernel in two passes on `threads` threads of `loads` vectors, which the
   check passes. */
static rt__launch_config planned_two_pass_of(const rt__iter *it, rt_dtype dt, int threads,
                                             int loads) {
    const rt__launch_config c = planned(it, RT_OP_VAR, dt);
    assert_true(c.rows_block);
    assert_true(c.rows_two_pass);
    assert_int_equal(c.block[0], threads);
    assert_int_equal(c.rows_in_flight, loads);
    return c;
}

/* The same for f32 var. */
static rt__launch_config planned_two_pass(const rt__iter *it, int threads, int loads) {
    return planned_two_pass_of(it, RT_F32, threads, loads);
}

/* Rows of 4096 floats take 512 threads of 2 vectors (the wide blocks);
   the same plan for a sum, which has no two-pass kernel, does not pass. */
static void test_two_pass_planned(void **state) {
    (void)state;
    const rt__iter it = rows_of(4096);
    const rt__launch_config c = planned_two_pass(&it, 512, 2);
    const rt__op_traits sum = rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0);
    assert_int_equal(rt__cuda_check_config(&it, &sum, &c), RT_ERR_INTERNAL);
}

/* The same plan moved to rows one batch of `threads` x 2 vectors covers
   exactly: 256 threads (8 warps) pass, 384 (12 warps) do not; neither does
   a row one batch does not cover. */
static rt__launch_config moved_to(const rt__launch_config *planned, int threads) {
    rt__launch_config c = *planned;
    c.block[0] = threads;
    c.rows_group = threads;
    return c;
}

static void test_two_pass_warps(void **state) {
    (void)state;
    const rt__iter wide = rows_of(4096);
    const rt__launch_config planned = planned_two_pass(&wide, 512, 2);
    const rt__op_traits op = var_f32();

    const rt__iter it256 = rows_of(256 * 2 * 4);
    rt__launch_config c = moved_to(&planned, 256);
    assert_int_equal(rt__cuda_check_config(&it256, &op, &c), RT_OK);

    const rt__iter it384 = rows_of(384 * 2 * 4);
    c = moved_to(&planned, 384);
    assert_int_equal(rt__cuda_check_config(&it384, &op, &c), RT_ERR_INTERNAL);
    /* Without two passes the block kernel takes 12 warps. */
    c.rows_two_pass = false;
    assert_int_equal(rt__cuda_check_config(&it384, &op, &c), RT_OK);

    /* 256 threads on rows of 4096: two batches, not one. */
    c = moved_to(&planned, 256);
    assert_int_equal(rt__cuda_check_config(&wide, &op, &c), RT_ERR_INTERNAL);
}

/* A partial batch: rows of 5000 floats (1250 vectors) on 512 threads of 4
   planned in two passes pass; the same plan on rows of 8196 (2049
   vectors, one past the batch) and on rows not of whole vectors (5002)
   does not. */
static void test_two_pass_partial(void **state) {
    (void)state;
    const rt__iter it = rows_of(5000);
    const rt__launch_config c = planned_two_pass(&it, 512, 4);
    const rt__op_traits op = var_f32();
    const rt__iter over = rows_of(8196);
    assert_int_equal(rt__cuda_check_config(&over, &op, &c), RT_ERR_INTERNAL);
    const rt__iter ragged = rows_of(5002);
    assert_int_equal(rt__cuda_check_config(&ragged, &op, &c), RT_ERR_INTERNAL);
}

/* 16-bit values: bf16 rows of 4000 (500 vectors) on 128 threads of 4
   pass, and rows of 3000 (375) on 128 of 3; the second plan on rows of
   3080 (385 vectors, one past its batch) does not, nor 3 vectors a thread
   without two passes or for f32 rows. */
static void test_two_pass_16bit(void **state) {
    (void)state;
    const rt__op_traits op = rt__op_traits_for(RT_OP_VAR, RT_BF16, RT_BF16, false, 2.0);
    const rt__iter four = rows_of_elems(4000, 2);
    planned_two_pass_of(&four, RT_BF16, 128, 4);
    const rt__iter it = rows_of_elems(3000, 2);
    rt__launch_config c = planned_two_pass_of(&it, RT_BF16, 128, 3);
    const rt__iter over = rows_of_elems(3080, 2);
    assert_int_equal(rt__cuda_check_config(&over, &op, &c), RT_ERR_INTERNAL);
    c.rows_two_pass = false;
    assert_int_equal(rt__cuda_check_config(&it, &op, &c), RT_ERR_INTERNAL);
    /* f32 rows of 1500 on 128 threads of 3 vectors (375 of them). */
    const rt__iter f32 = rows_of(1500);
    const rt__op_traits f32_op = var_f32();
    c.rows_two_pass = true;
    c.rows_vec = 4;
    assert_int_equal(rt__cuda_check_config(&f32, &f32_op, &c), RT_ERR_INTERNAL);
}

/* The check refuses c on *it with exact rows and passes it without: the
   flag alone is what it refuses there. */
static void expect_only_exact_refused(const rt__iter *it, const rt__op_traits *op,
                                      rt__launch_config c) {
    c.rows_exact = true;
    assert_int_equal(rt__cuda_check_config(it, op, &c), RT_ERR_INTERNAL);
    c.rows_exact = false;
    assert_int_equal(rt__cuda_check_config(it, op, &c), RT_OK);
}

/* Exact rows: the plan for rows of 4096 floats (512 threads x 2 vectors)
   passes, in two passes too (var); the same plan on rows one vector longer
   or shorter, on rows whose starts are 4 bytes apart, two rows a block or
   with two kept dims does not, nor 16-bit rows in two passes at 3 vectors
   a thread; rows of 5000 floats are planned without it. */
static void test_rows_exact(void **state) {
    (void)state;
    const rt__op_traits sum = rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0);
    const rt__iter it = rows_of(4096);
    const rt__launch_config c = planned(&it, RT_OP_SUM, RT_F32);
    assert_true(c.rows_block);
    assert_true(c.rows_exact);
    assert_int_equal(c.block[0], 512);
    assert_int_equal(c.rows_in_flight, 2);

    const rt__iter longer = rows_of(4100), shorter = rows_of(4092);
    assert_int_equal(rt__cuda_check_config(&longer, &sum, &c), RT_ERR_INTERNAL);
    assert_int_equal(rt__cuda_check_config(&shorter, &sum, &c), RT_ERR_INTERNAL);
    const int64_t shape[] = {4096, ROWS}, skewed[] = {1, 4097};
    const rt__iter misaligned = rt_test_make_iter(2, 1, shape, skewed, 4, 0);
    assert_int_equal(rt__cuda_check_config(&misaligned, &sum, &c), RT_ERR_INTERNAL);
    const int64_t shape3[] = {4096, 64, ROWS / 64}, strides3[] = {1, 4096, 4096 * 65};
    const rt__iter kept2 = rt_test_make_iter(3, 1, shape3, strides3, 4, 0);
    expect_only_exact_refused(&kept2, &sum, c);
    const rt__launch_config var_plan = planned_two_pass(&it, 512, 2);
    assert_true(var_plan.rows_exact);
    const rt__iter bf16 = rows_of_elems(3072, 2);
    const rt__launch_config three = planned_two_pass_of(&bf16, RT_BF16, 128, 3);
    assert_false(three.rows_exact);
    const rt__op_traits bf16_var = rt__op_traits_for(RT_OP_VAR, RT_BF16, RT_BF16, false, 2.0);
    expect_only_exact_refused(&bf16, &bf16_var, three);
    rt__launch_config pair = c;
    pair.rows_per_block = 2;
    pair.block[0] = pair.rows_group = 256;
    pair.rows_in_flight = 2;
    pair.grid[0] = ROWS / 2;
    const rt__iter pairs = rows_of(2048);
    expect_only_exact_refused(&pairs, &sum, pair);

    /* 1250 vectors on 512 threads of 4: a partial batch, the general row. */
    const rt__iter partial = rows_of(5000);
    const rt__launch_config p = planned(&partial, RT_OP_SUM, RT_F32);
    assert_true(p.rows_block);
    assert_false(p.rows_exact);
}

/* Exact rows in the direct, short and warp kernels: their plans for rows
   with one kept dim (rows of 128 and 129 floats: the warp kernel, of 4
   and 3: the short one, 33 of 40: the direct one) pass with the flag; the
   same plans on two kept dims do not, nor the tile kernel's (rows of 64)
   with the flag set. */
static void test_rows_exact_flat(void **state) {
    (void)state;
    const rt__op_traits sum = rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0);
    const struct {
        int64_t len, pitch;
    } rows[] = {{128, 128}, {129, 129}, {4, 4}, {3, 3}, {33, 40}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const int64_t shape[] = {rows[i].len, ROWS}, strides[] = {1, rows[i].pitch};
        const rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
        const rt__launch_config c = planned(&it, RT_OP_SUM, RT_F32);
        assert_false(c.rows_block || c.rows_tile);
        assert_true(c.rows_exact);
        const int64_t shape3[] = {rows[i].len, 64, ROWS / 64},
                      strides3[] = {1, rows[i].pitch, rows[i].pitch * 65};
        const rt__iter kept2 = rt_test_make_iter(3, 1, shape3, strides3, 4, 0);
        expect_only_exact_refused(&kept2, &sum, c);
    }
    const rt__iter tile_rows = rows_of(64);
    const rt__launch_config tile = planned(&tile_rows, RT_OP_SUM, RT_F32);
    assert_true(tile.rows_tile);
    assert_false(tile.rows_exact);
    expect_only_exact_refused(&tile_rows, &sum, tile);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_pass_planned),
        cmocka_unit_test(test_two_pass_warps),
        cmocka_unit_test(test_two_pass_partial),
        cmocka_unit_test(test_two_pass_16bit),
        cmocka_unit_test(test_rows_exact),
        cmocka_unit_test(test_rows_exact_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
