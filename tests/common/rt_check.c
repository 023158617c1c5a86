/*
 * The checker: a finished call against the reference (rt_ref.h).
 *
 * Tolerances. A float result may differ from the exact value by
 *   acc_eps * K * scale + 1 ulp of the output dtype at the exact value,
 * where acc_eps is the accumulator's precision under the model (2^-52 for
 * binary64; 2^-23 for binary32, twice its unit roundoff), K = 32 +
 * 2 sqrt(N) covers blocked/tree orders and sequential runs of random
 * rounding errors, and scale is what the error is relative to: sum|x| for
 * sum, sum|x|/N for mean, |result| for prod (with K = 2N + 8: every
 * multiply rounds) and norms (times max(1, 1/p) for the root), and
 * sum(x^2)/(N - correction) for var. std follows from var: |sqrt a -
 * sqrt b| <= min(sqrt|a-b|, |a-b| / sqrt b).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_elem.h"
#include "rt_ref.h"

typedef struct fmt_info {
    int mant, emin;
    long double max;
} fmt_info;

static fmt_info fmt(rt_dtype d)
{
    switch (d) {
    case RT_F64:
        return (fmt_info){52, -1022, DBL_MAX};
    case RT_F16:
        return (fmt_info){10, -14, 65504.0L};
    case RT_BF16:
        return (fmt_info){7, -126, 0x1.fcp127L};
    default:
        return (fmt_info){23, -126, FLT_MAX};
    }
}

/* One ulp of dtype d at magnitude |x| (the subnormal spacing below). */
static long double ulp(rt_dtype d, long double x)
{
    fmt_info f = fmt(d);
    int e = f.emin;
    if (x != 0 && isfinite(x)) {
        frexpl(fabsl(x), &e);
        e -= 1;
        if (e < f.emin)
            e = f.emin;
    }
    return ldexpl(1.0L, e - f.mant);
}

static long double tolerance(const rt_case *c, const rt_ref *r, int64_t o, rt_acc_model m)
{
    long double eps = m == RT_ACC_GPU && c->in.dtype != RT_F64 ? 0x1p-23L : 0x1p-52L;
    long double n = (long double)r->n, k = 32 + 2 * sqrtl(n), v = r->value[o];
    long double out_ulp = ulp(c->out.dtype, v);
    switch (c->op) {
    case RT_OP_PROD:
        return eps * (2 * n + 8) * r->scale[o] + out_ulp;
    case RT_OP_NORM: {
        long double root = c->p != 0 && fabs(c->p) < 1 ? 1 / fabsl((long double)c->p) : 1;
        return eps * (k * root + 8) * r->scale[o] + out_ulp;
    }
    case RT_OP_STD: {
        long double tv = eps * k * r->scale[o], a = sqrtl(tv), b = v > 0 ? tv / v : a;
        return (a < b ? a : b) + out_ulp;
    }
    default:
        return eps * k * r->scale[o] + out_ulp;
    }
}

/* Float comparison under tolerance; NaN and infinities exact. */
static bool float_ok(long double want, long double got, long double tol, rt_dtype od)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want))
        return got == want;
    if (isinf(got)) /* only when the exact value is about to overflow the output */
        return (got > 0) == (want > 0) &&
               fabsl(want) + tol >= fmt(od).max + ulp(od, fmt(od).max) / 2;
    return fabsl(got - want) <= tol;
}

static bool is_poison(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != RT_CASE_POISON)
            return false;
    return true;
}

static void position(const rt_tensor *t, int64_t lin, char *buf, size_t size)
{
    int n = snprintf(buf, size, "(");
    int64_t idx[RT_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = lin % t->shape[d];
        lin /= t->shape[d];
    }
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, "%s%lld", d ? "," : "",
                      (long long)idx[d]);
    snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, ")");
}

static bool fail(const rt_case *c, char *msg, size_t size, const char *what)
{
    char desc[1024];
    rt_case_describe(c, desc, sizeof desc);
    snprintf(msg, size, "%s\n  case: %s", what, desc);
    return false;
}

/* Bytes of block b outside t's elements must be poison (all of them when
   t was not to be written). */
