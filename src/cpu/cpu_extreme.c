/*
 * Extremes on the CPU: min, max, argmin, argmax for every dtype, and the
 * +-inf norms (max|x|, min|x|) for the float ones.
 *
 * Semantics (DESIGN.md section 3 and the project brief): NaN beats every
 * number and, among equal values or among NaNs, the lowest index wins,
 * whatever the traversal order. Within a state elements arrive in
 * increasing index order (the executor's contract), so a strict comparison
 * keeps the first of equals and the first NaN ends the scan; merges of
 * partial states compare indices explicitly. 16-bit floats compare as
 * their exact binary64 widening, which orders them as binary32 would.
 */
#include <stdbool.h>

#include "cpu_kernel.h"

RT__CPU_INLINE bool fbetter(double y, double v, int is_max)
{
    return is_max ? y > v : y < v;
}

RT__CPU_INLINE void fbest_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t idx0,
                                double (*ld)(const char *), int is_max)
{
    if (n <= 0)
        return;
    double v = a->fbest.v;
    int64_t bi = a->fbest.i, k = 0;
    if (bi < 0) {
        v = ld(x);
        bi = idx0;
        k = 1;
    }
    if (v == v) { /* a NaN already held came earlier, so it keeps winning */
        for (; k < n; k++) {
            double y = ld(x + k * st);
            if (fbetter(y, v, is_max)) {
                v = y;
                bi = idx0 + k;
            } else if (y != y) {
                v = y;
                bi = idx0 + k;
                break;
            }
        }
    }
    a->fbest.v = v;
    a->fbest.i = bi;
}

RT__CPU_INLINE void fbest_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                                 const rt__cpu_rows *rows, double (*ld)(const char *), int is_max,
                                 void *work)
{
    double *v = (double *)work;
    int64_t *bi = (int64_t *)work + RT__CPU_TILE;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    int64_t k = rows->begin;
    if (k < rows->end) {
        for (int64_t j = 0; j < m; j++) {
            v[j] = ld(x + cur.off + j * cs);
            bi[j] = k;
        }
        rt__cpu_cursor_next(rows, &cur);
        k++;
    } else {
        for (int64_t j = 0; j < m; j++) {
            v[j] = 0.0;
            bi[j] = -1;
        }
    }
    for (; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++) {
            double y = ld(row + j * cs);
            if (fbetter(y, v[j], is_max) || (y != y && v[j] == v[j])) {
                v[j] = y;
                bi[j] = k;
            }
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++) {
        a[j].fbest.v = v[j];
        a[j].fbest.i = bi[j];
    }
}

RT__CPU_INLINE void fbest_merge_g(rt__cpu_acc *a, const rt__cpu_acc *b, int is_max)
{
    if (b->fbest.i < 0)
        return;
    if (a->fbest.i < 0) {
        *a = *b;
        return;
    }
    double av = a->fbest.v, bv = b->fbest.v;
    bool an = av != av, bn = bv != bv, take;
    if (an || bn)
        take = bn && (!an || b->fbest.i < a->fbest.i);
    else
        take = fbetter(bv, av, is_max) || (bv == av && b->fbest.i < a->fbest.i);
    if (take)
        *a = *b;
}

RT__CPU_INLINE void ibest_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t idx0,
                                int64_t (*ld)(const char *), int is_max)
{
    if (n <= 0)
        return;
    int64_t v = a->ibest.v, bi = a->ibest.i, k = 0;
    if (bi < 0) {
        v = ld(x);
        bi = idx0;
        k = 1;
    }
    for (; k < n; k++) {
        int64_t y = ld(x + k * st);
        if (is_max ? y > v : y < v) {
            v = y;
            bi = idx0 + k;
        }
    }
    a->ibest.v = v;
    a->ibest.i = bi;
}

