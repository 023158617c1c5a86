/*
 * Launch configuration: how one reduction piece is spread over a GPU.
 * A pure function of (iter, element sizes, op traits, device properties),
 * no CUDA headers. Two policies: COMPAT reproduces PyTorch 2.11's
 * setReduceConfig (checked against tests/data/torch_reduce_configs.jsonl);
 * TUNED is ours (bench/NOTES.md has the measurements behind it).
 */
#ifndef RT_CONFIG_H
#define RT_CONFIG_H

#include "iter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the config needs of the device; filled from cudaDeviceProp by the
   CUDA backend, or by hand (rt_explain, tests). */
typedef struct rt__device_props {
    int num_sms;               /* multiProcessorCount (H200: 132) */
    int max_threads_per_sm;    /* maxThreadsPerMultiProcessor (2048) */
    int warp_size;             /* 32 */
    int max_threads_per_block; /* 1024 */
    int shared_mem_per_block;  /* bytes, default opt-in-free limit (49152) */
    int l2_bytes;              /* L2 size in bytes (H200: 60 MiB), 0 if unknown */
    int regs_per_sm;           /* 32-bit registers per SM (65536), 0 if unknown */
    int mem_gbps;              /* peak DRAM bandwidth in GB/s: memory clock x bus
                                  width x 2 from the runtime's attributes (an
                                  H100 SXM's 2.619 GHz x 5120 bits: 3352; the
                                  H200 model's 3.2 GHz x 6144 bits, its spec:
                                  4915), 0 if unknown */
    /* 1: a kernel may launch as the programmatic dependent of the one
       before it in the stream (PDL: compute capability 9.0 or newer, and
       the library's kernels built for it, cuda_context.c); 0 otherwise */
    int dependent_launch;
} rt__device_props;

/* The H200 of the ground-truth file: 132 SMs, 2048 threads/SM. */
rt__device_props rt__device_props_h200(void);

/* What the config needs of the op. */
typedef struct rt__op_traits {
    int input_size;     /* bytes per input element (scalar_t) */
    int output_size;    /* bytes per output element */
    int acc_size;       /* bytes of the accumulator state (arg_t): shared
                           memory and staging are sized by it */
    int vt0;            /* values per thread per unrolled step: 4, 2 for var/std */
    int input_vec_size; /* vector width of the contiguous input path: vt0, 8
                           for 16-bit sum/mean (PyTorch's choice) */
    int noutputs;       /* 1, 2 for min/max with indices */
    bool indexed;       /* the state carries an index: argmin/argmax, min/max
                           with indices */
    /* Lanes per row when TUNED reads the rows of a row reduction (one
       contiguous reduced dim) in vectors through the general kernel
       (tuned.c rule 6): 128 for sum, prod, mean, min/max without indices
       and the p = 2 norm, whose state is one number folded like a sum;
       32 for the rest. Not a PyTorch template argument: TUNED alone
       reads it. */
    int row_lanes;
    /* 16-byte vectors a thread of the ROWS block kernel loads at once at
       most (tuned_rows.c rows_block): 4; 2 for norms of run-time p; 0 (no
       block kernel) for 16-bit (value, index) states. The kernel is built
       for no more (reduce_rows.cuh BlockRowsMaxLoads): more spilled under
       its 32-register bound (-Xptxas -v, sm_90). TUNED alone reads it. */
    int row_block_loads;
    /* Sums, means, var and std: the block kernel spreads an aligned row
       over twice the threads at 2 vectors each, up to 512 (tuned_rows.c
       rows_block). TUNED alone reads it. */
    bool row_block_wide;
    /* var and std: where one batch covers aligned rows of whole vectors
       (exactly or in part, one or two rows a block), the block kernel
       takes each thread's mean and squared deviations from registers and
       merges them in one block reduction (tuned_rows.c rows_block). TUNED
       alone reads it. */
    bool row_two_pass;
    /* var and std of f32 inputs: outer reductions over contiguous columns
       take the ROWS column kernel, a thread a column (tuned_rows.c
       rows_cols). TUNED alone reads it. */
    bool col_thread;
    /* The same for the block kernel of two rows a block: as row_block_loads
       but 2 for 1- and 2-byte inputs (four of each row spilled 26-100 bytes
       under its 64-register bound in byte sums and 16-bit max), and 0 (a
       row a block) for states over 16 bytes (f64 var ran 9% slower two
       rows a block). */
    int row_pair_loads;
    /* The STREAM kernel's state is a double (f64 sums, means, products,
       min/max without indices, the p = 2 norm; acc_size 8): grids over a
       wave fold it through slots (rt__launch_config stream_slots). TUNED
       and the launch check read it. */
    bool slot_state;
    /* Sums, products and means of 4-byte states (f32, f16, bf16): the
       general kernel at 2 and 4 outputs a thread is built with pipelined
       strided and uniform-walk loops (reduce_ops.cuh SumProdOp::pipelined),
       which TUNED turns on (rule 15). */
    bool pipelined;
    /* Registers per thread of the general kernel built for output_vec_size
       1, 2 and 4 on the device at hand (the CUDA backend fills them in);
       0: unknown, and TUNED then assumes a full SM of threads. */
    int kernel_regs[3];
    /* The most threads a block of the general kernel built for
       output_vec_size 1, 2 and 4 (its launch bounds, reduce_body.cuh
       GeneralBounds; the CUDA backend fills them in); 0: unknown, read as
       PyTorch's 512 / output_vec_size (rt__config_kernel_threads). */
    int kernel_threads[3];
} rt__op_traits;

