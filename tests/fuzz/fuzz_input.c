/*
 * Bytes -> one call of reduce_tensor_ex (fuzz_input.h). The decoding is
 * biased towards valid calls (about four in five), so that the results are
 * checked often; the byte `weird` turns on the kinds of wrong input.
 */
#include "fuzz_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_expect.h"
#include "rt_elem.h"
#include "rt_rng.h"

/* Kinds of wrong input (fz_call.weird). */
enum {
    W_RANK = 1u << 0,    /* a rank outside 0 .. RT_MAX_DIMS */
    W_EXTENT = 1u << 1,  /* a negative or enormous extent */
    W_STRIDE = 1u << 2,  /* an enormous stride */
    W_POINTER = 1u << 3, /* a NULL argument or NULL data */
    W_PARAM = 1u << 4,   /* a bad op, dtype, correction, p, policy or ndims */
    W_SHAPE = 1u << 5,   /* a wrong output or indices shape, or indices dtype */
    W_OVERLAP = 1u << 6, /* outputs with arbitrary strides, or inside the input */
    W_DIMS = 1u << 7     /* dims out of range or repeated */
};

/* Input elements a valid call may have; the arena a tensor may span. */
#define MAX_RUN_ELEMS ((int64_t)1 << 20)
#define MAX_REGION_BYTES ((int64_t)1 << 21)

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static unsigned u8(reader *r) {
    return r->i < r->n ? r->p[r->i++] : 0u;
}

static unsigned u16(reader *r) {
    const unsigned hi = u8(r);
    return hi << 8 | u8(r);
}

/* An extent: mostly 1-5, some 0, 6-40 and up to 5000; for the large
   inputs (`big`) rows and columns of tens to thousands. */
static int64_t pick_extent(reader *r, bool big) {
    const unsigned v = u8(r);
    if (big)
        return v < 40 ? 1 : v < 200 ? 2 + v % 60 : 61 + u16(r) % 20000;
    return v < 8 ? 0 : v < 160 ? 1 + v % 5 : v < 240 ? 6 + v % 35 : 41 + u16(r) % 4960;
}

/* Strides for t's extents: its dims in a memory order the bytes choose,
   each dense, sliced (a gap), doubled, backwards, or, where allowed,
   broadcast or a small arbitrary stride. */
static void make_strides(reader *r, rt_tensor *t, bool any) {
    int order[RT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++)
        order[d] = t->ndim - 1 - d; /* fastest first: row-major */
    if (u8(r) < 100)
        for (int i = t->ndim - 1; i > 0; i--) {
            const int j = (int)(u8(r) % (unsigned)(i + 1)), s = order[i];
            order[i] = order[j];
            order[j] = s;
        }
    int64_t next = 1;
    for (int i = 0; i < t->ndim; i++) {
        const int d = order[i];
        const int64_t ext = t->shape[d] > 0 ? t->shape[d] : 1;
        const unsigned mode = u8(r) % 16;
        t->strides[d] = next;
        next *= ext;
        if (mode == 10 || mode == 11)
            next += 1 + mode % 2; /* a sliced dim: a gap after it */
        else if (mode == 12)
            next *= 2;
        else if (mode == 13)
            t->strides[d] = -t->strides[d];
        else if (mode == 14 && any)
            t->strides[d] = 0;
        else if (mode == 15 && any)
            t->strides[d] = (int64_t)(u8(r) % 13) - 6;
    }
}

/* in's shape reduced over (dims, ndims, keepdim) when those are valid;
   otherwise in's own shape, which the call must refuse before reading. */
static void reduced_shape(const rt_tensor *in, const int *dims, int ndims, bool keepdim,
                          rt_tensor *t) {
    int out_ndim;
    if (rt_reduce_shape(in, dims, ndims, keepdim, &out_ndim, t->shape) == RT_OK) {
        t->ndim = out_ndim;
        return;
    }
    t->ndim = in->ndim >= 0 && in->ndim <= RT_MAX_DIMS ? in->ndim : 0;
    memcpy(t->shape, in->shape, sizeof t->shape);
}

static void perturb_shape(reader *r, rt_tensor *t) {
    const unsigned v = u8(r);
    if (v % 3 == 0 && t->ndim < RT_MAX_DIMS) {
        t->shape[t->ndim++] = 1 + v % 2;
    } else if (v % 3 == 1 && t->ndim > 0) {
        t->ndim--;
    } else if (t->ndim > 0) {
        t->shape[v % (unsigned)t->ndim] += 1;
    }
}

