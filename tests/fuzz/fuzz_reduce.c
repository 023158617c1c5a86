/*
 * A fuzz target for reduce_tensor_ex on the CPU backend: bytes in, one call
 * out, judged against two independent oracles.
 *
 * The bytes choose everything a caller chooses (fuzz_input.c): op, dtypes,
 * rank, extents, strides (dense in any memory order, sliced, broadcast,
 * negative, arbitrary small ones), where element [0, ..., 0] sits, dims,
 * keepdim, the output's shape and strides, an indices output, where the
 * outputs live (apart, or inside the input), correction, p, policy, the
 * worker count and the input's values; and now and then something wrong
 * (a bad rank, extent, dtype, op, dim, pointer, parameter; overflowing
 * extents or strides; a wrong output shape; an output that overlaps).
 * Then:
 *  - the status must be fz_expect's (fuzz_expect.c, from the documented
 *    contract);
 *  - a failed call leaves every byte of the arena as it was;
 *  - a call that succeeds leaves the input and every byte outside the
 *    outputs' elements as they were, and its results match the naive
 *    long-double reference (tests/common/rt_ref.c) within rt_ref_check's
 *    tolerances;
 *  - an output the self-overlap rule passes has distinct elements (listed
 *    one by one when small).
 * A violation prints the call and aborts, which libFuzzer reports as a
 * crash with the input saved.
 *
 * Two drivers: built with -DRT_FUZZ_LIBFUZZER (clang -fsanitize=fuzzer,
 * the RT_BUILD_FUZZ option) it is a libFuzzer target; otherwise main()
 * replays the files named on the command line, or (none named) runs
 * RT_FUZZ_RUNS (default 12000) inputs of random bytes from fixed seeds:
 * the ctest fuzz_reduce, which CI runs plain and under ASan/UBSan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_expect.h"
#include "fuzz_input.h"
#include "rt_ref.h"
#include "rt_rng.h"

static rt_context *g_ctx;
/* What the replay driver ran: calls made, and how many succeeded. */
static long g_calls, g_ok, g_big, g_status[RT_ERR_INTERNAL + 1];
/* RT_FUZZ_TRACE set: every call is printed before it is made. */
static bool g_trace;

static void die(const fz_call *c, const char *what, const char *detail) {
    char desc[2048];
    fz_describe(c, desc, sizeof desc);
    fprintf(stderr, "fuzz_reduce: %s\n  call: %s\n%s%s", what, desc, detail ? detail : "",
            detail ? "\n" : "");
    abort();
}

/* The case the reference and the checker read: the call's tensors. */
static rt_case as_case(const fz_call *c) {
    rt_case k;
    memset(&k, 0, sizeof k);
    k.op = c->args.op;
    k.in = c->in;
    k.out = c->out;
    k.has_idx = c->args.indices != NULL;
    if (k.has_idx)
        k.idx = c->idx;
    memcpy(k.dims, c->dims, sizeof k.dims);
    k.ndims = c->args.ndims;
    k.keepdim = c->args.keepdim;
    k.correction = c->args.correction;
    k.p = c->args.p;
    /* The blocks' gaps are checked over the whole arena instead
       (only_outputs_written): an output placed in the input's region
       without touching its elements has input bytes in its block. */
    k.in_buf = c->region[FZ_IN];
    return k;
}

/* Every output the documented rule passes has distinct elements. */
static void check_rule_sound(const fz_call *c, const rt_tensor *t) {
    bool checked;
    if (!fz_rule_overlaps(t) && fz_brute_overlaps(t, 1 << 16, &checked) && checked)
        die(c, "the self-overlap rule passed a tensor with two elements at one address", NULL);
}

/* Every byte of the arena but the outputs' elements is as it was. */
static bool only_outputs_written(const fz_call *c, const unsigned char *before) {
    unsigned char *mark = calloc(c->arena_bytes, 1);
    if (mark == NULL)
        die(c, "checker: out of memory", NULL);
    const rt_tensor *outs[2] = {&c->out, c->args.indices};
    for (int i = 0; i < 2 && outs[i] != NULL; i++) {
        const int64_t n = (int64_t)fz_numel(outs[i]), size = (int64_t)rt_dtype_size(outs[i]->dtype);
        const unsigned char *p = outs[i]->data;
        for (int64_t k = 0; k < n; k++) /* rt_case_offset counts bytes */
            memset(mark + (p - c->arena) + rt_case_offset(outs[i], k), 1, (size_t)size);
    }
    bool same = true;
    for (size_t b = 0; b < c->arena_bytes && same; b++)
        same = mark[b] || c->arena[b] == before[b];
    free(mark);
    return same;
}

