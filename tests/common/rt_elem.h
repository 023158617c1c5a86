/*
 * Element access by dtype for the test support code: read and write one
 * element of any rt_dtype at a (suitably aligned) host address. 16-bit
 * floats go through src/cpu/rt_half.h.
 */
#ifndef RT_ELEM_H
#define RT_ELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reduce_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per element; 0 for an unknown dtype. */
size_t rt_elem_size(rt_dtype d);
/* f32 f64 f16 bf16. */
bool rt_elem_is_float(rt_dtype d);
/* The element at p as a long double (exact for every dtype but i64 values
   beyond 2^64, which do not exist). */
long double rt_elem_get_f(const void *p, rt_dtype d);
/* The element at p as an int64 (floats truncate; use for integer dtypes). */
int64_t rt_elem_get_i(const void *p, rt_dtype d);
/* Writes v rounded to nearest (16-bit floats straight from binary64);
   integers take the truncated, wrapped value; bool is v != 0. */
void rt_elem_put_f(void *p, rt_dtype d, double v);
/* Writes v: narrower integers keep the low bits, bool is v != 0, floats
   round. */
void rt_elem_put_i(void *p, rt_dtype d, int64_t v);
/* The element's raw bits (zero-extended), for bitwise comparisons. */
uint64_t rt_elem_bits(const void *p, rt_dtype d);

#ifdef __cplusplus
}
#endif

#endif /* RT_ELEM_H */