static void decode_dims(reader *r, fz_call *c) {
    const int nd = c->in.ndim >= 0 && c->in.ndim <= RT_MAX_DIMS ? c->in.ndim : 1;
    const int wrap = nd > 0 ? nd : 1;
    const unsigned mode = u8(r) % 4;
    c->args.ndims = 0;
    if (mode == 0)
        return; /* every dim */
    const int want = 1 + (int)(u8(r) % (unsigned)wrap);
    uint32_t used = 0;
    for (int i = 0; i < want; i++) {
        int d = (int)(u8(r) % (unsigned)wrap);
        while (used & (1u << d))
            d = (d + 1) % wrap;
        used |= 1u << d;
        c->dims[c->args.ndims++] = u8(r) & 1 ? d - wrap : d;
    }
    if (c->weird & W_DIMS) {
        const unsigned v = u8(r);
        const int i = (int)(v % (unsigned)c->args.ndims);
        if (v & 2 && c->args.ndims < RT_MAX_DIMS) /* a repeat, maybe as -d */
            c->dims[c->args.ndims++] = v & 4 ? c->dims[i] : (c->dims[i] < 0 ? c->dims[i] + wrap
                                                                              : c->dims[i] - wrap);
        else
            c->dims[i] = v & 1 ? wrap + (int)(v % 3) : -wrap - 1 - (int)(v % 2);
    }
}

/* Whether t's fields can be walked at all (the rank in range, extents not
   negative, a dtype) and its span fits int64 bytes: then its region can
   be measured. */
static bool measurable(const rt_tensor *t) {
    if (t->ndim < 0 || t->ndim > RT_MAX_DIMS || rt_dtype_size(t->dtype) == 0)
        return false;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] < 0)
            return false;
    const fz_span s = fz_tensor_span(t);
    const __int128 bytes = (s.hi - s.lo + 1) * (__int128)rt_dtype_size(t->dtype);
    return bytes <= MAX_REGION_BYTES;
}

/* Region sizes and elem0 offsets; `shift` elements of poison before the
   lowest element. */
static void measure(const rt_tensor *t, int shift, rt_case_buf *b) {
    if (!measurable(t)) {
        b->bytes = 64;
        b->elem0 = 0;
        return;
    }
    const fz_span s = fz_tensor_span(t);
    const size_t size = rt_dtype_size(t->dtype);
    b->elem0 = (size_t)(-s.lo + shift) * size;
    b->bytes = (size_t)(s.hi - s.lo + 1 + 2 * shift) * size;
}

static size_t round64(size_t v) {
    return (v + 63) / 64 * 64;
}

/* One value of dtype dt by the data mode: raw bits for integers and
   floats of every magnitude from 2^-40 to 2^40 (mode 0), small integers
   (mode 1, frequent ties), or floats in [-10, 10] with NaN, infinities and
   -0.0 among them (mode 2). Raw float bits are not used: sums of x^p over
   values near the ends of the range overflow or underflow a double where
   the long-double reference does not (the CPU's norm of p = -2 over a
   value of 4e-308 is 0, the exact one 2e-308), and which of the two is
   right is a matter of range, not of the library. Mode 3, float factors
   of products: +-[15/16, 17/16], with a few zeros, NaNs and infinities. */
static void put_value(rt_rng *g, unsigned mode, rt_dtype dt, unsigned char *p) {
    if (dt == RT_BOOL) {
        *p = (unsigned char)(rt_rng_next(g) & 1);
        return;
    }
    const bool fl = rt_elem_is_float(dt);
    if (mode == 0 && !fl) {
        const uint64_t bits = rt_rng_next(g);
        memcpy(p, &bits, rt_elem_size(dt));
        return;
    }
    if (mode == 0) {
        const double m = 1.0 + rt_rng_unit(g);
        const double v = ldexp(rt_rng_next(g) & 1 ? -m : m, (int)rt_rng_range(g, -40, 40));
        rt_elem_put_f(p, dt, v);
        return;
    }
    if (mode == 3) {
        const double u = rt_rng_unit(g), m = 0.9375 + rt_rng_unit(g) / 8;
        const double v = u < 0.01   ? NAN
                         : u < 0.02 ? (u < 0.015 ? INFINITY : -INFINITY)
                         : u < 0.03 ? 0.0
                                    : (rt_rng_next(g) & 1 ? -m : m);
        rt_elem_put_f(p, dt, v);
        return;
    }
    const int64_t small = rt_rng_range(g, -4, 4);
    if (mode == 1 || !fl) {
        rt_elem_put_i(p, dt, dt == RT_U8 ? small + 4 : small);
        return;
    }
    const double u = rt_rng_unit(g);
    const double v = u < 0.04   ? NAN
                     : u < 0.06 ? INFINITY
                     : u < 0.08 ? -INFINITY
                     : u < 0.10 ? -0.0
                                : (rt_rng_unit(g) - 0.5) * 20.0;
    rt_elem_put_f(p, dt, v);
}

