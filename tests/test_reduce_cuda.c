/*
 * The CUDA backend against the CPU backend and the naive reference:
 *  - random differential cases from the shared generator (rt_cases.h):
 *    every op, dtype and layout it makes, misaligned storage, empty dims,
 *    NaN/inf, both launch policies (RT_TEST_CASES lowers the count);
 *  - one targeted case per branch of the kernel body (vectorized input,
 *    each output vector width, lane/warp/grid splits, the general offset
 *    path), each checked to really take its branch with rt__config_compute;
 *  - the same for the TUNED policy's ROWS kernel (tile and direct, every op
 *    family, odd lengths, sliced rows, several kept dims, keepdim), and its
 *    tie and NaN rules;
 *  - the TINY kernel (full reductions of up to 16 KiB): every op family,
 *    dtypes, lengths around its vectors and blocks, misaligned runs, ties
 *    and NaN in arg-reductions;
 *  - the STREAM kernel (larger full reductions of one-number states):
 *    one block to thousands, every vector width, against the reference
 *    and against the general kernel on the same case.
 * Exits 77 (skipped) when no GPU is visible.
 */
#include "cuda_case.h"

static rt_context *g_gpu;
static rt_context *g_cpu;

/* ---- random differential cases -------------------------------------------- */

static bool is_float_dtype(rt_dtype d) {
    return d == RT_F32 || d == RT_F64 || d == RT_F16 || d == RT_BF16;
}

typedef struct tally {
    int run, ok_status, gpu_bad, cpu_bad, mismatch;
} tally;

/* Reports the first few failures in full, then only counts. */
static void report(tally *t, const char *kind, const rt_case *c, const char *msg) {
    char desc[1024];
    if (t->gpu_bad + t->cpu_bad + t->mismatch > 8)
        return;
    rt_case_describe(c, desc, sizeof desc);
    print_message("[%s] %s\n  case: %s\n", kind, msg, desc);
}

static void run_random_case(uint64_t seed, dev_case *d, tally *t) {
    rt_case c;
    rt_case_opts o;
    rt_case_opts_init(&o);
    if (rt_case_make(&c, seed, &o) != 0)
        fail_msg("rt_case_make(%llu) failed", (unsigned long long)seed);
    rt_ref ref;
    memset(&ref, 0, sizeof ref);
    if (rt_ref_compute(&c, &ref) != 0)
        fail_msg("rt_ref_compute: out of memory");
    char msg[1024];

    /* The CPU backend on the host blocks; keep its bytes. */
    rt_reduce_args a;
    rt_case_args(&c, &a);
    rt_case_poison(&c);
    rt_status s_cpu = reduce_tensor_ex(g_cpu, &a);
    if (!rt_ref_check(&c, &ref, s_cpu, RT_ACC_F64, msg, sizeof msg)) {
        t->cpu_bad++;
        report(t, "cpu vs reference", &c, msg);
    }
    unsigned char *cpu_out = malloc(c.out_buf.bytes + 1), *cpu_idx = malloc(c.idx_buf.bytes + 1);
    assert_non_null(cpu_out);
    assert_non_null(cpu_idx);
    memcpy(cpu_out, c.out_buf.base, c.out_buf.bytes);
    if (c.has_idx)
        memcpy(cpu_idx, c.idx_buf.base, c.idx_buf.bytes);

    /* The GPU, alternating the policies. */
    rt_policy pol = (seed & 1) ? RT_POLICY_COMPAT : RT_POLICY_TUNED;
    rt_status s_gpu = dev_case_run(g_gpu, &c, d, pol, NULL);
    t->run++;
    t->ok_status += s_gpu == RT_OK;
    if (!rt_ref_check(&c, &ref, s_gpu, RT_ACC_GPU, msg, sizeof msg)) {
        t->gpu_bad++;
        report(t, "gpu vs reference", &c, msg);
    }
    /* Against the CPU: the same status; integer, bool and index results
       bit for bit (float results are held to the reference above, each
       under its own accumulation model). */
    bool same = s_cpu == s_gpu;
    if (same && s_gpu == RT_OK && !is_float_dtype(c.out.dtype))
        same = memcmp(cpu_out, c.out_buf.base, c.out_buf.bytes) == 0;
    if (same && s_gpu == RT_OK && c.has_idx)
        same = memcmp(cpu_idx, c.idx_buf.base, c.idx_buf.bytes) == 0;
    if (!same) {
        t->mismatch++;
        snprintf(msg, sizeof msg, "cpu status %s, gpu status %s, or integer results differ",
                 rt_status_name(s_cpu), rt_status_name(s_gpu));
        report(t, "gpu vs cpu", &c, msg);
    }
    free(cpu_out);
    free(cpu_idx);
    rt_ref_free(&ref);
    rt_case_free(&c);
}

static void test_random_cases(void **state) {
    (void)state;
    const int n = cuda_test_case_count(3000);
    dev_case d;
    memset(&d, 0, sizeof d);
    tally t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < n; i++)
        run_random_case(0x5eed0000ull + (uint64_t)i, &d, &t);
    dev_case_free(&d);
    print_message("random cases: %d run on the GPU (%d RT_OK, %d expected errors); "
                  "gpu vs reference failures %d, cpu vs reference failures %d, "
                  "gpu vs cpu mismatches %d\n",
                  t.run, t.ok_status, t.run - t.ok_status, t.gpu_bad, t.cpu_bad, t.mismatch);
    assert_int_equal(t.gpu_bad, 0);
    assert_int_equal(t.mismatch, 0);
    assert_int_equal(t.cpu_bad, 0);
}

/* ---- one case per kernel branch ------------------------------------------------- */

#define ANY_OF (-1)

typedef struct branch_case {
    const char *name;
    rt_op op;
    rt_dtype dt, odt;
    int nd;
    int64_t shape[5];
    int ndims;
    int dims[4];
    int misalign; /* elements past a 16-byte boundary */
    bool idx;
    double param; /* norm p, var/std correction */
    /* What the COMPAT config must be (ANY_OF: not asserted). */
    int vec_in, ovs, split_x, split_y, global;
} branch_case;

static const branch_case k_branches[] = {
    {"vectorized input, head and tail", RT_OP_SUM, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false, 0,
     1, 1, 1, 0, 0},
    {"vectorized input, f64", RT_OP_SUM, RT_F64, RT_F64, 2, {64, 1000}, 1, {1}, 1, false, 0, 1, 1, 1, 0,
     0},
    {"vectorized argmax", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {64, 1000}, 1, {1}, 3, false, 0, 1, 1, 1, 0,
     0},
    {"vectorized var (2-wide)", RT_OP_VAR, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false, 1, 1, 1,
     1, 0, 0},
    {"vectorized f16 max", RT_OP_MAX, RT_F16, RT_F16, 2, {64, 1000}, 1, {1}, 5, false, 0, 1, 1, 1, 0,
     0},
    {"vectorized min with indices", RT_OP_MIN, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 2, true, 0, 1,
     1, 1, 0, 0},
    {"vectorized i64 sum", RT_OP_SUM, RT_I64, RT_I64, 2, {64, 1000}, 1, {1}, 1, false, 0, 1, 1, 1, 0,
     0},
    {"vectorized bool any", RT_OP_ANY, RT_BOOL, RT_BOOL, 2, {64, 1000}, 1, {1}, 1, false, 0, 1, 1, 1,
     0, 0},
    {"vectorized norm p=3", RT_OP_NORM, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false, 3, 1, 1, 1,
     0, 0},
    {"vectorized norm p=inf", RT_OP_NORM, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false, INFINITY,
     1, 1, 1, 0, 0},
    {"vectorized norm p=-inf", RT_OP_NORM, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false,
     -INFINITY, 1, 1, 1, 0, 0},
    {"vectorized norm p=0", RT_OP_NORM, RT_F32, RT_F32, 2, {64, 1000}, 1, {1}, 1, false, 0, 1, 1, 1,
     0, 0},
    {"output vec 4", RT_OP_SUM, RT_F32, RT_F32, 2, {300, 64}, 1, {0}, 0, false, 0, 0, 4, 0, 1, 0},
    {"output vec 2", RT_OP_SUM, RT_F32, RT_F32, 2, {300, 66}, 1, {0}, 0, false, 0, 0, 2, 0, 1, 0},
    {"output vec 1", RT_OP_SUM, RT_F32, RT_F32, 2, {300, 67}, 1, {0}, 0, false, 0, 0, 1, 0, 1, 0},
    {"output vec 4, argmax", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {300, 64}, 1, {0}, 0, false, 0, 0, 4,
     0, 1, 0},
    {"output vec 4, f16 mean to f32", RT_OP_MEAN, RT_F16, RT_F32, 2, {300, 64}, 1, {0}, 0, false, 0,
     0, 4, 0, 1, 0},
    {"output vec 4, bool all", RT_OP_ALL, RT_BOOL, RT_BOOL, 2, {300, 64}, 1, {0}, 0, false, 0, 0, 4,
     0, 1, 0},
    {"output vec 4, u8 sum to i64", RT_OP_SUM, RT_U8, RT_I64, 2, {300, 64}, 1, {0}, 0, false, 0, 0, 4,
     0, 1, 0},
    {"output vec 4, f64 var", RT_OP_VAR, RT_F64, RT_F64, 2, {300, 64}, 1, {0}, 0, false, 1, 0, 4, 0,
     1, 0},
    {"block_x only", RT_OP_SUM, RT_F32, RT_F32, 2, {4096, 64}, 1, {1}, 0, false, 0, 0, 1, 1, 0, 0},
    {"block_x narrower than a warp", RT_OP_SUM, RT_F32, RT_F32, 2, {4096, 16}, 1, {1}, 0, false, 0,
     0, 1, 1, 0, 0},
    {"no split across threads", RT_OP_SUM, RT_F32, RT_F32, 2, {16, 4096}, 1, {0}, 0, false, 0, 0, 4,
     0, 0, 0},
    {"block_x and block_y", RT_OP_SUM, RT_F32, RT_F32, 2, {64, 8192}, 1, {1}, 0, false, 0, 1, 1, 1,
     1, 0},
    {"block_x wider than a warp", RT_OP_SUM, RT_F32, RT_F32, 2, {2, 100000}, 1, {1}, 0, false, 0, 1,
     1, 1, 1, 0},
    {"global reduce, lanes split", RT_OP_SUM, RT_F32, RT_F32, 1, {1 << 20}, 0, {0}, 0, false, 0, 1, 1,
     1, 1, 1},
    {"global argmax", RT_OP_ARGMAX, RT_F32, RT_I64, 1, {1 << 20}, 0, {0}, 0, false, 0, 1, 1, 1, 1, 1},
    {"global f64 argmin", RT_OP_ARGMIN, RT_F64, RT_I64, 1, {1 << 20}, 0, {0}, 0, false, 0, 1, 1, 1,
     1, 1},
    {"global var", RT_OP_VAR, RT_F32, RT_F32, 1, {1 << 20}, 0, {0}, 0, false, 1, 1, 1, 1, 1, 1},
    {"global bf16 sum to f32", RT_OP_SUM, RT_BF16, RT_F32, 1, {1 << 20}, 0, {0}, 0, false, 0,
     ANY_OF, 1, 1, 1, 1},
    {"global, output vec 4", RT_OP_SUM, RT_F32, RT_F32, 2, {4096, 1024}, 1, {0}, 0, false, 0, 0, 4, 0,
     1, 1},
    {"global argmax, output vec 4", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {4096, 1024}, 1, {0}, 0, false, 0,
     0, 4, 0, 1, 1},
    {"global std, output vec 4", RT_OP_STD, RT_F32, RT_F32, 2, {4096, 1024}, 1, {0}, 0, false, 1, 0,
     4, 0, 1, 1},
    {"global f16 sum, output vec 4", RT_OP_SUM, RT_F16, RT_F16, 2, {4096, 1024}, 1, {0}, 0, false, 0,
     0, 4, 0, 1, 1},
    {"global, general offsets", RT_OP_SUM, RT_F32, RT_F32, 4, {100, 7, 50, 9}, 2, {0, 2}, 0, false, 0,
     0, 1, 0, 1, 1},
    {"global min with indices, general offsets", RT_OP_MIN, RT_F32, RT_F32, 4, {100, 7, 50, 9}, 2,
     {0, 2}, 0, true, 0, 0, 1, 0, 1, 1},
    {"global argmax, general offsets", RT_OP_ARGMAX, RT_F32, RT_I64, 4, {100, 7, 50, 9}, 2, {0, 2}, 0,
     false, 0, 0, 1, 0, 1, 1},
};

static void expect_field(const char *name, const char *field, int want, int got) {
    if (want != ANY_OF && want != got)
        fail_msg("%s: the config has %s = %d, the case needs %d", name, field, got, want);
}

/* The case of table row b (its op parameter set). */
static void make_branch_case(rt_case *c, const branch_case *b, uint64_t seed) {
    make_case(c, b->op, b->dt, b->odt, b->nd, b->shape, b->dims, b->ndims, b->misalign, b->idx,
              seed);
    if (b->op == RT_OP_NORM)
        c->p = b->param;
    if (b->op == RT_OP_VAR || b->op == RT_OP_STD)
        c->correction = b->param;
}

/* b's config fields (ANY_OF: not asserted) against policy's config. */
static void expect_branch_config(const branch_case *b, const rt_case *c, dev_case *d,
                                 rt_policy policy) {
    rt__launch_config cfg = case_config(g_gpu, c, d, policy);
    expect_field(b->name, "vectorize_input", b->vec_in, cfg.vectorize_input);
    expect_field(b->name, "output_vec_size", b->ovs, cfg.output_vec_size);
    expect_field(b->name, "block_x_reduce", b->split_x, rt__config_block_x_reduce(&cfg));
    expect_field(b->name, "block_y_reduce", b->split_y, rt__config_block_y_reduce(&cfg));
    expect_field(b->name, "global_reduce", b->global, rt__config_global_reduce(&cfg));
}

static void run_branch(const branch_case *b, dev_case *d) {
    rt_case c;
    make_branch_case(&c, b, 0xb4a7c400ull + (uint64_t)(b - k_branches));
    case_ref ref;
    memset(&ref, 0, sizeof ref);
    rt_status s = dev_case_run(g_gpu, &c, d, RT_POLICY_COMPAT, NULL);
    check_case_gpu_ref(&c, &ref, s, b->name);
    expect_branch_config(b, &c, d, RT_POLICY_COMPAT);

    /* The default (TUNED) policy on the same case. */
    s = dev_case_run(g_gpu, &c, d, RT_POLICY_TUNED, NULL);
    check_case_gpu_ref(&c, &ref, s, b->name);
    case_ref_free(&ref);
    rt_case_free(&c);
}

static void test_branches(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof k_branches / sizeof k_branches[0]; i++)
        run_branch(&k_branches[i], &d);
    dev_case_free(&d);
    print_message("branch cases: %zu, each on COMPAT and TUNED\n",
                  sizeof k_branches / sizeof k_branches[0]);
}

/* ---- the ROWS kernel (TUNED) ------------------------------------------------------- */

typedef struct rows_case {
    const char *name;
    rt_op op;
    rt_dtype dt, odt;
    int64_t outer, n, len, pitch; /* [outer, n, len] of an [outer, n + 1 or n, pitch] buffer */
    int misalign;
    bool idx, keepdim;
    double param;
    int kind, vec; /* what the TUNED config must be: ROWS_DIRECT/TILE/SHORT/BLOCK/PAIR/WARP/
                      TWO_PASS (a block a row, var/std in two passes)/WIDE (a block a row,
                      2 vectors a thread: the wide blocks)/TWO_PASS_WIDE (both), vector
                      loads */
} rows_case;

/* WIDE, TWO_PASS_WIDE and HALF_TILE (the tile at two lanes a row of 128
   bytes) are H100-class paths: their cases plan as on an H100 whatever the
   GPU (H100_CLASS_TEST_GBPS); TWO_PASS cases plan as on an H200
   (H200_TEST_GBPS), so that they keep the base shapes on an H100 too. WARP
   cases plan as on an H100 (one or two warps a block by length) and again
   as on an H200 (two or more at every length). */
enum { ROWS_DIRECT, ROWS_TILE, ROWS_SHORT, ROWS_BLOCK, ROWS_PAIR, ROWS_WARP, ROWS_TWO_PASS,
       ROWS_WIDE, ROWS_HALF_TILE, ROWS_TWO_PASS_WIDE };

/* n rows of len elements, pitch apart (pitch > len: a slice), reduced over
   the last dim; outer > 1 adds a kept dim whose stride is not n * pitch
   (an extra row per block), so the kept dims cannot coalesce. */
