/*
 * Variance and standard deviation on the CPU, for f32/f64/f16/bf16, in
 * binary64: the state is Welford's (count, mean, M2) and partial states
 * combine with Chan's parallel formula.
 *
 * A contiguous or strided run is taken in blocks of RT__CPU_BLOCK: the
 * block's exact two-pass mean and M2 (read twice from L1) are merged into
 * the state with Chan's formula. That is as accurate as per-element
 * Welford and avoids a division per element. The column path updates one
 * Welford state per output per row; every column shares the count, so the
 * division happens once per row.
 */
#include "cpu_kernel.h"

/* Chan et al.: merges (nb, mb, m2b) into a's state. */
static inline void chan(rt__cpu_acc *a, double nb, double mb, double m2b)
{
    if (nb == 0.0)
        return;
    double na = a->w.n, n = na + nb;
    if (na == 0.0) {
        a->w.n = nb;
        a->w.mean = mb;
        a->w.m2 = m2b;
        return;
    }
    double d = mb - a->w.mean;
    a->w.mean += d * (nb / n);
    a->w.m2 += m2b + d * d * (na * nb / n);
    a->w.n = n;
}

RT__CPU_INLINE void var_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,
                              double (*ld)(const char *))
{
    double buf[RT__CPU_BLOCK];
    while (n > 0) {
        int64_t b = n < RT__CPU_BLOCK ? n : RT__CPU_BLOCK;
        double s = 0.0, m2 = 0.0;
        for (int64_t i = 0; i < b; i++) {
            buf[i] = ld(x + i * st);
            s += buf[i];
        }
        double mean = s / (double)b;
        for (int64_t i = 0; i < b; i++)
            m2 += (buf[i] - mean) * (buf[i] - mean);
        chan(a, (double)b, mean, m2);
        x += b * st;
        n -= b;
    }
}

RT__CPU_INLINE void var_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                               const rt__cpu_rows *rows, double (*ld)(const char *), void *work)
{
    double *mean = (double *)work, *m2 = mean + RT__CPU_TILE;
    for (int64_t j = 0; j < m; j++)
        mean[j] = m2[j] = 0.0;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    double count = 0.0;
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        count += 1.0;
        double inv = 1.0 / count;
        for (int64_t j = 0; j < m; j++) {
            double y = ld(row + j * cs);
            double d = y - mean[j];
            mean[j] += d * inv;
            m2[j] += d * (y - mean[j]);
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++) {
        a[j].w.n = count;
        a[j].w.mean = mean[j];
        a[j].w.m2 = m2[j];
    }
}

static void var_init(rt__cpu_acc *a)
{
    a->w.n = 0.0;
    a->w.mean = 0.0;
    a->w.m2 = 0.0;
}

static void var_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    chan(a, b->w.n, b->w.mean, b->w.m2);
}

/* M2 / (N - correction); NaN when N <= correction (N = 0 included). */
static double variance(const rt__cpu_acc *a, const rt__cpu_params *prm)
{
    double dof = (double)prm->count - prm->correction;
    return dof > 0.0 ? a->w.m2 / dof : NAN;
}

static void fin_var(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    r->kind = RT__CPU_RES_FLOAT;
    r->f = variance(a, prm);
    r->u = 0;
    r->index = 0;
}

static void fin_std(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    r->kind = RT__CPU_RES_FLOAT;
    r->f = sqrt(variance(a, prm));
    r->u = 0;
    r->index = 0;
}

#define DTYPE_STAMP(E, sfx, sz)                                                                    \
    static void run_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t idx0,      \
                          const rt__cpu_params *prm)                                               \
    {                                                                                              \
        (void)idx0;                                                                                \
        (void)prm;                                                                                 \
        var_run_g(a, x, n, st, rt__cpu_ld_##sfx);                                                  \
    }                                                                                              \
    static void tile_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,                   \
                           const rt__cpu_rows *rows, const rt__cpu_params *prm, void *work)        \
    {                                                                                              \
        (void)prm;                                                                                 \
        var_tile_g(a, m, x, cs, rows, rt__cpu_ld_##sfx, work);                                     \
    }                                                                                              \
    static const rt__cpu_kernel kernels_##sfx[2] = {                                               \
        {var_init, run_##sfx, tile_##sfx, var_merge, fin_var},                                     \
        {var_init, run_##sfx, tile_##sfx, var_merge, fin_std},                                     \
    };

RT__CPU_FLOAT_DTYPES(DTYPE_STAMP)

const rt__cpu_kernel *rt__cpu_var_kernel(rt_op op, rt_dtype in)
{
    if (op != RT_OP_VAR && op != RT_OP_STD)
        return NULL;
    int v = op == RT_OP_STD;
    switch (in) {
#define CASE(E, sfx, sz)                                                                           \
    case E:                                                                                        \
        return &kernels_##sfx[v];
        RT__CPU_FLOAT_DTYPES(CASE)
#undef CASE
    default:
        return NULL;
    }
}
