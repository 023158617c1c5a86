/*
 * The TUNED policy: ours, chosen per shape class by measurement on the GPU
 * (DESIGN.md section 7; the numbers are in bench/NOTES-general.md, H200,
 * CUDA-event medians with a cold L2).
 *
 * It starts from PyTorch's rule (compat.c: block shape, which level splits
 * the reduced index) and changes what measurement showed PyTorch leaves on
 * the table for the general kernel:
 *  1. 16-bit sums and means read the contiguous reduced dim with 16-byte
 *     vectors (8 elements). PyTorch turns that path off for them (its
 *     vt0 >= input_vec_size rule, a register-pressure guard of its own
 *     kernel); ours keeps four loads in flight in 32 registers without a
 *     spill.
 *  2. A reduced index split across blocks (global reduce) is sized in
 *     loads per thread, not elements: one wave where PyTorch's 256-value
 *     cap made two, and a split from 16 loads per thread where PyTorch
 *     keeps up to 256 values (a 256 KB sum) on one latency-bound block.
 *  3. Blocks one warp row tall skip block_y_reduce.
 *  (4, 5: below, where the rule is called.)
 *  6. Row reductions read in vectors take 128-thread blocks: 128 lanes a
 *     row for ops whose state is one number, else a warp a row.
 *  7. The same ops split a long vector-read index over blocks in
 *     contiguous chunks, not PyTorch's interleaving.
 *  8. The same ops, where lanes own outputs and the last block's fold
 *     caps a split under one wave (few outputs, long reductions), take
 *     fewer outputs a thread and taller blocks.
 *  9. Outer reductions split in 2 over blocks (or Welford's, split
 *     evenly) take tiles of 16 lanes x 8 warp rows and half the split.
 * 10. The same ops as 8, where the last block's fold caps the split and
 *     the kernel takes 512 threads, take tall blocks of 16 lanes x 32
 *     warp rows instead, in one wave.
 * 11. Outer reductions that rule 2 splits, whose outputs fill 7/8 to all
 *     of a wave of tiles of 32 lanes x 16 warp rows, take those tiles
 *     and no split.
 * 12. The same ops as 8, where rule 2 splits the outer tiles over more
 *     than 2 blocks and rule 11 does not apply, take rule 10's tall
 *     blocks in one wave.
 * 13. Rule 2's split never goes past one wave for PyTorch's cap of 256
 *     values a thread.
 * 14. Rule 10's tall blocks over packed rows whose outputs leave the
 *     second 16-lane tile partly idle take one tile of exactly their lanes.
 */
#include <stdint.h>

#include "config_policies.h"

enum {
    /* Loads (vectors on the contiguous path) a thread reads at least once
       the reduced index is split over blocks: one round of the kernel's
       loads in flight, the 4 vectors PyTorch's 16 values already give f32.
       Counting loads instead of elements also lifts PyTorch's 256-value
       cap where it forced a second wave. H200, same run: f32 full sum of
       2^27, 1024 blocks (1.94 waves) 124.3 us -> 528 blocks 123.4 us
       (CUB 123.4); amax 127.9 -> 126.1; argmax 132.7 -> 129.8. */
    MIN_VECTORS_PER_THREAD = 4,
    /* Below this many loads per thread one block beats a split: H200, f32
       full sum of 64 KB (8 vectors per thread) 6.67 us on one block, 7.46
       us on 2; 256 KB (32 per thread) 11.95 us on one block, 7.68 on 8. */
    MIN_LOADS_TO_SPLIT = 16,
    /* PyTorch's cap: no thread reads more than 256 values per block split.
       TUNED applies it only with rule 13 turned off (retune_global_split). */
    MAX_VALUES_PER_THREAD = 256,
    /* Batches of partials (RT__TAIL_LOADS each) a thread of the last
       block of a split loads in turn: a cap on the split when few threads
       fold it (rows of a block whose lanes own outputs). H200, one run,
       ctas per tile capped at trips x threads x 8 (f32):
         trips          2      4      8     16     64   none
         mean NHWC   77.7   50.4   42.3   44.8   61.2   61.4 us
           [32,256,64,64] over (0,2,3): 4 rows x 8 per trip, 1056 -> 256 blocks
         [671088,100] d0  109.7  78.1  75.0  85.3  84.9  84.9 us
         [2^24,8] d0      128.9 132.6 133.3 133.2 133.9 133.4 us (64 rows)
       (v1.2, before the batched tail: 74.3 and 91.7 us.) */
    MAX_TAIL_TRIPS = 8,
    /* Rule 6: threads per block of a row reduction, and the fewest
       vectors a lane of a row_lanes-wide row must read (else a warp takes
       the row). H200, lanes / threads per block, one run (bench/NOTES.md
       v1.5), PyTorch's 32 x 16 first:
                       32/512 32/128 32/256 64/256 128/128 128/256 256/256
         f32 sum [32768,4096] d1
                        125.7  125.4  125.5  124.7  123.5  123.9  128.7 us
         bf16 same       66.1   66.2   66.0   65.8   64.8   64.7   77.6
         var same       136.8  136.0  136.1  141.8  153.1  153.6  182.1
         argmax same    134.9  133.7  133.9  137.8  147.5  148.6  190.2
         bool any same   38.2   37.6   38.0   39.2   43.6   45.0   73.8
       (row_lanes in traits.c keeps var, argmax, norm and any on a warp a
       row.) bf16 rows of 4096 are 4 16-byte vectors a lane on 128 lanes
       and gained; fewer is untried, so rows under 4 a lane take a warp. */
    ROW_BLOCK_THREADS = 128,
    ROW_MIN_VECTORS_PER_LANE = 4
};