static const rows_case k_rows[] = {
    {"short f32 sum, L=3", RT_OP_SUM, RT_F32, RT_F32, 1, 3001, 3, 3, 0, false, false, 0, ROWS_SHORT, 0},
    {"tile f32 sum, L=33, misaligned", RT_OP_SUM, RT_F32, RT_F32, 1, 2000, 33, 33, 1, false, false, 0,
     1, 0},
    {"tile f32 sum, L=32", RT_OP_SUM, RT_F32, RT_F32, 1, 4100, 32, 32, 0, false, false, 0, 1, 0},
    /* Rows of 128 bytes in half tiles (64 rows, two lanes a row), planned
       as on an H100, enough of them for 2 tiles a SM (else the tiles
       shrink): a short last tile, a misaligned start, 16-bit rows of 64,
       doubles of 16. */
    {"half tile f32 sum, L=32", RT_OP_SUM, RT_F32, RT_F32, 1, 20011, 32, 32, 0, false, false, 0,
     ROWS_HALF_TILE, 0},
    {"half tile f32 amax keepdim, L=32, misaligned", RT_OP_MAX, RT_F32, RT_F32, 1, 17000, 32, 32, 1,
     false, true, 0, ROWS_HALF_TILE, 0},
    {"half tile bf16 mean to f32, L=64", RT_OP_MEAN, RT_BF16, RT_F32, 1, 18000, 64, 64, 0, false,
     false, 0, ROWS_HALF_TILE, 0},
    {"half tile f64 var, L=16", RT_OP_VAR, RT_F64, RT_F64, 1, 16900, 16, 16, 0, false, false, 1,
     ROWS_HALF_TILE, 0},
    {"short f64 var, L=7", RT_OP_VAR, RT_F64, RT_F64, 1, 700, 7, 7, 1, false, false, 1, ROWS_SHORT, 0},
    {"tile f16 mean to f32, L=32", RT_OP_MEAN, RT_F16, RT_F32, 1, 1500, 32, 32, 3, false, false, 0, 1,
     0},
    {"short bf16 max, L=5", RT_OP_MAX, RT_BF16, RT_BF16, 1, 999, 5, 5, 1, false, false, 0, ROWS_SHORT, 0},
    {"tile argmax, L=33", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 1200, 33, 33, 2, false, false, 0, 1, 0},
    {"tile i32 min with indices, L=17", RT_OP_MIN, RT_I32, RT_I32, 1, 1000, 17, 17, 1, true, false, 0,
     1, 0},
    {"tile u8 sum to i64, L=63", RT_OP_SUM, RT_U8, RT_I64, 1, 4000, 63, 63, 5, false, false, 0, 1, 0},
    {"short bool all, L=4", RT_OP_ALL, RT_BOOL, RT_BOOL, 1, 3000, 4, 4, 0, false, false, 0, ROWS_SHORT, 0},
    {"tile i64 prod, L=9", RT_OP_PROD, RT_I64, RT_I64, 1, 500, 9, 9, 1, false, false, 0, 1, 0},
    {"tile norm p=3, L=12", RT_OP_NORM, RT_F32, RT_F32, 1, 1000, 12, 12, 0, false, false, 3, 1, 0},
    {"tile norm p=-inf bf16, L=12", RT_OP_NORM, RT_BF16, RT_BF16, 1, 1000, 12, 12, 0, false, false,
     -INFINITY, 1, 0},
    {"tile std keepdim, L=31", RT_OP_STD, RT_F32, RT_F32, 1, 777, 31, 31, 0, false, true, 1, 1, 0},
    {"tile i8 argmin, L=64", RT_OP_ARGMIN, RT_I8, RT_I64, 1, 1500, 64, 64, 7, false, false, 0, 1, 0},
    /* (One contiguous row is a full reduction: the TINY kernel's.) */
    {"direct i16 any, two sliced rows", RT_OP_ANY, RT_I16, RT_BOOL, 1, 2, 40, 48, 0, false, false, 0,
     0, ANY_OF},
    {"direct f32 sum, sliced 32 of 64", RT_OP_SUM, RT_F32, RT_F32, 1, 500, 32, 64, 0, false, false, 0,
     0, 1},
    {"direct f32 sum, sliced 33 of 40", RT_OP_SUM, RT_F32, RT_F32, 1, 500, 33, 40, 1, false, false, 0,
     0, 0},
    {"direct f32 sum, two kept dims", RT_OP_SUM, RT_F32, RT_F32, 6, 50, 33, 40, 0, false, false, 0, 0,
     0},
    {"direct argmax, two kept dims, keepdim", RT_OP_ARGMAX, RT_F64, RT_I64, 3, 70, 20, 24, 0, false,
     true, 0, 0, 1},
    {"direct bool all, sliced 20 of 32", RT_OP_ALL, RT_BOOL, RT_BOOL, 1, 300, 20, 32, 0, false, false,
     0, 0, 0},
    {"direct f16 sum, L=256 of 264", RT_OP_SUM, RT_F16, RT_F16, 1, 36000, 256, 264, 0, false, false, 0,
     0, 1},
    {"direct argmax, L=129 of 130", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 9000, 129, 130, 0, false, false,
     0, 0, 0},
    {"direct var, L=127 of 128", RT_OP_VAR, RT_F32, RT_F32, 1, 17000, 127, 128, 1, false, false, 1, 0,
     0},
    {"direct f64 min with indices, L=200 of 201", RT_OP_MIN, RT_F64, RT_F64, 1, 9000, 200, 201, 1,
     true, false, 0, 0, 0},
    {"direct i64 sum, L=100 of 102, 16-byte loads", RT_OP_SUM, RT_I64, RT_I64, 1, 20000, 100, 102, 0,
     false, false, 0, 0, 1},
    {"direct u8 any, L=96 of 112", RT_OP_ANY, RT_U8, RT_BOOL, 1, 70000, 96, 112, 0, false, false, 0, 0,
     1},
    {"tile var, L=127 (lane groups)", RT_OP_VAR, RT_F32, RT_F32, 1, 5000, 127, 127, 1, false, false, 1,
     1, 0},
    {"tile f64 argmax, L=129", RT_OP_ARGMAX, RT_F64, RT_I64, 1, 3000, 129, 129, 1, false, false, 0, 1,
     0},
    {"tile f16 sum, L=256", RT_OP_SUM, RT_F16, RT_F16, 1, 3000, 256, 256, 3, false, false, 0, 1, 0},
    {"tile bf16 min with indices, L=1024", RT_OP_MIN, RT_BF16, RT_BF16, 1, 700, 1024, 1024, 0, true,
     false, 0, 1, 0},
    {"tile i32 sum keepdim, L=128", RT_OP_SUM, RT_I32, RT_I64, 1, 3001, 128, 128, 0, false, true, 0, 1,
     0},
    /* The warp kernel: rows of 97-160 4-byte elements, one-number states,
       at least 16 warps of 4 rows a SM (12001 rows: up to 187 SMs). */
    {"warp f32 sum, L=129", RT_OP_SUM, RT_F32, RT_F32, 1, 12001, 129, 129, 0, false, false, 0,
     ROWS_WARP, 0},
    {"warp f32 mean keepdim, L=97, misaligned", RT_OP_MEAN, RT_F32, RT_F32, 1, 12001, 97, 97, 1,
     false, true, 0, ROWS_WARP, 0},
    {"warp f32 sum, sliced 129 of 140", RT_OP_SUM, RT_F32, RT_F32, 1, 12001, 129, 140, 0, false,
     false, 0, ROWS_WARP, 0},
    {"warp i32 sum to i64, L=160", RT_OP_SUM, RT_I32, RT_I64, 1, 12001, 160, 160, 0, false, false, 0,
     ROWS_WARP, 0},
    {"warp f32 max, L=128, two kept dims (vectors)", RT_OP_MAX, RT_F32, RT_F32, 2, 6001, 128, 128,
     0, false, false, 0, ROWS_WARP, 1},
    {"warp f32 sum, L=100 (vectors)", RT_OP_SUM, RT_F32, RT_F32, 1, 12001, 100, 100, 0, false,
     false, 0, ROWS_WARP, 1},
    {"warp f32 mean keepdim, L=100, misaligned", RT_OP_MEAN, RT_F32, RT_F32, 1, 12001, 100, 100, 1,
     false, true, 0, ROWS_WARP, 0},
    {"warp f32 sum, sliced 100 of 104 (vectors)", RT_OP_SUM, RT_F32, RT_F32, 1, 12001, 100, 104, 0,
     false, false, 0, ROWS_WARP, 1},
    {"warp f32 sum, sliced 100 of 102", RT_OP_SUM, RT_F32, RT_F32, 1, 12001, 100, 102, 0, false,
     false, 0, ROWS_WARP, 0},
    {"warp i32 sum to i64, L=116 (vectors)", RT_OP_SUM, RT_I32, RT_I64, 1, 12001, 116, 116, 0,
     false, false, 0, ROWS_WARP, 1},
    {"warp norm p=2 f32, L=124, two kept dims (vectors)", RT_OP_NORM, RT_F32, RT_F32, 2, 6001, 124,
     124, 0, false, false, 2, ROWS_WARP, 1},
    {"warp i32 max keepdim, L=108 (vectors)", RT_OP_MAX, RT_I32, RT_I32, 1, 12001, 108, 108, 0,
     false, true, 0, ROWS_WARP, 1},
    {"warp i32 min, L=101", RT_OP_MIN, RT_I32, RT_I32, 1, 12001, 101, 101, 3, false, false, 0,
     ROWS_WARP, 0},
    {"warp norm p=2 f32, L=150", RT_OP_NORM, RT_F32, RT_F32, 1, 12001, 150, 150, 0, false, false, 2,
     ROWS_WARP, 0},
    {"warp f32 prod, L=127", RT_OP_PROD, RT_F32, RT_F32, 1, 12001, 127, 127, 0, false, false, 0,
     ROWS_WARP, 0},
    /* Rows of up to 8 elements, or of one aligned 16-byte vector: a thread
       per row in the short kernel, scalar loads unless the row is one
       aligned vector; sliced and with two kept dims too. */
    {"short f32 sum, L=4 (one vector)", RT_OP_SUM, RT_F32, RT_F32, 1, 300001, 4, 4, 0, false, false,
     0, ROWS_SHORT, 1},
    {"short f32 sum, L=4, misaligned", RT_OP_SUM, RT_F32, RT_F32, 1, 30001, 4, 4, 1, false, false, 0, ROWS_SHORT, 0},
    {"short bf16 argmax, L=8 (one vector)", RT_OP_ARGMAX, RT_BF16, RT_I64, 1, 20001, 8, 8, 0, false,
     false, 0, ROWS_SHORT, 1},
    {"short u8 any, L=16 (one vector)", RT_OP_ANY, RT_U8, RT_BOOL, 1, 20001, 16, 16, 0, false, false,
     0, ROWS_SHORT, 1},
    {"short f64 var, L=2 (one vector)", RT_OP_VAR, RT_F64, RT_F64, 1, 20001, 2, 2, 0, false, false, 1, ROWS_SHORT, 1},
    {"short i32 min with indices keepdim, L=4", RT_OP_MIN, RT_I32, RT_I32, 1, 20001, 4, 4, 0, true,
     true, 0, ROWS_SHORT, 1},
    {"short f16 mean to f32, L=8 (one vector)", RT_OP_MEAN, RT_F16, RT_F32, 1, 20001, 8, 8, 0, false,
     false, 0, ROWS_SHORT, 1},
    {"short norm p=3 f32, L=4, two kept dims", RT_OP_NORM, RT_F32, RT_F32, 4, 5000, 4, 4, 0, false,
     false, 3, ROWS_SHORT, 1},
    {"short f32 sum, sliced 3 of 5", RT_OP_SUM, RT_F32, RT_F32, 1, 70001, 3, 5, 0, false, false, 0, ROWS_SHORT,
     0},
    {"short i64 argmin, L=8, misaligned", RT_OP_ARGMIN, RT_I64, RT_I64, 1, 9000, 8, 8, 1, false, false,
     0, ROWS_SHORT, 0},
    {"short f16 sum, L=6, two kept dims", RT_OP_SUM, RT_F16, RT_F16, 5, 3000, 6, 7, 0, false, false, 0, ROWS_SHORT, 0},
    {"short f32 std keepdim, L=8 (scalar loads)", RT_OP_STD, RT_F32, RT_F32,
     1, 4000, 8, 8, 0, false, true, 1, ROWS_SHORT, 0},
    {"block pair norm p=2 f32, L=1000", RT_OP_NORM, RT_F32, RT_F32, 1, 9000, 1000, 1000, 0, false,
     false, 2, ROWS_PAIR, 1},
    {"short norm p=2 bf16, L=3", RT_OP_NORM, RT_BF16, RT_BF16, 1, 20001, 3, 3, 0, false, false, 2,
     ROWS_SHORT, 0},
    {"tile norm p=2 f64, L=33", RT_OP_NORM, RT_F64, RT_F64, 1, 3000, 33, 33, 1, false, false, 2, 1, 0},
    {"direct norm p=2 f16, sliced 40 of 48", RT_OP_NORM, RT_F16, RT_F16, 1, 800, 40, 48, 0, false,
     false, 2, 0, 1},
    /* Rows of 2-32 KiB, enough of them for 4 waves of blocks
       (tuned_rows.c rows_block): a block of 128 to 512 threads per row,
       each thread up to four 16-byte vectors at once (threads past the
       row's last full batch load one at a time); sliced and misaligned
       rows start at a different offset from a vector boundary each, so
       the scalar heads and tails vary. */
    {"block f32 sum, L=4096", RT_OP_SUM, RT_F32, RT_F32, 1, 4500, 4096, 4096, 0, false, false, 0,
     ROWS_BLOCK, 1},
    {"block f32 sum, sliced 4096 of 4097, misaligned", RT_OP_SUM, RT_F32, RT_F32, 1, 4500, 4096, 4097,
     1, false, false, 0, ROWS_BLOCK, 1},
    /* Sums and means of aligned whole batches on twice the threads, 2
       vectors each (tuned_rows.c row_block_wide), planned as on an H100
       (L=4096 above takes them on H100-class GPUs too). */
    {"block f32 sum, sliced 4096 of 8192, wide", RT_OP_SUM, RT_F32, RT_F32, 1, 4500, 4096, 8192, 0,
     false, false, 0, ROWS_WIDE, 1},
    {"block bf16 mean keepdim, L=4096, wide", RT_OP_MEAN, RT_BF16, RT_BF16, 1, 4500, 4096, 4096, 0,
     false, true, 0, ROWS_WIDE, 1},
    {"block i32 sum to i64, two kept dims, L=2048, wide", RT_OP_SUM, RT_I32, RT_I64, 2, 4500, 2048,
     2048, 0, false, false, 0, ROWS_WIDE, 1},
    {"block bf16 sum to f32, L=4100", RT_OP_SUM, RT_BF16, RT_F32, 1, 9000, 4100, 4100, 3, false,
     false, 0, ROWS_BLOCK, 1},
    {"block f64 sum, sliced 4096 of 4099", RT_OP_SUM, RT_F64, RT_F64, 1, 4500, 4096, 4099, 1,
     false, false, 0, ROWS_BLOCK, 1},
    {"block var, L=3000, misaligned", RT_OP_VAR, RT_F32, RT_F32, 1, 4500, 3000, 3000, 2, false, false,
     1, ROWS_BLOCK, 1},
    /* The scalar head and tail: up to 15 bytes at each end (from threads
       0, 1, ... and the block's last threads), and f32 argmax, which folds
       them before its vectors (reduce_rows.cuh EdgeAfterVectors). */
    {"block i8 sum to i64, sliced 16390 of 16391, misaligned", RT_OP_SUM, RT_I8, RT_I64, 1, 4500,
     16390, 16391, 5, false, false, 0, ROWS_BLOCK, 1},
    {"block f32 argmax, sliced 4096 of 4097, misaligned", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 4500, 4096,
     4097, 1, false, false, 0, ROWS_BLOCK, 1},
    /* Partial batches on every thread (about 1250 vectors over 512 x 4
       slots): the slots past the row reload the thread's first vector and
       are not folded (block_row). */
    {"block f32 sum, L=5000, partial batches", RT_OP_SUM, RT_F32, RT_F32, 1, 4500, 5000, 5000, 0,
     false, false, 0, ROWS_BLOCK, 1},
    {"block f32 argmax, L=5001, partial batches", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 4500, 5001, 5001, 0,
     false, false, 0, ROWS_BLOCK, 1},
    {"block i64 max, sliced 2500 of 2501, partial batches", RT_OP_MAX, RT_I64, RT_I64, 1, 4500, 2500,
     2501, 1, false, false, 0, ROWS_BLOCK, 1},
    /* var and std of aligned rows one batch covers exactly: two passes
       over registers and one block reduction of (mean, m2) pairs
       (tuned_rows.c two_pass), planned as on a GPU of SMALL_GPU_TEST_SMS
       SMs, where 4 waves of blocks need 128 rows of 256 threads, 64 of
       512, 256 of 128 (on an H100's 132 SMs 33 times as many: with the
       wide cases at that size test_reduce_cuda took 105 s there instead of
       71, bench/NOTES.md v1.30). The base shapes (256 x 4, 512 x 4 of f64,
       128 x 2, 128 x 4), then the wide blocks (512 x 2, 256 x 2) that
       H100-class GPUs take, 16-bit values in two passes among them. */
    {"block two-pass f32 var, L=4096", RT_OP_VAR, RT_F32, RT_F32, 1, 300, 4096, 4096, 0, false,
     false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f64 std keepdim, L=4096", RT_OP_STD, RT_F64, RT_F64, 1, 150, 4096, 4096, 0,
     false, true, 1, ROWS_TWO_PASS, 1},
    {"block two-pass bf16 var, L=2048", RT_OP_VAR, RT_BF16, RT_BF16, 1, 600, 2048, 2048, 0, false,
     false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f32 std, sliced 2048 of 4096, correction 0", RT_OP_STD, RT_F32, RT_F32, 2, 300,
     2048, 4096, 0, false, false, 0, ROWS_TWO_PASS, 1},
    {"block two-pass f32 var, L=4096, wide", RT_OP_VAR, RT_F32, RT_F32, 1, 150, 4096, 4096, 0,
     false, false, 1, ROWS_TWO_PASS_WIDE, 1},
    {"block two-pass f16 std keepdim, L=4096, wide", RT_OP_STD, RT_F16, RT_F16, 1, 300, 4096, 4096,
     0, false, true, 1, ROWS_TWO_PASS_WIDE, 1},
    {"block two-pass f32 std, sliced 2048 of 4096, two kept dims, correction 0, wide", RT_OP_STD,
     RT_F32, RT_F32, 2, 300, 2048, 4096, 0, false, false, 0, ROWS_TWO_PASS_WIDE, 1},
    /* Partial batches in two passes: thread t holds vectors t, t + nt,
       ... below the row's count, C or C - 1 of them, so the butterfly
       merges unequal counts where they meet: 2000 f64 vectors over 512 x
       4 (3 or 4 a thread), 1250 f32 vectors over 512 x 4 (2 or 3), 1500
       of a slice of 6000 of 6004 floats with two kept dims, 500 f64
       vectors over 128 x 4 (f64 var never pairs). On SMALL_GPU_TEST_SMS
       SMs 4 waves take 64 rows of 512 threads, 256 of 128. */
    {"block two-pass f64 std keepdim, L=4000 (partial batches)", RT_OP_STD, RT_F64, RT_F64, 1, 150,
     4000, 4000, 0, false, true, 0, ROWS_TWO_PASS, 1},
    {"block two-pass f32 var, L=5000 (a partial batch a thread)", RT_OP_VAR, RT_F32, RT_F32, 1, 100,
     5000, 5000, 0, false, false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f32 std, sliced 6000 of 6004, two kept dims, correction 0", RT_OP_STD, RT_F32,
     RT_F32, 2, 100, 6000, 6004, 0, false, false, 0, ROWS_TWO_PASS, 1},
    {"block pair argmax, two kept dims, keepdim", RT_OP_ARGMAX, RT_F32, RT_I64, 2, 2200, 2500, 2600,
     0, false, true, 0, ROWS_PAIR, 1},
    {"block i32 max with indices, L=2049", RT_OP_MAX, RT_I32, RT_I32, 1, 9000, 2049, 2049, 1, true,
     false, 0, ROWS_BLOCK, 1},
    {"block i32 sum to i64, L=3333", RT_OP_SUM, RT_I32, RT_I64, 1, 4500, 3333, 3333, 0, false, false,
     0, ROWS_BLOCK, 1},
    {"block bool all, sliced 5000 of 5003", RT_OP_ALL, RT_BOOL, RT_BOOL, 1, 9000, 5000, 5003, 0, false,
     false, 0, ROWS_BLOCK, 1},
    {"block norm p=2 f16, L=2100", RT_OP_NORM, RT_F16, RT_F16, 1, 9000, 2100, 2100, 0, false, false,
     2, ROWS_BLOCK, 1},
    {"block norm p=3 f32, L=2400", RT_OP_NORM, RT_F32, RT_F32, 1, 4500, 2400, 2400, 0, false, false,
     3, ROWS_BLOCK, 1},
    {"block u8 any, L=8192", RT_OP_ANY, RT_U8, RT_BOOL, 1, 9000, 8192, 8192, 0, false, false, 0,
     ROWS_BLOCK, 1},
    /* Aligned rows of whole vectors up to 12 KiB that a row a block would
       leave a partial batch go two to a block (tuned_rows.c
       ROWS_BLOCK_PAIR_*): an odd number of rows (the last block's second
       row is absent), a guarded batch of both rows that some threads
       leave short, two kept dims, the 1- and 2-byte cap of two vectors a
       thread; not for states over 16 bytes nor whole batches. */
    {"block pair f32 sum, L=1000, odd rows", RT_OP_SUM, RT_F32, RT_F32, 1, 8449, 1000, 1000, 0, false,
     false, 0, ROWS_PAIR, 1},
    {"block pair f32 var, L=1000", RT_OP_VAR, RT_F32, RT_F32, 1, 9001, 1000, 1000, 0, false, false, 1,
     ROWS_PAIR, 1},
    {"block pair bf16 sum to f32, L=2000", RT_OP_SUM, RT_BF16, RT_F32, 1, 9001, 2000, 2000, 0, false,
     false, 0, ROWS_PAIR, 1},
    {"block pair i64 sum, sliced 700 of 702", RT_OP_SUM, RT_I64, RT_I64, 1, 9001, 700, 702, 0,
     false, false, 0, ROWS_PAIR, 1},
    {"block pair f32 mean, L=3072 (768 vectors)", RT_OP_MEAN, RT_F32, RT_F32, 1, 4301, 3072, 3072,
     0, false, false, 0, ROWS_PAIR, 1},
    {"block f32 sum, L=1024 (whole batches: a row a block)", RT_OP_SUM, RT_F32, RT_F32, 1, 8500,
     1024, 1024, 0, false, false, 0, ROWS_BLOCK, 1},
    {"block pair u8 sum to i64, L=4000", RT_OP_SUM, RT_U8, RT_I64, 1, 9001, 4000, 4000, 0, false, false,
     0, ROWS_PAIR, 1},
    {"block pair bool any, L=2400", RT_OP_ANY, RT_BOOL, RT_BOOL, 1, 9001, 2400, 2400, 0, false, false,
     0, ROWS_PAIR, 1},
    /* 16-bit values in two passes: 4 vectors a thread (the two-pass
       kernel's 40 registers), 500 bf16 vectors over 128 x 4 (4 or 3 a
       thread) and the exact batch of 4096 on 128 x 4 (the H200 plan of
       TWO_PASS cases: 32 values a thread a row); at most 3, 3 (32
       registers, the general path for an exact batch too): 375 bf16
       vectors over 128 x 3 (3 or 2 a thread), 640 f16 vectors over 256 x
       3, 768 f16 vectors over 256 x 3 exactly. With the rule off, Welford's
       folds on 4 vectors a thread, the partial batch one vector at a time.
       On SMALL_GPU_TEST_SMS SMs 4 waves take 256 rows of 128 threads, 128
       of 256. */
    {"block two-pass bf16 var, L=4000 (128 x 4, partial)", RT_OP_VAR, RT_BF16, RT_BF16, 1, 300,
     4000, 4000, 0, false, false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass bf16 std, L=4096 (128 x 4, exact), correction 0", RT_OP_STD, RT_BF16, RT_BF16,
     1, 300, 4096, 4096, 0, false, false, 0, ROWS_TWO_PASS, 1},
    {"block two-pass bf16 var, L=3000 (128 x 3, partial)", RT_OP_VAR, RT_BF16, RT_BF16, 1, 300,
     3000, 3000, 0, false, false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f16 std keepdim, L=5120 (256 x 3, partial)", RT_OP_STD, RT_F16, RT_F16, 1, 150,
     5120, 5120, 0, false, true, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f16 var, L=6144 (256 x 3, exact)", RT_OP_VAR, RT_F16, RT_F16, 1, 150, 6144,
     6144, 0, false, false, 1, ROWS_TWO_PASS, 1},
    {"block two-pass f64 var, L=1000 (a row a block: a 32-byte state)", RT_OP_VAR, RT_F64, RT_F64,
     1, 300, 1000, 1000, 0, false, false, 1, ROWS_TWO_PASS, 1},
    /* f64 rows of 2 vectors a thread at most, the two-pass kernel's
       40-register f64 bound (RowsTwoPassBounds): 250 vectors over 128 x 2
       (2 or 1 a thread). */
    {"block two-pass f64 std, L=500 (128 x 2, partial)", RT_OP_STD, RT_F64, RT_F64, 1, 300, 500,
     500, 0, false, false, 1, ROWS_TWO_PASS, 1},
    {"block pair i32 max with indices, two kept dims, keepdim", RT_OP_MAX, RT_I32, RT_I32, 3, 3001,
     1000, 1004, 0, true, true, 0, ROWS_PAIR, 1},
    {"block pair f32 std, L=1500", RT_OP_STD, RT_F32, RT_F32, 1, 8449, 1500, 1500, 0, false, false, 1,
     ROWS_PAIR, 1},
    /* Two-pass pairs of 16-bit rows (two vectors a thread at most): 250
       vectors of bf16 over 128 x 2, an odd number of rows. */
    {"block pair bf16 var keepdim, L=2000, odd rows", RT_OP_VAR, RT_BF16, RT_BF16, 1, 9001, 2000,
     2000, 0, false, true, 1, ROWS_PAIR, 1},
};