/* PyTorch's traits for (op, input dtype, output dtype), and TUNED's
   row_lanes. p is the norm's p (RT_OP_NORM only, other ops ignore it):
   p = 2 runs a kernel of its own (family NORM2, cuda_exec.c). */
rt__op_traits rt__op_traits_for(rt_op op, rt_dtype in, rt_dtype out, bool has_indices, double p);

typedef enum rt__kernel_kind {
    RT__KERNEL_GENERAL = 0, /* the staged kernel of DESIGN.md section 6 */
    /* One contiguous reduced dim of short or medium length: lane groups
       per row or a shared-memory tile of packed rows (reduce_rows.cuh,
       chosen by tuned_rows.c). Uses block[0], grid[0], num_threads,
       shared_memory_bytes and the rows_* fields; no mults, no staging. */
    RT__KERNEL_ROWS = 1,
    /* One block of whole warps reduces one contiguous run of at most
       RT__TINY_MAX_BYTES to one output (reduce_tiny.cuh, chosen by
       tuned_tiny.c): the full reduction of a small tensor. Uses block[0]
       only; its shared memory is static, no staging. */
    RT__KERNEL_TINY = 2,
    /* The full reduction of a large contiguous run: block b of grid[0]
       reduces the input_mult[2] vectors [b * input_mult[2], (b + 1) *
       input_mult[2]) of one output in rounds of loads a thread, and one
       block folds the blocks' partials: the last to finish, the grid's
       last (stream_fold_last), or a fold kernel launched as the grid's
       dependent (stream_dependent) (reduce_tiny.cuh, chosen by
       tuned_stream.c). Uses block[0], grid[0], input_mult[2],
       staging_bytes (a partial per block) and semaphore_count (one
       count; none with the dependent fold; slots, stream_slots); its
       shared memory is static. */
    RT__KERNEL_STREAM = 3
    /* TUNED adds kinds here with their measurements. */
} rt__kernel_kind;

/* A mask of kernel kinds (1 << RT__KERNEL_*) that TUNED must not choose
   (rt__config_compute_without): tests and benchmarks run a call through
   the general kernel to check or time a kind of its own against it. The
   same mask also turns off single TUNED rules of the general kernel
   (RT__RULE_OFF_*, bits above the kinds), for the same A/B use. */
#define RT__KIND_BIT(kind) (1u << (unsigned)(kind))
/* TUNED rule 9 (tuned.c): outer tiles of 16 lanes x 8 warp rows. */
#define RT__RULE_OFF_OUTER_TILES (1u << 16)
/* The ROWS warp kernel (tuned_rows.c): its rows go where they went before. */
#define RT__RULE_OFF_ROWS_WARP (1u << 17)
/* The ROWS block kernel's wide blocks for sums (tuned_rows.c): 4 vectors a
   thread again. */
#define RT__RULE_OFF_ROW_BLOCK_WIDE (1u << 18)
/* TUNED rule 10 (tuned.c): tall outer blocks of 16 lanes x 32 warp rows. */
#define RT__RULE_OFF_OUTER_TALL (1u << 19)
/* TUNED rule 11 (tuned.c): a wave of outer tiles of 32 lanes x 16 warp
   rows, no split. */
