/*
 * src/config, branch by branch: each test builds an iteration space by
 * hand (dims fastest first, reduced dims leading, as src/iter gives them)
 * and checks the COMPAT config worked out in its comment from PyTorch's
 * setReduceConfig rule; then the op traits, TUNED, and what
 * rt__config_compute rejects. tests/test_config.c checks the same policy
 * against PyTorch's own launches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "rt_test_config.h"

/* The general kernel's config: TUNED's full reductions of a long
   contiguous run go to the STREAM kernel, turned off here (the kernel's
   own config is test_tuned_stream's). */
static rt__launch_config config_for(const rt__iter *it, rt_op op, rt_dtype dtype,
                                    rt_policy policy) {
    rt__launch_config c =
        rt_test_config_without(it, op, dtype, policy, RT__KIND_BIT(RT__KERNEL_STREAM));
    assert_int_equal(c.kernel, RT__KERNEL_GENERAL);
    assert_int_equal(c.num_threads, c.block[0] * c.block[1]);
    assert_int_equal(c.max_threads, 512 / c.output_vec_size);
    assert_true(c.num_threads <= c.max_threads);
    return c;
}

static rt__launch_config compat_for(const rt__iter *it, rt_op op, rt_dtype dtype) {
    return config_for(it, op, dtype, RT_POLICY_COMPAT);
}

static void assert_dims3(const int *got, int x, int y, int z) {
    assert_int_equal(got[0], x);
    assert_int_equal(got[1], y);
    assert_int_equal(got[2], z);
}

/* Rows of 1024 contiguous values, 64 outputs: the reduced dim is fastest
   and long, so lanes read float4s (dim0 = 1024 / 4 -> 256 lanes wanted,
   capped at a warp); 16 warps own separate rows (32 values per lane is
   below the warp split threshold min(16 * 16, 256)); 64 / 16 = 4 blocks. */
static void test_vectorized_input(void **state) {
    (void)state;
    int64_t shape[] = {1024, 64}, strides[] = {1, 1024};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__launch_config c = compat_for(&it, RT_OP_SUM, RT_F32);
    assert_true(c.vectorize_input);
    assert_int_equal(c.input_vec_size, 4);
    assert_int_equal(c.output_vec_size, 1);
    assert_dims3(c.block, 32, 16, 1);
    assert_dims3(c.grid, 4, 1, 1);
    assert_int_equal(c.input_mult[0], 1);
    assert_int_equal(c.input_mult[1], 0);
    assert_int_equal(c.output_mult[1], 1);
    assert_int_equal(c.step_input, 32);
    assert_int_equal(c.step_output, 16);
    assert_int_equal(c.max_threads, 512);
    assert_int_equal(c.shared_memory_bytes, 0); /* one warp: shuffles only */
    assert_true(rt__config_block_x_reduce(&c));
    assert_false(rt__config_block_y_reduce(&c));

    /* var/std: vt0 = input_vec_size = 2, still vectorized. */
    c = compat_for(&it, RT_OP_VAR, RT_F32);
    assert_true(c.vectorize_input);
    assert_int_equal(c.input_vec_size, 2);
    assert_int_equal(c.vt0, 2);

    /* 16-bit sum: input_vec_size 8 > vt0 4 turns vectorization off on
       CUDA, as in PyTorch; the block is the same (dim0 caps at 512). */
    rt__iter half = rt_test_make_iter(2, 1, shape, strides, 2, 0);
    c = compat_for(&half, RT_OP_SUM, RT_BF16);
    assert_false(c.vectorize_input);
    assert_int_equal(c.input_vec_size, 8);
    assert_dims3(c.block, 32, 16, 1);

    /* Exactly 128 values is not enough (PyTorch: dim0 > 128); 129 is. */
    int64_t s128[] = {128, 64}, st128[] = {1, 128};
    rt__iter it128 = rt_test_make_iter(2, 1, s128, st128, 4, 0);
    assert_false(compat_for(&it128, RT_OP_SUM, RT_F32).vectorize_input);
    int64_t s129[] = {129, 64}, st129[] = {1, 129};
    rt__iter it129 = rt_test_make_iter(2, 1, s129, st129, 4, 0);
    assert_true(compat_for(&it129, RT_OP_SUM, RT_F32).vectorize_input);

    /* Two reduced dims that do not coalesce: no input vectors. */
    int64_t s2[] = {200, 3, 5}, st2[] = {1, 1000, 3000};
    rt__iter two = rt_test_make_iter(3, 2, s2, st2, 4, 0);
    c = compat_for(&two, RT_OP_SUM, RT_F32);
    assert_false(c.vectorize_input);
    assert_true(rt__config_block_x_reduce(&c));
}

/* Column sums of a 64 x n matrix: lanes own adjacent outputs, up to 4 per
   thread when the base, n and the row stride allow it. */
static int column_vec(int64_t n, size_t base_offset) {
    int64_t shape[] = {64, n}, strides[] = {n, 1};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, base_offset);
    rt__launch_config c = compat_for(&it, RT_OP_SUM, RT_F32);
    assert_false(c.vectorize_input);
    assert_int_equal(c.max_threads, 512 / c.output_vec_size);
    assert_false(rt__config_block_x_reduce(&c));
    return c.output_vec_size;
}

static void test_vectorized_output(void **state) {
    (void)state;
    assert_int_equal(column_vec(64, 0), 4);
    assert_int_equal(column_vec(64, 8), 2); /* base 2 elements past alignment */
    assert_int_equal(column_vec(64, 4), 1); /* base 1 element past */
    assert_int_equal(column_vec(6, 0), 2);  /* extent and row stride 6 */
    assert_int_equal(column_vec(7, 0), 1);

    /* 64 x 64, vec 4: dim0 = 64 / 4 = 16 lanes, 8 warps of 16 lanes (128
       threads max); 64 values per thread is below min(8 * 16, 256), so the
       warps own outputs too: 16 * 8 = 128 vectors per block, one block. */
    int64_t shape[] = {64, 64}, strides[] = {64, 1};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__launch_config c = compat_for(&it, RT_OP_SUM, RT_F32);
    assert_dims3(c.block, 16, 8, 1);
    assert_dims3(c.grid, 1, 1, 1);
    assert_int_equal(c.output_mult[0], 1);
    assert_int_equal(c.output_mult[1], 16);
    assert_int_equal(c.step_output, 128);
    assert_int_equal(c.shared_memory_bytes, 0);

    /* A second kept dim with an odd stride (513 elements) forbids vectors. */
    int64_t s3[] = {64, 8, 3}, st3[] = {8, 1, 513};
    rt__iter odd = rt_test_make_iter(3, 1, s3, st3, 4, 0);
    assert_int_equal(compat_for(&odd, RT_OP_SUM, RT_F32).output_vec_size, 1);
    /* f64: the widths count elements, so an 8-byte offset is misaligned. */
    rt__iter dbl = rt_test_make_iter(2, 1, shape, strides, 8, 8);
    assert_int_equal(compat_for(&dbl, RT_OP_SUM, RT_F64).output_vec_size, 1);
}

static void test_block_x_and_block_y_splits(void **state) {
    (void)state;
    /* 8 contiguous values per row, 100000 rows: 8 lanes split each row
       (block_x_reduce by shuffles), 64 warps rows own outputs. */
    int64_t s_rows[] = {8, 100000}, st_rows[] = {1, 8};
    rt__iter rows = rt_test_make_iter(2, 1, s_rows, st_rows, 4, 0);
    rt__launch_config c = compat_for(&rows, RT_OP_SUM, RT_F32);
    assert_dims3(c.block, 8, 64, 1);
    assert_dims3(c.grid, 1563, 1, 1); /* ceil(100000 / 64) */
    assert_true(rt__config_block_x_reduce(&c));
    assert_false(rt__config_block_y_reduce(&c));
    assert_int_equal(c.shared_memory_bytes, 0);

    /* 4096 contiguous values, one output: 512 lanes (more than a warp, so
       shared memory: 512 * 4 bytes) and 8 values each, too few to split
       across warps or blocks. */
    int64_t s_full[] = {4096}, st_full[] = {1};
    rt__iter full = rt_test_make_iter(1, 1, s_full, st_full, 4, 0);
    c = compat_for(&full, RT_OP_SUM, RT_F32);
    assert_dims3(c.block, 512, 1, 1);
    assert_dims3(c.grid, 1, 1, 1);
    assert_int_equal(c.step_input, 512);
    assert_false(rt__config_block_y_reduce(&c));
    assert_int_equal(c.shared_memory_bytes, 2048);

    /* Column sums of 4096 x 4096: lanes own float4 outputs (32 x 4 = 128
       columns per block), 4 warps split the rows (block_y_reduce in shared
       memory: 4 bytes * 128 threads * 4 outputs), and 64 blocks per column
       tile split them again (global reduce; PyTorch's grid (32, 64)). */
    int64_t s_col[] = {4096, 4096}, st_col[] = {4096, 1};
    rt__iter col = rt_test_make_iter(2, 1, s_col, st_col, 4, 0);
    c = compat_for(&col, RT_OP_SUM, RT_F32);
    assert_dims3(c.block, 32, 4, 1);
    assert_dims3(c.grid, 32, 64, 1);
    assert_int_equal(c.output_vec_size, 4);
    assert_int_equal(c.input_mult[0], 0);
    assert_int_equal(c.input_mult[1], 1);
    assert_int_equal(c.input_mult[2], 4);
    assert_int_equal(c.output_mult[0], 1);
    assert_int_equal(c.step_input, 256);
    assert_int_equal(c.step_output, 32);
    assert_true(rt__config_block_y_reduce(&c));
    assert_int_equal(c.shared_memory_bytes, 2048);
}

static void test_global_reduce(void **state) {
    (void)state;
    /* 2^20 contiguous values: 512 lanes, 2048 values each; a wave is
       132 SMs * 4 blocks = 528 blocks, but 16 values per thread is the
       floor, so 2048 / 16 = 128 blocks (PyTorch's grid (1, 128)). Lanes
       combine in the block first, so one partial per block. */
    int64_t shape[] = {1 << 20}, strides[] = {1};
    rt__iter it = rt_test_make_iter(1, 1, shape, strides, 4, 0);
    rt__launch_config c = compat_for(&it, RT_OP_SUM, RT_F32);
    assert_dims3(c.grid, 1, 128, 1);
    assert_int_equal(c.ctas_per_output, 128);
    assert_true(rt__config_global_reduce(&c));
    assert_int_equal(c.input_mult[0], 1);
    assert_int_equal(c.input_mult[1], 512);
    assert_int_equal(c.input_mult[2], 512);
    assert_int_equal(c.step_input, 512 * 128);
    assert_int_equal(c.staging_bytes, 128 * 4);
    assert_int_equal(c.semaphore_count, 1);
    /* argmax partials are (value, index) pairs of 16 bytes. */
    c = compat_for(&it, RT_OP_ARGMAX, RT_F32);
    assert_int_equal(c.staging_bytes, 128 * 16);
    assert_int_equal(c.shared_memory_bytes, 512 * 16);

    /* Columns: every lane keeps its own 4 outputs, so the partials are
       32 x 64 blocks * 32 lanes * 4 outputs * 4 bytes. */
    int64_t s_col[] = {4096, 4096}, st_col[] = {4096, 1};
    rt__iter col = rt_test_make_iter(2, 1, s_col, st_col, 4, 0);
    c = compat_for(&col, RT_OP_SUM, RT_F32);
    assert_int_equal(c.staging_bytes, (int64_t)32 * 64 * 32 * 4 * 4);
    assert_int_equal(c.semaphore_count, 32);

    /* Enough outputs to fill the GPU: no global reduce however long the
       rows (4 x 4096 x 4096 over dim 0 launches 32768 blocks). */
    int64_t s_wide[] = {4, 4096 * 4096}, st_wide[] = {4096 * 4096, 1};
    rt__iter wide = rt_test_make_iter(2, 1, s_wide, st_wide, 4, 0);
    c = compat_for(&wide, RT_OP_SUM, RT_F32);
    assert_false(rt__config_global_reduce(&c));
    assert_int_equal(c.ctas_per_output, 1);
    assert_int_equal(c.staging_bytes, 0);
    assert_int_equal(c.semaphore_count, 0);
}

static void assert_single_thread(const rt__launch_config *c) {
    assert_dims3(c->block, 1, 1, 1);
    assert_dims3(c->grid, 1, 1, 1);
    assert_int_equal(c->num_threads, 1);
    assert_int_equal(c->shared_memory_bytes, 0);
    assert_false(rt__config_block_y_reduce(c));
    assert_false(rt__config_global_reduce(c));
}

static void test_rank0_and_single_element(void **state) {
    (void)state;
    /* Rank 0: PyTorch's ndim() == 0 branch, one thread "splitting" the
       input over lanes of width 1. */
    rt__iter it0 = rt_test_make_iter(0, 0, NULL, NULL, 4, 0);
    rt__launch_config c = compat_for(&it0, RT_OP_SUM, RT_F32);
    assert_single_thread(&c);
    assert_int_equal(c.input_mult[0], 1);
    assert_int_equal(c.output_mult[1], 1);

    /* One kept element of extent 1: no reduction at any level. */
    int64_t one[] = {1}, unit[] = {1};
    rt__iter kept = rt_test_make_iter(1, 0, one, unit, 4, 0);
    c = compat_for(&kept, RT_OP_MAX, RT_F32);
    assert_single_thread(&c);
    assert_false(rt__config_block_x_reduce(&c));
    assert_int_equal(c.output_vec_size, 1);

    /* The iter builder's view of a real 0-d and a 1-element tensor. */
    rt_tensor scalar = {.data = rt_test_iter_base(), .dtype = RT_F32, .ndim = 0};
    int64_t no_strides[1] = {0};
    rt__iter built;
    rt__iter_build_raw(&scalar, no_strides, 4, 0, RT__INDEX_NONE, &built);
    c = compat_for(&built, RT_OP_SUM, RT_F32);
    assert_single_thread(&c);
    rt_tensor single = {.data = rt_test_iter_base(), .dtype = RT_F32, .ndim = 2, .shape = {1, 1},
                        .strides = {1, 1}};
    int64_t out_strides[] = {0, 0};
    rt__iter_build_raw(&single, out_strides, 4, 3u, RT__INDEX_NONE, &built);
    c = compat_for(&built, RT_OP_SUM, RT_F32);
    assert_single_thread(&c);
}

/* What rt__config_compute refuses, leaving *cfg untouched. */
static void test_rejects(void **state) {
    (void)state;
    int64_t shape[] = {64, 64}, strides[] = {64, 1};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__op_traits t = rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0);
    rt__device_props dev = rt__device_props_h200();
    rt__launch_config c, poison;
    memset(&poison, 0xA5, sizeof poison);
    c = poison;

    /* No work: the executor handles empty outputs and empty reductions
       without a launch, so a config request for one is a bug. */
    rt__iter empty_out = rt_test_make_iter(2, 1, (int64_t[]){64, 0}, strides, 4, 0);
    assert_int_equal(empty_out.num_outputs, 0);
    assert_int_equal(rt__config_compute(&empty_out, &t, &dev, RT_POLICY_COMPAT, &c),
                     RT_ERR_INTERNAL);
    rt__iter empty_red = rt_test_make_iter(2, 1, (int64_t[]){0, 64}, strides, 4, 0);
    assert_int_equal(rt__config_compute(&empty_red, &t, &dev, RT_POLICY_TUNED, &c),
                     RT_ERR_INTERNAL);
    /* More than one 32-bit piece: 2^16 * 2^16 elements. */
    rt__iter huge = rt_test_make_iter(2, 1, (int64_t[]){65536, 65536}, (int64_t[]){65536, 1}, 4, 0);
    assert_int_equal(rt__config_compute(&huge, &t, &dev, RT_POLICY_COMPAT, &c), RT_ERR_INTERNAL);

    assert_int_equal(rt__config_compute(NULL, &t, &dev, RT_POLICY_COMPAT, &c),
                     RT_ERR_NULL_POINTER);
    assert_int_equal(rt__config_compute(&it, NULL, &dev, RT_POLICY_COMPAT, &c),
                     RT_ERR_NULL_POINTER);
    assert_int_equal(rt__config_compute(&it, &t, NULL, RT_POLICY_COMPAT, &c),
                     RT_ERR_NULL_POINTER);
    assert_int_equal(rt__config_compute(&it, &t, &dev, RT_POLICY_COMPAT, NULL),
                     RT_ERR_NULL_POINTER);
    /* DEFAULT is resolved by the caller (the problem's policy). */
    assert_int_equal(rt__config_compute(&it, &t, &dev, RT_POLICY_DEFAULT, &c),
                     RT_ERR_BAD_ARGUMENT);
    assert_int_equal(rt__config_compute(&it, &t, &dev, (rt_policy)7, &c), RT_ERR_BAD_ARGUMENT);

    rt__device_props bad = dev;
    bad.num_sms = 0;
    assert_int_equal(rt__config_compute(&it, &t, &bad, RT_POLICY_COMPAT, &c), RT_ERR_BAD_ARGUMENT);
    bad = dev;
    bad.warp_size = 48;
    assert_int_equal(rt__config_compute(&it, &t, &bad, RT_POLICY_COMPAT, &c), RT_ERR_BAD_ARGUMENT);
    bad = dev;
    bad.max_threads_per_block = 256;
    assert_int_equal(rt__config_compute(&it, &t, &bad, RT_POLICY_COMPAT, &c), RT_ERR_BAD_ARGUMENT);
    /* A device with too little shared memory for the block_y reduce of
       4096 x 4096 column sums (2048 bytes). */
    rt__iter col = rt_test_make_iter(2, 1, (int64_t[]){4096, 4096}, (int64_t[]){4096, 1}, 4, 0);
    bad = dev;
    bad.shared_mem_per_block = 1024;
    assert_int_equal(rt__config_compute(&col, &t, &bad, RT_POLICY_COMPAT, &c), RT_ERR_BAD_ARGUMENT);
    /* Traits that do not describe the iter's input (f64 traits, f32 iter). */
    rt__op_traits wrong = rt__op_traits_for(RT_OP_SUM, RT_F64, RT_F64, false, 2.0);
    assert_int_equal(rt__config_compute(&it, &wrong, &dev, RT_POLICY_COMPAT, &c),
                     RT_ERR_BAD_ARGUMENT);
    rt__iter bad_iter = it;
    bad_iter.num_reduce_dims = 3;
    assert_int_equal(rt__config_compute(&bad_iter, &t, &dev, RT_POLICY_COMPAT, &c),
                     RT_ERR_BAD_ARGUMENT);
    assert_memory_equal(&c, &poison, sizeof c);
}

