/*
 * The walk the executor packs for the general kernel (rt__cuda_pack_walk,
 * launch.h's walk fields), from hand-built iters: host code of the CUDA
 * backend, so it runs in every CUDA build, with or without a GPU (the
 * kernels' side is test_reduce_cuda's test_walks). Expected values are
 * worked out here from the digits: a block step of E = step_input vectors
 * (of input_vec elements) or elements is k whole units of the slowest
 * reduced dim (walk_step = k x its stride), or whole units of dim k = R - 2
 * (elements for two reduced dims), q of the slowest dim and r of dim k
 * (walk_step = r tk + q t_slowest, walk_digit = r, walk_carry = t_slowest
 * - sk tk, walk_dim k, walk_extent sk).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cuda_args.h"

/* An iter of R reduced dims of extents shape[0 .. R) and input strides
   (bytes), then one kept dim of 8 outputs. */
static rt__iter iter_of(int R, const int64_t *shape, const int64_t *strides) {
    rt__iter it;
    memset(&it, 0, sizeof it);
    it.ndim = R + 1;
    it.num_reduce_dims = R;
    it.inputs_per_output = 1;
    for (int d = 0; d < R; d++) {
        it.shape[d] = shape[d];
        it.strides[RT__ITER_IN][d] = strides[d];
        it.inputs_per_output *= shape[d];
    }
    it.shape[R] = 8;
    it.strides[RT__ITER_IN][R] = 4;
    it.strides[RT__ITER_OUT][R] = 4;
    it.elem_size[RT__ITER_IN] = 4;
    it.elem_size[RT__ITER_OUT] = 4;
    it.num_outputs = 8;
    return it;
}

static rt__launch_config general(int step_input, bool vectorize) {
    rt__launch_config c;
    memset(&c, 0, sizeof c);
    c.kernel = RT__KERNEL_GENERAL;
    c.step_input = step_input;
    c.vectorize_input = vectorize;
    return c;
}

static void expect_walk(const rt__iter *it, const rt__launch_config *c, int input_vec, int walk,
                        int32_t step, uint32_t digit, int32_t carry, int dim, uint32_t extent) {
    rt__kernel_args a;
    memset(&a, 0x5a, sizeof a); /* every walk field must be written */
    rt__cuda_pack_walk(it, c, input_vec, &a);
    assert_int_equal(a.walk, walk);
    assert_int_equal(a.walk_step, step);
    assert_int_equal(a.walk_digit, digit);
    assert_int_equal(a.walk_carry, carry);
    assert_int_equal(a.walk_dim, dim);
    assert_int_equal(a.walk_extent, extent);
    /* The kernel counts a thread's steps by this divider. */
    assert_int_equal(a.step_div.divisor, walk ? (uint32_t)c->step_input : 0u);
    /* These configs launch no threads (block and grid 0): not uniform. */
    assert_int_equal(a.walk_count, 0);
    assert_int_equal(a.walk_period, 0);
    for (int k = 0; k < 3; k++)
        assert_int_equal(a.walk_lin[k], 0);
}

/* A walk with threads: uniform (walk_count steps a thread, digit 0
   wrapping every `period` steps, first index at tx lin0 + ty lin1 + by
   lin2 bytes) or, count 0, not. */
static void expect_uniform_wrap(const rt__iter *it, const rt__launch_config *c, int input_vec,
                                uint32_t count, uint32_t period, int32_t lin0, int32_t lin1,
                                int32_t lin2) {
    rt__kernel_args a;
    memset(&a, 0x5a, sizeof a);
    rt__cuda_pack_walk(it, c, input_vec, &a);
    assert_int_equal(a.walk, 1);
    assert_int_equal(a.walk_count, count);
    assert_int_equal(a.walk_period, count != 0 ? period : 0);
    assert_int_equal(a.walk_lin[0], lin0);
    assert_int_equal(a.walk_lin[1], lin1);
    assert_int_equal(a.walk_lin[2], lin2);
}