/* A case of n rows of len elements, pitch apart, in outer blocks of n + 1
   rows (outer > 1) or n rows, reduced over the last dim. */
static void make_rows_case(rt_case *c, const rows_case *rc, uint64_t seed) {
    const int64_t rows = rc->outer > 1 ? rc->n + 1 : rc->n;
    const int64_t shape[3] = {rc->outer, rows, rc->pitch};
    const int dims[1] = {2};
    make_case(c, rc->op, rc->dt, rc->odt, 3, shape, dims, 1, rc->misalign, rc->idx, seed);
    /* The view: n rows of len, the buffer's strides; the output keeps its
       layout over [outer, n] (the extra row per block is never read). */
    c->in.shape[1] = rc->n;
    c->in.shape[2] = rc->len;
    rt_tensor *outs[2] = {&c->out, &c->idx};
    for (int k = 0; k < (rc->idx ? 2 : 1); k++) {
        rt_tensor *o = outs[k];
        o->ndim = rc->keepdim ? 3 : 2;
        o->shape[0] = rc->outer;
        o->shape[1] = rc->n;
        o->shape[2] = 1;
        o->strides[0] = rows;
        o->strides[1] = 1;
        o->strides[2] = 1;
    }
    c->keepdim = rc->keepdim;
    if (rc->op == RT_OP_NORM)
        c->p = rc->param;
    if (rc->op == RT_OP_VAR || rc->op == RT_OP_STD)
        c->correction = rc->param;
}

/* TUNED's config for the case must be the ROWS kernel of rc's kind and
   load width. */
static void expect_rows_kind(const rt_case *c, dev_case *d, const rows_case *rc) {
    rt__launch_config cfg = case_config(g_gpu, c, d, RT_POLICY_TUNED);
    if (cfg.kernel != RT__KERNEL_ROWS)
        fail_msg("%s: TUNED did not choose the ROWS kernel", rc->name);
    const int tile = rc->kind == ROWS_HALF_TILE && cfg.rows_group == 2 ? ROWS_HALF_TILE : ROWS_TILE;
    expect_field(rc->name, "ROWS kind", rc->kind,
                 cfg.rows_tile    ? tile
                 : cfg.rows_warp  ? ROWS_WARP
                 : cfg.rows_short ? ROWS_SHORT
                 : cfg.rows_block ? (cfg.rows_per_block == 2 ? ROWS_PAIR
                                     : cfg.rows_two_pass
                                         /* 2 vectors a thread on more than the
                                            fewest (128) threads: wide */
                                         ? (cfg.rows_in_flight == 2 && cfg.block[0] >= 256
                                                ? ROWS_TWO_PASS_WIDE
                                                : ROWS_TWO_PASS)
                                     : rc->kind == ROWS_WIDE && cfg.rows_in_flight == 2
                                         ? ROWS_WIDE
                                         : ROWS_BLOCK)
                                  : ROWS_DIRECT);
    expect_field(rc->name, "16-byte loads", rc->vec, cfg.rows_vec > 1);
}


/* Runs the case again with `rule` off and fails unless the run matches the
   reference and leaves the same bytes in every output buffer as the run
   before it (the gaps of a strided output too). Exact rows read the same
   values and fold them in the same order as the general path, so their
   outputs must be bit for bit the same. Returns the rule-off plan. */
static rt__launch_config expect_same_with_rule_off(rt_case *c, dev_case *d, case_ref *ref,
                                                   const char *name, unsigned rule) {
    const size_t out_bytes = c->out_buf.bytes, idx_bytes = c->has_idx ? c->idx_buf.bytes : 0;
    unsigned char *before = malloc(out_bytes + idx_bytes);
    if (before == NULL)
        fail_msg("out of host memory");
    memcpy(before, c->out_buf.base, out_bytes);
    if (idx_bytes > 0)
        memcpy(before + out_bytes, c->idx_buf.base, idx_bytes);
    assert_int_equal(rt__context_set_kinds_off(g_gpu, rule), RT_OK);
    const rt_status s = dev_case_run(g_gpu, c, d, RT_POLICY_TUNED, NULL);
    check_case_gpu_ref(c, ref, s, name);
    const rt__launch_config cfg = case_config(g_gpu, c, d, RT_POLICY_TUNED);
    assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
    const bool same = memcmp(before, c->out_buf.base, out_bytes) == 0 &&
                      (idx_bytes == 0 ||
                       memcmp(before + out_bytes, c->idx_buf.base, idx_bytes) == 0);
    free(before);
    if (!same)
        fail_msg("%s: the runs with and without rule 0x%x left different bytes", name, rule);
    return cfg;
}

static void test_rows(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const int own_gbps = rt__cuda_props(g_gpu)->mem_gbps;
    const int own_sms = rt__cuda_props(g_gpu)->num_sms;
    for (size_t i = 0; i < sizeof k_rows / sizeof k_rows[0]; i++) {
        const rows_case *rc = &k_rows[i];
        rt_case c;
        make_rows_case(&c, rc, 0x20550000ull + i);
        case_ref ref; /* one reference for every run of the case */
        memset(&ref, 0, sizeof ref);
        const bool h100_path = rc->kind == ROWS_WARP || rc->kind == ROWS_WIDE ||
                               rc->kind == ROWS_HALF_TILE || rc->kind == ROWS_TWO_PASS_WIDE;
        const bool two_pass = rc->kind == ROWS_TWO_PASS || rc->kind == ROWS_TWO_PASS_WIDE;
        case_plan_gbps(g_gpu, h100_path                   ? H100_CLASS_TEST_GBPS
                              : rc->kind == ROWS_TWO_PASS ? H200_TEST_GBPS
                                                          : own_gbps);
        case_plan_sms(g_gpu, two_pass ? SMALL_GPU_TEST_SMS : own_sms);
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
        check_case_gpu_ref(&c, &ref, s, rc->name);
        expect_rows_kind(&c, &d, rc);
        /* Exact rows in the direct, short and warp kernels: one kept dim
           (outer 1), and then the same bytes as the general row start and
           store. */
        const rt__launch_config planned = case_config(g_gpu, &c, &d, RT_POLICY_TUNED);
        if (!planned.rows_tile && !planned.rows_block) {
            if (planned.rows_exact != (rc->outer == 1))
                fail_msg("%s: rows_exact %d with %lld outer rows", rc->name, planned.rows_exact,
                         (long long)rc->outer);
            if (planned.rows_exact &&
                expect_same_with_rule_off(&c, &d, &ref, rc->name, RT__RULE_OFF_ROW_EXACT)
                    .rows_exact)
                fail_msg("%s: exact rows with the rule off", rc->name);
        }
        if (rc->kind == ROWS_WARP) {
            case_plan_gbps(g_gpu, H200_TEST_GBPS);
            s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
            check_case_gpu_ref(&c, &ref, s, rc->name);
            expect_rows_kind(&c, &d, rc);
            /* Two warps a block on 132 SMs; more on a GPU of fewer. */
            if (case_config(g_gpu, &c, &d, RT_POLICY_TUNED).block[0] < 64)
                fail_msg("%s: one warp a block at the H200's bandwidth", rc->name);
        }
        /* var/std in two passes: again with the rule off, Welford's folds
           on the same blocks (the path 16-bit rows of 4 vectors a thread
           take). */
        if (case_config(g_gpu, &c, &d, RT_POLICY_TUNED).rows_two_pass) {
            assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__RULE_OFF_ROW_TWO_PASS), RT_OK);
            s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
            check_case_gpu_ref(&c, &ref, s, rc->name);
            if (case_config(g_gpu, &c, &d, RT_POLICY_TUNED).rows_two_pass)
                fail_msg("%s: two passes with the rule off", rc->name);
            assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
        }
        case_plan_gbps(g_gpu, own_gbps);
        case_plan_sms(g_gpu, own_sms);
        s = dev_case_run(g_gpu, &c, &d, RT_POLICY_COMPAT, NULL);
        check_case_gpu_ref(&c, &ref, s, rc->name);
        case_ref_free(&ref);
        rt_case_free(&c);
    }
    dev_case_free(&d);
    print_message("rows cases: %zu\n", sizeof k_rows / sizeof k_rows[0]);
}

/* Exact rows (tuned_rows.c rows_exact, reduce_rows.cuh exact_row): a row
   a block of exactly rows_in_flight x block[0] aligned vectors and one
   kept dim, which the kernel starts at o x the kept dim's stride, reads in
   one unguarded batch and stores straight: every op family the block
   kernel serves, var and std in two passes among them, outputs of the
   usual dtype and of another, indices, an aligned slice, keepdim, and
   outputs every other element (`ostride` 2).
   Each is checked against the CPU reference, then run again with the rule
   off: the general row reads the same vectors and folds them in the same
   order, so both runs must leave the same bytes in every output buffer
   (the gaps of a strided output still poisoned). Planned as on an H100 of
   SMALL_GPU_TEST_SMS SMs, so that 300 rows make the 4 waves the block
   kernel needs. */
static void test_rows_exact(void **state) {
    (void)state;
    static const struct {
        rows_case rc;
        int ostride;
    } cases[] = {
        {{"exact f32 sum, L=4096 (512 x 2)", RT_OP_SUM, RT_F32, RT_F32, 1, 300, 4096, 4096, 0,
          false, false, 0, ROWS_WIDE, 1}, 1},
        {{"exact f64 sum, L=4096 (512 x 4)", RT_OP_SUM, RT_F64, RT_F64, 1, 300, 4096, 4096, 0, false,
          false, 0, ROWS_BLOCK, 1}, 1},
        {{"exact f32 max with indices, L=4096, output stride 2", RT_OP_MAX, RT_F32, RT_F32, 1, 300,
          4096, 4096, 0, true, false, 0, ROWS_BLOCK, 1}, 2},
        {{"exact f32 argmax keepdim, L=4096", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 300, 4096, 4096, 0,
          false, true, 0, ROWS_BLOCK, 1}, 1},
        {{"exact i32 sum to i64, L=4096", RT_OP_SUM, RT_I32, RT_I64, 1, 300, 4096, 4096, 0, false,
          false, 0, ROWS_WIDE, 1}, 1},
        {{"exact f32 sum to f64, L=4096, output stride 2", RT_OP_SUM, RT_F32, RT_F64, 1, 300, 4096,
          4096, 0, false, false, 0, ROWS_WIDE, 1}, 2},
        {{"exact bf16 mean keepdim, L=4096", RT_OP_MEAN, RT_BF16, RT_BF16, 1, 300, 4096, 4096, 0,
          false, true, 0, ROWS_WIDE, 1}, 1},
        {{"exact f32 norm p=3, L=4096", RT_OP_NORM, RT_F32, RT_F32, 1, 300, 4096, 4096, 0, false,
          false, 3, ROWS_BLOCK, 1}, 1},
        {{"exact u8 any, L=8192", RT_OP_ANY, RT_U8, RT_BOOL, 1, 300, 8192, 8192, 0, false, false, 0,
          ROWS_BLOCK, 1}, 1},
        {{"exact f32 sum, sliced 4096 of 8192", RT_OP_SUM, RT_F32, RT_F32, 1, 300, 4096, 8192, 0,
          false, false, 0, ROWS_WIDE, 1}, 1},
        {{"exact f32 var, L=4096 (two passes, 512 x 2)", RT_OP_VAR, RT_F32, RT_F32, 1, 300, 4096,
          4096, 0, false, false, 1, ROWS_TWO_PASS_WIDE, 1}, 1},
        {{"exact f64 std keepdim, L=4096 (two passes, 512 x 4), correction 0", RT_OP_STD, RT_F64,
          RT_F64, 1, 300, 4096, 4096, 0, false, true, 0, ROWS_TWO_PASS, 1}, 1},
        {{"exact bf16 var, L=4096 (two passes, 256 x 2), output stride 2", RT_OP_VAR, RT_BF16,
          RT_BF16, 1, 300, 4096, 4096, 0, false, false, 1, ROWS_TWO_PASS_WIDE, 1}, 2},
    };
    dev_case d;
    memset(&d, 0, sizeof d);
    const int own_gbps = case_plan_gbps(g_gpu, H100_CLASS_TEST_GBPS);
    const int own_sms = case_plan_sms(g_gpu, SMALL_GPU_TEST_SMS);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rows_case *rc = &cases[i].rc;
        rt_case c;
        make_rows_case(&c, rc, 0x20560000ull + i);
        if (cases[i].ostride > 1) {
            /* Outputs every ostride-th element of a buffer ostride times
               as long (the last output dim: the rows). */
            rt_case_buf *bufs[2] = {&c.out_buf, &c.idx_buf};
            rt_tensor *outs[2] = {&c.out, &c.idx};
            for (int k = 0; k < (rc->idx ? 2 : 1); k++) {
                const size_t bytes = bufs[k]->bytes * (size_t)cases[i].ostride;
                free(bufs[k]->base);
                case_buf_alloc(bufs[k], bytes, 0);
                outs[k]->data = bufs[k]->base;
                outs[k]->strides[0] = rc->n * cases[i].ostride;
                outs[k]->strides[1] = cases[i].ostride;
            }
        }
        case_ref ref;
        memset(&ref, 0, sizeof ref);
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
        check_case_gpu_ref(&c, &ref, s, rc->name);
        const rt__launch_config cfg = case_config(g_gpu, &c, &d, RT_POLICY_TUNED);
        if (cfg.kernel != RT__KERNEL_ROWS || !cfg.rows_block || !cfg.rows_exact)
            fail_msg("%s: TUNED did not choose the block kernel's exact rows", rc->name);
        const rt__launch_config off =
            expect_same_with_rule_off(&c, &d, &ref, rc->name, RT__RULE_OFF_ROW_EXACT);
        if (!off.rows_block || off.rows_exact)
            fail_msg("%s: exact rows with the rule off", rc->name);
        case_ref_free(&ref);
        rt_case_free(&c);
    }
    case_plan_gbps(g_gpu, own_gbps);
    case_plan_sms(g_gpu, own_sms);
    dev_case_free(&d);
    print_message("exact rows cases: %zu\n", sizeof cases / sizeof cases[0]);
}

