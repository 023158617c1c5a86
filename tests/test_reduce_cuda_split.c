/*
 * The CUDA backend beyond one 32-bit piece:
 *  - the split path on small tensors, by lowering the context's split
 *    limit (rt__context_set_split_limit): reduced-dim splits (pieces carry
 *    their state through the workspace's ACC region) and kept-dim splits,
 *    for sum, mean, int sums, var, argmax and min with indices, and full
 *    reductions cut into pieces for the TINY and STREAM kernels;
 *  - real tensors of more than 2^31 elements: exact counts of 2^31 + 2^20
 *    ones (u8 and bool), argmax with one maximum near the end, and 2-d
 *    cases that split a reduced and a kept dim. RT_TEST_BIG=0 skips these
 *    (sanitizer runs, where they take minutes).
 * Exits 77 (skipped) when no GPU is visible.
 */
#include "cuda_case.h"

static rt_context *g_gpu;

/* ---- split limit on small tensors ------------------------------------------ */

typedef struct piece_count {
    int pieces;
    int partial; /* pieces with first or last false */
    int keyed;   /* pieces whose kernels map keys (rt__iter_index_keyed) */
} piece_count;

static rt_status count_piece(void *user, const rt__iter *piece, bool first, bool last) {
    piece_count *pc = user;
    pc->pieces++;
    pc->partial += !first || !last;
    pc->keyed += rt__iter_index_keyed(piece);
    return RT_OK;
}

/* How the executor will cut case c under `limit`. */
static piece_count case_pieces(const rt_case *c, const dev_case *d, int64_t limit) {
    rt__problem pb;
    rt__iter it;
    case_iter(g_gpu, c, d, RT_POLICY_DEFAULT, &pb, &it);
    assert_false(rt__iter_fits(&it, limit));
    piece_count pc = {0, 0, 0};
    assert_int_equal(rt__iter_for_each_piece(&it, limit, count_piece, &pc), RT_OK);
    return pc;
}

typedef struct split_case {
    const char *name;
    rt_op op;
    rt_dtype dt, odt;
    int nd;
    int64_t shape[3];
    int ndims;
    int dims[3];
    bool idx;
    int64_t limit;
    bool reduced_split; /* some output's inputs span several pieces */
    int kind;           /* every piece runs on this rt__kernel_kind (TUNED); -1: not asserted */
    bool reversed;      /* the input is the data's view with its dims reversed */
} split_case;

#define NOT_ASSERTED (-1)

