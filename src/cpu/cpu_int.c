/*
 * Integer and bool sums and products on the CPU (int64 accumulation that
 * wraps in two's complement: unsigned arithmetic, so no signed-overflow UB),
 * and any/all for every dtype.
 *
 * any/all test x != 0 without converting: a float is nonzero exactly when
 * a bit other than its sign is set, so NaN counts as nonzero and -0.0 as
 * zero, as the semantics table asks.
 */
#include "cpu_kernel.h"

static inline int nz_f32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0x7fffffffu) != 0;
}
static inline int nz_f64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0x7fffffffffffffffull) != 0;
}
static inline int nz_f16(const char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0x7fffu) != 0;
}
#define nz_bf16 nz_f16 /* same sign-bit position */
#define NZ_INT(sfx)                                                                                \
    static inline int nz_##sfx(const char *p)                                                      \
    {                                                                                              \
        return rt__cpu_ld_##sfx(p) != 0;                                                           \
    }
NZ_INT(i8)
NZ_INT(u8)
NZ_INT(i16)
NZ_INT(i32)
NZ_INT(i64)
NZ_INT(b8)

RT__CPU_INLINE void isum_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,
                               int64_t (*ld)(const char *), int is_prod)
{
    uint64_t u = a->u;
    for (int64_t i = 0; i < n; i++) {
        uint64_t y = (uint64_t)ld(x + i * st);
        u = is_prod ? u * y : u + y;
    }
    a->u = u;
}

RT__CPU_INLINE void isum_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                                const rt__cpu_rows *rows, int64_t (*ld)(const char *), int is_prod,
                                void *work)
{
    uint64_t *u = (uint64_t *)work;
    for (int64_t j = 0; j < m; j++)
        u[j] = is_prod ? 1u : 0u;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++) {
            uint64_t y = (uint64_t)ld(row + j * cs);
            u[j] = is_prod ? u[j] * y : u[j] + y;
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++)
        a[j].u = u[j];
}

/* any (is_all 0): stops at the first nonzero; all: at the first zero. */
RT__CPU_INLINE void anyall_run_g(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,
                                 int (*nz)(const char *), int is_all)
{
    if (a->b != is_all)
        return; /* already decided */
    for (int64_t i = 0; i < n; i++) {
        if (nz(x + i * st) != is_all) {
            a->b = (unsigned char)!is_all;
            return;
        }
    }
}

RT__CPU_INLINE void anyall_tile_g(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,
                                  const rt__cpu_rows *rows, int (*nz)(const char *), int is_all,
                                  void *work)
{
    unsigned char *b = (unsigned char *)work;
    for (int64_t j = 0; j < m; j++)
        b[j] = (unsigned char)is_all;
    rt__cpu_cursor cur;
    rt__cpu_cursor_seek(rows, rows->begin, &cur);
    for (int64_t k = rows->begin; k < rows->end; k++) {
        const char *row = x + cur.off;
        for (int64_t j = 0; j < m; j++) {
            unsigned char y = (unsigned char)nz(row + j * cs);
            b[j] = is_all ? (unsigned char)(b[j] & y) : (unsigned char)(b[j] | y);
        }
        rt__cpu_cursor_next(rows, &cur);
    }
    for (int64_t j = 0; j < m; j++)
        a[j].b = b[j];
}

static void isum_init(rt__cpu_acc *a)
{
    a->u = 0;
}
static void iprod_init(rt__cpu_acc *a)
{
    a->u = 1;
}
static void isum_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    a->u += b->u;
}
static void iprod_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    a->u *= b->u;
}
static void any_init(rt__cpu_acc *a)
{
    a->b = 0;
}
static void all_init(rt__cpu_acc *a)
{
    a->b = 1;
}
static void any_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    a->b = (unsigned char)(a->b | b->b);
}
static void all_merge(rt__cpu_acc *a, const rt__cpu_acc *b)
{
    a->b = (unsigned char)(a->b & b->b);
}

static void fin_int(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    r->kind = RT__CPU_RES_INT;
    r->f = 0.0;
    r->u = a->u;
    r->index = 0;
}

static void fin_bool(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r)
{
    (void)prm;
    r->kind = RT__CPU_RES_BOOL;
    r->f = 0.0;
    r->u = a->b;
    r->index = 0;
}

enum { V_SUM, V_PROD, V_ANY, V_ALL, V_COUNT };