/* Blocks of c's size that one SM holds at once: by threads, and by the
   registers of the kernel that runs c when the backend knows them (the
   general kernel for output_vec_size 1, 2, 4: 32 to 90 registers on sm_90,
   so 128-thread blocks of 56 registers fit 9 per SM, not 16). Registers
   are allocated per warp in units of 256. */
static int64_t resident_blocks(const rt__op_traits *op, const rt__device_props *dev,
                               const rt__launch_config *c) {
    int64_t blocks = dev->max_threads_per_sm / c->num_threads;
    const int slot = c->output_vec_size == 4 ? 2 : c->output_vec_size == 2 ? 1 : 0;
    const int64_t regs = op->kernel_regs[slot];
    if (regs > 0 && dev->regs_per_sm > 0) {
        const int64_t warps = rt__div_up(c->num_threads, dev->warp_size);
        const int64_t per_warp = rt__div_up(regs * dev->warp_size, 256) * 256;
        blocks = rt__min64(blocks, dev->regs_per_sm / (per_warp * warps));
    }
    return blocks > 0 ? blocks : 1;
}

/* TUNED rule 7: a reduced index read in vectors by the lanes of a block,
   for an op whose state is one number folded like a sum (row_lanes above a
   warp: sum, prod, mean, min/max without indices, the p = 2 norm), is split
   in contiguous chunks, block y reading vectors [y * chunk, (y + 1) *
   chunk) alone (input_chunked), instead of PyTorch's interleaving, where
   the blocks of a wave stride through the whole input together. H100 (run
   2 of 2026-11-25, bench/NOTES.md v1.6), f32 full sums and amax, us;
   "wave" is the interleaved one-wave split (two runs), "c:N" chunks of N
   vectors a thread (512 threads), CUB in the c:8 run:
                    wave           c:4    c:8   c:16    CUB
     16 MB         13.60  13.42  13.47  13.39  12.96  13.25
     64 MB         29.76  29.62  31.18  30.59  29.31  28.69
     256 MB        94.34  94.02  93.70  93.36  94.26  93.06
     512 MB       181.66 181.36 177.84 177.36 177.39 178.66
     1 GB         355.17 354.77 345.84 344.75 345.41 349.87
     amax 512 MB  183.49 183.46 183.34 179.41 179.66      -
     argmax 512 MB 185.4  186.9  187.8  187.9  188.0      -  (stays interleaved)
   (bench/fold_probe.cu read 1 GB 2.6% faster in one-block-per-chunk grids
   than in one grid-striding wave.) So: a thread reads CHUNK_LOADS vectors
   when that makes several waves of blocks; when one wave would give each
   thread 5 to 16 vectors, one wave of contiguous chunks (64 MB); at 4 or
   fewer, the interleaved wave, a single round of loads either way.
   On H100-class GPUs only (rt__config_h100_class): on an H200 the
   interleaved wave read the full reductions the STREAM kernel does not
   take faster (bench/NOTES.md v1.17, runs 3-4, rt_bench against
   --kinds-off stream,chunked, us: i32 sums 512 MB 134.8 chunked, 126.9-127.0
   interleaved; f32 2^27 130.5-130.6 / 122.5-122.9, 1 GB 253.7 / 237.8-238.3,
   256 MB 68.7 / 65.3, f64 128.4-128.6 / 124.0-124.3).
   Returns false, and leaves c alone, where the rule does not apply. */
enum {
    CHUNK_LOADS = 8,       /* vectors a thread reads in a many-wave chunked split */
    CHUNK_WAVE_LOADS = 16, /* at most this many in one wave of chunks */
    CHUNK_ROUND = 4        /* chunks hold whole rounds of 4 loads in flight */
};

static bool chunk_split(const rt__iter *it, const rt__op_traits *op, int64_t wave,
                        int64_t cap, int warp_size, rt__launch_config *c) {
    /* (The vector path always splits the index over the lanes.) */
    if (!c->vectorize_input || op->indexed || op->row_lanes <= warp_size)
        return false;
    const int64_t step = c->step_input; /* the block's own step: lanes x warp rows */
    const int64_t units = rt__config_input_units(it, c);
    const int64_t at_one_wave = rt__div_up(units, wave * step);
    if (at_one_wave <= CHUNK_ROUND)
        return false;
    int64_t loads = CHUNK_LOADS;
    if (at_one_wave <= CHUNK_WAVE_LOADS)
        loads = rt__div_up(at_one_wave, CHUNK_ROUND) * CHUNK_ROUND;
    int64_t chunk = step * loads;
    if (rt__div_up(units, chunk) > cap) /* fewer, longer chunks for the last block's fold */
        chunk = rt__div_up(rt__div_up(units, cap), step) * step;
    const int64_t ctas = rt__div_up(units, chunk);
    if (ctas < 2 || chunk > INT32_MAX)
        return false;
    c->ctas_per_output = (int)ctas;
    c->input_mult[2] = (int)chunk;
    c->input_chunked = true;
    return true;
}