/* Ties and NaNs through the ROWS kernels: the tile starts each row at a
   rotated column, the direct kernel splits a row over lanes, and the block
   kernel folds a row's scalar head and tail before its vectors (rows of
   2501 start at four different offsets from a vector boundary), yet the
   lowest index still wins. */
static void test_rows_ties_and_nan(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const rows_case shapes[6] = {
        {"tile", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 1000, 32, 32, 0, false, false, 0, 1, 0},
        {"tile, lane groups", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 1000, 100, 100, 0, false, false, 0, 1,
         0},
        {"direct", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 300, 32, 40, 0, false, false, 0, 0, 1},
        {"short", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 3000, 8, 8, 0, false, false, 0, ROWS_SHORT, 0},
        {"block", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 4500, 2500, 2501, 0, false, false, 0, ROWS_BLOCK,
         1},
        {"block pair", RT_OP_ARGMAX, RT_F32, RT_I64, 1, 8501, 1500, 1500, 0, false, false, 0,
         ROWS_PAIR, 1}};
    for (int variant = 0; variant < 24; variant++) {
        rows_case rc = shapes[variant % 6];
        rc.op = (variant / 6) % 2 ? RT_OP_ARGMIN : RT_OP_ARGMAX;
        const bool nan = variant >= 12;
        rt_case c;
        make_rows_case(&c, &rc, 0x7135ull + (uint64_t)variant);
        float *x = (float *)c.in.data;
        const float v = nan ? NAN : (rc.op == RT_OP_ARGMAX ? 7.0f : -7.0f);
        /* The first extreme at column f + r % 3, later ones at len - 3
           and len - 1. */
        const int64_t f = rc.len >= 32 ? 4 : 1;
        for (int64_t r = 0; r < rc.n; r++) {
            x[r * rc.pitch + rc.len - 3] = v;
            x[r * rc.pitch + f + r % 3] = v;
            x[r * rc.pitch + rc.len - 1] = v;
        }
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
        check_case_gpu(&c, s, "rows ties / NaN");
        expect_rows_kind(&c, &d, &rc);
        const int64_t *got = (const int64_t *)c.out.data;
        for (int64_t r = 0; r < rc.n; r++)
            if (got[r] != f + r % 3)
                fail_msg("%s variant %d row %lld: index %lld, want %lld", rc.name, variant,
                         (long long)r, (long long)got[r], (long long)(f + r % 3));
        rt_case_free(&c);
    }
    dev_case_free(&d);
}

/* ---- the TUNED policy's own paths ------------------------------------------------ */

/* Cases whose TUNED config must take a path COMPAT does not (tuned.c), or
   that drive a kernel change through every op family: 16-bit sums read in
   8-wide vectors (rows longer than the ROWS kernel takes), 16-byte loads of 1- and 2-byte any/all rows, four loads
   in flight, the block split of mid-size full reductions, 512-lane rows
   reduced warp-first. Odd sizes and misaligned starts exercise the heads
   and tails. The fields are what TUNED's config must have. */
static const branch_case k_tuned[] = {
    {"tuned: bf16 sum rows, 8-wide", RT_OP_SUM, RT_BF16, RT_BF16, 2, {64, 2500}, 1, {1}, 3, false, 0,
     1, 1, 1, ANY_OF, 0},
    {"tuned: f16 sum rows to f32, odd", RT_OP_SUM, RT_F16, RT_F32, 2, {33, 4099}, 1, {1}, 7, false, 0,
     1, 1, 1, ANY_OF, 0},
    {"tuned: bf16 mean rows", RT_OP_MEAN, RT_BF16, RT_BF16, 2, {17, 2053}, 1, {1}, 1, false, 0, 1, 1,
     1, ANY_OF, 0},
    {"tuned: f16 sum, one long row", RT_OP_SUM, RT_F16, RT_F32, 1, {300001}, 1, {0}, 5, false, 0, 1, 1,
     1, 1, 1},
    {"tuned: bool any rows, 16-byte loads", RT_OP_ANY, RT_BOOL, RT_BOOL, 2, {64, 4099}, 1, {1}, 9,
     false, 0, 1, 1, 1, ANY_OF, 0},
    {"tuned: u8 all rows", RT_OP_ALL, RT_U8, RT_BOOL, 2, {40, 3001}, 1, {1}, 15, false, 0, 1, 1, 1,
     ANY_OF, 0},
    {"tuned: i16 any rows", RT_OP_ANY, RT_I16, RT_BOOL, 2, {40, 3001}, 1, {1}, 3, false, 0, 1, 1, 1,
     ANY_OF, 0},
    {"tuned: i32 sum rows (i64 state)", RT_OP_SUM, RT_I32, RT_I64, 2, {64, 4097}, 1, {1}, 1, false, 0,
     1, 1, 1, ANY_OF, 0},
    {"tuned: var rows, 4 loads in flight", RT_OP_VAR, RT_F32, RT_F32, 2, {64, 4097}, 1, {1}, 1, false,
     1, 1, 1, 1, ANY_OF, 0},
    {"tuned: f64 std rows", RT_OP_STD, RT_F64, RT_F64, 2, {16, 4097}, 1, {1}, 1, false, 0, 1, 1, 1,
     ANY_OF, 0},
    {"tuned: 256 KB f32 sum, block split", RT_OP_SUM, RT_F32, RT_F32, 1, {65536}, 1, {0}, 0, false, 0,
     1, 1, 1, 1, 1},
    {"tuned: 256 KB argmax, block split", RT_OP_ARGMAX, RT_F32, RT_I64, 1, {65537}, 1, {0}, 1, false,
     0, 1, 1, 1, 1, 1},
    {"tuned: 256 KB var, block split", RT_OP_VAR, RT_F32, RT_F32, 1, {65536}, 1, {0}, 2, false, 1, 1,
     1, 1, 1, 1},
    {"tuned: 256 KB min with indices", RT_OP_MIN, RT_F32, RT_F32, 1, {65536}, 1, {0}, 0, true, 0, 1,
     1, 1, 1, 1},
    {"tuned: 256 KB norm p=3, block split", RT_OP_NORM, RT_F32, RT_F32, 1, {65536}, 1, {0}, 0, false,
     3, 1, 1, 1, 1, 1},
    {"tuned: 64 KB norm p=2, one block, no y split", RT_OP_NORM, RT_F32, RT_F32, 1, {16383}, 1, {0},
     1, false, 2, 1, 1, 1, 0, 0},
    {"tuned: 256 KB i64 prod", RT_OP_PROD, RT_I64, RT_I64, 1, {32768}, 1, {0}, 1, false, 0, 1, 1, 1,
     1, 1},
    {"tuned: full f32 amax, 2^22", RT_OP_MAX, RT_F32, RT_F32, 1, {1 << 22}, 1, {0}, 1, false, 0, 1, 1,
     1, 1, 1},
    {"tuned: 256 f32 (TINY kernel)", RT_OP_SUM, RT_F32, RT_F32, 1, {256}, 1, {0}, 1, false, 0, 1, 1, 1,
     0, 0},
    {"tuned: 500 bf16 mean (TINY kernel)", RT_OP_MEAN, RT_BF16, RT_F32, 1, {500}, 1, {0}, 3, false, 0,
     1, 1, 1, 0, 0},
    {"tuned: 300 f32 argmin (TINY kernel)", RT_OP_ARGMIN, RT_F32, RT_I64, 1, {300}, 1, {0}, 2, false, 0,
     1, 1, 1, 0, 0},
    {"tuned: rows of 2048 over 64-lane blocks", RT_OP_SUM, RT_F32, RT_F32, 2, {8, 20000}, 1, {1}, 2,
     false, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: column sums, outputs vectorized", RT_OP_SUM, RT_F32, RT_F32, 2, {5000, 1024}, 1, {0}, 0,
     false, 0, 0, 4, 0, 1, ANY_OF},
    /* 256 columns: 4 outputs a thread would be held under a wave by the
       tail cap; f32 takes rule 10's tall blocks at 4, f16 (whose kernel
       takes 128 threads at 4) rule 8's 2. */
    {"tuned: few columns, rule 10", RT_OP_SUM, RT_F32, RT_F32, 2, {5000, 256}, 1, {0}, 0, false, 0, 0,
     4, 0, 1, ANY_OF},
    {"tuned: few columns, rule 8", RT_OP_SUM, RT_F16, RT_F32, 2, {5000, 256}, 1, {0}, 0, false, 0, 0,
     2, 0, 1, ANY_OF},
    /* Several reduced dims around kept ones, the contiguous one read in
       vectors (vectorized_nd_reduce): every op family and vector width. */
    {"tuned: nd vectors, f32 sum", RT_OP_SUM, RT_F32, RT_F32, 4, {12, 5, 9, 64}, 2, {1, 3}, 0, false,
     0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, argmax", RT_OP_ARGMAX, RT_F32, RT_I64, 4, {12, 5, 9, 64}, 2, {1, 3}, 0,
     false, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, max with indices", RT_OP_MAX, RT_F32, RT_F32, 4, {12, 5, 9, 64}, 2, {1, 3},
     0, true, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, var", RT_OP_VAR, RT_F32, RT_F32, 4, {12, 5, 9, 64}, 2, {1, 3}, 0, false, 1,
     1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, bf16 sum 8-wide", RT_OP_SUM, RT_BF16, RT_F32, 4, {8, 33, 6, 48}, 2, {1, 3},
     0, false, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, bool any 16-wide", RT_OP_ANY, RT_BOOL, RT_BOOL, 4, {8, 33, 6, 64}, 2, {1, 3},
     0, false, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, f64 sum 32-byte", RT_OP_SUM, RT_F64, RT_F64, 4, {4, 9, 5, 16}, 2, {1, 3}, 0,
     false, 0, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, three reduced dims", RT_OP_NORM, RT_F32, RT_F32, 5, {3, 4, 6, 5, 32}, 3,
     {0, 2, 4}, 0, false, 2, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd vectors, block split", RT_OP_SUM, RT_F32, RT_F32, 4, {3, 200, 2, 256}, 2, {1, 3}, 0,
     false, 0, 1, 1, 1, 1, 1},
    {"tuned: nd vectors, argmin block split", RT_OP_ARGMIN, RT_F32, RT_I64, 4, {3, 200, 2, 256}, 2,
     {1, 3}, 0, false, 0, 1, 1, 1, 1, 1},
    {"tuned: nd, misaligned base, scalar", RT_OP_SUM, RT_F32, RT_F32, 4, {12, 5, 9, 64}, 2, {1, 3}, 1,
     false, 0, 0, 1, 1, ANY_OF, ANY_OF},
    {"tuned: nd, 36-wide rows, scalar", RT_OP_SUM, RT_F32, RT_F32, 4, {12, 5, 9, 36}, 2, {1, 3}, 0,
     false, 0, 0, 1, 1, ANY_OF, ANY_OF},
    /* Few outputs, long outer reductions: hundreds of blocks per tile and
       a last block that folds their partials in batches (tail_loads),
       with a remainder. The f32 sums and means take rule 10's tall blocks
       at 4 outputs a thread, the i32 sums (whose kernel takes 128 threads
       at 4) fewer outputs a thread under rule 8 (132 SMs, the kernels'
       sm_90 registers and bounds: rt_explain --kernel-regs 32,46,56
       --kernel-threads 512,512,512 for f32, 38,53,70 and 512,256,128 for
       i32). */
    {"tuned: 64 column sums, many blocks", RT_OP_SUM, RT_F32, RT_F32, 2, {200003, 64}, 1, {0}, 0,
     false, 0, 0, 4, 0, 1, 1},
    {"tuned: 100 column means, many blocks", RT_OP_MEAN, RT_F32, RT_F32, 2, {100001, 100}, 1, {0}, 0,
     false, 0, 0, 4, 0, 1, 1},
    {"tuned: 64 column argmax, many blocks", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {100003, 64}, 1, {0}, 0,
     false, 0, 0, 1, 0, 1, 1},
    {"tuned: 64 column max with indices, many blocks", RT_OP_MAX, RT_F32, RT_F32, 2, {100003, 64}, 1,
     {0}, 0, true, 0, 0, 1, 0, 1, 1},
    {"tuned: 64 column i32 sums, many blocks", RT_OP_SUM, RT_I32, RT_I64, 2, {100003, 64}, 1, {0}, 0,
     false, 0, 0, 1, 0, 1, 1},
    /* The p = 2 norm's own kernel (Norm2Op) on every path. */
    {"tuned: f16 norm p=2, one long row", RT_OP_NORM, RT_F16, RT_F16, 1, {300001}, 1, {0}, 5, false,
     2, 1, 1, 1, 1, 1},
    /* (Rule 8: one output a thread, 8-byte states folding one partial a
       trip.) */
    {"tuned: f64 norm p=2 columns", RT_OP_NORM, RT_F64, RT_F64, 2, {5000, 64}, 1, {0}, 0, false, 2,
     0, 1, 0, 1, ANY_OF},
    {"tuned: bf16 norm p=2, nd vectors", RT_OP_NORM, RT_BF16, RT_F32, 4, {8, 33, 6, 48}, 2, {1, 3},
     0, false, 2, 1, 1, 1, ANY_OF, ANY_OF},
    {"tuned: norm p=2, general offsets", RT_OP_NORM, RT_F32, RT_F32, 4, {100, 7, 50, 9}, 2, {0, 2}, 0,
     false, 2, 0, 1, 0, 1, 1},
};

/* TUNED rule 6 (tuned.c): rows on 128-thread blocks, 128 lanes a row
   (four warps through shared memory) for one-number states, else a warp a
   row and 4 rows a block; row counts that are not a multiple of 4, heads
   and tails. lanes is the block.x TUNED must choose. */
typedef struct lanes_case {
    branch_case b;
    int lanes;
} lanes_case;

static const lanes_case k_row_blocks[] = {
    {{"tuned: f32 sum rows, 128 lanes, misaligned", RT_OP_SUM, RT_F32, RT_F32, 2, {37, 4099}, 1, {1},
     1, false, 0, 1, 1, 1, 0, 0}, 128},
    {{"tuned: f64 max rows, 128 lanes", RT_OP_MAX, RT_F64, RT_F64, 2, {29, 5001}, 1, {1}, 3, false, 0,
     1, 1, 1, 0, 0}, 128},
    {{"tuned: i64 prod rows, 128 lanes", RT_OP_PROD, RT_I64, RT_I64, 2, {19, 4100}, 1, {1}, 0, false, 0,
     1, 1, 1, 0, 0}, 128},
    {{"tuned: u8 sum rows to i64, 128 lanes", RT_OP_SUM, RT_U8, RT_I64, 2, {50, 4103}, 1, {1}, 1,
     false, 0, 1, 1, 1, 0, 0}, 128},
    {{"tuned: bf16 mean rows, 128 lanes", RT_OP_MEAN, RT_BF16, RT_F32, 2, {21, 4096}, 1, {1}, 0,
     false, 0, 1, 1, 1, 0, 0}, 128},
    {{"tuned: f16 min rows, 128 lanes, misaligned", RT_OP_MIN, RT_F16, RT_F16, 2, {17, 4100}, 1, {1}, 5,
     false, 0, 1, 1, 1, 0, 0}, 128},
    {{"tuned: f32 sum, short rows, a warp a row", RT_OP_SUM, RT_F32, RT_F32, 2, {77, 1500}, 1, {1}, 2,
     false, 0, 1, 1, 1, 0, 0}, 32},
    {{"tuned: argmin rows, a warp a row", RT_OP_ARGMIN, RT_F32, RT_I64, 2, {70, 3000}, 1, {1}, 1, false,
     0, 1, 1, 1, 0, 0}, 32},
    {{"tuned: max with indices rows, a warp a row", RT_OP_MAX, RT_F64, RT_F64, 2, {23, 4097}, 1, {1},
     1, true, 0, 1, 1, 1, 0, 0}, 32},
    {{"tuned: std rows, a warp a row", RT_OP_STD, RT_F32, RT_F32, 2, {66, 4097}, 1, {1}, 3, false, 1,
     1, 1, 1, 0, 0}, 32},
    {{"tuned: norm p=2 rows, 128 lanes (its own kernel)", RT_OP_NORM, RT_F32, RT_F32, 2, {70, 4097},
     1, {1}, 1, false, 2, 1, 1, 1, 0, 0}, 128},
    {{"tuned: norm p=3 rows, a warp a row", RT_OP_NORM, RT_F32, RT_F32, 2, {70, 4097}, 1, {1}, 1,
     false, 3, 1, 1, 1, 0, 0}, 32},
};