#define RT__RULE_OFF_OUTER_WAVE (1u << 20)
/* The ROWS block kernel's two-pass var/std (tuned_rows.c): Welford's
   folds again. */
#define RT__RULE_OFF_ROW_TWO_PASS (1u << 21)
/* TUNED rule 7 (tuned.c): a block split in contiguous chunks, on H100-class
   GPUs; PyTorch's interleaved one-wave split instead. */
#define RT__RULE_OFF_CHUNKED (1u << 22)
/* The ROWS tile's half tiles for rows of 128 bytes (tuned_rows.c), on
   H100-class GPUs: the full tile again. */
#define RT__RULE_OFF_HALF_TILE (1u << 23)
/* TUNED rule 12 (tuned.c): rule 10's tall outer blocks for a split over
   more than 2 blocks a tile that the fold does not cap. */
#define RT__RULE_OFF_OUTER_TALL_SPLIT (1u << 24)
/* TUNED rule 13 (tuned.c): PyTorch's 256-value cap may push a block split
   past one wave again. */
#define RT__RULE_OFF_UNCAPPED_SPLIT (1u << 25)
/* The general kernel's walks over two reduced dims or whole units of the
   slowest (the executor's kernel argument `walk`, cuda_args.c): every
   reduced index's offset divided out again. */
#define RT__RULE_OFF_WALK (1u << 26)
/* The ROWS column kernel for outer var/std (tuned_rows.c rows_cols): the
   general kernel's outer tiles again. */
#define RT__RULE_OFF_ROWS_COLS (1u << 27)
/* Not a rule: the CUDA context's plan memo (src/kernels/cuda_memo.c) is
   neither looked at nor filled, so every call is planned whole. */
#define RT__RULE_OFF_MEMO (1u << 28)
/* The ROWS kernels' exact rows (tuned_rows.c, the config's rows_exact):
   the general row start and store again, and the block kernel's head,
   tail and bounds. */
#define RT__RULE_OFF_ROW_EXACT (1u << 29)
/* The STREAM kernel's dependent fold (tuned_stream.c, the config's
   stream_dependent): the grid's last block folds again. */
#define RT__RULE_OFF_STREAM_DEPENDENT (1u << 30)
/* TUNED rule 14 (tuned.c): rule 10's two 16-lane tiles over packed rows
   again, where one tile of exactly the outputs' lanes replaces them. */
#define RT__RULE_OFF_WHOLE_ROWS (1u << 31)
/* TUNED rule 15 (tuned.c): the general kernel's pipelined loops. The rule
   bits above the kinds are spent; from here they go down from bit 15,
   which leaves bits 4 up to the lowest rule bit to new kernel kinds. */
#define RT__RULE_OFF_PIPELINED (1u << 15)
/* The LEAN walk kernel (reduce_walk.cu; the executor's choice, cuda_exec.c
   lean_walk, as the walk itself is): its plans through the general
   kernel again. */
#define RT__RULE_OFF_LEAN_WALK (1u << 14)

/* The TINY kernel's largest block (its launch bound) and the largest run
   the config gives it, in bytes: read by the config (tuned_tiny.c), its
   check (cuda_args.c) and the kernel (reduce_tiny.cuh). */
#define RT__TINY_MAX_THREADS 256
#define RT__TINY_MAX_BYTES 16384

/* The STREAM kernel's block (its launch bound, and the config's only
   block size). */
#define RT__STREAM_THREADS 512

/* The widest vector (bytes) a kernel reads on the contiguous path: 4
   eight-byte elements. */
#define RT__ND_VEC_BYTES 32

/* Partials per thread the last block of a global reduce loads at once, by
   accumulator size: 8 of 4-byte accumulators, 1 of larger ones, so the
   batch stays inside the registers the kernel already uses for its loads
   (-Xptxas -v, sm_90: f32 sums with 4 outputs per thread 55 -> 56
   registers; 2 at once took int64 sums from 70 to 96, 8 Welford states
   f32 var from 56 to 72). Read by the kernel (reduce_body.cuh) and by
   TUNED's cap on block splits (tuned.c). */
#define RT__TAIL_LOADS(acc_bytes) ((acc_bytes) <= 4 ? 8 : 1)

