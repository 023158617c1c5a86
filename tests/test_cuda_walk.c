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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_units),
        cmocka_unit_test(test_two_slowest_dims),
        cmocka_unit_test(test_two_dims_wrap),
        cmocka_unit_test(test_two_dims_vectors),
        cmocka_unit_test(test_no_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