static void fill_input(const fz_call *c, unsigned mode, uint64_t seed) {
    const rt_tensor *t = &c->in;
    if (!measurable(t) || fz_numel(t) > MAX_RUN_ELEMS)
        return;
    rt_rng g;
    rt_rng_seed(&g, seed);
    /* Float products take factors near 1 (mode 3): a product of a
       thousand values of [-10, 10], or of small integers, leaves a
       double's range, and then a 0 makes the library's inf x 0 = NaN
       where the long-double reference, still in range, has 0. */
    if (c->args.op == RT_OP_PROD && rt_elem_is_float(t->dtype))
        mode = 3;
    const int64_t n = (int64_t)fz_numel(t);
    for (int64_t k = 0; k < n; k++) /* rt_case_offset counts bytes */
        put_value(&g, mode, t->dtype, (unsigned char *)t->data + rt_case_offset(t, k));
}

/* Op, dtypes, the input's shape and strides, dims. */
static void decode_input(reader *r, fz_call *c) {
    c->args.op = (rt_op)(u8(r) % RT_OP_COUNT);
    rt_dtype dt = (rt_dtype)(u8(r) % RT_DTYPE_COUNT);
    if (!rt_case_op_allowed(c->args.op, dt) && u8(r) % 4 != 0)
        dt = RT_F32 + (rt_dtype)(u8(r) % 4); /* a float: every op takes them */
    c->in.dtype = dt;
    c->in.ndim = (int)(u8(r) % 7);
    /* Mostly small; one in twenty up to 2^18 elements, where the CPU
       backend starts worker threads (from 2^15 elements, 2^14 a thread)
       and splits the reduced range of few outputs among them. */
    const bool big = u8(r) < 13;
    for (int d = 0; d < c->in.ndim; d++)
        c->in.shape[d] = pick_extent(r, big);
    rt_case_cap_elems(&c->in, big ? (int64_t)1 << 18 : (int64_t)1 << 15);
    make_strides(r, &c->in, true);
    decode_dims(r, c);
    c->args.keepdim = u8(r) & 1;
}

/* The outputs' dtypes, shapes and strides. */
static void decode_outputs(reader *r, fz_call *c) {
    rt_dtype def = c->in.dtype;
    if (rt_reduce_default_dtype(c->args.op, c->in.dtype, &def) != RT_OK)
        def = c->in.dtype;
    c->out.dtype = u8(r) < 200 ? def : (rt_dtype)(u8(r) % RT_DTYPE_COUNT);
    reduced_shape(&c->in, c->dims, c->args.ndims, c->args.keepdim, &c->out);
    const bool extremum = c->args.op == RT_OP_MIN || c->args.op == RT_OP_MAX;
    const bool has_idx = (extremum && u8(r) % 3 == 0) || ((c->weird & W_SHAPE) && u8(r) % 4 == 0);
    c->idx = c->out;
    c->idx.dtype = RT_I64;
    if (c->weird & W_SHAPE) {
        const unsigned v = u8(r);
        if (v % 3 == 0)
            perturb_shape(r, &c->out);
        else if (v % 3 == 1)
            perturb_shape(r, &c->idx);
        else
            c->idx.dtype = RT_I32;
    }
    make_strides(r, &c->out, (c->weird & W_OVERLAP) != 0);
    make_strides(r, &c->idx, (c->weird & W_OVERLAP) != 0);
    c->args.indices = has_idx ? &c->idx : NULL;
}

