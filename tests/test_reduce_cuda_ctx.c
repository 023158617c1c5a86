/*
 * The CUDA context's promises: bitwise reproducible results, work on the
 * caller's stream, a steady state without allocation (and semaphores left
 * at 0 by every launch, STREAM's slots too), the caller's current device
 * restored, the plan memo's replays (and the calls it must not replay),
 * and the
 * memory and device errors: where each kind of memory is accepted, also
 * from a thread that has made no CUDA call of its own.
 * Exits 77 (skipped) when no GPU is visible.
 */
#include <pthread.h>

#include "cuda_case.h"

static rt_context *g_gpu;

/* Runs c again on ctx with `policy`: RT_OK, and the same output bytes as
   the run before it left in c's host blocks. */
static void expect_same_rerun(rt_context *ctx, rt_case *c, dev_case *d, rt_policy policy) {
    unsigned char *before = malloc(c->out_buf.bytes);
    assert_non_null(before);
    memcpy(before, c->out_buf.base, c->out_buf.bytes);
    assert_int_equal(dev_case_run(ctx, c, d, policy, NULL), RT_OK);
    assert_memory_equal(before, c->out_buf.base, c->out_buf.bytes);
    free(before);
}

/* The same call, three times: identical bytes (global reduces included:
   the last block folds the partials in a fixed order). */
static void test_determinism(void **state) {
    (void)state;
    const struct {
        rt_op op;
        rt_dtype odt;
        int nd;
        int64_t shape[2];
        int dim;
    } cases[] = {
        {RT_OP_SUM, RT_F32, 1, {1 << 22, 0}, 0},   /* global, lanes split */
        {RT_OP_SUM, RT_F32, 2, {4096, 1024}, 0},   /* global, output vec 4 */
        {RT_OP_VAR, RT_F32, 2, {4096, 1024}, 0},   /* Welford merges */
        {RT_OP_NORM, RT_F32, 2, {512, 8192}, 1},   /* lanes and warps */
        {RT_OP_MEAN, RT_F32, 2, {100, 30000}, 0},  /* output vec 4 */
    };
    dev_case d;
    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rt_case c;
        make_case(&c, cases[i].op, RT_F32, cases[i].odt, cases[i].nd, cases[i].shape,
                  &cases[i].dim, 1, 0, false, 0xde7ull + i);
        rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_DEFAULT, NULL);
        check_case_gpu(&c, s, "determinism");
        for (int rep = 0; rep < 2; rep++)
            expect_same_rerun(g_gpu, &c, &d, RT_POLICY_DEFAULT);
        rt_case_free(&c);
    }
    dev_case_free(&d);
}

/* Work goes to the context's stream: a non-blocking stream (which the
   legacy default stream does not order) and back to NULL. */
static void test_stream(void **state) {
    (void)state;
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    assert_int_equal(rt_context_set_stream(g_gpu, stream), RT_OK);
    dev_case d;
    memset(&d, 0, sizeof d);
    const int64_t shapes[2][2] = {{4096, 1024}, {333, 4097}};
    for (int i = 0; i < 2; i++) {
        for (int dim = 0; dim < 2; dim++) {
            rt_case c;
            make_case(&c, dim ? RT_OP_ARGMAX : RT_OP_SUM, RT_F32, dim ? RT_I64 : RT_F32, 2, shapes[i],
                      &dim, 1, 1, false, 0x57eull + i * 2 + dim);
            rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_DEFAULT, stream);
            check_case_gpu(&c, s, "non-default stream");
            rt_case_free(&c);
        }
    }
    assert_int_equal(rt_context_set_stream(g_gpu, NULL), RT_OK);
    CUDA_OK(cudaStreamDestroy(stream));
    dev_case_free(&d);
}

/* Two calls that both use the workspace (a global reduce under COMPAT), on
   two streams, enqueued back to back with a stream switch between them and
   no host wait: the switch must order the second after the first. Integer
   inputs set with cudaMemset give exact expected sums. */
