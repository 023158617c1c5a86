/*
 * Input data for random cases: every element slot of the input's storage
 * block gets a fresh random value, drawn from a style picked per case so
 * that each op meets the data that can break it: ties and signed zeros for
 * the extremes, NaN and infinities for floats, values near 1 for products,
 * an offset mean for var/std, zero-heavy data for any/all, full-range
 * integers for wrapping sums.
 */
#include <math.h>
#include <string.h>

#include "rt_cases.h"
#include "rt_elem.h"

typedef struct style {
    double p_zero; /* an exact zero (either sign for floats) */
    double p_nan, p_inf;
    bool ties;     /* values from a small set */
    bool near_one; /* |x| close to 1 (products) */
    bool wide;     /* integers over their whole range */
    double center, spread;
} style;

void rt__case_fill_input(rt_case *c, rt_rng *g, const rt_case_opts *o);

static style pick_style(const rt_case *c, rt_rng *g, const rt_case_opts *o)
{
    static const double zeros[] = {0.0, 0.0, 0.02, 0.3, 0.9};
    style s;
    memset(&s, 0, sizeof s);
    rt_op op = c->op;
    bool extreme = op == RT_OP_MIN || op == RT_OP_MAX || op == RT_OP_ARGMIN || op == RT_OP_ARGMAX;
    s.p_zero = zeros[rt_rng_range(g, 0, 4)];
    s.ties = rt_rng_chance(g, extreme ? 0.5 : 0.15);
    s.near_one = op == RT_OP_PROD;
    s.wide = (op == RT_OP_SUM || op == RT_OP_PROD) && rt_rng_chance(g, 0.3);
    s.spread = 4.0;
    if (op == RT_OP_VAR || op == RT_OP_STD) {
        static const double centers[] = {0.0, 3.0, 100.0, -1000.0};
        s.center = centers[rt_rng_range(g, 0, 3)];
        s.spread = rt_rng_chance(g, 0.5) ? 1.0 : 8.0;
    }
    if (rt_elem_is_float(c->in.dtype) && rt_rng_chance(g, o->p_special)) {
        int64_t k = rt_rng_range(g, 0, 2); /* NaN only, inf only, or both */
        s.p_nan = k != 1 ? 0.03 : 0.0;
        s.p_inf = k != 0 ? 0.03 : 0.0;
    }
    return s;
}

static double float_value(const style *s, rt_rng *g)
{
    double u = rt_rng_unit(g);
    double sign = rt_rng_chance(g, 0.5) ? -1.0 : 1.0;
    if (u < s->p_nan)
        return sign * NAN;
    if (u < s->p_nan + s->p_inf)
        return sign * INFINITY;
    if (rt_rng_chance(g, s->p_zero))
        return sign * 0.0;
    if (s->ties)
        return 0.5 * (double)rt_rng_range(g, -4, 4);
    if (s->near_one)
        return (rt_rng_chance(g, 0.25) ? -1.0 : 1.0) * exp(0.2 * rt_rng_unit(g) - 0.1);
    return s->center + s->spread * (2.0 * rt_rng_unit(g) - 1.0);
}

static int64_t int_value(const style *s, rt_rng *g, rt_dtype d)
{
    if (d == RT_BOOL)
        return !rt_rng_chance(g, s->p_zero > 0.0 ? s->p_zero : 0.3);
    if (rt_rng_chance(g, s->p_zero))
        return 0;
    bool u8 = d == RT_U8;
    if (s->ties || s->near_one)
        return u8 ? rt_rng_range(g, 0, 6) : rt_rng_range(g, -3, 3);
    if (s->wide) {
        uint64_t r = rt_rng_next(g);
        int64_t v;
        memcpy(&v, &r, sizeof v);
        /* rt_elem_put_i keeps the low bits: full range of every width. */
        return v;
    }
    return u8 ? rt_rng_range(g, 0, 200) : rt_rng_range(g, -100, 100);
}

void rt__case_fill_input(rt_case *c, rt_rng *g, const rt_case_opts *o)
{
    style s = pick_style(c, g, o);
    rt_dtype d = c->in.dtype;
    size_t es = rt_elem_size(d), n = c->in_buf.bytes / es;
    unsigned char *base = c->in_buf.base;
    bool nonzero = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = base + i * es;
        if (rt_elem_is_float(d))
            rt_elem_put_f(p, d, float_value(&s, g));
        else
            rt_elem_put_i(p, d, int_value(&s, g, d));
        nonzero = nonzero || rt_elem_get_f(p, d) != 0.0L;
    }
    /* Never all zeros: a zero-filled input hides most indexing bugs. */
    if (!nonzero && n > 0)
        rt_elem_put_i(base + c->in_buf.elem0, d, 1);
}