/* PyTorch's per-op template arguments and accumulator sizes. */
static void test_op_traits(void **state) {
    (void)state;
    static const struct {
        rt_op op;
        rt_dtype in, out;
        bool idx;
        int acc, vt0, ivs, noutputs;
    } rows[] = {
        {RT_OP_SUM, RT_F32, RT_F32, false, 4, 4, 4, 1},
        {RT_OP_SUM, RT_F16, RT_F16, false, 4, 4, 8, 1},   /* float acc, 8-wide */
        {RT_OP_SUM, RT_BF16, RT_F32, false, 4, 4, 8, 1},
        {RT_OP_SUM, RT_F32, RT_F64, false, 8, 4, 4, 1},   /* PyTorch casts to f64 */
        {RT_OP_SUM, RT_F64, RT_F64, false, 8, 4, 4, 1},
        {RT_OP_SUM, RT_I32, RT_I64, false, 8, 4, 4, 1},   /* int64 accumulation */
        {RT_OP_SUM, RT_BOOL, RT_I64, false, 8, 4, 4, 1},
        {RT_OP_PROD, RT_U8, RT_I64, false, 8, 4, 4, 1},
        {RT_OP_MEAN, RT_BF16, RT_BF16, false, 4, 4, 8, 1},
        {RT_OP_MIN, RT_F16, RT_F16, false, 4, 4, 4, 1},   /* compared in f32 */
        {RT_OP_MAX, RT_I8, RT_I8, false, 1, 4, 4, 1},
        {RT_OP_MAX, RT_F64, RT_F64, false, 8, 4, 4, 1},
        {RT_OP_MAX, RT_F32, RT_F32, true, 16, 4, 4, 2},   /* (value, index) */
        {RT_OP_ARGMAX, RT_F32, RT_I64, false, 16, 4, 4, 1},
        {RT_OP_ARGMIN, RT_U8, RT_I64, false, 16, 4, 4, 1},
        {RT_OP_VAR, RT_F32, RT_F32, false, 16, 2, 2, 1},  /* Welford, vt0 2 */
        {RT_OP_STD, RT_F16, RT_F16, false, 16, 2, 2, 1},
        {RT_OP_VAR, RT_F64, RT_F64, false, 32, 2, 2, 1},
        {RT_OP_NORM, RT_F32, RT_F32, false, 4, 4, 4, 1},
        {RT_OP_NORM, RT_F64, RT_F64, false, 8, 4, 4, 1},
        {RT_OP_ANY, RT_F32, RT_BOOL, false, 1, 4, 4, 1},
        {RT_OP_ALL, RT_BOOL, RT_BOOL, false, 1, 4, 4, 1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        rt__op_traits t = rt__op_traits_for(rows[k].op, rows[k].in, rows[k].out, rows[k].idx, 2.0);
        assert_int_equal(t.input_size, (int)rt_dtype_size(rows[k].in));
        assert_int_equal(t.output_size, (int)rt_dtype_size(rows[k].out));
        assert_int_equal(t.acc_size, rows[k].acc);
        assert_int_equal(t.vt0, rows[k].vt0);
        assert_int_equal(t.input_vec_size, rows[k].ivs);
        assert_int_equal(t.noutputs, rows[k].noutputs);
    }
    rt__device_props h200 = rt__device_props_h200();
    assert_int_equal(h200.num_sms, 132);
    assert_int_equal(h200.max_threads_per_sm, 2048);
    assert_int_equal(h200.warp_size, 32);
    assert_int_equal(h200.max_threads_per_block, 1024);
    assert_int_equal(h200.shared_mem_per_block, 49152);
    assert_int_equal(h200.l2_bytes, 60 * 1024 * 1024);
    assert_int_equal(h200.mem_gbps, 4915);
}

/* TUNED is COMPAT where none of its rules (tuned.c) applies: the same
   config, labelled TUNED. */
static void test_tuned_equals_compat_elsewhere(void **state) {
    (void)state;
    /* (Vectorized rows of one reduced dim are rule 6's: test_tuned_row_blocks.) */
    int64_t s_3d[] = {5, 13, 77}, st_3d[] = {1001, 1, 13};
    int64_t s_big[] = {32768, 4096}, st_big[] = {1, 32768};
    rt__iter its[] = {rt_test_make_iter(3, 1, s_3d, st_3d, 4, 0),
                      rt_test_make_iter(2, 1, s_big, st_big, 4, 0)};
    for (size_t k = 0; k < sizeof its / sizeof its[0]; k++) {
        rt__launch_config a = config_for(&its[k], RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
        rt__launch_config b = config_for(&its[k], RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
        b.policy = RT_POLICY_COMPAT;
        /* Compared through the JSON text, which lists every field (a
           memory compare would also compare padding). */
        char ja[1024], jb[1024];
        assert_true(rt__config_to_json(&a, ja, sizeof ja) < (int)sizeof ja);
        assert_true(rt__config_to_json(&b, jb, sizeof jb) < (int)sizeof jb);
        assert_string_equal(ja, jb);
    }
}

/* TUNED rule 1: 16-bit sums read their contiguous reduced dim in 8-wide
   vectors, which COMPAT (PyTorch) leaves off. */
static void test_tuned_vectorizes_16bit_sums(void **state) {
    (void)state;
    int64_t shape[] = {4096, 64}, strides[] = {1, 4096};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 2, 0);
    it.elem_size[RT__ITER_IN] = 2;
    rt_op ops[] = {RT_OP_SUM, RT_OP_MEAN};
    rt_dtype dts[] = {RT_BF16, RT_F16};
    for (int k = 0; k < 4; k++) {
        rt__launch_config c = config_for(&it, ops[k % 2], dts[k / 2], RT_POLICY_COMPAT);
        rt__launch_config t = config_for(&it, ops[k % 2], dts[k / 2], RT_POLICY_TUNED);
        assert_false(c.vectorize_input);
        assert_true(t.vectorize_input);
        assert_int_equal(t.input_vec_size, 8);
        assert_int_equal(t.vt0, 4);
        assert_true(rt__config_block_x_reduce(&t));
        /* 4096 / 8 = 512 vectors: 128 lanes a row, 4 vectors each (rule 6). */
        assert_dims3(t.block, 128, 1, 1);
    }
    /* f32 sums were vectorized by both already; only rule 6's block
       differs (PyTorch: a warp a row, 16 rows a block). */
    rt__iter f = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__launch_config c = config_for(&f, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    rt__launch_config t = config_for(&f, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_true(c.vectorize_input && t.vectorize_input);
    assert_dims3(c.block, 32, 16, 1);
    assert_dims3(t.block, 128, 1, 1);
}

/* TUNED rule 6: rows of one contiguous reduced dim read in vectors run on
   128-thread blocks, 128 lanes a row for ops whose state is one number
   when each lane still reads >= 4 vectors, else a warp a row (4 rows a
   block); COMPAT keeps PyTorch's 32 x 16. */
static void test_tuned_row_blocks(void **state) {
    (void)state;
    /* 1024 rows: under the 4 waves of the ROWS block kernel
       (test_tuned_rows_block). */
    int64_t shape[] = {4096, 1024}, strides[] = {1, 4096};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__launch_config c = config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    assert_dims3(c.block, 32, 16, 1);
    assert_dims3(c.grid, 64, 1, 1);

    const rt_op wide[] = {RT_OP_SUM, RT_OP_MEAN, RT_OP_PROD, RT_OP_MAX, RT_OP_MIN};
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++) {
        rt__launch_config t = config_for(&it, wide[k], RT_F32, RT_POLICY_TUNED);
        assert_dims3(t.block, 128, 1, 1);
        assert_dims3(t.grid, 1024, 1, 1);
        assert_int_equal(t.input_mult[0], 1);
        assert_int_equal(t.input_mult[1], 0);
        assert_int_equal(t.output_mult[0], 0);
        assert_int_equal(t.output_mult[1], 1);
        assert_int_equal(t.step_input, 128);
        assert_int_equal(t.step_output, 1);
        assert_false(rt__config_global_reduce(&t));
        /* Four warps combine a row through shared memory. */
        assert_int_equal(t.shared_memory_bytes, 128 * 4);
    }
    const rt_op narrow[] = {RT_OP_VAR, RT_OP_ARGMAX, RT_OP_NORM};
    for (size_t k = 0; k < sizeof narrow / sizeof narrow[0]; k++) {
        rt__launch_config t = config_for(&it, narrow[k], RT_F32, RT_POLICY_TUNED);
        assert_dims3(t.block, 32, 4, 1);
        assert_dims3(t.grid, 256, 1, 1);
        assert_int_equal(t.step_input, 32);
        assert_int_equal(t.step_output, 4);
        assert_int_equal(t.shared_memory_bytes, 0);
    }
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, true, 2.0).row_lanes, 32);
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, false, 2.0).row_lanes, 128);
    /* The p = 2 norm has its own kernel, folded like a sum; other p keep a warp. */
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 2.0).row_lanes, 128);
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 1.0).row_lanes, 32);
    assert_int_equal(rt__op_traits_for(RT_OP_VAR, RT_F32, RT_F32, false, 2.0).row_lanes, 32);

    /* Rows of 1500 f32 are 375 vectors, under 4 a lane on 128 lanes: a
       warp a row even for sums; 77 rows (not a multiple of 4) round the
       grid up. */
    int64_t s_few[] = {1500, 77}, st_few[] = {1, 1500};
    rt__iter few = rt_test_make_iter(2, 1, s_few, st_few, 4, 0);
    rt__launch_config tf = config_for(&few, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_dims3(tf.block, 32, 4, 1);
    assert_dims3(tf.grid, 20, 1, 1);

    /* Not rows of a row reduction: one output keeps its block row
       (rules 2 and 3), and rows long enough for a warp split keep it. */
    int64_t s_one[] = {1 << 20}, st_one[] = {1};
    rt__iter one = rt_test_make_iter(1, 1, s_one, st_one, 4, 0);
    assert_int_equal(config_for(&one, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).block[0], 512);
    int64_t s_long[] = {1 << 16, 64}, st_long[] = {1, 1 << 16};
    rt__iter lng = rt_test_make_iter(2, 1, s_long, st_long, 4, 0);
    rt__launch_config tl = config_for(&lng, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_true(rt__config_block_y_reduce(&tl));
    assert_dims3(tl.block, 32, 16, 1);
}

/* The ROWS block kernel (tuned_rows.c rows_block): rows of 2-32 KiB, at
   least 4 waves of them, a block per row of 128-512 threads loading four
   16-byte vectors each (fewer when the row runs out); everything else keeps
   its kernel. */
/* [rows, len] rows of dt reduced by op, pitch apart, on dev, with the
   kinds in kinds_off turned off. */
static rt__launch_config rows_config_on(const rt__device_props *dev, int64_t len, int64_t pitch,
                                        int64_t rows, rt_op op, rt_dtype dt, unsigned kinds_off) {
    int64_t shape[] = {len, rows}, strides[] = {1, pitch};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, (int)rt_dtype_size(dt), 0);
    return rt_test_config_on(dev, &it, op, dt, RT_POLICY_TUNED, kinds_off);
}

/* Packed rows on the model H200. */
static rt__launch_config rows_config_for(int64_t len, int64_t rows, rt_op op, rt_dtype dt) {
    const rt__device_props h200 = rt__device_props_h200();
    return rows_config_on(&h200, len, len, rows, op, dt, 0);
}

/* The block kernel of `pair` ? two rows : one row a block, on dev. */
static void expect_rows_block_on(const rt__device_props *dev, int64_t len, int64_t rows, rt_op op,
                                 rt_dtype dt, int threads, int loads, bool pair) {
    const rt__launch_config c = rows_config_on(dev, len, len, rows, op, dt, 0);
    rt_dtype out = dt;
    assert_int_equal(rt_reduce_default_dtype(op, dt, &out), RT_OK);
    const rt__op_traits t = rt__op_traits_for(op, dt, out, false, 3.0);
    const int per_block = pair ? 2 : 1;
    assert_int_equal(c.kernel, RT__KERNEL_ROWS);
    assert_true(c.rows_block);
    assert_false(c.rows_tile || c.rows_short);
    assert_dims3(c.block, threads, 1, 1);
    assert_dims3(c.grid, (int)((rows + per_block - 1) / per_block), 1, 1);
    assert_int_equal(c.num_threads, threads);
    assert_int_equal(c.rows_group, threads);
    assert_int_equal(c.rows_per_block, per_block);
    assert_int_equal(c.rows_vec * (int)rt_dtype_size(dt), 16);
    assert_int_equal(c.rows_in_flight, loads);
    /* A state per warp and row for block_x_reduce. */
    assert_int_equal(c.shared_memory_bytes, threads / 32 * per_block * t.acc_size);
}

/* The same on the model H200. */
static void expect_rows_block(int64_t len, int64_t rows, rt_op op, rt_dtype dt, int threads,
                              int loads, bool pair) {
    const rt__device_props h200 = rt__device_props_h200();
    expect_rows_block_on(&h200, len, rows, op, dt, threads, loads, pair);
}

/* The ROWS tile's half tiles (tuned_rows.c): packed rows of 128 bytes on
   H100-class GPUs take 9 KiB tiles (64 rows of 32 floats, two lanes a
   row) instead of 18 KiB (128 rows, a thread a row); other row lengths,
   the H200 and the switch keep the full tile. */
static void test_tuned_half_tile(void **state) {
    (void)state;
    const rt__device_props h100 = rt_test_props_h100();
    const rt__device_props h200 = rt__device_props_h200();
    const int64_t rows = (int64_t)1 << 22;
    static const struct {
        int64_t len;
        rt_dtype dt;
        int half_rows, full_rows;
    } k[] = {{32, RT_F32, 64, 128}, {64, RT_F16, 64, 128}, {16, RT_F64, 64, 128}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const int64_t len = k[i].len;
        rt__launch_config c = rows_config_on(&h100, len, len, rows, RT_OP_SUM, k[i].dt, 0);
        assert_true(c.rows_tile);
        assert_int_equal(c.rows_per_block, k[i].half_rows);
        assert_int_equal(c.rows_group, 128 / k[i].half_rows);
        assert_int_equal(c.grid[0], rows / k[i].half_rows);
        /* The tile and one vector past it: 8 KiB + 16 bytes. */
        assert_int_equal(c.shared_memory_bytes, k[i].half_rows * 128 + 16);
        c = rows_config_on(&h200, len, len, rows, RT_OP_SUM, k[i].dt, 0);
        assert_true(c.rows_tile);
        assert_int_equal(c.rows_per_block, k[i].full_rows);
        assert_int_equal(c.rows_group, 1);
        c = rows_config_on(&h100, len, len, rows, RT_OP_SUM, k[i].dt, RT__RULE_OFF_HALF_TILE);
        assert_int_equal(c.rows_per_block, k[i].full_rows);
    }
    /* Rows of 33 and 16 floats: the full tile on the H100 too. */
    rt__launch_config c = rows_config_on(&h100, 33, 33, rows, RT_OP_SUM, RT_F32, 0);
    assert_true(c.rows_tile);
    assert_int_equal(c.rows_per_block, 128);
    c = rows_config_on(&h100, 16, 16, rows, RT_OP_SUM, RT_F32, 0);
    assert_true(c.rows_tile);
    assert_int_equal(c.rows_per_block, 256);
}