static const split_case k_splits[] = {
    {"sum, reduced dim split", RT_OP_SUM, RT_F32, RT_F32, 2, {3, 20000}, 1, {1}, false, 4096, true,
     NOT_ASSERTED, false},
    {"mean, reduced dim split", RT_OP_MEAN, RT_F32, RT_F32, 2, {3, 20000}, 1, {1}, false, 4096,
     true, NOT_ASSERTED, false},
    {"i32 sum to i64, reduced split", RT_OP_SUM, RT_I32, RT_I64, 2, {3, 20000}, 1, {1}, false,
     4096, true, NOT_ASSERTED, false},
    {"var, reduced dim split", RT_OP_VAR, RT_F32, RT_F32, 2, {3, 20000}, 1, {1}, false, 4096, true,
     NOT_ASSERTED, false},
    {"argmax, reduced dim split", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {3, 20000}, 1, {1}, false, 4096,
     true, NOT_ASSERTED, false},
    {"min with indices, reduced split", RT_OP_MIN, RT_F32, RT_F32, 2, {3, 20000}, 1, {1}, true,
     4096, true, NOT_ASSERTED, false},
    {"sum, reduced dim 0 split", RT_OP_SUM, RT_F32, RT_F32, 2, {20000, 3}, 1, {0}, false, 4096,
     true, NOT_ASSERTED, false},
    {"sum, kept dim split", RT_OP_SUM, RT_F32, RT_F32, 2, {20000, 3}, 1, {1}, false, 4096, false,
     NOT_ASSERTED, false},
    {"var, kept dim split", RT_OP_VAR, RT_F32, RT_F32, 2, {20000, 3}, 1, {1}, false, 4096, false,
     NOT_ASSERTED, false},
    {"argmax, kept dim split", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {20000, 3}, 1, {1}, false, 4096,
     false, NOT_ASSERTED, false},
    {"min with indices, kept split", RT_OP_MIN, RT_F32, RT_F32, 2, {20000, 3}, 1, {1}, true, 4096,
     false, NOT_ASSERTED, false},
    {"argmax, two reduced dims split", RT_OP_ARGMAX, RT_F32, RT_I64, 3, {50, 40, 30}, 2, {0, 2},
     false, 1000, true, NOT_ASSERTED, false},
    {"min with indices, two reduced dims", RT_OP_MIN, RT_F32, RT_F32, 3, {50, 40, 30}, 2, {0, 2},
     true, 1000, true, NOT_ASSERTED, false},
    /* Short rows, the reduced dim split (one-row pieces: TUNED's ROWS
       direct kernel merges ACC states and shifts indices by index_base). */
    {"rows: sum, reduced split", RT_OP_SUM, RT_F32, RT_F32, 2, {40, 60}, 1, {1}, false, 128, true,
     NOT_ASSERTED, false},
    {"rows: argmax, reduced split", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {40, 60}, 1, {1}, false, 128,
     true, NOT_ASSERTED, false},
    {"rows: min with indices, reduced split", RT_OP_MIN, RT_F64, RT_F64, 2, {40, 30}, 1, {1}, true,
     128, true, NOT_ASSERTED, false},
    {"rows: var, reduced split", RT_OP_VAR, RT_F32, RT_F32, 2, {40, 60}, 1, {1}, false, 128, true,
     NOT_ASSERTED, false},
    {"sum, both kinds of split", RT_OP_SUM, RT_F32, RT_F32, 3, {64, 40, 30}, 2, {0, 2}, false, 500,
     true, NOT_ASSERTED, false},
    /* A full reduction cut into runs of at most 1000 elements, each one
       output's piece on the TINY kernel: ACC states merged, indices
       shifted by each piece's base. */
    {"tiny: sum, pieces of one run", RT_OP_SUM, RT_F32, RT_F32, 1, {3500}, 1, {0}, false, 1000, true,
     RT__KERNEL_TINY, false},
    {"tiny: argmax, pieces of one run", RT_OP_ARGMAX, RT_F32, RT_I64, 1, {3500}, 1, {0}, false, 1000,
     true, RT__KERNEL_TINY, false},
    {"tiny: min with indices, pieces", RT_OP_MIN, RT_F64, RT_F64, 1, {2500}, 1, {0}, true, 1000, true,
     RT__KERNEL_TINY, false},
    {"tiny: var, pieces of one run", RT_OP_VAR, RT_F32, RT_F32, 1, {3500}, 1, {0}, false, 1000, true,
     RT__KERNEL_TINY, false},
    /* Runs of 100000 elements cut from 350003 (the last piece shorter),
       each piece's run over 16 KiB on the STREAM kernel: several blocks,
       a fold, and the ACC states of the pieces before it. */
    {"stream: sum, pieces of one run", RT_OP_SUM, RT_F32, RT_F32, 1, {350003}, 1, {0}, false,
     100000, true, RT__KERNEL_STREAM, false},
    {"stream: mean, pieces of one run", RT_OP_MEAN, RT_F32, RT_F32, 1, {350003}, 1, {0}, false,
     100000, true, RT__KERNEL_STREAM, false},
    {"stream: i32 sum to i64, pieces", RT_OP_SUM, RT_I32, RT_I64, 1, {350003}, 1, {0}, false,
     100000, true, RT__KERNEL_STREAM, false},
    {"stream: bf16 sum to f32, pieces", RT_OP_SUM, RT_BF16, RT_F32, 1, {350003}, 1, {0}, false,
     100000, true, RT__KERNEL_STREAM, false},
    {"stream: f32 amax, pieces", RT_OP_MAX, RT_F32, RT_F32, 1, {350003}, 1, {0}, false, 100000,
     true, RT__KERNEL_STREAM, false},
    {"stream: norm p=2, pieces", RT_OP_NORM, RT_F32, RT_F32, 1, {350003}, 1, {0}, false, 100000,
     true, RT__KERNEL_STREAM, false},
    /* Index-tracking reductions over reversed (transposed) inputs: keyed
       iters (reduced dims by memory, not logically), cut along any dim,
       each piece's keys mapped back through index_base and its strides. */
    {"keyed: argmax of a transposed matrix", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {300, 200}, 2,
     {0, 1}, false, 4096, true, NOT_ASSERTED, true},
    {"keyed: argmin u8 ties, transposed", RT_OP_ARGMIN, RT_U8, RT_I64, 2, {256, 300}, 2, {0, 1},
     false, 5000, true, NOT_ASSERTED, true},
    {"keyed: min with indices, dims 0 and 2 reversed", RT_OP_MIN, RT_F64, RT_F64, 3,
     {20, 30, 40}, 2, {0, 2}, true, 500, true, NOT_ASSERTED, true},
    {"keyed: argmax over every dim of a reversed 3-d", RT_OP_ARGMAX, RT_I16, RT_I64, 3,
     {20, 30, 40}, 3, {0, 1, 2}, false, 700, true, NOT_ASSERTED, true},
};