static void judge(const fz_call *c, rt_status got, const unsigned char *before) {
    const rt_status want = fz_expect(&c->args);
    if (got != want) {
        char detail[128];
        snprintf(detail, sizeof detail, "  status: expected %s, got %s", rt_status_name(want),
                 rt_status_name(got));
        die(c, "wrong status", detail);
    }
    if (got != RT_OK) {
        if (memcmp(before, c->arena, c->arena_bytes) != 0)
            die(c, "a failed call wrote to memory", NULL);
        return;
    }
    check_rule_sound(c, &c->out);
    if (c->args.indices != NULL)
        check_rule_sound(c, &c->idx);
    if (!only_outputs_written(c, before))
        die(c, "the call wrote outside its outputs' elements", NULL);
    rt_case k = as_case(c);
    rt_ref ref;
    memset(&ref, 0, sizeof ref);
    if (rt_ref_compute(&k, &ref) != 0)
        die(c, "reference: out of memory", NULL);
    char msg[2048];
    const bool ok = rt_ref_check(&k, &ref, got, RT_ACC_F64, msg, sizeof msg);
    rt_ref_free(&ref);
    if (!ok)
        die(c, "wrong result", msg);
}

/* One input: decode, call, judge. Inputs the CPU cannot afford to run
   (a valid call over millions of elements) are skipped. */
static int fuzz_one(const uint8_t *data, size_t size) {
    if (g_ctx == NULL) {
        if (rt_context_create(&g_ctx, RT_DEVICE_CPU, 0) != RT_OK) {
            fprintf(stderr, "fuzz_reduce: no CPU context\n");
            abort();
        }
        g_trace = getenv("RT_FUZZ_TRACE") != NULL;
    }
    fz_call c;
    if (!fz_decode(data, size, &c))
        return 0;
    if (rt_context_set_num_threads(g_ctx, c.num_threads) != RT_OK)
        die(&c, "rt_context_set_num_threads refused", NULL);
    unsigned char *before = malloc(c.arena_bytes);
    if (before == NULL) {
        fz_free(&c);
        return 0;
    }
    memcpy(before, c.arena, c.arena_bytes);
    if (g_trace) {
        char desc[2048];
        fz_describe(&c, desc, sizeof desc);
        fprintf(stderr, "fuzz_reduce: %s\n", desc);
    }
    const rt_status got = reduce_tensor_ex(g_ctx, &c.args);
    judge(&c, got, before);
    g_calls++;
    g_ok += got == RT_OK;
    /* successes the CPU backend may spread over worker threads */
    g_big += got == RT_OK && c.num_threads > 1 && fz_numel(&c.in) >= (1 << 15);
    if ((unsigned)got <= RT_ERR_INTERNAL)
        g_status[got]++;
    free(before);
    fz_free(&c);
    return 0;
}

#ifdef RT_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_one(data, size);
}
#else
static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "fuzz_reduce: cannot open %s\n", path);
        return 1;
    }
    static uint8_t buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    fuzz_one(buf, n);
    return 0;
}

int main(int argc, char **argv) {
    int status = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            status |= replay_file(argv[i]);
    } else {
        const char *v = getenv("RT_FUZZ_RUNS");
        const long runs = v != NULL && *v != '\0' ? strtol(v, NULL, 10) : 12000;
        uint8_t buf[256];
        for (long i = 0; i < runs; i++) {
            rt_rng r;
            rt_rng_seed(&r, 0xf0220000ull + (uint64_t)i);
            const size_t n = (size_t)rt_rng_range(&r, 0, sizeof buf);
            for (size_t k = 0; k < n; k++)
                buf[k] = (uint8_t)rt_rng_next(&r);
            fuzz_one(buf, n);
        }
        printf("fuzz_reduce: %ld random inputs, %ld calls judged (%ld succeeded, %ld of them on "
               "2-4 threads over 2^15 elements or more)\n",
               runs, g_calls, g_ok, g_big);
        for (int k = 0; k <= RT_ERR_INTERNAL; k++)
            if (g_status[k] > 0)
                printf("  %-22s %ld\n", rt_status_name((rt_status)k), g_status[k]);
    }
    rt_context_destroy(g_ctx);
    return status;
}
#endif