/* Wrong values that need no memory to judge. */
static void decode_weird_fields(reader *r, fz_call *c) {
    if (c->weird & W_RANK) {
        rt_tensor *t = u8(r) & 1 ? &c->in : &c->out;
        t->ndim = u8(r) & 1 ? RT_MAX_DIMS + 1 : -1;
    }
    if (c->weird & W_EXTENT) {
        static const int64_t huge[] = {-1, -7, (int64_t)1 << 40, INT64_MAX, ((int64_t)1 << 31) + 1,
                                       (int64_t)1 << 62};
        rt_tensor *t = u8(r) % 4 == 0 ? &c->out : &c->in;
        if (t->ndim > 0 && t->ndim <= RT_MAX_DIMS)
            t->shape[u8(r) % (unsigned)t->ndim] = huge[u8(r) % 6];
    }
    if (c->weird & W_STRIDE) {
        static const int64_t huge[] = {(int64_t)1 << 61, INT64_MIN, INT64_MAX, -((int64_t)1 << 62),
                                       (int64_t)1 << 33};
        rt_tensor *t = u8(r) % 3 == 0 ? &c->out : &c->in;
        if (t->ndim > 0 && t->ndim <= RT_MAX_DIMS)
            t->strides[u8(r) % (unsigned)t->ndim] = huge[u8(r) % 5];
    }
    if (c->weird & W_PARAM) {
        const unsigned v = u8(r);
        switch (v % 7) {
        case 0:
            c->args.op = (rt_op)(RT_OP_COUNT + v % 3);
            break;
        case 1:
            c->in.dtype = (rt_dtype)(RT_DTYPE_COUNT + v % 2);
            break;
        case 2:
            c->out.dtype = (rt_dtype)RT_DTYPE_COUNT;
            break;
        case 3:
            c->args.correction = v & 8 ? -1.0 : NAN;
            break;
        case 4:
            c->args.p = NAN;
            break;
        case 5:
            c->args.policy = (rt_policy)(3 + v % 5);
            break;
        default:
            c->args.ndims = -1;
            break;
        }
    }
}

/* The arena: the input's region, then each output's, 64-byte aligned
   apart; or (W_OVERLAP) the output inside the input's region when both
   have elements. */
static bool place(reader *r, fz_call *c) {
    rt_tensor *t[3] = {&c->in, &c->out, &c->idx};
    const int shifts[3] = {(int)(u8(r) % 4), (int)(u8(r) % 3), (int)(u8(r) % 3)};
    size_t at[3], end = 64;
    for (int i = 0; i < 3; i++) {
        measure(t[i], shifts[i], &c->region[i]);
        at[i] = end;
        end = round64(end + c->region[i].bytes) + 64;
    }
    const bool inside = (c->weird & W_OVERLAP) && (u8(r) & 1) && measurable(&c->in) &&
                        !fz_tensor_empty(&c->in) && measurable(&c->out) &&
                        !fz_tensor_empty(&c->out) && c->region[FZ_IN].bytes > 8;
    if (inside) {
        const size_t size = rt_dtype_size(c->out.dtype);
        at[FZ_OUT] = at[FZ_IN] + (u16(r) % c->region[FZ_IN].bytes) / size * size;
        const size_t out_end = round64(at[FZ_OUT] + c->region[FZ_OUT].bytes) + 64;
        end = out_end > end ? out_end : end;
    }
    c->arena_bytes = end;
    c->arena = aligned_alloc(64, end);
    if (c->arena == NULL)
        return false;
    memset(c->arena, RT_CASE_POISON, end);
    for (int i = 0; i < 3; i++) {
        c->region[i].base = c->arena + at[i];
        t[i]->data = c->region[i].base + c->region[i].elem0;
    }
    return true;
}

static void decode_pointers(reader *r, fz_call *c) {
    if (!(c->weird & W_POINTER))
        return;
    switch (u8(r) % 6) {
    case 0:
        c->args.in = NULL;
        break;
    case 1:
        c->args.out = NULL;
        break;
    case 2:
        if (c->args.ndims > 0)
            c->args.dims = NULL;
        break;
    case 3:
        c->in.data = NULL;
        break;
    case 4:
        c->out.data = NULL;
        break;
    default:
        c->idx.data = NULL;
        break;
    }
}