static void test_stream_switch(void **state) {
    (void)state;
    rt_context *ctx;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, 0), RT_OK);
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_COMPAT), RT_OK);
    cudaStream_t s[2];
    CUDA_OK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    enum { ROWS = 16384, COLS = 1024 };
    int32_t *x[2];
    int64_t *y[2];
    for (int k = 0; k < 2; k++) {
        CUDA_OK(cudaMalloc((void **)&x[k], sizeof(int32_t) * ROWS * COLS));
        CUDA_OK(cudaMalloc((void **)&y[k], sizeof(int64_t) * COLS));
        /* Every int32 is 0x01010101 (k = 0) or 0x02020202 (k = 1). */
        CUDA_OK(cudaMemset(x[k], k + 1, sizeof(int32_t) * ROWS * COLS));
    }
    const int dim = 0;
    int64_t host[COLS];
    for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 2; k++) {
            CUDA_OK(cudaMemset(y[k], 0xA5, sizeof(int64_t) * COLS));
        }
        CUDA_OK(cudaDeviceSynchronize());
        for (int k = 0; k < 2; k++) {
            rt_tensor in = {.data = x[k], .dtype = RT_I32, .ndim = 2, .shape = {ROWS, COLS},
                            .strides = {COLS, 1}};
            rt_tensor out = {.data = y[k], .dtype = RT_I64, .ndim = 1, .shape = {COLS},
                             .strides = {1}};
            assert_int_equal(rt_context_set_stream(ctx, s[k]), RT_OK);
            assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, &dim, 1, false, &out), RT_OK);
        }
        CUDA_OK(cudaDeviceSynchronize());
        for (int k = 0; k < 2; k++) {
            CUDA_OK(cudaMemcpy(host, y[k], sizeof host, cudaMemcpyDeviceToHost));
            const int64_t want = (int64_t)ROWS * (0x01010101LL * (k + 1));
            for (int j = 0; j < COLS; j++)
                if (host[j] != want)
                    fail_msg("round %d stream %d column %d: %lld, want %lld", round, k, j,
                             (long long)host[j], (long long)want);
        }
    }
    rt_context_destroy(ctx);
    for (int k = 0; k < 2; k++) {
        CUDA_OK(cudaFree(x[k]));
        CUDA_OK(cudaFree(y[k]));
        CUDA_OK(cudaStreamDestroy(s[k]));
    }
}

/* A second call of the same shape allocates nothing, and every launch
   leaves the global reduce's semaphores at 0. */
static void test_steady_state(void **state) {
    (void)state;
    rt_context *ctx;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, 0), RT_OK);
    dev_case d;
    memset(&d, 0, sizeof d);
    const int64_t shape[2] = {4096, 1024};
    const int dim = 0;
    rt_case c;
    make_case(&c, RT_OP_SUM, RT_F32, RT_F32, 2, shape, &dim, 1, 0, false, 0x57a7ull);

    assert_int_equal(dev_case_run(ctx, &c, &d, RT_POLICY_COMPAT, NULL), RT_OK);
    rt__launch_config cfg = case_config(ctx, &c, &d, RT_POLICY_COMPAT);
    assert_true(rt__config_global_reduce(&cfg));
    const void *base1, *base2;
    size_t bytes1, bytes2;
    uint64_t count1, count2;
    assert_int_equal(rt__cuda_workspace_info(ctx, &base1, &bytes1, &count1), RT_OK);
    assert_non_null(base1);
    assert_int_equal(count1, 1);

    for (int rep = 0; rep < 3; rep++) {
        rt_status s = dev_case_run(ctx, &c, &d, RT_POLICY_COMPAT, NULL);
        check_case_gpu(&c, s, "steady state");
        assert_int_equal(rt__cuda_workspace_info(ctx, &base2, &bytes2, &count2), RT_OK);
        assert_ptr_equal(base1, base2);
        assert_int_equal(bytes1, bytes2);
        assert_int_equal(count1, count2);
    }
    /* Every semaphore the launches used is back to 0. */
    int sems[1024];
    assert_true(cfg.grid[0] <= 1024);
    CUDA_OK(cudaMemcpy(sems, rt__cuda_workspace_semaphores(ctx), sizeof sems,
                       cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; i++)
        assert_int_equal(sems[i], 0);
    rt_case_free(&c);
    dev_case_free(&d);
    rt_context_destroy(ctx);
}

/* The first `count` ints of the semaphore region (a STREAM slots
   launch's: two a block and two a group) are all 0. */