/* Re-chooses the blocks per output tile (grid.y) of a config whose warps
   split the reduced index: contiguous chunks where rule 7 applies, else
   enough interleaved blocks for one wave of the device, but no fewer than
   MIN_VECTORS_PER_THREAD loads per thread; none at all below
   MIN_LOADS_TO_SPLIT. Returns true when the last block's fold (the cap
   below) held an interleaved split under the blocks it wanted. */
static bool retune_global_split(const rt__iter *it, const rt__op_traits *op,
                                const rt__device_props *dev, unsigned kinds_off,
                                rt__launch_config *c) {
    if (c->input_mult[1] == 0)
        return false; /* warps own separate outputs: the outputs fill the grid */
    /* Undo PyTorch's block split, if any. */
    if (c->input_mult[2] != 0) {
        c->step_input /= c->ctas_per_output;
        c->input_mult[2] = 0;
    }
    c->ctas_per_output = 1;

    /* Loads per thread: vectors on the contiguous path (PyTorch counts
       elements there, so its 16 values are 4 vectors of f32). */
    const int64_t per_load = c->vectorize_input ? c->input_vec_size : 1;
    const int64_t vpt = rt__div_up(it->inputs_per_output, (int64_t)c->step_input * per_load);
    const int64_t target_grid = (int64_t)dev->num_sms * resident_blocks(op, dev, c);
    const int64_t grid_x = rt__div_up(it->num_outputs / c->output_vec_size, c->step_output);
    if (vpt < MIN_LOADS_TO_SPLIT || grid_x > target_grid)
        return false;
    /* The last block folds every partial of its tile, its threads (rows
       of the block when lanes own outputs) RT__TAIL_LOADS at a time, one
       L2 round trip per batch: at most MAX_TAIL_TRIPS batches each. */
    const int64_t folders = c->input_mult[0] != 0 ? c->num_threads : c->block[1];
    const int64_t per_trip = folders * RT__TAIL_LOADS(op->acc_size);
    const int64_t cap = rt__min64(rt__max64(2, MAX_TAIL_TRIPS * per_trip), 65535);
    if (!(kinds_off & RT__RULE_OFF_CHUNKED) && rt__config_h100_class(dev) &&
        chunk_split(it, op, target_grid / grid_x /* >= 1 */, cap, dev->warp_size, c))
        return false;
    /* At most one wave: a grid a little over it runs a second, nearly
       empty one. H200, output tiles of 128 f32 (grid.x 256; 9 resident
       blocks of 128 per SM), whole suite in one run (bench/NOTES.md v1.4):
         grid.y                 2      4      6      9     12     32
         [4096,32768] d0    127.3  125.6  129.8  128.9  132.0  132.6 us
         f16 same          83.2   67.5   78.7   71.7   74.8   80.3
         var same         163.3  133.8  159.6  149.4  160.3  198.6
       ([32,256,64,256] over (0,2), grid.x 512: 127.2 us at 2, 131.6 at 4,
       142.4 at 5.) Chunks here measured no better: H100, the same
       blocks in contiguous runs of rows, [4096,32768] d0 182.4 -> 182.2
       us, [2^24,8] d0 183.9 -> 186.4, var d0 189.8 -> 188.8 (NOTES v1.6). */
    int64_t ctas = rt__min64(rt__max64(1, target_grid / grid_x),
                             rt__div_up(vpt, MIN_VECTORS_PER_THREAD));
    /* 13. PyTorch's 256-value cap (MAX_VALUES_PER_THREAD) raises the
       split only where that takes it past the wave above: TUNED leaves
       the split at one wave and lets each thread read more. H100, column
       sums, rt_bench against --kinds-off uncapped-split, two passes,
       medians of 60, us (bench/NOTES.md v1.18, runs 10-11; the kernel's
       registers as the backend reads them):
         i32 [16384,8192] d0 (70 registers at 4 outputs: 7 blocks of 128
           a SM, a wave of 924)  split 14: 179.95-180.30, 16: 199.55-199.78
           (13: 180.9-181.5, 15: 205.6-205.7)
         i32 [4096,32768] d0     3: 179.17-179.28,  4: 197.94-198.14
         f64 [16384,8192] d0     8: 349.73-350.69, 16: 352.93-353.06
         f32 [16384,16384] d0    (rule 12's tall blocks) 1: 351.2-353.5,
                                 2: 354.1-354.5
         f32 [32768,8192] d0     (the same) 2: 351.7-352.1, 4: 350.8-351.0
         f32 var [16384,16384] d0 4: 356.8-357.1, 8: 357.8-358.0
       (PyTorch's rule keeps the cap: compat.c.) */
    if (kinds_off & RT__RULE_OFF_UNCAPPED_SPLIT)
        ctas = rt__max64(ctas, rt__div_up(vpt, MAX_VALUES_PER_THREAD));
    const bool capped = ctas > cap;
    ctas = rt__min64(ctas, cap);
    if (ctas > 1) {
        c->ctas_per_output = (int)ctas;
        c->input_mult[2] = c->step_input;
        c->step_input *= (int)ctas;
    }
    return capped;
}