bool fz_decode(const uint8_t *data, size_t size, fz_call *c) {
    reader r = {data, size, 0};
    memset(c, 0, sizeof *c);
    rt_reduce_args_init(&c->args);
    c->args.in = &c->in;
    c->args.out = &c->out;
    c->args.dims = c->dims;
    const unsigned w = u8(&r);
    /* Mostly one kind of wrong input at a time, so that an earlier check
       does not hide the one asked for; now and then several. */
    if (w >= 208) {
        const unsigned k = u8(&r);
        c->weird = k >= 224 ? u8(&r) : 1u << (k % 8);
    }
    decode_input(&r, c);
    decode_outputs(&r, c);
    static const double corrections[] = {1.0, 0.0, 2.0, 0.5, 1.0, 3.0, 10.0, 1.0};
    static const double ps[] = {2.0, 1.0, 0.0, 3.0, INFINITY, -INFINITY, 0.5, -2.0, 1.5, 2.0};
    c->args.correction = corrections[u8(&r) % 8];
    c->args.p = ps[u8(&r) % 10];
    c->args.policy = (rt_policy)(u8(&r) % 3);
    c->num_threads = 1 + (int)(u8(&r) % 4);
    const unsigned mode = u8(&r) % 3;
    const uint64_t seed = (uint64_t)u16(&r) << 16 | u16(&r);
    decode_weird_fields(&r, c);
    if (!place(&r, c))
        return false;
    fill_input(c, mode, seed);
    decode_pointers(&r, c);
    /* A valid call over millions of elements (a broadcast enormous
       extent) would take the CPU too long to run and check, and one whose
       tensor spans more than its region (an enormous stride) is a valid
       description of memory the arena does not have. */
    const bool held = measurable(&c->in) && measurable(&c->out) &&
                      (c->args.indices == NULL || measurable(&c->idx));
    if (fz_expect(&c->args) == RT_OK && (!held || fz_numel(&c->in) > MAX_RUN_ELEMS)) {
        fz_free(c);
        return false;
    }
    return true;
}

void fz_free(fz_call *c) {
    free(c->arena);
    c->arena = NULL;
}

static int describe_tensor(const char *name, const rt_tensor *t, const fz_call *c, char *buf,
                           size_t size) {
    int n = snprintf(buf, size, " %s=%s", name, rt_dtype_name(t->dtype) ? rt_dtype_name(t->dtype) : "?");
#define REST (size > (size_t)n ? size - (size_t)n : 0)
    if (t->ndim < 0 || t->ndim > RT_MAX_DIMS)
        return n + snprintf(buf + n, REST, " ndim %d", t->ndim);
    n += snprintf(buf + n, REST, "[");
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(buf + n, REST, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    n += snprintf(buf + n, REST, "] strides [");
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(buf + n, REST, "%s%lld", d ? "," : "", (long long)t->strides[d]);
    if (t->data == NULL)
        n += snprintf(buf + n, REST, "] data NULL");
    else
        n += snprintf(buf + n, REST, "] at arena+%td", (const unsigned char *)t->data - c->arena);
    return n;
#undef REST
}

int fz_describe(const fz_call *c, char *buf, size_t size) {
#define REST (size > (size_t)n ? size - (size_t)n : 0)
    const char *op = rt_op_name(c->args.op);
    int n = snprintf(buf, size, "op=%s correction=%g p=%g policy=%d threads=%d weird=0x%x",
                     op ? op : "?", c->args.correction, c->args.p, (int)c->args.policy,
                     c->num_threads, c->weird);
    if (c->args.in == NULL)
        n += snprintf(buf + n, REST, " in=NULL");
    else
        n += describe_tensor("in", &c->in, c, buf + n, REST);
    if (c->args.out == NULL)
        n += snprintf(buf + n, REST, " out=NULL");
    else
        n += describe_tensor("out", &c->out, c, buf + n, REST);
    if (c->args.indices != NULL)
        n += describe_tensor("indices", &c->idx, c, buf + n, REST);
    n += snprintf(buf + n, REST, " dims%s [", c->args.dims == NULL ? " NULL" : "");
    for (int i = 0; c->args.dims != NULL && i < c->args.ndims; i++)
        n += snprintf(buf + n, REST, "%s%d", i ? "," : "", c->dims[i]);
    n += snprintf(buf + n, REST, "] ndims=%d%s", c->args.ndims, c->args.keepdim ? " keepdim" : "");
    return n;
#undef REST
}