static void expect_slots_clear(rt_context *ctx, int64_t count, const char *what) {
    const size_t n = (size_t)count;
    unsigned *words = malloc(n * sizeof *words);
    assert_non_null(words);
    CUDA_OK(cudaMemcpy(words, rt__cuda_workspace_semaphores(ctx), n * sizeof *words,
                       cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (words[i] != 0)
            fail_msg("%s: semaphore word %zu is %u after the call", what, i, words[i]);
    free(words);
}

/* A new CUDA context that plans as on an H100-class GPU (the STREAM
   kernel's slots); returns a wave of 512-thread STREAM blocks on it. */
static int64_t h100_class_context(rt_context **ctx) {
    assert_int_equal(rt_context_create(ctx, RT_DEVICE_CUDA, 0), RT_OK);
    case_plan_gbps(*ctx, H100_CLASS_TEST_GBPS);
    const rt__device_props *props = rt__cuda_props(*ctx);
    return (int64_t)props->num_sms * (props->max_threads_per_sm / 512);
}

/* f64 full reductions over a wave of STREAM blocks fold through slots
   (tuned_stream.c, planned as on an H100): the result is the reference's,
   the same bytes call after call, and every slot is 0 again after each;
   an input whose values all carry the slots' mark pattern (a NaN, which
   amax keeps bit for bit in every block's state) still gives a NaN and
   leaves the slots clear. Two grids: 41 blocks past a wave, where the
   grid's last block folds every slot, and 2089 past one, where blocks a
   wave after the first two groups of 1024 slots fold them. */
static void test_stream_slots(void **state) {
    (void)state;
    rt_context *ctx;
    /* 8192 doubles a block, past a wave of 512-thread blocks. */
    const int64_t wave = h100_class_context(&ctx);
    const int64_t past[2] = {40, 2 * 1024 + 40};
    const int dim = 0;
    dev_case d;
    memset(&d, 0, sizeof d);
    const rt_op ops[2] = {RT_OP_SUM, RT_OP_MAX};
    for (int m = 0; m < 2; m++) {
        const int64_t shape[1] = {(wave + past[m]) * 8192 + 5};
        for (int k = 0; k < 2; k++) {
            rt_case c;
            make_case(&c, ops[k], RT_F64, RT_F64, 1, shape, &dim, 1, k, false,
                      0x5107ull + 2 * (uint64_t)m + (uint64_t)k);
            rt_status s = dev_case_run(ctx, &c, &d, RT_POLICY_TUNED, NULL);
            check_case_gpu(&c, s, "stream slots");
            /* (case_config validates the device copy that dev_case_run made.) */
            const rt__launch_config cfg = case_config(ctx, &c, &d, RT_POLICY_TUNED);
            assert_int_equal(cfg.kernel, RT__KERNEL_STREAM);
            assert_true(cfg.stream_slots);
            assert_int_equal(cfg.grid[0], wave + past[m] + 1);
            assert_int_equal(cfg.stream_slot_group, 1024);
            assert_int_equal(cfg.stream_slot_delay, wave);
            /* Groups folded by a block other than the grid's last. */
            const int64_t nb = cfg.grid[0];
            const int64_t folded = nb - 1 >= 1024 + wave ? (nb - 1 - wave) / 1024 : 0;
            assert_int_equal(folded, m == 0 ? 0 : 2);
            expect_slots_clear(ctx, cfg.semaphore_count, "stream slots");
            for (int rep = 0; rep < 2; rep++) {
                expect_same_rerun(ctx, &c, &d, RT_POLICY_TUNED);
                expect_slots_clear(ctx, cfg.semaphore_count, "stream slots, again");
            }
            if (ops[k] == RT_OP_MAX) {
                const unsigned long long mark = RT__STREAM_SLOT_MARK;
                double *x = (double *)c.in.data;
                for (int64_t i = 0; i < shape[0]; i++)
                    memcpy(&x[i], &mark, sizeof mark);
                assert_int_equal(dev_case_run(ctx, &c, &d, RT_POLICY_TUNED, NULL), RT_OK);
                double got;
                memcpy(&got, c.out.data, sizeof got);
                if (!isnan(got))
                    fail_msg("amax of the slots' mark NaN: %g, want a NaN", got);
                expect_slots_clear(ctx, cfg.semaphore_count, "stream slots, mark NaN");
            }
            rt_case_free(&c);
        }
    }
    dev_case_free(&d);
    rt_context_destroy(ctx);
}

/* Runs c on d with `policy` and checks it against its reference; then
   the memo's hits on ctx must have grown by `more` since *hits (updated). */
static void run_counted(rt_context *ctx, rt_case *c, dev_case *d, rt_policy policy,
                        uint64_t *hits, uint64_t more, const char *what) {
    check_case_gpu(c, dev_case_run(ctx, c, d, policy, NULL), what);
    const uint64_t now = rt__cuda_memo_hits(ctx);
    if (now != *hits + more)
        fail_msg("%s: %llu memo hits, want %llu", what, (unsigned long long)now,
                 (unsigned long long)(*hits + more));
    *hits = now;
}

/* The plan memo (cuda_memo.c): a call whose layout the context ran
   before, on other buffers and data, replays that launch on its own
   pointers and gets its own reference's result; a call that differs in
   the input's alignment, the policy, the device's props or the memo's
   switch is planned whole. One kernel of each kind: TINY, STREAM (f64
   slots past a wave, planned as on an H100), ROWS, a general kernel's
   global reduce (COMPAT's), a mean, min with indices. */
static void test_plan_memo(void **state) {
    (void)state;
    rt_context *ctx;
    const int64_t wave = h100_class_context(&ctx);
    const struct {
        rt_op op;
        rt_dtype dt;
        int nd;
        int64_t shape[2];
        int dim;
        bool idx;
        rt_policy policy;
        int kind; /* rt__kernel_kind, -1: any */
    } cases[] = {
        {RT_OP_SUM, RT_F32, 1, {1000, 0}, 0, false, RT_POLICY_TUNED, RT__KERNEL_TINY},
        {RT_OP_SUM, RT_F64, 1, {(wave + 3) * 8192 + 5, 0}, 0, false, RT_POLICY_TUNED,
         RT__KERNEL_STREAM},
        {RT_OP_SUM, RT_F32, 2, {8192, 100}, 1, false, RT_POLICY_TUNED, RT__KERNEL_ROWS},
        {RT_OP_SUM, RT_F32, 2, {4096, 1024}, 0, false, RT_POLICY_COMPAT, RT__KERNEL_GENERAL},
        {RT_OP_MEAN, RT_F32, 2, {300, 1000}, 1, false, RT_POLICY_TUNED, -1},
        {RT_OP_MIN, RT_F32, 2, {64, 3000}, 1, true, RT_POLICY_TUNED, -1},
    };
    dev_case d1, d2;
    memset(&d1, 0, sizeof d1);
    memset(&d2, 0, sizeof d2);
    uint64_t hits = rt__cuda_memo_hits(ctx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* Three cases of the layout, data of their own; the third's input
           one element past the others' alignment: another plan's key. */
        rt_case cs[3];
        for (int k = 0; k < 3; k++)
            make_case(&cs[k], cases[i].op, cases[i].dt, cases[i].dt, cases[i].nd, cases[i].shape,
                      &cases[i].dim, 1, k == 2, cases[i].idx, 0x3e30ull + 3 * i + (uint64_t)k);
        rt_case *c1 = &cs[0], *c2 = &cs[1], *c3 = &cs[2];
        const rt_policy pol = cases[i].policy;
        run_counted(ctx, c1, &d1, pol, &hits, 0, "plan memo, first call");
        /* (case_config validates the device copy that dev_case_run made.) */
        const rt__launch_config cfg = case_config(ctx, c1, &d1, pol);
        if (cases[i].kind >= 0 && (int)cfg.kernel != cases[i].kind)
            fail_msg("plan memo case %zu: kernel %d, want %d", i, (int)cfg.kernel,
                     (int)cases[i].kind);
        if (cfg.kernel == RT__KERNEL_GENERAL && pol == RT_POLICY_COMPAT)
            assert_true(rt__config_global_reduce(&cfg));
        if (cfg.kernel == RT__KERNEL_STREAM)
            assert_true(cfg.stream_slots);
        run_counted(ctx, c2, &d2, pol, &hits, 1, "plan memo, other buffers");
        run_counted(ctx, c1, &d1, pol, &hits, 1, "plan memo, first buffers again");
        run_counted(ctx, c3, &d2, pol, &hits, 0, "plan memo, input misaligned");
        run_counted(ctx, c3, &d1, pol, &hits, 1, "plan memo, misaligned again");
        if (cfg.kernel == RT__KERNEL_STREAM)
            expect_slots_clear(ctx, cfg.semaphore_count, "plan memo, slots");
        for (int k = 0; k < 3; k++)
            rt_case_free(&cs[k]);
    }

    /* What the plan is made for beyond the call: the context's policy,
       the device's props, and the memo's own switch. */
    const int64_t shape[1] = {1000};
    const int dim = 0;
    rt_case c;
    make_case(&c, RT_OP_SUM, RT_F32, RT_F32, 1, shape, &dim, 1, 0, false, 0x3e3full);
    /* Planned again or replayed, as the eight entries have turned over. */
    check_case_gpu(&c, dev_case_run(ctx, &c, &d1, RT_POLICY_TUNED, NULL), "plan memo, TINY");
    hits = rt__cuda_memo_hits(ctx);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 1, "plan memo, TINY again");
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_COMPAT), RT_OK);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 0, "plan memo, context policy");
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 1, "plan memo, context policy again");
    assert_int_equal(rt_context_set_policy(ctx, RT_POLICY_TUNED), RT_OK);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 1, "plan memo, TUNED's entry kept");
    case_plan_gbps(ctx, H200_TEST_GBPS);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 0, "plan memo, props");
    case_plan_gbps(ctx, H100_CLASS_TEST_GBPS);
    assert_int_equal(rt__context_set_kinds_off(ctx, RT__RULE_OFF_MEMO), RT_OK);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 0, "plan memo off");
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 0, "plan memo off, again");
    assert_int_equal(rt__context_set_kinds_off(ctx, 0), RT_OK);
    run_counted(ctx, &c, &d1, RT_POLICY_TUNED, &hits, 1, "plan memo on again");
    rt_case_free(&c);
    dev_case_free(&d1);
    dev_case_free(&d2);
    rt_context_destroy(ctx);
}