/* A block one warp row tall whose "warp rows split the input" (PyTorch
   sets that whenever values remain) only pays block_y_reduce's barrier and
   shared-memory round trip for nothing: without a block split, hand the
   y level to the outputs instead (it has one position either way). */
static void drop_idle_y_split(rt__launch_config *c) {
    if (c->block[1] != 1 || c->ctas_per_output != 1 || c->input_mult[1] == 0)
        return;
    c->input_mult[1] = 0;
    c->output_mult[1] = c->step_output;
}

/* PyTorch's shape for the rows of a row reduction read in vectors is a
   warp a row, 16 rows a block: 512 threads whose rows all end together.
   Re-shapes it to ROW_BLOCK_THREADS threads: row_lanes lanes a row when
   each reads at least ROW_MIN_VECTORS_PER_LANE vectors, else a warp. Only
   configs that already give each warp its own rows (lanes split the row,
   warp rows own outputs, no block split) change. */
static void reshape_row_blocks(const rt__iter *it, const rt__op_traits *op,
                               const rt__device_props *dev, rt__launch_config *c) {
    if (!c->vectorize_input || it->num_reduce_dims != 1 || c->block[0] != dev->warp_size ||
        c->block[1] < 2 || c->input_mult[0] == 0 || c->input_mult[1] != 0 ||
        c->ctas_per_output != 1)
        return;
    const int64_t nvec = it->inputs_per_output / c->input_vec_size;
    int lanes = op->row_lanes > dev->warp_size ? op->row_lanes : dev->warp_size;
    if (lanes > ROW_BLOCK_THREADS || nvec < (int64_t)ROW_MIN_VECTORS_PER_LANE * lanes)
        lanes = dev->warp_size;
    c->block[0] = lanes;
    c->block[1] = ROW_BLOCK_THREADS / lanes;
    c->input_mult[0] = 1;
    c->step_input = lanes;
    c->output_mult[0] = 0;
    c->output_mult[1] = 1;
    c->step_output = c->block[1];
}

/* TUNED rule 9: an outer reduction whose lanes own 4 outputs each (32
   lanes x 4 warp rows, PyTorch's shape) and whose reduced index rule 2
   splits over an even number of blocks a tile takes tiles of 16 lanes x 8
   warp rows and half the split: the same blocks and the same rows a
   thread, 64 outputs a block instead of 128, and half the partials to
   fold. Only where that drops the split (2 -> 1: no staging, no last
   block's fold), the state is wider than 8 bytes (Welford's) or there is
   no split (below), and where 16 lanes still read 256-byte row segments
   (inputs of 4 bytes or more).
   H100, us, rt_bench --kinds-off outer-tiles against the rule in one
   process, three passes (bench/NOTES.md v1.14 runs 7 and 9):
                               32 x 4, split s        16 x 8, split s/2
     d02 [32,256,64,256]      180.0-181.0 (2)        177.2-178.1 (1)
     var [4096,32768] d0      185.8-186.4 (4)        183.9-184.4 (2)
   and not taken:
     sum [4096,32768] d0      179.3-179.3 (4)        179.3-180.2 (2)
     [16384,8192].t() d1      180.3-181.9 (18)       180.1-180.5 (9)
     f16 / bf16 d0 (v1.13)     93.0-93.8 (4)          94.2-94.6 (2)
   (Inductor's tiles for these shapes are 64 outputs too, with no split.)
   With no split at all (1 -> 1): the same 128 threads, 64 outputs a
   block, half the rows a thread (measured on a sum; Welford's states
   with no split take it unmeasured). H100, f32 sum of [64,128,64,128] over
   dim 1 (4096 tiles of 32 x 4 over 128 rows), compare_torch's five
   passes, both plans in one process (bench/NOTES.md v1.40, run 4):
     32 x 4: 90.91-90.96 us     16 x 8: 90.18-90.21     eager 93.95 */
enum {
    OUTER_TILE_LANES = 16,
    OUTER_TILE_ROWS = 8,
    OUTER_SEGMENT_BYTES = 256,
    OUTER_WIDE_STATE = 8
};

static void outer_tiles(const rt__op_traits *op, const rt__device_props *dev,
                        rt__launch_config *c) {
    if (c->vectorize_input || c->input_mult[0] != 0 || c->input_mult[1] == 0 ||
        c->output_vec_size != 4 || c->block[0] != dev->warp_size || c->block[1] != 4 ||
        c->input_chunked || (c->ctas_per_output > 1 && c->ctas_per_output % 2 != 0) ||
        (int64_t)OUTER_TILE_LANES * c->output_vec_size * op->input_size < OUTER_SEGMENT_BYTES)
        return;
    if (c->ctas_per_output > 2 && op->acc_size <= OUTER_WIDE_STATE)
        return;
    const int ctas = c->ctas_per_output > 1 ? c->ctas_per_output / 2 : 1;
    c->block[0] = OUTER_TILE_LANES;
    c->block[1] = OUTER_TILE_ROWS;
    c->step_output = OUTER_TILE_LANES; /* lanes own outputs */
    c->ctas_per_output = ctas;
    c->input_mult[2] = ctas > 1 ? OUTER_TILE_ROWS : 0; /* interleaved split */
    c->step_input = OUTER_TILE_ROWS * ctas; /* split: unchanged (4 x 2 ctas) */
}

