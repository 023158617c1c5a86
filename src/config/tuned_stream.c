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
 * threads a block, STREAM_VECTORS_PER_THREAD vectors a thread in one
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
 * flight for ~4.9 TB/s); v1.16 kept STREAM to runs of up to 64 MiB there.
 * Longer chunks a thread fix that: H200, rt_bench with the bytes a thread
 * as a probe knob, two passes, medians of 60, us (bench/NOTES.md v1.17,
 * runs 3-4; "v1.16" is STREAM at 64 bytes up to 64 MiB and rule 7's
 * chunked split above, "interleaved" PyTorch's one-wave split,
 * --kinds-off stream,chunked):
 *                 v1.16   interleaved  STREAM 64 B   128 B      256 B      512 B     CUB
 *   f32 1 MB       5.9     7.3-7.5     6.2-6.4     6.5-6.9    7.5-8.0    10.1-10.2
 *       4 MB       6.9     7.7-8.3     6.6-7.3     6.9-7.5    7.5-8.3    10.1-10.2
 *       16 MB     10.2    11.3-11.6    10.0-10.3   10.0-10.2  10.1-10.4  11.4-11.7
 *       64 MB     22.4    22.3-22.4    22.3-22.5   21.5-21.6  20.5-20.7  20.8      22.5
 *       256 MB    68.7    65.3         70.9-71.1   66.7-66.9  64.3-64.5  64.3      66.5
 *       512 MB   130.5   122.5-122.9  136.4-136.7 128.2      121.1-121.3 121.1    123.7
 *       1 GB     253.7   237.8-238.3  266.7-267.3 251.2-251.5 235.4-235.5 235.0-235.2 238.5
 *   f64 512 MB   128.5   124.0-124.3  134.3-134.8 128.2-128.9 121.6      121.7-121.9
 *   amax 512 MB  130.7   122.7-122.9  136.5-136.6 128.0-128.5 121.3-121.4 120.9-121.1
 *   i32 512 MB   134.8   126.9-127.0  139.8-140.0 129.8-130.2 128.3-128.4 129.4-129.5
 * So on GPUs that are not H100-class (rt__config_h100_class, unknown bandwidth
 * included), runs of STREAM_WIDE_MIN_BYTES and more take
 * STREAM_WIDE_BYTES_PER_THREAD, except 32-bit integers summed into 64-bit
 * states, which the interleaved split reads faster (rule 7 is H100-only too,
 * tuned.c). On the H100 the same knob (run 5, same passes) kept 64 bytes for
 * 4-byte elements (f32 sum 512 MB 174.1-174.3 at 64, 174.1-174.2 at 128,
 * 175.0-175.1 at 256, 1 GB 340.7-341.0 / 341.2-341.4 / 343.7-343.8) but f64's
 * 32-byte vectors read faster four a thread than two (512 MB 175.1-175.3 at 64
 * bytes, 174.3 at 128, 174.6 at 256: two rounds of its 2 loads in flight, and
 * half the blocks, whose 8-byte partials the last block folds in half the
 * loads), as fast as f32: so 4 vectors a thread whatever their width.
 * (Those H100 numbers are of 2 loads a round; since v1.45 the kernel keeps
 * 4 of the 32-byte vectors in flight, stream_loads_in_flight in
 * reduce_tiny.cuh, measured on the H200 only: a 128-byte thread is one
 * round of them on the H100.)
 */
#include "config_policies.h"

enum {
    /* Vectors a thread reads: the probe's 512 x 4 (8 a thread read 1 GiB
       in 341.1 us against 339.1 with 4, the grid's last blocks finishing
       later): 64 bytes of 16-byte vectors, 128 of f64's 32-byte ones. */
    STREAM_VECTORS_PER_THREAD = 4,
    /* Bytes a thread reads from STREAM_WIDE_MIN_BYTES up on GPUs that are
       not H100-class (above), in rounds of the op's loads in flight. */
    STREAM_WIDE_BYTES_PER_THREAD = 256,
    STREAM_MIN_VECTOR_BYTES = 16
};
#define STREAM_WIDE_MIN_BYTES ((int64_t)64 << 20)

