/*
 * TUNED, ROWS kernel (reduce_rows.cuh): the reduced dims coalesce into one
 * contiguous dim (input stride == element size) of short or medium length.
 * PyTorch's shape for these spends a warp and a shuffle tree per row of L
 * elements and reaches 11-38% of the read ceiling for L <= 129 (H200,
 * bench/NOTES-rows.md: [2^22,32] sum dim 1 1148 us, [528416,127] 171 us).
 *
 * Five variants, each with the measurement that chose it in bench/NOTES-rows.md
 * (the warp variant in bench/NOTES.md v1.14-v1.15):
 *  - short: rows of up to 8 elements, or of one aligned 16-byte vector,
 *    packed or sliced: a thread per row, the whole row loaded at once
 *    (scalar loads that L1 merges, or the one vector).
 *  - tile: longer packed rows (pitch == L) of up to 2 KiB, any number of
 *    rows: a block copies its rows into shared memory with aligned 16-byte
 *    loads and a thread (or a group of lanes, for long rows) folds each
 *    row, so the loads are coalesced and 16 bytes wide for odd lengths
 *    (33, 127, 129) too; rows of 128 bytes in half tiles on H100-class
 *    GPUs.
 *  - direct: a group of G lanes per row, 16-byte loads when every row start
 *    is aligned, 2 to 8 rows per group in flight, for rows up to
 *    2048 elements when there are enough of them to fill the GPU, and for
 *    rows of 9-64 elements that are not packed (sliced views).
 *  - warp: rows of 97-160 4-byte elements, packed or not, for one-number
 *    states, on GPUs of known DRAM bandwidth: a warp on 4 rows, every
 *    scalar load of the 4 rows at once; blocks of one warp, or of two for
 *    rows shorter than ~118 on an H100 and every length on an H200
 *    (ROWS_WARP_BLOCK_RATE_X10).
 *  - block: rows of 2-32 KiB, any pitch or alignment, when there are
 *    enough of them for a few waves: a block of 128-512 threads per row,
 *    each thread loading its (up to) four 16-byte vectors at once (sums
 *    and means of aligned rows on H100-class GPUs: twice the threads at
 *    two vectors, var and std too); two rows a block for aligned rows up
 *    to 12 KiB that leave a partial batch; var and std of aligned rows of
 *    whole vectors, a row or two a block: two passes over the registers,
 *    one block reduction.
 */
#include "config_policies.h"

/* Longest row the direct kernel takes: a warp per row folds 2048 floats in
   16 loads per lane; longer rows go to the block kernel (rows_block) when
   there are many, else to the general kernel's block splits. Rows of
   1000 floats take the block kernel too (the same speed a row a block,
   v1.7; 9% faster two rows a block, v1.8). Direct, H200, [67108,1000] f32
   sum dim 1 (4000-byte rows, no tile): compat 72.7 -> 71.3 us (88% of the
   read ceiling; eager 75.1). */
enum { ROWS_MAX_LEN = 2048, ROWS_THREADS = 256 };
/* Rows up to this length take the direct kernel whatever their number
   (sliced short rows); longer ones only when they fill the GPU. */
enum { ROWS_SHORT_LEN = 64 };
/* Packed rows up to 2 KiB go through the tile (8 rows at the least). */
enum { ROWS_TILE_MAX_ROW_BYTES = 2048 };
/* One tile: up to 18 KiB over 128 threads is one batch of 9 16-byte loads
   per thread (reduce_rows.cuh kTileBatch), and 12 tiles per SM (228 KiB)
   keep ~190 KB in flight; 128 rows of 33 floats (16.5 KiB) fit.
   H200, f32 sum dim 1 (compat -> this tile, bench/NOTES-rows.md v3):
     [2^22,32] 1151 -> 134 us (92% of the read ceiling), [2^25,4] 1043 -> 190,
     [22369621,3] 342 -> 119, [9586980,7] 303 -> 87, [2033601,33] 561 -> 76,
     [528416,127] 171 -> 71 (89%), [520222,129] 172 -> 76.
   The shapes it replaced: 256-thread tiles of 24 KiB in lane pairs ran
   [2^22,32] in 157 us and [2033601,33] in 95; copies taking several
   serial loads per thread ran [528416,127] at 54%; a warp per row of 127
   read straight from global memory (direct), 187 us. */
enum { ROWS_TILE_BYTES = 18432, ROWS_TILE_THREADS = 128 };
/* Packed rows of exactly this many bytes (32 floats, 64 16-bit values, 16
   doubles) take tiles of half ROWS_TILE_BYTES on H100-class GPUs: 64 rows
   of 32 floats a tile, two lanes a row. rt_bench, --filter
   x32_d1,x33_d1,x127_d1,x129_d1, the tile's bytes as a probe knob,
   alternating, three passes a GPU, us (bench/NOTES.md v1.17, runs 7-9):
                           H100: 18 KiB     9 KiB          H200: 18 KiB   9 KiB
     [2^22,32] f32 sum     188.7-189.0     186.6-186.8         135.1-135.3  147.2-147.7
     [2033601,33]           98.4-99.3      114.8-115.2          74.3-74.7   90.2-90.5
   (torch.compile 186.9 on the H100, v1.17 run 1; 4.5 KiB tiles: 226.7 and
   215.8 for rows of 32; 36 KiB on the H200: 158.0.) Rows of 33 lose
   with two lanes a row of 33 (v1.8 found the same), and the H200 wants
   the bytes in flight of the larger tile; rows of other whole-vector
   lengths were not measured. */
