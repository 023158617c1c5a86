/*
 * The naive reference: expected results of an rt_case computed over the
 * full multi-index, in long double / exact wrapping integers (rt_ref.h).
 */
#include "rt_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_elem.h"

/* The reduced elements of one output: input dims in order, row-major. */
typedef struct walk {
    const rt_case *c;
    const unsigned char *base; /* the output's first reduced element */
    int nr;
    int red[RT_MAX_DIMS];
    int64_t n;
} walk;

static const unsigned char *elem(const walk *w, int64_t k)
{
    int64_t off = 0;
    for (int i = w->nr - 1; i >= 0; i--) {
        int d = w->red[i];
        off += (k % w->c->in.shape[d]) * w->c->in.strides[d];
        k /= w->c->in.shape[d];
    }
    return w->base + off * (int64_t)rt_elem_size(w->c->in.dtype);
}

static long double fget(const walk *w, int64_t k)
{
    return rt_elem_get_f(elem(w, k), w->c->in.dtype);
}

static int64_t iget(const walk *w, int64_t k)
{
    return rt_elem_get_i(elem(w, k), w->c->in.dtype);
}

/* min/max/argmin/argmax: NaN first, then strict order; lowest index wins. */
static int64_t winner(const walk *w, bool is_max)
{
    bool fl = rt_elem_is_float(w->c->in.dtype);
    int64_t best = 0;
    for (int64_t k = 1; k < w->n; k++) {
        if (fl) {
            long double b = fget(w, best), v = fget(w, k);
            if (isnan(b))
                break;
            if (isnan(v) || (is_max ? v > b : v < b))
                best = k;
        } else {
            int64_t b = iget(w, best), v = iget(w, k);
            if (is_max ? v > b : v < b)
                best = k;
        }
    }
    return best;
}

/* Float-valued ops: *value, and *scale, the magnitude that accumulation
   error is proportional to (see rt_check.c). */
static void float_op(const walk *w, long double *value, long double *scale)
{
    const rt_case *c = w->c;
    int64_t n = w->n;
    long double s = 0, a = 0, q = 1, sq = 0, ext = c->p > 0 ? 0 : INFINITY;
    for (int64_t k = 0; k < n; k++) {
        long double v = fget(w, k), av = fabsl(v);
        s += v;
        a += av;
        q *= v;
        sq += v * v;
        if (isnan(av) || (c->p > 0 ? av > ext : av < ext))
            ext = isnan(ext) ? ext : av;
    }
    switch (c->op) {
    case RT_OP_SUM:
        *value = s;
        *scale = a;
        break;
    case RT_OP_MEAN:
        *value = n ? s / n : NAN;
        *scale = n ? a / n : 0;
        break;
    case RT_OP_PROD:
        *value = q;
        *scale = fabsl(q);
        break;
    case RT_OP_VAR:
    case RT_OP_STD: {
        long double mean = n ? s / n : 0, m2 = 0, dof = (long double)n - c->correction;
        for (int64_t k = 0; k < n; k++)
            m2 += (fget(w, k) - mean) * (fget(w, k) - mean);
        long double var = dof > 0 ? m2 / dof : NAN;
        *value = c->op == RT_OP_VAR ? var : sqrtl(var);
        *scale = dof > 0 ? sq / dof : 0;
        break;
    }
    default: { /* norm */
        long double r;
        if (isinf(c->p)) {
            r = ext;
        } else if (c->p == 0) {
            r = 0;
            for (int64_t k = 0; k < n; k++)
                r += fget(w, k) != 0;
        } else if (c->p == 1) {
            r = a;
        } else if (c->p == 2) {
            r = sqrtl(sq);
        } else {
            long double t = 0;
            for (int64_t k = 0; k < n; k++)
                t += powl(fabsl(fget(w, k)), c->p);
            r = powl(t, 1.0L / c->p);
        }
        *value = r;
        *scale = r;
        break;
    }
    }
}

