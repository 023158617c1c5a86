/*
 * The random case generator: shapes, layouts, dims, dtypes and op
 * parameters (rt_cases.h). Input data comes from rt_case_data.c.
 */
#include "rt_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_elem.h"

/* Fills the input's storage with data suited to the case (rt_case_data.c). */
void rt__case_fill_input(rt_case *c, rt_rng *g, const rt_case_opts *o);

void rt_case_opts_init(rt_case_opts *o)
{
    o->op = -1;
    o->dtype = -1;
    o->out_dtype = -1;
    o->max_rank = 8;
    o->max_elems = 6000;
    o->big_lo = 40;
    o->big_hi = 3000;
    o->p_big = 0.35;
    o->p_empty = 0.06;
    o->p_special = 0.25;
}

bool rt_case_op_allowed(rt_op op, rt_dtype in)
{
    if ((unsigned)op >= RT_OP_COUNT || rt_elem_size(in) == 0)
        return false;
    if (op == RT_OP_MEAN || op == RT_OP_VAR || op == RT_OP_STD || op == RT_OP_NORM)
        return rt_elem_is_float(in);
    return true;
}

/* Float `out` at least as wide as float `in`, as the header's rules list. */
static bool wider_float(rt_dtype in, rt_dtype out)
{
    if (out == in)
        return true;
    if (in == RT_F16 || in == RT_BF16)
        return out == RT_F32 || out == RT_F64;
    return in == RT_F32 && out == RT_F64;
}

bool rt_case_out_dtype_allowed(rt_op op, rt_dtype in, rt_dtype out)
{
    if (!rt_case_op_allowed(op, in))
        return false;
    switch (op) {
    case RT_OP_SUM:
    case RT_OP_PROD:
        return rt_elem_is_float(in) ? wider_float(in, out) : (out == in || out == RT_I64);
    case RT_OP_MEAN:
    case RT_OP_VAR:
    case RT_OP_STD:
    case RT_OP_NORM:
        return wider_float(in, out);
    case RT_OP_MIN:
    case RT_OP_MAX:
        return out == in;
    case RT_OP_ARGMIN:
    case RT_OP_ARGMAX:
        return out == RT_I64;
    default:
        return out == RT_BOOL;
    }
}

uint32_t rt_case_mask(const rt_case *c)
{
    int nd = c->in.ndim;
    if (c->ndims == 0)
        return nd >= 32 ? 0xffffffffu : (uint32_t)((1ull << nd) - 1);
    uint32_t m = 0;
    for (int i = 0; i < c->ndims && nd > 0; i++)
        m |= 1u << (c->dims[i] < 0 ? c->dims[i] + nd : c->dims[i]);
    return m;
}

int64_t rt_case_numel(const rt_tensor *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

void rt_case_cap_elems(rt_tensor *t, int64_t max)
{
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] == 0)
            return;
    for (;;) {
        /* the count, compared with max before each multiply: extents of
           up to 2^62 would overflow the product itself */
        int64_t n = 1;
        bool over = false;
        for (int d = 0; d < t->ndim && !over; d++) {
            over = n > max / t->shape[d];
            n *= over ? 1 : t->shape[d];
        }
        if (!over && n <= max)
            return;
        int big = 0;
        for (int d = 1; d < t->ndim; d++)
            if (t->shape[d] > t->shape[big])
                big = d;
        t->shape[big] = (t->shape[big] + 1) / 2;
    }
}

int64_t rt_case_offset(const rt_tensor *t, int64_t lin)
{
    int64_t off = 0;
    for (int d = t->ndim - 1; d >= 0; d--) {
        off += (lin % t->shape[d]) * t->strides[d];
        lin /= t->shape[d];
    }
    return off * (int64_t)rt_elem_size(t->dtype);
}

/* How a tensor may be laid out in its block. */
typedef struct layout_opts {
    double p_permute;   /* memory order other than row-major */
    double p_gap;       /* per dim: a step of 2 or 3 (a sliced view) */
    double p_broadcast; /* per dim of extent > 1: stride 0 */
    double p_negative;  /* per dim: walk backwards */
    int64_t guard;      /* spare elements before and after the span */
} layout_opts;