/* Which block folds the partials. Each block stores its state and
   counts. Where the last block to count folds them (the old way), every
   block waits for its count's answer, an atomic's round trip through L2
   with a fence before it, holding its slot on the SM while blocks of the
   grid wait for one. Where the grid's last block folds them, the others
   count with release order and no answer (a reduction) and exit, and the
   last block, after its own chunk, waits for the count to reach the other
   blocks' number. H100, rt_bench, v1.25's count against the grid's last
   block folding, A/B builds, alternating passes, min of 200-rep medians,
   three runs (the third with this rule, which leaves 16 MB and under on
   the count), us (bench/NOTES.md v1.26):
                      last to count     grid's last
     f32 sum 64 MB    27.30-27.36       27.07-27.17    (-0.7..-0.8%)
             256 MB   90.26-90.27       90.03-90.18    (-0.1..-0.3%)
             512 MB   174.18-174.30     173.98-174.08  (-0.1..-0.2%)
             1 GiB    340.61-340.74     340.38-340.42  (-0.1%)
     i32 sum 512 MB   176.26-176.35     175.62-175.68  (-0.4%)
     bf16 sum 512 MB  174.27-174.34     174.08-174.14  (-0.1%)
     amax 512 MB      174.16-174.27     173.98-174.05  (-0.1..-0.2%)
     f64 sum 512 MB   174.30-174.40     174.37-174.40  (8192 blocks: none)
   Grids of one wave or less (16 MB and under for f32) moved -8..+4% both
   ways run to run (launch-bound). They cannot gain (every block runs at
   once, none waits for a slot) and the last block learns of the last
   count one poll of L2 later than the block that made it, so they keep
   the count: the grid's last block folds only grids of more blocks than
   a wave of 512-thread blocks at the SMs' thread limit, which no GPU's
   registers can exceed (config.c has checked that the device has SMs and
   threads). */
static int64_t fold_last_min_blocks(const rt__device_props *dev, int64_t threads) {
    return (int64_t)dev->num_sms * (dev->max_threads_per_sm / threads);
}

/* How the grid's last block learns that the others are done, for double
   states (stream_slots). Where it polls the count, it folds every
   partial after the last block has counted: two rounds of loads (8192
   f64 partials, 4 packs of 16 bytes a thread at a time) and the block
   reduction, on the launch's critical path. With slots, each block stores
   its state as a word that is never 0 (its bits XOR a NaN pattern no
   stored state keeps) and exits, with no fence and no count; the last
   block folds the slots already filled while the grid's last blocks
   still read, each thread in the count's order (packs t, t + T, ...),
   waiting only at a slot still 0, so after the last store only that
   slot's load and the block reduction remain (the order as the count's,
   so the same bits; groups of slots, below, fold in an order of their own).
   H100, var_rows.py through the library (sums over dim 1 of [1, n]
   tensors, an event pair a call, median of 100, A/B builds in
   alternating passes), us (bench/NOTES.md v1.33):
                               count          slots          stores only
     f64 2^26, runs 4-5      174.30-174.69  173.79-174.14  172.96-173.15 (run 1)
     f64 2^26, run 6         174.38-174.69  174.00-174.13
     f64 8191 x 8192 - 1     174.74-175.01  174.02-174.21
     f32 2^27, runs 4-5      173.79-174.05  173.82-174.32  172.10-172.27 (run 1)
     bf16 2^28, runs 4-5     173.94-174.21  173.73-174.02
   ("stores only": no count and no fold, a wrong output: the bound.) The
   slot kernel takes 44-48 registers where the count's took 40, so 2
   blocks of 512 a SM instead of 3, and that is part of it: bound to 3
   (40 registers, no spill) the slots read 174.66-174.75 (run 6), and the
   count with 8 fold loads at once (45 registers) 174.08-174.21 against
   174.18-174.50 (run 2). The 4-byte float states (f32, bf16 and f16
   sums) took slots of their own NaN pattern in runs 4-5 at 32 registers
   and did not gain, so they keep the count; integer states have no bit
   pattern to spare. H100-class GPUs only: the H200 was not measured. */
