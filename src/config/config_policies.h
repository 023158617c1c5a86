/*
 * The policies behind rt__config_compute, private to src/config.
 * Both take arguments that rt__config_compute has already checked: non-NULL
 * pointers, an iter with work (num_outputs and inputs_per_output in
 * [1, INT32_MAX], their product too), sane traits and props.
 */
#ifndef RT_CONFIG_POLICIES_H
#define RT_CONFIG_POLICIES_H

#include "config.h"

/* Integer helpers of the policies: ceil(a / b) for b > 0, min, max. */
static inline int64_t rt__div_up(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
static inline int64_t rt__min64(int64_t a, int64_t b) {
    return a < b ? a : b;
}
static inline int64_t rt__max64(int64_t a, int64_t b) {
    return a > b ? a : b;
}

/* PyTorch 2.11's setReduceConfig, reproduced field for field (compat.c).
   Fills every field of *cfg, policy = RT_POLICY_COMPAT. Always RT_OK on
   checked arguments. */
rt_status rt__config_compat(const rt__iter *it, const rt__op_traits *op,
                            const rt__device_props *dev, rt__launch_config *cfg);

/* The rule behind COMPAT with TUNED's extensions: nd_vectorize also reads
   the contiguous fastest reduced dim of a multi-dim reduction in aligned
   vectors where its extent and every other stride allow; max_output_vec
   (1, 2 or 4) caps the adjacent outputs per thread. rt__config_compat is
   this with {false, 4}; the result's policy is COMPAT either way
   (compat.c). */
typedef struct rt__rule_options {
    bool nd_vectorize;
    int max_output_vec;
} rt__rule_options;
rt_status rt__config_pytorch_rule(const rt__iter *it, const rt__op_traits *op,
                                  const rt__device_props *dev, const rt__rule_options *opt,
                                  rt__launch_config *cfg);

/* Ours (tuned.c). Fills every field of *cfg, policy = RT_POLICY_TUNED;
   the kinds in kinds_off (RT__KIND_BIT mask) are not chosen, nor the
   rules it turns off (RT__RULE_OFF_*). */
rt_status rt__config_tuned(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, unsigned kinds_off,
                           rt__launch_config *cfg);

/* The ROWS kernel for one contiguous reduced dim of short or medium length
   (tuned_rows.c): returns true and fills every field of *cfg (policy
   TUNED, kernel RT__KERNEL_ROWS) when it takes the iter, false and leaves
   *cfg alone otherwise. kinds_off: rt__config_tuned's mask (its
   RT__RULE_OFF_ROWS_WARP bit turns the warp variant off). */
bool rt__config_tuned_rows(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, unsigned kinds_off,
                           rt__launch_config *cfg);

/* The TINY kernel for the full reduction of a small contiguous run
   (tuned_tiny.c): returns true and fills every field of *cfg (policy
   TUNED, kernel RT__KERNEL_TINY) when it takes the iter, false and leaves
   *cfg alone otherwise. */
bool rt__config_tuned_tiny(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, rt__launch_config *cfg);

/* The STREAM kernel for the full reduction of a large contiguous run
   (tuned_stream.c): returns true and fills every field of *cfg (policy
   TUNED, kernel RT__KERNEL_STREAM) when it takes the iter, false and
   leaves *cfg alone otherwise. kinds_off: RT__RULE_OFF_STREAM_DEPENDENT
   turns off the dependent fold. */
bool rt__config_tuned_stream(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, unsigned kinds_off,
                             rt__launch_config *cfg);

/* Fills the derived fields (grid, num_threads, shared_memory_bytes,
   staging_bytes, semaphore_count) from the block, mults, steps, ctas and
   vector widths already set, with PyTorch's formulas (config.c). */
void rt__config_finish(const rt__iter *it, const rt__op_traits *op, rt__launch_config *cfg,
                       int warp_size);

#endif /* RT_CONFIG_POLICIES_H */
