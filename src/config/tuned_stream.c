/*
 * TUNED, STREAM kernel (reduce_tiny.cuh): the full reduction of a large
 * contiguous run (every reduced dim coalesced into one, input stride ==
 * element size, over RT__TINY_MAX_BYTES) to one output, for ops whose
 * state is one number folded like a sum (row_lanes above a warp: sum,
 * prod, mean, min/max without indices, the p = 2 norm; TUNED rule 7's
 * set).
 *
 * The general kernel runs these as a chunked block split (tuned.c rule
 * 7): 512-thread blocks of 8 vectors a thread, 16384 of them for 1 GiB,
 * and the last block folds their partials. A one-shot grid of blocks that
 * each read one round of loads and exit reads faster, and the general
 * kernel spends ~1.7 us of a 1 GiB sum around the same loads and fold:
 * H100, bench/fold_probe.cu (bench/NOTES.md v1.6, run 13), f32 full sums
 * back to back, us:
 *                        4 MB   64 MB  256 MB  512 MB    1 GB
 *   raw read, 512 x 4    8.16   25.66   88.29  171.90  339.07
 *   the same + fold      7.10   27.46   90.37  174.50  341.73
 *   library (general)    8.58   28.90   91.71  175.46  343.36
 *   CUB                 14.94   28.83   93.28  178.21  349.73
 * ("raw read": each block writes its partial and nothing folds them;
 * "+ fold": an acq_rel count and a coalesced fold by the last block.)
 * This kernel is that shape with the library's ops: RT__STREAM_THREADS
 * threads a block, STREAM_BYTES_PER_THREAD of vectors a thread in one
 * round, ~90 bytes of arguments instead of ~900, no offset calculators,
 * and a last-block fold that loads 16-byte packs of partials. Measured
 * against the general kernel's chunked split on the same calls (H100,
 * rt_bench --kinds-off stream, alternating, two passes each, medians of
 * 100, us; bench/NOTES.md v1.13):
 *                       general          STREAM
 *   f32 sum 256 KB      6.69-7.23       5.82-6.85
 *           1 MB        6.94-7.42       6.53-6.77
 *           4 MB        8.58-8.77       7.06-7.54
 *           16 MB      12.86-13.01     11.68-11.78
 *           64 MB      28.29-28.80     27.42-27.49
 *           256 MB     91.78-91.81     90.24-90.40
 *           512 MB    175.76-175.78   174.24-174.24
 *           1 GB      343.12-343.15   340.75-340.94
 *   amax 512 MB       175.73-175.82   173.81-174.26
 *   bf16 sum 512 MB   175.97-176.00   174.34-174.40
 *   f64 sum 512 MB    177.79-177.82   175.26-175.28
 *   i32 sum 512 MB    181.02-181.18   176.32-176.42
 * (64 KB: 5.89-6.16 against 5.70-6.93, within the launch noise there.)
 * On an H200 the same shape lost (rt_bench against --kinds-off stream, two
 * passes, v1.16 run 11, us; general first):
 *   f32 sum 2^27 130.5-131.1 / 136.0-136.7   1 GB  254.0-254.4 / 267.0-267.4
 *           256 MB 68.7-69.1 / 71.2-71.4     64 MB  23.6-23.7 / 22.9-23.1
 *   f64 128.3-128.7 / 134.1-134.3   bf16 130.8-131.0 / 136.9-137.3
 *   i32 134.9-135.3 / 139.4-139.9   amax 131.1-131.2 / 136.5-136.9
 * (one round of 4 loads a thread, then the block exits: too few bytes in
 * flight for ~4.9 TB/s). Below that it still won: the same H200, full
 * gpu-checks before and after a gate at every size (v1.16 runs 10 and 12,
 * rt_bench from C, us, STREAM / general): 4 MB 7.22 / 8.38, 16 MB 10.26 /
 * 11.55, 64 MB 22.53 / 22.14 (run 11: 22.9-23.1 / 23.6-23.7), 256 MB
 * 70.93 / 68.03. So on GPUs that are not H100-class (rt__config_h100_class,
 * unknown bandwidth included) runs of up to STREAM_OTHER_MAX_BYTES only.
 * (The combined rule was not re-run on the H200: each side of the line is
 * the configuration measured there.)
 */
#include "config_policies.h"

enum {
    /* Bytes of vectors a thread reads: four 16-byte loads in flight, the
       probe's 512 x 4 (one round: 8 a thread read 1 GiB in 341.1 us
       against 339.1 with 4, the grid's last blocks finishing later). */
    STREAM_BYTES_PER_THREAD = 64,
    STREAM_MIN_VECTOR_BYTES = 16
};
/* The longest run STREAM takes on a GPU that is not H100-class (above). */
#define STREAM_OTHER_MAX_BYTES ((int64_t)64 << 20)

bool rt__config_tuned_stream(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, rt__launch_config *cfg) {
    const int64_t elem = op->input_size;
    if (!rt__iter_is_one_run(it))
        return false;
    if (op->indexed || op->row_lanes <= dev->warp_size)
        return false;
    const int64_t n = it->inputs_per_output;
    if (n * elem <= RT__TINY_MAX_BYTES)
        return false;
    if (!rt__config_h100_class(dev) && n * elem > STREAM_OTHER_MAX_BYTES)
        return false;
    /* The kernel reads the op's own vectors (input_vec_size elements); a
       thread takes as many as make its bytes: 4 of 16 bytes, 2 of f64's
       32. Ops on 1- and 2-byte inputs whose vectors are narrower (byte
       sums, min/max of 8- and 16-bit integers: 4 elements) would take
       8-16 a thread, 2 loads in flight at a time: unmeasured, so they
       keep the general kernel. The vectors start at the first aligned
       element, so a head off the boundary can leave one vector fewer than
       n / V: rounding up covers them either way. */
    const int64_t vec_bytes = (int64_t)op->input_vec_size * elem;
    if (vec_bytes < STREAM_MIN_VECTOR_BYTES)
        return false;
    const int64_t per_thread = rt__max64(1, STREAM_BYTES_PER_THREAD / vec_bytes);
    const int64_t threads = RT__STREAM_THREADS;
    const int64_t chunk = threads * per_thread;
    const int64_t units = rt__div_up(n, op->input_vec_size);
    const int64_t blocks = rt__div_up(units, chunk);
    if (blocks > INT32_MAX)
        return false;

    rt__launch_config c = {0};
    c.policy = RT_POLICY_TUNED;
    c.kernel = RT__KERNEL_STREAM;
    c.block[0] = (int)threads;
    c.block[1] = c.block[2] = 1;
    c.grid[0] = (int)blocks;
    c.grid[1] = c.grid[2] = 1;
    c.num_threads = (int)threads;
    /* Lanes split a block's chunk (block_x_reduce), blocks split the run
       in chunks of `chunk` vectors (global reduce when there are several). */
    c.input_mult[0] = 1;
    c.input_mult[2] = blocks > 1 ? (int)chunk : 0;
    c.step_input = (int)threads;
    c.step_output = 1;
    c.ctas_per_output = (int)blocks;
    c.input_chunked = blocks > 1;
    c.vectorize_input = true;
    c.input_vec_size = op->input_vec_size;
    c.output_vec_size = 1;
    c.vt0 = op->vt0;
    c.max_threads = RT__STREAM_THREADS;
    /* A partial per block and one count, when blocks must be folded. */
    c.staging_bytes = blocks > 1 ? blocks * op->acc_size : 0;
    c.semaphore_count = blocks > 1 ? 1 : 0;
    *cfg = c;
    return true;
}