/* The same for a walk of whole units of the slowest dim (no digit 0). */
static void expect_uniform(const rt__iter *it, const rt__launch_config *c, int input_vec,
                           uint32_t count, int32_t lin0, int32_t lin1, int32_t lin2) {
    expect_uniform_wrap(it, c, input_vec, count, 0, lin0, lin1, lin2);
}

static rt__launch_config blocks_of(int step_input, int bx, int by, int gy, int m0, int m1,
                                   int m2) {
    rt__launch_config c = general(step_input, true);
    c.block[0] = bx;
    c.block[1] = by;
    c.grid[0] = 1;
    c.grid[1] = gy;
    c.input_mult[0] = m0;
    c.input_mult[1] = m1;
    c.input_mult[2] = m2;
    return c;
}

/* d024's launch: blocks of 32 x 16 threads, input_mult {1, 32}, 512
   vectors of 4 a step. Lane tx reads floats 4 tx of the 128 of dim 0 (16
   tx bytes), warp ty row ty of dim 1's 16 (16 KiB apart); 65536 / 4 /
   512 = 32 steps a thread. */
static void test_uniform(void **state) {
    (void)state;
    const int64_t shape[3] = {128, 16, 32}, strides[3] = {4, 16384, 8388608};
    rt__iter it = iter_of(3, shape, strides);
    rt__launch_config c = blocks_of(512, 32, 16, 1, 1, 32, 0);
    expect_uniform(&it, &c, 4, 32, 16, 16384, 0);
    /* Half-height blocks and a 2-way interleaved split: block y takes
       rows 8 to 15 of dim 1, on top of warp ty's (both in digit 1). */
    c = blocks_of(512, 32, 8, 2, 1, 32, 256);
    expect_uniform(&it, &c, 4, 32, 16, 16384, 8 * 16384);
    /* 64 lanes of 4 floats leave dim 0's 128 (lane 32 carries into dim
       1): not linear. */
    c = blocks_of(512, 64, 8, 1, 1, 64, 0);
    expect_uniform(&it, &c, 4, 0, 0, 0, 0);
    /* A thread index at or past the step, a chunked split, a step that
       does not divide the vectors (2048 of 4 floats, 16384 vectors): not
       uniform. */
    c = blocks_of(512, 32, 16, 2, 1, 32, 256);
    expect_uniform(&it, &c, 4, 0, 0, 0, 0);
    c = blocks_of(512, 32, 16, 1, 1, 32, 0);
    c.input_chunked = true;
    expect_uniform(&it, &c, 4, 0, 0, 0, 0);
    c = blocks_of(2048 * 3, 32, 16, 1, 1, 32, 0);
    expect_uniform(&it, &c, 4, 0, 0, 0, 0);
    /* The strided path counts elements: an outer reduction over [16, 32]
       (16 KiB and 8 MiB apart), lanes on outputs, 16 warps one row of
       dim 0 each, a step of 16 rows (a unit of dim 1): 32 steps. */
    const int64_t outer[2] = {16, 32}, outer_st[2] = {16384, 8388608};
    rt__iter ito = iter_of(2, outer, outer_st);
    c = blocks_of(16, 32, 16, 1, 0, 1, 0);
    c.vectorize_input = false;
    expect_uniform(&ito, &c, 4, 32, 0, 16384, 0);
}

/* d02's launch ([32,256,64,256] f32 over (0,2), 4 outputs a thread):
   reduced [64, 32] (1 KiB and 16 MiB apart), warps ty one row of dim 0
   each, blocks by 4 (4 blocks an output), a step of 16: every thread
   starts below row 16 and wraps every 4 steps; 2048 / 16 = 128 steps. */