/* TUNED rule 10: an outer reduction of a sum-like op (as rule 8) whose
   last block's fold caps the block split (few outputs, long reductions:
   that block's rows fold every partial of its tile, RT__TAIL_LOADS at a
   time, and PyTorch's blocks of 512 / OVS threads have few rows) takes,
   where its kernel is built for 512 threads at this OVS (reduce_body.cuh
   GeneralBounds), blocks of 16 lanes x 32 warp rows: 256-byte row
   segments as rule 9, a wave of blocks of 512 threads, and 32 rows to fold
   a handful of partials each. H200, us, env-var probe of block x rows /
   OVS / blocks a tile against TUNED (rule 8) in one process, two passes
   (bench/NOTES.md v1.16, runs 1-3):
                                 TUNED              16 x 32 / 4
     f32 sum [671088,100] d0     71.7-71.9          69.8-70.0 (132)
       (TUNED: 32 x 8 / 2, 330 blocks a tile; 25 x 5 / 4 with 320 blocks
        83.5, 640 74.0, 1188 79.9: short blocks fold too long or keep too
        few bytes in flight; 32 x 16 / 2, 132: 73.5-73.8)
     f32 mean NHWC [32,256,64,64] 38.4               37.5-37.8 (66)
       over (0, 2, 3)             (TUNED: 32 x 8 / 2, 4 x 165; 32 x 16 / 4,
                                   132: 38.3-38.4)
   Returns false, and leaves c alone, where the rule does not apply or
   the tall blocks' split is capped too. */
enum {
    OUTER_TALL_THREADS = 512
};

/* Tall outer blocks of `lanes` lanes (each owning OVS outputs) x
   OUTER_TALL_THREADS / lanes warp rows, warp rows splitting the reduced
   index, and rule 2's one-wave split for them (retune_global_split).
   Returns false, and leaves c alone, where that split is capped. */
static bool tall_tiles(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                       unsigned kinds_off, int lanes, rt__launch_config *c) {
    rt__launch_config t = *c;
    t.block[0] = lanes;
    t.block[1] = OUTER_TALL_THREADS / lanes;
    t.num_threads = t.block[0] * t.block[1];
    t.max_threads = t.num_threads;
    t.output_mult[0] = 1; /* lanes own outputs, warp rows split the input */
    t.output_mult[1] = 0;
    t.step_output = lanes;
    t.input_mult[1] = 1;
    t.input_mult[2] = 0;
    t.step_input = t.block[1];
    t.ctas_per_output = 1;
    t.input_chunked = false;
    if (retune_global_split(it, op, dev, kinds_off, &t))
        return false;
    *c = t;
    return true;
}

/* Rule 10 where it applies (its measurement above OUTER_TALL_THREADS):
   tall_tiles of 16 lanes. */
static bool tall_outer(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                       unsigned kinds_off, rt__launch_config *c) {
    const int ovs = c->output_vec_size;
    if (op->row_lanes <= dev->warp_size || c->vectorize_input || c->input_mult[0] != 0 ||
        c->input_mult[1] == 0 || rt__config_kernel_threads(op, ovs) < OUTER_TALL_THREADS ||
        (int64_t)OUTER_TILE_LANES * ovs * op->input_size < OUTER_SEGMENT_BYTES ||
        it->num_outputs / ovs < OUTER_TILE_LANES)
        return false;
    return tall_tiles(it, op, dev, kinds_off, OUTER_TILE_LANES, c);
}

/* TUNED rule 14: rule 10's tall blocks over packed rows whose outputs do
   not fill their 16-lane tiles (C outputs, C / OVS lanes between 17 and
   31: two tiles, the second partly idle) take one tile of exactly C / OVS
   lanes instead, OUTER_TALL_THREADS / lanes warp rows (tall_tiles), and
   their own one-wave split. The rows are packed (the reduced stride is C
   elements), so a block's threads read one contiguous run a step and no
   lane idles. H200, f32 sum of [671088,100] over dim 0 (rule 10: 2 x 132
   blocks of 16 x 32, the second tile 9 lanes of 16: 6.7 MB in flight a
   wave; rule 14: 264 blocks of 25 x 20, 8.4 MB), rt_bench against
   --kinds-off whole-rows in alternating processes, three passes, medians
   of 100 (bench/NOTES.md v1.48, run 2):
     rule 10  69.74-70.24 us (89.9-90.2% of the read ceiling)
     rule 14  68.40-68.54 us (91.9-92.0%); eager 128.4
   (predicted 66-67, the 95-96% that [4096,32768] d0 reads at 8.4 MB in
   flight: 40% of it came). Unmeasured: 17-24 and 26-31 lanes (the GPU
   tests' 68, 96 and 124 columns check them against the reference).
   c is rule 10's plan; returns false, and leaves it alone, where the rule
   does not apply or the new split is capped. */
