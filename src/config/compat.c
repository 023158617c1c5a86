/*
 * The COMPAT policy: PyTorch 2.11's setReduceConfig (Reduce.cuh, CUDA
 * branch, no ROCm changes), rewritten in C and checked case by case against
 * the launches PyTorch 2.11 made on an H200
 * (tests/data/torch_reduce_configs.jsonl, tests/test_config.c).
 *
 * Vocabulary (PyTorch's): the "input" of a thread is the reduced index
 * (0 .. inputs_per_output), its "output" the kept index (0 .. num_outputs).
 * split_input(n) / split_output(n) hand the next level of parallelism
 * (lanes, warps, blocks) to the reduced or the kept index: the level's
 * multiplier becomes the current step, and the step grows n times.
 */
#include <stdint.h>

#include "config_policies.h"

/* PyTorch's limits: 512 threads per block for every non-complex-double
   type (mnt_wrapper), and the values-per-thread thresholds of the warp and
   block splits. */
enum {
    COMPAT_MAX_NUM_THREADS = 512,
    MIN_VALUES_PER_THREAD = 16,
    MAX_VALUES_PER_THREAD = 256,
    MAX_OUTPUT_VEC_SIZE = 4
};

/* The largest power of two <= n, and 1 for n < 1 (PyTorch's last_pow2). */
static int last_pow2(int64_t n) {
    int p = 1;
    while (n >= 2 * (int64_t)p)
        p *= 2;
    return p;
}

static int split_input(rt__launch_config *c, int parallelism) {
    int step = c->step_input;
    c->step_input *= parallelism;
    return step;
}

static int split_output(rt__launch_config *c, int parallelism) {
    int step = c->step_output;
    c->step_output *= parallelism;
    return step;
}

static int64_t values_per_thread(const rt__launch_config *c, int64_t inputs_per_output) {
    return rt__div_up(inputs_per_output, c->step_input);
}

/* Halves vec until it divides n. */
static int shrink_vec(int vec, uint64_t n) {
    while (n % (uint64_t)vec != 0)
        vec /= 2;
    return vec;
}

/* PyTorch's get_output_vec_size: max_vec (PyTorch: 4) adjacent outputs per
   thread, halved
   until the width divides the input's address (in elements), the extent of
   the fastest kept dim, and every input stride (in elements) other than
   that dim's, so each vector load is aligned. As in PyTorch
   (int64_t / size_t), a negative stride is divided as the unsigned 64-bit
   number it converts to. */
static int output_vec_size(const rt__iter *it, int input_size, int max_vec) {
    const uint64_t elem = (uint64_t)input_size;
    int r = it->num_reduce_dims;
    int vec = max_vec;
    vec = shrink_vec(vec, (uint64_t)(uintptr_t)it->data[RT__ITER_IN] / elem);
    vec = shrink_vec(vec, (uint64_t)it->shape[r]);
    for (int d = 0; d < it->ndim; d++) {
        if (d != r)
            vec = shrink_vec(vec, (uint64_t)it->strides[RT__ITER_IN][d] / elem);
    }
    return vec;
}

/* PyTorch's set_block_dimension: block.x as wide as dim0 allows up to a
   warp, block.y as tall as dim1 allows, then block.x widened into what is
   left of max_threads. */
static void set_block_dimension(rt__launch_config *c, int64_t dim0, int64_t dim1, int warp_size) {
    int max_threads = c->max_threads;
    int dim0_pow2 = dim0 < max_threads ? last_pow2(dim0) : max_threads;
    int dim1_pow2 = dim1 < max_threads ? last_pow2(dim1) : max_threads;
    int width = dim0_pow2 < warp_size ? dim0_pow2 : warp_size;
    int height = dim1_pow2 < max_threads / width ? dim1_pow2 : max_threads / width;
    width = dim0_pow2 < max_threads / height ? dim0_pow2 : max_threads / height;
    c->block[0] = width;
    c->block[1] = height;
    c->block[2] = 1;
    c->num_threads = width * height;
}

static void init_config(rt__launch_config *c, const rt__op_traits *op) {
    *c = (rt__launch_config){0};
    c->policy = RT_POLICY_COMPAT;
    c->kernel = RT__KERNEL_GENERAL;
    c->step_input = 1;
    c->step_output = 1;
    c->ctas_per_output = 1;
    c->output_vec_size = 1;
    c->input_vec_size = op->input_vec_size;
    c->vt0 = op->vt0;
}

/* Whether the contiguous fastest reduced dim of a multi-dim reduction can
   be read in aligned vectors that never straddle a row of it: its extent
   in bytes, the input base and every other input stride are multiples of
   RT__ND_VEC_BYTES, the widest vector any kernel reads, so whatever width
   the kernel's op uses fits (TUNED only; PyTorch vectorizes a single
   reduced dim alone). */