/* The ROWS short kernel (reduce_rows.cuh short_rows) takes rows of up to
   this many elements with scalar loads, the whole row loaded at once; the
   config (tuned_rows.c), its check (cuda_args.c) and the kernel's
   instantiations (4 and 8 loads a row) all read it from here. */
#define RT__ROWS_SHORT_MAX 8

/* The ROWS warp kernel (reduce_rows.cuh warp_rows): a warp on this many
   adjacent rows, blocks of 1 to RT__ROWS_WARP_MAX_WARPS warps on rows of
   their own, each lane loading elements lane, lane +
   32, ... of every row at once: RT__ROWS_WARP_MAX_LOADS of them a row, or
   one fewer (instantiations of 5 and 4: rows of 129-160 and 97-128
   elements), or, for aligned rows of whole 16-byte vectors (rows_vec),
   one vector of each row. Read by the config (tuned_rows.c), its check
   (cuda_args.c) and the kernel. */
#define RT__ROWS_WARP_ROWS 4
#define RT__ROWS_WARP_MAX_LOADS 5
/* The most warps a block of the warp kernel takes (each on rows of its
   own: blocks of several warps only pack more of them a SM). */
#define RT__ROWS_WARP_MAX_WARPS 4

/* The ROWS column kernel (reduce_rows.cuh cols): one strided reduced dim
   over contiguous columns, a thread a column; blocks of
   RT__ROWS_COLS_WIDTH columns x RT__ROWS_COLS_LANES row lanes, each lane
   taking every RT__ROWS_COLS_LANES-th row with RT__ROWS_COLS_LOADS of
   them in flight, folded as one batch. Read by the config (tuned_rows.c),
   its check (cuda_args.c) and the kernel. */
#define RT__ROWS_COLS_WIDTH 64
#define RT__ROWS_COLS_LANES 4
#define RT__ROWS_COLS_LOADS 12

