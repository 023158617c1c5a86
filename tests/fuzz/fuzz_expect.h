/*
 * The fuzzer's second opinion on a call: the status reduce_tensor_ex must
 * return for args on a CPU context, worked out from the documented
 * contract (include/reduce_tensor.h, README "Errors") with none of the
 * library's validation code. The checks come in the order the library
 * reports them (src/core/validate.c): NULL arguments; ndims; rank, then
 * extents, then dtype of every tensor; op; dims (range, then repeats);
 * int64 overflow; op vs input dtype; output dtype; output shape; indices;
 * op parameters and policy; self-overlap of each output; a tensor whose
 * addresses wrap around the address space (RT_ERR_OVERFLOW), then overlap
 * between tensors; NULL data; min/max/argmin/argmax over an empty dim.
 *
 * Overflow and spans are computed in 128-bit integers. Self-overlap
 * follows the documented conservative rule; fz_brute_overlaps checks a
 * small tensor's elements one by one, so the fuzzer can also confirm that
 * every output the rule passes really has distinct elements.
 */
#ifndef FUZZ_EXPECT_H
#define FUZZ_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "reduce_tensor.h"

/* The element offsets [lo, hi] a tensor reaches from its element
   [0, ..., 0] (0 and 0 for an empty one), exact up to 2^100 in magnitude,
   saturated there. */
typedef struct fz_span {
    __int128 lo, hi;
} fz_span;

fz_span fz_tensor_span(const rt_tensor *t);

/* Whether any extent of t is 0. */
bool fz_tensor_empty(const rt_tensor *t);

/* The product of t's extents, exact (0 if any is 0), saturated at 2^100. */
__int128 fz_numel(const rt_tensor *t);

/* The documented self-overlap rule: the dims of extent > 1 sorted by
   |stride|, each stride must exceed the largest offset the dims before it
   reach ((extent - 1) x |stride| summed); otherwise the tensor may have
   two elements at one address, and an output is refused. */
bool fz_rule_overlaps(const rt_tensor *t);

/* Whether two of t's elements share an address, by listing them; t must
   have at most `max` elements (returns false otherwise, *checked false). */
bool fz_brute_overlaps(const rt_tensor *t, int64_t max, bool *checked);

/* The status reduce_tensor_ex(cpu_context, args) must return. */
rt_status fz_expect(const rt_reduce_args *args);

#endif /* FUZZ_EXPECT_H */
