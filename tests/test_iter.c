/*
 * src/iter, building: flip, reorder, coalesce, drop, checked against the
 * worked examples of DESIGN.md section 4 (PyTorch's TensorIterator results),
 * against a brute-force enumeration of the tensors themselves, and the JSON
 * text. The split lives in test_iter_split.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iter.h"

/* A fake input address: never dereferenced, only moved and compared. */
#define FAKE_BASE ((uintptr_t)0x40000000u)

static uint32_t mask_of(const int *dims, int ndims) {
    uint32_t m = 0;
    for (int i = 0; i < ndims; i++)
        m |= 1u << dims[i];
    return m;
}

/* Row-major element strides of `shape` (empty dims count as extent 1, as
   PyTorch's contiguous strides do). */
static void contiguous(int ndim, const int64_t *shape, int64_t *strides) {
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d] > 1 ? shape[d] : 1;
    }
}

/* The output of reducing `in` over mask, contiguous, at the input's rank:
   0 on reduced dims (what validation gives the iter as out_full). */
static void contiguous_out_full(const rt_tensor *in, uint32_t mask, int64_t *out_full) {
    int64_t s = 1;
    for (int d = in->ndim - 1; d >= 0; d--) {
        if (mask >> d & 1u) {
            out_full[d] = 0;
        } else {
            out_full[d] = s;
            s *= in->shape[d] > 1 ? in->shape[d] : 1;
        }
    }
}

static rt_tensor tensor(rt_dtype dtype, int ndim, const int64_t *shape, const int64_t *strides) {
    rt_tensor t;
    memset(&t, 0, sizeof t);
    t.data = (void *)FAKE_BASE;
    t.dtype = dtype;
    t.ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        t.shape[d] = shape[d];
        t.strides[d] = strides[d];
    }
    return t;
}

/* Builds the iter of an f32 reduction of `in` into a contiguous f32 output. */
static void build(const rt_tensor *in, uint32_t mask, bool tracks, rt__iter *it) {
    int64_t out_full[RT_MAX_DIMS];
    contiguous_out_full(in, mask, out_full);
    rt__iter_build_raw(in, out_full, 4, mask, tracks ? RT__INDEX_LOGICAL : RT__INDEX_NONE, it);
}

static void expect_iter(const rt__iter *it, int ndim, const int64_t *shape, const int64_t *in_strides,
                        const int64_t *out_strides, int num_reduce_dims) {
    assert_int_equal(it->ndim, ndim);
    assert_int_equal(it->num_reduce_dims, num_reduce_dims);
    for (int d = 0; d < ndim; d++) {
        assert_int_equal(it->shape[d], shape[d]);
        assert_int_equal(it->strides[RT__ITER_IN][d], in_strides[d]);
        assert_int_equal(it->strides[RT__ITER_OUT][d], out_strides[d]);
    }
}

/* Base addresses relative to where the tensors start. */
static int64_t in_shift(const rt__iter *it) {
    return (int64_t)((uintptr_t)it->data[RT__ITER_IN] - FAKE_BASE);
}
static int64_t out_shift(const rt__iter *it) {
    return (int64_t)(uintptr_t)it->data[RT__ITER_OUT];
}

static void test_design_example_1(void **state) {
    (void)state;
    int64_t shape[] = {16, 128, 64, 128}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){1}, 1), false, &it);
    expect_iter(&it, 3, (int64_t[]){128, 8192, 16}, (int64_t[]){32768, 4, 4194304},
                (int64_t[]){0, 4, 32768}, 1);
    assert_int_equal(it.num_outputs, 16 * 64 * 128);
    assert_int_equal(it.inputs_per_output, 128);
    assert_int_equal(in_shift(&it), 0);
    assert_int_equal(rt__iter_noperands(&it), 2);
    assert_false(it.tracks_index);
    assert_int_equal(it.index_base, 0);
}

static void test_design_example_2(void **state) {
    (void)state;
    int64_t shape[] = {8, 32, 64, 128}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){1}, 1), false, &it);
    expect_iter(&it, 3, (int64_t[]){32, 8192, 8}, (int64_t[]){32768, 4, 1048576},
                (int64_t[]){0, 4, 32768}, 1);
}