static void test_uniform_wraps(void **state) {
    (void)state;
    const int64_t shape[2] = {64, 32}, strides[2] = {1024, 16777216};
    rt__iter it = iter_of(2, shape, strides);
    rt__launch_config c = blocks_of(16, 32, 4, 4, 0, 1, 4);
    c.vectorize_input = false;
    expect_uniform_wrap(&it, &c, 4, 128, 4, 0, 1024, 4096);
    /* 8 warps a step of 8: every 8 steps. */
    c = blocks_of(8, 32, 8, 1, 0, 1, 0);
    c.vectorize_input = false;
    expect_uniform_wrap(&it, &c, 4, 256, 8, 0, 1024, 0);
    /* A step of 24 rows does not divide 64: wraps on different steps. */
    c = blocks_of(24, 32, 8, 3, 0, 1, 8);
    c.vectorize_input = false;
    expect_uniform_wrap(&it, &c, 4, 0, 0, 0, 0, 0);
    /* Two blocks 8 rows apart, 4 warps: starts 0-3 and 8-11, all below
       16: uniform. */
    c = blocks_of(16, 32, 4, 2, 0, 1, 8);
    c.vectorize_input = false;
    expect_uniform_wrap(&it, &c, 4, 128, 4, 0, 1024, 8192);
    /* [64, 36], a step of 72 = a unit of dim 1 and 8 rows: 32 steps, but
       4 blocks 8 rows apart start at rows 0 to 31, and the thread at row
       8 wraps a step before the one at row 0: not uniform. */
    const int64_t shape36[2] = {64, 36};
    rt__iter it36 = iter_of(2, shape36, strides);
    c = blocks_of(72, 32, 8, 4, 0, 1, 8);
    c.vectorize_input = false;
    expect_uniform_wrap(&it36, &c, 4, 0, 0, 0, 0, 0);
}

/* d024 ([32,32,16,32,128] f32 over (0,2,4)): reduced [128, 16, 32],
   512 vectors of 4 a step = 2048 floats, one unit of dim 0 (8 MiB). */
static void test_whole_units(void **state) {
    (void)state;
    const int64_t shape[3] = {128, 16, 32}, strides[3] = {4, 16384, 8388608};
    rt__iter it = iter_of(3, shape, strides);
    rt__launch_config c = general(512, true);
    expect_walk(&it, &c, 4, 1, 8388608, 0, 0, 0, 0);
    /* 8-wide vectors: 2 units a step. A step of 16 units still walks; one
       of 32, the whole dim, leaves no thread a second step. */
    expect_walk(&it, &c, 8, 1, 2 * 8388608, 0, 0, 0, 0);
    c.step_input = 8192;
    expect_walk(&it, &c, 4, 1, 16 * 8388608, 0, 0, 0, 0);
    c.step_input = 16384;
    expect_walk(&it, &c, 4, 0, 0, 0, 0, 0, 0);
}

/* d024's reduced dims in 256-thread blocks: 256 vectors of 4 a step =
   1024 floats = 8 units of dim 1 (128 floats): digit 1 moves by 8 and
   wraps into dim 2 every other step (carry 8 MiB - 16 x 16 KiB); digit 0
   never moves. */
static void test_two_slowest_dims(void **state) {
    (void)state;
    const int64_t shape[3] = {128, 16, 32}, strides[3] = {4, 16384, 8388608};
    rt__iter it = iter_of(3, shape, strides);
    rt__launch_config c = general(256, true);
    const int32_t carry = 8388608 - 16 * 16384;
    expect_walk(&it, &c, 4, 1, 8 * 16384, 8, carry, 1, 16);
    /* 32 vectors: one unit of dim 1 a step. 23 x 32 vectors: 5 units of
       dim 1 and 1 of dim 2. */
    c.step_input = 32;
    expect_walk(&it, &c, 4, 1, 16384, 1, carry, 1, 16);
    c.step_input = 23 * 32;
    expect_walk(&it, &c, 4, 1, 7 * 16384 + 8388608, 7, carry, 1, 16);
    /* A step inside dim 0 (8 vectors, 32 floats) moves every digit:
       divide. */
    c.step_input = 8;
    expect_walk(&it, &c, 4, 0, 0, 0, 0, 0, 0);
}