/* A layout the memo holds, with data pointers that must fail: each call
   gets the whole path's error and leaves its output untouched, and none
   replays the plan. */
/* The STREAM kernel's dependent fold (tuned_stream.c stream_dependent),
   planned as on an H200: a grid over a wave stores a state a block and a
   fold kernel launched as its programmatic dependent folds them. Each
   call gets its reference's result and the same bytes call after call;
   the memo replays both launches on other buffers; calls of other
   kernels between them, on the same workspace, change nothing; the
   result is the same as with the fold rule off where the chunks match
   (an integer sum: any order gives the same bits). */
static void test_stream_dependent(void **state) {
    (void)state;
    rt_context *ctx;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, 0), RT_OK);
    case_plan_gbps(ctx, H200_TEST_GBPS);
    const bool pdl = rt__cuda_props(ctx)->dependent_launch != 0;
    const int dim = 0;
    const struct {
        rt_op op;
        rt_dtype dt;
        int64_t n;
    } cases[] = {
        {RT_OP_SUM, RT_F32, 20000017},
        {RT_OP_SUM, RT_I64, 9000011},
        {RT_OP_MAX, RT_F64, 9000007},
    };
    dev_case d1, d2, small;
    memset(&d1, 0, sizeof d1);
    memset(&d2, 0, sizeof d2);
    memset(&small, 0, sizeof small);
    uint64_t hits = rt__cuda_memo_hits(ctx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int64_t shape[1] = {cases[i].n};
        rt_case c1, c2, other;
        make_case(&c1, cases[i].op, cases[i].dt, cases[i].dt, 1, shape, &dim, 1, 0, false,
                  0xde9ull + 2 * i);
        make_case(&c2, cases[i].op, cases[i].dt, cases[i].dt, 1, shape, &dim, 1, 0, false,
                  0xde9ull + 2 * i + 1);
        const int64_t other_shape[2] = {4096, 1000};
        const int other_dim = 1;
        make_case(&other, RT_OP_SUM, RT_F32, RT_F32, 2, other_shape, &other_dim, 1, 0, false,
                  0xde8ull);
        run_counted(ctx, &c1, &d1, RT_POLICY_TUNED, &hits, 0, "dependent fold, first call");
        const rt__launch_config cfg = case_config(ctx, &c1, &d1, RT_POLICY_TUNED);
        assert_int_equal(cfg.kernel, RT__KERNEL_STREAM);
        if (cfg.stream_dependent != pdl)
            fail_msg("dependent fold case %zu: stream_dependent %d, dependent launch %d", i,
                     (int)cfg.stream_dependent, (int)pdl);
        expect_same_rerun(ctx, &c1, &d1, RT_POLICY_TUNED);
        hits = rt__cuda_memo_hits(ctx);
        run_counted(ctx, &c2, &d2, RT_POLICY_TUNED, &hits, 1, "dependent fold, other buffers");
        check_case_gpu(&other, dev_case_run(ctx, &other, &small, RT_POLICY_TUNED, NULL),
                       "dependent fold, a row sum between");
        hits = rt__cuda_memo_hits(ctx);
        run_counted(ctx, &c1, &d1, RT_POLICY_TUNED, &hits, 1, "dependent fold, first again");
        if (cases[i].dt == RT_I64) {
            unsigned char *with = malloc(c1.out_buf.bytes);
            assert_non_null(with);
            memcpy(with, c1.out_buf.base, c1.out_buf.bytes);
            assert_int_equal(rt__context_set_kinds_off(ctx, RT__RULE_OFF_STREAM_DEPENDENT), RT_OK);
            check_case_gpu(&c1, dev_case_run(ctx, &c1, &d1, RT_POLICY_TUNED, NULL),
                           "dependent fold off");
            assert_false(case_config(ctx, &c1, &d1, RT_POLICY_TUNED).stream_dependent);
            assert_int_equal(rt__context_set_kinds_off(ctx, 0), RT_OK);
            assert_memory_equal(with, c1.out_buf.base, c1.out_buf.bytes);
            free(with);
        }
        rt_case_free(&c1);
        rt_case_free(&c2);
        rt_case_free(&other);
    }
    dev_case_free(&d1);
    dev_case_free(&d2);
    dev_case_free(&small);
    rt_context_destroy(ctx);
}

