/*
 * The TUNED policy: ours, chosen per shape class by measurement on the GPU
 * (DESIGN.md section 7; bench/NOTES.md will hold the numbers).
 *
 * For now it is exactly COMPAT: no measurement has been made yet, and a
 * choice without one would be a guess. The performance work replaces this
 * body with measured choices (new rt__kernel_kind values included), each
 * carrying its measurement in a comment. Until then only `policy` differs,
 * so callers and rt_explain can already tell which policy produced a config.
 */
#include "config_policies.h"

rt_status rt__config_tuned(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, rt__launch_config *cfg) {
    if (rt__config_tuned_rows(it, op, dev, cfg))
        return RT_OK;
    RT_FORWARD_IF_ERROR(rt__config_compat(it, op, dev, cfg));
    cfg->policy = RT_POLICY_TUNED;
    return RT_OK;
}