/* d02 ([32,256,64,256] f32 over (0,2), 4 outputs a thread): reduced
   [64, 32], strides 1 KiB and 16 MiB, 8 elements a step: digit 0 moves
   by 8 and wraps into dim 1 every 8 steps. */
static void test_two_dims_wrap(void **state) {
    (void)state;
    const int64_t shape[2] = {64, 32}, strides[2] = {1024, 16777216};
    rt__iter it = iter_of(2, shape, strides);
    rt__launch_config c = general(8, false);
    expect_walk(&it, &c, 4, 1, 8 * 1024, 8, 16777216 - 64 * 1024, 0, 64);
    /* 200 a step: 3 units of dim 1 and 8 of dim 0. */
    c.step_input = 200;
    expect_walk(&it, &c, 4, 1, 8 * 1024 + 3 * 16777216, 8, 16777216 - 64 * 1024, 0, 64);
    /* 128 a step: whole units (2), no digit 0 at all. */
    c.step_input = 128;
    expect_walk(&it, &c, 4, 1, 2 * 16777216, 0, 0, 0, 0);
    /* 32 units or more a step: nobody steps twice. */
    c.step_input = 64 * 32 + 8;
    expect_walk(&it, &c, 4, 0, 0, 0, 0, 0, 0);
}

/* bf16 [8,33,6,48] over (1,3) on the vector path: reduced [48, 33],
   strides 2 and 576 bytes, 32 vectors of 8 a step = 256 elements = 5
   rows of 48 and 16. */
static void test_two_dims_vectors(void **state) {
    (void)state;
    const int64_t shape[2] = {48, 33}, strides[2] = {2, 576};
    rt__iter it = iter_of(2, shape, strides);
    rt__launch_config c = general(32, true);
    expect_walk(&it, &c, 8, 1, 16 * 2 + 5 * 576, 16, 576 - 48 * 2, 0, 48);
    /* The same step on the strided path counts elements: 32 of dim 0. */
    c.vectorize_input = false;
    expect_walk(&it, &c, 8, 1, 32 * 2, 32, 576 - 48 * 2, 0, 48);
}

/* No walk: one reduced dim (the kernel multiplies), another kernel kind,
   an unknown vector width, and a wrap whose byte count leaves int32 (an
   index-tracking iter keeps its reduced dims in logical order, so a
   negative stride may follow a large one: 32767 x 65536 and -65536 fit a
   32-bit piece, 65536 - 32768 x 65536 does not fit 32 bits). */
static void test_no_walk(void **state) {
    (void)state;
    const int64_t one[1] = {1000}, one_st[1] = {4};
    rt__iter it1 = iter_of(1, one, one_st);
    rt__launch_config c = general(32, true);
    expect_walk(&it1, &c, 4, 0, 0, 0, 0, 0, 0);

    const int64_t shape[2] = {64, 32}, strides[2] = {1024, 16777216};
    rt__iter it = iter_of(2, shape, strides);
    c = general(8, false);
    c.kernel = RT__KERNEL_ROWS;
    expect_walk(&it, &c, 4, 0, 0, 0, 0, 0, 0);
    c = general(8, false);
    expect_walk(&it, &c, 0, 0, 0, 0, 0, 0, 0);

    const int64_t far[2] = {32768, 2}, far_st[2] = {65536, -65536};
    rt__iter itf = iter_of(2, far, far_st);
    c = general(8, false);
    expect_walk(&itf, &c, 4, 0, 0, 0, 0, 0, 0);
    /* With a small second stride the wrap fits: 4 - 2^31. */
    const int64_t near_st[2] = {65536, 4};
    rt__iter itn = iter_of(2, far, near_st);
    expect_walk(&itn, &c, 4, 1, 8 * 65536, 8, 4 - 32768 * 65536LL, 0, 32768);
}