static void test_plan_memo_errors(void **state) {
    (void)state;
    rt_context *ctx;
    assert_int_equal(rt_context_create(&ctx, RT_DEVICE_CUDA, 0), RT_OK);
    /* Every buffer 256-byte aligned, as the memo's entry (in at dev, out
       at dev + 64), so that each call below matches it. */
    static _Alignas(256) float host_in[64], host_out[64];
    float vals[64];
    for (int i = 0; i < 64; i++)
        vals[i] = host_in[i] = (float)i;
    host_out[0] = -3.0f;
    float *dev;
    CUDA_OK(cudaMalloc((void **)&dev, 256 * sizeof(float)));
    CUDA_OK(cudaMemcpy(dev, vals, sizeof vals, cudaMemcpyHostToDevice));
    rt_tensor in = {dev, RT_F32, 1, {64}, {1}};
    rt_tensor out = {dev + 64, RT_F32, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
    const uint64_t hits = rt__cuda_memo_hits(ctx);
    assert_int_equal(hits, 1);
    float got = 0;
    CUDA_OK(cudaMemcpy(&got, dev + 64, sizeof got, cudaMemcpyDeviceToHost));
    assert_true(got == 2016.0f);

    /* The output on the input's first element (dev + 128: 512 bytes on). */
    CUDA_OK(cudaMemset(dev + 128, RT_CASE_POISON, 64 * sizeof(float)));
    rt_tensor in2 = {dev + 128, RT_F32, 1, {64}, {1}};
    rt_tensor dout = {dev + 128, RT_F32, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in2, NULL, 0, false, &dout),
                     RT_ERR_OVERLAP);
    /* Host memory in, and out. */
    rt_tensor hin = {host_in, RT_F32, 1, {64}, {1}};
    rt_tensor hout = {host_out, RT_F32, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &hin, NULL, 0, false, &dout),
                     RT_ERR_WRONG_MEMORY);
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &hout),
                     RT_ERR_WRONG_MEMORY);
    assert_true(host_out[0] == -3.0f);
    /* NULL data. */
    rt_tensor null_in = {NULL, RT_F32, 1, {64}, {1}};
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &null_in, NULL, 0, false, &dout),
                     RT_ERR_NULL_POINTER);
    unsigned char poison[64 * sizeof(float)];
    CUDA_OK(cudaMemcpy(poison, dev + 128, sizeof poison, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < sizeof poison; i++)
        assert_int_equal(poison[i], RT_CASE_POISON);
    assert_int_equal(rt__cuda_memo_hits(ctx), hits);

    /* And the plan still serves a good call. */
    assert_int_equal(reduce_tensor(ctx, RT_OP_SUM, &in, NULL, 0, false, &out), RT_OK);
    assert_int_equal(rt__cuda_memo_hits(ctx), hits + 1);
    CUDA_OK(cudaMemcpy(&got, dev + 64, sizeof got, cudaMemcpyDeviceToHost));
    assert_true(got == 2016.0f);
    CUDA_OK(cudaFree(dev));
    rt_context_destroy(ctx);
}