/* Gives t (ndim, shape, dtype set) strides and a fresh block. */
static int layout(rt_rng *g, rt_tensor *t, rt_case_buf *b, const layout_opts *lo)
{
    int nd = t->ndim, order[RT_MAX_DIMS], gaps = 0;
    for (int d = 0; d < nd; d++)
        order[d] = d;
    if (rt_rng_chance(g, lo->p_permute))
        for (int d = nd - 1; d > 0; d--) {
            int k = (int)rt_rng_range(g, 0, d), tmp = order[d];
            order[d] = order[k];
            order[k] = tmp;
        }
    int64_t acc = 1;
    for (int k = nd - 1; k >= 0; k--) { /* order[nd - 1] is the fastest dim */
        int d = order[k];
        int64_t step = 1;
        if (gaps < 2 && rt_rng_chance(g, lo->p_gap)) {
            step = rt_rng_range(g, 2, 3);
            gaps++;
        }
        t->strides[d] = acc * step;
        acc = t->strides[d] * (t->shape[d] > 0 ? t->shape[d] : 1) + rt_rng_range(g, 0, 1);
    }
    for (int d = 0; d < nd; d++) {
        if (t->shape[d] == 1 && rt_rng_chance(g, 0.2))
            t->strides[d] = rt_rng_range(g, -5, 5); /* never used: any value is legal */
        else if (t->shape[d] > 1 && rt_rng_chance(g, lo->p_broadcast))
            t->strides[d] = 0;
        if (rt_rng_chance(g, lo->p_negative))
            t->strides[d] = -t->strides[d];
    }
    int64_t lo_off = 0, hi_off = 0;
    if (rt_case_numel(t) > 0)
        for (int d = 0; d < nd; d++) {
            int64_t reach = (t->shape[d] - 1) * t->strides[d];
            *(reach < 0 ? &lo_off : &hi_off) += reach;
        }
    int64_t lead = rt_rng_range(g, 0, 3), tail = rt_rng_range(g, 0, 2); /* misalign the start */
    size_t es = rt_elem_size(t->dtype);
    int64_t elems = (hi_off - lo_off + 1) + lead + tail + 2 * lo->guard;
    b->bytes = (size_t)elems * es;
    b->elem0 = (size_t)(lo->guard + lead - lo_off) * es;
    b->base = malloc(b->bytes);
    if (!b->base)
        return -1;
    memset(b->base, 0, b->bytes);
    t->data = b->base + b->elem0;
    return 0;
}

static rt_op pick_op(rt_rng *g, const rt_case_opts *o)
{
    return o->op >= 0 ? (rt_op)o->op : (rt_op)rt_rng_range(g, 0, RT_OP_COUNT - 1);
}

static rt_dtype pick_in_dtype(rt_rng *g, rt_op op, const rt_case_opts *o)
{
    if (o->dtype >= 0)
        return (rt_dtype)o->dtype;
    for (;;) {
        rt_dtype d = (rt_dtype)rt_rng_range(g, 0, RT_DTYPE_COUNT - 1);
        if (rt_case_op_allowed(op, d))
            return d;
    }
}

/* The default output dtype most of the time, another allowed one else. */
static rt_dtype pick_out_dtype(rt_rng *g, rt_op op, rt_dtype in)
{
    rt_dtype allowed[RT_DTYPE_COUNT];
    int n = 0;
    for (int d = 0; d < RT_DTYPE_COUNT; d++)
        if (rt_case_out_dtype_allowed(op, in, (rt_dtype)d))
            allowed[n++] = (rt_dtype)d;
    rt_dtype dflt = (op == RT_OP_SUM || op == RT_OP_PROD) && !rt_elem_is_float(in) ? RT_I64
                    : op == RT_OP_ARGMIN || op == RT_OP_ARGMAX                     ? RT_I64
                    : op == RT_OP_ANY || op == RT_OP_ALL                           ? RT_BOOL
                                                                                   : in;
    return rt_rng_chance(g, 0.6) ? dflt : allowed[rt_rng_range(g, 0, n - 1)];
}