static void test_tuned_rows_block(void **state) {
    (void)state;
    /* 4096 floats: 1024 vectors, four each on 256 threads; 8 blocks of
       256 per SM, 4 waves of 132 SMs = 4224 rows at the least. Over 768
       vectors: a row a block. (Products here and below where sums would
       take the wide blocks of test_tuned_row_block_wide.) */
    expect_rows_block(4096, 32768, RT_OP_PROD, RT_F32, 256, 4, false);
    expect_rows_block(4096, 4224, RT_OP_PROD, RT_F32, 256, 4, false);
    expect_rows_block(4096, 32768, RT_OP_ARGMAX, RT_F32, 256, 4, false);
    /* Norms of run-time p (rt_test_config_for plans p = 3) are built for
       two vectors a thread at most: 512 threads, too many for two rows. */
    expect_rows_block(4096, 32768, RT_OP_NORM, RT_F32, 512, 2, false);
    expect_rows_block(1500, 67108, RT_OP_NORM, RT_F32, 256, 2, true);
    /* bf16: 512 vectors of 8 on 128 threads; f64: 2048 of 2 on 512. Two
       rows of 16-bit values take two vectors a thread at most (traits
       row_pair_loads): 250 vectors pair, 300 (four a thread) do not. */
    expect_rows_block(4096, 32768, RT_OP_PROD, RT_BF16, 128, 4, false);
    expect_rows_block(2000, 67108, RT_OP_SUM, RT_BF16, 128, 2, true);
    expect_rows_block(2400, 67108, RT_OP_SUM, RT_BF16, 128, 4, false);
    expect_rows_block(4096, 16384, RT_OP_SUM, RT_F64, 512, 4, false);
    expect_rows_block(4096, 16384, RT_OP_VAR, RT_F64, 512, 4, false);
    /* 1000 floats: 250 vectors, 128 threads at the least, two each (a
       partial batch), two rows a block; 3072: 768 vectors, the most two
       rows take; 1024 and 2048: whole batches of 128 threads, a row a
       block. States over 16 bytes (f64 var) keep a row a block. */
    expect_rows_block(1000, 67108, RT_OP_SUM, RT_F32, 128, 2, true);
    expect_rows_block(1000, 67109, RT_OP_ARGMAX, RT_F32, 128, 2, true);
    expect_rows_block(1000, 67108, RT_OP_VAR, RT_F32, 128, 2, true);
    expect_rows_block(1000, 33554, RT_OP_VAR, RT_F64, 128, 4, false);
    expect_rows_block(3072, 22369, RT_OP_SUM, RT_F32, 256, 4, true);
    expect_rows_block(3076, 22369, RT_OP_SUM, RT_F32, 256, 4, false);
    expect_rows_block(1024, 67108, RT_OP_SUM, RT_F32, 128, 2, false);
    expect_rows_block(2048, 32768, RT_OP_PROD, RT_F32, 128, 4, false);
    /* Not whole vectors (1001 floats): a row a block, scalar tails. */
    expect_rows_block(1001, 67108, RT_OP_SUM, RT_F32, 128, 2, false);
    /* 8192 bools: 512 vectors of 16, four each on 128 threads; 1-byte
       rows pair at two vectors a thread at most (traits row_pair_loads). */
    expect_rows_block(8192, 32768, RT_OP_ANY, RT_BOOL, 128, 4, false);
    expect_rows_block(4000, 67108, RT_OP_ANY, RT_BOOL, 128, 2, true);
    /* The longest row one batch covers: 2048 vectors (32 KiB). */
    expect_rows_block(8192, 4096, RT_OP_SUM, RT_F32, 512, 4, false);
    /* 5000 floats (1250 vectors) and f64 rows of 4000 (2000): 512 x 4
       slots, no whole batch for any thread of the first, some of the
       second; the kernel loads each partial batch at once (guarded). */
    expect_rows_block(5000, 16384, RT_OP_SUM, RT_F32, 512, 4, false);
    expect_rows_block(5000, 16384, RT_OP_VAR, RT_F32, 512, 4, false);
    expect_rows_block(4000, 16384, RT_OP_SUM, RT_F64, 512, 4, false);
    /* Misaligned rows (base 4 bytes past a vector) keep a row a block. */
    {
        int64_t shape[] = {1000, 67108}, strides[] = {1, 1000};
        rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 4);
        const rt__launch_config c = rt_test_config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
        assert_true(c.rows_block);
        assert_int_equal(c.rows_per_block, 1);
        assert_int_equal(c.grid[0], 67108);
    }
    assert_int_equal(rt__op_traits_for(RT_OP_SUM, RT_U8, RT_I64, false, 2.0).row_pair_loads, 2);
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_BF16, RT_BF16, false, 2.0).row_pair_loads, 2);
    assert_int_equal(rt__op_traits_for(RT_OP_SUM, RT_F32, RT_F32, false, 2.0).row_pair_loads, 4);
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 3.0).row_pair_loads, 2);
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_BF16, RT_BF16, true, 2.0).row_pair_loads, 0);
    assert_int_equal(rt__op_traits_for(RT_OP_VAR, RT_F64, RT_F64, false, 2.0).row_pair_loads, 0);
    assert_int_equal(rt__op_traits_for(RT_OP_VAR, RT_F32, RT_F32, false, 2.0).row_pair_loads, 4);

    /* Under 4 waves: the general kernel. */
    assert_int_equal(rows_config_for(4096, 4223, RT_OP_PROD, RT_F32).kernel, RT__KERNEL_GENERAL);
    /* (Rows of 1000 floats under 4 waves of 128 threads fill 16 warps per
       SM in the direct kernel: a warp a row, 4 rows in flight.) */
    const rt__launch_config direct = rows_config_for(1000, 8447, RT_OP_SUM, RT_F32);
    assert_int_equal(direct.kernel, RT__KERNEL_ROWS);
    assert_false(direct.rows_block || direct.rows_tile || direct.rows_short);
    assert_int_equal(direct.rows_group, 32);
    /* Rows over 32 KiB: the general kernel. */
    assert_int_equal(rows_config_for(8196, 32768, RT_OP_SUM, RT_F32).kernel, RT__KERNEL_GENERAL);
    /* 2 KiB rows are the tile's. */
    const rt__launch_config tile = rows_config_for(512, 65536, RT_OP_SUM, RT_F32);
    assert_int_equal(tile.kernel, RT__KERNEL_ROWS);
    assert_true(tile.rows_tile);
    assert_false(tile.rows_block);
    /* The traits' cap (traits.c row_block_loads): 16-bit (value, index)
       states spilled with two or four vectors a thread, and keep the
       general kernel; the p = 2 and infinite norms take four. */
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 3.0).row_block_loads, 2);
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 2.0).row_block_loads, 4);
    assert_int_equal(rt__op_traits_for(RT_OP_NORM, RT_F16, RT_F16, false, INFINITY).row_block_loads,
                     4);
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_BF16, RT_BF16, true, 2.0).row_block_loads, 0);
    assert_int_equal(rt__op_traits_for(RT_OP_MAX, RT_BF16, RT_BF16, false, 2.0).row_block_loads, 4);
    assert_int_equal(rt__op_traits_for(RT_OP_ARGMIN, RT_F32, RT_I64, false, 2.0).row_block_loads, 4);
    assert_int_equal(rows_config_for(4096, 32768, RT_OP_ARGMAX, RT_BF16).kernel,
                     RT__KERNEL_GENERAL);
    assert_int_equal(rows_config_for(4096, 32768, RT_OP_ARGMIN, RT_F16).kernel,
                     RT__KERNEL_GENERAL);
    /* COMPAT never takes a ROWS kernel. */
    int64_t shape[] = {4096, 32768}, strides[] = {1, 4096};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    assert_int_equal(rt_test_config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT).kernel,
                     RT__KERNEL_GENERAL);
}

/* Sums, means, var and std of aligned rows that one batch of 4 vectors a
   thread covers exactly take twice the threads at 2 vectors (tuned_rows.c
   row_block_wide), up to 512, on H100-class GPUs (the model H100), var and
   std in two passes; other ops, misaligned rows, partial batches, rows
   already on 512 threads, the
   model H200 (4915 GB/s) and unknown bandwidth keep the base rule; so does
   the rule's off switch. The 4-wave floor counts the wide blocks: 4 of 512
   a SM, 2112 rows. */
static void test_tuned_row_block_wide(void **state) {
    (void)state;
    const rt__device_props h100 = rt_test_props_h100();
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_SUM, RT_F32, 512, 2, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_MEAN, RT_F32, 512, 2, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_SUM, RT_I32, 512, 2, false);
    expect_rows_block_on(&h100, 2048, 32768, RT_OP_SUM, RT_F32, 256, 2, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_SUM, RT_BF16, 256, 2, false);
    expect_rows_block_on(&h100, 4096, 2112, RT_OP_SUM, RT_F32, 512, 2, false);
    assert_int_equal(rows_config_on(&h100, 4096, 4096, 2111, RT_OP_SUM, RT_F32, 0).kernel,
                     RT__KERNEL_GENERAL);
    /* var and std in two passes over the wide blocks, 16-bit rows too. */
    const struct {
        int64_t len;
        rt_op op;
        rt_dtype dt;
        int threads;
    } two_pass[] = {{4096, RT_OP_VAR, RT_F32, 512}, {4096, RT_OP_STD, RT_F32, 512},
                    {2048, RT_OP_VAR, RT_F32, 256}, {4096, RT_OP_VAR, RT_BF16, 256},
                    {4096, RT_OP_STD, RT_F16, 256}};
    for (size_t i = 0; i < sizeof two_pass / sizeof two_pass[0]; i++) {
        expect_rows_block_on(&h100, two_pass[i].len, 32768, two_pass[i].op, two_pass[i].dt,
                             two_pass[i].threads, 2, false);
        assert_true(rows_config_on(&h100, two_pass[i].len, two_pass[i].len, 32768, two_pass[i].op,
                                   two_pass[i].dt, 0)
                        .rows_two_pass);
    }
    /* Turned off, 16-bit var takes two passes on 128 x 4. */
    rt__launch_config w = rows_config_on(&h100, 4096, 4096, 32768, RT_OP_VAR, RT_BF16,
                                         RT__RULE_OFF_ROW_BLOCK_WIDE);
    assert_int_equal(w.block[0], 128);
    assert_int_equal(w.rows_in_flight, 4);
    assert_true(w.rows_two_pass);
    /* Already 512 threads (f64 rows of 4096: 2048 vectors), other ops. */
    expect_rows_block_on(&h100, 4096, 16384, RT_OP_SUM, RT_F64, 512, 4, false);
    expect_rows_block_on(&h100, 4096, 16384, RT_OP_VAR, RT_F64, 512, 4, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_MAX, RT_F32, 256, 4, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_PROD, RT_F32, 256, 4, false);
    expect_rows_block_on(&h100, 4096, 32768, RT_OP_ARGMAX, RT_F32, 256, 4, false);
    /* A partial batch (3000 floats: 750 vectors on 256 threads) pairs rows
       as before. */
    expect_rows_block_on(&h100, 3072, 22369, RT_OP_SUM, RT_F32, 256, 4, true);
    /* The model H200 and unknown bandwidth: 256 x 4. */
    expect_rows_block(4096, 32768, RT_OP_SUM, RT_F32, 256, 4, false);
    expect_rows_block(4096, 32768, RT_OP_SUM, RT_I32, 256, 4, false);
    rt__device_props unknown = h100;
    unknown.mem_gbps = 0;
    expect_rows_block_on(&unknown, 4096, 32768, RT_OP_MEAN, RT_F32, 256, 4, false);
    /* Slices: 4096 of 8192 (aligned) wide; 4096 of 4097 (rows 4 bytes
       apart) not. */
    int64_t shape[] = {4096, 16384}, aligned[] = {1, 8192}, misaligned[] = {1, 4097};
    rt__iter a = rt_test_make_iter(2, 1, shape, aligned, 4, 0);
    rt__launch_config c = rt_test_config_on(&h100, &a, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], 512);
    assert_int_equal(c.rows_in_flight, 2);
    rt__iter m = rt_test_make_iter(2, 1, shape, misaligned, 4, 0);
    c = rt_test_config_on(&h100, &m, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], 256);
    assert_int_equal(c.rows_in_flight, 4);
    /* Turned off: 256 x 4. */
    c = rt_test_config_on(&h100, &a, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                          RT__RULE_OFF_ROW_BLOCK_WIDE);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], 256);
    assert_int_equal(c.rows_in_flight, 4);
    assert_int_equal(c.shared_memory_bytes, 256 / 32 * 4);
}

/* Exact rows (tuned_rows.c rows_exact): a row a block of exactly
   rows_in_flight x block[0] aligned vectors and one kept dim, in two
   passes too but not at 3 vectors a thread, whatever the GPU; its off
   switch turns it off alone. */
static void test_tuned_rows_exact(void **state) {
    (void)state;
    const rt__device_props h100 = rt_test_props_h100();
    const rt__device_props h200 = rt__device_props_h200();
    const struct {
        const rt__device_props *dev;
        int64_t len, pitch, rows;
        rt_op op;
        rt_dtype dt;
        bool exact;
    } cases[] = {
        {&h100, 4096, 4096, 32768, RT_OP_SUM, RT_F32, true},    /* 512 x 2 */
        {&h100, 4096, 4096, 32768, RT_OP_MEAN, RT_F32, true},
        {&h100, 4096, 4096, 16384, RT_OP_SUM, RT_F64, true},    /* 512 x 4 */
        {&h100, 4096, 4096, 32768, RT_OP_MAX, RT_F32, true},    /* 256 x 4 */
        {&h100, 4096, 4096, 32768, RT_OP_ARGMAX, RT_F32, true}, /* indices too */
        {&h100, 4096, 4096, 32768, RT_OP_SUM, RT_BF16, true},
        {&h100, 4096, 8192, 16384, RT_OP_SUM, RT_F32, true},    /* an aligned slice */
        {&h200, 4096, 4096, 32768, RT_OP_SUM, RT_F32, true},    /* 256 x 4 */
        {&h100, 4096, 4097, 16384, RT_OP_SUM, RT_F32, false},   /* rows 4 bytes apart */
        {&h100, 5000, 5000, 32768, RT_OP_SUM, RT_F32, false},   /* a partial batch */
        {&h100, 3072, 3072, 22369, RT_OP_SUM, RT_F32, false},   /* two rows a block */
        {&h100, 4096, 4096, 32768, RT_OP_VAR, RT_F32, true},    /* two passes, 512 x 2 */
        {&h100, 4096, 4096, 16384, RT_OP_STD, RT_F64, true},    /* two passes, 512 x 4 */
        {&h100, 4096, 4096, 32768, RT_OP_VAR, RT_BF16, true},   /* two passes, 256 x 2 */
        {&h100, 5000, 5000, 32768, RT_OP_VAR, RT_F32, false},   /* two passes, partial */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rt__launch_config c = rows_config_on(cases[i].dev, cases[i].len, cases[i].pitch,
                                                   cases[i].rows, cases[i].op, cases[i].dt, 0);
        assert_int_equal(c.kernel, RT__KERNEL_ROWS);
        assert_true(c.rows_block);
        assert_int_equal(c.rows_exact, cases[i].exact);
        const rt__launch_config off =
            rows_config_on(cases[i].dev, cases[i].len, cases[i].pitch, cases[i].rows, cases[i].op,
                           cases[i].dt, RT__RULE_OFF_ROW_EXACT);
        assert_false(off.rows_exact);
        assert_dims3(off.block, c.block[0], 1, 1);
        assert_int_equal(off.rows_in_flight, c.rows_in_flight);
    }
    /* 16-bit values in two passes at 3 vectors a thread (128 x 3 for
       rows of 3072 bf16): an exact batch, but the kernel's exact two-pass
       path has no C = 3. */
    const rt__launch_config three =
        rows_config_on(&h100, 3072, 3072, 43690, RT_OP_VAR, RT_BF16, 0);
    assert_true(three.rows_block && three.rows_two_pass);
    assert_int_equal(three.rows_in_flight, 3);
    assert_int_equal(three.block[0] * three.rows_in_flight * three.rows_vec, 3072);
    assert_false(three.rows_exact);
    /* Two kept dims that do not coalesce: the general row start. */
    const int64_t shape[] = {4096, 64, 512}, strides[] = {1, 4096, 4096 * 65};
    const rt__iter kept2 = rt_test_make_iter(3, 1, shape, strides, 4, 0);
    const rt__launch_config c = rt_test_config_on(&h100, &kept2, RT_OP_SUM, RT_F32,
                                                  RT_POLICY_TUNED, 0);
    assert_true(c.rows_block);
    assert_false(c.rows_exact);
}

/* Exact rows in the direct, short and warp kernels (tuned_rows.c
   rows_flat): any rows with one kept dim, packed or sliced, of any op;
   not the tile kernel, not two kept dims, not with the switch off. */
