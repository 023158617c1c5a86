/*
 * src/iter, 32-bit indexing: rt__iter_fits and rt__iter_for_each_piece.
 * The split is checked by brute force on random small iters with small
 * limits: the pieces must enumerate exactly the original iter's elements,
 * each fit the limit, come in reduce order per output with the right
 * first/last flags, keep each output's ACC slot, and (index-tracking iters)
 * give every element its logical index through index_base.
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

#define FAKE_BASE ((uintptr_t)0x40000000u)
#define FAKE_ACC ((uintptr_t)0x80000000u)

/* ---- recording the pieces ---- */

typedef struct recorded {
    rt__iter piece;
    bool first, last;
} recorded;

typedef struct recorder {
    recorded *v;
    int n, cap;
    int fail_at; /* return an error on this call (1-based); 0 never */
} recorder;

static rt_status record(void *user, const rt__iter *piece, bool first, bool last) {
    recorder *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->v = realloc(r->v, (size_t)r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n++] = (recorded){*piece, first, last};
    return r->n == r->fail_at ? RT_ERR_CUDA : RT_OK;
}

/* ---- enumerating an iter ---- */

/* One element of an iter: each operand's byte offset from its ORIGINAL
   base (before any split), and its logical index: index_base + its digits
   dotted with index_strides for an index-tracking iter, else the
   piece-local linear index over the reduced dims (dim 0 fastest). */
typedef struct point {
    int64_t off[RT__ITER_MAX_OPERANDS];
    int64_t index;
} point;

static int cmp_point(const void *a, const void *b) {
    const point *x = a, *y = b;
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
        if (x->off[op] != y->off[op])
            return x->off[op] < y->off[op] ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int64_t numel_of(const rt__iter *it) {
    int64_t n = 1;
    for (int d = 0; d < it->ndim; d++)
        n *= it->shape[d];
    return n;
}

/* Fills p with the iter's elements; reach[op][0/1] get the lowest and
   highest offset from the piece's own base. Returns the count. */
static int64_t enumerate(const rt__iter *it, char *const *origin, point *p,
                         int64_t reach[][2]) {
    int64_t n = numel_of(it);
    for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
        reach[op][0] = reach[op][1] = 0;
    for (int64_t lin = 0; lin < n; lin++) {
        int64_t rest = lin, index = 0, weight = 1, local[RT__ITER_MAX_OPERANDS] = {0};
        for (int d = 0; d < it->ndim; d++) {
            int64_t i = rest % it->shape[d];
            rest /= it->shape[d];
            for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
                local[op] += i * it->strides[op][d];
            if (d < it->num_reduce_dims) {
                index += i * (it->tracks_index ? it->index_strides[d] : weight);
                weight *= it->shape[d];
            }
        }
        for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++) {
            bool present = it->elem_size[op] != 0;
            int64_t base = (int64_t)((uintptr_t)it->data[op] - (uintptr_t)origin[op]);
            p[lin].off[op] = present ? base + local[op] : 0;
            if (local[op] < reach[op][0])
                reach[op][0] = local[op];
            if (local[op] > reach[op][1])
                reach[op][1] = local[op];
        }
        p[lin].index = it->index_base + index;
    }
    return n;
}