static void test_full_reduction_is_one_dim(void **state) {
    (void)state;
    int64_t shape[] = {2, 3, 4, 5}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, 0xfu, false, &it);
    expect_iter(&it, 1, (int64_t[]){120}, (int64_t[]){4}, (int64_t[]){0}, 1);
    assert_int_equal(it.num_outputs, 1);
    assert_int_equal(it.inputs_per_output, 120);
    /* Index order is the logical order here too: still one dim. */
    build(&in, 0xfu, true, &it);
    expect_iter(&it, 1, (int64_t[]){120}, (int64_t[]){4}, (int64_t[]){0}, 1);
}

/* rt__iter_is_one_run: one output over one contiguous run (the TINY and
   STREAM kernels' iteration spaces), and not rows, a strided run or a
   partial reduction. */
static void test_is_one_run(void **state) {
    (void)state;
    int64_t shape[] = {2, 3, 4, 5}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, 0xfu, false, &it);
    assert_true(rt__iter_is_one_run(&it));
    build(&in, 0x8u, false, &it); /* rows of 5: 24 outputs */
    assert_false(rt__iter_is_one_run(&it));
    int64_t n[] = {16}, two[] = {2};
    rt_tensor strided = tensor(RT_F32, 1, n, two);
    build(&strided, 0x1u, false, &it);
    assert_int_equal(it.num_outputs, 1);
    assert_false(rt__iter_is_one_run(&it));
}

static void test_transposed_input(void **state) {
    (void)state;
    /* torch.empty(16384, 8192).t(): reduce dim 0, the contiguous one. */
    int64_t shape[] = {8192, 16384}, st[] = {1, 8192};
    rt_tensor in = tensor(RT_F32, 2, shape, st);
    rt__iter it;
    build(&in, 1u, false, &it);
    expect_iter(&it, 2, (int64_t[]){8192, 16384}, (int64_t[]){4, 32768}, (int64_t[]){0, 4}, 1);
}

static void test_sliced_input(void **state) {
    (void)state;
    /* torch.empty(16384, 8192)[:, ::2]: reduce dim 1. */
    int64_t shape[] = {16384, 4096}, st[] = {8192, 2};
    rt_tensor in = tensor(RT_F32, 2, shape, st);
    rt__iter it;
    build(&in, 2u, false, &it);
    expect_iter(&it, 2, (int64_t[]){4096, 16384}, (int64_t[]){8, 32768}, (int64_t[]){0, 4}, 1);
}

static void test_two_reduced_dims(void **state) {
    (void)state;
    int64_t shape[] = {32, 256, 64, 256}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){0, 2}, 2), false, &it);
    expect_iter(&it, 4, (int64_t[]){64, 32, 256, 256}, (int64_t[]){1024, 16777216, 4, 65536},
                (int64_t[]){0, 0, 4, 1024}, 2);
    assert_int_equal(it.inputs_per_output, 64 * 32);
    assert_int_equal(it.num_outputs, 256 * 256);
}

static void test_odd_extents_outer_dims(void **state) {
    (void)state;
    int64_t shape[] = {5, 7, 11, 13}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){0, 3}, 2), false, &it);
    expect_iter(&it, 3, (int64_t[]){13, 5, 77}, (int64_t[]){4, 4004, 52}, (int64_t[]){0, 0, 4}, 2);
}

static void test_tracks_index_keeps_logical_order(void **state) {
    (void)state;
    /* Memory order: dim 1 fastest, then dim 2, then dim 0. */
    int64_t shape[] = {5, 6, 7}, st[] = {42, 1, 6};
    rt_tensor in = tensor(RT_F32, 3, shape, st);
    rt__iter it;
    build(&in, 7u, false, &it); /* by stride: 1, 2, 0 coalesce into one */
    expect_iter(&it, 1, (int64_t[]){210}, (int64_t[]){4}, (int64_t[]){0}, 1);
    build(&in, 7u, true, &it); /* by logical position: 2, 1, 0 */
    expect_iter(&it, 3, (int64_t[]){7, 6, 5}, (int64_t[]){24, 4, 168}, (int64_t[]){0, 0, 0}, 3);
    assert_true(it.tracks_index);

    /* Kept dims are still ordered by output stride when tracking. */
    build(&in, 4u, true, &it);
    expect_iter(&it, 3, (int64_t[]){7, 6, 5}, (int64_t[]){24, 4, 168}, (int64_t[]){0, 4, 24}, 1);
}

