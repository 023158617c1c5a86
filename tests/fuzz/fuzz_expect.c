/*
 * The status a call must return, from the documented contract
 * (fuzz_expect.h). Written apart from src/core: where the two disagree the
 * fuzzer stops and prints the call.
 */
#include "fuzz_expect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cases.h"

#define I64_MAX ((__int128)INT64_MAX)
#define I64_MIN ((__int128)INT64_MIN)

static bool fits_i64(__int128 v) {
    return v >= I64_MIN && v <= I64_MAX;
}

bool fz_tensor_empty(const rt_tensor *t) {
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] == 0)
            return true;
    return false;
}

/* The product of the extents of the dims in mask (bit d: dim d), exact
   while it stays under 2^100 and saturated there. */
static __int128 product(const rt_tensor *t, uint32_t mask) {
    const __int128 cap = (__int128)1 << 100;
    __int128 p = 1;
    for (int d = 0; d < t->ndim; d++)
        if (mask & (1u << d)) {
            if (t->shape[d] == 0)
                return 0;
            p = p > cap / t->shape[d] ? cap : p * t->shape[d];
        }
    return p;
}

__int128 fz_numel(const rt_tensor *t) {
    return product(t, UINT32_MAX);
}

fz_span fz_tensor_span(const rt_tensor *t) {
    fz_span s = {0, 0};
    if (fz_tensor_empty(t))
        return s;
    /* A reach is at most 2^63 x 2^63; sixteen of them could pass 2^127,
       so the sums saturate at 2^100, far past anything int64 holds. */
    const __int128 cap = (__int128)1 << 100;
    for (int d = 0; d < t->ndim; d++) {
        const __int128 reach = (__int128)(t->shape[d] - 1) * t->strides[d];
        if (reach >= 0)
            s.hi = s.hi + (reach < cap ? reach : cap);
        else
            s.lo = s.lo + (reach > -cap ? reach : -cap);
        s.hi = s.hi < cap ? s.hi : cap;
        s.lo = s.lo > -cap ? s.lo : -cap;
    }
    return s;
}

/* A tensor's element count and every byte offset its elements cover, as
   int64 values: the count, the span's length in bytes, its ends in bytes. */
static bool tensor_fits(const rt_tensor *t) {
    if (!fits_i64(fz_numel(t)))
        return false;
    const fz_span s = fz_tensor_span(t);
    const __int128 size = (__int128)rt_dtype_size(t->dtype);
    /* The ends saturate at 2^100 (fz_tensor_span): times 8, still far
       inside 128 bits. */
    return fits_i64(s.lo) && fits_i64(s.hi) && fits_i64((s.hi - s.lo + 1) * size) &&
           fits_i64(s.lo * size) && fits_i64(s.hi * size + size);
}

bool fz_rule_overlaps(const rt_tensor *t) {
    if (fz_tensor_empty(t))
        return false;
    __int128 stride[RT_MAX_DIMS], extent[RT_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] <= 1)
            continue;
        stride[n] = t->strides[d] < 0 ? -(__int128)t->strides[d] : (__int128)t->strides[d];
        extent[n] = t->shape[d];
        n++;
    }
    /* Selection order by |stride|; ties in either order give the same
       verdict (the second of two equal strides never clears the first). */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (stride[j] < stride[i]) {
                __int128 s = stride[i], e = extent[i];
                stride[i] = stride[j];
                extent[i] = extent[j];
                stride[j] = s;
                extent[j] = e;
            }
    __int128 reach = 0;
    for (int i = 0; i < n; i++) {
        if (stride[i] <= reach)
            return true;
        reach += (extent[i] - 1) * stride[i];
    }
    return false;
}