static int64_t find_output(const int64_t *outs, int64_t n, int64_t off) {
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (outs[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    assert_int_equal(outs[lo], off);
    return lo;
}

/* ---- the brute-force check of one split ---- */

/* Splits `root` at `limit` and checks every promise of the contract. The
   IDX slot of root must be free: it is filled with a probe whose offset is
   the root's logical index (index_strides) when it tracks one, else its
   linear reduced index, so each element carries where it was. */
static void check_split(rt__iter *root, int64_t limit, int acc_size) {
    int64_t n = numel_of(root);
    assert_true(n > 0);
    assert_int_equal(root->elem_size[RT__ITER_IDX], 0);
    root->elem_size[RT__ITER_IDX] = 1;
    root->data[RT__ITER_IDX] = NULL;
    for (int d = 0, w = 1; d < root->ndim; d++) {
        const bool reduced = d < root->num_reduce_dims;
        root->strides[RT__ITER_IDX][d] =
            !reduced ? 0 : root->tracks_index ? root->index_strides[d] : w;
        w *= reduced ? (int)root->shape[d] : 1;
    }
    if (acc_size)
        assert_int_equal(rt__iter_add_acc(root, (char *)FAKE_ACC, acc_size),
                         root->num_outputs * acc_size);
    char *origin[RT__ITER_MAX_OPERANDS];
    memcpy(origin, root->data, sizeof origin);

    point *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
    int64_t *outs = malloc((size_t)n * sizeof *outs), reach[RT__ITER_MAX_OPERANDS][2];
    assert_true(want && got && outs);
    enumerate(root, origin, want, reach);

    /* The root enumerates each output offset inputs_per_output times, and
       the ACC gives each output its own aligned slot. */
    qsort(want, (size_t)n, sizeof *want, cmp_point);
    int64_t nout = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || want[i].off[RT__ITER_OUT] != want[i - 1].off[RT__ITER_OUT]) {
            outs[nout++] = want[i].off[RT__ITER_OUT];
            if (acc_size) {
                int64_t slot = want[i].off[RT__ITER_ACC];
                assert_true(slot >= 0 && slot < root->num_outputs * acc_size);
                assert_int_equal(slot % acc_size, 0);
            }
        } else if (acc_size) {
            assert_int_equal(want[i].off[RT__ITER_ACC], want[i - 1].off[RT__ITER_ACC]);
        }
        if (root->tracks_index)
            assert_int_equal(want[i].index, want[i].off[RT__ITER_IDX]);
    }
    assert_int_equal(nout, root->num_outputs);
    if (acc_size) {
        /* distinct slots: sort them and look for neighbours */
        int64_t *slots = malloc((size_t)nout * sizeof *slots);
        for (int64_t i = 0, k = 0; i < n; i++)
            if (i == 0 || want[i].off[RT__ITER_OUT] != want[i - 1].off[RT__ITER_OUT])
                slots[k++] = want[i].off[RT__ITER_ACC];
        for (int64_t i = 1; i < nout; i++)
            for (int64_t j = 0; j < i; j++)
                assert_int_not_equal(slots[i], slots[j]);
        free(slots);
    }

    recorder rec = {0};
    assert_int_equal(rt__iter_for_each_piece(root, limit, record, &rec), RT_OK);
    assert_true(rec.n >= 1);
    if (rt__iter_fits(root, limit))
        assert_int_equal(rec.n, 1);

    /* Per output: pieces seen, and whether its last piece has gone by.
       (Pieces need not come in index order: a split of a faster reduced
       dim interleaves them. Each element's logical index is checked
       against the probe instead, and the sorted comparison below sees
       each exactly once.) */
    int64_t *seen = calloc((size_t)nout, sizeof *seen), *stamp = malloc((size_t)nout * 8);
    bool *closed = calloc((size_t)nout, sizeof *closed);
    for (int64_t o = 0; o < nout; o++)
        stamp[o] = -1;
    int64_t total = 0;
    for (int k = 0; k < rec.n; k++) {
        const rt__iter *pc = &rec.v[k].piece;
        assert_true(rt__iter_fits(pc, limit));
        assert_int_equal(pc->ndim, root->ndim);
        assert_int_equal(pc->num_reduce_dims, root->num_reduce_dims);
        assert_int_equal(pc->tracks_index, root->tracks_index);
        int64_t m = numel_of(pc);
        assert_int_equal(m, pc->num_outputs * pc->inputs_per_output);
        assert_true(m >= 1 && m <= limit);
        assert_true(total + m <= n);
        enumerate(pc, origin, got + total, reach);
        /* the limit, recomputed from the enumerated offsets */
        for (int op = 0; op < RT__ITER_MAX_OPERANDS; op++)
            assert_true(-reach[op][0] <= limit && reach[op][1] <= limit);
        if (!rec.v[k].first || !rec.v[k].last)
            assert_int_not_equal(pc->inputs_per_output, root->inputs_per_output);
        for (int64_t i = total; i < total + m; i++) {
            int64_t o = find_output(outs, nout, got[i].off[RT__ITER_OUT]);
            if (stamp[o] != k) { /* this piece's first element of output o */
                stamp[o] = k;
                assert_false(closed[o]);
                assert_int_equal(rec.v[k].first, seen[o] == 0);
                closed[o] = rec.v[k].last;
                seen[o]++;
            }
            if (root->tracks_index)
                assert_int_equal(got[i].index, got[i].off[RT__ITER_IDX]);
        }
        total += m;
    }
    assert_int_equal(total, n);
    for (int64_t o = 0; o < nout; o++)
        assert_true(closed[o]);
    qsort(got, (size_t)n, sizeof *got, cmp_point);
    if (!root->tracks_index) /* the pieces' own linear index means nothing */
        for (int64_t i = 0; i < n; i++)
            got[i].index = want[i].index;
    assert_memory_equal(want, got, (size_t)n * sizeof *want);

    free(rec.v);
    free(want);
    free(got);
    free(outs);
    free(seen);
    free(stamp);
    free(closed);
}