static bool whole_row_tile(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, unsigned kinds_off,
                           rt__launch_config *c) {
    const int64_t elem = op->input_size, cols = it->num_outputs;
    if (it->ndim != 2 || it->num_reduce_dims != 1 || it->strides[RT__ITER_IN][1] != elem ||
        it->strides[RT__ITER_IN][0] != cols * elem)
        return false;
    const int64_t lanes = cols / c->output_vec_size; /* OVS divides the outputs */
    if (lanes <= OUTER_TILE_LANES || lanes > dev->warp_size || lanes % OUTER_TILE_LANES == 0)
        return false;
    return tall_tiles(it, op, dev, kinds_off, (int)lanes, c);
}

/* TUNED rule 12: an outer reduction of a sum-like op in PyTorch's tiles
   (32 lanes x 4 outputs, 4 warp rows) that rule 2 splits over more than
   OUTER_TALL_SPLIT_MIN blocks a tile, a wave of 128-thread blocks, takes
   rule 10's tall blocks (16 lanes x 32 warp rows, 512 threads) and their
   own wave split instead. Column sums of 512 MiB, H100, us, env-var probe
   of lanes x warp rows / blocks a tile against TUNED in one process, three
   passes (bench/NOTES.md v1.18, device run 4):
                           TUNED (32 x 4)     16 x 32 (rule 10)  best probed
     [16384,8192] d0 (the  180.1-180.9 / 18   178.8-179.3 / 2    16 x 16 / 3
       suite's .t() d1)                                          177.8-178.0
     [32768,4096] d0       180.4-180.7 / 37   178.8-179.9 / 4    16 x 16 / 8
                                                                 178.4-178.6
     [65536,2048] d0       180.9-181.2 / 74   178.5-178.9 / 8    16 x 16 / 16
                                                                 178.0-178.3
     [8192,16384] d0       180.7-182.4 / 9    178.6-178.8 / 1    the same
   (32 x 4 with a power-of-two split, 16 / 32 / 64 / 8: 178.9-181.4, no
   lever alone; 16 x 8 with rule 9's half split, 9 on the first: 180.0.)
   Tall blocks are within 0.5% of the best tile probed on each and need no
   new shape; on an H200 (run 2) the first shape read 127.0 against 127.5-
   127.8. The rule against --kinds-off outer-tall-split, H100, three
   alternating passes (run 5), us: the four above 178.9-179.4 / 180.6-180.7,
   179.2-179.9 / 180.2-180.5, 178.8-178.9 / 181.0-181.2, 177.7-179.1 /
   180.5-181.4; [131072,1024] d0 179.1-179.5 / 182.7-183.0; amax of
   [16384,8192] d0 179.2-179.6 / 180.2-180.5; f64 [8192,8192] d0 and i32
   (into int64) [16384,8192] d0 within 0.4% either way (f64's kernel
   takes 128 threads at 4 outputs: the rule does not apply). Runs 6-7, two
   more H100s, two passes each: the same gains but the first shape's,
   0.2-1.5 us. A split of 2 keeps rule 9 (its d02 measurement). */
enum {
    OUTER_TALL_SPLIT_MIN = 2
};

/* Rule 12 where it applies: c in PyTorch's 32 x 4 tiles with a split over
   more than OUTER_TALL_SPLIT_MIN blocks, and rule 10's tall tiles no more
   than one wave (every shape measured; more tiles than that would run
   unsplit over a fraction of a second wave, not measured). Returns false,
   and leaves c alone, where it does not apply. */
static bool tall_split(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                       unsigned kinds_off, rt__launch_config *c) {
    if (c->block[0] != dev->warp_size || c->block[1] != 4 ||
        c->ctas_per_output <= OUTER_TALL_SPLIT_MIN)
        return false;
    rt__launch_config t = *c;
    if (!tall_outer(it, op, dev, kinds_off, &t))
        return false;
    const int64_t tiles = rt__div_up(it->num_outputs / t.output_vec_size, t.step_output);
    if (tiles > (int64_t)dev->num_sms * resident_blocks(op, dev, &t))
        return false;
    *c = t;
    return true;
}

/* Whether rule 15 pipelines op's strided and walk loops (where the
   plan reads neither vectors nor one output a thread). */
static bool pipelines(const rt__op_traits *op, unsigned kinds_off) {
    return op->pipelined && !(kinds_off & RT__RULE_OFF_PIPELINED);
}