typedef struct rt__launch_config {
    rt_policy policy;     /* COMPAT or TUNED, as chosen */
    rt__kernel_kind kernel;
    int block[3];         /* x, y, 1 (block_width, block_height) */
    /* x = ceil((num_outputs / output_vec_size) / step_output) output tiles,
       y = ctas_per_output, 1 */
    int grid[3];
    int num_threads;      /* block[0] * block[1] */
    /* PyTorch's ReduceConfig multipliers, in units of the iter's linear
       reduced index ("input", 0 .. inputs_per_output) and linear kept index
       ("output", 0 .. num_outputs):
         input_idx  = threadIdx.x * input_mult[0] + threadIdx.y * input_mult[1]
                      + blockIdx.y * input_mult[2]
         output_idx = (threadIdx.x * output_mult[0] + threadIdx.y * output_mult[1]
                      + blockIdx.x * step_output) * output_vec_size
       A thread reduces inputs input_idx, input_idx + step_input, ... (below
       inputs_per_output) of outputs output_idx .. output_idx +
       output_vec_size - 1 (below num_outputs). A non-zero input_mult[k]
       means level k (lanes, warps, blocks) splits the reduced index and must
       be combined: block_x_reduce, block_y_reduce, global_reduce. */
    int input_mult[3];
    int output_mult[2];
    int step_input;        /* stride between a thread's successive inputs */
    int step_output;       /* outputs (in output_vec_size units) per block */
    int ctas_per_output;   /* blocks along grid.y per output tile; > 1 exactly
                              when input_mult[2] != 0 (global reduce) */
    /* How grid.y splits the reduced index. false: PyTorch's interleaving,
       block y starting at y * input_mult[2] and stepping by step_input
       (the whole grid's step) to the end. true (TUNED): block y reads the
       contiguous run [y * input_mult[2], (y + 1) * input_mult[2]) alone,
       stepping by step_input, the block's own step (input_mult[2] is a
       multiple of it); on the vector path both count vectors. */
    bool input_chunked;
    /* The reduced dim is the input's contiguous fastest dim and is read
       with aligned vectors of input_vec_size elements, head and tail
       scalar (PyTorch's input_vectorized_thread_reduce_impl); then
       output_vec_size is 1 and block.x lanes stride by input_vec_size. */
    bool vectorize_input;
    /* (TUNED also vectorizes a contiguous fastest reduced dim among
       several: then that dim's extent in bytes, the input base and every
       other input stride are multiples of RT__ND_VEC_BYTES.) */
    int input_vec_size;    /* elements per vector load when vectorize_input */
    /* 1, 2 or 4 adjacent outputs per thread: the fastest kept dim is
       contiguous in the input and the input base, that dim's extent and all
       other input strides are multiples of it, so each load of
       output_vec_size elements is aligned. */
    int output_vec_size;
    /* The general kernel's strided and walk loops issue a batch's loads
       before they fold the batch before it (reduce_body.cuh
       pipeline_batches): TUNED, where the vector path does not read. */
    bool pipelined;
    int vt0;               /* independent accumulators (unroll) per thread */
    int max_threads;       /* 512 / output_vec_size: the kernel's template bound */
    /* Dynamic shared memory per block (PyTorch's shared_memory_size):
       acc_size * num_threads * output_vec_size when block_y_reduce, or
       block_x_reduce with block[0] > warp size; 0 otherwise. */
    int shared_memory_bytes;
    /* Global reduce partials: slot (blockIdx.y + blockIdx.x * grid.y), times
       block[0] plus threadIdx.x when !block_x_reduce, each slot holding
       output_vec_size accumulators: acc_size * output_vec_size * grid.x *
       grid.y * (block_x_reduce ? 1 : block[0]) bytes; 0 without global
       reduce. (PyTorch allocates a looser bound of the same layout.) */
    int64_t staging_bytes;
    int64_t semaphore_count; /* global reduce: one int per grid.x block, else 0 */
    /* RT__KERNEL_STREAM with more blocks than the GPU holds at once: the
       grid's last block folds the partials once every other block has
       counted, and those count without waiting for an answer. false: the
       last block to count folds them, each block waiting for its count's
       answer (tuned_stream.c says why). */
    bool stream_fold_last;
    /* RT__KERNEL_STREAM with more blocks than the GPU holds at once, on a
       device with dependent_launch, instead of stream_fold_last: each
       block stores its state in staging and exits (no count, no fence),
       and a one-block fold kernel, launched as the grid's programmatic
       dependent, waits for the grid's stores and folds them in block
       order. semaphore_count is then 0 (tuned_stream.c says why). */
    bool stream_dependent;
    /* stream_fold_last with a double state (the op's slot_state): each
       block stores its state in a slot of the semaphore region as a word
       that is never 0 and exits; the slots are folded as they fill, in a
       fixed order, each reset to 0 once read (reduce_tiny.cuh
       fold_slots). staging_bytes is then 0 (tuned_stream.c says why). */
    bool stream_slots;
    /* stream_slots: the slots of blocks [g * stream_slot_group,
       (g + 1) * stream_slot_group) are group g, folded by block
       (g + 1) * stream_slot_group + stream_slot_delay - 1 where that is
       not the grid's last, into word grid[0] + g of the semaphore region;
       the grid's last block folds those words and the groups left. So
       semaphore_count is 2 a block and 2 a group (two ints a word). The
       group is a whole number of packs of two slots a thread, at least
       one a thread. 0 and 0 without slots. */
    int64_t stream_slot_group;
    int64_t stream_slot_delay;
    /* RT__KERNEL_ROWS only (0 / false otherwise). */
    bool rows_tile;     /* packed rows through a shared-memory tile of
                           rows_per_block rows */
    bool rows_short;    /* a thread per row of at most 8 scalars or one
                           16-byte vector, each row read in one batch */
    bool rows_block;    /* a block of block[0] threads per row, or per
                           two rows (rows_per_block 2), rows_in_flight
                           16-byte vectors per thread and row per batch */
    bool rows_warp;     /* a warp on rows_in_flight (RT__ROWS_WARP_ROWS)
                           adjacent rows, every scalar load of them issued
                           at once; block[0] / 32 warps a block */
    bool rows_cols;     /* one strided reduced dim over contiguous columns:
                           a thread a column, rows_per_block
                           (RT__ROWS_COLS_WIDTH) columns x
                           RT__ROWS_COLS_LANES row lanes a block,
                           rows_in_flight loads a lane in flight; an
                           output is a column here, not a row */
    bool rows_two_pass; /* block, Welford's var/std: one batch covers the
                           rows (aligned, of whole vectors, L <=
                           rows_in_flight * block[0] * rows_vec, block[0] a
                           power of two), so each thread's mean and squared
                           deviations come from registers, merged in one
                           block reduction */
    bool rows_exact;    /* one kept dim: the kernel starts row o at o x
                           its stride and stores the output straight
                           (tuned_rows.c). block: only a row a block (in
                           two passes, not at 3 vectors a thread) of
                           exactly rows_in_flight x block[0] aligned
                           vectors, read in one batch with no head, tail
                           or bounds; direct, short, warp: any such rows,
                           bounds as before; never the tile */
    int rows_group;     /* lanes per row, a power of two 1..32; block:
                           block[0] */
    int rows_vec;       /* elements per load: 1, or 16 bytes' worth (block:
                           always 16 bytes) */
    int rows_in_flight; /* direct, short, warp: rows per lane group; block[0] / 32 warps
                           each cover rows_in_flight * 32 / rows_group
                           adjacent rows. block: vector loads per thread
                           per batch (1, 2 or 4; 3 for 16-bit values in
                           two passes, a row a block) */
    int rows_per_block; /* rows a block covers: grid[0] = ceil(outputs / it) */
    int rows_rot_shift; /* tile: row r starts at column rows_group * ((r >> */
    int rows_rot_mask;  /* shift) & mask) mod L, so rows sharing a bank
                           start on different banks */
} rt__launch_config;