/* ---- random iters ---- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* A random tensor (memory order shuffled, sliced, reversed, broadcast) and
   output, built into an iter. */
static void random_iter(rt__iter *it) {
    static const rt_dtype dtypes[] = {RT_F32, RT_F16, RT_F64, RT_I8};
    int ndim = (int)rnd(6), order[RT_MAX_DIMS];
    rt_tensor in;
    int64_t out_full[RT_MAX_DIMS], step = 1;
    memset(&in, 0, sizeof in);
    in.data = (void *)FAKE_BASE;
    in.dtype = dtypes[rnd(4)];
    in.ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        in.shape[d] = 1 + rnd(ndim <= 2 ? 9 : 4);
        order[d] = d;
    }
    for (int d = ndim - 1; d > 0; d--) {
        int j = (int)rnd((uint32_t)d + 1), t = order[d];
        order[d] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < ndim; k++) {
        int d = order[k];
        in.strides[d] = step * (rnd(4) == 0 ? 3 : 1);
        step = in.strides[d] * in.shape[d];
        if (rnd(4) == 0)
            in.strides[d] = -in.strides[d];
        if (rnd(8) == 0)
            in.strides[d] = 0;
    }
    uint32_t mask = rnd(1u << ndim);
    step = 1;
    for (int k = ndim - 1; k >= 0; k--) {
        out_full[k] = 0;
        if (mask >> k & 1u)
            continue;
        out_full[k] = rnd(4) == 0 ? -step : step;
        step *= in.shape[k];
    }
    rt__iter_build_raw(&in, out_full, rnd(2) ? 4 : 8, mask, (int)rnd(3), it);
}

static void test_random_splits(void **state) {
    (void)state;
    rng_state = 777;
    int split = 0;
    for (int trial = 0; trial < 20000; trial++) {
        rt__iter it;
        random_iter(&it);
        int64_t n = numel_of(&it);
        int64_t limit = 1 + rnd((uint32_t)(n * 12 + 1));
        static const int acc_sizes[] = {0, 4, 8, 16};
        split += !rt__iter_fits(&it, limit);
        check_split(&it, limit, acc_sizes[rnd(4)]);
    }
    assert_true(split > 5000); /* the split path was really exercised */
}

/* ---- fits ---- */

static rt__iter one_dim(int64_t extent, int64_t in_stride, int in_size) {
    rt__iter it;
    memset(&it, 0, sizeof it);
    it.ndim = 1;
    it.num_reduce_dims = 1;
    it.shape[0] = extent;
    it.strides[RT__ITER_IN][0] = in_stride;
    it.elem_size[RT__ITER_IN] = in_size;
    it.elem_size[RT__ITER_OUT] = 4;
    it.num_outputs = 1;
    it.inputs_per_output = extent;
    return it;
}