/* TUNED rule 11: an outer reduction in PyTorch's tiles (32 lanes x 4
   outputs, 4 warp rows) that rule 2 splits over blocks, where the kernel
   takes 512 threads at 4 outputs a lane and tiles of 32 lanes x 16 warp
   rows (128 outputs, 512 threads) number 7/8 to all of one wave, or of
   two, takes those tiles with no split: four times the warps a tile stand
   for the blocks of the split, and the staging and the last block's fold
   go. H200, us, env-var probe against TUNED in one process, two passes
   (bench/NOTES.md v1.16, run 4):
                                  TUNED                 32 x 16, no split
     f32 sum [4096,32768] d0      127.3-127.5 (32 x 4,  125.8-126.4
                                  split 4)              (split 2: 128.0-128.2)
     f32 var same                 132.2 (16 x 8,        129.6-129.8
                                  split 2, rule 9)      (16 x 32: 135.6-136.3)
   (256 tiles on 132 SMs of 2 blocks of 512: 97% of a wave.) Two waves:
   H100, f32 sum of [32,256,64,256] over (0, 2) (512 tiles on a wave of
   264, rule 9's 16 x 8 with its split of 2 dropped otherwise),
   compare_torch's five passes, both plans in one process (bench/NOTES.md
   v1.40, run 4): 16 x 8 176.10-176.40 us, 32 x 16 175.44-175.65
   (torch.compile 175.42). Not two waves where rule 15 pipelines the
   loops, off H100-class GPUs: H200, the same d02, rt_bench, two
   alternating passes (bench/NOTES.md v1.49, run 2): pipelined 32 x 16
   121.71-121.98 us, pipelined 16 x 8 121.15-121.26 (unpipelined 122.80-
   123.01 and 122.40-123.07); the H100 is unmeasured pipelined. Returns
   false, and leaves c alone, where the rule does not apply. */
enum {
    WAVE_TILE_ROWS = 16,
    WAVE_TILE_MIN_EIGHTHS = 7, /* of the last wave */
    WAVE_TILE_MAX_WAVES = 2
};

static bool wave_tiles(const rt__iter *it, const rt__op_traits *op, const rt__device_props *dev,
                       unsigned kinds_off, rt__launch_config *c) {
    if (c->vectorize_input || c->input_mult[0] != 0 || c->input_mult[1] == 0 ||
        c->output_vec_size != 4 || c->block[0] != dev->warp_size || c->block[1] != 4 ||
        c->input_chunked || c->ctas_per_output < 2 ||
        rt__config_kernel_threads(op, 4) < dev->warp_size * WAVE_TILE_ROWS)
        return false;
    rt__launch_config t = *c;
    t.block[1] = WAVE_TILE_ROWS;
    t.num_threads = t.block[0] * t.block[1];
    t.max_threads = t.num_threads;
    t.ctas_per_output = 1;
    t.input_mult[2] = 0;
    t.step_input = WAVE_TILE_ROWS; /* warp rows step through the reduced index */
    const int64_t tiles = rt__div_up(it->num_outputs / 4, t.step_output);
    const int64_t wave = (int64_t)dev->num_sms * resident_blocks(op, dev, &t);
    const int64_t waves = rt__div_up(tiles, wave);
    if (waves > WAVE_TILE_MAX_WAVES ||
        (tiles - (waves - 1) * wave) * 8 < wave * WAVE_TILE_MIN_EIGHTHS)
        return false;
    if (waves > 1 && pipelines(op, kinds_off) && !rt__config_h100_class(dev))
        return false;
    *c = t;
    return true;
}

/* PyTorch's rule with TUNED's options (t: the traits with rule 1's vector
   path), then op's own unroll; policy TUNED. */
static rt_status rule_config(const rt__iter *it, const rt__op_traits *t, const rt__op_traits *op,
                             const rt__device_props *dev, const rt__rule_options *opt,
                             rt__launch_config *cfg) {
    RT_FORWARD_IF_ERROR(rt__config_pytorch_rule(it, t, dev, opt, cfg));
    cfg->vt0 = op->vt0;
    cfg->policy = RT_POLICY_TUNED;
    return RT_OK;
}