/* rt__cuda_pack_iter's exact_strides: out_strides[0][OUT, IN, IDX], the
   one kept dim's strides that exact rows step by, in the argument block's
   head (launch.h); 0 with no kept dim. */
static void test_exact_strides(void **state) {
    (void)state;
    const int64_t shape[] = {100}, strides[] = {4};
    rt__iter it = iter_of(1, shape, strides);
    it.strides[RT__ITER_IN][1] = 400;
    it.strides[RT__ITER_OUT][1] = 12;
    it.strides[RT__ITER_IDX][1] = 24;
    it.elem_size[RT__ITER_IDX] = 8;
    rt__kernel_args a;
    memset(&a, 0x5a, sizeof a);
    rt__cuda_pack_iter(&it, &a);
    assert_int_equal(a.out_ndim, 1);
    for (int s = 0; s < 3; s++)
        assert_int_equal(a.exact_strides[s], a.out_strides[0][s]);
    assert_int_equal(a.exact_strides[RT__OUT_SLOT_OUT], 12);
    assert_int_equal(a.exact_strides[RT__OUT_SLOT_IN], 400);
    assert_int_equal(a.exact_strides[RT__OUT_SLOT_IDX], 24);

    /* A full reduction: no kept dim. */
    it.ndim = 1;
    it.num_outputs = 1;
    memset(&a, 0x5a, sizeof a);
    rt__cuda_pack_iter(&it, &a);
    assert_int_equal(a.out_ndim, 0);
    for (int s = 0; s < 3; s++)
        assert_int_equal(a.exact_strides[s], 0);
}

/* d024 whole: [32,32,16,32,128] f32 over (0, 2, 4), reduced [128, 16,
   32] (4 B, 16 KiB, 8 MiB), kept [32, 32] (512 B and 256 KiB in the
   input; 4 B and 128 B in the output), and its launch: 1024 blocks of 32
   x 16, input_mult {1, 32}, 512 vectors of 4 a step. */
static rt__iter d024_iter(void) {
    const int64_t shape[3] = {128, 16, 32}, strides[3] = {4, 16384, 8388608};
    rt__iter it = iter_of(3, shape, strides);
    it.ndim = 5;
    it.shape[3] = 32;
    it.shape[4] = 32;
    it.strides[RT__ITER_IN][3] = 512;
    it.strides[RT__ITER_IN][4] = 262144;
    it.strides[RT__ITER_OUT][3] = 4;
    it.strides[RT__ITER_OUT][4] = 128;
    it.num_outputs = 1024;
    return it;
}

static rt__launch_config d024_config(void) {
    rt__launch_config c = blocks_of(512, 32, 16, 1, 1, 32, 0);
    c.grid[0] = 1024;
    c.num_threads = 512;
    c.ctas_per_output = 1;
    c.step_output = 1;
    c.output_vec_size = 1;
    c.input_vec_size = 4;
    return c;
}

/* The general kernel's arguments for it and c as the executor packs a
   call's only piece. */
static rt__kernel_args packed(const rt__iter *it, const rt__launch_config *c) {
    rt__kernel_args a;
    memset(&a, 0x5a, sizeof a);
    rt__cuda_pack_piece(it, c, 4, false, true, true, &a);
    return a;
}

/* The LEAN walk kernel's class (rt__cuda_lean_walk_fits) and its block
   (rt__cuda_pack_lean): d024 takes it, with the uniform walk's terms and
   the two kept digits' strides; each condition broken alone leaves it. */