static void test_tuned_rows_exact_flat(void **state) {
    (void)state;
    const rt__device_props h100 = rt_test_props_h100();
    enum { SHORT, WARP, DIRECT, TILE };
    const struct {
        int64_t len, pitch, rows;
        rt_op op;
        rt_dtype dt;
        int kernel;
    } cases[] = {
        {100, 100, 671088, RT_OP_SUM, RT_F32, WARP},        /* a vector a lane */
        {129, 129, 520222, RT_OP_SUM, RT_F32, WARP},        /* scalars */
        {100, 104, 600000, RT_OP_MAX, RT_F32, WARP},        /* a slice */
        {4, 4, 33554432, RT_OP_SUM, RT_F32, SHORT},         /* one vector */
        {3, 3, 22369621, RT_OP_SUM, RT_F32, SHORT},
        {7, 7, 9586980, RT_OP_ARGMAX, RT_F32, SHORT},       /* indices */
        {7, 7, 9586980, RT_OP_VAR, RT_F32, SHORT},          /* a projection */
        {33, 40, 2033601, RT_OP_SUM, RT_F32, DIRECT},       /* sliced rows */
        {256, 264, 500000, RT_OP_SUM, RT_F16, DIRECT},
        {32, 32, 4194304, RT_OP_SUM, RT_F32, TILE},
        {64, 64, 1048576, RT_OP_SUM, RT_F32, TILE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rt__launch_config c = rows_config_on(&h100, cases[i].len, cases[i].pitch,
                                                   cases[i].rows, cases[i].op, cases[i].dt, 0);
        assert_int_equal(c.kernel, RT__KERNEL_ROWS);
        const bool kinds[] = {c.rows_short, c.rows_warp,
                              !(c.rows_short || c.rows_warp || c.rows_tile || c.rows_block ||
                                c.rows_cols),
                              c.rows_tile};
        if (!kinds[cases[i].kernel])
            fail_msg("rows of %lld (pitch %lld): kernel %d not planned", (long long)cases[i].len,
                     (long long)cases[i].pitch, cases[i].kernel);
        assert_int_equal(c.rows_exact, cases[i].kernel != TILE);
        const rt__launch_config off =
            rows_config_on(&h100, cases[i].len, cases[i].pitch, cases[i].rows, cases[i].op,
                           cases[i].dt, RT__RULE_OFF_ROW_EXACT);
        assert_false(off.rows_exact);
        assert_dims3(off.grid, c.grid[0], 1, 1);
        assert_int_equal(off.rows_in_flight, c.rows_in_flight);
        assert_int_equal(off.rows_vec, c.rows_vec);
    }
    /* Two kept dims that do not coalesce: the general row start. */
    const int64_t shapes[][3] = {{100, 64, 10000}, {4, 64, 500000}, {129, 64, 8000}};
    for (size_t i = 0; i < 3; i++) {
        const int64_t strides[] = {1, shapes[i][0], shapes[i][0] * 65};
        const rt__iter kept2 = rt_test_make_iter(3, 1, shapes[i], strides, 4, 0);
        const rt__launch_config c =
            rt_test_config_on(&h100, &kept2, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
        assert_int_equal(c.kernel, RT__KERNEL_ROWS);
        assert_true(c.rows_short || c.rows_warp);
        assert_false(c.rows_exact);
    }
}

/* The same on the model H100 (rt_test_props_h100). */
static rt__launch_config h100_rows_config(int64_t len, int64_t pitch, int64_t rows, rt_op op,
                                          rt_dtype dt, unsigned kinds_off) {
    const rt__device_props h100 = rt_test_props_h100();
    return rows_config_on(&h100, len, pitch, rows, op, dt, kinds_off);
}

/* The short kernel (tuned_rows.c): a thread per row of up to 8 elements
   or of one aligned 16-byte vector, 256 threads of R rows each (256 x R
   rows a block); R = 4 for scalar rows of states up to 8 bytes, 2 for
   wider states and for every row of one vector (bench/NOTES.md v1.28). */
static void test_tuned_rows_short(void **state) {
    (void)state;
    static const struct {
        int64_t len;
        rt_op op;
        rt_dtype dt;
        int vec, rows;
    } k[] = {
        {4, RT_OP_SUM, RT_F32, 4, 2},   /* one vector: [2^25,4]'s rows */
        {8, RT_OP_SUM, RT_BF16, 8, 2},  /* one vector of 16-bit values */
        {2, RT_OP_SUM, RT_F64, 2, 2},   /* one vector of doubles */
        {16, RT_OP_ANY, RT_U8, 16, 2},  /* one vector of bytes */
        {3, RT_OP_SUM, RT_F32, 1, 4},   /* scalars */
        {7, RT_OP_SUM, RT_F32, 1, 4},   /* scalars */
        {7, RT_OP_VAR, RT_F32, 1, 2},   /* a Welford state: over 8 bytes */
        {4, RT_OP_VAR, RT_F32, 4, 2},   /* a vector and a wide state */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const rt__launch_config c =
            h100_rows_config(k[i].len, k[i].len, 1 << 20, k[i].op, k[i].dt, 0);
        assert_int_equal(c.kernel, RT__KERNEL_ROWS);
        assert_true(c.rows_short);
        assert_false(c.rows_tile || c.rows_block || c.rows_warp);
        assert_int_equal(c.block[0], 256);
        assert_int_equal(c.rows_vec, k[i].vec);
        assert_int_equal(c.rows_in_flight, k[i].rows);
        assert_int_equal(c.rows_per_block, 256 * k[i].rows);
        assert_int_equal(c.grid[0], ((1 << 20) + 256 * k[i].rows - 1) / (256 * k[i].rows));
    }
}

/* The ROWS column kernel (tuned_rows.c rows_cols): var/std of f32 over one
   strided dim whose outputs are contiguous columns, on H100-class GPUs,
   at least 3 blocks of 64 columns a SM and 1024 rows a column: 64 x 4
   threads, 12 loads a lane, (4 - 1) x 64 states of shared memory. The
   rest keep the general kernel: sums, f16 and f64, the model H200, too
   few columns or rows, columns that are not contiguous, the rule turned
   off. */
static rt__launch_config cols_config_on(const rt__device_props *dev, int64_t rows, int64_t cols,
                                        int64_t col_stride, rt_op op, rt_dtype dt,
                                        unsigned kinds_off) {
    int64_t shape[] = {rows, cols}, strides[] = {cols * col_stride, col_stride};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, (int)rt_dtype_size(dt), 0);
    return rt_test_config_on(dev, &it, op, dt, RT_POLICY_TUNED, kinds_off);
}

static void test_tuned_rows_cols(void **state) {
    (void)state;
    const rt__device_props h100 = rt_test_props_h100(), h200 = rt__device_props_h200();
    rt__launch_config c = cols_config_on(&h100, 4096, 32768, 1, RT_OP_VAR, RT_F32, 0);
    assert_int_equal(c.kernel, RT__KERNEL_ROWS);
    assert_true(c.rows_cols);
    assert_false(c.rows_tile || c.rows_short || c.rows_block || c.rows_warp || c.rows_two_pass);
    assert_int_equal(c.block[0], 256);
    assert_int_equal(c.block[1], 1);
    assert_int_equal(c.grid[0], 512);
    assert_int_equal(c.rows_per_block, 64);
    assert_int_equal(c.rows_in_flight, 12);
    assert_int_equal(c.rows_vec, 1);
    assert_int_equal(c.shared_memory_bytes, 3 * 64 * 16);
    /* std; the floor: 396 blocks (25344 columns) on 132 SMs, 1024 rows. */
    c = cols_config_on(&h100, 1024, 25344, 1, RT_OP_STD, RT_F32, 0);
    assert_true(c.kernel == RT__KERNEL_ROWS && c.rows_cols);
    assert_int_equal(c.grid[0], 396);
    c = cols_config_on(&h100, 1024, 25280, 1, RT_OP_VAR, RT_F32, 0);
    assert_false(c.kernel == RT__KERNEL_ROWS && c.rows_cols);
    c = cols_config_on(&h100, 1023, 32768, 1, RT_OP_VAR, RT_F32, 0);
    assert_false(c.kernel == RT__KERNEL_ROWS && c.rows_cols);
    /* A partial last block. */
    c = cols_config_on(&h100, 2000, 30001, 1, RT_OP_VAR, RT_F32, 0);
    assert_true(c.rows_cols);
    assert_int_equal(c.grid[0], 469);
    /* Not these. */
    static const struct {
        rt_op op;
        rt_dtype dt;
    } other[] = {{RT_OP_SUM, RT_F32}, {RT_OP_MEAN, RT_F32}, {RT_OP_VAR, RT_F16},
                 {RT_OP_VAR, RT_BF16}, {RT_OP_STD, RT_F64}, {RT_OP_ARGMAX, RT_F32}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        c = cols_config_on(&h100, 4096, 32768, 1, other[i].op, other[i].dt, 0);
        assert_false(c.rows_cols);
    }
    c = cols_config_on(&h200, 4096, 32768, 1, RT_OP_VAR, RT_F32, 0);
    assert_false(c.rows_cols);
    c = cols_config_on(&h100, 4096, 32768, 2, RT_OP_VAR, RT_F32, 0); /* every other column */
    assert_false(c.rows_cols);
    c = cols_config_on(&h100, 4096, 32768, 1, RT_OP_VAR, RT_F32, RT__RULE_OFF_ROWS_COLS);
    assert_int_equal(c.kernel, RT__KERNEL_GENERAL);
    assert_false(c.rows_cols);
}

/* The ROWS warp kernel (tuned_rows.c rows_warp): rows of 97-160 4-byte
   elements (16-byte vectors where they are whole aligned ones, up to 128)
   for one-number states, at least 16 warps of 4 rows a SM (132
   SMs: 8445 rows), packed or not, on a GPU of known DRAM bandwidth; a
   warp on 4 rows, in blocks of one warp, or of two where one-warp blocks
   would ask the SMs for more than 13.5 block starts a us: rows of 97-117
   on the model H100 (3352 GB/s), every length on the model H200 (4915
   GB/s). Else the tile (packed) as before: 8-byte elements, var, argmax,
   rows of 96 or 161, too few rows, an unknown bandwidth, or the variant
   turned off. */
static void test_tuned_rows_warp(void **state) {
    (void)state;
    const rt__launch_config w = h100_rows_config(129, 129, 520222, RT_OP_SUM, RT_F32, 0);
    assert_int_equal(w.kernel, RT__KERNEL_ROWS);
    assert_true(w.rows_warp);
    assert_false(w.rows_tile || w.rows_short || w.rows_block);
    assert_int_equal(w.block[0], 32);
    assert_int_equal(w.num_threads, 32);
    assert_int_equal(w.rows_group, 32);
    assert_int_equal(w.rows_vec, 1);
    assert_int_equal(w.rows_in_flight, RT__ROWS_WARP_ROWS);
    assert_int_equal(w.rows_per_block, RT__ROWS_WARP_ROWS);
    assert_int_equal(w.grid[0], (520222 + 3) / 4);
    assert_int_equal(w.shared_memory_bytes, 0);
    /* Two warps a block below 118 elements: 25393 bytes a SM a us over
       16 L bytes a warp's rows is 13.56 block starts a us at L = 117 and
       13.45 at 118. */
    static const struct {
        int64_t len, pitch;
        rt_op op;
        rt_dtype dt;
        int warps;
    } widths[] = {
        {97, 97, RT_OP_MEAN, RT_F32, 2},   {100, 100, RT_OP_SUM, RT_F32, 2},
        {117, 117, RT_OP_SUM, RT_F32, 2},  {117, 130, RT_OP_MAX, RT_I32, 2},
        {118, 118, RT_OP_SUM, RT_F32, 1},  {127, 127, RT_OP_SUM, RT_I32, 1},
        {160, 160, RT_OP_SUM, RT_F32, 1},
    };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        const rt__launch_config c = h100_rows_config(widths[i].len, widths[i].pitch, 100000,
                                                     widths[i].op, widths[i].dt, 0);
        assert_true(c.rows_warp);
        assert_int_equal(c.block[0], 32 * widths[i].warps);
        assert_int_equal(c.num_threads, 32 * widths[i].warps);
        assert_int_equal(c.rows_per_block, RT__ROWS_WARP_ROWS * widths[i].warps);
        assert_int_equal(c.grid[0], (100000 + c.rows_per_block - 1) / c.rows_per_block);
        assert_int_equal(c.rows_group, 32);
    }
    /* A 16-byte vector a lane where every row is whole aligned vectors,
       at most 32 of them; scalars else (129-160, a pitch that is not whole
       vectors, rows not a whole number of vectors, a misaligned start). */
    static const struct {
        int64_t len, pitch;
        rt_dtype dt;
        size_t base;
        int vec;
    } vecs[] = {
        {100, 100, RT_F32, 0, 4}, {128, 128, RT_F32, 0, 4}, {116, 120, RT_I32, 0, 4},
        {100, 104, RT_F32, 0, 4}, {100, 102, RT_F32, 0, 1}, {132, 132, RT_F32, 0, 1},
        {127, 127, RT_F32, 0, 1}, {100, 100, RT_F32, 4, 1}, {100, 100, RT_F32, 16, 4},
    };
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
        int64_t vshape[] = {vecs[i].len, 100000}, vstrides[] = {1, vecs[i].pitch};
        rt__iter vit = rt_test_make_iter(2, 1, vshape, vstrides, 4, vecs[i].base);
        const rt__device_props h100 = rt_test_props_h100();
        const rt__launch_config c =
            rt_test_config_on(&h100, &vit, RT_OP_SUM, vecs[i].dt, RT_POLICY_TUNED, 0);
        assert_true(c.rows_warp);
        if (c.rows_vec != vecs[i].vec)
            fail_msg("warp rows of %lld (pitch %lld, base +%zu): rows_vec %d, want %d",
                     (long long)vecs[i].len, (long long)vecs[i].pitch, vecs[i].base, c.rows_vec,
                     vecs[i].vec);
    }
    assert_true(h100_rows_config(97, 97, 8448, RT_OP_MEAN, RT_F32, 0).rows_warp);
    assert_true(h100_rows_config(160, 160, 8448, RT_OP_SUM, RT_I32, 0).rows_warp);
    assert_true(h100_rows_config(127, 127, 10000, RT_OP_MAX, RT_F32, 0).rows_warp);
    /* Sliced rows (129 of 140) too: scalar loads. */
    assert_true(h100_rows_config(129, 140, 20000, RT_OP_SUM, RT_F32, 0).rows_warp);
    {
        /* The p = 2 norm (the helpers plan norms of p = 3: not one number,
           below). */
        int64_t nshape[] = {150, 10000}, nstrides[] = {1, 150};
        rt__iter nit = rt_test_make_iter(2, 1, nshape, nstrides, 4, 0);
        const rt__op_traits t2 = rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 2.0);
        const rt__device_props h100 = rt_test_props_h100();
        rt__launch_config n2;
        assert_int_equal(rt__config_compute(&nit, &t2, &h100, RT_POLICY_TUNED, &n2), RT_OK);
        assert_true(n2.rows_warp);
    }

    static const struct {
        int64_t len, rows;
        rt_op op;
        rt_dtype dt;
    } not_warp[] = {
        {129, 520222, RT_OP_SUM, RT_F64}, {129, 520222, RT_OP_VAR, RT_F32},
        {129, 520222, RT_OP_ARGMAX, RT_F32}, {129, 520222, RT_OP_SUM, RT_BF16},
        {96, 520222, RT_OP_SUM, RT_F32},  {161, 520222, RT_OP_SUM, RT_F32},
        {129, 8444, RT_OP_SUM, RT_F32},   {150, 10000, RT_OP_NORM, RT_F32},
    };
    for (size_t i = 0; i < sizeof not_warp / sizeof not_warp[0]; i++) {
        const rt__launch_config c = h100_rows_config(not_warp[i].len, not_warp[i].len,
                                                     not_warp[i].rows, not_warp[i].op,
                                                     not_warp[i].dt, 0);
        assert_false(c.rows_warp);
    }
    /* Turned off: the tile, as before the variant. */
    const rt__launch_config off =
        h100_rows_config(129, 129, 520222, RT_OP_SUM, RT_F32, RT__RULE_OFF_ROWS_WARP);
    assert_int_equal(off.kernel, RT__KERNEL_ROWS);
    assert_false(off.rows_warp);
    assert_true(off.rows_tile);
    /* The H200's bandwidth (4915 GB/s): two warps a block at every
       length (37234 bytes a SM a us over 16 L bytes is 18.0 block starts
       a us at L = 129, 24.0 at 97, 14.5 at 160); 4001 GB/s: two at 129
       (14.7); an unknown bandwidth: the tile. */
    static const int64_t h200_lens[] = {97, 129, 160};
    for (size_t i = 0; i < sizeof h200_lens / sizeof h200_lens[0]; i++) {
        const rt__launch_config h200 =
            rows_config_for(h200_lens[i], 520222, RT_OP_SUM, RT_F32);
        assert_true(h200.rows_warp);
        assert_false(h200.rows_tile);
        assert_int_equal(h200.block[0], 64);
        assert_int_equal(h200.rows_per_block, 2 * RT__ROWS_WARP_ROWS);
    }
    int64_t shape[] = {129, 520222}, strides[] = {1, 129};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt__device_props dev = rt_test_props_h100();
    dev.mem_gbps = 4001;
    const rt__launch_config fast = rt_test_config_on(&dev, &it, RT_OP_SUM, RT_F32,
                                                     RT_POLICY_TUNED, 0);
    assert_true(fast.rows_warp);
    assert_int_equal(fast.block[0], 64);
    dev.mem_gbps = 0;
    assert_false(rt_test_config_on(&dev, &it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0).rows_warp);
}

/* TUNED rule 2: a reduced index split over blocks leaves each thread >= 4
   vectors; COMPAT keeps mid-size full sums on one block. */