/* The caller's current device is current again after a call. */
static void test_device_restored(void **state) {
    (void)state;
    int before = -1, after = -1;
    CUDA_OK(cudaGetDevice(&before));
    dev_case d;
    memset(&d, 0, sizeof d);
    const int64_t shape[1] = {1000};
    const int dim = 0;
    rt_case c;
    make_case(&c, RT_OP_MAX, RT_F32, RT_F32, 1, shape, &dim, 1, 0, true, 0xdefull);
    rt_status s = dev_case_run(g_gpu, &c, &d, RT_POLICY_DEFAULT, NULL);
    check_case_gpu(&c, s, "device restored");
    CUDA_OK(cudaGetDevice(&after));
    assert_int_equal(before, after);
    rt_case_free(&c);
    dev_case_free(&d);
}

static void test_errors(void **state) {
    (void)state;
    /* Host memory to a CUDA context. */
    float host_in[16], host_out[1] = {-3.0f};
    for (int i = 0; i < 16; i++)
        host_in[i] = (float)i;
    float *dev_in, *dev_out;
    CUDA_OK(cudaMalloc((void **)&dev_in, sizeof host_in));
    CUDA_OK(cudaMalloc((void **)&dev_out, sizeof(float)));
    CUDA_OK(cudaMemcpy(dev_in, host_in, sizeof host_in, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dev_out, RT_CASE_POISON, sizeof(float)));

    rt_tensor hin = {host_in, RT_F32, 1, {16}, {1}};
    rt_tensor hout = {host_out, RT_F32, 0, {0}, {0}};
    rt_tensor din = {dev_in, RT_F32, 1, {16}, {1}};
    rt_tensor dout = {dev_out, RT_F32, 0, {0}, {0}};
    assert_int_equal(reduce_tensor(g_gpu, RT_OP_SUM, &hin, NULL, 0, false, &dout),
                     RT_ERR_WRONG_MEMORY);
    assert_int_equal(reduce_tensor(g_gpu, RT_OP_SUM, &din, NULL, 0, false, &hout),
                     RT_ERR_WRONG_MEMORY);
    assert_true(host_out[0] == -3.0f);
    unsigned char poison[4];
    CUDA_OK(cudaMemcpy(poison, dev_out, 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        assert_int_equal(poison[i], RT_CASE_POISON);

    /* Device memory to a CPU context. */
    rt_context *cpu;
    assert_int_equal(rt_context_create(&cpu, RT_DEVICE_CPU, 0), RT_OK);
    assert_int_equal(reduce_tensor(cpu, RT_OP_SUM, &din, NULL, 0, false, &hout),
                     RT_ERR_WRONG_MEMORY);
    assert_int_equal(reduce_tensor(cpu, RT_OP_SUM, &hin, NULL, 0, false, &dout),
                     RT_ERR_WRONG_MEMORY);
    assert_true(host_out[0] == -3.0f);
    rt_context_destroy(cpu);

    /* The right call works: 0 + 1 + ... + 15. */
    assert_int_equal(reduce_tensor(g_gpu, RT_OP_SUM, &din, NULL, 0, false, &dout), RT_OK);
    float got = 0;
    CUDA_OK(cudaMemcpy(&got, dev_out, sizeof got, cudaMemcpyDeviceToHost));
    assert_true(got == 120.0f);
    CUDA_OK(cudaFree(dev_in));
    CUDA_OK(cudaFree(dev_out));

    /* No such device; *ctx is NULL after a failure. */
    rt_context *bad = g_gpu;
    assert_int_equal(rt_context_create(&bad, RT_DEVICE_CUDA, rt_cuda_device_count()),
                     RT_ERR_BAD_DEVICE);
    assert_null(bad);
    bad = g_gpu;
    assert_int_equal(rt_context_create(&bad, RT_DEVICE_CUDA, -1), RT_ERR_BAD_DEVICE);
    assert_null(bad);
}

/* The full f32 sum of in[0..15] into *out, on g_gpu. */
static rt_status reduce16(float *in, float *out) {
    rt_tensor tin = {in, RT_F32, 1, {16}, {1}};
    rt_tensor tout = {out, RT_F32, 0, {0}, {0}};
    return reduce_tensor(g_gpu, RT_OP_SUM, &tin, NULL, 0, false, &tout);
}

/* A full f32 sum of 0, 1, ..., 15 from in into out (either may be any kind
   of memory): the status, and in *got the output's value afterwards. */
static rt_status sum16(float *in, float *out, bool in_on_host, float *got) {
    float vals[16];
    for (int i = 0; i < 16; i++)
        vals[i] = (float)i;
    if (in_on_host)
        memcpy(in, vals, sizeof vals);
    else
        CUDA_OK(cudaMemcpy(in, vals, sizeof vals, cudaMemcpyDefault));
    rt_status s = reduce16(in, out);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(got, out, sizeof *got, cudaMemcpyDefault));
    return s;
}

/* Which memory a CUDA context takes: device memory (cudaMalloc, stream-
   ordered cudaMallocAsync) and managed memory; not pinned host memory
   (cudaMallocHost, mapped into the device's address space but not its
   memory), which is refused with the output untouched. */
static void test_memory_kinds(void **state) {
    (void)state;
    /* Managed memory and memory pools are device features: where device 0
       lacks one, its part is skipped (and said so), not failed. */
    int managed_ok = 0, pools_ok = 0;
    CUDA_OK(cudaDeviceGetAttribute(&managed_ok, cudaDevAttrManagedMemory, 0));
    CUDA_OK(cudaDeviceGetAttribute(&pools_ok, cudaDevAttrMemoryPoolsSupported, 0));
    float got = 0;
    float *dev, *pinned;
    CUDA_OK(cudaMalloc((void **)&dev, 17 * sizeof(float)));
    CUDA_OK(cudaMallocHost((void **)&pinned, 17 * sizeof(float)));

    if (managed_ok) {
        float *managed;
        CUDA_OK(cudaMallocManaged((void **)&managed, 17 * sizeof(float), cudaMemAttachGlobal));
        assert_int_equal(sum16(managed, managed + 16, true, &got), RT_OK);
        assert_true(got == 120.0f);
        assert_int_equal(sum16(managed, dev + 16, true, &got), RT_OK);
        assert_true(got == 120.0f);
        CUDA_OK(cudaFree(managed));
    } else {
        print_message("device 0 has no managed memory: that part skipped\n");
    }
    if (pools_ok) {
        float *pool;
        CUDA_OK(cudaMallocAsync((void **)&pool, 17 * sizeof(float), 0));
        CUDA_OK(cudaStreamSynchronize(0));
        assert_int_equal(sum16(pool, pool + 16, false, &got), RT_OK);
        assert_true(got == 120.0f);
        CUDA_OK(cudaFreeAsync(pool, 0));
        CUDA_OK(cudaStreamSynchronize(0));
    } else {
        print_message("device 0 has no memory pools: cudaMallocAsync part skipped\n");
    }

    pinned[16] = -3.0f;
    assert_int_equal(sum16(dev, pinned + 16, false, &got), RT_ERR_WRONG_MEMORY);
    assert_true(got == -3.0f);
    CUDA_OK(cudaMemset(dev + 16, 0, sizeof(float)));
    assert_int_equal(sum16(pinned, dev + 16, true, &got), RT_ERR_WRONG_MEMORY);
    assert_true(got == 0.0f);

    CUDA_OK(cudaFreeHost(pinned));
    CUDA_OK(cudaFree(dev));
}

typedef struct thread_job {
    float *in, *out;
    rt_status status;
} thread_job;

static void *sum_on_new_thread(void *arg) {
    thread_job *j = arg;
    /* This thread's first CUDA call is the library's own. */
    j->status = reduce16(j->in, j->out);
    return NULL;
}

static rt_status run_on_new_thread(float *in, float *out) {
    thread_job j = {in, out, RT_ERR_INTERNAL};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, sum_on_new_thread, &j), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    return j.status;
}