static void pick_shape(rt_rng *g, rt_tensor *t, const rt_case_opts *o)
{
    int max_rank = o->max_rank < 0 ? 0 : o->max_rank > 8 ? 8 : o->max_rank;
    t->ndim = rt_rng_chance(g, 0.05) || max_rank == 0 ? 0 : (int)rt_rng_range(g, 1, max_rank);
    for (int d = 0; d < t->ndim; d++)
        t->shape[d] = rt_rng_chance(g, 0.2) ? 1 : rt_rng_range(g, 2, 7);
    if (t->ndim > 0 && rt_rng_chance(g, o->p_big))
        t->shape[rt_rng_range(g, 0, t->ndim - 1)] = rt_rng_range(g, o->big_lo, o->big_hi);
    rt_case_cap_elems(t, o->max_elems);
    if (t->ndim > 0 && rt_rng_chance(g, o->p_empty))
        t->shape[rt_rng_range(g, 0, t->ndim - 1)] = 0;
}

static void pick_dims(rt_rng *g, rt_case *c)
{
    int nd = c->in.ndim;
    c->ndims = 0;
    if (nd == 0) { /* a 0-d input accepts no dims, 0 or -1 */
        int64_t k = rt_rng_range(g, 0, 2);
        if (k > 0) {
            c->ndims = 1;
            c->dims[0] = k == 1 ? 0 : -1;
        }
        return;
    }
    if (rt_rng_chance(g, 0.15))
        return;
    int all[RT_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        all[d] = d;
    for (int d = nd - 1; d > 0; d--) {
        int k = (int)rt_rng_range(g, 0, d), tmp = all[d];
        all[d] = all[k];
        all[k] = tmp;
    }
    c->ndims = (int)rt_rng_range(g, 1, nd);
    for (int i = 0; i < c->ndims; i++)
        c->dims[i] = rt_rng_chance(g, 0.3) ? all[i] - nd : all[i];
}

/* The output shape from the mask, as rt_reduce_shape documents it. */
static void out_shape(const rt_case *c, rt_tensor *t)
{
    uint32_t m = rt_case_mask(c);
    t->ndim = 0;
    for (int d = 0; d < c->in.ndim; d++) {
        if (!(m >> d & 1u))
            t->shape[t->ndim++] = c->in.shape[d];
        else if (c->keepdim)
            t->shape[t->ndim++] = 1;
    }
}

int rt_case_make(rt_case *c, uint64_t seed, const rt_case_opts *o)
{
    rt_rng g;
    rt_rng_seed(&g, seed);
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->op = pick_op(&g, o);
    c->in.dtype = pick_in_dtype(&g, c->op, o);
    if (!rt_case_op_allowed(c->op, c->in.dtype))
        return -1;
    c->out.dtype =
        o->out_dtype >= 0 ? (rt_dtype)o->out_dtype : pick_out_dtype(&g, c->op, c->in.dtype);
    if (!rt_case_out_dtype_allowed(c->op, c->in.dtype, c->out.dtype))
        return -1;
    c->correction = 1.0;
    c->p = 2.0;
    if (c->op == RT_OP_VAR || c->op == RT_OP_STD) {
        double u = rt_rng_unit(&g);
        c->correction = u < 0.4 ? 0.0 : u < 0.9 ? 1.0 : 2.0;
    }
    if (c->op == RT_OP_NORM) {
        static const double ps[] = {0.0, 1.0, 2.0, 3.0, INFINITY, -INFINITY, 0.5};
        c->p = ps[rt_rng_range(&g, 0, 6)];
    }
    pick_shape(&g, &c->in, o);
    pick_dims(&g, c);
    c->keepdim = rt_rng_chance(&g, 0.5);
    out_shape(c, &c->out);
    c->has_idx = (c->op == RT_OP_MIN || c->op == RT_OP_MAX) && rt_rng_chance(&g, 0.4);

    layout_opts lin = {0.3, 0.15, 0.08, 0.15, 0};
    layout_opts lout = {0.4, 0.15, 0.0, 0.05, 4};
    if (layout(&g, &c->in, &c->in_buf, &lin) || layout(&g, &c->out, &c->out_buf, &lout))
        goto fail;
    if (c->has_idx) {
        c->idx.dtype = RT_I64;
        c->idx.ndim = c->out.ndim;
        memcpy(c->idx.shape, c->out.shape, sizeof c->idx.shape);
        if (layout(&g, &c->idx, &c->idx_buf, &lout))
            goto fail;
    }
    rt__case_fill_input(c, &g, o);
    return 0;
fail:
    rt_case_free(c);
    return -1;
}

void rt_case_free(rt_case *c)
{
    free(c->in_buf.base);
    free(c->out_buf.base);
    free(c->idx_buf.base);
    memset(&c->in_buf, 0, sizeof c->in_buf);
    memset(&c->out_buf, 0, sizeof c->out_buf);
    memset(&c->idx_buf, 0, sizeof c->idx_buf);
}

void rt_case_args(const rt_case *c, rt_reduce_args *a)
{
    rt_reduce_args_init(a);
    a->op = c->op;
    a->in = &c->in;
    a->dims = c->dims;
    a->ndims = c->ndims;
    a->keepdim = c->keepdim;
    a->out = &c->out;
    a->indices = c->has_idx ? &c->idx : NULL;
    a->correction = c->correction;
    a->p = c->p;
}

void rt_case_poison(rt_case *c)
{
    if (c->out_buf.base)
        memset(c->out_buf.base, RT_CASE_POISON, c->out_buf.bytes);
    if (c->idx_buf.base)
        memset(c->idx_buf.base, RT_CASE_POISON, c->idx_buf.bytes);
}

rt_tensor rt_case_rebase(const rt_tensor *t, const rt_case_buf *b, void *new_base)
{
    rt_tensor r = *t;
    r.data = (unsigned char *)new_base + b->elem0;
    return r;
}

static const char *name_or(const char *name)
{
    return name ? name : "?";
}

static int put_tensor(char *buf, size_t size, const char *name, const rt_tensor *t,
                      const rt_case_buf *b)
{
    int n = snprintf(buf, size, " %s=%s[", name, name_or(rt_dtype_name(t->dtype)));
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, "%s%lld", d ? "," : "",
                      (long long)t->shape[d]);
    n += snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, "] strides(");
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, "%s%lld", d ? "," : "",
                      (long long)t->strides[d]);
    n += snprintf(buf + n, size > (size_t)n ? size - (size_t)n : 0, ") elem0=%zu/%zuB", b->elem0,
                  b->bytes);
    return n;
}

