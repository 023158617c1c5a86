/*
 * Hand-written small reductions for targeted tests: a vector of literal
 * values reduced over its only dim into a 0-d output, through the public
 * API, with the result read back as a number.
 */
#ifndef RT_SMALL_H
#define RT_SMALL_H

#include <stdint.h>

#include "reduce_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rt_small_result {
    rt_status status;
    long double value; /* the output element, widened (ints and bools too) */
    int64_t index;     /* argmin/argmax output, or min/max's indices output */
    uint64_t bits;     /* the output element's raw bits */
} rt_small_result;

/*
 * Reduces x[0..n) (written as dtype `in`; ints truncate, 16-bit floats
 * round to nearest) on ctx with op into one element of dtype `out`.
 * `param` is the correction for var/std and p for norm (ignored
 * otherwise). min/max also request an indices output. stride (elements,
 * may be negative or 0) lays x out in memory; with a negative stride the
 * data pointer is placed so that logical element i still holds x[i].
 */
rt_small_result rt_small_reduce(rt_context *ctx, rt_op op, rt_dtype in, rt_dtype out,
                                const double *x, int64_t n, int64_t stride, double param);

#ifdef __cplusplus
}
#endif

#endif /* RT_SMALL_H */