static void test_fits(void **state) {
    (void)state;
    rt__iter it = one_dim(INT32_MAX, 1, 1); /* reach INT32_MAX - 1 */
    assert_true(rt__iter_fits(&it, 0));
    assert_true(rt__iter_fits(&it, -5));
    assert_false(rt__iter_fits(&it, INT32_MAX - 1));
    it = one_dim((int64_t)INT32_MAX + 1, 1, 1); /* too many elements */
    assert_false(rt__iter_fits(&it, 0));
    it = one_dim(1 << 29, 4, 4); /* reach 2^31 - 4 */
    assert_true(rt__iter_fits(&it, 0));
    it = one_dim((1 << 29) + 1, 4, 4); /* reach 2^31 */
    assert_false(rt__iter_fits(&it, 0));
    it = one_dim((1 << 29) + 1, -4, 4); /* the same, backwards */
    assert_false(rt__iter_fits(&it, 0));
    it = one_dim(1 << 29, -4, 4);
    assert_true(rt__iter_fits(&it, 0));

    /* Forward and backward reach are bounded separately. */
    it = one_dim(2, (int64_t)1 << 30, 4);
    it.ndim = 2;
    it.shape[1] = 2;
    it.strides[RT__ITER_IN][1] = -((int64_t)1 << 30);
    assert_true(rt__iter_fits(&it, 0));
    it.strides[RT__ITER_IN][1] = ((int64_t)1 << 30) - 1; /* both forward: INT32_MAX */
    assert_true(rt__iter_fits(&it, 0));
    it.strides[RT__ITER_IN][1]++;
    assert_false(rt__iter_fits(&it, 0));

    /* Every operand counts, the output too; broadcast reaches nothing. */
    it = one_dim(1000, 0, 4);
    assert_true(rt__iter_fits(&it, 1000));
    it.strides[RT__ITER_OUT][0] = 8;
    assert_false(rt__iter_fits(&it, 1000));
    assert_true(rt__iter_fits(&it, 999 * 8));

    /* Huge strides do not overflow the check. */
    it = one_dim(3, INT64_MAX / 2 + 1, 1);
    assert_false(rt__iter_fits(&it, INT64_MAX));
    it = one_dim(2, INT64_MAX / 2, 1);
    it.ndim = 2;
    it.shape[1] = 2;
    it.strides[RT__ITER_IN][1] = INT64_MAX / 2 + 1; /* reach exactly INT64_MAX */
    assert_true(rt__iter_fits(&it, INT64_MAX));
    it.strides[RT__ITER_IN][0]++;
    assert_false(rt__iter_fits(&it, INT64_MAX));
    it = one_dim(0, INT64_MAX, 1); /* empty */
    assert_true(rt__iter_fits(&it, 1));
}

/* ---- the real 32-bit bound, on a tensor that is never allocated ---- */

static void test_split_at_int32(void **state) {
    (void)state;
    /* argmax over dim 1 of a [4, 2^30] f32 tensor: 2^32 elements. */
    rt_tensor in;
    memset(&in, 0, sizeof in);
    in.data = (void *)FAKE_BASE;
    in.dtype = RT_F32;
    in.ndim = 2;
    in.shape[0] = 4;
    in.shape[1] = (int64_t)1 << 30;
    in.strides[0] = in.shape[1];
    in.strides[1] = 1;
    int64_t out_full[] = {1, 0};
    rt__iter it;
    rt__iter_build_raw(&in, out_full, 8, 2u, RT__INDEX_BY_MEMORY, &it);
    assert_false(rt__iter_fits(&it, 0));
    recorder rec = {0};
    assert_int_equal(rt__iter_for_each_piece(&it, 0, record, &rec), RT_OK);
    /* Outputs split first (largest reach), then each row in two halves. */
    assert_int_equal(rec.n, 8);
    for (int k = 0; k < rec.n; k++) {
        const rt__iter *pc = &rec.v[k].piece;
        int row = k / 2, half = k % 2;
        assert_true(rt__iter_fits(pc, INT32_MAX));
        assert_int_equal(pc->num_outputs, 1);
        assert_int_equal(pc->inputs_per_output, (int64_t)1 << 29);
        assert_int_equal(pc->index_base, half ? (int64_t)1 << 29 : 0);
        assert_int_equal(rec.v[k].first, half == 0);
        assert_int_equal(rec.v[k].last, half == 1);
        assert_int_equal((uintptr_t)pc->data[RT__ITER_IN] - FAKE_BASE,
                         ((uint64_t)row << 32) + ((uint64_t)half << 31));
        assert_int_equal((uintptr_t)pc->data[RT__ITER_OUT], (uintptr_t)row * 8);
    }
    free(rec.v);
}

/* An index-tracking reduction whose reach at fault is a logically faster
   reduced dim: amax with indices over dims 0 and 1 of a [211, 7, 2^21] f32
   view with strides [1, 2^21 x 211, 211] (dim 1 slowest in memory). Until
   v1.44 only the slowest reduced dim of such an iter could be halved, and
   the split once asked for 2^21 x 211 x 7 pieces here (found by
   test_cuda_plan); now dim 1 is halved down to 7 pieces, as for a sum,
   each keyed: its linear index runs over dim 0, whose logical weight is
   7. Built both ways: in logical order (the CPU's; iter dim 0 is logical
   dim 1) and by memory (CUDA's; iter dim 0 is logical dim 0). */