int rt_case_describe(const rt_case *c, char *buf, size_t size)
{
    int n = snprintf(buf, size, "seed=%llu op=%s", (unsigned long long)c->seed,
                     name_or(rt_op_name(c->op)));
#define REST (size > (size_t)n ? size - (size_t)n : 0)
    if (c->op == RT_OP_VAR || c->op == RT_OP_STD)
        n += snprintf(buf + n, REST, "(correction=%g)", c->correction);
    if (c->op == RT_OP_NORM)
        n += snprintf(buf + n, REST, "(p=%g)", c->p);
    n += put_tensor(buf + n, REST, "in", &c->in, &c->in_buf);
    n += snprintf(buf + n, REST, " dims={");
    for (int i = 0; i < c->ndims; i++)
        n += snprintf(buf + n, REST, "%s%d", i ? "," : "", c->dims[i]);
    n += snprintf(buf + n, REST, "}%s keepdim=%d", c->ndims ? "" : "(all)", c->keepdim);
    n += put_tensor(buf + n, REST, "out", &c->out, &c->out_buf);
    if (c->has_idx)
        n += put_tensor(buf + n, REST, "idx", &c->idx, &c->idx_buf);
#undef REST
    return n;
}

void rt_case_tally_add(rt_case_tally *t, const rt_case *c)
{
    t->cases++;
    t->per_op[c->op]++;
    t->per_dtype[c->in.dtype]++;
    t->rank0 += c->in.ndim == 0;
    t->empty += rt_case_numel(&c->in) == 0;
    t->keepdim += c->keepdim;
    t->indices += c->has_idx;
    bool neg = false, bc = false;
    for (int d = 0; d < c->in.ndim; d++) {
        neg = neg || (c->in.strides[d] < 0 && c->in.shape[d] > 1);
        bc = bc || (c->in.strides[d] == 0 && c->in.shape[d] > 1);
    }
    t->negative += neg;
    t->broadcast += bc;
}

void rt_case_tally_print(const rt_case_tally *t, const char *name, FILE *f)
{
    fprintf(f, "[ %s ] %d cases:", name, t->cases);
    for (int i = 0; i < RT_OP_COUNT; i++)
        fprintf(f, " %s %d", name_or(rt_op_name((rt_op)i)), t->per_op[i]);
    fprintf(f,
            "\n[ %s ] rank0 %d, empty input %d, keepdim %d, indices %d, negative strides %d, "
            "broadcast %d\n",
            name, t->rank0, t->empty, t->keepdim, t->indices, t->negative, t->broadcast);
}