/* A thread that never touched CUDA gets the same answers: its pointer
   checks and launch need no current context made by the caller. */
static void test_fresh_thread(void **state) {
    (void)state;
    static float host_in[16];
    float vals[16];
    for (int i = 0; i < 16; i++)
        host_in[i] = vals[i] = (float)i;
    float *dev, got = 0;
    CUDA_OK(cudaMalloc((void **)&dev, 17 * sizeof(float)));
    CUDA_OK(cudaMemcpy(dev, vals, sizeof vals, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dev + 16, 0, sizeof(float)));

    assert_int_equal(run_on_new_thread(dev, dev + 16), RT_OK);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(&got, dev + 16, sizeof got, cudaMemcpyDeviceToHost));
    assert_true(got == 120.0f);

    CUDA_OK(cudaMemset(dev + 16, 0, sizeof(float)));
    assert_int_equal(run_on_new_thread(host_in, dev + 16), RT_ERR_WRONG_MEMORY);
    CUDA_OK(cudaMemcpy(&got, dev + 16, sizeof got, cudaMemcpyDeviceToHost));
    assert_true(got == 0.0f);
    CUDA_OK(cudaFree(dev));
}

int main(void) {
    const int opened = open_gpu_context(&g_gpu);
    if (opened != 0)
        return opened;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinism),    cmocka_unit_test(test_stream),
        cmocka_unit_test(test_stream_switch),
        cmocka_unit_test(test_steady_state),   cmocka_unit_test(test_stream_slots),
        cmocka_unit_test(test_device_restored),
        cmocka_unit_test(test_errors),         cmocka_unit_test(test_memory_kinds),
        cmocka_unit_test(test_fresh_thread),
        cmocka_unit_test(test_plan_memo),      cmocka_unit_test(test_plan_memo_errors),
        cmocka_unit_test(test_stream_dependent),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rt_context_destroy(g_gpu);
    return rc;
}