/* Whether every piece of `limit` runs on kernel kind `kind`. */
typedef struct kind_check {
    const rt__op_traits *traits;
    const rt__device_props *props;
    int kind;
    int pieces, matching;
} kind_check;

static rt_status count_kind(void *user, const rt__iter *piece, bool first, bool last) {
    (void)first;
    (void)last;
    kind_check *kc = user;
    rt__launch_config cfg;
    RT_FORWARD_IF_ERROR(rt__config_compute(piece, kc->traits, kc->props, RT_POLICY_TUNED, &cfg));
    kc->pieces++;
    kc->matching += (int)cfg.kernel == kc->kind;
    return RT_OK;
}

static void expect_piece_kind(const rt_case *c, const dev_case *d, int64_t limit, int kind) {
    rt__problem pb;
    rt__iter it;
    case_iter(g_gpu, c, d, RT_POLICY_TUNED, &pb, &it);
    rt__op_traits traits;
    assert_int_equal(rt__cuda_op_traits(g_gpu, &pb, &traits), RT_OK);
    kind_check kc = {&traits, rt__cuda_props(g_gpu), kind, 0, 0};
    assert_int_equal(rt__iter_for_each_piece(&it, limit, count_kind, &kc), RT_OK);
    assert_true(kc.pieces > 1);
    assert_int_equal(kc.matching, kc.pieces);
}

static void test_split_limit(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof k_splits / sizeof k_splits[0]; i++) {
        const split_case *sc = &k_splits[i];
        rt_case c;
        make_case(&c, sc->op, sc->dt, sc->odt, sc->nd, sc->shape, sc->dims, sc->ndims, 1, sc->idx,
                  0x5b117ull + i);
        if (sc->reversed) {
            int perm[3];
            for (int k = 0; k < sc->nd; k++)
                perm[k] = sc->nd - 1 - k;
            case_permute_input(&c, perm);
        }
        /* Unsplit first (allocates the device copies case_pieces needs). */
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_DEFAULT, NULL);
        check_case_gpu(&c, s, sc->name);

        piece_count pc = case_pieces(&c, &d, sc->limit);
        assert_true(pc.pieces > 1);
        if (sc->reduced_split)
            assert_true(pc.partial > 0);
        else
            assert_int_equal(pc.partial, 0);
        if (sc->kind != NOT_ASSERTED)
            expect_piece_kind(&c, &d, sc->limit, sc->kind);
        if (sc->reversed)
            assert_true(pc.keyed > 0);

        assert_int_equal(rt__context_set_split_limit(g_gpu, sc->limit), RT_OK);
        s = dev_case_run(g_gpu, &c, &d, RT_POLICY_DEFAULT, NULL);
        assert_int_equal(rt__context_set_split_limit(g_gpu, 0), RT_OK);
        check_case_gpu(&c, s, sc->name);
        rt_case_free(&c);
    }
    dev_case_free(&d);
    print_message("split-limit cases: %zu\n", sizeof k_splits / sizeof k_splits[0]);
}

/* ---- more than 2^31 elements ---------------------------------------------------- */

static bool big_enabled(void) {
    const char *e = getenv("RT_TEST_BIG");
    return e == NULL || strcmp(e, "0") != 0;
}

/* Reduces the 1-d device buffer x of n elements of dtype dt over every
   dim into one int64 on the device; returns the status, *result the value. */