static bool nd_vectorizable(const rt__iter *it, int input_size) {
    return it->num_reduce_dims >= 2 && (it->shape[0] * input_size) % RT__ND_VEC_BYTES == 0 &&
           rt__iter_input_aligned(it, RT__ND_VEC_BYTES, 0);
}

rt_status rt__config_compat(const rt__iter *it, const rt__op_traits *op,
                            const rt__device_props *dev, rt__launch_config *c) {
    const rt__rule_options pytorch = {false, MAX_OUTPUT_VEC_SIZE};
    return rt__config_pytorch_rule(it, op, dev, &pytorch, c);
}

rt_status rt__config_pytorch_rule(const rt__iter *it, const rt__op_traits *op,
                                  const rt__device_props *dev, const rt__rule_options *opt,
                                  rt__launch_config *c) {
    const int64_t num_outputs = it->num_outputs;
    const int64_t inputs_per_output = it->inputs_per_output;
    const int r = it->num_reduce_dims;
    const int64_t *in_strides = it->strides[RT__ITER_IN];
    init_config(c, op);

    /* Map block.x to the input's fastest-moving dim: the reduced one
       (lanes then cooperate on one output) or a kept one (lanes own
       separate outputs). dim0/dim1 only bound the block's extents. */
    bool fastest_reduced;
    int64_t dim0, dim1, fastest_stride;
    if (it->ndim > 0) {
        fastest_reduced = r == it->ndim || in_strides[0] < in_strides[r];
        dim0 = fastest_reduced ? inputs_per_output : num_outputs;
        dim1 = fastest_reduced ? num_outputs : inputs_per_output;
        fastest_stride = fastest_reduced ? in_strides[0] : in_strides[r];
    } else {
        fastest_reduced = true;
        fastest_stride = op->input_size;
        dim0 = 1;
        dim1 = 1;
    }

    /* Vector loads need a unit stride along the mapped dim. Along the
       reduced dim (one output per vector) PyTorch wants more than 128
       values, a single reduced dim, and vt0 >= input_vec_size (register
       pressure). Across outputs it takes 1, 2 or 4 adjacent outputs. */
    if (fastest_stride == op->input_size) {
        if (fastest_reduced && dim0 > 128 && op->vt0 >= op->input_vec_size &&
            (r == 1 || (opt->nd_vectorize && nd_vectorizable(it, op->input_size)))) {
            c->vectorize_input = true;
            dim0 /= op->input_vec_size;
        } else if (!fastest_reduced) {
            c->output_vec_size = output_vec_size(it, op->input_size, opt->max_output_vec);
            dim0 /= c->output_vec_size;
        }
    }
    c->max_threads = COMPAT_MAX_NUM_THREADS / c->output_vec_size;
    set_block_dimension(c, dim0, dim1, dev->warp_size);

    /* Lanes split the reduced index when it is the fastest dim (a warp
       shuffle, plus shared memory above one warp), otherwise the outputs. */
    if (it->ndim == 0 || fastest_reduced)
        c->input_mult[0] = split_input(c, c->block[0]);
    else
        c->output_mult[0] = split_output(c, c->block[0]);

    /* Warps split the reduced index too when each thread still has at
       least 16 values per warp row (capped at 256); otherwise each warp row
       owns separate outputs. */
    int64_t warp_split_threshold = rt__min64((int64_t)c->block[1] * 16, MAX_VALUES_PER_THREAD);
    if (values_per_thread(c, inputs_per_output) >= warp_split_threshold)
        c->input_mult[1] = split_input(c, c->block[1]);
    else
        c->output_mult[1] = split_output(c, c->block[1]);

    /* Blocks split the reduced index (a global reduce through staging
       memory) when threads would still see >= 256 values and the outputs
       alone do not fill one wave of blocks. ctas_per_output aims at one
       full wave but leaves each thread >= 16 values, and never more than
       256. */
    int64_t blocks_per_sm = dev->max_threads_per_sm / c->num_threads;
    int64_t target_grid_size = (int64_t)dev->num_sms * blocks_per_sm;
    int64_t grid_x = rt__div_up(num_outputs / c->output_vec_size, c->step_output);
    int64_t vpt = values_per_thread(c, inputs_per_output);
    if (c->input_mult[1] != 0 && vpt >= MAX_VALUES_PER_THREAD && grid_x <= target_grid_size) {
        int64_t ctas1 = rt__div_up(target_grid_size, grid_x);
        int64_t ctas2 = rt__div_up(vpt, MIN_VALUES_PER_THREAD);
        int64_t ctas3 = rt__div_up(vpt, MAX_VALUES_PER_THREAD);
        c->ctas_per_output = (int)rt__max64(rt__min64(ctas1, ctas2), ctas3);
        if (c->ctas_per_output > 1)
            c->input_mult[2] = split_input(c, c->ctas_per_output);
    }

    rt__config_finish(it, op, c, dev->warp_size);
    return RT_OK;
}