/* Whether the config reduces across warps in shared memory, across lanes,
   and across blocks (PyTorch's should_block_y_reduce etc.). */
bool rt__config_block_x_reduce(const rt__launch_config *c);
bool rt__config_block_y_reduce(const rt__launch_config *c);
bool rt__config_global_reduce(const rt__launch_config *c);

/* Units of the reduced index that the mults and steps count: vectors of
   input_vec_size elements on the vector path (rounded up: a head off the
   vector boundary can add one), else elements. */
int64_t rt__config_input_units(const rt__iter *it, const rt__launch_config *c);

/* The most threads a block of op's general kernel takes at output_vec_size
   ovs (1, 2 or 4): op->kernel_threads where known, else PyTorch's bound,
   512 / ovs. */
int rt__config_kernel_threads(const rt__op_traits *op, int ovs);

/* The most DRAM bandwidth (GB/s) of an "H100-class" GPU: the H100 SXM's
   3352 and less, not the H200's ~4.9 TB/s. */
#define RT__H100_CLASS_MAX_GBPS 4000

/* Whether dev's DRAM bandwidth is known and at most RT__H100_CLASS_MAX_GBPS.
   The kinds and shapes that keep fewer bytes in flight a SM than the
   others (the ROWS warp kernel, the STREAM kernel's 4 vectors a thread
   over 64 MiB, the block kernel's wide rows, the tile's half tiles, rule
   7's contiguous chunks) measured faster on an H100 and slower on an H200
   (bench/NOTES.md v1.15-v1.17), so TUNED takes them only here; unknown
   bandwidth keeps the shapes that hold up on both. */
bool rt__config_h100_class(const rt__device_props *dev);

/*
 * Computes the launch configuration of one piece. policy must be COMPAT or
 * TUNED. The iter must fit 32-bit indexing (one piece). Returns
 * RT_ERR_INTERNAL for an iter with no work (num_outputs or
 * inputs_per_output 0: the executor handles those without a launch) and
 * RT_ERR_BAD_ARGUMENT for an unknown policy or impossible props.
 */
rt_status rt__config_compute(const rt__iter *it, const rt__op_traits *op,
                             const rt__device_props *dev, rt_policy policy,
                             rt__launch_config *cfg);

/* rt__config_compute with the kernel kinds in kinds_off (RT__KIND_BIT
   mask; RT__KERNEL_GENERAL's bit is ignored) left to the general kernel:
   TUNED plans the call as if those kinds did not exist, and without the
   rules kinds_off turns off (RT__RULE_OFF_*). COMPAT has the
   general kernel only and ignores the mask. rt__config_compute is this
   with 0. */
rt_status rt__config_compute_without(const rt__iter *it, const rt__op_traits *op,
                                     const rt__device_props *dev, rt_policy policy,
                                     unsigned kinds_off, rt__launch_config *cfg);

/* Appends the config as JSON members ("block":[x,y,z],...) to buf
   (snprintf convention: returns the length the full text needs). */
int rt__config_to_json(const rt__launch_config *c, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RT_CONFIG_H */