static void test_negative_strides(void **state) {
    (void)state;
    /* A [4,6] f32 view walking backwards in both dims; out is [4] (dim 1
       reduced), contiguous. */
    int64_t shape[] = {4, 6}, st[] = {-6, -1};
    rt_tensor in = tensor(RT_F32, 2, shape, st);
    rt__iter it;
    build(&in, 2u, false, &it);
    expect_iter(&it, 2, (int64_t[]){6, 4}, (int64_t[]){4, 24}, (int64_t[]){0, -4}, 1);
    assert_int_equal(in_shift(&it), 3 * -24 + 5 * -4);
    assert_int_equal(out_shift(&it), 3 * 4);

    /* Tracking an index: the reduced dim keeps walking backwards. */
    build(&in, 2u, true, &it);
    expect_iter(&it, 2, (int64_t[]){6, 4}, (int64_t[]){-4, 24}, (int64_t[]){0, -4}, 1);
    assert_int_equal(in_shift(&it), 3 * -24);
    assert_int_equal(out_shift(&it), 3 * 4);

    /* Flipping both dims lets a reversed contiguous tensor coalesce. */
    build(&in, 3u, false, &it);
    expect_iter(&it, 1, (int64_t[]){24}, (int64_t[]){4}, (int64_t[]){0}, 1);
    assert_int_equal(in_shift(&it), -23 * 4);
}

static void test_broadcast_dims(void **state) {
    (void)state;
    int64_t shape[] = {4, 3}, reduced_bcast[] = {0, 1}, kept_bcast[] = {1, 0};
    rt__iter it;
    rt_tensor in = tensor(RT_F32, 2, shape, reduced_bcast);
    build(&in, 1u, false, &it);
    expect_iter(&it, 2, (int64_t[]){4, 3}, (int64_t[]){0, 4}, (int64_t[]){0, 4}, 1);
    in = tensor(RT_F32, 2, shape, kept_bcast);
    build(&in, 1u, false, &it);
    expect_iter(&it, 2, (int64_t[]){4, 3}, (int64_t[]){4, 0}, (int64_t[]){0, 4}, 1);
    /* Two broadcast reduced dims coalesce: 0 * 3 == 0. */
    int64_t shape3[] = {2, 3, 5}, st3[] = {0, 0, 1};
    in = tensor(RT_F32, 3, shape3, st3);
    build(&in, 3u, false, &it);
    expect_iter(&it, 2, (int64_t[]){6, 5}, (int64_t[]){0, 4}, (int64_t[]){0, 4}, 1);
}

static void test_equal_strides_smaller_extent_first(void **state) {
    (void)state;
    /* Overlapping input (allowed for inputs): both dims have stride 4. */
    int64_t shape[] = {2, 3}, st[] = {1, 1};
    rt_tensor in = tensor(RT_F32, 2, shape, st);
    rt__iter it;
    build(&in, 3u, false, &it);
    expect_iter(&it, 2, (int64_t[]){2, 3}, (int64_t[]){4, 4}, (int64_t[]){0, 0}, 2);
}

static void test_extent_one_dims_dropped(void **state) {
    (void)state;
    int64_t shape[] = {1, 5, 1, 3}, st[] = {99, 3, 77, 1};
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){2}, 1), false, &it); /* the reduced dim has extent 1 */
    expect_iter(&it, 1, (int64_t[]){15}, (int64_t[]){4}, (int64_t[]){4}, 0);
    assert_int_equal(it.inputs_per_output, 1);
    assert_int_equal(it.num_outputs, 15);

    int64_t ones[] = {1, 1, 1};
    in = tensor(RT_F32, 3, ones, ones);
    build(&in, 5u, true, &it);
    assert_int_equal(it.ndim, 0);
    assert_int_equal(it.num_outputs, 1);
    assert_int_equal(it.inputs_per_output, 1);
}