static void test_split_index_faster_dim(void **state) {
    (void)state;
    const int64_t k = (int64_t)1 << 21;
    rt_tensor in;
    memset(&in, 0, sizeof in);
    in.data = (void *)FAKE_BASE;
    in.dtype = RT_F32;
    in.ndim = 3;
    in.shape[0] = 211;
    in.shape[1] = 7;
    in.shape[2] = k;
    in.strides[0] = 1;
    in.strides[1] = k * 211;
    in.strides[2] = 211;
    int64_t out_full[] = {0, 0, 1};
    for (int mode = RT__INDEX_LOGICAL; mode <= RT__INDEX_BY_MEMORY; mode++) {
        rt__iter it;
        rt__iter_build_raw(&in, out_full, 4, 3u, mode, &it);
        assert_false(rt__iter_fits(&it, 0));
        const int dim1 = mode == RT__INDEX_LOGICAL ? 0 : 1; /* iter dim of logical dim 1 */
        assert_int_equal(it.index_strides[dim1], 1);
        assert_int_equal(it.index_strides[1 - dim1], 7);
        assert_int_equal(rt__iter_index_keyed(&it), mode == RT__INDEX_BY_MEMORY);
        recorder rec = {0};
        rec.fail_at = 5000; /* the old split would run on for hours */
        assert_int_equal(rt__iter_for_each_piece(&it, 0, record, &rec), RT_OK);
        assert_int_equal(rec.n, 7);
        for (int p = 0; p < rec.n; p++) {
            const rt__iter *pc = &rec.v[p].piece;
            assert_true(rt__iter_fits(pc, 0));
            assert_int_equal(pc->inputs_per_output, 211);
            assert_int_equal(pc->num_outputs, k);
            assert_int_equal(pc->shape[dim1], 1);
            /* piece p holds dim 1 = p: logical indices 7 x i + p */
            assert_int_equal(pc->index_base, p);
            assert_true(rt__iter_index_keyed(pc));
            assert_int_equal(rec.v[p].first, p == 0);
            assert_int_equal(rec.v[p].last, p == rec.n - 1);
        }
        free(rec.v);
    }
}

/* ---- edges ---- */

static void test_callback_error_stops(void **state) {
    (void)state;
    rt__iter it = one_dim(64, 4, 4);
    recorder rec = {0};
    rec.fail_at = 3;
    assert_int_equal(rt__iter_for_each_piece(&it, 16, record, &rec), RT_ERR_CUDA);
    assert_int_equal(rec.n, 3);
    free(rec.v);
}

static void test_empty_and_scalar(void **state) {
    (void)state;
    /* Empty reduction over 12 outputs: only the outputs need splitting. */
    rt__iter it;
    memset(&it, 0, sizeof it);
    it.ndim = 2;
    it.num_reduce_dims = 1;
    it.shape[0] = 0;
    it.shape[1] = 12;
    it.strides[RT__ITER_IN][0] = 16;
    it.strides[RT__ITER_IN][1] = 4;
    it.strides[RT__ITER_OUT][1] = 4;
    it.elem_size[RT__ITER_IN] = it.elem_size[RT__ITER_OUT] = 4;
    it.num_outputs = 12;
    recorder rec = {0};
    assert_int_equal(rt__iter_for_each_piece(&it, 8, record, &rec), RT_OK);
    int64_t outputs = 0, next = 0;
    for (int k = 0; k < rec.n; k++) {
        const rt__iter *pc = &rec.v[k].piece;
        assert_true(rec.v[k].first && rec.v[k].last);
        assert_int_equal(pc->inputs_per_output, 0);
        assert_true(rt__iter_fits(pc, 8));
        assert_int_equal((uintptr_t)pc->data[RT__ITER_OUT], (uintptr_t)next * 4);
        next += pc->num_outputs;
        outputs += pc->num_outputs;
    }
    assert_int_equal(outputs, 12);
    assert_true(rec.n >= 4);

    /* A 0-d iter is one piece. */
    rec.n = 0;
    memset(&it, 0, sizeof it);
    it.elem_size[RT__ITER_IN] = it.elem_size[RT__ITER_OUT] = 4;
    it.num_outputs = it.inputs_per_output = 1;
    assert_int_equal(rt__iter_for_each_piece(&it, 1, record, &rec), RT_OK);
    assert_int_equal(rec.n, 1);
    assert_true(rec.v[0].first && rec.v[0].last);
    free(rec.v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits),
        cmocka_unit_test(test_split_at_int32),
        cmocka_unit_test(test_split_index_faster_dim),
        cmocka_unit_test(test_callback_error_stops),
        cmocka_unit_test(test_empty_and_scalar),
        cmocka_unit_test(test_random_splits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
