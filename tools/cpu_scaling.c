/*
 * cpu_scaling: how the CPU backend scales from 1 to 2 (or more) threads.
 *
 * Sums a contiguous [rows, cols] f32 matrix of random data over dim 0
 * (columns: the vertical path), dim 1 (rows: the inner path) and both (one
 * output: the reduced range split across threads), on 1 thread and on N,
 * and prints the median wall time of several runs, the read bandwidth and
 * the speedup. A last row times a plain threaded read loop over the same
 * matrix (8 f64 lanes, no library): the machine's read ceiling, which
 * bounds every speedup of a memory-bound reduction. On a shared VM it
 * moves with the neighbours' memory traffic, so compare rows of one run.
 *
 *     cpu_scaling [threads=2] [rows=8192] [cols=8192] [reps=7]
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reduce_tensor.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The read ceiling: a contiguous slice summed in 8 independent lanes. */
typedef struct probe {
    const float *x;
    int64_t n;
    double sum;
} probe;

static void *probe_run(void *arg)
{
    probe *p = arg;
    double l[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= p->n; i += 8)
        for (int k = 0; k < 8; k++)
            l[k] += p->x[i + k];
    for (; i < p->n; i++)
        l[0] += p->x[i];
    p->sum = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
    return NULL;
}

/* Median seconds to read x[0..n) with `threads` plain loops, or < 0. */
static double time_probe(const float *x, int64_t n, int threads, int reps)
{
    pthread_t th[64];
    probe p[64];
    bool started[64];
    if (threads > 64)
        return -1.0;
    double *t = malloc(sizeof *t * (size_t)reps), med;
    if (!t)
        return -1.0;
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        double t0 = now();
        for (int k = 0; k < threads; k++) {
            p[k].x = x + n / threads * k;
            p[k].n = k == threads - 1 ? n - n / threads * k : n / threads;
            started[k] = k > 0 && pthread_create(&th[k], NULL, probe_run, &p[k]) == 0;
            if (k > 0 && !started[k])
                probe_run(&p[k]);
        }
        probe_run(&p[0]);
        for (int k = 1; k < threads; k++)
            if (started[k])
                pthread_join(th[k], NULL);
        if (r >= 0)
            t[r] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    med = t[reps / 2];
    free(t);
    return med;
}

/* Median seconds of `reps` timed calls after one warm-up call, or a
   negative value when a call fails. */
static double time_sum(rt_context *ctx, const rt_tensor *in, const int *dims, int ndims,
                       const rt_tensor *out, int reps)
{
    double *t = malloc(sizeof *t * (size_t)reps), med;
    if (!t || reduce_tensor(ctx, RT_OP_SUM, in, dims, ndims, false, out) != RT_OK) {
        free(t);
        return -1.0;
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (reduce_tensor(ctx, RT_OP_SUM, in, dims, ndims, false, out) != RT_OK) {
            free(t);
            return -1.0;
        }
        t[r] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    med = t[reps / 2];
    free(t);
    return med;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    int64_t rows = argc > 2 ? atoll(argv[2]) : 8192, cols = argc > 3 ? atoll(argv[3]) : 8192;
    int reps = argc > 4 ? atoi(argv[4]) : 7;
    if (threads < 1 || threads > 64 || rows < 1 || cols < 1 || reps < 1) {
        fprintf(stderr, "usage: %s [threads 1..64] [rows] [cols] [reps]\n", argv[0]);
        return 2;
    }
    float *x = malloc(sizeof *x * (size_t)(rows * cols));
    float *out = malloc(sizeof *out * (size_t)(rows > cols ? rows : cols));
    if (!x || !out) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t s = 88172645463325252ull; /* xorshift64: data need only be non-trivial */
    for (int64_t i = 0; i < rows * cols; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x[i] = (float)(s >> 40) * 0x1p-24f - 0.5f;
    }
    rt_context *ctx = NULL;
    rt_status st = rt_context_create(&ctx, RT_DEVICE_CPU, 0);
    if (st != RT_OK) {
        fprintf(stderr, "%s\n", rt_status_string(st));
        return 1;
    }
    rt_tensor in = {x, RT_F32, 2, {rows, cols}, {cols, 1}};
    rt_tensor o_cols = {out, RT_F32, 1, {cols}, {1}}, o_rows = {out, RT_F32, 1, {rows}, {1}};
    rt_tensor o_all = {out, RT_F32, 0, {0}, {0}};
    int d0 = 0, d1 = 1;
    struct {
        const char *name;
        const int *dims;
        int ndims;
        const rt_tensor *out;
    } cases[3] = {{"sum dim 0 (columns)", &d0, 1, &o_cols},
                  {"sum dim 1 (rows)", &d1, 1, &o_rows},
                  {"sum dims (0,1) (all)", NULL, 0, &o_all}};
    double gb = (double)(rows * cols) * sizeof(float) * 1e-9;
    printf("f32 [%lld, %lld], %.3f GB read per call, median of %d runs\n", (long long)rows,
           (long long)cols, gb, reps);
    char ms_n[32], gbs_n[32];
    snprintf(ms_n, sizeof ms_n, "ms %dthr", threads);
    snprintf(gbs_n, sizeof gbs_n, "GB/s %dthr", threads);
    printf("%-22s %10s %10s %10s %10s %8s\n", "case", "ms 1thr", ms_n, "GB/s 1thr", gbs_n,
           "speedup");
    int worst_ok = 1;
    for (int c = 0; c < 3; c++) {
        double t[2];
        for (int k = 0; k < 2; k++) {
            rt_context_set_num_threads(ctx, k == 0 ? 1 : threads);
            t[k] = time_sum(ctx, &in, cases[c].dims, cases[c].ndims, cases[c].out, reps);
            if (t[k] < 0) {
                fprintf(stderr, "%s: reduce_tensor failed\n", cases[c].name);
                return 1;
            }
        }
        double speedup = t[0] / t[1];
        worst_ok = worst_ok && speedup >= 1.4;
        printf("%-22s %10.2f %10.2f %10.2f %10.2f %7.2fx\n", cases[c].name, t[0] * 1e3, t[1] * 1e3,
               gb / t[0], gb / t[1], speedup);
    }
    double c1 = time_probe(x, rows * cols, 1, reps), cn = time_probe(x, rows * cols, threads, reps);
    if (c1 > 0 && cn > 0)
        printf("%-22s %10.2f %10.2f %10.2f %10.2f %7.2fx\n", "read ceiling (no lib)", c1 * 1e3,
               cn * 1e3, gb / c1, gb / cn, c1 / cn);
    if (threads == 2)
        printf("target >= 1.4x on 2 threads for each case: %s\n", worst_ok ? "met" : "NOT met");
    rt_context_destroy(ctx);
    free(x);
    free(out);
    return 0;
}
