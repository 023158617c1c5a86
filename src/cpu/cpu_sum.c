/*
 * Float sums and products on the CPU: sum, mean, prod and the finite-order
 * norms (p = 0 counts nonzeros, 1, 2, any other p), for f32/f64/f16/bf16.
 *
 * Every input accumulates in binary64. Elements are summed naively in 8
 * lanes over blocks of RT__CPU_BLOCK, and each block sum is folded into a
 * Neumaier-compensated total: for f64 inputs this is at least as accurate
 * as pairwise summation whatever the traversal order, and for the narrower
 * types binary64 is already far beyond what the output can show. The lanes
 * also give the CPU independent add chains, so contiguous runs stream.
 */
#include "cpu_kernel.h"

/* What an element becomes before it is summed. */
enum { XF_ID = 0, XF_ABS = 1, XF_SQ = 2, XF_NZ = 3, XF_POW = 4 };

RT__CPU_INLINE double xform(double v, int xf, double p)
{
    switch (xf) {
    case XF_ID:
        return v;
    case XF_ABS:
        return fabs(v);
    case XF_SQ:
        return v * v;
    case XF_NZ:
        return v != 0.0 ? 1.0 : 0.0; /* NaN counts as nonzero, -0.0 as zero */
    default:
        return pow(fabs(v), p);
    }
}

/* Neumaier's compensated add of v into (s, c). */
RT__CPU_INLINE void fold(double *s, double *c, double v)
{
    double t = *s + v;
    double e = fabs(*s) >= fabs(v) ? (*s - t) + v : (v - t) + *s;
    *c += e;
    *s = t;
}

/* The compensated total. Once the sum is inf or NaN the compensation is
   meaningless (inf - inf), and the plain sum already has the IEEE answer. */
static double total(const rt__cpu_acc *a)
{
    return isfinite(a->sum.s) ? a->sum.s + a->sum.c : a->sum.s;
}

RT__CPU_INLINE void sum_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, double p,
                              double (*ld)(const char *), int64_t esz, int xf)
{
    const int64_t blk = esz == 8 ? RT__CPU_BLOCK : RT__CPU_BLOCK_NARROW;
    double s = a->sum.s, c = a->sum.c;
    while (n > 0) {
        int64_t b = n < blk ? n : blk, i = 0;
        double l[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        /* The contiguous case gets its own loop so the stride is a
           compile-time constant and the lanes vectorize. */
        if (st == esz) {
            for (; i + 8 <= b; i += 8)
                for (int k = 0; k < 8; k++)
                    l[k] += xform(ld(x + (i + k) * esz), xf, p);
        } else {
            for (; i + 8 <= b; i += 8)
                for (int k = 0; k < 8; k++)
                    l[k] += xform(ld(x + (i + k) * st), xf, p);
        }
        for (; i < b; i++)
            l[i & 7] += xform(ld(x + i * st), xf, p);
        fold(&s, &c, ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7])));
        x += b * st;
        n -= b;
    }
    a->sum.s = s;
    a->sum.c = c;
}

/* Adds rows r[0..nr) (nr <= 8) of m columns into t. Eight rows at once keep
   eight memory streams in flight and touch t once per eight rows: column
   sums of [8192, 8192] f32 went from 12.6 GB/s (four rows) to 16.7 GB/s on
   one core of the dev VM. */
RT__CPU_INLINE void sum_rows(double *t, int64_t m, const char *const *r, int nr, int64_t cs,
                             double p, double (*ld)(const char *), int64_t esz, int xf)
{
/* element j of row k, transformed */
#define ELEM(k, s) xform(ld(r[k] + j * (s)), xf, p)
    if (nr == 8 && cs == esz) {
        for (int64_t j = 0; j < m; j++)
            t[j] += ((ELEM(0, esz) + ELEM(1, esz)) + (ELEM(2, esz) + ELEM(3, esz))) +
                    ((ELEM(4, esz) + ELEM(5, esz)) + (ELEM(6, esz) + ELEM(7, esz)));
    } else if (nr == 8) {
        for (int64_t j = 0; j < m; j++)
            t[j] += ((ELEM(0, cs) + ELEM(1, cs)) + (ELEM(2, cs) + ELEM(3, cs))) +
                    ((ELEM(4, cs) + ELEM(5, cs)) + (ELEM(6, cs) + ELEM(7, cs)));
    } else {
        for (int k = 0; k < nr; k++)
            for (int64_t j = 0; j < m; j++)
                t[j] += xform(ld(r[k] + j * cs), xf, p);
    }
#undef ELEM
}
RT__CPU_INLINE void sum_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                               const rt__cpu_rows *rows, double p, double (*ld)(const char *),
                               int64_t esz, int xf, void *work)
{
    const int64_t blk = esz == 8 ? RT__CPU_BLOCK : RT__CPU_BLOCK_NARROW;
    double *s = (double *)work, *c = s + RT__CPU_TILE, *t = c + RT__CPU_TILE;
    for (int64_t j = 0; j < m; j++)
        s[j] = c[j] = 0.0;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t left = rows->end - rows->begin; left > 0;) {
        int64_t b = left < blk ? left : blk;
        for (int64_t j = 0; j < m; j++)
            t[j] = 0.0;
        for (int64_t k = 0; k < b;) {
            const char *r[8];
            int nr = 0;
            for (; nr < 8 && k < b; nr++, k++) {
                r[nr] = x + cur.off;
                rt__cpu_cursor_next(rows, &cur);
            }
            sum_rows(t, m, r, nr, cs, p, ld, esz, xf);
        }
        for (int64_t j = 0; j < m; j++)
            fold(&s[j], &c[j], t[j]);
        left -= b;
    }
    for (int64_t j = 0; j < m; j++) {
        a[j].sum.s = s[j];
        a[j].sum.c = c[j];
    }
}