static int cmp_i64(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

bool fz_brute_overlaps(const rt_tensor *t, int64_t max, bool *checked) {
    *checked = false;
    const __int128 n = fz_numel(t);
    if (n > max || n <= 1) {
        *checked = n <= 1;
        return false;
    }
    int64_t *off = malloc((size_t)n * sizeof *off);
    if (off == NULL)
        return false;
    for (int64_t k = 0; k < (int64_t)n; k++) {
        int64_t rest = k, o = 0;
        for (int d = t->ndim - 1; d >= 0; d--) {
            o += (rest % t->shape[d]) * t->strides[d];
            rest /= t->shape[d];
        }
        off[k] = o;
    }
    qsort(off, (size_t)n, sizeof *off, cmp_i64);
    bool dup = false;
    for (int64_t k = 1; k < (int64_t)n && !dup; k++)
        dup = off[k] == off[k - 1];
    free(off);
    *checked = true;
    return dup;
}

/* First and last byte a tensor's elements cover; false for a tensor with
   no data or no elements, which overlaps nothing. */
static bool byte_range(const rt_tensor *t, __int128 *first, __int128 *last) {
    if (t->data == NULL || fz_tensor_empty(t))
        return false;
    const fz_span s = fz_tensor_span(t);
    const __int128 size = (__int128)rt_dtype_size(t->dtype), base = (__int128)(uintptr_t)t->data;
    *first = base + s.lo * size;
    *last = base + s.hi * size + size - 1;
    return true;
}

/* The reduced-dim mask of a valid dims list, or a status. */
static rt_status dims_mask(int ndim, const int *dims, int ndims, uint32_t *mask) {
    const uint32_t all = (uint32_t)((1ull << ndim) - 1);
    if (ndims == 0) {
        *mask = all;
        return RT_OK;
    }
    const int wrap = ndim > 0 ? ndim : 1; /* a scalar wraps as rank 1 */
    for (int i = 0; i < ndims; i++)
        if (dims[i] < -wrap || dims[i] >= wrap)
            return RT_ERR_BAD_DIM;
    uint32_t seen = 0;
    for (int i = 0; i < ndims; i++) {
        const int d = dims[i] < 0 ? dims[i] + wrap : dims[i];
        if (seen & (1u << d))
            return RT_ERR_DUPLICATE_DIM;
        seen |= 1u << d;
    }
    *mask = seen & all;
    return RT_OK;
}

/* Whether t has the shape of in reduced over mask. */
static bool reduced_shape_is(const rt_tensor *in, uint32_t mask, bool keepdim, const rt_tensor *t) {
    int n = 0;
    for (int d = 0; d < in->ndim; d++) {
        const bool reduced = (mask & (1u << d)) != 0;
        if (reduced && !keepdim)
            continue;
        if (n >= t->ndim || t->shape[n] != (reduced ? 1 : in->shape[d]))
            return false;
        n++;
    }
    return n == t->ndim;
}

rt_status fz_expect(const rt_reduce_args *a) {
    if (a->in == NULL || a->out == NULL || (a->dims == NULL && a->ndims > 0))
        return RT_ERR_NULL_POINTER;
    if (a->ndims < 0)
        return RT_ERR_BAD_ARGUMENT;
    const rt_tensor *t[3] = {a->in, a->out, a->indices};
    const int count = a->indices != NULL ? 3 : 2;
    for (int i = 0; i < count; i++)
        if (t[i]->ndim < 0 || t[i]->ndim > RT_MAX_DIMS)
            return RT_ERR_BAD_NDIM;
    for (int i = 0; i < count; i++)
        for (int d = 0; d < t[i]->ndim; d++)
            if (t[i]->shape[d] < 0)
                return RT_ERR_BAD_SHAPE;
    for (int i = 0; i < count; i++)
        if ((unsigned)t[i]->dtype >= RT_DTYPE_COUNT)
            return RT_ERR_BAD_DTYPE;
    if ((unsigned)a->op >= RT_OP_COUNT)
        return RT_ERR_BAD_OP;
    uint32_t mask;
    const rt_status ds = dims_mask(a->in->ndim, a->dims, a->ndims, &mask);
    if (ds != RT_OK)
        return ds;
    for (int i = 0; i < count; i++)
        if (!tensor_fits(t[i]))
            return RT_ERR_OVERFLOW;
    const __int128 reduce_count = product(a->in, mask);
    if (!fits_i64(reduce_count) || !fits_i64(product(a->in, ~mask)))
        return RT_ERR_OVERFLOW;
    if (!rt_case_op_allowed(a->op, a->in->dtype))
        return RT_ERR_UNSUPPORTED;
    if (!rt_case_out_dtype_allowed(a->op, a->in->dtype, a->out->dtype))
        return RT_ERR_OUT_DTYPE;
    if (!reduced_shape_is(a->in, mask, a->keepdim, a->out))
        return RT_ERR_OUT_SHAPE;
    if (a->indices != NULL &&
        ((a->op != RT_OP_MIN && a->op != RT_OP_MAX) || a->indices->dtype != RT_I64 ||
         !reduced_shape_is(a->in, mask, a->keepdim, a->indices)))
        return RT_ERR_INDICES;
    if ((a->op == RT_OP_VAR || a->op == RT_OP_STD) && !(a->correction >= 0))
        return RT_ERR_BAD_ARGUMENT;
    if (a->op == RT_OP_NORM && isnan(a->p))
        return RT_ERR_BAD_ARGUMENT;
    if (a->policy != RT_POLICY_DEFAULT && a->policy != RT_POLICY_COMPAT &&
        a->policy != RT_POLICY_TUNED)
        return RT_ERR_BAD_ARGUMENT;
    for (int i = 1; i < count; i++)
        if (fz_rule_overlaps(t[i]))
            return RT_ERR_SELF_OVERLAP;
    __int128 first[3], last[3];
    bool present[3];
    for (int i = 0; i < count; i++) {
        present[i] = byte_range(t[i], &first[i], &last[i]);
        /* Addresses below 0 or past the top: no memory is there. */
        if (present[i] && (first[i] < 0 || last[i] > (__int128)UINTPTR_MAX))
            return RT_ERR_OVERFLOW;
    }
    for (int i = 1; i < count; i++)
        for (int j = 0; j < i; j++)
            if (present[i] && present[j] && first[i] <= last[j] && first[j] <= last[i])
                return RT_ERR_OVERLAP;
    for (int i = 0; i < count; i++)
        if (t[i]->data == NULL && !fz_tensor_empty(t[i]))
            return RT_ERR_NULL_POINTER;
    if (reduce_count == 0 && (a->op == RT_OP_MIN || a->op == RT_OP_MAX ||
                              a->op == RT_OP_ARGMIN || a->op == RT_OP_ARGMAX))
        return RT_ERR_EMPTY_REDUCTION;
    return RT_OK;
}