static bool stream_slots(const rt__op_traits *op, const rt__device_props *dev, bool fold_last) {
    return fold_last && op->slot_state && rt__config_h100_class(dev);
}

/* Who folds the slots. The grid's last block folding them all after its
   own chunk pulls 8 bytes a block through one SM while the memory system
   is still full: 64 KiB at 512 MiB of f64, 128 KiB at 1 GiB, and the last
   block's time after its chunk grows with them (half-size chunks, twice
   the slots: 2^26 173.97-174.08 -> 176.18-176.48 us). So the slots come in
   groups of STREAM_SLOT_GROUP_MIN (a pack of two a thread, one load), and
   the block a delay after group g's last (the blocks a wave holds at the
   SMs' thread limit, fold_last_min_blocks) folds group g into a word of
   its own once its own chunk is read: long filled by then, those slots
   cost it one load a thread and a block reduction. The grid's
   last block folds those words and the last group or two, one load a
   thread and one word each. H100, var_rows.py through the library (as
   above, 3-4 alternating passes, runs 3-4 of bench/NOTES.md v1.34), us:
                                one folder      groups, delay 528   delay 264
     f64 2^26 (8192 blocks)     173.95-174.22   173.63-174.06       173.70-173.97
     f64 2^27 (16384 blocks)    341.54-341.87   340.59-340.80       340.48-340.64
     f64 67100671 (8191)        174.02-174.37   174.35-174.59       174.22-174.43
     f64 13926405 (1701)        41.18-42.05     41.86-42.05         41.47-41.95
   (one round of 2 vectors a thread instead of 4 lost even with groups:
   2^26 174.10-174.56; 3 a thread 175.74-176.00.) The fold that is left on
   the last block's path is bounded at any size: more groups than SMs less
   one would let waiting folders fill the GPU, so past that the groups
   grow instead, and a block still waits only for blocks of lower index,
   which have stored their own slot before they wait for anything. */
enum { STREAM_SLOT_GROUP_MIN = 2 * RT__STREAM_THREADS };

/* The dependent fold (stream_dependent). A block that publishes its
   state with release order holds its slot on the SM until the partial's
   store is acknowledged, through an L2 full of the grid's reads, and the
   grid's last block folds after its own chunk: both on the launch's
   critical path. With the fold in a kernel of its own, launched as the
   grid's programmatic dependent (each block lets it launch as it
   starts), each block stores its state with a plain store and exits, as
   a one-shot read does, and the fold waits in griddepcontrol.wait only
   for the grid's end. H200, bench/pdl_probe.cu: full sums of 512 MiB as
   a grid of plain partials and a one-block fold (8 packs of 16 bytes a
   thread in flight), against the library's STREAM kernel (the grid's
   last block polling the count) and a one-shot read that folds nothing,
   4 slots rotated, medians of 100, 4 passes, us (bench/NOTES.md v1.46,
   run 3):
                            f32             f64
     library, count         123.33-123.46   123.10-123.20   (256 B a thread)
     two kernels, plain     123.49-123.68   124.48-124.54   (64 B)
     dependent, 64 B        122.46-122.72   123.39-123.46
     dependent, 128 B       122.43-122.50   122.75-122.94
     dependent, 256 B       122.50-122.56   123.17-123.26
     one-shot read, no fold 121.06-121.12
   (the probe's threads read 16-byte vectors in rounds of 4.) In the
   library the gain is smaller but for f64: H200, rt_bench, this rule on
   against `--kinds-off stream-dependent` (256 bytes a thread, the grid's
   last block folding), two alternating passes, medians of 100, us
   (bench/NOTES.md v1.46, run 5):
                         on              off
     f32 sum 2^27        123.30-123.49   123.38-123.63
     f64 sum 2^26        122.83-122.99   123.18-123.33
     bf16 sum 2^28       123.50-123.71   123.38-123.63
     amax 2^27           123.17-123.49   123.30-123.52
     f32 sum 256 MiB     65.28-65.50     65.66-65.70
     f32 sum 1 GiB       238.85-239.02   238.99-239.30
   So grids over a wave on GPUs with dependent launch that are not
   H100-class (where the slots and the count were measured; the dependent
   fold was not) take it, at STREAM_DEPENDENT_BYTES_PER_THREAD, where the
   wide chunks apply (64 MiB and more, the runs measured). */