static bool gaps_ok(const rt_case *c, const rt_tensor *t, const rt_case_buf *b, bool written,
                    const char *name, char *msg, size_t size)
{
    if (!b->base)
        return true;
    unsigned char *mark = calloc(b->bytes, 1);
    if (!mark)
        return fail(c, msg, size, "checker: out of memory");
    size_t es = rt_elem_size(t->dtype);
    int64_t count = written ? rt_case_numel(t) : 0;
    for (int64_t o = 0; o < count; o++)
        memset(mark + (int64_t)b->elem0 + rt_case_offset(t, o), 1, es);
    size_t bad = b->bytes;
    for (size_t i = 0; i < b->bytes && bad == b->bytes; i++)
        if (!mark[i] && b->base[i] != RT_CASE_POISON)
            bad = i;
    free(mark);
    if (bad == b->bytes)
        return true;
    char what[160];
    snprintf(what, sizeof what, "%s block byte %zu (element 0 at byte %zu) was written: %s", name,
             bad, b->elem0, written ? "outside the output's elements" : "by a failing call");
    return fail(c, msg, size, what);
}

static bool check_element(const rt_case *c, const rt_ref *r, int64_t o, rt_acc_model m, char *msg,
                          size_t size)
{
    const unsigned char *p = (const unsigned char *)c->out.data + rt_case_offset(&c->out, o);
    rt_dtype od = c->out.dtype;
    bool fl_in = rt_elem_is_float(c->in.dtype);
    rt_op op = c->op;
    bool float_valued =
        fl_in && op != RT_OP_ARGMIN && op != RT_OP_ARGMAX && op != RT_OP_ANY && op != RT_OP_ALL;
    bool ok;
    char want_s[64], got_s[64], where[96], what[512];
    long double tol = 0;
    if (float_valued) {
        long double want = r->value[o], got = rt_elem_get_f(p, od);
        bool exact = op == RT_OP_MIN || op == RT_OP_MAX;
        tol = exact ? 0 : tolerance(c, r, o, m);
        ok = float_ok(want, got, tol, od); /* tol 0: equal, with -0.0 == +0.0 */
        snprintf(want_s, sizeof want_s, "%.21Lg", want);
        snprintf(got_s, sizeof got_s, "%.21Lg", got);
    } else {
        unsigned char wb[8];
        int64_t v;
        memcpy(&v, &r->ivalue[o], sizeof v);
        rt_elem_put_i(wb, od, v);
        uint64_t want = rt_elem_bits(wb, od), got = rt_elem_bits(p, od);
        ok = want == got;
        snprintf(want_s, sizeof want_s, "%lld (bits 0x%llx)", (long long)rt_elem_get_i(wb, od),
                 (unsigned long long)want);
        snprintf(got_s, sizeof got_s, "%lld (bits 0x%llx)", (long long)rt_elem_get_i(p, od),
                 (unsigned long long)got);
    }
    position(&c->out, o, where, sizeof where);
    if (!ok) {
        snprintf(what, sizeof what, "output[%lld] %s: expected %s, got %s (tolerance %.3Lg)%s",
                 (long long)o, where, want_s, got_s, tol,
                 is_poison(p, rt_elem_size(od)) ? " -- element NOT WRITTEN (still poison)" : "");
        return fail(c, msg, size, what);
    }
    if (c->has_idx) {
        const unsigned char *q = (const unsigned char *)c->idx.data + rt_case_offset(&c->idx, o);
        int64_t gi = rt_elem_get_i(q, RT_I64);
        if (gi != r->index[o]) {
            snprintf(what, sizeof what, "indices[%lld] %s: expected %lld, got %lld%s", (long long)o,
                     where, (long long)r->index[o], (long long)gi,
                     is_poison(q, 8) ? " -- element NOT WRITTEN (still poison)" : "");
            return fail(c, msg, size, what);
        }
    }
    return true;
}

bool rt_ref_check(const rt_case *c, const rt_ref *r, rt_status got, rt_acc_model model, char *msg,
                  size_t size)
{
    if (size)
        msg[0] = '\0';
    if (got != r->status) {
        char what[160];
        snprintf(what, sizeof what, "status: expected %s, got %s", rt_status_name(r->status),
                 rt_status_name(got));
        return fail(c, msg, size, what);
    }
    bool written = got == RT_OK;
    if (!gaps_ok(c, &c->out, &c->out_buf, written, "out", msg, size) ||
        !gaps_ok(c, &c->idx, &c->idx_buf, written, "indices", msg, size))
        return false;
    for (int64_t o = 0; written && o < r->count; o++)
        if (!check_element(c, r, o, model, msg, size))
            return false;
    return true;
}