/* Integer-valued ops (results before the output conversion). */
static uint64_t int_op(const walk *w)
{
    uint64_t u = w->c->op == RT_OP_PROD || w->c->op == RT_OP_ALL;
    for (int64_t k = 0; k < w->n; k++) {
        switch (w->c->op) {
        case RT_OP_SUM:
            u += (uint64_t)iget(w, k);
            break;
        case RT_OP_PROD:
            u *= (uint64_t)iget(w, k);
            break;
        case RT_OP_ANY:
            u |= fget(w, k) != 0; /* NaN != 0 holds; -0.0 == 0 */
            break;
        default: /* all */
            u &= fget(w, k) != 0;
            break;
        }
    }
    return u;
}

int rt_ref_compute(const rt_case *c, rt_ref *r)
{
    memset(r, 0, sizeof *r);
    uint32_t mask = rt_case_mask(c);
    walk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    int kept[RT_MAX_DIMS], nk = 0;
    bool empty_red = false, empty_kept = false;
    r->count = r->n = 1;
    for (int d = 0; d < c->in.ndim; d++) {
        if (mask >> d & 1u) {
            w.red[w.nr++] = d;
            empty_red = empty_red || c->in.shape[d] == 0;
        } else {
            kept[nk++] = d;
            empty_kept = empty_kept || c->in.shape[d] == 0;
        }
    }
    /* Products with a 0 are 0 whatever the other extents (an empty input
       may have enormous ones: their product alone could overflow). */
    for (int d = 0; d < c->in.ndim; d++) {
        if (mask >> d & 1u)
            r->n = empty_red ? 0 : r->n * c->in.shape[d];
        else
            r->count = empty_kept ? 0 : r->count * c->in.shape[d];
    }
    w.n = r->n;
    rt_op op = c->op;
    bool extreme = op == RT_OP_MIN || op == RT_OP_MAX || op == RT_OP_ARGMIN || op == RT_OP_ARGMAX;
    r->status = extreme && r->n == 0 ? RT_ERR_EMPTY_REDUCTION : RT_OK;
    if (r->status != RT_OK)
        return 0;
    size_t cnt = r->count > 0 ? (size_t)r->count : 1;
    r->value = calloc(cnt, sizeof *r->value);
    r->scale = calloc(cnt, sizeof *r->scale);
    r->ivalue = calloc(cnt, sizeof *r->ivalue);
    r->index = calloc(cnt, sizeof *r->index);
    if (!r->value || !r->scale || !r->ivalue || !r->index) {
        rt_ref_free(r);
        return -1;
    }
    bool fl = rt_elem_is_float(c->in.dtype);
    for (int64_t o = 0; o < r->count; o++) {
        /* An empty input reads nothing, and may have no data at all (NULL)
           or strides that reach past int64: no offset is formed for it. */
        int64_t off = 0, t = o;
        for (int i = nk - 1; i >= 0 && r->n > 0; i--) {
            off += (t % c->in.shape[kept[i]]) * c->in.strides[kept[i]];
            t /= c->in.shape[kept[i]];
        }
        w.base = c->in.data == NULL || r->n == 0
                     ? NULL
                     : (const unsigned char *)c->in.data + off * (int64_t)rt_elem_size(c->in.dtype);
        if (extreme) {
            int64_t k = winner(&w, op == RT_OP_MAX || op == RT_OP_ARGMAX);
            r->index[o] = k;
            r->value[o] = fget(&w, k);
            r->ivalue[o] = (op == RT_OP_ARGMIN || op == RT_OP_ARGMAX) ? (uint64_t)k
                           : fl                                       ? 0
                                                                      : (uint64_t)iget(&w, k);
        } else if (fl && op != RT_OP_ANY && op != RT_OP_ALL) {
            float_op(&w, &r->value[o], &r->scale[o]);
        } else {
            r->ivalue[o] = int_op(&w);
        }
    }
    return 0;
}

void rt_ref_free(rt_ref *r)
{
    free(r->value);
    free(r->scale);
    free(r->ivalue);
    free(r->index);
    r->value = r->scale = NULL;
    r->ivalue = NULL;
    r->index = NULL;
}