static void test_lean_class(void **state) {
    (void)state;
    rt__iter it = d024_iter();
    rt__launch_config c = d024_config();
    rt__kernel_args a = packed(&it, &c);
    assert_true(rt__cuda_lean_walk_fits(&c, &a));
    rt__walk_args w;
    memset(&w, 0x5a, sizeof w);
    rt__cuda_pack_lean(&a, &w);
    assert_ptr_equal(w.in, a.in);
    assert_ptr_equal(w.out, a.out);
    assert_int_equal(w.lin[0], 16);
    assert_int_equal(w.lin[1], 16384);
    assert_int_equal(w.step, 8388608);
    assert_int_equal(w.count, 32);
    assert_int_equal(w.div0.divisor, 32);
    assert_int_equal(w.in_strides[0], 512);
    assert_int_equal(w.in_strides[1], 262144);
    assert_int_equal(w.out_strides[0], 4);
    assert_int_equal(w.out_strides[1], 128);
    assert_int_equal(w.out_dtype, a.out_dtype);
    assert_int_equal(w.op_mode, a.op_mode);
    assert_true(w.param0 == a.param0 && w.param1 == a.param1);

    /* One kept dim: digit 1 is 0 (div0 its extent, stride 0). */
    rt__iter one = it;
    one.ndim = 4;
    one.num_outputs = 32;
    rt__launch_config c1 = d024_config();
    c1.grid[0] = 32;
    rt__kernel_args a1 = packed(&one, &c1);
    assert_true(rt__cuda_lean_walk_fits(&c1, &a1));
    rt__cuda_pack_lean(&a1, &w);
    assert_int_equal(w.div0.divisor, 32);
    assert_int_equal(w.in_strides[1], 0);
    assert_int_equal(w.out_strides[1], 0);

    /* A split piece (first or last 0, an ACC operand), an index operand. */
    rt__kernel_args b = a;
    b.first = 0;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));
    b = a;
    b.last = 0;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));
    b = a;
    b.acc = (char *)&b;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));
    b = a;
    b.idx = (char *)&b;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));
    /* Walks off: every offset divided. */
    b = a;
    b.walk = 0;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));

    /* 24 steps a thread (dim 2 of 24): not whole windows of 16. */
    rt__iter it24 = it;
    it24.shape[2] = 24;
    it24.inputs_per_output = 128 * 16 * 24;
    rt__kernel_args a24 = packed(&it24, &c);
    assert_int_equal(a24.walk_count, 24);
    assert_false(rt__cuda_lean_walk_fits(&c, &a24));

    /* 256-thread blocks: digit 1 moves (period 2): not of the class. */
    rt__launch_config c256 = d024_config();
    c256.block[1] = 8;
    c256.num_threads = 256;
    c256.step_input = 256;
    rt__kernel_args a256 = packed(&it, &c256);
    assert_int_not_equal(a256.walk_count, 0);
    assert_int_equal(a256.walk_period, 2);
    assert_false(rt__cuda_lean_walk_fits(&c256, &a256));

    /* Blocks split over grid.y; lanes or rows not splitting the reduced
       index; outputs a thread or a block; a chunked split; the strided
       path; a grid that does not cover one output a block. */
    rt__launch_config d = d024_config();
    d.grid[1] = 2;
    d.ctas_per_output = 2;
    d.input_mult[2] = 256;
    b = packed(&it, &d);
    assert_false(rt__cuda_lean_walk_fits(&d, &b));
    d = d024_config();
    d.input_mult[1] = 0;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.output_vec_size = 2;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.output_mult[1] = 1;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.step_output = 2;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.input_chunked = true;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.vectorize_input = false;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.grid[0] = 512;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    d = d024_config();
    d.kernel = RT__KERNEL_ROWS;
    assert_false(rt__cuda_lean_walk_fits(&d, &a));
    /* Three kept dims. */
    b = a;
    b.out_ndim = 3;
    assert_false(rt__cuda_lean_walk_fits(&c, &b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_units),
        cmocka_unit_test(test_two_slowest_dims),
        cmocka_unit_test(test_two_dims_wrap),
        cmocka_unit_test(test_two_dims_vectors),
        cmocka_unit_test(test_no_walk),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_uniform_wraps),
        cmocka_unit_test(test_exact_strides),
        cmocka_unit_test(test_lean_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
