/*
 * The naive reference (oracle) for rt_case reductions, and the checker.
 *
 * The reference walks the full multi-index of the input straight from the
 * rt_tensor descriptors (no src/iter, no src/cpu): for each output element
 * in row-major order, the reduced elements in row-major order over the
 * reduced dims taken in the input's dim order, so the k-th visited element
 * has index k, the index argmin/argmax report. Floats accumulate in long
 * double; integers in uint64 (two's-complement wrap); var/std take two
 * passes. Semantics are those of the project brief:
 *  - min/max/argmin/argmax: NaN beats every number; among equal values, or
 *    among NaNs, the lowest index wins; empty -> RT_ERR_EMPTY_REDUCTION;
 *  - mean = sum / N (NaN for N = 0); var = M2 / (N - correction), NaN when
 *    N <= correction; std = sqrt(var);
 *  - norm p: 0 counts nonzeros, 1, 2, +inf max|x|, -inf min|x| (NaN
 *    propagates through both), other p (sum |x|^p)^(1/p); empty: 0, or +inf
 *    for p < 0;
 *  - any/all: x != 0 (NaN nonzero, -0.0 zero); sum 0 / prod 1 on empty.
 */
#ifndef RT_REF_H
#define RT_REF_H

#include "rt_cases.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the implementation under test accumulates floats: the tolerances of
   rt_ref_check follow it. */
typedef enum rt_acc_model {
    RT_ACC_F64 = 0, /* every float input in binary64 (the CPU backend) */
    RT_ACC_GPU = 1  /* binary32 for f32/f16/bf16, binary64 for f64 (CUDA) */
} rt_acc_model;

/* Expected results of a case, one entry per output element in the output's
   row-major order. */
typedef struct rt_ref {
    rt_status status;   /* RT_OK or RT_ERR_EMPTY_REDUCTION */
    int64_t count;      /* output elements */
    int64_t n;          /* elements reduced into each output (N) */
    long double *value; /* exact float result (float-valued ops) */
    long double *scale; /* error scale: what accumulation error is relative to */
    uint64_t *ivalue;   /* integer/bool result before conversion (int ops,
                           any/all, min/max of ints) */
    int64_t *index;     /* winner's index (min/max/argmin/argmax) */
} rt_ref;

/* Computes the expected results. Returns 0, or -1 on allocation failure. */
int rt_ref_compute(const rt_case *c, rt_ref *r);

/* Frees r's arrays. Accepts a zeroed rt_ref. */
void rt_ref_free(rt_ref *r);

/*
 * Checks a finished call: `got` against r->status, then (on RT_OK) every
 * output element in c's host blocks against r, and that every byte of the
 * blocks outside the output elements still holds RT_CASE_POISON (after a
 * failed call: every byte). Exact for integers, bools, indices and min/max
 * (+0.0 and -0.0 compare equal there; NaN matches any NaN). Float results
 * may differ from the exact value by a tolerance that follows the
 * accumulation model and the output dtype (about one ulp of the output
 * plus the accumulation error bound); NaN must match NaN and infinities
 * must match exactly. Elements whose bytes still are the poison pattern
 * (and should not be) are reported as unwritten.
 * Returns true when all holds; otherwise false with a readable description
 * of the first mismatch (case, position, expected, got) in msg.
 */
bool rt_ref_check(const rt_case *c, const rt_ref *r, rt_status got, rt_acc_model model, char *msg,
                  size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RT_REF_H */