static void test_zero_size(void **state) {
    (void)state;
    int64_t shape[] = {3, 0, 4}, st[3];
    contiguous(3, shape, st);
    rt_tensor in = tensor(RT_F32, 3, shape, st);
    rt__iter it;
    /* An empty input's strides are dropped (it reads nothing, and they
       need not describe memory). */
    build(&in, 2u, false, &it); /* empty reduction, 12 outputs */
    expect_iter(&it, 2, (int64_t[]){0, 12}, (int64_t[]){0, 0}, (int64_t[]){0, 4}, 1);
    assert_int_equal(it.num_outputs, 12);
    assert_int_equal(it.inputs_per_output, 0);

    build(&in, 5u, false, &it); /* no outputs, 12 inputs each */
    expect_iter(&it, 2, (int64_t[]){12, 0}, (int64_t[]){0, 0}, (int64_t[]){0, 4}, 1);
    assert_int_equal(it.num_outputs, 0);
    assert_int_equal(it.inputs_per_output, 12);

    /* Strides of an empty tensor need not be addressable: no flip. */
    int64_t neg[] = {-4, -4, -1};
    in = tensor(RT_F32, 3, shape, neg);
    build(&in, 2u, false, &it);
    assert_int_equal(in_shift(&it), 0);
    assert_int_equal(out_shift(&it), 0);

    /* Nor need they be small: nothing may overflow (UBSan watches). */
    int64_t huge_shape[] = {0, 5, (int64_t)1 << 40, (int64_t)1 << 40};
    int64_t huge[] = {INT64_MAX / 2, INT64_MIN, 0, 0};
    in = tensor(RT_F64, 4, huge_shape, huge);
    build(&in, 0xeu, false, &it);
    assert_int_equal(it.num_outputs, 0);
    assert_int_equal(it.inputs_per_output, INT64_MAX); /* saturated, never read */
    assert_true(rt__iter_fits(&it, 0)); /* no element, nothing to index */
}

static void test_rank_zero(void **state) {
    (void)state;
    rt_tensor in = tensor(RT_F64, 0, NULL, NULL);
    rt__iter it;
    rt__iter_build_raw(&in, NULL, 8, 0, RT__INDEX_NONE, &it);
    assert_int_equal(it.ndim, 0);
    assert_int_equal(it.num_reduce_dims, 0);
    assert_int_equal(it.num_outputs, 1);
    assert_int_equal(it.inputs_per_output, 1);
    assert_int_equal(it.elem_size[RT__ITER_IN], 8);
    assert_int_equal(it.elem_size[RT__ITER_OUT], 8);
    assert_ptr_equal(it.data[RT__ITER_IN], (char *)FAKE_BASE);
    assert_true(rt__iter_fits(&it, 1));
}

static void test_add_acc(void **state) {
    (void)state;
    int64_t shape[] = {5, 7, 11, 13}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, mask_of((int[]){0, 3}, 2), false, &it);
    char *acc = (char *)(uintptr_t)0x1000;
    assert_int_equal(rt__iter_add_acc(&it, acc, 8), 77 * 8);
    assert_int_equal(rt__iter_noperands(&it), 3);
    assert_ptr_equal(it.data[RT__ITER_ACC], acc);
    assert_int_equal(it.elem_size[RT__ITER_ACC], 8);
    assert_int_equal(it.strides[RT__ITER_ACC][0], 0);
    assert_int_equal(it.strides[RT__ITER_ACC][1], 0);
    assert_int_equal(it.strides[RT__ITER_ACC][2], 8);

    /* Two kept dims that do not coalesce: compact in iter order. */
    int64_t shape2[] = {6, 4, 5}, st2[] = {48, 1, 8};
    in = tensor(RT_F32, 3, shape2, st2);
    build(&in, 2u, false, &it);
    expect_iter(&it, 3, (int64_t[]){4, 5, 6}, (int64_t[]){4, 32, 192}, (int64_t[]){0, 4, 20}, 1);
    assert_int_equal(rt__iter_add_acc(&it, acc, 4), 30 * 4);
    assert_int_equal(it.strides[RT__ITER_ACC][1], 4);
    assert_int_equal(it.strides[RT__ITER_ACC][2], 20);
}