static void test_tuned_global_split(void **state) {
    (void)state;
    /* 256 KB of f32: 16384 vectors over 512 lanes, 32 per thread; COMPAT
       counts 128 values, under its 256, and keeps one block. */
    int64_t shape[] = {65536}, strides[] = {1};
    rt__iter it = rt_test_make_iter(1, 1, shape, strides, 4, 0);
    rt__launch_config c = config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    rt__launch_config t = config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_false(rt__config_global_reduce(&c));
    assert_true(rt__config_global_reduce(&t));
    assert_int_equal(t.ctas_per_output, 8);
    assert_dims3(t.grid, 1, 8, 1);
    assert_int_equal(t.input_mult[2], 512);
    assert_int_equal(t.step_input, 512 * 8);
    assert_int_equal(t.semaphore_count, 1);
    assert_int_equal(t.staging_bytes, 8 * 4);
    /* 1 MB: both split in 32 blocks of 4 vectors per thread. */
    int64_t mb[] = {262144};
    rt__iter m = rt_test_make_iter(1, 1, mb, strides, 4, 0);
    c = config_for(&m, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    t = config_for(&m, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(c.ctas_per_output, 32);
    assert_int_equal(t.ctas_per_output, 32);
    /* 2^27 f32: COMPAT's 256-value cap makes 1024 blocks, 1.94 waves of
       132 SMs x 4 blocks of 512; TUNED counts vectors and fills one wave
       for an op whose sum-like split is not chunked (rule 7: argmax). */
    int64_t big[] = {(int64_t)1 << 27};
    rt__iter b = rt_test_make_iter(1, 1, big, strides, 4, 0);
    c = config_for(&b, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    t = config_for(&b, RT_OP_ARGMAX, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(c.ctas_per_output, 1024);
    assert_false(c.input_chunked);
    assert_int_equal(t.ctas_per_output, 528);
    assert_false(t.input_chunked);
    /* 32 KB: one block row of 512 lanes, as COMPAT, whose one-row block
       still "splits" its warp rows; TUNED rule 3 drops that y split.
       (Runs of up to 16 KiB take the TINY kernel: test_tuned_tiny.) Too
       little work to split the block: 4 vectors a thread. */
    int64_t k32[] = {8192};
    rt__iter w = rt_test_make_iter(1, 1, k32, strides, 4, 0);
    c = config_for(&w, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    t = config_for(&w, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_dims3(c.block, 512, 1, 1);
    assert_true(rt__config_block_y_reduce(&c));
    assert_dims3(t.block, 512, 1, 1);
    assert_dims3(t.grid, 1, 1, 1);
    assert_false(rt__config_block_y_reduce(&t));
    assert_int_equal(t.step_input, 512);
    assert_int_equal(t.shared_memory_bytes, 512 * 4);
    assert_false(rt__config_global_reduce(&t));
}

/* TUNED rule 4: a contiguous fastest reduced dim among several is read in
   vectors when its extent in bytes, the base and every other stride are
   multiples of RT__ND_VEC_BYTES; PyTorch (COMPAT) vectorizes one reduced
   dim alone. [32,32,16,32,128] summed over dims 0,2,4: reduced
   (128, 16, 32), kept (32, 32). */
static void test_tuned_vectorizes_nd_rows(void **state) {
    (void)state;
    int64_t shape[] = {128, 16, 32, 32, 32};
    int64_t strides[] = {1, 4096, 524288, 128, 65536};
    rt__iter it = rt_test_make_iter(5, 3, shape, strides, 4, 0);
    rt__launch_config c = config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT);
    rt__launch_config t = config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_false(c.vectorize_input);
    assert_true(t.vectorize_input);
    assert_int_equal(t.output_vec_size, 1);
    assert_true(rt__config_block_x_reduce(&t));
    assert_int_equal(t.input_mult[0], 1); /* lanes take adjacent vectors */
    /* 65536 / 4 vectors: a row of 32 lanes covers the 128-element dim. */
    assert_dims3(t.block, 32, 16, 1);
    /* Not when a vector could straddle a row or lose its alignment: an
       inner extent of 36 f32 (144 bytes), a base off by one element, a
       kept stride of 100 elements. */
    int64_t s36[] = {36, 16, 32, 32, 32};
    int64_t st36[] = {1, 36 * 32, 36 * 32 * 16, 36, 36 * 32 * 16 * 32};
    rt__iter odd = rt_test_make_iter(5, 3, s36, st36, 4, 0);
    assert_false(config_for(&odd, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).vectorize_input);
    rt__iter mis = rt_test_make_iter(5, 3, shape, strides, 4, 4);
    assert_false(config_for(&mis, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).vectorize_input);
    int64_t st_k[] = {1, 4096, 524288, 100, 65536};
    rt__iter kept = rt_test_make_iter(5, 3, shape, st_k, 4, 0);
    assert_false(config_for(&kept, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).vectorize_input);
    /* One reduced dim: the usual rule, head and tail allowed. */
    int64_t s1[] = {4100, 64}, st1[] = {1, 4100};
    rt__iter one = rt_test_make_iter(2, 1, s1, st1, 4, 4);
    assert_true(config_for(&one, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).vectorize_input);
}

/* TUNED rule 2, the tail: a split whose partials few threads fold (rows of
   a block whose lanes own outputs) is capped at MAX_TAIL_TRIPS (8) batches
   of RT__TAIL_LOADS partials per thread. Rule 8: where that cap holds a
   sum-like op's split under a wave, half the outputs a thread double the
   rows that fold. NHWC mean of [32,256,64,64] over (0,2,3), 256 channels,
   H200 (132 SMs): */
static void test_tuned_tail_cap(void **state) {
    (void)state;
    int64_t shape[] = {131072, 256}, strides[] = {256, 1};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    /* COMPAT (PyTorch): 2 tiles of 32 lanes x 4 outputs, 4 rows a block,
       one wave of 1056 blocks per tile. */
    rt__launch_config c = config_for(&it, RT_OP_MEAN, RT_F32, RT_POLICY_COMPAT);
    assert_int_equal(c.output_vec_size, 4);
    assert_int_equal(c.ctas_per_output, 1056);
    /* TUNED at 4 outputs a thread would be capped at 8 x 4 x 8 = 256 blocks
       a tile (512 of 128 threads: under a wave); rule 8 takes 2 outputs a
       thread, 8 rows a block (cap 8 x 8 x 8 = 512), and the split is the
       wave again: 8 blocks of 256 per SM, 1056 / 4 tiles = 264. */
    rt__launch_config t = config_for(&it, RT_OP_MEAN, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(t.output_vec_size, 2);
    assert_dims3(t.block, 32, 8, 1);
    assert_int_equal(t.ctas_per_output, 264);
    assert_dims3(t.grid, 4, 264, 1);
    /* var (a warp a row, 16-byte states: 1 partial a trip) is not under
       rule 8 and keeps the cap: 8 trips x 4 rows x 1 = 32 blocks a tile. */
    rt__launch_config v = config_for(&it, RT_OP_VAR, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(v.output_vec_size, 4);
    assert_dims3(v.block, 32, 4, 1);
    assert_int_equal(v.ctas_per_output, 32);
    /* argmax (1 output a lane, rule 5; its (value, index) state folds one
       partial a trip) keeps at most 8 trips x its block rows. */
    rt__launch_config a = config_for(&it, RT_OP_ARGMAX, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(a.output_vec_size, 1);
    assert_true(a.ctas_per_output <= 8 * a.block[1]);
    /* Lanes that split the reduced index fold together: all 512 threads
       of the block take a batch each (rule 7's chunks, below). */
}

/* TUNED rule 9: outer tiles of 16 lanes x 8 warp rows and half the split
   where rule 2 splits 32 x 4 blocks in 2 (the split goes) or, for states
   over 8 bytes (Welford), evenly; the same blocks and the same step
   through the reduced index. The model H200 (kernel registers unknown: 16
   blocks of 128 threads a SM, a wave of 2112): [4096,32768] over dim 0
   splits 8 ways on 256 tiles, [32,512,64,256] over (0, 2) 2 ways on 1024
   tiles. With no split, 16 x 8 and still none. Not for a sum split 8
   ways, 16-bit inputs (128-byte row segments), or with the rule turned
   off. */
static void expect_outer_tiles(const rt__iter *it, rt_op op, rt_dtype dt, int ctas_off) {
    const rt__launch_config off = rt_test_config_without(
        it, op, dt, RT_POLICY_TUNED, RT__KIND_BIT(RT__KERNEL_STREAM) | RT__RULE_OFF_OUTER_TILES);
    const rt__launch_config on = config_for(it, op, dt, RT_POLICY_TUNED);
    assert_dims3(off.block, 32, 4, 1);
    assert_int_equal(off.ctas_per_output, ctas_off);
    assert_dims3(on.block, 16, 8, 1);
    assert_int_equal(on.ctas_per_output, ctas_off / 2);
    assert_int_equal(on.grid[0], 2 * off.grid[0]);
    assert_int_equal(on.grid[1], ctas_off / 2);
    assert_int_equal(on.step_input, off.step_input);
    assert_int_equal(on.step_output, 16);
    assert_int_equal(on.input_mult[2], ctas_off / 2 > 1 ? 8 : 0);
    assert_int_equal(on.output_vec_size, 4);
    assert_int_equal(rt__config_global_reduce(&on), ctas_off / 2 > 1);
}

static void expect_no_outer_tiles(const rt__iter *it, rt_op op, rt_dtype dt, int ctas) {
    const rt__launch_config c = config_for(it, op, dt, RT_POLICY_TUNED);
    assert_dims3(c.block, 32, 4, 1);
    assert_int_equal(c.ctas_per_output, ctas);
}

static void test_tuned_outer_tiles(void **state) {
    (void)state;
    int64_t d0_shape[] = {4096, 32768}, d0_strides[] = {32768, 1};
    rt__iter d0 = rt_test_make_iter(2, 1, d0_shape, d0_strides, 4, 0);
    expect_outer_tiles(&d0, RT_OP_VAR, RT_F32, 8);
    expect_outer_tiles(&d0, RT_OP_STD, RT_F32, 8);
    int64_t d02_shape[] = {64, 32, 256, 512}, d02_strides[] = {256, 8388608, 1, 16384};
    rt__iter d02 = rt_test_make_iter(4, 2, d02_shape, d02_strides, 4, 0);
    expect_outer_tiles(&d02, RT_OP_SUM, RT_F32, 2);
    expect_outer_tiles(&d02, RT_OP_MAX, RT_F32, 2);
    rt__iter d02_f64 = rt_test_make_iter(4, 2, d02_shape, d02_strides, 8, 0);
    expect_outer_tiles(&d02_f64, RT_OP_SUM, RT_F64, 2);

    /* No split (PyTorch's 32 x 4 over dim 1 of [64,128,64,128]: 128 rows,
       4096 tiles): 16 x 8 with no split, twice the blocks, half the rows
       a thread; the rule off: 32 x 4. */
    int64_t d1_shape[] = {128, 8192, 64}, d1_strides[] = {8192, 1, 8192 * 128};
    rt__iter d1 = rt_test_make_iter(3, 1, d1_shape, d1_strides, 4, 0);
    const rt__launch_config d1_off = rt_test_config_without(
        &d1, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
        RT__KIND_BIT(RT__KERNEL_STREAM) | RT__RULE_OFF_OUTER_TILES);
    const rt__launch_config d1_on = config_for(&d1, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_dims3(d1_off.block, 32, 4, 1);
    assert_dims3(d1_off.grid, 4096, 1, 1);
    assert_int_equal(d1_off.ctas_per_output, 1);
    assert_int_equal(d1_off.step_input, 4);
    assert_dims3(d1_on.block, 16, 8, 1);
    assert_dims3(d1_on.grid, 8192, 1, 1);
    assert_int_equal(d1_on.ctas_per_output, 1);
    assert_int_equal(d1_on.step_input, 8);
    assert_int_equal(d1_on.step_output, 16);
    assert_int_equal(d1_on.input_mult[2], 0);
    assert_false(rt__config_global_reduce(&d1_on));

    /* A sum split 8 ways, 16-bit inputs, 16 rows (PyTorch's blocks do not
       split them over their warp rows). */
    expect_no_outer_tiles(&d0, RT_OP_SUM, RT_F32, 8);
    rt__iter d02_f16 = rt_test_make_iter(4, 2, d02_shape, d02_strides, 2, 0);
    expect_no_outer_tiles(&d02_f16, RT_OP_SUM, RT_F16, 2);
    int64_t short_shape[] = {16, 32768};
    rt__iter few = rt_test_make_iter(2, 1, short_shape, d0_strides, 4, 0);
    expect_no_outer_tiles(&few, RT_OP_SUM, RT_F32, 1);
}

/* TUNED rule 10: where the last block's fold caps the split of a
   sum-like op's outer reduction (rule 8's cases) and the kernel takes 512
   threads at 4 outputs a lane, blocks of 16 lanes x 32 warp rows in one
   wave. The model H200 with the f32 sum kernel's sm_90 registers (32, 46,
   56 at 1, 2, 4 outputs: 2 blocks of 512 a SM, a wave of 264) and launch
   bounds (512 threads at any output width); rule 8 where they are
   PyTorch's or unknown, the rule is off, or it does not apply. */
static rt__launch_config tall_config_for(const rt__iter *it, rt_op op, rt_dtype dt, int threads4,
                                         unsigned kinds_off) {
    rt_dtype out = dt;
    assert_int_equal(rt_reduce_default_dtype(op, dt, &out), RT_OK);
    rt__op_traits t = rt__op_traits_for(op, dt, out, false, 2.0);
    const int regs[3] = {32, 46, 56}, threads[3] = {512, 512, threads4};
    memcpy(t.kernel_regs, regs, sizeof regs);
    memcpy(t.kernel_threads, threads, sizeof threads);
    const rt__device_props dev = rt__device_props_h200();
    rt__launch_config c;
    assert_int_equal(rt__config_compute_without(it, &t, &dev, RT_POLICY_TUNED,
                                                RT__KIND_BIT(RT__KERNEL_STREAM) | kinds_off, &c),
                     RT_OK);
    assert_int_equal(c.kernel, RT__KERNEL_GENERAL);
    assert_true(c.num_threads <= (c.output_vec_size == 4 ? threads4 : 512));
    return c;
}

/* c is rule 10's tall blocks (16 lanes x 32 warp rows at 4 outputs a
   lane), tiles of them split ctas ways, interleaved. */
static void assert_tall_blocks(const rt__launch_config *c, int tiles, int ctas) {
    assert_int_equal(c->output_vec_size, 4);
    assert_dims3(c->block, 16, 32, 1);
    assert_int_equal(c->num_threads, 512);
    assert_int_equal(c->step_output, 16);
    assert_int_equal(c->output_mult[0], 1);
    assert_int_equal(c->input_mult[0], 0);
    assert_int_equal(c->input_mult[1], 1);
    assert_int_equal(c->input_mult[2], ctas > 1 ? 32 : 0); /* interleaved */
    assert_int_equal(c->step_input, 32 * ctas);
    assert_false(c->input_chunked);
    assert_dims3(c->grid, tiles, ctas, 1);
}

/* Rule 10's tall blocks for it, planned with the rules in `off` turned off
   as well (rule 14 takes packed rows of 17-31 thread columns from them). */
static void expect_tall_without(const rt__iter *it, rt_op op, rt_dtype dt, int tiles, int ctas,
                                unsigned off_rules) {
    const rt__launch_config c = tall_config_for(it, op, dt, 512, off_rules);
    assert_true(ctas > 1);
    assert_tall_blocks(&c, tiles, ctas);
    /* Off: rule 8's 2 outputs a lane. */
    const rt__launch_config off =
        tall_config_for(it, op, dt, 512, RT__RULE_OFF_OUTER_TALL | off_rules);
    assert_int_equal(off.output_vec_size, 2);
    assert_dims3(off.block, 32, 8, 1);
}

static void expect_tall(const rt__iter *it, rt_op op, rt_dtype dt, int tiles, int ctas) {
    expect_tall_without(it, op, dt, tiles, ctas, 0);
}

static void expect_not_tall(const rt__iter *it, rt_op op, rt_dtype dt, int threads4) {
    const rt__launch_config c = tall_config_for(it, op, dt, threads4, 0);
    assert_false(c.num_threads == 512 && c.block[1] == 32);
}

static void test_tuned_outer_tall(void **state) {
    (void)state;
    /* NHWC mean of [32,256,64,64] over (0,2,3): 64 thread columns, 4 tiles
       of 16, 66 blocks a tile (rule 8: 4 x 264 of 32 x 8 at 2 outputs). */
    int64_t nhwc[] = {131072, 256}, nhwc_st[] = {256, 1};
    rt__iter it = rt_test_make_iter(2, 1, nhwc, nhwc_st, 4, 0);
    expect_tall(&it, RT_OP_MEAN, RT_F32, 4, 66);
    expect_tall(&it, RT_OP_SUM, RT_F32, 4, 66);
    expect_tall(&it, RT_OP_MAX, RT_F32, 4, 66);
    /* [671088,100] over dim 0: 25 thread columns, 2 tiles, 132 a tile
       (with rule 14 off: test_tuned_whole_rows). */
    int64_t cols[] = {671088, 100}, cols_st[] = {100, 1};
    rt__iter c100 = rt_test_make_iter(2, 1, cols, cols_st, 4, 0);
    expect_tall_without(&c100, RT_OP_SUM, RT_F32, 2, 132, RT__RULE_OFF_WHOLE_ROWS);
    /* 20000 rows (the GPU test's): PyTorch's 16 x 8 blocks would split
       min(594, 20000 / 8 / 4) = 594 ways, over the cap of 8 x 8 x 8 = 512;
       tall blocks still fill the wave. 16000 rows: 500 ways, under the
       cap, so rule 10 (and 8) leave PyTorch's shape. */
    int64_t some[] = {20000, 100};
    rt__iter c20k = rt_test_make_iter(2, 1, some, cols_st, 4, 0);
    expect_tall_without(&c20k, RT_OP_SUM, RT_F32, 2, 132, RT__RULE_OFF_WHOLE_ROWS);
    int64_t fewer[] = {16000, 100};
    rt__iter c16k = rt_test_make_iter(2, 1, fewer, cols_st, 4, 0);
    const rt__launch_config f = tall_config_for(&c16k, RT_OP_SUM, RT_F32, 512, 0);
    assert_dims3(f.block, 16, 8, 1);
    assert_int_equal(f.output_vec_size, 4);
    assert_int_equal(f.ctas_per_output, 500);

    /* Not: a kernel of 128 threads at 4 outputs (f64's), unknown bounds
       (PyTorch's), Welford's and indexed states, 16-bit inputs (16 lanes
       of 8 bytes: 128-byte segments), under 16 thread columns. */
    expect_not_tall(&it, RT_OP_SUM, RT_F32, 128);
    rt__iter it64 = rt_test_make_iter(2, 1, nhwc, nhwc_st, 8, 0);
    expect_not_tall(&it64, RT_OP_SUM, RT_F64, 128);
    const rt__launch_config unknown = config_for(&it, RT_OP_MEAN, RT_F32, RT_POLICY_TUNED);
    assert_int_equal(unknown.output_vec_size, 2);
    expect_not_tall(&it, RT_OP_VAR, RT_F32, 512);
    expect_not_tall(&it, RT_OP_ARGMAX, RT_F32, 512);
    rt__iter it16 = rt_test_make_iter(2, 1, nhwc, nhwc_st, 2, 0);
    expect_not_tall(&it16, RT_OP_SUM, RT_F16, 512);
    int64_t narrow[] = {4000000, 32}, narrow_st[] = {32, 1};
    rt__iter c32 = rt_test_make_iter(2, 1, narrow, narrow_st, 4, 0);
    expect_not_tall(&c32, RT_OP_SUM, RT_F32, 512);
}

/* TUNED rule 14: rule 10's tall blocks over packed rows of C outputs whose
   C / 4 thread columns (17-31) leave its second 16-lane tile partly idle
   take one tile of exactly C / 4 lanes, 512 / (C / 4) warp rows, and a
   one-wave split of their own (model H200, f32 sum registers: 2 blocks of
   up to 512 a SM, a wave of 264). */
static void expect_whole(const rt__iter *it, rt_op op, int lanes, int ctas) {
    const rt__launch_config c = tall_config_for(it, op, RT_F32, 512, 0);
    const int rows = 512 / lanes;
    assert_int_equal(c.output_vec_size, 4);
    assert_dims3(c.block, lanes, rows, 1);
    assert_int_equal(c.num_threads, lanes * rows);
    assert_int_equal(c.step_output, lanes);
    assert_int_equal(c.output_mult[0], 1);
    assert_int_equal(c.input_mult[0], 0);
    assert_int_equal(c.input_mult[1], 1);
    assert_int_equal(c.input_mult[2], rows); /* interleaved */
    assert_int_equal(c.step_input, rows * ctas);
    assert_dims3(c.grid, 1, ctas, 1);
    assert_int_equal(c.staging_bytes, (int64_t)ctas * lanes * 4 * 4);
    assert_int_equal(c.shared_memory_bytes, (int64_t)lanes * rows * 4 * 4);
}

/* TUNED rule 15: the general kernel's strided and uniform-walk loops
   pipelined where the kernel is built with them (sums and means of
   4-byte states at 2 and 4 outputs a thread), the rest of the plan as
   with the rule off. */
static void expect_pipelined(const rt__iter *it, rt_op op, rt_dtype dt, bool want) {
    const rt__launch_config on = tall_config_for(it, op, dt, 512, 0);
    assert_int_equal(on.pipelined, want);
    rt__launch_config off = tall_config_for(it, op, dt, 512, RT__RULE_OFF_PIPELINED);
    assert_false(off.pipelined);
    off.pipelined = on.pipelined;
    assert_memory_equal(&on, &off, sizeof on);
}

static void test_tuned_pipelined(void **state) {
    (void)state;
    int64_t sh[] = {4096, 32768}, st[] = {32768, 1};
    rt__iter it = rt_test_make_iter(2, 1, sh, st, 4, 0);
    expect_pipelined(&it, RT_OP_SUM, RT_F32, true);
    expect_pipelined(&it, RT_OP_MEAN, RT_F32, true);
    expect_pipelined(&it, RT_OP_PROD, RT_F32, true);
    assert_int_equal(tall_config_for(&it, RT_OP_SUM, RT_F32, 512, 0).output_vec_size, 4);
    rt__iter it16 = rt_test_make_iter(2, 1, sh, st, 2, 0);
    expect_pipelined(&it16, RT_OP_SUM, RT_F16, true);
    expect_pipelined(&it16, RT_OP_MEAN, RT_BF16, true);
    /* Two outputs a thread: 6 columns. */
    int64_t sh6[] = {100000, 6}, st6[] = {6, 1};
    rt__iter it6 = rt_test_make_iter(2, 1, sh6, st6, 4, 0);
    assert_int_equal(tall_config_for(&it6, RT_OP_SUM, RT_F32, 512, 0).output_vec_size, 2);
    expect_pipelined(&it6, RT_OP_SUM, RT_F32, true);
    /* d02's walk: [32,256,64,256] over (0, 2), reduced dims first. */
    int64_t shw[] = {64, 32, 256, 256}, stw[] = {256, 4194304, 1, 16384};
    rt__iter walk = rt_test_make_iter(4, 2, shw, stw, 4, 0);
    assert_true(tall_config_for(&walk, RT_OP_SUM, RT_F32, 512, 0).pipelined);
    assert_false(tall_config_for(&walk, RT_OP_SUM, RT_F32, 512, RT__RULE_OFF_PIPELINED).pipelined);
    /* Not: 8-byte states, other ops, one output a thread, the vector
       path, COMPAT. */
    rt__iter it64 = rt_test_make_iter(2, 1, sh, st, 8, 0);
    expect_pipelined(&it64, RT_OP_SUM, RT_F64, false);
    expect_pipelined(&it, RT_OP_SUM, RT_I32, false);
    expect_pipelined(&it, RT_OP_MAX, RT_F32, false);
    expect_pipelined(&it, RT_OP_VAR, RT_F32, false);
    int64_t sh1[] = {100000, 1023}, st1[] = {1023, 1};
    rt__iter odd = rt_test_make_iter(2, 1, sh1, st1, 4, 0);
    assert_int_equal(tall_config_for(&odd, RT_OP_SUM, RT_F32, 512, 0).output_vec_size, 1);
    expect_pipelined(&odd, RT_OP_SUM, RT_F32, false);
    int64_t shr[] = {1024, 64}, str[] = {1, 1024};
    rt__iter rows = rt_test_make_iter(2, 1, shr, str, 4, 0);
    const rt__launch_config r = config_for(&rows, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_true(r.vectorize_input);
    assert_false(r.pipelined);
    assert_false(compat_for(&it, RT_OP_SUM, RT_F32).pipelined);
}

static void test_tuned_whole_rows(void **state) {
    (void)state;
    int64_t st100[] = {100, 1};
    int64_t c100[] = {671088, 100}, c20k[] = {20000, 100};
    rt__iter it = rt_test_make_iter(2, 1, c100, st100, 4, 0);
    expect_whole(&it, RT_OP_SUM, 25, 264);
    expect_whole(&it, RT_OP_MEAN, 25, 264);
    expect_whole(&it, RT_OP_MAX, 25, 264);
    /* 1000 rows a thread's warp row: 250 blocks, under the wave. */
    rt__iter few = rt_test_make_iter(2, 1, c20k, st100, 4, 0);
    expect_whole(&few, RT_OP_SUM, 25, 250);
    /* The edges: 17 and 31 thread columns; 24 (not a multiple of 16). */
    int64_t c68[] = {671088, 68}, st68[] = {68, 1};
    rt__iter it68 = rt_test_make_iter(2, 1, c68, st68, 4, 0);
    expect_whole(&it68, RT_OP_SUM, 17, 264);
    int64_t c124[] = {671088, 124}, st124[] = {124, 1};
    rt__iter it124 = rt_test_make_iter(2, 1, c124, st124, 4, 0);
    expect_whole(&it124, RT_OP_SUM, 31, 264);
    int64_t c96[] = {671088, 96}, st96[] = {96, 1};
    rt__iter it96 = rt_test_make_iter(2, 1, c96, st96, 4, 0);
    expect_whole(&it96, RT_OP_SUM, 24, 264);

    /* Off: rule 10's two tiles. */
    const rt__launch_config off = tall_config_for(&it, RT_OP_SUM, RT_F32, 512, RT__RULE_OFF_WHOLE_ROWS);
    assert_tall_blocks(&off, 2, 132);
    /* Not: rows that are not packed (a 100-column slice of 128), 128 and
       64 columns (whole 16-lane tiles), a kernel of 128 threads at 4
       outputs, Welford's states (no tall blocks). */
    int64_t slice_st[] = {128, 1};
    rt__iter slice = rt_test_make_iter(2, 1, c100, slice_st, 4, 0);
    const rt__launch_config s = tall_config_for(&slice, RT_OP_SUM, RT_F32, 512, 0);
    assert_tall_blocks(&s, 2, 132);
    int64_t c128[] = {671088, 128}, st128[] = {128, 1};
    rt__iter it128 = rt_test_make_iter(2, 1, c128, st128, 4, 0);
    const rt__launch_config w = tall_config_for(&it128, RT_OP_SUM, RT_F32, 512, 0);
    assert_tall_blocks(&w, 2, 132);
    int64_t c64[] = {671088, 64}, st64[] = {64, 1};
    rt__iter it64 = rt_test_make_iter(2, 1, c64, st64, 4, 0);
    const rt__launch_config one = tall_config_for(&it64, RT_OP_SUM, RT_F32, 512, 0);
    assert_tall_blocks(&one, 1, 264);
    const rt__launch_config small = tall_config_for(&it, RT_OP_SUM, RT_F32, 128, 0);
    assert_false(small.block[0] == 25);
    const rt__launch_config var = tall_config_for(&it, RT_OP_VAR, RT_F32, 512, 0);
    assert_false(var.block[0] == 25);
}

/* TUNED rule 11: an outer reduction in PyTorch's 32 x 4 tiles that rule 2
   splits, whose outputs fill one or two waves of 512-thread tiles of 32
   lanes x 16 warp rows, the last 7/8 to all full, takes those tiles with
   no split. The model H200, f32 sum registers (2 blocks of 512 a SM: a
   wave of 264 tiles). */
static void expect_wave_without(const rt__iter *it, rt_op op, int tiles, unsigned kinds_off) {
    const rt__launch_config c = tall_config_for(it, op, RT_F32, 512, kinds_off);
    assert_dims3(c.block, 32, 16, 1);
    assert_dims3(c.grid, tiles, 1, 1);
    assert_int_equal(c.num_threads, 512);
    assert_int_equal(c.output_vec_size, 4);
    assert_int_equal(c.step_input, 16);
    assert_int_equal(c.input_mult[1], 1);
    assert_false(rt__config_global_reduce(&c));
    assert_int_equal(c.staging_bytes, 0);
    /* Off: PyTorch's split, or rule 9's 16 x 8 where that drops a split
       of 2. */
    const rt__launch_config off =
        tall_config_for(it, op, RT_F32, 512, kinds_off | RT__RULE_OFF_OUTER_WAVE);
    assert_true(off.ctas_per_output >= 2 || (off.block[0] == 16 && off.block[1] == 8));
    assert_int_equal(off.num_threads, 128);
}

static void expect_wave(const rt__iter *it, rt_op op, int tiles) {
    expect_wave_without(it, op, tiles, 0);
}

/* Rule 11's second wave not taken where rule 15 pipelines the loops
   (off H100-class GPUs): rule 9's 16 x 8 instead, and the tiles with
   rule 15 off. */
static void expect_no_second_wave(const rt__iter *it, rt_op op, int tiles) {
    const rt__launch_config c = tall_config_for(it, op, RT_F32, 512, 0);
    assert_true(c.pipelined);
    assert_dims3(c.block, 16, 8, 1);
    expect_wave_without(it, op, tiles, RT__RULE_OFF_PIPELINED);
}

static void test_tuned_outer_wave(void **state) {
    (void)state;
    int64_t d0[] = {4096, 32768}, d0_st[] = {32768, 1};
    rt__iter it = rt_test_make_iter(2, 1, d0, d0_st, 4, 0);
    expect_wave(&it, RT_OP_SUM, 256);
    expect_wave(&it, RT_OP_MEAN, 256);
    expect_wave(&it, RT_OP_MAX, 256);
    expect_wave(&it, RT_OP_VAR, 256); /* instead of rule 9's 16 x 8 */
    /* 231 tiles (7/8 of 264) take them, 230 do not. */
    int64_t w231[] = {4096, 231 * 128}, w231_st[] = {231 * 128, 1};
    rt__iter it231 = rt_test_make_iter(2, 1, w231, w231_st, 4, 0);
    expect_wave(&it231, RT_OP_SUM, 231);
    int64_t w230[] = {4096, 230 * 128}, w230_st[] = {230 * 128, 1};
    rt__iter it230 = rt_test_make_iter(2, 1, w230, w230_st, 4, 0);
    assert_int_equal(tall_config_for(&it230, RT_OP_SUM, RT_F32, 512, 0).num_threads, 128);
    /* Two waves (65536 columns: 512 tiles, 97% of 2 x 264) take them too,
       and 495 tiles (a second wave 7/8 full), where the loops are not
       pipelined (max; sums with rule 15 off); 494 do not, nor more than
       two waves (131072 columns: 1024 tiles). */
    int64_t wide[] = {4096, 65536}, wide_st[] = {65536, 1};
    rt__iter itw = rt_test_make_iter(2, 1, wide, wide_st, 4, 0);
    expect_wave(&itw, RT_OP_MAX, 512);
    expect_no_second_wave(&itw, RT_OP_SUM, 512);
    expect_no_second_wave(&itw, RT_OP_MEAN, 512);
    int64_t w495[] = {4096, 495 * 128}, w495_st[] = {495 * 128, 1};
    rt__iter it495 = rt_test_make_iter(2, 1, w495, w495_st, 4, 0);
    expect_wave(&it495, RT_OP_MAX, 495);
    expect_no_second_wave(&it495, RT_OP_SUM, 495);
    int64_t w494[] = {4096, 494 * 128}, w494_st[] = {494 * 128, 1};
    rt__iter it494 = rt_test_make_iter(2, 1, w494, w494_st, 4, 0);
    const rt__launch_config short_wave = tall_config_for(&it494, RT_OP_SUM, RT_F32, 512, 0);
    assert_false(short_wave.block[0] == 32 && short_wave.block[1] == 16);
    int64_t wider[] = {2048, 131072}, wider_st[] = {131072, 1};
    rt__iter itw2 = rt_test_make_iter(2, 1, wider, wider_st, 4, 0);
    const rt__launch_config three = tall_config_for(&itw2, RT_OP_SUM, RT_F32, 512, 0);
    assert_false(three.block[0] == 32 && three.block[1] == 16);
    /* PyTorch's kernel bound (or unknown), 16-bit inputs, indexed states:
       not taken. */
    assert_int_equal(tall_config_for(&it, RT_OP_SUM, RT_F32, 128, 0).num_threads, 128);
    assert_int_equal(config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).num_threads, 128);
    rt__iter it16 = rt_test_make_iter(2, 1, d0, d0_st, 2, 0);
    assert_int_equal(tall_config_for(&it16, RT_OP_SUM, RT_F16, 128, 0).block[1], 4);
    assert_int_equal(tall_config_for(&it, RT_OP_ARGMAX, RT_F32, 512, 0).output_vec_size, 1);
}

/* TUNED rule 12: an outer reduction of a sum-like op in PyTorch's 32 x 4
   tiles that rule 2 splits over more than 2 blocks takes rule 10's tall
   blocks (16 x 32) with their own split of at most a wave, where those
   tiles are no more than a wave. The model H200 with the f32 sum kernel's
   registers (9 blocks of 128 a SM: the 32 x 4 wave is 1188 blocks; 2 of
   512: the tall wave is 264). */
static void expect_tall_split(const rt__iter *it, rt_op op, int tiles, int ctas, int off_ctas) {
    const rt__launch_config c = tall_config_for(it, op, RT_F32, 512, 0);
    assert_tall_blocks(&c, tiles, ctas);
    const rt__launch_config off = tall_config_for(it, op, RT_F32, 512, RT__RULE_OFF_OUTER_TALL_SPLIT);
    assert_dims3(off.block, 32, 4, 1);
    assert_int_equal(off.ctas_per_output, off_ctas);
}

static void test_tuned_outer_tall_split(void **state) {
    (void)state;
    /* [16384,8192] over dim 0 (the suite's transposed sum): 64 tiles of
       128 split 18 ways -> 128 tall tiles split 2 ways. */
    int64_t t8k[] = {16384, 8192}, t8k_st[] = {8192, 1};
    rt__iter it = rt_test_make_iter(2, 1, t8k, t8k_st, 4, 0);
    expect_tall_split(&it, RT_OP_SUM, 128, 2, 18);
    expect_tall_split(&it, RT_OP_MEAN, 128, 2, 18);
    expect_tall_split(&it, RT_OP_MAX, 128, 2, 18);
    expect_tall_split(&it, RT_OP_NORM, 128, 2, 18);
    /* [65536,2048]: 16 tiles split 74 ways -> 32 tall tiles, 8 ways. */
    int64_t t2k[] = {65536, 2048}, t2k_st[] = {2048, 1};
    rt__iter it2k = rt_test_make_iter(2, 1, t2k, t2k_st, 4, 0);
    expect_tall_split(&it2k, RT_OP_SUM, 32, 8, 74);
    /* [8192,16384]: 128 tiles split 9 ways -> 256 tall tiles, one wave
       without a split. */
    int64_t t16k[] = {8192, 16384}, t16k_st[] = {16384, 1};
    rt__iter it16k = rt_test_make_iter(2, 1, t16k, t16k_st, 4, 0);
    expect_tall_split(&it16k, RT_OP_SUM, 256, 1, 9);
    /* 29440 columns: 460 tall tiles, over a wave: 32 x 4 split 5 ways. */
    int64_t over[] = {4096, 29440}, over_st[] = {29440, 1};
    rt__iter ito = rt_test_make_iter(2, 1, over, over_st, 4, 0);
    rt__launch_config c = tall_config_for(&ito, RT_OP_SUM, RT_F32, 512, 0);
    assert_dims3(c.block, 32, 4, 1);
    assert_int_equal(c.ctas_per_output, 5);
    /* Not: Welford's and indexed states, 16-bit inputs (rule 9 or PyTorch's
       tiles), a kernel of 128 threads at 4 outputs, PyTorch's bounds. */
    c = tall_config_for(&it, RT_OP_VAR, RT_F32, 512, 0);
    assert_false(c.block[0] == 16 && c.block[1] == 32);
    c = tall_config_for(&it, RT_OP_ARGMAX, RT_F32, 512, 0);
    assert_false(c.block[0] == 16 && c.block[1] == 32);
    rt__iter it16 = rt_test_make_iter(2, 1, t8k, t8k_st, 2, 0);
    c = tall_config_for(&it16, RT_OP_SUM, RT_F16, 512, 0);
    assert_dims3(c.block, 32, 4, 1);
    c = tall_config_for(&it, RT_OP_SUM, RT_F32, 128, 0);
    assert_dims3(c.block, 32, 4, 1);
    assert_int_equal(config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).num_threads, 128);
}

/* TUNED rule 13: PyTorch's cap of 256 values a thread no longer pushes
   rule 2's split past one wave. [16384,16384] over dim 0 on the model H200
   with f32 sum registers, rule 12 off (PyTorch's 32 x 4 tiles: 128 of
   them, 9 blocks of 128 a SM, a wave of 1188 blocks): 9 blocks a tile,
   16384 rows / 4 warp rows / 9 = 456 values a thread, where the cap made
   16 (2048 blocks). With rule 12, its tall tiles (256, a wave of 264):
   no split, where the cap made 2. */
static void test_tuned_uncapped_split(void **state) {
    (void)state;
    int64_t big[] = {16384, 16384}, big_st[] = {16384, 1};
    rt__iter it = rt_test_make_iter(2, 1, big, big_st, 4, 0);
    rt__launch_config c = tall_config_for(&it, RT_OP_SUM, RT_F32, 512, RT__RULE_OFF_OUTER_TALL_SPLIT);
    assert_dims3(c.block, 32, 4, 1);
    assert_dims3(c.grid, 128, 9, 1);
    c = tall_config_for(&it, RT_OP_SUM, RT_F32, 512,
                        RT__RULE_OFF_OUTER_TALL_SPLIT | RT__RULE_OFF_UNCAPPED_SPLIT);
    assert_dims3(c.grid, 128, 16, 1);
    c = tall_config_for(&it, RT_OP_SUM, RT_F32, 512, 0);
    assert_dims3(c.block, 16, 32, 1);
    assert_dims3(c.grid, 256, 1, 1);
    assert_false(rt__config_global_reduce(&c));
    c = tall_config_for(&it, RT_OP_SUM, RT_F32, 512, RT__RULE_OFF_UNCAPPED_SPLIT);
    assert_dims3(c.block, 16, 32, 1);
    assert_dims3(c.grid, 256, 2, 1);
    /* Under the wave the cap never bound: [16384,8192] keeps rule 12's 2. */
    int64_t t8k[] = {16384, 8192}, t8k_st[] = {8192, 1};
    rt__iter it8k = rt_test_make_iter(2, 1, t8k, t8k_st, 4, 0);
    c = tall_config_for(&it8k, RT_OP_SUM, RT_F32, 512, RT__RULE_OFF_UNCAPPED_SPLIT);
    assert_dims3(c.grid, 128, 2, 1);
}

/* var and std of aligned rows a row a block: two passes over registers
   and one block reduction (rows_two_pass), on the model H200's base
   shapes (test_tuned_row_block_wide has the H100's wide ones), whether one
   batch covers the row exactly or in part, a row or two a block, 16-bit
   values at 4 vectors a thread too; not for misaligned rows, other ops,
   or with the switch off. */
static rt__launch_config expect_two_pass(int64_t len, rt_op op, rt_dtype dt, int threads,
                                         int loads, bool two_pass) {
    const rt__launch_config c = rows_config_for(len, 32768, op, dt);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], threads);
    assert_int_equal(c.rows_in_flight, loads);
    assert_int_equal(c.rows_two_pass, two_pass);
    return c;
}

static void test_tuned_row_two_pass(void **state) {
    (void)state;
    expect_two_pass(4096, RT_OP_VAR, RT_F32, 256, 4, true);
    expect_two_pass(4096, RT_OP_STD, RT_F32, 256, 4, true);
    expect_two_pass(2048, RT_OP_VAR, RT_F32, 128, 4, true);
    expect_two_pass(1024, RT_OP_VAR, RT_F32, 128, 2, true);
    expect_two_pass(4096, RT_OP_VAR, RT_F64, 512, 4, true);
    expect_two_pass(2048, RT_OP_VAR, RT_BF16, 128, 2, true);
    expect_two_pass(4096, RT_OP_VAR, RT_BF16, 128, 4, true); /* 4 of 16-bit */
    expect_two_pass(4096, RT_OP_STD, RT_F16, 128, 4, true);
    expect_two_pass(4096, RT_OP_SUM, RT_F32, 256, 4, false);
    expect_two_pass(4096, RT_OP_ARGMAX, RT_F32, 256, 4, false);
    /* Partial batches a row a block: 5000 floats (1250 vectors on 512 x
       4), f64 rows of 4000 (2000 on 512 x 4) and of 1000 (500 on 128 x
       4: f64 var never pairs), std of 6000 floats (1500 on 512 x 4). */
    assert_int_equal(expect_two_pass(5000, RT_OP_VAR, RT_F32, 512, 4, true).rows_per_block, 1);
    assert_int_equal(expect_two_pass(6000, RT_OP_STD, RT_F32, 512, 4, true).rows_per_block, 1);
    assert_int_equal(expect_two_pass(4000, RT_OP_VAR, RT_F64, 512, 4, true).rows_per_block, 1);
    assert_int_equal(expect_two_pass(1000, RT_OP_VAR, RT_F64, 128, 4, true).rows_per_block, 1);
    /* f64 rows of 500 (250 vectors): 128 threads of 2, the two-pass
       kernel's 40-register bound for f64 at 1-2 vectors a thread. */
    assert_int_equal(expect_two_pass(500, RT_OP_STD, RT_F64, 128, 2, true).rows_per_block, 1);
    /* 16-bit rows of at most 3 vectors a thread take 3: bf16 rows of 3000
       (375 vectors on 128 threads, 3 on the first 119 and 2 on the other
       9), f16 rows of 5120 (640 on 256, 3 or 2 each), bf16 rows of 3072
       (384 on 128, 3 each); rows of 4000 (500 on 128: 4 or 3) keep 4; f32
       rows of 3 vectors a thread keep 4 (5000: 1250 on 512). */
    assert_int_equal(expect_two_pass(3000, RT_OP_VAR, RT_BF16, 128, 3, true).rows_per_block, 1);
    assert_int_equal(expect_two_pass(5120, RT_OP_STD, RT_F16, 256, 3, true).rows_per_block, 1);
    expect_two_pass(3072, RT_OP_VAR, RT_BF16, 128, 3, true);
    expect_two_pass(4000, RT_OP_VAR, RT_BF16, 128, 4, true);
    /* Partial batches two rows a block: 3000 floats (750 vectors on 256
       threads), 1000 (250 on 128 x 2), bf16 rows of 2000 (250 on 128 x
       2). */
    assert_int_equal(expect_two_pass(3000, RT_OP_VAR, RT_F32, 256, 4, true).rows_per_block, 2);
    assert_int_equal(expect_two_pass(1000, RT_OP_VAR, RT_F32, 128, 2, true).rows_per_block, 2);
    assert_int_equal(expect_two_pass(2000, RT_OP_VAR, RT_BF16, 128, 2, true).rows_per_block, 2);
    /* 4096 of 4097 (rows 4 bytes apart): misaligned. */
    int64_t shape[] = {4096, 16384}, misaligned[] = {1, 4097};
    rt__iter m = rt_test_make_iter(2, 1, shape, misaligned, 4, 0);
    rt__launch_config c = rt_test_config_for(&m, RT_OP_VAR, RT_F32, RT_POLICY_TUNED);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], 256);
    assert_false(c.rows_two_pass);
    /* 4096 of 8192 (aligned): two passes; off: Welford's folds, the same
       blocks. */
    int64_t sliced[] = {1, 8192};
    rt__iter p = rt_test_make_iter(2, 1, shape, sliced, 4, 0);
    c = rt_test_config_for(&p, RT_OP_STD, RT_F32, RT_POLICY_TUNED);
    assert_true(c.rows_two_pass);
    c = rt_test_config_without(&p, RT_OP_VAR, RT_F32, RT_POLICY_TUNED, RT__RULE_OFF_ROW_TWO_PASS);
    assert_true(c.rows_block);
    assert_int_equal(c.block[0], 256);
    assert_int_equal(c.rows_in_flight, 4);
    assert_false(c.rows_two_pass);
}

/* The invariants of a chunked split: whole block steps per chunk, chunks
   covering every vector, no block without one. */
static void assert_chunks_cover(const rt__launch_config *t, int64_t units) {
    assert_true(t->input_chunked);
    assert_true(rt__config_global_reduce(t));
    assert_int_equal(t->grid[1], t->ctas_per_output);
    assert_int_equal(t->input_mult[2] % t->step_input, 0);
    assert_true((int64_t)t->ctas_per_output * t->input_mult[2] >= units);
    assert_true((int64_t)(t->ctas_per_output - 1) * t->input_mult[2] < units);
}

/* Rule 7's configs: the general kernel (STREAM off) on the model H100,
   an H100-class GPU, where the rule applies. */
static rt__launch_config h100_general(const rt__iter *it, rt_op op, rt_dtype dtype) {
    const rt__device_props h100 = rt_test_props_h100();
    rt__launch_config c = rt_test_config_on(&h100, it, op, dtype, RT_POLICY_TUNED,
                                            RT__KIND_BIT(RT__KERNEL_STREAM));
    assert_int_equal(c.kernel, RT__KERNEL_GENERAL);
    return c;
}

/* TUNED rule 7: sum-like ops split a long vector-read index over blocks in
   contiguous chunks (input_chunked) on H100-class GPUs: CHUNK_LOADS (8)
   vectors a thread when that makes several waves, one wave of chunks of
   whole rounds of 4 when one wave gives each thread 5-16, PyTorch's
   interleaving at 4 or fewer, for the other ops and on other GPUs. One
   wave here: 132 SMs x 4 blocks of 512. */
static void test_tuned_chunked_split(void **state) {
    (void)state;
    int64_t strides[] = {1};
    /* 64 MB of f32: 4M vectors, 15.5 a thread at one wave -> chunks of 16
       a thread, 8192 vectors, 512 blocks. */
    int64_t n64[] = {(int64_t)1 << 24};
    rt__iter it = rt_test_make_iter(1, 1, n64, strides, 4, 0);
    rt__launch_config t = h100_general(&it, RT_OP_SUM, RT_F32);
    assert_dims3(t.block, 512, 1, 1);
    assert_int_equal(t.step_input, 512);
    assert_int_equal(t.input_mult[2], 16 * 512);
    assert_dims3(t.grid, 1, 512, 1);
    assert_int_equal(t.staging_bytes, 512 * 4);
    assert_chunks_cover(&t, (int64_t)1 << 22);
    /* 256 MB: 62 a thread at one wave -> chunks of 8 a thread, 4096 blocks;
       mean, max and the p = 2 norm the same way (one-number states). */
    int64_t n256[] = {(int64_t)1 << 26};
    rt__iter big = rt_test_make_iter(1, 1, n256, strides, 4, 0);
    const rt_op sumlike[] = {RT_OP_SUM, RT_OP_MEAN, RT_OP_MAX, RT_OP_PROD};
    for (int k = 0; k < 4; k++) {
        t = h100_general(&big, sumlike[k], RT_F32);
        assert_int_equal(t.input_mult[2], 8 * 512);
        assert_int_equal(t.ctas_per_output, 4096);
        assert_chunks_cover(&t, (int64_t)1 << 24);
    }
    rt__op_traits n2 = rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 2.0);
    const rt__device_props h100 = rt_test_props_h100();
    assert_int_equal(rt__config_compute_without(&big, &n2, &h100, RT_POLICY_TUNED,
                                                RT__KIND_BIT(RT__KERNEL_STREAM), &t),
                     RT_OK);
    assert_int_equal(t.ctas_per_output, 4096);
    assert_chunks_cover(&t, (int64_t)1 << 24);
    /* Rule 7 turned off, on the model H200 and where the bandwidth is
       unknown: PyTorch's interleaved one-wave split. */
    t = rt_test_config_on(&h100, &big, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                          RT__KIND_BIT(RT__KERNEL_STREAM) | RT__RULE_OFF_CHUNKED);
    assert_false(t.input_chunked);
    assert_true(rt__config_global_reduce(&t));
    assert_int_equal(t.input_mult[2], t.step_input / t.ctas_per_output);
    t = config_for(&big, RT_OP_SUM, RT_F32, RT_POLICY_TUNED);
    assert_false(t.input_chunked);
    assert_true(rt__config_global_reduce(&t));
    rt__device_props unknown = h100;
    unknown.mem_gbps = 0;
    t = rt_test_config_on(&unknown, &big, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                          RT__KIND_BIT(RT__KERNEL_STREAM));
    assert_false(t.input_chunked);
    /* Interleaved: argmax, min with indices, var, the p = 3 norm, any. */
    assert_false(h100_general(&big, RT_OP_ARGMAX, RT_F32).input_chunked);
    assert_false(h100_general(&big, RT_OP_VAR, RT_F32).input_chunked);
    rt__iter bools = rt_test_make_iter(1, 1, n256, strides, 1, 0);
    assert_false(h100_general(&bools, RT_OP_ANY, RT_BOOL).input_chunked);
    rt__op_traits mi = rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, true, 2.0);
    assert_int_equal(rt__config_compute(&big, &mi, &h100, RT_POLICY_TUNED, &t), RT_OK);
    assert_false(t.input_chunked);
    rt__op_traits n3 = rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 3.0);
    assert_int_equal(rt__config_compute(&big, &n3, &h100, RT_POLICY_TUNED, &t), RT_OK);
    assert_false(t.input_chunked);
    /* 16 MB: 3.9 vectors a thread at one wave: the interleaved wave. */
    int64_t n16[] = {(int64_t)1 << 22};
    rt__iter mid = rt_test_make_iter(1, 1, n16, strides, 4, 0);
    t = h100_general(&mid, RT_OP_SUM, RT_F32);
    assert_false(t.input_chunked);
    assert_int_equal(t.ctas_per_output, 512);
    assert_int_equal(t.step_input, 512 * 512);
    /* bf16 reads 8 a vector: 2^26 elements are 8M vectors, 31 a thread at
       one wave -> chunks of 8, 2048 blocks. */
    rt__iter halves = rt_test_make_iter(1, 1, n256, strides, 2, 0);
    t = h100_general(&halves, RT_OP_SUM, RT_BF16);
    assert_int_equal(t.input_vec_size, 8);
    assert_int_equal(t.ctas_per_output, 2048);
    assert_chunks_cover(&t, (int64_t)1 << 23);
    /* Two rows of 2^24: half a wave each, 31 a thread -> chunks of 8,
       1024 blocks per row. */
    int64_t rows[] = {(int64_t)1 << 24, 2}, rst[] = {1, (int64_t)1 << 24};
    rt__iter two = rt_test_make_iter(2, 1, rows, rst, 4, 0);
    t = h100_general(&two, RT_OP_SUM, RT_F32);
    assert_dims3(t.grid, 2, 1024, 1);
    assert_chunks_cover(&t, (int64_t)1 << 22);
    /* f64 folds one 8-byte partial per trip: the split is capped at
       8 x 512 blocks, the chunks grow instead (2^28 f64: 2^26 vectors of
       4, 32 a thread). */
    int64_t n2g[] = {(int64_t)1 << 28};
    rt__iter dbl = rt_test_make_iter(1, 1, n2g, strides, 8, 0);
    t = h100_general(&dbl, RT_OP_SUM, RT_F64);
    assert_int_equal(t.ctas_per_output, 4096);
    assert_int_equal(t.input_mult[2], 32 * 512);
    assert_chunks_cover(&t, (int64_t)1 << 26);
    /* A head off the vector boundary: the chunks count ceil(n / 4). */
    int64_t odd[] = {((int64_t)1 << 24) + 3};
    rt__iter mis = rt_test_make_iter(1, 1, odd, strides, 4, 4);
    t = h100_general(&mis, RT_OP_SUM, RT_F32);
    assert_chunks_cover(&t, (((int64_t)1 << 24) + 3 + 3) / 4);
    /* COMPAT never chunks. */
    assert_false(config_for(&big, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT).input_chunked);
}

/* TUNED rule 5: ops whose state carries an index take one output per
   thread across outputs; COMPAT (PyTorch) takes up to 4. */
static void test_tuned_indexed_one_output(void **state) {
    (void)state;
    int64_t shape[] = {4096, 32768}, strides[] = {32768, 1};
    rt__iter it = rt_test_make_iter(2, 1, shape, strides, 4, 0);
    rt_op ops[] = {RT_OP_ARGMAX, RT_OP_ARGMIN};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(config_for(&it, ops[k], RT_F32, RT_POLICY_COMPAT).output_vec_size, 4);
        assert_int_equal(config_for(&it, ops[k], RT_F32, RT_POLICY_TUNED).output_vec_size, 1);
    }
    rt__op_traits mi = rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, true, 2.0);
    rt__op_traits mv = rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, false, 2.0);
    assert_true(mi.indexed);
    assert_false(mv.indexed);
    /* Sums and var keep 4. */
    assert_int_equal(config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).output_vec_size, 4);
    assert_int_equal(config_for(&it, RT_OP_VAR, RT_F32, RT_POLICY_TUNED).output_vec_size, 4);
}