static rt_status reduce_all_i64(rt_op op, void *x, int64_t n, rt_dtype dt, int64_t *result) {
    int64_t *dres;
    CUDA_OK(cudaMalloc((void **)&dres, sizeof *dres));
    CUDA_OK(cudaMemset(dres, RT_CASE_POISON, sizeof *dres));
    rt_tensor in = {x, dt, 1, {n}, {1}};
    rt_tensor out = {dres, RT_I64, 0, {0}, {0}};
    rt_status s = reduce_tensor(g_gpu, op, &in, NULL, 0, false, &out);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(result, dres, sizeof *result, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(dres));
    return s;
}

static void test_over_2_31_elements(void **state) {
    (void)state;
    if (!big_enabled()) {
        print_message("RT_TEST_BIG=0: tensors over 2^31 elements not run\n");
        return;
    }
    const int64_t n = ((int64_t)1 << 31) + ((int64_t)1 << 20);
    unsigned char *x;
    CUDA_OK(cudaMalloc((void **)&x, (size_t)n));
    CUDA_OK(cudaMemset(x, 1, (size_t)n));

    int64_t got = -1;
    assert_int_equal(reduce_all_i64(RT_OP_SUM, x, n, RT_U8, &got), RT_OK);
    assert_int_equal(got, n);
    got = -1;
    assert_int_equal(reduce_all_i64(RT_OP_SUM, x, n, RT_BOOL, &got), RT_OK);
    assert_int_equal(got, n);

    /* 2-d, the reduced dim split: [2^20 + 1, 2048] summed over dim 0. */
    {
        const int64_t rows = ((int64_t)1 << 20) + 1, cols = 2048;
        int64_t *dres, host[2048];
        CUDA_OK(cudaMalloc((void **)&dres, sizeof host));
        CUDA_OK(cudaMemset(dres, RT_CASE_POISON, sizeof host));
        rt_tensor in = {x, RT_U8, 2, {rows, cols}, {cols, 1}};
        rt_tensor out = {dres, RT_I64, 1, {cols}, {1}};
        int dim = 0;
        assert_int_equal(reduce_tensor(g_gpu, RT_OP_SUM, &in, &dim, 1, false, &out), RT_OK);
        CUDA_OK(cudaMemcpy(host, dres, sizeof host, cudaMemcpyDeviceToHost));
        for (int64_t j = 0; j < cols; j++)
            assert_int_equal(host[j], rows);
        /* ... and the kept dim split: [2048, 2^20 + 1] summed over dim 1. */
        rt_tensor in2 = {x, RT_U8, 2, {cols, rows}, {rows, 1}};
        dim = 1;
        CUDA_OK(cudaMemset(dres, RT_CASE_POISON, sizeof host));
        assert_int_equal(reduce_tensor(g_gpu, RT_OP_SUM, &in2, &dim, 1, false, &out), RT_OK);
        CUDA_OK(cudaMemcpy(host, dres, sizeof host, cudaMemcpyDeviceToHost));
        for (int64_t j = 0; j < cols; j++)
            assert_int_equal(host[j], rows);
        CUDA_OK(cudaFree(dres));
    }

    /* argmax: zeros with one 9 near the end; then a tie in the first piece
       (the lower index must win across pieces). */
    CUDA_OK(cudaMemset(x, 0, (size_t)n));
    CUDA_OK(cudaMemset(x + n - 5, 9, 1));
    got = -1;
    assert_int_equal(reduce_all_i64(RT_OP_ARGMAX, x, n, RT_U8, &got), RT_OK);
    assert_int_equal(got, n - 5);
    CUDA_OK(cudaMemset(x + 12345, 9, 1));
    got = -1;
    assert_int_equal(reduce_all_i64(RT_OP_ARGMAX, x, n, RT_U8, &got), RT_OK);
    assert_int_equal(got, 12345);
    CUDA_OK(cudaFree(x));
    print_message("over 2^31 elements: u8/bool counts of %lld, 2-d splits, argmax\n",
                  (long long)n);
}

int main(void) {
    const int opened = open_gpu_context(&g_gpu);
    if (opened != 0)
        return opened;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_limit),
        cmocka_unit_test(test_over_2_31_elements),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rt_context_destroy(g_gpu);
    return rc;
}