static void test_to_json(void **state) {
    (void)state;
    int64_t shape[] = {16, 128, 64, 128}, st[4];
    contiguous(4, shape, st);
    rt_tensor in = tensor(RT_F32, 4, shape, st);
    rt__iter it;
    build(&in, 2u, false, &it);
    const char *want = "{\"iter_shape\":[128,8192,16],\"iter_strides\":[[0,4,32768],"
                       "[32768,4,4194304]],\"num_reduce_dims\":1,\"num_outputs\":131072,"
                       "\"inputs_per_output\":128}";
    char buf[512];
    int n = rt__iter_to_json(&it, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));

    /* Truncation: snprintf's convention, always terminated. */
    char small[20];
    memset(small, 'x', sizeof small);
    assert_int_equal(rt__iter_to_json(&it, small, sizeof small), (int)strlen(want));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, want, sizeof small - 1);
    assert_int_equal(rt__iter_to_json(&it, NULL, 0), (int)strlen(want));

    /* The ACC operand joins the strides; a 0-d iter has empty lists. */
    rt__iter_add_acc(&it, NULL, 4);
    n = rt__iter_to_json(&it, buf, sizeof buf);
    assert_non_null(strstr(buf, "[32768,4,4194304],[0,4,32768]]"));
    rt_tensor scalar = tensor(RT_F32, 0, NULL, NULL);
    rt__iter_build_raw(&scalar, NULL, 4, 0, RT__INDEX_NONE, &it);
    rt__iter_to_json(&it, buf, sizeof buf);
    assert_string_equal(buf, "{\"iter_shape\":[],\"iter_strides\":[[],[]],\"num_reduce_dims\":0,"
                             "\"num_outputs\":1,\"inputs_per_output\":1}");
}

/* rt__iter_build from a problem: the indices operand comes along, ordered
   after the values output, and max with indices tracks the index. */
static void test_build_from_problem(void **state) {
    (void)state;
    int64_t vals[4], idx[3];
    rt__problem pb;
    memset(&pb, 0, sizeof pb);
    pb.op = RT_OP_MAX;
    pb.has_indices = true;
    int64_t shape[] = {4, 6, 3}, st[] = {1, 12, 4}; /* dim 0 fastest in memory */
    pb.in = tensor(RT_F32, 3, shape, st);
    pb.reduce_mask = 3u; /* reduce dims 0 and 1; out is [3] */
    pb.out_full = tensor(RT_F32, 3, (int64_t[]){1, 1, 3}, (int64_t[]){0, 0, 1});
    pb.out_full.data = vals;
    pb.idx_full = tensor(RT_I64, 3, (int64_t[]){1, 1, 3}, (int64_t[]){0, 0, 1});
    pb.idx_full.data = idx;
    rt__iter it;
    rt__iter_build(&pb, false, &it);
    assert_true(it.tracks_index);
    assert_int_equal(rt__iter_noperands(&it), 3);
    /* Logical order for the reduced dims (1 then 0), not memory order. */
    expect_iter(&it, 3, (int64_t[]){6, 4, 3}, (int64_t[]){48, 4, 16}, (int64_t[]){0, 0, 4}, 2);
    assert_int_equal(it.index_strides[0], 1);
    assert_int_equal(it.index_strides[1], 6);
    assert_int_equal(it.index_strides[2], 0);
    assert_false(rt__iter_index_keyed(&it));
    /* By memory (the CUDA backend's): dim 0 first, a logical weight of 6
       a step, so the iter is keyed. */
    rt__iter_build(&pb, true, &it);
    expect_iter(&it, 3, (int64_t[]){4, 6, 3}, (int64_t[]){4, 48, 16}, (int64_t[]){0, 0, 4}, 2);
    assert_int_equal(it.index_strides[0], 6);
    assert_int_equal(it.index_strides[1], 1);
    assert_true(rt__iter_index_keyed(&it));
    char js[512];
    rt__iter_to_json(&it, js, sizeof js);
    assert_non_null(strstr(js, ",\"index_strides\":[6,1,0],\"index_base\":0,\"index_keyed\":true}"));
    assert_int_equal(it.strides[RT__ITER_IDX][2], 8);
    assert_int_equal(it.elem_size[RT__ITER_IDX], 8);
    assert_ptr_equal(it.data[RT__ITER_IDX], (char *)idx);
    assert_ptr_equal(it.data[RT__ITER_OUT], (char *)vals);

    /* amax without indices sorts by stride: dims 0 and 1 then coalesce. */
    pb.has_indices = false;
    rt__iter_build(&pb, true, &it);
    assert_false(it.tracks_index);
    assert_int_equal(rt__iter_noperands(&it), 2);
    expect_iter(&it, 3, (int64_t[]){4, 6, 3}, (int64_t[]){4, 48, 16}, (int64_t[]){0, 0, 4}, 2);
}