RT__CPU_INLINE void prod_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,
                               double (*ld)(const char *))
{
    double q = a->prod;
    for (int64_t i = 0; i < n; i++)
        q *= ld(x + i * st);
    a->prod = q;
}

RT__CPU_INLINE void prod_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                                const rt__cpu_rows *rows, double (*ld)(const char *), void *work)
{
    double *q = (double *)work;
    for (int64_t j = 0; j < m; j++)
        q[j] = 1.0;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++)
            q[j] *= ld(row + j * cs);
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++)
        a[j].prod = q[j];
}

static void sum_init(rt__cpu_acc *a)
{
    a->sum.s = 0.0;
    a->sum.c = 0.0;
}

static void sum_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    fold(&a->sum.s, &a->sum.c, b->sum.s);
    a->sum.c += b->sum.c;
}

static void prod_init(rt__cpu_acc *a)
{
    a->prod = 1.0;
}

static void prod_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    a->prod *= b->prod;
}

static void float_result(rt__cpu_result *r, double f)
{
    r->kind = RT__CPU_RES_FLOAT;
    r->f = f;
    r->u = 0;
    r->index = 0;
}

static void fin_sum(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    float_result(r, total(a));
}

static void fin_mean(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    /* sum * (1/N), the semantics table's definition; 0 * inf = NaN for N = 0. */
    float_result(r, prm->count > 0 ? total(a) * (1.0 / (double)prm->count) : NAN);
}

static void fin_sqrt(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    float_result(r, sqrt(total(a)));
}

static void fin_root(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    /* p < 0: an empty sum (0) gives 0^(1/p) = +inf, as the table asks. */
    float_result(r, pow(total(a), 1.0 / prm->p));
}

static void fin_prod(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    float_result(r, a->prod);
}

/* Stamps the run/tile wrappers of one transform for one dtype. */
#define SUM_STAMP(E, sfx, sz, XF, name)                                                            \
    static void run_##name##_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,           \
                                   int64_t idx0, const rt__cpu_params *prm)                        \
    {                                                                                              \
        (void)idx0;                                                                                \
        sum_run_g(a, x, n, st, prm->p, rt__cpu_ld_##sfx, sz, XF);                                  \
    }                                                                                              \
    static void tile_##name##_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,          \
                                    const rt__cpu_rows *rows, const rt__cpu_params *prm,           \
                                    void *work)                                                    \
    {                                                                                              \
        sum_tile_g(a, m, x, cs, rows, prm->p, rt__cpu_ld_##sfx, sz, XF, work);                     \
    }

/* The kernel variants of one dtype, in the order of the enum below. */
enum { V_SUM, V_MEAN, V_NORM0, V_NORM1, V_NORM2, V_NORMP, V_PROD, V_COUNT };

#define DTYPE_STAMP(E, sfx, sz)                                                                    \
    SUM_STAMP(E, sfx, sz, XF_ID, id)                                                               \
    SUM_STAMP(E, sfx, sz, XF_ABS, abs)                                                             \
    SUM_STAMP(E, sfx, sz, XF_SQ, sq)                                                               \
    SUM_STAMP(E, sfx, sz, XF_NZ, nz)                                                               \
    SUM_STAMP(E, sfx, sz, XF_POW, pow)                                                             \
    static void run_prod_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t idx0, \
                               const rt__cpu_params *prm)                                          \
    {                                                                                              \
        (void)idx0;                                                                                \
        (void)prm;                                                                                 \
        prod_run_g(a, x, n, st, rt__cpu_ld_##sfx);                                                 \
    }                                                                                              \
    static void tile_prod_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,              \
                                const rt__cpu_rows *rows, const rt__cpu_params *prm, void *work)   \
    {                                                                                              \
        (void)prm;                                                                                 \
        prod_tile_g(a, m, x, cs, rows, rt__cpu_ld_##sfx, work);                                    \
    }                                                                                              \
    static const rt__cpu_kernel kernels_##sfx[V_COUNT] = {                                         \
        {sum_init, run_id_##sfx, tile_id_##sfx, sum_merge, fin_sum},                               \
        {sum_init, run_id_##sfx, tile_id_##sfx, sum_merge, fin_mean},                              \
        {sum_init, run_nz_##sfx, tile_nz_##sfx, sum_merge, fin_sum},                               \
        {sum_init, run_abs_##sfx, tile_abs_##sfx, sum_merge, fin_sum},                             \
        {sum_init, run_sq_##sfx, tile_sq_##sfx, sum_merge, fin_sqrt},                              \
        {sum_init, run_pow_##sfx, tile_pow_##sfx, sum_merge, fin_root},                            \
        {prod_init, run_prod_##sfx, tile_prod_##sfx, prod_merge, fin_prod},                        \
    };

RT__CPU_FLOAT_DTYPES(DTYPE_STAMP)

static int variant(rt_op op, double p)
{
    switch (op) {
    case RT_OP_SUM:
        return V_SUM;
    case RT_OP_MEAN:
        return V_MEAN;
    case RT_OP_PROD:
        return V_PROD;
    case RT_OP_NORM:
        if (isinf(p) || isnan(p))
            return -1; /* +-inf norms are extremes (cpu_extreme.c) */
        return p == 0.0 ? V_NORM0 : p == 1.0 ? V_NORM1 : p == 2.0 ? V_NORM2 : V_NORMP;
    default:
        return -1;
    }
}

const rt__cpu_kernel *rt__cpu_sum_kernel(rt_op op, rt_dtype in, double p)
{
    int v = variant(op, p);
    if (v < 0)
        return NULL;
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