/* The TINY kernel (tuned_tiny.c): a full reduction of one contiguous run
   of at most RT__TINY_MAX_BYTES, one block of whole warps sized for four
   16-byte loads a thread; everything else keeps its kernel. */
static rt__launch_config tiny_config_for(int64_t n, int64_t stride, rt_op op, rt_dtype dt,
                                         rt_policy policy) {
    int64_t shape[] = {n}, strides[] = {stride};
    rt__iter it = rt_test_make_iter(1, 1, shape, strides, (int)rt_dtype_size(dt), 0);
    return rt_test_config_for(&it, op, dt, policy);
}

static void expect_tiny(int64_t n, rt_op op, rt_dtype dt, int threads) {
    const rt__launch_config c = tiny_config_for(n, 1, op, dt, RT_POLICY_TUNED);
    assert_int_equal(c.kernel, RT__KERNEL_TINY);
    assert_dims3(c.block, threads, 1, 1);
    assert_dims3(c.grid, 1, 1, 1);
    assert_int_equal(c.num_threads, threads);
    assert_true(rt__config_block_x_reduce(&c));
    assert_false(rt__config_block_y_reduce(&c));
    assert_false(rt__config_global_reduce(&c));
    assert_int_equal(c.shared_memory_bytes, 0);
    assert_int_equal(c.staging_bytes, 0);
    assert_int_equal(c.semaphore_count, 0);
}