RT__CPU_INLINE void ibest_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                                 const rt__cpu_rows *rows, int64_t (*ld)(const char *), int is_max,
                                 void *work)
{
    int64_t *v = (int64_t *)work, *bi = v + RT__CPU_TILE;
    for (int64_t j = 0; j < m; j++) {
        v[j] = 0;
        bi[j] = -1;
    }
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++) {
            int64_t y = ld(row + j * cs);
            if (bi[j] < 0 || (is_max ? y > v[j] : y < v[j])) {
                v[j] = y;
                bi[j] = k;
            }
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++) {
        a[j].ibest.v = v[j];
        a[j].ibest.i = bi[j];
    }
}

RT__CPU_INLINE void ibest_merge_g(rt__cpu_acc *a, const rt__cpu_acc *b, int is_max)
{
    if (b->ibest.i < 0)
        return;
    int64_t av = a->ibest.v, bv = b->ibest.v;
    if (a->ibest.i < 0 || (is_max ? bv > av : bv < av) || (bv == av && b->ibest.i < a->ibest.i))
        *a = *b;
}

/* +-inf norms: max|x| (identity 0) or min|x| (identity +inf); NaN sticks. */
RT__CPU_INLINE void ext_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t idx0,
                              double (*ld)(const char *), int is_max)
{
    (void)idx0; /* the value alone is the result */
    double v = a->ext;
    for (int64_t k = 0; k < n; k++) {
        double y = fabs(ld(x + k * st));
        if (fbetter(y, v, is_max) || y != y)
            v = y;
    }
    a->ext = v;
}

RT__CPU_INLINE void ext_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                               const rt__cpu_rows *rows, double (*ld)(const char *), int is_max,
                               void *work)
{
    double *v = (double *)work;
    for (int64_t j = 0; j < m; j++)
        v[j] = is_max ? 0.0 : INFINITY;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++) {
            double y = fabs(ld(row + j * cs));
            if (fbetter(y, v[j], is_max) || y != y)
                v[j] = y;
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++)
        a[j].ext = v[j];
}

static void best_init(rt__cpu_acc *a)
{
    a->ibest.v = 0; /* also clears fbest.v: both are 8 bytes at offset 0 */
    a->ibest.i = -1;
}

static void ext_init_max(rt__cpu_acc *a)
{
    a->ext = 0.0;
}

static void ext_init_min(rt__cpu_acc *a)
{
    a->ext = INFINITY;
}

static void ext_merge_max(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    if (fbetter(b->ext, a->ext, 1) || b->ext != b->ext)
        a->ext = b->ext;
}

static void ext_merge_min(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    if (fbetter(b->ext, a->ext, 0) || b->ext != b->ext)
        a->ext = b->ext;
}

static void fmerge_min(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    fbest_merge_g(a, b, 0);
}
static void fmerge_max(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    fbest_merge_g(a, b, 1);
}
static void imerge_min(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    ibest_merge_g(a, b, 0);
}
static void imerge_max(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    ibest_merge_g(a, b, 1);
}

/* min/max give the value (and its index for an indices output);
   argmin/argmax give the index as the int64 value. */
static void fin_fvalue(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    r->kind = RT__CPU_RES_FLOAT;
    r->f = a->fbest.v;
    r->u = 0;
    r->index = a->fbest.i;
}

static void fin_ivalue(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    r->kind = RT__CPU_RES_INT;
    r->f = 0.0;
    r->u = (uint64_t)a->ibest.v;
    r->index = a->ibest.i;
}

static void fin_index(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    /* fbest.i and ibest.i share their offset, so one finisher serves both. */
    r->kind = RT__CPU_RES_INT;
    r->f = 0.0;
    r->u = (uint64_t)a->fbest.i;
    r->index = a->fbest.i;
}

static void fin_ext(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    r->kind = RT__CPU_RES_FLOAT;
    r->f = a->ext;
    r->u = 0;
    r->index = 0;
}

enum { V_MIN, V_MAX, V_ARGMIN, V_ARGMAX, V_NORM_NINF, V_NORM_PINF, V_COUNT };

