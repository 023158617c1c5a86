/*
 * Private to src/iter: the one builder behind rt__iter_build (from a
 * validated problem) and rt__iter_build_raw (from bare strides, for tests
 * and tools), and the small arithmetic the builder and the split share.
 * Kept apart from iter.h so that rt__iter_build_raw links without src/core.
 */
#ifndef RT_ITER_BUILD_H
#define RT_ITER_BUILD_H

#include "iter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything the builder reads, at the input's rank (logical dims). */
typedef struct rt__iter_source {
    int ndim;             /* input rank, 0 .. RT_MAX_DIMS */
    const int64_t *shape; /* input extents, ndim entries */
    /* Per operand: element strides at the input's rank (OUT and IDX carry 0
       on reduced dims; NULL is fine when ndim is 0), the address of element
       [0,..,0] (may be NULL), and the element size in bytes, 0 when the
       operand is absent. ACC is always absent here: the executor adds it
       with rt__iter_add_acc. */
    const int64_t *strides[RT__ITER_MAX_OPERANDS];
    char *data[RT__ITER_MAX_OPERANDS];
    int elem_size[RT__ITER_MAX_OPERANDS];
    uint32_t reduce_mask;                 /* bit d set: input dim d is reduced */
    bool tracks_index;
    bool index_by_memory; /* rt__iter_build's argument */
} rt__iter_source;

/* Builds *it from *src as rt__iter_build documents (flip, reorder,
   coalesce, drop extent 1). No allocation; O(ndim^2) at most. */
void rt__iter_build_from(const rt__iter_source *src, rt__iter *it);

/* p moved by count * stride bytes. The arithmetic is done on integers:
   bases may be NULL (rt__iter_build_raw) and empty tensors may carry
   strides whose products mean nothing, neither of which may be UB. */
char *rt__iter_shift(char *p, int64_t count, int64_t stride);

/* a * b, or INT64_MAX when it overflows (a, b >= 0). */
int64_t rt__iter_mul_sat(int64_t a, int64_t b);

/* Recomputes it->num_outputs and it->inputs_per_output from the shape. */
void rt__iter_recount(rt__iter *it);

#ifdef __cplusplus
}
#endif

#endif /* RT_ITER_BUILD_H */
