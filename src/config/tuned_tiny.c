/*
 * TUNED, TINY kernel (reduce_tiny.cuh): the full reduction of a small
 * tensor, every reduced dim coalesced into one contiguous run (input
 * stride == element size) of at most RT__TINY_MAX_BYTES, to one output.
 *
 * These calls are latency: a launch, one round of loads, a block reduce.
 * They ran through the general kernel (one block of up to 512 threads) or,
 * for runs of up to 64 elements, the ROWS kernel (256 threads for one
 * row), whose size (reduce_kernel<SumOp<float>, 1>: 4384 SASS
 * instructions, CUB's single-tile kernel ~1000) and 900-byte argument
 * block the TINY kernel drops. H100, ncu (caches flushed before each
 * kernel), GPU time of f32 full sums, medians of 7-8 launches
 * (bench/NOTES.md v1.11, device run 1; v1.10 run 2 for the general kernel):
 *                   general kernel   TINY               CUB single tile
 *     256 floats    4.00-4.16 us     3.44 (32 threads)  3.46
 *     4 KB              -            3.54 (64)          4.42
 *     16 KB         4.38-4.54        3.76 (256)         3.68
 * A call of these sizes is bound by the host's launch path more than by
 * the GPU (rt_bench brackets both: 4.3-6.5 us a call, CUB 4.4-6.0, the
 * general kernel's 64 KB 6.8).
 *
 * The block: enough threads that each loads at most TINY_LOADS 16-byte
 * vectors, rounded up to whole warps: 1 KB is one warp, 16 KiB 256
 * threads x 4 vectors (CUB's single tile, 256 threads x 16 floats). Runs
 * over 16 KiB go to the STREAM kernel (tuned_stream.c) for ops whose state
 * is one number, else keep the general kernel; the TINY kernel above
 * 16 KiB is unmeasured.
 */
#include "config_policies.h"

enum {
    /* 16-byte vectors a thread loads before any fold: the general
       kernel's loads in flight for 4-byte states (reduce_ops.cuh). */
    TINY_LOADS = 4,
    TINY_VECTOR_BYTES = 16
};

bool rt__config_tuned_tiny(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, rt__launch_config *cfg) {
    if (!rt__iter_is_one_run(it))
        return false;
    const int64_t bytes = it->inputs_per_output * op->input_size;
    if (bytes > RT__TINY_MAX_BYTES)
        return false;
    const int warp = dev->warp_size;
    const int64_t vectors = rt__div_up(bytes, TINY_VECTOR_BYTES);
    int64_t threads = rt__div_up(rt__div_up(vectors, TINY_LOADS), warp) * warp;
    threads = rt__min64(rt__max64(threads, warp), RT__TINY_MAX_THREADS);

    rt__launch_config c = {0};
    c.policy = RT_POLICY_TUNED;
    c.kernel = RT__KERNEL_TINY;
    c.block[0] = (int)threads;
    c.block[1] = c.block[2] = 1;
    c.grid[0] = c.grid[1] = c.grid[2] = 1;
    c.num_threads = (int)threads;
    /* The lanes split the run (block_x_reduce); nothing else does. */
    c.input_mult[0] = 1;
    c.step_input = (int)threads;
    c.step_output = 1;
    c.ctas_per_output = 1;
    c.vectorize_input = true;
    /* (The kernel reads its op's own vectors, Op::input_vec elements:
       16 bytes for most ops.) */
    c.input_vec_size = op->input_vec_size;
    c.output_vec_size = 1;
    c.vt0 = op->vt0;
    c.max_threads = RT__TINY_MAX_THREADS;
    *cfg = c;
    return true;
}