/* Stamps run/tile wrappers of generic `fam` for one dtype and direction. */
#define WRAP(fam, sfx, dir, is_max)                                                                \
    static void run_##fam##_##dir##_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,    \
                                          int64_t idx0, const rt__cpu_params *prm)                 \
    {                                                                                              \
        (void)prm;                                                                                 \
        fam##_run_g(a, x, n, st, idx0, rt__cpu_ld_##sfx, is_max);                                  \
    }                                                                                              \
    static void tile_##fam##_##dir##_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,   \
                                           const rt__cpu_rows *rows, const rt__cpu_params *prm,    \
                                           void *work)                                             \
    {                                                                                              \
        (void)prm;                                                                                 \
        fam##_tile_g(a, m, x, cs, rows, rt__cpu_ld_##sfx, is_max, work);                           \
    }

#define FLOAT_STAMP(E, sfx, sz)                                                                    \
    WRAP(fbest, sfx, min, 0)                                                                       \
    WRAP(fbest, sfx, max, 1)                                                                       \
    WRAP(ext, sfx, min, 0)                                                                         \
    WRAP(ext, sfx, max, 1)                                                                         \
    static const rt__cpu_kernel kernels_##sfx[V_COUNT] = {                                         \
        {best_init, run_fbest_min_##sfx, tile_fbest_min_##sfx, fmerge_min, fin_fvalue},            \
        {best_init, run_fbest_max_##sfx, tile_fbest_max_##sfx, fmerge_max, fin_fvalue},            \
        {best_init, run_fbest_min_##sfx, tile_fbest_min_##sfx, fmerge_min, fin_index},             \
        {best_init, run_fbest_max_##sfx, tile_fbest_max_##sfx, fmerge_max, fin_index},             \
        {ext_init_min, run_ext_min_##sfx, tile_ext_min_##sfx, ext_merge_min, fin_ext},             \
        {ext_init_max, run_ext_max_##sfx, tile_ext_max_##sfx, ext_merge_max, fin_ext},             \
    };

#define INT_STAMP(E, sfx, sz)                                                                      \
    WRAP(ibest, sfx, min, 0)                                                                       \
    WRAP(ibest, sfx, max, 1)                                                                       \
    static const rt__cpu_kernel kernels_##sfx[V_COUNT] = {                                         \
        {best_init, run_ibest_min_##sfx, tile_ibest_min_##sfx, imerge_min, fin_ivalue},            \
        {best_init, run_ibest_max_##sfx, tile_ibest_max_##sfx, imerge_max, fin_ivalue},            \
        {best_init, run_ibest_min_##sfx, tile_ibest_min_##sfx, imerge_min, fin_index},             \
        {best_init, run_ibest_max_##sfx, tile_ibest_max_##sfx, imerge_max, fin_index},             \
        {NULL, NULL, NULL, NULL, NULL},                                                            \
        {NULL, NULL, NULL, NULL, NULL},                                                            \
    };

RT__CPU_FLOAT_DTYPES(FLOAT_STAMP)
RT__CPU_INT_DTYPES(INT_STAMP)

static int variant(rt_op op, double p)
{
    switch (op) {
    case RT_OP_MIN:
        return V_MIN;
    case RT_OP_MAX:
        return V_MAX;
    case RT_OP_ARGMIN:
        return V_ARGMIN;
    case RT_OP_ARGMAX:
        return V_ARGMAX;
    case RT_OP_NORM:
        return p == INFINITY ? V_NORM_PINF : p == -INFINITY ? V_NORM_NINF : -1;
    default:
        return -1;
    }
}

const rt__cpu_kernel *rt__cpu_extreme_kernel(rt_op op, rt_dtype in, double p)
{
    int v = variant(op, p);
    const rt__cpu_kernel *k = NULL;
    if (v < 0)
        return NULL;
    switch (in) {
#define CASE(E, sfx, sz)                                                                           \
    case E:                                                                                        \
        k = &kernels_##sfx[v];                                                                     \
        break;
        RT__CPU_FLOAT_DTYPES(CASE)
        RT__CPU_INT_DTYPES(CASE)
#undef CASE
    default:
        return NULL;
    }
    return k->run ? k : NULL;
}