enum { STREAM_DEPENDENT_BYTES_PER_THREAD = 128 };

static bool stream_dependent(const rt__device_props *dev, bool wide, unsigned kinds_off) {
    return wide && dev->dependent_launch && !(kinds_off & RT__RULE_OFF_STREAM_DEPENDENT);
}

static int64_t stream_slot_group(const rt__device_props *dev, int64_t blocks) {
    const int64_t most_groups = dev->num_sms > 1 ? dev->num_sms - 1 : 1;
    return rt__div_up(rt__div_up(blocks, most_groups), STREAM_SLOT_GROUP_MIN) *
           STREAM_SLOT_GROUP_MIN;
}

bool rt__config_tuned_stream(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, unsigned kinds_off,
                             rt__launch_config *cfg) {
    const int64_t elem = op->input_size;
    if (!rt__iter_is_one_run(it))
        return false;
    if (op->indexed || op->row_lanes <= dev->warp_size)
        return false;
    const int64_t n = it->inputs_per_output;
    if (n * elem <= RT__TINY_MAX_BYTES)
        return false;
    const bool wide = !rt__config_h100_class(dev) && n * elem >= STREAM_WIDE_MIN_BYTES;
    if (wide && elem == 4 && op->acc_size == 8)
        return false; /* 4-byte inputs into 8-byte states: 32-bit integer sums, products */
    /* The kernel reads the op's own vectors (input_vec_size elements), 4
       a thread, or as many as make STREAM_WIDE_BYTES_PER_THREAD: 16 of 16
       bytes, 8 of f64's 32. Ops on 1- and 2-byte inputs whose vectors are
       narrower (byte sums, min/max of 8- and 16-bit integers: 4 elements)
       would take 2 loads in flight at a time: unmeasured, so they keep
       the general kernel. The vectors start at the first aligned element,
       so a head off the boundary can leave one vector fewer than n / V:
       rounding up covers them either way. */
    const int64_t vec_bytes = (int64_t)op->input_vec_size * elem;
    if (vec_bytes < STREAM_MIN_VECTOR_BYTES)
        return false;
    int64_t per_thread =
        wide ? STREAM_WIDE_BYTES_PER_THREAD / vec_bytes : STREAM_VECTORS_PER_THREAD;
    const int64_t threads = RT__STREAM_THREADS;
    const int64_t units = rt__div_up(n, op->input_vec_size);
    int64_t blocks = rt__div_up(units, threads * per_thread);
    const bool over_wave = blocks > fold_last_min_blocks(dev, threads);
    const bool dependent = over_wave && stream_dependent(dev, wide, kinds_off);
    if (dependent) {
        per_thread = STREAM_DEPENDENT_BYTES_PER_THREAD / vec_bytes; /* vectors: 16 or 32 bytes */
        blocks = rt__div_up(units, threads * per_thread);
    }
    const int64_t chunk = threads * per_thread;
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
    /* A partial per block and one count, when blocks must be folded (no
       count for the dependent fold); or a slot of two ints per block and
       per group (stream_slots). */
    c.stream_dependent = dependent;
    c.stream_fold_last = over_wave && !dependent;
    c.stream_slots = stream_slots(op, dev, c.stream_fold_last);
    c.staging_bytes = blocks > 1 && !c.stream_slots ? blocks * op->acc_size : 0;
    c.semaphore_count = blocks > 1 && !dependent ? 1 : 0;
    if (c.stream_slots) {
        c.stream_slot_group = stream_slot_group(dev, blocks);
        c.stream_slot_delay = fold_last_min_blocks(dev, threads);
        c.semaphore_count = 2 * (blocks + rt__div_up(blocks, c.stream_slot_group));
    }
    *cfg = c;
    return true;
}
