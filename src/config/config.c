/*
 * rt__config_compute: checks its arguments, runs the chosen policy, and
 * checks that the result can launch on the device. The derived fields
 * (grid, shared memory, staging, semaphores) are computed here once, with
 * PyTorch's formulas, for every policy.
 */
#include <stdint.h>

#include "config_policies.h"

bool rt__config_block_x_reduce(const rt__launch_config *c) {
    return c->input_mult[0] != 0;
}

bool rt__config_block_y_reduce(const rt__launch_config *c) {
    return c->input_mult[1] != 0;
}

bool rt__config_global_reduce(const rt__launch_config *c) {
    return c->input_mult[2] != 0;
}

int64_t rt__config_input_units(const rt__iter *it, const rt__launch_config *c) {
    return c->vectorize_input ? rt__div_up(it->inputs_per_output, c->input_vec_size)
                              : it->inputs_per_output;
}

int rt__config_kernel_threads(const rt__op_traits *op, int ovs) {
    const int slot = ovs == 4 ? 2 : ovs == 2 ? 1 : 0;
    return op->kernel_threads[slot] > 0 ? op->kernel_threads[slot] : 512 / ovs;
}

bool rt__config_h100_class(const rt__device_props *dev) {
    return dev->mem_gbps > 0 && dev->mem_gbps <= RT__H100_CLASS_MAX_GBPS;
}

void rt__config_finish(const rt__iter *it, const rt__op_traits *op, rt__launch_config *c,
                       int warp_size) {
    c->num_threads = c->block[0] * c->block[1];
    c->grid[0] = (int)rt__div_up(it->num_outputs / c->output_vec_size, c->step_output);
    c->grid[1] = c->ctas_per_output;
    c->grid[2] = 1;

    /* PyTorch's shared_memory_size: a slot per thread and output when warps
       combine through shared memory (block_y_reduce), or lanes of a block
       wider than a warp do (block_x_reduce above warp_size); a reduce within
       one warp uses shuffles only. */
    bool lanes_need_smem = rt__config_block_x_reduce(c) && c->block[0] > warp_size;
    if (rt__config_block_y_reduce(c) || lanes_need_smem)
        c->shared_memory_bytes = op->acc_size * c->num_threads * c->output_vec_size;
    else
        c->shared_memory_bytes = 0;

    /* Global reduce: each block stores output_vec_size partials per storing
       thread at staging slot (blockIdx.y + blockIdx.x * grid.y), times
       block.x plus threadIdx.x when the lanes own separate outputs
       (PyTorch's staging_memory_offset). This is the exact extent of that
       layout; PyTorch's global_memory_size allocates a looser bound
       (num_outputs * ctas_per_output * block.x * output_vec_size slots). */
    if (rt__config_global_reduce(c)) {
        int64_t slots = (int64_t)c->grid[0] * c->grid[1];
        if (!rt__config_block_x_reduce(c))
            slots *= c->block[0];
        c->staging_bytes = slots * c->output_vec_size * op->acc_size;
        c->semaphore_count = c->grid[0];
    } else {
        c->staging_bytes = 0;
        c->semaphore_count = 0;
    }
}

static bool is_pow2(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

/* COMPAT needs blocks of up to 512 threads; a warp wider than that, or a
   device without SMs, cannot be planned for. */
static bool props_ok(const rt__device_props *d) {
    return d->num_sms >= 1 && d->max_threads_per_sm >= 1 && is_pow2(d->warp_size) &&
           d->warp_size <= 512 && d->max_threads_per_block >= 512 && d->shared_mem_per_block >= 0;
}

static bool traits_ok(const rt__op_traits *t) {
    return is_pow2(t->input_size) && t->input_size <= 8 && t->output_size >= 1 &&
           t->acc_size >= 1 && t->vt0 >= 1 && t->input_vec_size >= 1 && t->noutputs >= 1 &&
           t->noutputs <= 2;
}

static bool iter_shape_ok(const rt__iter *it, const rt__op_traits *op) {
    if (it->ndim < 0 || it->ndim > RT_MAX_DIMS || it->num_reduce_dims < 0 ||
        it->num_reduce_dims > it->ndim)
        return false;
    /* The traits must describe the input the iter walks. */
    return it->elem_size[RT__ITER_IN] == 0 || it->elem_size[RT__ITER_IN] == op->input_size;
}

rt_status rt__config_compute(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, rt_policy policy,
                             rt__launch_config *cfg) {
    return rt__config_compute_without(it, op, dev, policy, 0, cfg);
}

rt_status rt__config_compute_without(const rt__iter *it, const rt__op_traits *op,
                                     const rt__device_props *dev, rt_policy policy,
                                     unsigned kinds_off, rt__launch_config *cfg) {
    RT_RETURN_IF(it == NULL || op == NULL || dev == NULL || cfg == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(policy != RT_POLICY_COMPAT && policy != RT_POLICY_TUNED, RT_ERR_BAD_ARGUMENT);
    RT_RETURN_IF(!props_ok(dev) || !traits_ok(op) || !iter_shape_ok(it, op), RT_ERR_BAD_ARGUMENT);
    /* No work, or more than one 32-bit piece: the executor's job, so
       reaching here is a bug in the caller. */
    RT_RETURN_IF(it->num_outputs <= 0 || it->inputs_per_output <= 0, RT_ERR_INTERNAL);
    RT_RETURN_IF(it->num_outputs > INT32_MAX / it->inputs_per_output, RT_ERR_INTERNAL);

    rt__launch_config c;
    if (policy == RT_POLICY_COMPAT)
        RT_FORWARD_IF_ERROR(rt__config_compat(it, op, dev, &c));
    else
        RT_FORWARD_IF_ERROR(rt__config_tuned(it, op, dev, kinds_off, &c));

    RT_RETURN_IF(c.num_threads > dev->max_threads_per_block, RT_ERR_BAD_ARGUMENT);
    RT_RETURN_IF(c.shared_memory_bytes > dev->shared_mem_per_block, RT_ERR_BAD_ARGUMENT);
    *cfg = c;
    return RT_OK;
}