/* TUNED rule 9 (tuned.c): outer reductions whose lanes own 4 outputs
   take 16 lanes x 8 warp rows and half the split where the split is 2 or
   the state is Welford's (split evenly). var over 128 rows: 32 loads a
   thread at 4 warp rows, a split of 8 wherever the device holds 8 blocks
   of 128 a tile (any GPU of 32 SMs or more), 4 on 16 x 8; full tiles and
   a partial last tile (4100 columns: 1025 thread columns). The sums split
   in 2 where the device holds about 2 blocks of 128 a tile (H100: 9 a
   SM, a wave of 1188 over 512 tiles: 65536 columns, or 256 x 256 outputs
   over 128 rows); their lanes are not asserted (other devices split them
   otherwise). With no split (64 rows of 16 x 256 or 32 x 256 outputs:
   2048 tiles of 16 x 8) 16 lanes too. 16-bit inputs (128-byte row
   segments) and 32 rows that PyTorch's blocks do not split over their
   warp rows keep 32 lanes. */
static const lanes_case k_outer_tiles[] = {
    {{"tuned: outer tiles, f32 var", RT_OP_VAR, RT_F32, RT_F32, 2, {128, 4096}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 16},
    {{"tuned: outer tiles, f32 std, partial tile", RT_OP_STD, RT_F32, RT_F32, 2, {128, 4100}, 1, {0},
      0, false, 1, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 16},
    {{"tuned: outer tiles, f32 sum split 2", RT_OP_SUM, RT_F32, RT_F32, 2, {64, 65536}, 1, {0}, 0,
      false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: outer tiles, f32 mean over (0, 2)", RT_OP_MEAN, RT_F32, RT_F32, 4, {4, 256, 32, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: outer tiles, f64 max over (0, 2)", RT_OP_MAX, RT_F64, RT_F64, 4, {4, 256, 32, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: outer tiles, f32 sum with no split (dim 1 of 4)", RT_OP_SUM, RT_F32, RT_F32, 4,
      {32, 64, 16, 256}, 1, {1}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 16},
    {{"tuned: outer tiles, f32 mean with no split (dim 1 of 4)", RT_OP_MEAN, RT_F32, RT_F32, 4,
      {16, 64, 32, 256}, 1, {1}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 16},
    {{"tuned: no outer tiles, f16 sum", RT_OP_SUM, RT_F16, RT_F16, 2, {128, 4096}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 32},
    {{"tuned: no outer tiles, no split", RT_OP_SUM, RT_F32, RT_F32, 2, {32, 4096}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 32},
};

/* TUNED rule 10 (tuned.c): outer reductions of sum-like ops with few
   outputs over long columns, whose last block's fold caps PyTorch-shaped
   blocks' split, take blocks of 16 lanes x 32 warp rows at 4 outputs a
   lane (the f32 kernels are built for 512 threads at any output width).
   64 columns (one tile); sums, a mean, a max. Rule 14: packed rows whose
   thread columns leave rule 10's second tile partly idle take one tile of
   exactly those lanes: 100 columns (25 thread columns, 20 warp rows), 68
   (17, 30 rows, an odd row count), 124 (31), 96 (24); each also with the
   rule off, in rule 10's two tiles (the second of 9, 1, 15 and 8 lanes).
   Rule 12: the same blocks for PyTorch's 32 x 4 tiles split over more
   than 2 blocks, the fold not capping it: 2048 columns (32 tall tiles),
   1028 (17, the last of one lane), 4096. tall TALL_YES: those blocks;
   TALL_WHOLE: rule 14's; TALL_NO: neither (f64, whose kernel at 4
   outputs takes 128 threads; var, not sum-like). */
enum { TALL_NO = 0, TALL_YES = 1, TALL_WHOLE = 2 };
typedef struct tall_case {
    branch_case b;
    int tall;
} tall_case;

/* TUNED rule 11: outer reductions rule 2 splits, whose outputs fill 7/8
   to all of a wave of tiles of 32 lanes x 16 warp rows (H100 and H200:
   132 SMs x 2 blocks of 512, 231-264 tiles of 128 outputs), take those
   tiles with no split: 32768 columns (256 tiles), 30000 (235, the last
   partial); sum, var, max.
   wave 1 on 132 SMs: those tiles; 0: not them (16384 columns, half a
   wave; f16). */
static const tall_case k_outer_wave[] = {
    {{"tuned: outer wave, f32 sum", RT_OP_SUM, RT_F32, RT_F32, 2, {128, 32768}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: outer wave, f32 var", RT_OP_VAR, RT_F32, RT_F32, 2, {128, 32768}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: outer wave, f32 max, partial tile", RT_OP_MAX, RT_F32, RT_F32, 2, {100, 30000}, 1, {0},
      0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: no outer wave, half a wave", RT_OP_SUM, RT_F32, RT_F32, 2, {128, 16384}, 1, {0}, 0,
      false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: no outer wave, f16", RT_OP_SUM, RT_F16, RT_F32, 2, {128, 32768}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
};

static const tall_case k_outer_tall[] = {
    {{"tuned: whole rows, f32 sum of 100 columns", RT_OP_SUM, RT_F32, RT_F32, 2, {20000, 100}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, TALL_WHOLE},
    {{"tuned: tall outer, f32 mean of 64 columns", RT_OP_MEAN, RT_F32, RT_F32, 2, {40000, 64}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, TALL_YES},
    {{"tuned: whole rows, f32 max of 68 columns", RT_OP_MAX, RT_F32, RT_F32, 2, {30011, 68}, 1, {0},
      0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, TALL_WHOLE},
    {{"tuned: whole rows, f32 mean of 124 columns", RT_OP_MEAN, RT_F32, RT_F32, 2, {21001, 124}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, TALL_WHOLE},
    {{"tuned: whole rows, f32 sum of 96 columns", RT_OP_SUM, RT_F32, RT_F32, 2, {19999, 96}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, TALL_WHOLE},
    {{"tuned: no tall outer, f64 sum", RT_OP_SUM, RT_F64, RT_F64, 2, {20000, 100}, 1, {0}, 0, false,
      0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: no tall outer, f32 var", RT_OP_VAR, RT_F32, RT_F32, 2, {20000, 100}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"tuned: tall split, f32 sum of 2048 columns", RT_OP_SUM, RT_F32, RT_F32, 2, {1000, 2048}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: tall split, f32 mean of 1028 columns", RT_OP_MEAN, RT_F32, RT_F32, 2, {999, 1028}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: tall split, f32 max of 4096 columns", RT_OP_MAX, RT_F32, RT_F32, 2, {777, 4096}, 1,
      {0}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"tuned: no tall split, f32 var", RT_OP_VAR, RT_F32, RT_F32, 2, {1000, 2048}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
};

/* TUNED rule 7 (tuned.c): sum-like ops split a long vector-read index in
   contiguous chunks, one per block, on H100-class GPUs (the cases plan as
   on one); heads off the vector boundary, chunks the last of which is
   short, two rows, and the ops left interleaved. The sizes clear rule 7's
   threshold (over 4 vectors a thread at one wave) on 132 SMs whatever the
   kernels' register counts. The full reductions
   among them run with the STREAM kernel turned off (test_tuned_paths),
   which would otherwise take them. */
typedef struct chunk_case {
    branch_case b;
    int chunked;
} chunk_case;

static const chunk_case k_chunked[] = {
    {{"tuned: chunked f32 sum, misaligned head", RT_OP_SUM, RT_F32, RT_F32, 1, {5000003}, 1, {0}, 1,
      false, 0, 1, 1, 1, 1, 1}, 1},
    {{"tuned: chunked f32 sum, many waves", RT_OP_SUM, RT_F32, RT_F32, 1, {20000017}, 1, {0}, 2,
      false, 0, 1, 1, 1, 1, 1}, 1},
    {{"tuned: chunked f32 max", RT_OP_MAX, RT_F32, RT_F32, 1, {4800001}, 1, {0}, 3, false, 0, 1, 1, 1,
      1, 1}, 1},
    {{"tuned: chunked bf16 mean to f32, 8-wide", RT_OP_MEAN, RT_BF16, RT_F32, 1, {9000011}, 1, {0}, 5,
      false, 0, 1, 1, 1, 1, 1}, 1},
    {{"tuned: chunked f64 sum", RT_OP_SUM, RT_F64, RT_F64, 1, {5000001}, 1, {0}, 1, false, 0, 1, 1, 1,
      1, 1}, 1},
    {{"tuned: chunked i32 sum to i64", RT_OP_SUM, RT_I32, RT_I64, 1, {6000001}, 1, {0}, 2, false, 0,
      1, 1, 1, 1, 1}, 1},
    {{"tuned: chunked norm p=2", RT_OP_NORM, RT_F32, RT_F32, 1, {5000003}, 1, {0}, 0, false, 2, 1, 1,
      1, 1, 1}, 1},
    {{"tuned: chunked rows, two of 5M", RT_OP_SUM, RT_F32, RT_F32, 2, {2, 5000000}, 1, {1}, 0, false,
      0, 1, 1, ANY_OF, ANY_OF, 1}, 1},
    {{"tuned: argmax stays interleaved", RT_OP_ARGMAX, RT_F32, RT_I64, 1, {5000000}, 1, {0}, 1, false,
      0, 1, 1, 1, 1, 1}, 0},
    {{"tuned: var stays interleaved", RT_OP_VAR, RT_F32, RT_F32, 1, {5000000}, 1, {0}, 1, false, 1, 1,
      1, 1, 1, 1}, 0},
};

/* Runs case c (made from b) on TUNED (twice: the same bits) and on
   COMPAT; lanes > 0: the block.x TUNED's config must have; chunked (0, 1)
   its input_chunked and kernel (rt__kernel_kind) its kernel (ANY_OF: not
   asserted). Returns a copy of TUNED's output buffer (c.out_buf.bytes),
   the caller's to free. */
static unsigned char *check_tuned_case(const branch_case *b, rt_case *c, int lanes, int chunked,
                                       int kernel, dev_case *d) {
    case_ref ref;
    memset(&ref, 0, sizeof ref);
    rt_status s = dev_case_run(g_gpu, c, d, RT_POLICY_TUNED, NULL);
    check_case_gpu_ref(c, &ref, s, b->name);
    expect_branch_config(b, c, d, RT_POLICY_TUNED);
    const rt__launch_config cfg = case_config(g_gpu, c, d, RT_POLICY_TUNED);
    if (lanes > 0)
        expect_field(b->name, "block.x", lanes, cfg.block[0]);
    expect_field(b->name, "input_chunked", chunked, cfg.input_chunked);
    expect_field(b->name, "kernel", kernel, (int)cfg.kernel);
    /* Run to run the same bits (no float atomics, fixed combine order). */
    unsigned char *first = malloc(c->out_buf.bytes + 1);
    assert_non_null(first);
    memcpy(first, c->out_buf.base, c->out_buf.bytes);
    s = dev_case_run(g_gpu, c, d, RT_POLICY_TUNED, NULL);
    assert_int_equal(s, RT_OK);
    if (memcmp(first, c->out_buf.base, c->out_buf.bytes) != 0)
        fail_msg("%s: two TUNED runs differ", b->name);
    /* COMPAT on the same case, through the same kernels. */
    s = dev_case_run(g_gpu, c, d, RT_POLICY_COMPAT, NULL);
    check_case_gpu_ref(c, &ref, s, b->name);
    case_ref_free(&ref);
    return first;
}

/* check_tuned_case on the case of b; returns TUNED's config of it. */
static rt__launch_config run_tuned_case(const branch_case *b, uint64_t seed, int lanes,
                                        int chunked, int kernel, dev_case *d) {
    rt_case c;
    make_branch_case(&c, b, seed);
    free(check_tuned_case(b, &c, lanes, chunked, kernel, d));
    const rt__launch_config cfg = case_config(g_gpu, &c, d, RT_POLICY_TUNED);
    rt_case_free(&c);
    return cfg;
}

/* Walks (launch.h): a thread's successive reduced indices, a block step
   apart, reached by an add a load (and a carry where digit 0 wraps)
   instead of dividing each out. Steps of whole units of the slowest
   reduced dim, on the vector path: every op family's vector width, a
   tail of fewer than a batch of loads, PyTorch's interleaved block split,
   a step of several units, the chunked split. Two reduced dims whose
   digit 0 wraps: vectors, one output a thread and 4 (outputs vectorized),
   indexed ops, Welford, int64 states. Two shapes of three reduced dims
   whose step is no whole number of units divide. Uniform walks (every
   thread the same count, a linear start, digit 0's wraps on the same
   steps): whole units and wraps, on the vector path with counts
   that are and are not a multiple of the op's loads in flight (f32 sums
   4, the others 2), with a block split's term; on the strided path
   (COMPAT's config: lanes on outputs). walk: what the executor must
   pack, {walk, walk_step, walk_digit, walk_carry, walk_count} (132 SMs
   and the sm_90 kernels' registers, H100 and H200 alike). */
typedef struct walk_case {
    branch_case b;
    int32_t walk[5];
    int chunked; /* 1: planned as on an H100, a chunked block split (rule 7) */
    int compat;  /* 1: walk is COMPAT's (else TUNED's) */
} walk_case;

static const walk_case k_walks[] = {
    /* [6,8,16,8,128] over (0,2,4): blocks of 512 vectors, each a unit of
       dim 0 (16 x 128 floats; 8 x 16 x 8 x 128 floats = 512 KiB apart), 6
       a thread, uniform (lanes 4 floats apart in dim 0, warps a row of
       dim 1 each): f32 sums take 4 loads in flight, so a batch of 4 and a
       tail of 2 on the counted walk; the others 2, so the uniform walk. */
    {{"walk: f32 sum, whole units", RT_OP_SUM, RT_F32, RT_F32, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4},
      0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 6}, 0, 0},
    {{"walk: argmax, whole units", RT_OP_ARGMAX, RT_F32, RT_I64, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4},
      0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 6}, 0, 0},
    {{"walk: min with indices, whole units", RT_OP_MIN, RT_F32, RT_F32, 5, {6, 8, 16, 8, 128}, 3,
      {0, 2, 4}, 0, true, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 6}, 0, 0},
    {{"walk: var, whole units", RT_OP_VAR, RT_F32, RT_F32, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4}, 0,
      false, 1, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 6}, 0, 0},
    {{"walk: norm p=3, whole units", RT_OP_NORM, RT_F32, RT_F32, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4},
      0, false, 3, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 6}, 0, 0},
    /* 8-wide bf16 vectors: a step of 2 units (2 x 256 KiB), not uniform
       (32 lanes of 8 overrun dim 0's 128); 16-wide bool vectors: 4 units
       of 128 KiB, not uniform (768 vectors, 1.5 steps); 4-wide doubles: 1
       unit of 1 MiB. */
    {{"walk: bf16 sum to f32, 2 units", RT_OP_SUM, RT_BF16, RT_F32, 5, {6, 8, 16, 8, 128}, 3,
      {0, 2, 4}, 0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 0}, 0, 0},
    {{"walk: bool any, 4 units", RT_OP_ANY, RT_BOOL, RT_BOOL, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4},
      0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 524288, 0, 0, 0}, 0, 0},
    {{"walk: f64 sum, whole units", RT_OP_SUM, RT_F64, RT_F64, 5, {6, 8, 16, 8, 128}, 3, {0, 2, 4},
      0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 1048576, 0, 0, 6}, 0, 0},
    /* [256,2,16,128] over (0,2,3): 2 outputs, 64 blocks each, interleaved
       (step 32768 vectors = 64 units of 2048 floats, 16 KiB apart), 4
       steps a thread, uniform with block y's term (a unit). */
    {{"walk: block split sum", RT_OP_SUM, RT_F32, RT_F32, 4, {256, 2, 16, 128}, 3, {0, 2, 3}, 0,
      false, 0, 1, 1, 1, 1, 1}, {1, 1048576, 0, 0, 4}, 0, 0},
    {{"walk: block split argmin", RT_OP_ARGMIN, RT_F32, RT_I64, 4, {256, 2, 16, 128}, 3, {0, 2, 3},
      0, false, 0, 1, 1, 1, 1, 1}, {1, 1048576, 0, 0, 4}, 0, 0},
    /* [3,200,2,256] over (1,3): 3584 vectors a step, 56 rows of 256
       floats (2 KiB apart); 3 or 4 a thread. */
    {{"walk: 56 rows a step", RT_OP_SUM, RT_F32, RT_F32, 4, {3, 200, 2, 256}, 2, {1, 3}, 0, false, 0,
      1, 1, 1, 1, 1}, {1, 114688, 0, 0, 0}, 0, 0},
    /* [256,16,2048] over (0,2) on an H100: 16 outputs, 32 chunks of 8
       block steps each (512 vectors, a unit of 2048 floats, 128 KiB). */
    {{"walk: chunked split mean", RT_OP_MEAN, RT_F32, RT_F32, 3, {256, 16, 2048}, 2, {0, 2}, 0,
      false, 0, 1, 1, 1, 1, 1}, {1, 131072, 0, 0, 0}, 1, 0},
    /* [8,33,6,48] bf16 over (1,3): 32 vectors of 8 a step, 256 elements:
       5 rows of 48 (576 bytes apart) and 16 more of digit 0 (2 bytes
       each); a wrap adds 576 - 48 x 2. */
    {{"walk: bf16 vectors, digit 0 wraps", RT_OP_SUM, RT_BF16, RT_F32, 4, {8, 33, 6, 48}, 2, {1, 3},
      0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 2912, 16, 480, 0}, 0, 0},
    /* [100,7,50,9] over (0,2), one output a thread: 1264 a step = 25 of
       dim 0 (100, 7 x 50 x 9 elements apart) and 14 of dim 2 (50, 9
       apart). */
    {{"walk: argmax, digit 0 wraps", RT_OP_ARGMAX, RT_F32, RT_I64, 4, {100, 7, 50, 9}, 2, {0, 2},
      0, false, 0, 0, 1, 0, 1, 1}, {1, 315504, 14, 10800, 0}, 0, 0},
    {{"walk: f64 max, digit 0 wraps", RT_OP_MAX, RT_F64, RT_F64, 4, {100, 7, 50, 9}, 2, {0, 2}, 0,
      false, 0, 0, 1, 0, 1, 1}, {1, 631008, 14, 21600, 0}, 0, 0},
    /* [40,3,300,8] over (0,2), 4 outputs a thread: 3008 a step = 10 of
       dim 0 and 8 of dim 2 (300, 8 floats apart). */
    {{"walk: 4 outputs a thread, digit 0 wraps", RT_OP_SUM, RT_F32, RT_F32, 4, {40, 3, 300, 8}, 2,
      {0, 2}, 0, false, 0, 0, 4, 0, 1, 1}, {1, 288256, 8, 19200, 0}, 0, 0},
    {{"walk: var, 4 outputs a thread", RT_OP_VAR, RT_F32, RT_F32, 4, {40, 3, 300, 8}, 2, {0, 2}, 0,
      false, 1, 0, 4, 0, 1, 1}, {1, 288256, 8, 19200, 0}, 0, 0},
    {{"walk: i32 sum to i64, 4 outputs a thread", RT_OP_SUM, RT_I32, RT_I64, 4, {40, 3, 300, 8}, 2,
      {0, 2}, 0, false, 0, 0, 4, 0, 1, 1}, {1, 288256, 8, 19200, 0}, 0, 0},
    /* [30,5,60,16] over (0,2): 456 a step = 7 of dim 0 and 36 of dim 2. */
    {{"walk: 36 of 60 a step", RT_OP_SUM, RT_F32, RT_F32, 4, {30, 5, 60, 16}, 2, {0, 2}, 0, false,
      0, 0, 4, 0, 1, 1}, {1, 136704, 36, 15360, 0}, 0, 0},
    /* 32 vectors (128 floats) a step against units of 288 and 192. */
    {{"walk: none, 96 x 3 units", RT_OP_SUM, RT_F32, RT_F32, 5, {6, 8, 3, 8, 96}, 3, {0, 2, 4}, 0,
      false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {0, 0, 0, 0, 0}, 0, 0},
    /* [3,4,6,5,32] over (0,2,4), the p = 2 norm: 32 vectors (128 floats)
       a step = 4 units of dim 1 (32 floats, 640 bytes apart, 6 of them):
       digit 1 wraps into dim 2 (15360 bytes apart), adding 15360 - 6 x
       640; digit 0 never moves. */
    {{"walk: norm p=2, the two slowest dims", RT_OP_NORM, RT_F32, RT_F32, 5, {3, 4, 6, 5, 32}, 3,
      {0, 2, 4}, 0, false, 2, 1, 1, 1, ANY_OF, ANY_OF}, {1, 2560, 4, 11520, 0}, 0, 0},
    /* [2,24,16,32,128] over (0,2,4): warp rows own outputs, 32 vectors a
       step = one unit of dim 1 (128 floats, 16 KiB apart, 16 of them),
       wrapping into dim 0 (6 MiB apart) every 16 steps, for every lane
       alike: a uniform walk of 32 steps with wraps, for 4 loads in flight
       (f32 sums) and 2 (argmax, var, i32 sums to i64). */
    {{"walk: a unit of the second slowest dim", RT_OP_SUM, RT_F32, RT_F32, 5, {2, 24, 16, 32, 128},
      3, {0, 2, 4}, 0, false, 0, 1, 1, 1, ANY_OF, ANY_OF}, {1, 16384, 1, 6291456 - 16 * 16384, 32},
     0, 0},
    {{"walk: argmax, uniform with wraps", RT_OP_ARGMAX, RT_F32, RT_I64, 5, {2, 24, 16, 32, 128}, 3,
      {0, 2, 4}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF},
     {1, 16384, 1, 6291456 - 16 * 16384, 32}, 0, 0},
    {{"walk: var, uniform with wraps", RT_OP_VAR, RT_F32, RT_F32, 5, {2, 24, 16, 32, 128}, 3,
      {0, 2, 4}, 0, false, 1, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF},
     {1, 16384, 1, 6291456 - 16 * 16384, 32}, 0, 0},
    {{"walk: i32 sum to i64, uniform with wraps", RT_OP_SUM, RT_I32, RT_I64, 5,
      {2, 24, 16, 32, 128}, 3, {0, 2, 4}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF},
     {1, 16384, 1, 6291456 - 16 * 16384, 32}, 0, 0},
    /* [32,16,64,256] argmax over (0,2): one output a thread on the
       strided path, warps ty on rows of dim 2 (1 KiB apart), blocks by 16
       of them on, a step of all 64 (one row of dim 0, 1 MiB): uniform, 32
       steps. */
    {{"walk: argmax, uniform strided", RT_OP_ARGMAX, RT_F32, RT_I64, 4, {32, 16, 64, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, {1, 1048576, 0, 0, 32}, 0, 0},
    /* COMPAT on [16,2,4,64] over (0,2): lanes on outputs (4 a thread),
       warps a row of dim 0 (4 of them, 256 bytes apart), a step of one
       unit (2 KiB): a uniform strided walk of 16 steps; [32,2,4,64]
       var: 32. */
    {{"walk: COMPAT, uniform strided sum", RT_OP_SUM, RT_F32, RT_F32, 4, {16, 2, 4, 64}, 2, {0, 2},
      0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, {1, 2048, 0, 0, 16}, 0, 1},
    {{"walk: COMPAT, uniform strided argmax", RT_OP_ARGMAX, RT_F32, RT_I64, 4, {16, 2, 4, 64}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, {1, 2048, 0, 0, 16}, 0, 1},
    {{"walk: COMPAT, uniform strided var", RT_OP_VAR, RT_F32, RT_F32, 4, {32, 2, 4, 64}, 2, {0, 2},
      0, false, 1, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, {1, 2048, 0, 0, 32}, 0, 1},
};

static void test_walks(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const size_t n = sizeof k_walks / sizeof k_walks[0];
    for (size_t i = 0; i < n; i++) {
        const branch_case *b = &k_walks[i].b;
        rt_case c;
        make_branch_case(&c, b, 0x5e9d0000ull + i);
        const int chunked = k_walks[i].chunked;
        const int own_gbps = chunked ? case_plan_gbps(g_gpu, H100_CLASS_TEST_GBPS) : 0;
        free(check_tuned_case(b, &c, 0, chunked, RT__KERNEL_GENERAL, &d));
        int32_t got[5];
        const int32_t *want = k_walks[i].walk;
        case_walk(g_gpu, &c, &d, k_walks[i].compat ? RT_POLICY_COMPAT : RT_POLICY_TUNED, got);
        if (chunked)
            case_plan_gbps(g_gpu, own_gbps);
        for (int k = 0; k < 5; k++)
            if (got[k] != want[k])
                fail_msg("%s: walk {%d, %d, %d, %d, %d}, want {%d, %d, %d, %d, %d}", b->name,
                         got[0], got[1], got[2], got[3], got[4], want[0], want[1], want[2],
                         want[3], want[4]);
        rt_case_free(&c);
    }
    dev_case_free(&d);
    print_message("walk cases: %zu\n", n);
}

/* The LEAN walk kernel (reduce_walk.cu): d024's class, one output a
   block over a uniform walk of whole units of the slowest reduced dim,
   16 loads a thread in flight. [S,K,16,8,128] over (0,2,4): blocks of 32
   x 16, a step of 512 vectors = one unit of dim 0 (2048 floats), S steps
   a thread: 16 (one window, the loop not entered) and 32 (the loop
   once); sum, mean, and a sum into f64. Planned on 16 SMs, so that 64 and
   128 blocks are the 4 waves the executor asks for (cuda_exec.c
   lean_walk); TUNED keeps one block an output there (test_cuda_plan's
   test_lean_plans plans these shapes on the H100 and H200 models). Each
   runs through the kernel, checked against the reference, twice to the
   same bits (the second replays the plan memo), then through the general
   kernel with the rule off: the reference again, and the hook says which
   kernel the executor took. */
static void test_lean_walk(void **state) {
    (void)state;
    static const branch_case k_lean[] = {
        {"lean: f32 sum, 16 steps", RT_OP_SUM, RT_F32, RT_F32, 5, {16, 8, 16, 8, 128}, 3, {0, 2, 4},
         0, false, 0, 1, 1, 1, 1, 0},
        {"lean: f32 mean, 32 steps", RT_OP_MEAN, RT_F32, RT_F32, 5, {32, 16, 16, 8, 128}, 3,
         {0, 2, 4}, 0, false, 0, 1, 1, 1, 1, 0},
        {"lean: f32 sum to f64, 32 steps", RT_OP_SUM, RT_F32, RT_F64, 5, {32, 16, 16, 8, 128}, 3,
         {0, 2, 4}, 0, false, 0, 1, 1, 1, 1, 0},
    };
    const int own_sms = case_plan_sms(g_gpu, 16);
    dev_case d;
    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof k_lean / sizeof k_lean[0]; i++) {
        const branch_case *b = &k_lean[i];
        rt_case c;
        make_branch_case(&c, b, 0x1ea40000ull + i);
        /* (Planning needs the case's device copy: check_tuned_case first.) */
        free(check_tuned_case(b, &c, 32, 0, RT__KERNEL_GENERAL, &d));
        rt__problem pb;
        rt__iter it;
        rt__launch_config cfg = case_plan(g_gpu, &c, &d, RT_POLICY_TUNED, &pb, &it);
        expect_field(b->name, "the LEAN walk kernel", 1, rt__cuda_lean_walk(g_gpu, &pb, &it, &cfg));
        assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__RULE_OFF_LEAN_WALK), RT_OK);
        free(check_tuned_case(b, &c, 32, 0, RT__KERNEL_GENERAL, &d));
        cfg = case_plan(g_gpu, &c, &d, RT_POLICY_TUNED, &pb, &it);
        expect_field(b->name, "rule off: the general kernel", 0,
                     rt__cuda_lean_walk(g_gpu, &pb, &it, &cfg));
        assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
        rt_case_free(&c);
    }
    /* On the device's own SMs the first shape is under 4 waves of one
       block a SM (64 blocks): the general kernel. */
    case_plan_sms(g_gpu, own_sms);
    if (own_sms > 16) {
        rt_case c;
        make_branch_case(&c, &k_lean[0], 0x1ea4ff00ull);
        check_case_gpu(&c, dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL), k_lean[0].name);
        rt__problem pb;
        rt__iter it;
        const rt__launch_config cfg = case_plan(g_gpu, &c, &d, RT_POLICY_TUNED, &pb, &it);
        expect_field(k_lean[0].name, "own SMs: the general kernel", 0,
                     rt__cuda_lean_walk(g_gpu, &pb, &it, &cfg));
        rt_case_free(&c);
    }
    dev_case_free(&d);
    print_message("lean walk cases: %zu\n", sizeof k_lean / sizeof k_lean[0]);
}

static void test_tuned_paths(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const size_t n = sizeof k_tuned / sizeof k_tuned[0];
    const size_t nrows = sizeof k_row_blocks / sizeof k_row_blocks[0];
    const size_t nchunk = sizeof k_chunked / sizeof k_chunked[0];
    /* These are the general and ROWS kernels' rules: the full reductions
       among them (long rows, 256 KB block splits, rule 7's chunks) run
       with the STREAM kernel turned off (test_stream has its own). */
    assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__KIND_BIT(RT__KERNEL_STREAM)), RT_OK);
    for (size_t i = 0; i < n; i++)
        run_tuned_case(&k_tuned[i], 0x7a4ed000ull + i, 0, ANY_OF, ANY_OF, &d);
    for (size_t i = 0; i < nrows; i++)
        run_tuned_case(&k_row_blocks[i].b, 0x7a4ed000ull + n + i, k_row_blocks[i].lanes, ANY_OF,
                       ANY_OF, &d);
    /* Rule 7 chunks on H100-class GPUs only: plan as on one. */
    const int own_gbps = case_plan_gbps(g_gpu, H100_CLASS_TEST_GBPS);
    for (size_t i = 0; i < nchunk; i++)
        run_tuned_case(&k_chunked[i].b, 0x7a4ed000ull + n + nrows + i, 0, k_chunked[i].chunked,
                       RT__KERNEL_GENERAL, &d);
    case_plan_gbps(g_gpu, own_gbps);
    const size_t nouter = sizeof k_outer_tiles / sizeof k_outer_tiles[0];
    for (size_t i = 0; i < nouter; i++)
        run_tuned_case(&k_outer_tiles[i].b, 0x7a4ed000ull + n + nrows + nchunk + i,
                       k_outer_tiles[i].lanes, ANY_OF, RT__KERNEL_GENERAL, &d);
    const size_t ntall = sizeof k_outer_tall / sizeof k_outer_tall[0];
    for (size_t i = 0; i < ntall; i++) {
        const tall_case *t = &k_outer_tall[i];
        const uint64_t seed = 0x7a4ed000ull + n + nrows + nchunk + nouter + i;
        const int whole_lanes = (int)(t->b.shape[1] / 4);
        const int lanes = t->tall == TALL_YES ? 16 : t->tall == TALL_WHOLE ? whole_lanes : 0;
        const rt__launch_config cfg =
            run_tuned_case(&t->b, seed, lanes, ANY_OF, RT__KERNEL_GENERAL, &d);
        const bool tall = cfg.block[0] == 16 && cfg.block[1] == 32 && cfg.output_vec_size == 4;
        /* Rule 14's tiles: lanes that no 16-lane tile count divides. */
        const bool whole = whole_lanes % 16 != 0 && cfg.block[0] == whole_lanes &&
                           cfg.block[1] == 512 / whole_lanes && cfg.output_vec_size == 4 &&
                           cfg.grid[0] == 1;
        expect_field(t->b.name, "tall blocks (16 x 32 at 4 outputs)", t->tall == TALL_YES, tall);
        expect_field(t->b.name, "one tile of every output (rule 14)", t->tall == TALL_WHOLE, whole);
        if (t->tall != TALL_WHOLE)
            continue;
        /* Rule 14 off: rule 10's two tiles, the second partly idle. */
        assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__KIND_BIT(RT__KERNEL_STREAM) |
                                                               RT__RULE_OFF_WHOLE_ROWS),
                         RT_OK);
        const rt__launch_config off =
            run_tuned_case(&t->b, seed ^ 0x5a5aull, 16, ANY_OF, RT__KERNEL_GENERAL, &d);
        expect_field(t->b.name, "rule 14 off: tall blocks", 1,
                     off.block[1] == 32 && off.output_vec_size == 4 && off.grid[0] == 2);
        assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__KIND_BIT(RT__KERNEL_STREAM)), RT_OK);
    }
    const size_t nwave = sizeof k_outer_wave / sizeof k_outer_wave[0];
    const bool sms132 = rt__cuda_props(g_gpu)->num_sms == 132;
    for (size_t i = 0; i < nwave; i++) {
        const tall_case *t = &k_outer_wave[i];
        const rt__launch_config cfg =
            run_tuned_case(&t->b, 0x7a4ed000ull + n + nrows + nchunk + nouter + ntall + i, 0,
                           ANY_OF, RT__KERNEL_GENERAL, &d);
        if (sms132)
            expect_field(t->b.name, "a wave of 32 x 16 tiles", t->tall,
                         cfg.block[0] == 32 && cfg.block[1] == 16 && cfg.grid[1] == 1);
    }
    assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
    dev_case_free(&d);
    print_message("tuned cases: %zu, each twice on TUNED and once on COMPAT\n",
                  n + nrows + nchunk + nouter + ntall + nwave);
}

/* ---- TUNED rule 15: pipelined loops ---------------------------------------------- */

/* The general kernel's strided (one reduced dim) and uniform-walk loops
   with batch b + 1's loads issued before batch b folds (reduce_body.cuh
   pipeline_batches): f32, f16 and bf16 sums and means at 4 and 2
   outputs a thread, over row counts that leave a thread 0 to many whole
   batches, odd and even, and a tail (1-d columns: 3 to 5003 rows; OVS 2:
   6 and 258 columns; walks: d02-like [a,16,b,256] over (0, 2) with 2 to
   37 x 64 rows; a slice). Each against the reference (check_tuned_case),
   then with the rule off: unpipelined, and the same bits, for the folds
   run in the same order either way. pipelined: what TUNED's config must
   say. */
typedef struct pipe_case {
    branch_case b;
    int pipelined;
} pipe_case;

static const pipe_case k_pipelined[] = {
    {{"pipelined: f32 sum, 3 rows", RT_OP_SUM, RT_F32, RT_F32, 2, {3, 4096}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, 71 rows", RT_OP_SUM, RT_F32, RT_F32, 2, {71, 4096}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 mean, 257 rows", RT_OP_MEAN, RT_F32, RT_F32, 2, {257, 2048}, 1, {0}, 0, false,
      0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, 1000 rows", RT_OP_SUM, RT_F32, RT_F32, 2, {1000, 1024}, 1, {0}, 0, false,
      0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, 5003 rows, 100 columns", RT_OP_SUM, RT_F32, RT_F32, 2, {5003, 100}, 1, {0},
      0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, 40000 rows, 8 columns", RT_OP_SUM, RT_F32, RT_F32, 2, {40000, 8}, 1, {0},
      0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, 2 outputs a thread", RT_OP_SUM, RT_F32, RT_F32, 2, {1001, 6}, 1, {0}, 0,
      false, 0, ANY_OF, 2, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f16 sum, 2 outputs a thread", RT_OP_SUM, RT_F16, RT_F32, 2, {4097, 258}, 1, {0}, 0,
      false, 0, ANY_OF, 2, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f16 sum, 333 rows", RT_OP_SUM, RT_F16, RT_F16, 2, {333, 4096}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: bf16 mean, 2000 rows", RT_OP_MEAN, RT_BF16, RT_BF16, 2, {2000, 512}, 1, {0}, 0,
      false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, walk of 2 x 64 rows", RT_OP_SUM, RT_F32, RT_F32, 4, {2, 16, 64, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, walk of 5 x 64 rows", RT_OP_SUM, RT_F32, RT_F32, 4, {5, 16, 64, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 mean, walk of 37 x 64 rows", RT_OP_MEAN, RT_F32, RT_F32, 4, {37, 16, 64, 256}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: bf16 sum, walk of 9 x 32 rows", RT_OP_SUM, RT_BF16, RT_F32, 4, {9, 32, 32, 512}, 2,
      {0, 2}, 0, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"pipelined: f32 sum, misaligned by a vector", RT_OP_SUM, RT_F32, RT_F32, 2, {999, 1024}, 1, {0},
      4, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    /* Not pipelined: 8-byte states (the kernel is not built so), one
       output a thread (a misaligned start), the vector path, max. */
    {{"not pipelined: f64 sum", RT_OP_SUM, RT_F64, RT_F64, 2, {1000, 1024}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"not pipelined: i32 sum", RT_OP_SUM, RT_I32, RT_I64, 2, {1000, 1024}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"not pipelined: one output a thread", RT_OP_SUM, RT_F32, RT_F32, 2, {1000, 1023}, 1, {0}, 0,
      false, 0, ANY_OF, 1, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"not pipelined: f32 max", RT_OP_MAX, RT_F32, RT_F32, 2, {1000, 1024}, 1, {0}, 0, false, 0,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
};

static void test_tuned_pipelined(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const size_t n = sizeof k_pipelined / sizeof k_pipelined[0];
    for (size_t i = 0; i < n; i++) {
        const pipe_case *t = &k_pipelined[i];
        rt_case c;
        make_branch_case(&c, &t->b, 0x919e1000ull + i);
        assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
        unsigned char *on = check_tuned_case(&t->b, &c, 0, ANY_OF, RT__KERNEL_GENERAL, &d);
        expect_field(t->b.name, "pipelined", t->pipelined,
                     case_config(g_gpu, &c, &d, RT_POLICY_TUNED).pipelined);
        assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__RULE_OFF_PIPELINED), RT_OK);
        expect_field(t->b.name, "rule 15 off: pipelined", 0,
                     case_config(g_gpu, &c, &d, RT_POLICY_TUNED).pipelined);
        case_ref ref;
        memset(&ref, 0, sizeof ref);
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
        check_case_gpu_ref(&c, &ref, s, t->b.name);
        case_ref_free(&ref);
        if (memcmp(on, c.out_buf.base, c.out_buf.bytes) != 0)
            fail_msg("%s: pipelined and unpipelined loops differ in bits", t->b.name);
        free(on);
        rt_case_free(&c);
    }
    assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
    dev_case_free(&d);
    print_message("pipelined cases: %zu, each on and off\n", n);
}

/* ---- the ROWS column kernel (TUNED, H100-class) ---------------------------------- */

/* var/std of f32 over one strided dim whose outputs are contiguous
   columns (tuned_rows.c rows_cols): a thread a column, 64 x 4 threads a
   block, 12 loads a lane in flight folded as one batch; planned as on an
   H100-class GPU of SMALL_GPU_TEST_SMS SMs, so that the rule's floor of 3
   blocks of columns a SM takes 768 columns (on the GPU's own SMs it took
   27000-32768, and these six cases 50 s of test_reduce_cuda's time on an
   H100, bench/NOTES.md v1.29's review). Rows that are not whole batches
   of a lane's loads (1100: 275 a lane, 22 batches and 11 single steps), a
   last block of 41 columns, a misaligned start, a correction of 0, kept
   dims that coalesce into the columns, std; and cases the rule leaves to
   the general kernel (f16, columns of fewer than 1024 rows). cols: 1 the
   column kernel, 0 not. */
typedef struct cols_case {
    branch_case b;
    int cols;
} cols_case;

static const cols_case k_cols[] = {
    {{"cols: f32 var, 1100 rows", RT_OP_VAR, RT_F32, RT_F32, 2, {1100, 1024}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"cols: f32 std, partial block, misaligned, correction 0", RT_OP_STD, RT_F32, RT_F32, 2,
      {1024, 1001}, 1, {0}, 1, false, 0, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"cols: f32 var, kept dims coalesce", RT_OP_VAR, RT_F32, RT_F32, 3, {1030, 8, 128}, 1, {0}, 0,
      false, 1, ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"cols: f32 std, 4096 rows", RT_OP_STD, RT_F32, RT_F32, 2, {4096, 1000}, 1, {0}, 0, false, 1,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 1},
    {{"cols: not f16", RT_OP_VAR, RT_F16, RT_F16, 2, {1100, 1024}, 1, {0}, 0, false, 1, ANY_OF,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
    {{"cols: not 1000 rows", RT_OP_VAR, RT_F32, RT_F32, 2, {1000, 1024}, 1, {0}, 0, false, 1, ANY_OF,
      ANY_OF, ANY_OF, ANY_OF, ANY_OF}, 0},
};

static void test_cols(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const int own_gbps = case_plan_gbps(g_gpu, H100_CLASS_TEST_GBPS);
    const int own_sms = case_plan_sms(g_gpu, SMALL_GPU_TEST_SMS);
    const size_t n = sizeof k_cols / sizeof k_cols[0];
    for (size_t i = 0; i < n; i++) {
        const cols_case *k = &k_cols[i];
        const rt__launch_config cfg =
            run_tuned_case(&k->b, 0xc015c000ull + i, 0, ANY_OF,
                           k->cols ? RT__KERNEL_ROWS : RT__KERNEL_GENERAL, &d);
        expect_field(k->b.name, "rows_cols", k->cols, cfg.rows_cols);
    }
    case_plan_sms(g_gpu, own_sms);
    case_plan_gbps(g_gpu, own_gbps);
    dev_case_free(&d);
    print_message("column kernel cases: %zu, each twice on TUNED and once on COMPAT\n", n);
}

/* ---- the TINY kernel (TUNED) ------------------------------------------------------ */

/* Full reductions of one contiguous run of up to 16 KiB (tuned_tiny.c):
   one block of 32-256 threads, a scalar head and tail around aligned
   vectors; lengths below one vector, at a block's batch and just past it,
   misaligned starts (elements past a 16-byte boundary), every op family. */
static const branch_case k_tiny[] = {
    {"tiny: f32 sum, 2 elements", RT_OP_SUM, RT_F32, RT_F32, 1, {2}, 1, {0}, 0, false, 0, 1, 1, 1, 0,
     0},
    {"tiny: f32 sum, 3, misaligned", RT_OP_SUM, RT_F32, RT_F32, 1, {3}, 1, {0}, 3, false, 0, 1, 1, 1,
     0, 0},
    {"tiny: f32 sum, 256", RT_OP_SUM, RT_F32, RT_F32, 1, {256}, 1, {0}, 0, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f32 sum, 4096 (256 threads)", RT_OP_SUM, RT_F32, RT_F32, 1, {4096}, 1, {0}, 0, false, 0,
     1, 1, 1, 0, 0},
    {"tiny: f32 mean, 4093, misaligned", RT_OP_MEAN, RT_F32, RT_F32, 1, {4093}, 1, {0}, 1, false, 0,
     1, 1, 1, 0, 0},
    {"tiny: f64 sum, 2048", RT_OP_SUM, RT_F64, RT_F64, 1, {2048}, 1, {0}, 0, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f64 sum, 1001, misaligned", RT_OP_SUM, RT_F64, RT_F64, 1, {1001}, 1, {0}, 1, false, 0, 1,
     1, 1, 0, 0},
    {"tiny: f16 sum, 8191, misaligned", RT_OP_SUM, RT_F16, RT_F16, 1, {8191}, 1, {0}, 5, false, 0, 1,
     1, 1, 0, 0},
    {"tiny: bf16 sum to f32, 777", RT_OP_SUM, RT_BF16, RT_F32, 1, {777}, 1, {0}, 7, false, 0, 1, 1, 1,
     0, 0},
    {"tiny: i8 sum to i64, 16000, misaligned", RT_OP_SUM, RT_I8, RT_I64, 1, {16000}, 1, {0}, 9, false,
     0, 1, 1, 1, 0, 0},
    {"tiny: i32 sum, 1500", RT_OP_SUM, RT_I32, RT_I64, 1, {1500}, 1, {0}, 2, false, 0, 1, 1, 1, 0, 0},
    {"tiny: i64 prod, 40", RT_OP_PROD, RT_I64, RT_I64, 1, {40}, 1, {0}, 1, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f32 prod, 60", RT_OP_PROD, RT_F32, RT_F32, 1, {60}, 1, {0}, 0, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f32 amin, 1025", RT_OP_MIN, RT_F32, RT_F32, 1, {1025}, 1, {0}, 1, false, 0, 1, 1, 1, 0, 0},
    {"tiny: u8 amax, 5000", RT_OP_MAX, RT_U8, RT_U8, 1, {5000}, 1, {0}, 3, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f16 amax, 17", RT_OP_MAX, RT_F16, RT_F16, 1, {17}, 1, {0}, 1, false, 0, 1, 1, 1, 0, 0},
    {"tiny: f32 argmax, 4096", RT_OP_ARGMAX, RT_F32, RT_I64, 1, {4096}, 1, {0}, 0, false, 0, 1, 1, 1,
     0, 0},
    {"tiny: i16 argmin, 999, misaligned", RT_OP_ARGMIN, RT_I16, RT_I64, 1, {999}, 1, {0}, 3, false, 0,
     1, 1, 1, 0, 0},
    {"tiny: f64 max with indices, 2000", RT_OP_MAX, RT_F64, RT_F64, 1, {2000}, 1, {0}, 1, true, 0, 1,
     1, 1, 0, 0},
    {"tiny: bf16 min with indices, 33", RT_OP_MIN, RT_BF16, RT_BF16, 1, {33}, 1, {0}, 2, true, 0, 1, 1,
     1, 0, 0},
    {"tiny: f32 var, 4000, misaligned", RT_OP_VAR, RT_F32, RT_F32, 1, {4000}, 1, {0}, 1, false, 1, 1,
     1, 1, 0, 0},
    {"tiny: f64 std, 2 elements, correction 0", RT_OP_STD, RT_F64, RT_F64, 1, {2}, 1, {0}, 0, false,
     0, 1, 1, 1, 0, 0},
    {"tiny: f16 var, 3000", RT_OP_VAR, RT_F16, RT_F32, 1, {3000}, 1, {0}, 0, false, 1, 1, 1, 1, 0, 0},
    {"tiny: f32 norm p=2, 4095", RT_OP_NORM, RT_F32, RT_F32, 1, {4095}, 1, {0}, 2, false, 2, 1, 1, 1,
     0, 0},
    {"tiny: f32 norm p=3, 300", RT_OP_NORM, RT_F32, RT_F32, 1, {300}, 1, {0}, 0, false, 3, 1, 1, 1, 0,
     0},
    {"tiny: f32 norm p=0, 300", RT_OP_NORM, RT_F32, RT_F32, 1, {300}, 1, {0}, 1, false, 0, 1, 1, 1, 0,
     0},
    {"tiny: bf16 norm p=1, 2000", RT_OP_NORM, RT_BF16, RT_BF16, 1, {2000}, 1, {0}, 0, false, 1, 1, 1,
     1, 0, 0},
    {"tiny: f64 norm p=inf, 700", RT_OP_NORM, RT_F64, RT_F64, 1, {700}, 1, {0}, 1, false, INFINITY, 1,
     1, 1, 0, 0},
    {"tiny: f32 norm p=-inf, 700", RT_OP_NORM, RT_F32, RT_F32, 1, {700}, 1, {0}, 0, false, -INFINITY,
     1, 1, 1, 0, 0},
    {"tiny: bool any, 16384", RT_OP_ANY, RT_BOOL, RT_BOOL, 1, {16384}, 1, {0}, 0, false, 0, 1, 1, 1,
     0, 0},
    {"tiny: u8 all, 1000, misaligned", RT_OP_ALL, RT_U8, RT_BOOL, 1, {1000}, 1, {0}, 5, false, 0, 1,
     1, 1, 0, 0},
    {"tiny: f32 any, 100", RT_OP_ANY, RT_F32, RT_BOOL, 1, {100}, 1, {0}, 0, false, 0, 1, 1, 1, 0, 0},
    /* Several dims that coalesce into one run: TINY too. */
    {"tiny: f32 sum over all of [8,16,32]", RT_OP_SUM, RT_F32, RT_F32, 3, {8, 16, 32}, 0, {0}, 1,
     false, 0, 1, 1, 1, 0, 0},
};

static void test_tiny(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const size_t n = sizeof k_tiny / sizeof k_tiny[0];
    for (size_t i = 0; i < n; i++)
        run_tuned_case(&k_tiny[i], 0x71a1e000ull + i, 0, ANY_OF, RT__KERNEL_TINY, &d);
    dev_case_free(&d);
    print_message("tiny cases: %zu, each twice on TUNED and once on COMPAT\n", n);
}

/* ---- the STREAM kernel (TUNED) ---------------------------------------------------- */

/* Full reductions of one contiguous run over 16 KiB, for the ops whose
   state is one number (tuned_stream.c): one block just past TINY's limit
   and at exactly one chunk (2048 16-byte vectors), two blocks with a head
   and a tail, thousands of blocks whose last chunk is short (the fold's
   16-byte packs of states and the states past them), 16- and 32-byte
   vectors (f64), 4- and 8-byte states, misaligned starts, dims that
   coalesce into one run. The branch
   fields are those TUNED's STREAM config has (lanes split, no warp rows,
   a global reduce from two blocks); each case also runs with the kind
   turned off (the general kernel) and the two results must agree. */
static const branch_case k_stream[] = {
    {"stream: f32 sum, 4097 (one block)", RT_OP_SUM, RT_F32, RT_F32, 1, {4097}, 1, {0}, 1, false, 0,
     1, 1, 1, 0, 0},
    {"stream: f32 sum, 8192 (one whole chunk)", RT_OP_SUM, RT_F32, RT_F32, 1, {8192}, 1, {0}, 0,
     false, 0, 1, 1, 1, 0, 0},
    {"stream: f32 sum, 8195, misaligned (two blocks)", RT_OP_SUM, RT_F32, RT_F32, 1, {8195}, 1, {0},
     3, false, 0, 1, 1, 1, 0, 1},
    {"stream: f32 sum, 5000003, misaligned", RT_OP_SUM, RT_F32, RT_F32, 1, {5000003}, 1, {0}, 1,
     false, 0, 1, 1, 1, 0, 1},
    {"stream: f32 mean, 20000017", RT_OP_MEAN, RT_F32, RT_F32, 1, {20000017}, 1, {0}, 2, false, 0, 1,
     1, 1, 0, 1},
    {"stream: f32 amax, 4800001", RT_OP_MAX, RT_F32, RT_F32, 1, {4800001}, 1, {0}, 3, false, 0, 1, 1,
     1, 0, 1},
    {"stream: f32 amin, 70001", RT_OP_MIN, RT_F32, RT_F32, 1, {70001}, 1, {0}, 0, false, 0, 1, 1, 1,
     0, 1},
    {"stream: bf16 mean to f32, 9000011", RT_OP_MEAN, RT_BF16, RT_F32, 1, {9000011}, 1, {0}, 5, false,
     0, 1, 1, 1, 0, 1},
    {"stream: f16 sum, 300001, misaligned", RT_OP_SUM, RT_F16, RT_F16, 1, {300001}, 1, {0}, 7, false,
     0, 1, 1, 1, 0, 1},
    {"stream: f64 sum, 5000001", RT_OP_SUM, RT_F64, RT_F64, 1, {5000001}, 1, {0}, 1, false, 0, 1, 1,
     1, 0, 1},
    {"stream: f64 amax, 123457", RT_OP_MAX, RT_F64, RT_F64, 1, {123457}, 1, {0}, 0, false, 0, 1, 1, 1,
     0, 1},
    /* Over a wave of blocks (538 of 8192 doubles on an H100's or H200's
       132 SMs): slots, with a misaligned start; the f64 sum above has 611
       blocks. */
    {"stream: f64 amax, 4400003, misaligned", RT_OP_MAX, RT_F64, RT_F64, 1, {4400003}, 1, {0}, 1,
     false, 0, 1, 1, 1, 0, 1},
    {"stream: i32 sum to i64, 6000001", RT_OP_SUM, RT_I32, RT_I64, 1, {6000001}, 1, {0}, 2, false, 0,
     1, 1, 1, 0, 1},
    {"stream: i32 amin, 500001", RT_OP_MIN, RT_I32, RT_I32, 1, {500001}, 1, {0}, 1, false, 0, 1, 1, 1,
     0, 1},
    {"stream: i64 prod, 100003", RT_OP_PROD, RT_I64, RT_I64, 1, {100003}, 1, {0}, 1, false, 0, 1, 1,
     1, 0, 1},
    {"stream: f32 prod, 40000", RT_OP_PROD, RT_F32, RT_F32, 1, {40000}, 1, {0}, 0, false, 0, 1, 1, 1,
     0, 1},
    {"stream: f32 norm p=2, 5000003", RT_OP_NORM, RT_F32, RT_F32, 1, {5000003}, 1, {0}, 0, false, 2,
     1, 1, 1, 0, 1},
    {"stream: f64 norm p=2, 300001, misaligned", RT_OP_NORM, RT_F64, RT_F64, 1, {300001}, 1, {0}, 3,
     false, 2, 1, 1, 1, 0, 1},
    /* Several dims that coalesce into one run. */
    {"stream: f32 sum over all of [64,128,129]", RT_OP_SUM, RT_F32, RT_F32, 3, {64, 128, 129}, 0,
     {0}, 0, false, 0, 1, 1, 1, 0, 1},
};

/* Runs of 64 MiB and more, planned as on an H200: 256 bytes of vectors a
   thread (16 of 16 bytes, 8 of f64's 32), a chunk short at the end, a
   misaligned start, exactly 64 MiB; grids over a wave of those (the f32
   mean and the last four) fold in the dependent fold kernel, at 128 bytes
   a thread, on a GPU with dependent launch. */
static const branch_case k_stream_wide[] = {
    {"stream, wide: f32 mean, 20000017", RT_OP_MEAN, RT_F32, RT_F32, 1, {20000017}, 1, {0}, 2,
     false, 0, 1, 1, 1, 0, 1},
    {"stream, wide: f32 amax, 2^24 (64 MiB)", RT_OP_MAX, RT_F32, RT_F32, 1, {16777216}, 1, {0}, 0,
     false, 0, 1, 1, 1, 0, 1},
    {"stream, wide: f64 sum, 8388613, misaligned", RT_OP_SUM, RT_F64, RT_F64, 1, {8388613}, 1, {0},
     1, false, 0, 1, 1, 1, 0, 1},
    /* 8-byte inputs read 4 vectors a round (stream_loads_in_flight): two
       rounds a thread, the grid's last block a partial one. */
    {"stream, wide: i64 max, 8388619", RT_OP_MAX, RT_I64, RT_I64, 1, {8388619}, 1, {0}, 0, false,
     0, 1, 1, 1, 0, 1},
    {"stream, wide: bf16 sum to f32, 33554441", RT_OP_SUM, RT_BF16, RT_F32, 1, {33554441}, 1, {0},
     3, false, 0, 1, 1, 1, 0, 1},
    {"stream, wide: f64 sum, 9000007, misaligned", RT_OP_SUM, RT_F64, RT_F64, 1, {9000007}, 1, {0},
     1, false, 0, 1, 1, 1, 0, 1},
    {"stream, wide: i64 max, 9000011", RT_OP_MAX, RT_I64, RT_I64, 1, {9000011}, 1, {0}, 0, false,
     0, 1, 1, 1, 0, 1},
    {"stream, wide: bf16 sum to f32, 36000001, misaligned", RT_OP_SUM, RT_BF16, RT_F32, 1,
     {36000001}, 1, {0}, 1, false, 0, 1, 1, 1, 0, 1},
    {"stream, wide: f32 norm p=2, 18000013", RT_OP_NORM, RT_F32, RT_F32, 1, {18000013}, 1, {0}, 0,
     false, 2, 1, 1, 1, 0, 1},
};

/* Runs b as run_tuned_case does, then with the STREAM kernel turned off
   (the general kernel's config) and checks that against the reference
   too; then the two outputs (TUNED's, and this one) must
   agree: integer and bool results bit for bit, min/max the same value
   (or NaN both), float sums each within the reference's tolerance.
   thread_bytes > 0: the bytes of vectors a thread of TUNED's config
   reads (128 with the dependent fold). Counts the case in folds[]: the
   last block to count folded (0), the grid's last (1, stream_fold_last),
   the dependent fold kernel (2, stream_dependent). */
static void run_stream_case(const branch_case *b, uint64_t seed, dev_case *d,
                            int64_t thread_bytes, size_t folds[3]) {
    rt_case c;
    make_branch_case(&c, b, seed);
    unsigned char *with = check_tuned_case(b, &c, 0, ANY_OF, RT__KERNEL_STREAM, d);
    const rt__launch_config t = case_config(g_gpu, &c, d, RT_POLICY_TUNED);
    folds[t.stream_dependent ? 2 : t.stream_fold_last ? 1 : 0]++;
    if (thread_bytes > 0) {
        const int64_t chunk_bytes =
            (int64_t)t.input_mult[2] * t.input_vec_size * (int64_t)rt_dtype_size(b->dt);
        expect_field(b->name, "bytes a thread", t.stream_dependent ? 128 : (int)thread_bytes,
                     (int)(chunk_bytes / t.block[0]));
    }
    if (t.stream_dependent) {
        /* The rule off: the grid's last block folds chunks of 256 bytes
           a thread, against the reference too. */
        assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__RULE_OFF_STREAM_DEPENDENT), RT_OK);
        const rt__launch_config last = case_config(g_gpu, &c, d, RT_POLICY_TUNED);
        expect_field(b->name, "fold with the dependent fold off", 1, last.stream_fold_last);
        rt_status s = dev_case_run(g_gpu, &c, d, RT_POLICY_TUNED, NULL);
        assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
        check_case_gpu(&c, s, b->name);
    }
    assert_int_equal(rt__context_set_kinds_off(g_gpu, RT__KIND_BIT(RT__KERNEL_STREAM)), RT_OK);
    const rt__launch_config off = case_config(g_gpu, &c, d, RT_POLICY_TUNED);
    rt_status s = dev_case_run(g_gpu, &c, d, RT_POLICY_TUNED, NULL);
    assert_int_equal(rt__context_set_kinds_off(g_gpu, 0), RT_OK);
    expect_field(b->name, "kernel with STREAM off", RT__KERNEL_GENERAL, (int)off.kernel);
    check_case_gpu(&c, s, b->name);
    bool same = true;
    if (!is_float_dtype(c.out.dtype)) {
        same = memcmp(with, c.out_buf.base, c.out_buf.bytes) == 0;
    } else if (b->op == RT_OP_MIN || b->op == RT_OP_MAX) {
        /* The same element, or a NaN each (which NaN, sign and payload,
           depends on the order the kernel meets them in). */
        const size_t at = (size_t)((const char *)c.out.data - (const char *)c.out_buf.base);
        const long double x = rt_elem_get_f(with + at, c.out.dtype);
        const long double y = rt_elem_get_f(c.out.data, c.out.dtype);
        same = (isnan(x) && isnan(y)) || x == y;
    }
    if (!same)
        fail_msg("%s: the STREAM and general kernels' results differ", b->name);
    free(with);
    rt_case_free(&c);
}

static void test_stream(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const size_t n = sizeof k_stream / sizeof k_stream[0];
    /* Planned as on an H100 (4 vectors a thread), then the runs of 64 MiB
       and more as on an H200 (256 bytes a thread). */
    const int own_gbps = case_plan_gbps(g_gpu, H100_CLASS_TEST_GBPS);
    size_t folds[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        run_stream_case(&k_stream[i], 0x57ea3000ull + i, &d, 0, folds);
    const size_t n_wide = sizeof k_stream_wide / sizeof k_stream_wide[0];
    case_plan_gbps(g_gpu, H200_TEST_GBPS);
    for (size_t i = 0; i < n_wide; i++)
        run_stream_case(&k_stream_wide[i], 0x57ea4000ull + i, &d, 256, folds);
    case_plan_gbps(g_gpu, own_gbps);
    dev_case_free(&d);
    /* Every way of folding ran: grids under a wave of blocks on this GPU
       (an H100 or H200 has 528 slots of 512 threads) and over it, the
       ones planned as on an H200 in the dependent fold kernel where the
       GPU has dependent launch. */
    const bool pdl = g_gpu->cuda->props.dependent_launch != 0;
    if (folds[0] == 0 || folds[1] == 0 || (folds[2] == 0) == pdl)
        fail_msg("stream cases: %zu folded by the last block to count, %zu by the grid's last, "
                 "%zu by the dependent fold (dependent launch: %d); want some of each",
                 folds[0], folds[1], folds[2], (int)pdl);
    print_message("stream cases: %zu and %zu over 64 MiB, each twice on TUNED, once on COMPAT and "
                  "once with STREAM off; folded by the last block to count %zu, the grid's "
                  "last %zu, the dependent fold %zu\n",
                  n, n_wide, folds[0], folds[1], folds[2]);
}

/* Ties and NaNs in arg-reductions: the lowest index wins whatever the
   reduction order, NaN beats every number (vectorized and global paths,
   and the TINY kernel), on both policies. */
static void test_arg_ties_and_nan(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const int dims[1] = {0};
    /* 2^20 elements: split over blocks; 1000: the TINY kernel. */
    const int64_t sizes[2] = {1 << 20, 1000};
    const int64_t ats[2][4] = {{777777, 3, 500000, 1048575}, {777, 3, 500, 999}};
    for (int variant = 0; variant < 8; variant++) {
        rt_case c;
        rt_op op = variant % 2 ? RT_OP_ARGMIN : RT_OP_ARGMAX;
        const int64_t shape[1] = {sizes[variant / 4]};
        make_case(&c, op, RT_F32, RT_I64, 1, shape, dims, 1, variant % 4, false,
                  0x71e5ull + variant);
        float *x = (float *)c.in.data;
        /* The extreme value at several far-apart indices (ties), or NaNs. */
        float v = variant % 4 < 2 ? (op == RT_OP_ARGMAX ? 7.0f : -7.0f) : NAN;
        const int64_t *at = ats[variant / 4];
        for (int k = 0; k < 4; k++)
            x[at[k]] = v;
        const rt_policy policies[2] = {RT_POLICY_COMPAT, RT_POLICY_TUNED};
        for (int pi = 0; pi < 2; pi++) {
            rt_status s = dev_case_run(g_gpu, &c, &d, policies[pi], NULL);
            check_case_gpu(&c, s, "arg ties / NaN");
            int64_t got;
            memcpy(&got, c.out.data, sizeof got);
            assert_int_equal(got, 3);
        }
        rt_case_free(&c);
    }
    dev_case_free(&d);
}

/* Index-tracking reductions over several reduced dims of a permuted input:
   the CUDA backend orders their reduced dims by memory, so the iter is
   keyed (rt__iter_index_keyed) and the general kernel carries rt__index_map
   keys; every index must still be the logical one, the first among ties
   and NaNs. Small integers and bools tie all over; the f32 cases plant
   the extreme (or NaN) at several places, the lowest logical index not the
   lowest address. Both policies; each case asserted keyed first. */
static void test_arg_keyed(void **state) {
    (void)state;
    static const struct {
        const char *name;
        rt_op op;
        rt_dtype dt, odt;
        int nd;
        int64_t shape[4]; /* of the contiguous data */
        int perm[4];      /* the view's dim d is the data's dim perm[d] */
        int ndims;
        int dims[4];
        bool idx;
        int plant; /* 0: none; 1: the extreme; 2: NaN (f32 only) */
    } cases[] = {
        {"argmax f32 over a transposed matrix", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {512, 300},
         {1, 0}, 2, {0, 1}, false, 0},
        {"argmax f32, planted maxima", RT_OP_ARGMAX, RT_F32, RT_I64, 2, {512, 300}, {1, 0}, 2,
         {0, 1}, false, 1},
        {"argmin f32, planted NaNs", RT_OP_ARGMIN, RT_F32, RT_I64, 2, {512, 300}, {1, 0}, 2,
         {0, 1}, false, 2},
        {"argmin u8 ties", RT_OP_ARGMIN, RT_U8, RT_I64, 2, {1000, 77}, {1, 0}, 2, {0, 1}, false, 0},
        {"argmax bool ties", RT_OP_ARGMAX, RT_BOOL, RT_I64, 2, {96, 4096}, {1, 0}, 2, {0, 1},
         false, 0},
        {"max with indices f16, dims 0 and 2 of [70,6,50]", RT_OP_MAX, RT_F16, RT_F16, 3,
         {6, 50, 70}, {2, 0, 1}, 2, {0, 2}, true, 0},
        {"argmin i32 over every dim of a 3-d permutation", RT_OP_ARGMIN, RT_I32, RT_I64, 3,
         {6, 50, 70}, {2, 0, 1}, 3, {0, 1, 2}, false, 0},
        {"min with indices i8, three of four dims", RT_OP_MIN, RT_I8, RT_I8, 4, {4, 8, 16, 32},
         {3, 1, 0, 2}, 3, {0, 1, 3}, true, 0},
        {"argmax f64, 2^20 elements transposed", RT_OP_ARGMAX, RT_F64, RT_I64, 2, {1024, 1024},
         {1, 0}, 2, {0, 1}, false, 1},
        {"argmax bf16, a column block of a transposed view", RT_OP_ARGMAX, RT_BF16, RT_I64, 3,
         {64, 48, 96}, {2, 1, 0}, 2, {1, 2}, false, 0},
    };
    dev_case d;
    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rt_case c;
        make_case(&c, cases[i].op, cases[i].dt, cases[i].odt, cases[i].nd, cases[i].shape,
                  cases[i].dims, cases[i].ndims, (int)(i % 3), cases[i].idx, 0x6b3eull + i);
        case_permute_input(&c, cases[i].perm);
        if (cases[i].plant) {
            /* Planted at data offsets 17, 5 and near the end: in the view
               (dims reversed) the logical order of those is not theirs. */
            const double v = cases[i].plant == 2 ? NAN : cases[i].op == RT_OP_ARGMAX ? 9.0 : -9.0;
            const int64_t n = rt_case_numel(&c.in);
            const int64_t at[3] = {17, 5 + c.in.shape[1], n - 3};
            for (int k = 0; k < 3; k++)
                rt_elem_put_f((char *)c.in.data + at[k] * (int64_t)rt_dtype_size(c.in.dtype),
                              c.in.dtype, v);
        }
        const rt_policy policies[2] = {RT_POLICY_COMPAT, RT_POLICY_TUNED};
        for (int pi = 0; pi < 2; pi++) {
            rt_status s = dev_case_run(g_gpu, &c, &d, policies[pi], NULL);
            check_case_gpu(&c, s, cases[i].name);
            rt__problem pb;
            rt__iter it;
            case_iter(g_gpu, &c, &d, policies[pi], &pb, &it);
            if (!rt__iter_index_keyed(&it))
                fail_msg("%s: the iter is not keyed", cases[i].name);
        }
        rt_case_free(&c);
    }
    dev_case_free(&d);
    print_message("keyed arg cases: %zu\n", sizeof cases / sizeof cases[0]);
}

/* Element k of slice o of a 2-d case reduced over `dim` (outs slices of
   len elements) set to x. */
static void put_in_slice(rt_case *c, int dim, int64_t outs, int64_t len, int64_t o, int64_t k,
                         double x) {
    const int64_t at = dim == 1 ? o * len + k : k * outs + o;
    rt_elem_put_f((char *)c->in.data + at * (int64_t)rt_dtype_size(c->in.dtype), c->in.dtype, x);
}

/* NaN and infinities through min, max and the inf-norms, on shapes the
   tuned policy sends down different paths (rt_explain): a full reduction
   split over blocks; 64 rows of 4096, each read by the lanes of a block;
   64 columns whose lanes own outputs, split over blocks; tiled rows of 33.
   The kernels fold them without branches (max.NaN / min.NaN for floats),
   so an output is NaN exactly when its slice holds a NaN, and otherwise
   the planted infinity, whatever the order of the fold. */
static void test_minmax_nan_inf(void **state) {
    (void)state;
    dev_case d;
    memset(&d, 0, sizeof d);
    const struct {
        int64_t rows, cols;
        int dim;
    } shapes[4] = {{1, 1 << 20, 1}, {64, 4096, 1}, {4096, 64, 0}, {3000, 33, 1}};
    const rt_dtype dts[4] = {RT_F32, RT_F64, RT_F16, RT_BF16};
    const rt_op ops[3] = {RT_OP_MAX, RT_OP_MIN, RT_OP_NORM};
    int n = 0;
    for (int si = 0; si < 4; si++)
        for (int di = 0; di < 4; di++)
            for (int oi = 0; oi < 3; oi++) {
                const int64_t shape[2] = {shapes[si].rows, shapes[si].cols};
                const int dims[1] = {shapes[si].dim};
                const rt_dtype dt = dts[di];
                rt_case c;
                make_case(&c, ops[oi], dt, dt, 2, shape, dims, 1, 0, false,
                          0x3a7f00ull + (uint64_t)(n++));
                c.p = INFINITY;
                /* Output o reduces slice o: along a row (dim 1) or a column. */
                const int64_t outs = dims[0] == 1 ? shape[0] : shape[1];
                const int64_t len = dims[0] == 1 ? shape[1] : shape[0];
                const size_t es = rt_dtype_size(dt);
                const double inf = ops[oi] == RT_OP_MIN ? -INFINITY : INFINITY;
                for (int64_t o = 0; o < outs; o++) {
                    /* Slices o % 3 == 0 get a NaN, 1 an infinity, 2 both
                       (the NaN last, should the two positions meet). */
                    if (o % 3 != 0)
                        put_in_slice(&c, dims[0], outs, len, o, (o * 104729 + 5) % len, inf);
                    if (o % 3 != 1)
                        put_in_slice(&c, dims[0], outs, len, o, (o * 7919 + 13) % len, NAN);
                }
                rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_TUNED, NULL);
                check_case_gpu(&c, s, "min/max NaN / inf");
                for (int64_t o = 0; o < outs; o++) {
                    const long double got =
                        rt_elem_get_f((const char *)c.out.data + o * (int64_t)es, dt);
                    const bool want_nan = o % 3 != 1;
                    if (want_nan ? !isnan(got) : got != (long double)inf)
                        fail_msg("%s %s [%lld,%lld] dim %d output %lld: got %Lg, want %s",
                                 rt_op_name(ops[oi]), rt_dtype_name(dt), (long long)shape[0],
                                 (long long)shape[1], dims[0], (long long)o, got,
                                 want_nan ? "NaN" : "inf");
                }
                rt_case_free(&c);
            }
    dev_case_free(&d);
    print_message("min/max NaN / inf cases: %d\n", n);
}

/* Every test starts with every kernel kind and rule on: a test that fails
   between setting a mask and clearing it (cmocka leaves it at the failed
   assertion) does not hand its mask to the tests after it (device run 2
   of bench/NOTES.md v1.48: test_stream failed on test_tuned_paths' mask). */
static int fresh_kinds(void **state) {
    (void)state;
    return rt__context_set_kinds_off(g_gpu, 0) == RT_OK ? 0 : -1;
}

int main(void) {
    /* Before anything else: no GPU, nothing to test here. */
    const int opened = open_gpu_context(&g_gpu);
    if (opened != 0)
        return opened;
    if (rt_context_create(&g_cpu, RT_DEVICE_CPU, 0) != RT_OK) {
        printf("context creation failed\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_branches, fresh_kinds),
        cmocka_unit_test_setup(test_tuned_paths, fresh_kinds),
        cmocka_unit_test_setup(test_tuned_pipelined, fresh_kinds),
        cmocka_unit_test_setup(test_walks, fresh_kinds),
        cmocka_unit_test_setup(test_lean_walk, fresh_kinds),
        cmocka_unit_test_setup(test_cols, fresh_kinds),
        cmocka_unit_test_setup(test_tiny, fresh_kinds),
        cmocka_unit_test_setup(test_stream, fresh_kinds),
        cmocka_unit_test_setup(test_arg_ties_and_nan, fresh_kinds),
        cmocka_unit_test_setup(test_arg_keyed, fresh_kinds),
        cmocka_unit_test_setup(test_minmax_nan_inf, fresh_kinds),
        cmocka_unit_test_setup(test_rows, fresh_kinds),
        cmocka_unit_test_setup(test_rows_exact, fresh_kinds),
        cmocka_unit_test_setup(test_rows_ties_and_nan, fresh_kinds),
        cmocka_unit_test_setup(test_random_cases, fresh_kinds),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rt_context_destroy(g_gpu);
    rt_context_destroy(g_cpu);
    return rc;
}