static void test_tuned_tiny(void **state) {
    (void)state;
    /* 1 KB: 64 vectors, 16 threads' worth: one warp. */
    expect_tiny(256, RT_OP_SUM, RT_F32, 32);
    expect_tiny(1, RT_OP_SUM, RT_F32, 32);
    expect_tiny(3, RT_OP_ARGMAX, RT_F32, 32);
    /* 4 KB: 256 vectors, 64 threads; 16 KiB: 1024 vectors, 256 threads. */
    expect_tiny(1024, RT_OP_SUM, RT_F32, 64);
    expect_tiny(4096, RT_OP_SUM, RT_F32, 256);
    expect_tiny(1025, RT_OP_MEAN, RT_F32, 96);
    expect_tiny(2048, RT_OP_VAR, RT_F64, 256);
    expect_tiny(8192, RT_OP_MAX, RT_BF16, 256);
    expect_tiny(16384, RT_OP_ANY, RT_BOOL, 256);
    expect_tiny(100, RT_OP_NORM, RT_F16, 32);
    /* Over 16 KiB: the STREAM kernel for one-number states
       (test_tuned_stream), else the general kernel. */
    const rt__device_props h100 = rt_test_props_h100();
    int64_t n4097[] = {4097}, n2049[] = {2049}, one[] = {1};
    rt__iter f32_4097 = rt_test_make_iter(1, 1, n4097, one, 4, 0);
    rt__iter f64_2049 = rt_test_make_iter(1, 1, n2049, one, 8, 0);
    assert_int_equal(
        rt_test_config_on(&h100, &f32_4097, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0).kernel,
        RT__KERNEL_STREAM);
    assert_int_equal(
        rt_test_config_on(&h100, &f64_2049, RT_OP_SUM, RT_F64, RT_POLICY_TUNED, 0).kernel,
        RT__KERNEL_STREAM);
    assert_int_equal(
        rt_test_config_on(&h100, &f32_4097, RT_OP_ARGMAX, RT_F32, RT_POLICY_TUNED, 0).kernel,
        RT__KERNEL_GENERAL);
    assert_int_equal(tiny_config_for(4097, 1, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                     RT__KERNEL_STREAM);
    /* TINY turned off: the general kernel. */
    int64_t n256[] = {256}, unit[] = {1};
    rt__iter small = rt_test_make_iter(1, 1, n256, unit, 4, 0);
    assert_int_equal(rt_test_config_without(&small, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                                            RT__KIND_BIT(RT__KERNEL_TINY))
                         .kernel,
                     RT__KERNEL_GENERAL);
    /* A strided run, or a reversed one: not contiguous, not TINY. */
    assert_int_equal(tiny_config_for(256, 2, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                     RT__KERNEL_GENERAL);
    assert_int_equal(tiny_config_for(256, -1, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                     RT__KERNEL_GENERAL);
    /* COMPAT stays PyTorch's. */
    assert_int_equal(tiny_config_for(256, 1, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT).kernel,
                     RT__KERNEL_GENERAL);
    /* Two outputs (two rows of 100, or two reduced dims that do not
       coalesce): not TINY. */
    int64_t shape2[] = {100, 2}, rows[] = {1, 100}, gap[] = {1, 200};
    rt__iter two = rt_test_make_iter(2, 1, shape2, rows, 4, 0);
    assert_int_not_equal(rt_test_config_for(&two, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                         RT__KERNEL_TINY);
    rt__iter split = rt_test_make_iter(2, 2, shape2, gap, 4, 0);
    assert_int_not_equal(rt_test_config_for(&split, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                         RT__KERNEL_TINY);
}

/* The STREAM kernel (tuned_stream.c): a full reduction of one contiguous
   run over RT__TINY_MAX_BYTES, for ops whose state is one number: blocks
   of 512 threads, 64 bytes of vectors a thread, one block per chunk, a
   partial per block and one semaphore when there are several. */
static rt__launch_config stream_config_for(int64_t n, rt_op op, rt_dtype dt) {
    int64_t shape[] = {n}, strides[] = {1};
    rt__iter it = rt_test_make_iter(1, 1, shape, strides, (int)rt_dtype_size(dt), 0);
    const rt__device_props h100 = rt_test_props_h100();
    return rt_test_config_on(&h100, &it, op, dt, RT_POLICY_TUNED, 0);
}

static void expect_stream(int64_t n, rt_op op, rt_dtype dt, int vec, int per_thread, int blocks,
                          int acc_size) {
    const rt__launch_config c = stream_config_for(n, op, dt);
    assert_int_equal(c.kernel, RT__KERNEL_STREAM);
    assert_dims3(c.block, 512, 1, 1);
    assert_dims3(c.grid, blocks, 1, 1);
    assert_int_equal(c.num_threads, 512);
    assert_int_equal(c.max_threads, 512);
    assert_true(c.vectorize_input);
    assert_int_equal(c.input_vec_size, vec);
    assert_int_equal(c.output_vec_size, 1);
    assert_true(rt__config_block_x_reduce(&c));
    assert_false(rt__config_block_y_reduce(&c));
    assert_int_equal(c.shared_memory_bytes, 0);
    assert_int_equal(c.ctas_per_output, blocks);
    /* The grid's last block folds where the grid is more than a wave of
       512-thread blocks at 2048 threads a SM: 132 x 4 on the model H100. */
    assert_int_equal(c.stream_fold_last, blocks > 528);
    /* The dependent fold was not measured on H100-class GPUs. */
    assert_false(c.stream_dependent);
    /* Double states of those grids fold through slots: two ints a block
       in the semaphore region, no staging (tuned_stream.c). */
    const bool slots = blocks > 528 && dt == RT_F64;
    assert_int_equal(c.stream_slots, slots);
    if (blocks == 1) {
        assert_false(rt__config_global_reduce(&c));
        assert_false(c.input_chunked);
        assert_int_equal(c.staging_bytes, 0);
        assert_int_equal(c.semaphore_count, 0);
        return;
    }
    assert_true(rt__config_global_reduce(&c));
    assert_true(c.input_chunked);
    assert_int_equal(c.input_mult[2], 512 * per_thread);
    assert_int_equal(c.staging_bytes, slots ? 0 : (int64_t)blocks * acc_size);
    /* Slots come in groups of 1024 (a pack of two a thread), or more where
       that would make more groups than the model H100's 132 SMs less one;
       a group's folder comes a wave (528 blocks) after it. Two ints a
       block and a group. */
    if (slots) {
        int64_t group = 1024;
        while ((blocks + group - 1) / group > 131)
            group += 1024;
        assert_int_equal(c.stream_slot_group, group);
        assert_int_equal(c.stream_slot_delay, 528);
        assert_int_equal(c.semaphore_count, 2 * ((int64_t)blocks + (blocks + group - 1) / group));
    } else {
        assert_int_equal(c.stream_slot_group, 0);
        assert_int_equal(c.stream_slot_delay, 0);
        assert_int_equal(c.semaphore_count, 1);
    }
    /* The chunks cover the run's vectors (rounded up: a head off the
       boundary), the last one not empty. */
    const int64_t units = (n + vec - 1) / vec;
    assert_true((int64_t)blocks * c.input_mult[2] >= units);
    assert_true((int64_t)(blocks - 1) * c.input_mult[2] < units);
}

/* The dependent fold (tuned_stream.c stream_dependent): STREAM grids
   over a wave on a device with dependent launch that is not H100-class,
   from 64 MiB up, at 128 bytes a thread; otherwise the grid's last block
   folds. */
static void test_tuned_stream_dependent(void **state) {
    (void)state;
    const rt__device_props h200 = rt__device_props_h200();
    assert_int_equal(h200.dependent_launch, 1);
    rt__device_props no_pdl = h200;
    no_pdl.dependent_launch = 0;
    /* f32: a wave is 528 blocks of 512 threads x 16 vectors of 4. */
    const int64_t wave = (int64_t)528 * 512 * 16 * 4;
    int64_t unit[] = {1}, at[] = {wave}, over[] = {wave + 1};
    rt__iter at_wave = rt_test_make_iter(1, 1, at, unit, 4, 0);
    rt__iter over_wave = rt_test_make_iter(1, 1, over, unit, 4, 0);
    rt__launch_config t = rt_test_config_on(&h200, &at_wave, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.grid[0], 528);
    assert_false(t.stream_dependent);
    assert_false(t.stream_fold_last);
    assert_int_equal(t.semaphore_count, 1);
    /* One block over: the dependent fold re-cuts the run in chunks of 8
       vectors a thread (128 bytes), ceil((wave / 4 + 1) / 4096) blocks. */
    t = rt_test_config_on(&h200, &over_wave, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_true(t.stream_dependent);
    assert_false(t.stream_fold_last);
    assert_false(t.stream_slots);
    assert_int_equal(t.input_mult[2], 8 * 512);
    assert_int_equal(t.grid[0], (wave / 4 + 1 + 4095) / 4096);
    assert_int_equal(t.ctas_per_output, t.grid[0]);
    assert_int_equal(t.staging_bytes, (int64_t)t.grid[0] * 4);
    assert_int_equal(t.semaphore_count, 0);
    assert_true(rt__config_global_reduce(&t));
    /* Without dependent launch, or with the rule off: the grid's last
       block folds 529 blocks of 256 bytes a thread. */
    t = rt_test_config_on(&no_pdl, &over_wave, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_false(t.stream_dependent);
    assert_true(t.stream_fold_last);
    assert_int_equal(t.grid[0], 529);
    assert_int_equal(t.semaphore_count, 1);
    t = rt_test_config_on(&h200, &over_wave, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                          RT__RULE_OFF_STREAM_DEPENDENT);
    assert_false(t.stream_dependent);
    assert_true(t.stream_fold_last);
    assert_int_equal(t.grid[0], 529);
    /* Every STREAM op: bf16 sums (16-byte vectors of 8), f64 min (32-byte
       vectors: 4 a thread), means, the p = 2 norm; 1 GiB of f32. */
    static const struct {
        int64_t n;
        rt_op op;
        rt_dtype dt;
        int per_thread;
    } ops[] = {
        {(int64_t)1 << 28, RT_OP_SUM, RT_BF16, 8}, {(int64_t)1 << 26, RT_OP_MIN, RT_F64, 4},
        {(int64_t)1 << 27, RT_OP_MEAN, RT_F32, 8}, {(int64_t)1 << 28, RT_OP_SUM, RT_F32, 8},
        {(int64_t)1 << 26, RT_OP_SUM, RT_I64, 4},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        int64_t shape[] = {ops[k].n};
        rt__iter it = rt_test_make_iter(1, 1, shape, unit, (int)rt_dtype_size(ops[k].dt), 0);
        t = rt_test_config_on(&h200, &it, ops[k].op, ops[k].dt, RT_POLICY_TUNED, 0);
        assert_int_equal(t.kernel, RT__KERNEL_STREAM);
        assert_true(t.stream_dependent);
        assert_int_equal(t.input_mult[2], ops[k].per_thread * 512);
        const int64_t units = (ops[k].n + t.input_vec_size - 1) / t.input_vec_size;
        assert_int_equal(t.grid[0], (units + t.input_mult[2] - 1) / t.input_mult[2]);
        assert_int_equal(t.semaphore_count, 0);
    }
    /* The H100 model keeps the count (and slots for double states). */
    const rt__device_props h100 = rt_test_props_h100();
    assert_int_equal(h100.dependent_launch, 1);
    t = rt_test_config_on(&h100, &over_wave, RT_OP_SUM, RT_F32, RT_POLICY_TUNED, 0);
    assert_false(t.stream_dependent);
}

static void test_tuned_stream(void **state) {
    (void)state;
    /* f32: 4-element vectors, 4 a thread, 2048 a block (32 KiB). 16 KiB +
       4 bytes and 32 KiB: one block; one element more: two. */
    expect_stream(4097, RT_OP_SUM, RT_F32, 4, 4, 1, 4);
    expect_stream(8192, RT_OP_SUM, RT_F32, 4, 4, 1, 4);
    expect_stream(8193, RT_OP_SUM, RT_F32, 4, 4, 2, 4);
    /* 1 GiB: 32768 blocks, 128 KiB of partials. */
    expect_stream((int64_t)1 << 28, RT_OP_SUM, RT_F32, 4, 4, 32768, 4);
    expect_stream((int64_t)1 << 27, RT_OP_MEAN, RT_F32, 4, 4, 16384, 4);
    expect_stream((int64_t)1 << 27, RT_OP_MAX, RT_F32, 4, 4, 16384, 4);
    expect_stream((int64_t)1 << 27, RT_OP_PROD, RT_F32, 4, 4, 16384, 4);
    /* bf16 sums read 8 a vector (16 bytes); f64 4 (32 bytes: 4 a thread
       too, 8-byte states); i32 sums into i64. */
    expect_stream((int64_t)1 << 28, RT_OP_SUM, RT_BF16, 8, 4, 16384, 4);
    expect_stream((int64_t)1 << 26, RT_OP_SUM, RT_F64, 4, 4, 8192, 8);
    expect_stream((int64_t)1 << 27, RT_OP_SUM, RT_I32, 4, 4, 16384, 8);
    expect_stream((int64_t)1 << 26, RT_OP_MIN, RT_I32, 4, 4, 8192, 4);
    expect_stream(1000003, RT_OP_SUM, RT_F32, 4, 4, 123, 4);
    /* Either side of a wave (528 blocks of 2048 vectors): the last block
       to count folds 528 blocks' partials, the grid's last 529's. */
    expect_stream((int64_t)528 * 8192, RT_OP_SUM, RT_F32, 4, 4, 528, 4);
    expect_stream((int64_t)528 * 8192 + 1, RT_OP_SUM, RT_F32, 4, 4, 529, 4);
    expect_stream((int64_t)528 * 8192, RT_OP_SUM, RT_F64, 4, 4, 528, 8);
    expect_stream((int64_t)528 * 8192 + 4, RT_OP_SUM, RT_F64, 4, 4, 529, 8);
    /* Slots for every op of a double state (f64 min/max, products,
       means); not for i64 states (i64 sums, i32 sums into i64). */
    expect_stream((int64_t)1 << 26, RT_OP_MAX, RT_F64, 4, 4, 8192, 8);
    expect_stream((int64_t)1 << 26, RT_OP_PROD, RT_F64, 4, 4, 8192, 8);
    expect_stream((int64_t)1 << 26, RT_OP_MEAN, RT_F64, 4, 4, 8192, 8);
    expect_stream((int64_t)1 << 26, RT_OP_SUM, RT_I64, 4, 4, 8192, 8);
    /* 131 x 1024 + 1 blocks would be 132 groups of 1024, one more than the
       model H100's SMs less one: groups of 2048, 66 of them. */
    expect_stream((int64_t)(131 * 1024 + 1) * 8192, RT_OP_SUM, RT_F64, 4, 4, 131 * 1024 + 1, 8);
    /* The general kernel: vectors under 16 bytes (byte sums, 8- and 16-bit
       min/max: 4 elements a vector); states with an index, var, norms of
       run-time p, any. */
    static const struct {
        int64_t n;
        rt_op op;
        rt_dtype dt;
    } general[] = {
        {(int64_t)1 << 25, RT_OP_SUM, RT_I8},    {(int64_t)1 << 25, RT_OP_MAX, RT_U8},
        {(int64_t)1 << 25, RT_OP_MIN, RT_I16},   {(int64_t)1 << 25, RT_OP_SUM, RT_BOOL},
        {(int64_t)1 << 26, RT_OP_ARGMAX, RT_F32}, {(int64_t)1 << 26, RT_OP_VAR, RT_F32},
        {(int64_t)1 << 26, RT_OP_NORM, RT_F32},   {(int64_t)1 << 26, RT_OP_ANY, RT_BOOL},
    };
    for (size_t k = 0; k < sizeof general / sizeof general[0]; k++)
        assert_int_equal(stream_config_for(general[k].n, general[k].op, general[k].dt).kernel,
                         RT__KERNEL_GENERAL);
    /* The p = 2 norm (its own traits; the helper plans run-time p). */
    int64_t big[] = {(int64_t)1 << 26}, unit[] = {1};
    rt__iter it = rt_test_make_iter(1, 1, big, unit, 4, 0);
    rt__op_traits n2 = rt__op_traits_for(RT_OP_NORM, RT_F32, RT_F32, false, 2.0);
    rt__device_props h100 = rt_test_props_h100();
    rt__launch_config t;
    assert_int_equal(rt__config_compute(&it, &n2, &h100, RT_POLICY_TUNED, &t), RT_OK);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.grid[0], 8192);
    assert_true(t.stream_fold_last);
    /* The wave is the device's: 8192 blocks are under one of a GPU with
       2048 SMs (4 blocks each). */
    rt__device_props many_sms = h100;
    many_sms.num_sms = 2048;
    assert_int_equal(rt__config_compute(&it, &n2, &many_sms, RT_POLICY_TUNED, &t), RT_OK);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.grid[0], 8192);
    assert_false(t.stream_fold_last);
    /* From 64 MiB up, on the model H200 (4915 GB/s) and where the
       bandwidth is unknown: 256 bytes a thread (16 vectors of 16 bytes, 8
       of f64's 32), and 32-bit integer sums (8-byte states) go to the
       general kernel's interleaved split; below 64 MiB, and on the H100,
       4 vectors. */
    rt__device_props h200 = rt__device_props_h200();
    rt__device_props unknown = h100;
    unknown.mem_gbps = 0;
    int64_t mib64[] = {(int64_t)1 << 24}, under[] = {((int64_t)1 << 24) - 4};
    rt__iter at64 = rt_test_make_iter(1, 1, mib64, unit, 4, 0);
    rt__iter under64 = rt_test_make_iter(1, 1, under, unit, 4, 0);
    const rt__device_props *wide_devs[] = {&h200, &unknown};
    for (int k = 0; k < 2; k++) {
        const rt__device_props *dev = wide_devs[k];
        /* 256 MiB: 2048 blocks of 256 bytes a thread are over a wave, so
           the dependent fold, at 128 bytes a thread (stream_dependent). */
        assert_int_equal(rt__config_compute(&it, &n2, dev, RT_POLICY_TUNED, &t), RT_OK);
        assert_int_equal(t.kernel, RT__KERNEL_STREAM);
        assert_int_equal(t.input_mult[2], 8 * 512);
        assert_int_equal(t.grid[0], 4096);
        assert_true(t.stream_dependent);
        assert_false(t.stream_fold_last);
        assert_int_equal(t.staging_bytes, 4096 * 4);
        assert_int_equal(t.semaphore_count, 0);
        assert_int_equal(rt__config_compute_without(&it, &n2, dev, RT_POLICY_TUNED,
                                                    RT__RULE_OFF_STREAM_DEPENDENT, &t),
                         RT_OK);
        assert_int_equal(t.input_mult[2], 16 * 512);
        assert_int_equal(t.grid[0], 2048);
        assert_false(t.stream_dependent);
        assert_true(t.stream_fold_last);
        assert_int_equal(rt__config_compute(&at64, &n2, dev, RT_POLICY_TUNED, &t), RT_OK);
        assert_int_equal(t.kernel, RT__KERNEL_STREAM);
        assert_int_equal(t.grid[0], 512);
        assert_int_equal(rt__config_compute(&under64, &n2, dev, RT_POLICY_TUNED, &t), RT_OK);
        assert_int_equal(t.kernel, RT__KERNEL_STREAM);
        assert_int_equal(t.input_mult[2], 4 * 512);
        t = rt_test_config_on(dev, &it, RT_OP_SUM, RT_I32, RT_POLICY_TUNED, 0);
        assert_int_equal(t.kernel, RT__KERNEL_GENERAL);
        assert_false(t.input_chunked);
        t = rt_test_config_on(dev, &under64, RT_OP_SUM, RT_I32, RT_POLICY_TUNED, 0);
        assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    }
    int64_t f64_512[] = {(int64_t)1 << 26};
    rt__iter doubles = rt_test_make_iter(1, 1, f64_512, unit, 8, 0);
    t = rt_test_config_on(&h200, &doubles, RT_OP_SUM, RT_F64, RT_POLICY_TUNED, 0);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.input_mult[2], 4 * 512);
    assert_int_equal(t.grid[0], 8192);
    assert_true(t.stream_dependent);
    assert_false(t.stream_slots);
    assert_int_equal(t.staging_bytes, 8192 * 8);
    assert_int_equal(t.semaphore_count, 0);
    t = rt_test_config_on(&h200, &doubles, RT_OP_SUM, RT_F64, RT_POLICY_TUNED,
                          RT__RULE_OFF_STREAM_DEPENDENT);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.input_mult[2], 8 * 512);
    assert_int_equal(t.grid[0], 4096);
    /* Slots were measured on an H100 only: the H200 keeps the count. */
    assert_false(t.stream_dependent);
    assert_true(t.stream_fold_last);
    assert_false(t.stream_slots);
    assert_int_equal(t.semaphore_count, 1);
    assert_int_equal(rt__config_compute(&at64, &n2, &h100, RT_POLICY_TUNED, &t), RT_OK);
    assert_int_equal(t.kernel, RT__KERNEL_STREAM);
    assert_int_equal(t.grid[0], 2048);
    /* Not STREAM either: min/max with indices; COMPAT; a strided run;
       several outputs; STREAM turned off (the general kernel's chunked
       split). */
    rt__op_traits mi = rt__op_traits_for(RT_OP_MAX, RT_F32, RT_F32, true, 2.0);
    assert_int_equal(rt__config_compute(&it, &mi, &h200, RT_POLICY_TUNED, &t), RT_OK);
    assert_int_equal(t.kernel, RT__KERNEL_GENERAL);
    assert_int_equal(rt_test_config_for(&it, RT_OP_SUM, RT_F32, RT_POLICY_COMPAT).kernel,
                     RT__KERNEL_GENERAL);
    int64_t two[] = {2};
    rt__iter strided = rt_test_make_iter(1, 1, big, two, 4, 0);
    assert_int_equal(rt_test_config_for(&strided, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                     RT__KERNEL_GENERAL);
    int64_t rows[] = {1 << 20, 2}, rst[] = {1, 1 << 20};
    rt__iter two_rows = rt_test_make_iter(2, 1, rows, rst, 4, 0);
    assert_int_not_equal(rt_test_config_for(&two_rows, RT_OP_SUM, RT_F32, RT_POLICY_TUNED).kernel,
                         RT__KERNEL_STREAM);
    t = rt_test_config_on(&h100, &it, RT_OP_SUM, RT_F32, RT_POLICY_TUNED,
                          RT__KIND_BIT(RT__KERNEL_STREAM));
    assert_int_equal(t.kernel, RT__KERNEL_GENERAL);
    assert_true(t.input_chunked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectorized_input),
        cmocka_unit_test(test_vectorized_output),
        cmocka_unit_test(test_block_x_and_block_y_splits),
        cmocka_unit_test(test_global_reduce),
        cmocka_unit_test(test_rank0_and_single_element),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_op_traits),
        cmocka_unit_test(test_tuned_equals_compat_elsewhere),
        cmocka_unit_test(test_tuned_vectorizes_16bit_sums),
        cmocka_unit_test(test_tuned_global_split),
        cmocka_unit_test(test_tuned_vectorizes_nd_rows),
        cmocka_unit_test(test_tuned_tail_cap),
        cmocka_unit_test(test_tuned_outer_tiles),
        cmocka_unit_test(test_tuned_outer_tall),
        cmocka_unit_test(test_tuned_whole_rows),
        cmocka_unit_test(test_tuned_pipelined),
        cmocka_unit_test(test_tuned_outer_tall_split),
        cmocka_unit_test(test_tuned_uncapped_split),
        cmocka_unit_test(test_tuned_outer_wave),
        cmocka_unit_test(test_tuned_row_two_pass),
        cmocka_unit_test(test_tuned_rows_short),
        cmocka_unit_test(test_tuned_rows_cols),
        cmocka_unit_test(test_tuned_rows_warp),
        cmocka_unit_test(test_tuned_row_block_wide),
        cmocka_unit_test(test_tuned_indexed_one_output),
        cmocka_unit_test(test_tuned_row_blocks),
        cmocka_unit_test(test_tuned_rows_block),
        cmocka_unit_test(test_tuned_rows_exact),
        cmocka_unit_test(test_tuned_rows_exact_flat),
        cmocka_unit_test(test_tuned_half_tile),
        cmocka_unit_test(test_tuned_chunked_split),
        cmocka_unit_test(test_tuned_tiny),
        cmocka_unit_test(test_tuned_stream),
        cmocka_unit_test(test_tuned_stream_dependent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