rt_status rt__config_tuned(const rt__iter *it, const rt__op_traits *op,
                           const rt__device_props *dev, unsigned kinds_off,
                           rt__launch_config *cfg) {
    /* The full reduction of a small or a large contiguous run, and short
       and medium contiguous rows, have kernel kinds of their own
       (tuned_tiny.c, tuned_stream.c and tuned_rows.c carry their
       measurements). */
    if (!(kinds_off & RT__KIND_BIT(RT__KERNEL_TINY)) && rt__config_tuned_tiny(it, op, dev, cfg))
        return RT_OK;
    if (!(kinds_off & RT__KIND_BIT(RT__KERNEL_STREAM)) &&
        rt__config_tuned_stream(it, op, dev, kinds_off, cfg))
        return RT_OK;
    if (!(kinds_off & RT__KIND_BIT(RT__KERNEL_ROWS)) &&
        rt__config_tuned_rows(it, op, dev, kinds_off, cfg))
        return RT_OK;
    /* 1. Lift PyTorch's vt0 >= input_vec_size gate of the contiguous vector
       path (it only bites 16-bit sums and means): H200, bf16 [32768,4096]
       sum dim 1, 83.6 us -> 65.1 us (96.6% of the read ceiling; eager
       70.8); f16 83.0 -> 66.2. */
    rt__op_traits t = *op;
    if (t.vt0 < t.input_vec_size)
        t.vt0 = t.input_vec_size;
    /* 4. A contiguous fastest reduced dim among several is read in
       vectors (PyTorch: only a single reduced dim). H200, f32
       [32,32,16,32,128] sum over (0,2,4), 128-element rows: 132.1 ->
       66.6 us (48.5 -> 95.8% of the read ceiling; eager 133.8).
       5. Ops whose state carries an index take one output per thread
       across outputs (PyTorch: up to 4): 4 (value, index) pairs per
       thread held 87 registers. H200, argmax of [4096,32768] over dim 0:
       4 outputs 179.9 us, 2 153.3, 1 144.6 (eager 179.4; 1 output with
       6 loads in flight, ArgOp::strided_loads, 130.3-130.8). (Not for
       Welford's 16-byte states: var over dim 0 151.7 / 166.4 / 156.9.) */
    rt__rule_options opt = {true, op->indexed ? 1 : 4};
    RT_FORWARD_IF_ERROR(rule_config(it, &t, op, dev, &opt, cfg));

    /* 2, 7. The block split of the reduced index. */
    bool capped = retune_global_split(it, op, dev, kinds_off, cfg);
    /* 10. Tall outer blocks (above), before rule 8's narrower ones. */
    if (capped && !(kinds_off & RT__RULE_OFF_OUTER_TALL) &&
        tall_outer(it, op, dev, kinds_off, cfg)) {
        capped = false;
        /* 14. One tile of every output where rule 10's leave lanes idle. */
        if (!(kinds_off & RT__RULE_OFF_WHOLE_ROWS))
            whole_row_tile(it, op, dev, kinds_off, cfg);
    }
    /* 8. Lanes that own outputs, with the split held under a wave by the
       last block's fold (few outputs, long reductions): half the outputs
       a thread give twice the block rows, which fold twice the partials
       a trip. Sum-like ops (as rule 7). H100, one run, three passes each
       (bench/NOTES.md v1.10, device runs 7 and 8):
                                       4 outputs    2 outputs    1 output
         f32 mean NHWC [32,256,64,64] 53.6-53.9    51.0-51.3    51.3-51.6 us
           over (0,2,3)               (2 x 256 blocks of 32 x 4; 4 x 165 of
                                       32 x 8, one wave; 8 x 66 of 32 x 16)
         f32 sum [671088,100] d0     101.6-102.1   98.7-99.3       -
           (2 x 512 blocks of 16 x 8; 2 x 330 of 32 x 8)
       Unchanged: every other case of the suite (the cap binds nowhere
       else). Welford and indexed states stay capped (unmeasured). Also
       moved, unmeasured: column sums of int64 states and the f64 p = 2
       norm (one partial a trip), e.g. the GPU tests' [100003,64] i32 sums
       and [5000,64] f64 norms, to 1 output a thread (bench/NOTES.md
       v1.11). */
    while (capped && cfg->output_vec_size > 1 && op->row_lanes > dev->warp_size) {
        opt.max_output_vec = cfg->output_vec_size / 2;
        rt__launch_config alt;
        if (rule_config(it, &t, op, dev, &opt, &alt) != RT_OK)
            break;
        capped = retune_global_split(it, op, dev, kinds_off, &alt);
        *cfg = alt;
    }
    /* 3. No block_y_reduce in blocks one warp row tall. H200, f32 full
       sums, COMPAT -> TUNED in one run: 4 KB 5.02 -> 4.54 us, 16 KB
       5.55 -> 5.31 (64 KB 6.61 both). (Tried and
       dropped: 256 elements on one warp instead of 64 lanes, 4.51 -> 5.15
       us, each lane then waits for two loads in turn.) */
    /* 9. Outer tiles of 16 x 8 (above), where the split is rule 2's wave
       (measured there), not one the last block's fold caps. */
    /* 11. A wave of tiles of 512 threads (above), before rule 9. */
    const bool wave = !capped && !(kinds_off & RT__RULE_OFF_OUTER_WAVE) &&
                      wave_tiles(it, op, dev, kinds_off, cfg);
    /* 12. Rule 10's tall blocks (above) for a split over more than 2
       blocks a tile that the fold does not cap, before rule 9. */
    const bool tall = !capped && !wave && !(kinds_off & RT__RULE_OFF_OUTER_TALL_SPLIT) &&
                      tall_split(it, op, dev, kinds_off, cfg);
    if (!capped && !wave && !tall && !(kinds_off & RT__RULE_OFF_OUTER_TILES))
        outer_tiles(op, dev, cfg);
    drop_idle_y_split(cfg);
    /* 6. Row blocks of 128 threads. */
    reshape_row_blocks(it, op, dev, cfg);
    /* 15. The strided and uniform-walk loops pipelined where the kernel
       has them (op->pipelined, 2 and 4 outputs a thread; the vector path
       keeps its batches). H200, bench/outer_probe.cu d02 (f32
       [32,256,64,256] over (0, 2), 16 x 8 tiles, one wave): a 4-load ring
       120.42-120.48 us against batches of 4 124.51-124.67, and the
       library's batches 122.29-122.85 (bench/NOTES.md v1.49). */
    cfg->pipelined = pipelines(op, kinds_off) && !cfg->vectorize_input && cfg->output_vec_size > 1;
    rt__config_finish(it, op, cfg, dev->warp_size);
    return RT_OK;
}
