/*
 * Layout arithmetic on tensor descriptors: element counts, reachable
 * offsets, self-overlap and byte ranges. Everything overflow-checked, so
 * the validator can reject descriptors whose spans do not fit int64 before
 * any backend computes an address from them.
 */
#include "rt_core.h"

static bool tensor_is_empty(const rt_tensor *t) {
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] == 0)
            return true;
    return false;
}

rt_status rt__extent_product(const rt_tensor *t, uint32_t mask, int64_t *product) {
    /* A zero extent makes the product 0 whatever the others are, so look
       for one before multiplying: [0, 2^40, 2^40] is empty, not overflow. */
    for (int d = 0; d < t->ndim; d++) {
        if ((mask & (1u << d)) && t->shape[d] == 0) {
            *product = 0;
            return RT_OK;
        }
    }
    int64_t p = 1;
    for (int d = 0; d < t->ndim; d++)
        if ((mask & (1u << d)) && __builtin_mul_overflow(p, t->shape[d], &p))
            return RT_ERR_OVERFLOW;
    *product = p;
    return RT_OK;
}

rt_status rt__tensor_offsets(const rt_tensor *t, int64_t *lo, int64_t *hi) {
    int64_t low = 0, high = 0;
    if (!tensor_is_empty(t)) {
        for (int d = 0; d < t->ndim; d++) {
            int64_t reach;
            RT_RETURN_IF(__builtin_mul_overflow(t->shape[d] - 1, t->strides[d], &reach),
                         RT_ERR_OVERFLOW);
            if (reach >= 0)
                RT_RETURN_IF(__builtin_add_overflow(high, reach, &high), RT_ERR_OVERFLOW);
            else
                RT_RETURN_IF(__builtin_add_overflow(low, reach, &low), RT_ERR_OVERFLOW);
        }
    }
    /* Every byte offset a backend forms lies in [low * size, high * size +
       size - 1]; the span's length bounds them all. */
    int64_t size = (int64_t)rt_dtype_size(t->dtype), span, bytes;
    RT_RETURN_IF(__builtin_sub_overflow(high, low, &span), RT_ERR_OVERFLOW);
    RT_RETURN_IF(__builtin_add_overflow(span, 1, &span), RT_ERR_OVERFLOW);
    RT_RETURN_IF(__builtin_mul_overflow(span, size, &bytes), RT_ERR_OVERFLOW);
    RT_RETURN_IF(__builtin_mul_overflow(low, size, &bytes), RT_ERR_OVERFLOW);
    RT_RETURN_IF(__builtin_mul_overflow(high, size, &bytes), RT_ERR_OVERFLOW);
    RT_RETURN_IF(__builtin_add_overflow(bytes, size, &bytes), RT_ERR_OVERFLOW);
    *lo = low;
    *hi = high;
    return RT_OK;
}

bool rt__tensor_self_overlaps(const rt_tensor *t) {
    if (tensor_is_empty(t))
        return false;
    /* Only dims that actually move matter; sort them by |stride| (insertion
       sort: at most RT_MAX_DIMS entries). Unsigned so |INT64_MIN| is exact. */
    uint64_t stride[RT_MAX_DIMS], extent[RT_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] <= 1)
            continue;
        uint64_t s = t->strides[d] < 0 ? 0u - (uint64_t)t->strides[d] : (uint64_t)t->strides[d];
        int i = n++;
        while (i > 0 && stride[i - 1] > s) {
            stride[i] = stride[i - 1];
            extent[i] = extent[i - 1];
            i--;
        }
        stride[i] = s;
        extent[i] = (uint64_t)t->shape[d];
    }
    /* reach: the largest offset the smaller dims reach from an element. A
       dim whose step does not clear it may land on an element they reach
       (a zero stride always does). */
    uint64_t reach = 0;
    for (int i = 0; i < n; i++) {
        if (stride[i] <= reach)
            return true;
        reach += (extent[i] - 1) * stride[i];
    }
    return false;
}

rt_status rt__tensor_byte_range(const rt_tensor *t, bool *present, uintptr_t *first,
                                uintptr_t *last) {
    int64_t lo, hi;
    *present = false;
    if (t->data == NULL || tensor_is_empty(t))
        return RT_OK;
    RT_FORWARD_IF_ERROR(rt__tensor_offsets(t, &lo, &hi));
    const int64_t size = (int64_t)rt_dtype_size(t->dtype);
    /* Bytes below and above data, as unsigned magnitudes (lo * size may be
       INT64_MIN); both fit int64 (rt__tensor_offsets). */
    const uint64_t down = 0u - (uint64_t)(lo * size), up = (uint64_t)(hi * size + size - 1);
    const uint64_t base = (uint64_t)(uintptr_t)t->data;
    /* A range that wraps around the address space holds no memory, and
       its ends would compare the wrong way in the overlap test. */
    RT_RETURN_IF(down > base || up > (uint64_t)UINTPTR_MAX - base, RT_ERR_OVERFLOW);
    *first = (uintptr_t)(base - down);
    *last = (uintptr_t)(base + up);
    *present = true;
    return RT_OK;
}