/* ---- brute force: the iter enumerates exactly the tensors' pairs ---- */

typedef struct pair {
    int64_t out, in, index;
} pair;

static int cmp_pair(const void *a, const void *b) {
    const pair *x = a, *y = b;
    if (x->out != y->out)
        return x->out < y->out ? -1 : 1;
    if (x->in != y->in)
        return x->in < y->in ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* Every (output offset, input offset, logical reduced index) that the
   tensors themselves define, from the multi-index over the input's dims. */
static int reference_pairs(const rt_tensor *in, const int64_t *out_full, int out_size, uint32_t mask,
                           pair *p) {
    int64_t numel = 1, esize = (int64_t)rt_dtype_size(in->dtype);
    for (int d = 0; d < in->ndim; d++)
        numel *= in->shape[d];
    for (int64_t lin = 0; lin < numel; lin++) {
        int64_t rest = lin, reduced_index = 0, weight = 1;
        p[lin] = (pair){0, 0, 0};
        for (int d = in->ndim - 1; d >= 0; d--) {
            int64_t i = rest % in->shape[d];
            rest /= in->shape[d];
            p[lin].in += i * in->strides[d] * esize;
            if (mask >> d & 1u) {
                reduced_index += i * weight;
                weight *= in->shape[d];
            } else {
                p[lin].out += i * out_full[d] * out_size;
            }
        }
        p[lin].index = reduced_index;
    }
    return (int)numel;
}

/* The same from the iter: offsets from the original bases, and the linear
   index over the reduced dims (dim 0 fastest). */
static int iter_pairs(const rt__iter *it, pair *p) {
    int64_t numel = it->num_outputs * it->inputs_per_output;
    for (int64_t lin = 0; lin < numel; lin++) {
        int64_t rest = lin, index = 0, weight = 1;
        p[lin] = (pair){out_shift(it), in_shift(it), 0};
        for (int d = 0; d < it->ndim; d++) {
            int64_t i = rest % it->shape[d];
            rest /= it->shape[d];
            p[lin].out += i * it->strides[RT__ITER_OUT][d];
            p[lin].in += i * it->strides[RT__ITER_IN][d];
            if (d < it->num_reduce_dims) {
                index += i * (it->tracks_index ? it->index_strides[d] : weight);
                weight *= it->shape[d];
            }
        }
        p[lin].index = it->index_base + index;
    }
    return (int)numel;
}

static void test_random_matches_brute_force(void **state) {
    (void)state;
    static const rt_dtype dtypes[] = {RT_F32, RT_F16, RT_F64, RT_I8};
    pair ref[1024], got[1024];
    rng_state = 12345;
    for (int trial = 0; trial < 4000; trial++) {
        int ndim = (int)rnd(6);
        int64_t shape[RT_MAX_DIMS], strides[RT_MAX_DIMS], out_full[RT_MAX_DIMS];
        int order[RT_MAX_DIMS];
        for (int d = 0; d < ndim; d++) {
            shape[d] = 1 + rnd(4);
            order[d] = d;
        }
        /* Input: dims laid out in a random memory order, some sliced, some
           reversed, some broadcast. */
        for (int d = ndim - 1; d > 0; d--) {
            int j = (int)rnd((uint32_t)d + 1), t = order[d];
            order[d] = order[j];
            order[j] = t;
        }
        int64_t step = 1;
        for (int k = 0; k < ndim; k++) {
            int d = order[k];
            strides[d] = step * (rnd(4) == 0 ? 2 : 1);
            step = strides[d] * shape[d];
            if (rnd(4) == 0)
                strides[d] = -strides[d];
            if (rnd(7) == 0)
                strides[d] = 0;
        }
        uint32_t mask = rnd(1u << ndim);
        /* none, the CPU's logical order or CUDA's order by memory */
        int mode = (int)rnd(3);
        bool tracks = mode != RT__INDEX_NONE;
        rt_tensor in = tensor(dtypes[rnd(4)], ndim, shape, strides);
        /* Output: contiguous over kept dims in a random order, maybe reversed. */
        step = 1;
        for (int k = 0; k < ndim; k++) {
            int d = order[(k + 1) % ndim];
            out_full[d] = 0;
            if (mask >> d & 1u)
                continue;
            out_full[d] = rnd(3) == 0 ? -step : step;
            step *= shape[d];
        }
        int out_size = rnd(2) ? 4 : 8;
        rt__iter it;
        rt__iter_build_raw(&in, out_full, out_size, mask, mode, &it);
        if (mode == RT__INDEX_LOGICAL)
            assert_false(rt__iter_index_keyed(&it));

        int n = reference_pairs(&in, out_full, out_size, mask, ref);
        assert_int_equal(iter_pairs(&it, got), n);
        for (int i = 0; i < n && !tracks; i++)
            ref[i].index = got[i].index = 0; /* only index-tracking iters promise it */
        qsort(ref, (size_t)n, sizeof *ref, cmp_pair);
        qsort(got, (size_t)n, sizeof *got, cmp_pair);
        assert_memory_equal(ref, got, (size_t)n * sizeof *ref);

        /* Structure: reduced dims first, no extent 1, strides 0 on reduced
           output dims, nothing left to coalesce, the flip applied. */
        for (int d = 0; d < it.ndim; d++) {
            assert_true(it.shape[d] > 1);
            if (d < it.num_reduce_dims)
                assert_int_equal(it.strides[RT__ITER_OUT][d], 0);
            else
                assert_int_not_equal(it.strides[RT__ITER_OUT][d], 0);
            if (!(tracks && d < it.num_reduce_dims))
                assert_true(it.strides[RT__ITER_IN][d] >= 0);
            if (d > 0 && (d < it.num_reduce_dims) == (d - 1 < it.num_reduce_dims))
                assert_false(it.shape[d - 1] * it.strides[RT__ITER_IN][d - 1] ==
                                 it.strides[RT__ITER_IN][d] &&
                             it.shape[d - 1] * it.strides[RT__ITER_OUT][d - 1] ==
                                 it.strides[RT__ITER_OUT][d] &&
                             it.shape[d - 1] * it.index_strides[d - 1] == it.index_strides[d]);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_example_1),
        cmocka_unit_test(test_design_example_2),
        cmocka_unit_test(test_full_reduction_is_one_dim),
        cmocka_unit_test(test_is_one_run),
        cmocka_unit_test(test_transposed_input),
        cmocka_unit_test(test_sliced_input),
        cmocka_unit_test(test_two_reduced_dims),
        cmocka_unit_test(test_odd_extents_outer_dims),
        cmocka_unit_test(test_tracks_index_keeps_logical_order),
        cmocka_unit_test(test_negative_strides),
        cmocka_unit_test(test_broadcast_dims),
        cmocka_unit_test(test_equal_strides_smaller_extent_first),
        cmocka_unit_test(test_extent_one_dims_dropped),
        cmocka_unit_test(test_zero_size),
        cmocka_unit_test(test_rank_zero),
        cmocka_unit_test(test_add_acc),
        cmocka_unit_test(test_to_json),
        cmocka_unit_test(test_build_from_problem),
        cmocka_unit_test(test_random_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