#define ANYALL_STAMP(sfx)                                                                          \
    static void run_any_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t i0,    \
                              const rt__cpu_params *prm)                                           \
    {                                                                                              \
        (void)i0;                                                                                  \
        (void)prm;                                                                                 \
        anyall_run_g(a, x, n, st, nz_##sfx, 0);                                                    \
    }                                                                                              \
    static void run_all_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st, int64_t i0,    \
                              const rt__cpu_params *prm)                                           \
    {                                                                                              \
        (void)i0;                                                                                  \
        (void)prm;                                                                                 \
        anyall_run_g(a, x, n, st, nz_##sfx, 1);                                                    \
    }                                                                                              \
    static void tile_any_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,               \
                               const rt__cpu_rows *rows, const rt__cpu_params *prm, void *work)    \
    {                                                                                              \
        (void)prm;                                                                                 \
        anyall_tile_g(a, m, x, cs, rows, nz_##sfx, 0, work);                                       \
    }                                                                                              \
    static void tile_all_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,               \
                               const rt__cpu_rows *rows, const rt__cpu_params *prm, void *work)    \
    {                                                                                              \
        (void)prm;                                                                                 \
        anyall_tile_g(a, m, x, cs, rows, nz_##sfx, 1, work);                                       \
    }

#define ISUM_STAMP(sfx, name, is_prod)                                                             \
    static void run_##name##_##sfx(rt__cpu_acc *a, const char *x, int64_t n, int64_t st,           \
                                   int64_t i0, const rt__cpu_params *prm)                          \
    {                                                                                              \
        (void)i0;                                                                                  \
        (void)prm;                                                                                 \
        isum_run_g(a, x, n, st, rt__cpu_ld_##sfx, is_prod);                                        \
    }                                                                                              \
    static void tile_##name##_##sfx(rt__cpu_acc *a, int64_t m, const char *x, int64_t cs,          \
                                    const rt__cpu_rows *rows, const rt__cpu_params *prm,           \
                                    void *work)                                                    \
    {                                                                                              \
        (void)prm;                                                                                 \
        isum_tile_g(a, m, x, cs, rows, rt__cpu_ld_##sfx, is_prod, work);                           \
    }

#define ANYALL_ROWS(sfx)                                                                           \
    {any_init, run_any_##sfx, tile_any_##sfx, any_merge, fin_bool},                                \
    {                                                                                              \
        all_init, run_all_##sfx, tile_all_##sfx, all_merge, fin_bool                               \
    }

#define INT_STAMP(E, sfx, sz)                                                                      \
    ANYALL_STAMP(sfx)                                                                              \
    ISUM_STAMP(sfx, sum, 0)                                                                        \
    ISUM_STAMP(sfx, prod, 1)                                                                       \
    static const rt__cpu_kernel kernels_##sfx[V_COUNT] = {                                         \
        {isum_init, run_sum_##sfx, tile_sum_##sfx, isum_merge, fin_int},                           \
        {iprod_init, run_prod_##sfx, tile_prod_##sfx, iprod_merge, fin_int},                       \
        ANYALL_ROWS(sfx),                                                                          \
    };

#define FLOAT_STAMP(E, sfx, sz)                                                                    \
    ANYALL_STAMP(sfx)                                                                              \
    static const rt__cpu_kernel kernels_##sfx[V_COUNT] = {                                         \
        {NULL, NULL, NULL, NULL, NULL},                                                            \
        {NULL, NULL, NULL, NULL, NULL},                                                            \
        ANYALL_ROWS(sfx),                                                                          \
    };

RT__CPU_INT_DTYPES(INT_STAMP)
RT__CPU_FLOAT_DTYPES(FLOAT_STAMP)

const rt__cpu_kernel *rt__cpu_int_kernel(rt_op op, rt_dtype in)
{
    int v = op == RT_OP_SUM    ? V_SUM
            : op == RT_OP_PROD ? V_PROD
            : op == RT_OP_ANY  ? V_ANY
            : op == RT_OP_ALL  ? V_ALL
                               : -1;
    const rt__cpu_kernel *k = NULL;
    if (v < 0)
        return NULL;
    switch (in) {
#define CASE(E, sfx, sz)                                                                           \
    case E:                                                                                        \
        k = &kernels_##sfx[v];                                                                     \
        break;
        RT__CPU_INT_DTYPES(CASE)
        RT__CPU_FLOAT_DTYPES(CASE)
#undef CASE
    default:
        return NULL;
    }
    return k->run ? k : NULL;
}