enum { ROWS_HALF_TILE_ROW_BYTES = 128 };

static int pow2_floor(int64_t v) {
    int p = 1;
    while ((int64_t)p * 2 <= v && p < (1 << 30))
        p *= 2;
    return p;
}

static int pow2_ceil(int64_t v) {
    int p = 1;
    while (p < v && p < (1 << 30))
        p *= 2;
    return p;
}

static int64_t gcd64(int64_t a, int64_t b) {
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int log2_pow2(int v) {
    int s = 0;
    while ((1 << s) < v)
        s++;
    return s;
}

static void rows_common(const rt__op_traits *op, rt__launch_config *c) {
    *c = (rt__launch_config){0};
    c->policy = RT_POLICY_TUNED;
    c->kernel = RT__KERNEL_ROWS;
    c->block[1] = c->block[2] = 1;
    c->grid[1] = c->grid[2] = 1;
    c->step_input = 1;
    c->step_output = 1;
    c->ctas_per_output = 1;
    c->output_vec_size = 1;
    c->input_vec_size = 1;
    c->vt0 = op->vt0;
    c->max_threads = ROWS_THREADS;
}

static void rows_finish(const rt__iter *it, rt__launch_config *c) {
    c->num_threads = c->block[0];
    c->grid[0] = (int)((it->num_outputs + c->rows_per_block - 1) / c->rows_per_block);
}

/* Exact rows for the ROWS kernels but the tile and the columns (the block
   kernel adds its own conditions, rows_block below): with one kept dim
   (a 2-d iteration) row o starts at o x its stride and its output is
   stored straight, where the general path walks the output offsets'
   digits and the pieces' ACC (reduce_rows.cuh row_starts, row_store; the
   executor keeps it to unsplit calls). The direct, short and warp
   kernels' loads and bounds are as before, so the same bits. H100, compare_torch with the rule off on a
   second context in the same passes, us (bench/NOTES.md v1.40, run 1):
     [33554432,4] 218.85-218.96 / 219.22-219.28   (short, a vector a row)
     [22369621,3] 117.41-117.44 / 117.82          (short, scalars)
     [671088,100]  93.97-94.02  /  94.11-94.18    (warp, a vector a lane)
     [520222,129]  92.96-93.01  /  93.18-93.25    (warp, scalars)
   (rows of 7 and 127 the same; no suite case takes the direct kernel,
   whose rows take the same start and store, unmeasured there.) */
static void rows_flat(const rt__iter *it, unsigned kinds_off, rt__launch_config *c) {
    c->rows_exact = it->ndim == 2 && !(kinds_off & RT__RULE_OFF_ROW_EXACT);
}

/* Rows longer than the tile takes (ROWS_TILE_MAX_ROW_BYTES): a block per
   row when there are enough rows for ROWS_BLOCK_MIN_WAVES waves of blocks,
   each thread loading ROWS_BLOCK_LOADS 16-byte vectors of its row at once
   (a whole row in one batch), on 128 to 512 threads: rows of up to 32 KiB.
   This is Inductor's shape for these rows (a block of 512 per row; ncu:
   94.6% of DRAM peak against the general kernel's 91.6%, v1.6).
   H100, rows of [32768,4096] over dim 1, the general kernel (128 lanes a
   row, or a warp for ops with wider states) -> this, one run (v1.7):
     sum 175.8 -> 173.3 us, f64/i64 ([16384,4096]) 175.7 -> 173.0,
     var 180.5 -> 175.3, argmax 182.9 -> 174.9, amax 177.1 -> 173.6,
     bf16 89.8 -> 89.3, the misaligned slice (4096 of 4097) 92.1 -> 89.6,
     bool any 49.0 -> 47.1; rows of 1000 floats (67108 of them) 98.9 ->
     98.5 (no change).
   Other shapes, same run: two vectors a thread (512 threads for 4096
   floats) ran the sums 0.2% faster but var, std and argmax 30% and amax 8%
   slower, and the misaligned slice 6% slower; 256 threads whatever the
   length, f64 rows of 4096 1% slower (two batches); 64 threads, 1-3%
   slower. The 4-wave floor is untimed (the suite's rows give 15 to 32
   waves); under it the general kernel splits rows over more blocks. */
enum { ROWS_BLOCK_LOADS = 4, ROWS_BLOCK_MIN_THREADS = 128, ROWS_BLOCK_MAX_THREADS = 512,
       ROWS_BLOCK_MIN_WAVES = 4 };
/* Aligned rows of whole vectors, up to 12 KiB (768 vectors: 256 threads),
   that a row a block would leave a partial batch (fewer vectors than C on
   some threads, which then load one at a time) go two to a block: each
   thread loads its vectors of both rows at once in one guarded batch and
   one block reduction serves the two (reduce_rows.cuh block_row_pair).
   H100, dim 1 of ~256 MiB, a row a block -> two, one run (v1.8):
     f32 sums [111848,600] 111.6 -> 90.4 us, [67108,1000] 99.2 -> 90.1
     (Inductor 89.3 in v1.7), [44739,1500] 91.1 -> 89.9, [22369,3000]
     91.8 -> 89.3; [67108,1000] amax 117.5 -> 91.8, var 124.2 -> 97.4,
     argmax 123.2 -> 92.9, i32 108.8 -> 91.0, f64 ([33554,1000]) 103.0 ->
     90.0; bf16 [67108,2000] 102.2 -> 89.7; bool any [67108,4000] 109.3 ->
     90.7.
   Whole batches stay a row a block: [32768,2048] f32 89.4 -> 89.6 and bf16
   [32768,4096] 89.3 -> 89.7 two to a block (an earlier kernel, same
   session); so do states over 16 bytes (traits row_pair_loads 0): f64 var
   of [33554,1000] 168.7 -> 183.7. */
enum { ROWS_BLOCK_PAIR_MAX_VECS = 768, ROWS_BLOCK_PAIR_MAX_THREADS = 256 };

/* Two passes (var and std, traits row_two_pass; reduce_rows.cuh
   two_pass_rows): where one batch covers aligned rows of whole vectors,
   every value is in registers, so each thread takes its values' mean and
   then their squared deviations about it, and one block reduction merges
   the threads' (mean, m2) pairs by Chan's formula (for equal counts,
   without a division, where the batch is exact), instead of Welford folds
   and a block reduction of (mean, m2, n) states. H100,
   [32768,4096] over dim 1, rt_bench, three alternating passes, medians
   (bench/NOTES.md v1.16 run 7, the first kernel, and v1.30 run 1), us:
     v1.16      Welford 256 x 4   two block sums 256 x 4   the same, 512 x 2
       var      175.15-175.23     173.73-173.92            182.58-182.88
       std      175.22-175.25     173.89-173.92            183.76-183.84
     v1.30      two block sums 256 x 4   one reduction 256 x 4   512 x 2
       var      173.89-173.92            173.47-173.57           173.18-173.38
       std      173.94-173.98            173.41-173.63           173.02-173.25
   (sum, the wide 512 x 2, v1.30 run 1: 173.02-173.25.) The first kernel
   summed the block twice (the mean, then the deviations about it), two
   dependent barriers a row, which lost on the wide blocks; with one
   reduction var and std cost what the sum does, on the wide blocks
   (below) too. More rows through the library (v1.30 run 2,
   bench/var_rows.py, medians of 200, two passes, us; "before" is two
   block sums, or Welford's folds where marked):
     f32 var [32768,4096]   173.41-173.62 -> 172.74-172.86 (512 x 2)
     f32 var [65536,2048]   173.02-173.18 -> 172.54-172.70 (256 x 2)
     f64 var [16384,4096]   180.35-181.15 -> 173.84-174.00 (512 x 4)
     bf16 var [65536,2048]  89.31-89.54   -> 88.85-88.96   (256 x 2)
     f16 var [32768,4096]   96.16-96.83 (Welford, 128 x 4) -> 88.86-88.96 (256 x 2)
   std the same within 0.1 us. Rows one batch covers in part (v1.31:
   threads of C or C - 1 vectors, a count with each state, one division a
   merge of unequal counts) and two rows a block take it too; before, a
   Welford merge a vector and a block reduction of (mean, m2, n) states
   (v1.31 runs 2-3, bench/var_rows.py, two passes, medians of 100, us;
   the row sum beside):
     f32 var [16384,5000]   132.6-133.5 -> 107.7-108.0   sum 107.0-107.2
     f32 var [16384,6000]   143.8-144.5 -> 127.7-127.8   sum 127.1-127.2
     f64 var [16384,4000]   299.4-299.9 -> 182.2-182.6   sum 171.8-172.5
     f64 var [33554,1000]   134.9-135.9 ->  89.9-90.1    sum  89.8-90.0
     f32 var [67108,1000]    98.7-98.9  ->  91.1-91.2    sum  88.7-88.9 (pairs)
     f32 var [44739,1500]    90.9-91.0  ->  90.3         sum  88.8-89.0 (pairs)
     f32 var [32768,3000]   132.8       -> 128.5-128.6   sum 127.0-127.2 (pairs)
     bf16 var [67108,2000]  116.7       -> 103.0-103.1   sum  88.9-89.0 (pairs)
   (exact rows unchanged: f32 [32768,4096] 172.6-172.7, f64 [16384,4096]
   173.4-173.6.) 16-bit values at 4 vectors a thread take it too since
   v1.32, in the two-pass kernel's bound of 40 registers instead of 32
   (reduce_rows.cuh RowsTwoPassBounds); before, Welford's folds (v1.32
   run 5, the same method, three passes, us):
     bf16 var [52428,2560]  118.7-118.9 -> 109.7-110.1   sum  90.9
     bf16 var [43690,3072]  114.0-114.3 ->  97.8-98.4    sum  89.5
     bf16 var [37449,3584]  110.0-110.1 ->  89.9         sum  90.0
     bf16 var [33554,4000]  116.8-116.9 ->  90.1-90.2    sum 100.5
     bf16 var [26214,5120]  117.3-117.4 -> 112.0-112.5   sum  92.7
     bf16 var [21845,6144]  112.8-113.0 ->  98.9-99.3    sum  90.1
     f16 var [43690,3072]   114.6       ->  92.3-92.7    sum  89.4
     f16 var [26214,5120]   118.7-118.9 -> 106.5-106.9   sum  92.4
   (PyTorch eager: bf16 std [43690,3072] 180.6, f16 [26214,5120] 182.1.)
   Rows of at most 3 vectors a thread then take 3 (the kernel's own
   instantiation, 25-32 registers, so 16 blocks of 128 a SM as the sum's
   instead of 12 at 40; v1.32 run 8, the same method, us):
     bf16 var [52428,2560]  110.1-110.5 ->  97.9-98.2    sum  91.0
     bf16 var [43690,3072]   98.2-98.6  ->  89.9-90.0    sum  89.6
     bf16 var [26214,5120]  112.6-112.8 ->  97.9-98.1    sum  92.7
     bf16 var [21845,6144]   98.8-98.9  ->  89.9         sum  90.1
     bf16 var [58254,2304]  119.1-119.2 -> 105.3-105.6   sum  92.4
     f16 var [43690,3072]    92.7-92.9  ->  89.8         sum  89.6
     f16 var [26214,5120]   106.9-107.0 ->  91.8         sum  92.4
   (rows of 3584 and 4096 unchanged: 4 vectors a thread). Rows whose
   threads hold 2-2.5 vectors stay 7-14% over the sum. --kinds-off
   row-two-pass turns it off. */

/* Wide blocks: sums, means, var and std (traits row_block_wide; var and
   std since v1.30, TWO_PASS above) of aligned rows
   that one batch of 4 vectors a thread covers exactly take twice the
   threads at 2 vectors each, up to 512: torch.compile's shape for
   [32768,4096] (16 warps, two 16-byte loads a thread a row; its Triton
   cache, v1.15). rowblock_probe
   (H100, v1.15, us): rows of 4096 floats, 256 MiB packed, 256 x 4
   89.95-90.21 -> 512 x 2 89.82-89.95; pitch 8192, 128 MiB, 48.58-49.09 ->
   47.87-48.38. rt_bench against --kinds-off row-block-wide, three
   alternating passes, medians (H100, v1.15 run 13):
     f32 sum [32768,4096] d1  173.20 -> 172.85    mean   173.22 -> 172.83
     i32 sum                  173.89 -> 173.10    bf16   89.22 -> 88.96
     f16 sum                   89.15 -> 88.94
     [16384,8192][:, :4096]    89.54 -> 88.45 (torch.compile 88.35-88.43)
   (norm, amax, var, argmax, f64/i64 (already 512 x 4), rows of 1000 and
   the misaligned slice: unchanged, +-0.1%.) v1.7 found 512 x 2 30%
   slower for var, std and argmax, 8% for amax and 6% for the misaligned
   slice: sums and means only, aligned rows only (var and std joined
   them with their one-reduction two passes, above). On an H200 the wide
   blocks lost everywhere (H200, rt_bench against --kinds-off
   row-block-wide, two passes, v1.16 run 11, us): f32 sum 122.4-122.5 ->
   119.7-120.0 on 256 x 4, mean 122.4-122.5 -> 119.8, bf16 63.7 -> 63.0,
   i32 134.8-134.9 -> 120.3-120.4: at 2 vectors a thread a SM holds half
   the bytes in flight, which the H100's bandwidth does not miss and the
   H200's does. So H100-class GPUs only (rt__config_h100_class). */
static bool rows_block(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                       unsigned kinds_off, rt__launch_config *c) {
    const int64_t L = it->inputs_per_output, N = it->num_outputs;
    const int64_t v = 16 / op->input_size;
    if (L * op->input_size <= ROWS_TILE_MAX_ROW_BYTES)
        return false;
    /* The most vectors a thread the kernel is built for (traits.c); none:
       16-bit (value, index) states keep the general kernel. */
    if (op->row_block_loads < 1)
        return false;
    const int64_t nvec = L / v;
    /* Rows one batch of a full block covers (32 KiB at four vectors a
       thread); longer ones, never timed here, keep the general kernel,
       which splits them over blocks. */
    int64_t loads =
        op->row_block_loads < ROWS_BLOCK_LOADS ? op->row_block_loads : ROWS_BLOCK_LOADS;
    if (nvec > (int64_t)ROWS_BLOCK_MAX_THREADS * loads)
        return false;
    int64_t threads = pow2_ceil((nvec + loads - 1) / loads);
    threads = threads < ROWS_BLOCK_MIN_THREADS ? ROWS_BLOCK_MIN_THREADS
              : threads > ROWS_BLOCK_MAX_THREADS ? ROWS_BLOCK_MAX_THREADS
                                                 : threads;
    if (threads > dev->max_threads_per_block)
        return false;
    /* Short rows on the 128 threads at the least: the fewest of 1, 2, 4
       that still covers a thread's vectors. */
    const int64_t per_thread = (nvec + threads - 1) / threads;
    while (loads / 2 >= per_thread)
        loads /= 2;
    /* Rows of whole, aligned vectors (two rows a block and the two passes
       below), and of those the rows one batch covers exactly (the wide
       blocks; doubling the threads at half the loads keeps that). */
    const bool aligned = L % v == 0 && rt__iter_input_aligned(it, 16, 0);
    const bool exact = aligned && nvec == threads * loads;
    /* Wide blocks (above): 4 vectors a thread, and twice the threads still
       fit. */
    if (op->row_block_wide && !(kinds_off & RT__RULE_OFF_ROW_BLOCK_WIDE) && exact &&
        rt__config_h100_class(dev) && loads == ROWS_BLOCK_LOADS &&
        threads * 2 <= ROWS_BLOCK_MAX_THREADS && threads * 2 <= dev->max_threads_per_block) {
        threads *= 2;
        loads /= 2;
    }
    const int64_t resident = dev->max_threads_per_sm / threads * dev->num_sms;
    if (N < ROWS_BLOCK_MIN_WAVES * resident)
        return false;
    /* Two rows a block (ROWS_BLOCK_PAIR_*). */
    const int rows = threads <= ROWS_BLOCK_PAIR_MAX_THREADS && nvec <= ROWS_BLOCK_PAIR_MAX_VECS &&
                             nvec % (loads * threads) != 0 && loads <= op->row_pair_loads &&
                             aligned
                         ? 2
                         : 1;
    /* var and std in two passes over registers (TWO_PASS above): aligned
       rows of whole vectors, a row or two a block, whether the batch is
       exact or partial. */
    const bool two_pass = op->row_two_pass && !(kinds_off & RT__RULE_OFF_ROW_TWO_PASS) &&
                          aligned;
    /* 16-bit values in two passes, a row a block, at most 3 vectors a
       thread: 3 of them, in 32 registers instead of 40 (TWO_PASS above). */
    if (two_pass && op->input_size == 2 && rows == 1 && loads == 4 && per_thread <= 3)
        loads = 3;
    rows_common(op, c);
    c->rows_block = true;
    c->rows_two_pass = two_pass;
    /* Exact rows (reduce_rows.cuh exact_row, and two_pass_block's exact
       path but at 3 vectors a thread, which it lacks): a row a block of
       exactly `loads` x `threads` aligned vectors and one kept dim start
       at o x its stride and read one batch, with no head, tail or bounds,
       and the output is stored straight (the executor keeps it to unsplit
       calls). The same bits as the general row. H100, rt_bench against
       --kinds-off row-exact, three alternating passes of 100 calls, us
       (bench/NOTES.md v1.39, run 7):
         f32 sum [32768,4096]   173.04-173.09 / 173.15-173.46
         amax                   173.18-173.38 / 173.55-173.66
         argmax                 174.42-174.61 / 174.72-174.88
         norm-2                 173.15-173.66 / 173.42-173.68
         i64 sum [16384,4096]   172.45-172.70 / 172.91-172.98
         bf16 sum               88.98-89.18   / 89.22-89.23
         the 4096-column slice  88.53-88.64   / 88.64-88.78
         bool any               46.54-46.80   / 46.78-46.94
       (mean, f64, i32 -0.02..-0.05%; every case at or under the rule
       off.) In two passes (run 10, four alternating passes, us):
         f32 var [32768,4096]   173.15-173.34 / 173.17-173.39
         f32 std                173.15-173.34 / 173.17-173.44
       edge_probe (v1.39 runs 1-3) puts Inductor's kernel and nvcc's of
       the same shape ~0.4 us a call under the general row; this takes
       ~0.1-0.35 of it. */
    rows_flat(it, kinds_off, c);
    c->rows_exact = c->rows_exact && rows == 1 && aligned && nvec == threads * loads &&
                    (!two_pass || loads != 3);
    c->max_threads = ROWS_BLOCK_MAX_THREADS;
    c->block[0] = (int)threads;
    c->rows_group = (int)threads;
    c->rows_vec = (int)v;
    c->rows_in_flight = (int)loads;
    c->rows_per_block = rows;
    c->input_vec_size = (int)v;
    c->shared_memory_bytes = (int)(threads / 32 * rows * op->acc_size);
    rows_finish(it, c);
    return true;
}

/* Rows of 97-160 4-byte elements (the kernel's instantiations:
   RT__ROWS_WARP_MAX_LOADS or one fewer loads a lane a row), for ops
   whose state is one number (row_lanes above a warp: sum, prod, mean,
   min/max, the p = 2 norm), packed or not, when there are enough of them
   for ROWS_WARP_MIN_WARPS_PER_SM warps a SM, on a GPU of known DRAM
   bandwidth (the block-start rule below needs it): the warp kernel, a
   warp on RT__ROWS_WARP_ROWS adjacent rows, each lane loading
   its 4 or 5 scalars of every row at once (coalesced: a warp's load reads
   128 contiguous bytes of a row), then a shuffle tree a row; no shared
   memory, no barrier (blocks of several warps: ROWS_WARP_BLOCK_RATE_X10
   below). Inductor's kernel for rows of 129 (its SASS,
   bench/NOTES.md v1.14 run 13). rt_bench, us, the warp kernel against
   --kinds-off rows-warp (the tile kernel), alternating in one call, three
   passes on the H100, two on the H200 (NOTES v1.15):
                                 H100 (3352 GB/s)        H200 (~4.9 TB/s)
                                 warp         tile       warp    tile
     [520222,129] sum dim 1   92.88-93.02  96.70-96.82   83.81   76.30-76.32
     [528416,127] sum dim 1   93.09-93.23  95.22-95.34   84.74-84.78  71.62-71.71
   (torch.compile's 129: 92.5 on an H100, 83.3 on an H200.) One-warp
   blocks read at 96% of a one-shot read on the H100 and 77% on the H200
   (rows_probe), so until v1.21 the H200 took the tile. v1.20 found block
   starts the bound (below), and the H200's one-warp rows of 127 at the
   same rate. At two warps a block (the rule below), H200, rt_bench,
   three alternating passes, us (NOTES v1.21):
                        warp, 2 warps    tile
     [671088,100]       67.70-67.78     77.12-78.21
     [528416,127]       67.01-67.04     70.88-71.07
     [520222,129]       66.98-67.04     73.44-73.78 */
enum { ROWS_WARP_MIN_WARPS_PER_SM = 16 };
/* One-warp blocks of rows shorter than ~118 floats fall behind the H100's
   bandwidth; two warps a block do not. rt_bench, H100, f32 sums of 256
   MiB, one warp a block against two, two passes (us, NOTES v1.20):
     L   100          105          110         115         120
         106.4-106.5  101.7        97.7-98.0   94.4        93.3-93.4
         94.0-94.2    94.1-94.2    94.1-94.2   94.0-94.1   93.8-94.0
     L   127          129          160
         93.2         93.0-93.1    92.4-92.6
         93.9-94.1    93.4-93.6    92.7-92.9
   Every slow one-warp run started 11.7-11.95 blocks a SM a us (and the
   H200's rows of 127, v1.15: 11.8): an SM starts about 12 blocks a us.
   Not the bytes in flight: two-warp blocks held to the same 32 warps a
   SM (a shared-memory reservation) read rows of 100 in 94.9-95.1 us,
   one-warp blocks 106.8 (NOTES v1.20, run 7). The line is block starts
   at the peak bandwidth (3352 GB/s: 25.4 KB a SM a us over 16 L bytes a
   block): 13.8 for L = 115, 13.2 for 120, so 13.5 a us. */
enum { ROWS_WARP_BLOCK_RATE_X10 = 135 };
/* Aligned rows of whole 16-byte vectors, at most a warp's (97-128 floats):
   lane l loads vector l of each row instead of 4 scalars, under a
   32-register bound (a full SM of two-warp blocks; f32 sums take 32, no
   spill). v1.27 had tried the vectors at 35 registers (25 blocks a SM):
   -0.15% on rows of 100, where rows_probe's vectors had read them 0.9%
   faster. At full occupancy, H100, rt_bench, four alternating passes
   against scalars, us (bench/NOTES.md v1.35):
     [671088,100] sum dim 1   93.79-93.98 against 93.90-94.06
   (-0.1..-0.2%; rows of 127 and 129, not whole vectors, unchanged). So
   the probe's gain lies elsewhere than the loads' width or occupancy.
   Unmeasured on the H200, whose warp blocks are the same. */
enum { ROWS_WARP_VEC_BYTES = 16 };

static bool rows_warp(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                      unsigned kinds_off, rt__launch_config *c) {
    const int64_t L = it->inputs_per_output, N = it->num_outputs;
    if (op->input_size != 4 || op->row_lanes <= dev->warp_size ||
        L <= (int64_t)(RT__ROWS_WARP_MAX_LOADS - 2) * dev->warp_size ||
        L > (int64_t)RT__ROWS_WARP_MAX_LOADS * dev->warp_size)
        return false;
    const int64_t warps = (N + RT__ROWS_WARP_ROWS - 1) / RT__ROWS_WARP_ROWS;
    if (warps < (int64_t)ROWS_WARP_MIN_WARPS_PER_SM * dev->num_sms || dev->mem_gbps <= 0)
        return false;
    /* Warps a block: one, or the fewest that keep the block starts a SM
       at the device's peak bandwidth under ROWS_WARP_BLOCK_RATE_X10 / 10
       a us: a warp's 4 rows of L 4-byte elements are 16 L bytes. */
    const int64_t sm_bytes_per_us = (int64_t)dev->mem_gbps * 1000 / dev->num_sms;
    const int64_t warp_bytes = (int64_t)RT__ROWS_WARP_ROWS * L * op->input_size;
    int64_t w = 1;
    while (w < RT__ROWS_WARP_MAX_WARPS &&
           sm_bytes_per_us * 10 > (int64_t)ROWS_WARP_BLOCK_RATE_X10 * w * warp_bytes)
        w *= 2;
    rows_common(op, c);
    c->rows_warp = true;
    c->rows_group = dev->warp_size;
    /* Rows of at most a warp's 16-byte vectors, every row aligned: a
       vector a lane (ROWS_WARP_VEC above). */
    const int64_t vec = ROWS_WARP_VEC_BYTES / op->input_size;
    c->rows_vec = L % vec == 0 && L <= vec * dev->warp_size &&
                          rt__iter_input_aligned(it, ROWS_WARP_VEC_BYTES, 0)
                      ? (int)vec
                      : 1;
    c->rows_in_flight = RT__ROWS_WARP_ROWS;
    c->block[0] = (int)w * dev->warp_size;
    c->rows_per_block = RT__ROWS_WARP_ROWS * (int)w;
    rows_flat(it, kinds_off, c);
    rows_finish(it, c);
    return true;
}

/* The column kernel's floor: blocks of columns a SM and rows a column
   (rows_cols below). */
enum { ROWS_COLS_MIN_BLOCKS_PER_SM = 3, ROWS_COLS_MIN_LEN = 1024 };

/* The column kernel: var/std of f32 over one strided reduced dim whose
   outputs are contiguous input columns (an outer reduction), a thread a
   column, RT__ROWS_COLS_WIDTH columns x RT__ROWS_COLS_LANES row lanes a
   block, RT__ROWS_COLS_LOADS scalar loads a lane in flight folded as one
   Welford batch (its own mean and m2, one Chan merge), the lanes' states
   merged in order through shared memory. Inductor's shape for var over
   dim 0 of [4096,32768] (torch 2.11: 64 x 4, 12 loads in flight), where
   the general kernel's outer tiles give a thread 4 adjacent columns and 2
   lockstep Welford states. A Welford step a value (a dependent division
   each) is what held this shape back: the same kernel folding a step a
   value read var d0 0.1-0.3% slower than the general kernel at 16 loads
   (v1.28) and 3.1% slower at 12. H100, rt_bench var [4096,32768] over
   dim 0, three alternating passes of 200-call medians, one process, us
   (bench/NOTES.md v1.29, run 2):
     general kernel (HEAD, and --kinds-off rows-cols)   181.23-181.49
     column kernel, a step a value, 16 / 12 loads       181.62-181.73 / 187.17-187.20
     column kernel, batches of 8 / 12 / 16              181.84-182.02 / 178.78-179.07 /
                                                        179.25-180.13
   and torch.compile 179.17 in the same run (bench/kernel_times.py, each;
   ours 178.58). Taken where it was measured: H100-class GPUs, at least 3
   blocks a SM of columns, columns of at least 1024 rows. */
static bool rows_cols(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                      unsigned kinds_off, rt__launch_config *c) {
    const int64_t elem = op->input_size;
    const int64_t width = RT__ROWS_COLS_WIDTH, lanes = RT__ROWS_COLS_LANES;
    if (!op->col_thread || (kinds_off & RT__RULE_OFF_ROWS_COLS) || !rt__config_h100_class(dev) ||
        dev->warp_size != 32)
        return false;
    if (it->ndim != 2 || it->num_reduce_dims != 1 || it->strides[RT__ITER_IN][1] != elem)
        return false;
    if (it->inputs_per_output < ROWS_COLS_MIN_LEN ||
        rt__div_up(it->num_outputs, width) < ROWS_COLS_MIN_BLOCKS_PER_SM * (int64_t)dev->num_sms)
        return false;
    const int64_t smem = (lanes - 1) * width * op->acc_size;
    if (smem > dev->shared_mem_per_block || dev->max_threads_per_block < width * lanes)
        return false;
    rows_common(op, c);
    c->rows_cols = true;
    c->rows_group = 1;
    c->rows_vec = 1;
    c->rows_in_flight = RT__ROWS_COLS_LOADS;
    c->block[0] = (int)(width * lanes);
    c->max_threads = (int)(width * lanes);
    c->rows_per_block = (int)width;
    c->shared_memory_bytes = (int)smem;
    rows_finish(it, c);
    return true;
}

bool rt__config_tuned_rows(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, unsigned kinds_off,
                           rt__launch_config *cfg) {
    const int64_t elem = op->input_size;
    if (rows_cols(it, op, dev, kinds_off, cfg))
        return true;
    if (it->num_reduce_dims != 1 || it->strides[RT__ITER_IN][0] != elem)
        return false;
    if (dev->warp_size != 32)
        return false;
    if (rows_block(it, op, dev, kinds_off, cfg))
        return true;
    const int64_t L = it->inputs_per_output, N = it->num_outputs;
    if (L > ROWS_MAX_LEN || N < 1 || dev->max_threads_per_block < ROWS_THREADS)
        return false;
    const bool packed = it->ndim == 2 && it->strides[RT__ITER_IN][1] == L * elem;
    const int64_t vec = 16 / elem;

    /* Rows of up to RT__ROWS_SHORT_MAX elements, or of one aligned 16-byte
       vector (f32 L = 4), packed or not: the short kernel, a thread per
       row loading its whole row for all its rows at once, a warp's load
       reading 32 adjacent rows; L1 merges a row's scalar loads (Inductor's
       shape for these rows). H200, f32 sum dim 1 (bench/NOTES-rows.md v4):
       tile -> short [22369621,3] 118.5 -> 86.1 us (70 -> 95% of the read
       ceiling; Inductor 87.7), [9586980,7] 86.9 -> 74.6 (84 -> 95%; 73.3);
       one vector, direct -> short: [2^25,4] 172.5 -> 156.5 (88 -> 96%;
       154.5). The direct kernel on rows of 3 (scalar loads in its loop, 8
       rows a thread, 84 registers) took 167 us. */
    const bool vec_row = L == vec && rt__iter_input_aligned(it, 16, 0);
    if (vec_row || L <= RT__ROWS_SHORT_MAX) {
        const int64_t v = vec_row ? vec : 1;
        rows_common(op, cfg);
        cfg->rows_short = true;
        cfg->rows_group = 1;
        cfg->rows_vec = (int)v;
        /* reduce_rows.cuh's ShortRows::R: 4 rows a thread, 2 for states
           over 8 bytes and for rows of one vector. Vector rows read the
           same bytes in the same order either way; 2 rows a thread, in
           twice the blocks, is faster (H100, bench/NOTES.md v1.28):
           bench/rows_probe.cu on f32 rows of 4, 256 MiB, 111.87-111.94 us
           at 4 rows a thread, 111.49-111.65 at 2; the library's [2^25,4]
           sum 219.63-219.71 -> 219.10-219.36. Bytes had 2 already (their
           16 lanes unpack into many registers). */
        cfg->rows_in_flight = op->acc_size > 8 || v > 1 ? 2 : 4;
        cfg->block[0] = ROWS_THREADS;
        cfg->rows_per_block = (ROWS_THREADS / 32) * 32 * cfg->rows_in_flight;
        cfg->input_vec_size = (int)v;
        rows_flat(it, kinds_off, cfg);
        rows_finish(it, cfg);
        return true;
    }

    if (!(kinds_off & RT__RULE_OFF_ROWS_WARP) && rows_warp(it, op, dev, kinds_off, cfg))
        return true;

    if (packed && L * elem <= ROWS_TILE_MAX_ROW_BYTES) {
        /* As many rows as fit the tile (a power of two, 8 to 4096), but at
           least two blocks per SM when there are few rows. */
        const bool half = !(kinds_off & RT__RULE_OFF_HALF_TILE) && rt__config_h100_class(dev) &&
                          L * elem == ROWS_HALF_TILE_ROW_BYTES;
        int64_t t = pow2_floor((half ? ROWS_TILE_BYTES / 2 : ROWS_TILE_BYTES) / (L * elem));
        t = t > 4096 ? 4096 : t < 8 ? 8 : t;
        while (t > 8 && (N + t - 1) / t < 2 * (int64_t)dev->num_sms)
            t /= 2;
        const int64_t smem = ((t * L + vec) * elem + 15) / 16 * 16;
        if (smem > dev->shared_mem_per_block)
            return false;
        /* A thread per row when the tile has 128 rows or more (looping over
           them), else lane groups filling the 128 threads (at most 16
           lanes: t >= 8). */
        const int64_t g = t >= ROWS_TILE_THREADS ? 1 : ROWS_TILE_THREADS / t;
        rows_common(op, cfg);
        cfg->rows_tile = true;
        cfg->max_threads = ROWS_TILE_THREADS;
        cfg->rows_group = (int)g;
        cfg->block[0] = ROWS_TILE_THREADS;
        cfg->rows_per_block = (int)t;
        if (g == 1) {
            /* Thread r reads row r at word r*L (4-byte elements): rows
               whose starts share a bank (period 32/b, b = gcd(L, 32))
               start b apart in columns instead. 8-byte elements are
               served per half-warp. */
            const int64_t banks = elem == 8 ? 16 : 32;
            const int64_t b = gcd64(L, banks);
            cfg->rows_rot_shift = log2_pow2((int)(banks / b));
            cfg->rows_rot_mask = (int)b - 1;
        } else {
            /* The 32/g rows of a warp start g columns apart: L = 128 puts
               every row on bank 0 otherwise. */
            cfg->rows_rot_shift = 0;
            cfg->rows_rot_mask = (int)(32 / g) - 1;
        }
        cfg->shared_memory_bytes = (int)smem;
        rows_finish(it, cfg);
        return true;
    }

    const bool use_vec = vec > 1 && L % vec == 0 && rt__iter_input_aligned(it, 16, 0);
    const int64_t v = use_vec ? vec : 1;
    const int64_t chunks = (L + v - 1) / v;
    /* About four loads per lane per row: 32 lanes for 127 floats, 2 lanes
       of four float4 each for 32 (rt_explain --shape 1048576,32 --strides
       64,1 --dims 1: rows_group 2). */
    int64_t g = pow2_ceil((chunks + 3) / 4);
    g = g > 32 ? 32 : g;
    /* Rows per group in flight: reduce_rows.cuh's RowsTraits, from the
       load width and whether the state is wider than 8 bytes. */
    const bool wide = op->acc_size > 8;
    const int64_t r = v == 1 ? (wide ? 4 : 8) : (wide || elem == 1 ? 2 : 4);
    const int64_t warp_rows = r * (32 / g);
    const int64_t warps = (N + warp_rows - 1) / warp_rows;
    /* Medium rows only when they fill the GPU: 16 warps per SM. [1024,1024]
       (128 warps) stays on the general kernel, which splits rows over
       blocks. */
    if (L > ROWS_SHORT_LEN && warps < 16 * (int64_t)dev->num_sms)
        return false;
    rows_common(op, cfg);
    cfg->rows_group = (int)g;
    cfg->rows_vec = (int)v;
    cfg->rows_in_flight = (int)r;
    cfg->block[0] = ROWS_THREADS;
    cfg->rows_per_block = (int)((ROWS_THREADS / 32) * warp_rows);
    cfg->input_vec_size = (int)v;
    rows_flat(it, kinds_off, cfg);
    rows_finish(it, cfg);
    return true;
}
