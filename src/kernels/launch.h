/*
 * The seam between the host executor (C, cuda_exec.c) and the kernels
 * (CUDA C++, reduce_*.cu): the kernel argument block, the list of kernel
 * families and dtypes, and the table entry each instantiation exports.
 *
 * One X-macro list, RT__FOR_EACH_KERNEL, names every (family, dtype) pair.
 * It stamps out the instantiations (one family per .cu file, so a clean
 * build compiles them in parallel) and the host dispatch switch
 * (dispatch.c), so the two can never disagree.
 */
#ifndef RT_KERNELS_LAUNCH_H
#define RT_KERNELS_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel families: ops that share one accumulator and one kernel. The op
   inside a family is chosen at run time by rt__kernel_args.op_mode. */
#define RT__FAMILY_LIST(X)                                                                         \
    X(SUM, sum)         /* sum, mean (mode RT__MODE_MEAN scales by 1/N) */                         \
    X(PROD, prod)                                                                                  \
    X(MIN, min)         /* amin without indices */                                                 \
    X(MAX, max)                                                                                    \
    X(ARGMIN, argmin)   /* argmin, and min with indices (RT__MODE_VALUES) */                       \
    X(ARGMAX, argmax)                                                                              \
    X(WELFORD, welford) /* var, std (RT__MODE_STD) */                                              \
    X(NORM, norm)       /* p = 0, 1 or another finite p (not 2): a sum of |x|^p */                 \
    X(NORMEXT, normext) /* p = +inf (max |x|) or -inf (min |x|, RT__MODE_NEG) */                   \
    X(ANY, any)         /* any, all (RT__MODE_ALL: any of x == 0, negated) */                      \
    X(NORM2, norm2)     /* p = 2: sqrt of a sum of squares (no run-time p) */

typedef enum rt__family {
#define RT__FAMILY_ENUM(FAM, fam) RT__FAM_##FAM,
    RT__FAMILY_LIST(RT__FAMILY_ENUM)
#undef RT__FAMILY_ENUM
        RT__FAM_COUNT
} rt__family;

/* op_mode values, per family (see RT__FAMILY_LIST). */
enum {
    RT__MODE_PLAIN = 0,
    RT__MODE_MEAN = 1,   /* SUM: project sum * param0 (param0 = 1/N) */
    RT__MODE_VALUES = 1, /* ARGMIN/ARGMAX: out gets the value, idx the index */
    RT__MODE_STD = 1,    /* WELFORD: sqrt of the variance */
    RT__MODE_NEG = 1,    /* NORMEXT: p = -inf */
    RT__MODE_ALL = 1,    /* ANY: all() */
    /* NORM: which power; param0 = p, param1 = 1/p for the general one. */
    RT__NORM_P0 = 0,
    RT__NORM_P1 = 1,
    RT__NORM_P2 = 2,
    RT__NORM_PGEN = 3
};

/* X(fam, FAM, dtype suffix, dtype enum) rows for float / integer and bool / all
   dtypes. */
#define RT__FLOAT_DTYPE_ROWS(X, fam, FAM)                                                          \
    X(fam, FAM, f32, RT_F32)                                                                       \
    X(fam, FAM, f64, RT_F64)                                                                       \
    X(fam, FAM, f16, RT_F16)                                                                       \
    X(fam, FAM, bf16, RT_BF16)
#define RT__INT_DTYPE_ROWS(X, fam, FAM)                                                            \
    X(fam, FAM, i8, RT_I8)                                                                         \
    X(fam, FAM, u8, RT_U8)                                                                         \
    X(fam, FAM, i16, RT_I16)                                                                       \
    X(fam, FAM, i32, RT_I32)                                                                       \
    X(fam, FAM, i64, RT_I64)                                                                       \
    X(fam, FAM, bool, RT_BOOL)
#define RT__ALL_DTYPE_ROWS(X, fam, FAM)                                                            \
    RT__FLOAT_DTYPE_ROWS(X, fam, FAM) RT__INT_DTYPE_ROWS(X, fam, FAM)

/* Per family: the dtypes it is instantiated for. */
#define RT__KERNELS_SUM(X) RT__ALL_DTYPE_ROWS(X, sum, SUM)
#define RT__KERNELS_PROD(X) RT__ALL_DTYPE_ROWS(X, prod, PROD)
#define RT__KERNELS_MIN(X) RT__ALL_DTYPE_ROWS(X, min, MIN)
#define RT__KERNELS_MAX(X) RT__ALL_DTYPE_ROWS(X, max, MAX)
#define RT__KERNELS_ARGMIN(X) RT__ALL_DTYPE_ROWS(X, argmin, ARGMIN)
#define RT__KERNELS_ARGMAX(X) RT__ALL_DTYPE_ROWS(X, argmax, ARGMAX)
#define RT__KERNELS_WELFORD(X) RT__FLOAT_DTYPE_ROWS(X, welford, WELFORD)
#define RT__KERNELS_NORM(X) RT__FLOAT_DTYPE_ROWS(X, norm, NORM)
#define RT__KERNELS_NORMEXT(X) RT__FLOAT_DTYPE_ROWS(X, normext, NORMEXT)
#define RT__KERNELS_ANY(X) RT__ALL_DTYPE_ROWS(X, any, ANY)
#define RT__KERNELS_NORM2(X) RT__FLOAT_DTYPE_ROWS(X, norm2, NORM2)

/* THE list: every (family, dtype) that has a kernel. */
#define RT__FOR_EACH_KERNEL(X)                                                                     \
    RT__KERNELS_SUM(X)                                                                             \
    RT__KERNELS_PROD(X)                                                                            \
    RT__KERNELS_MIN(X)                                                                             \
    RT__KERNELS_MAX(X)                                                                             \
    RT__KERNELS_ARGMIN(X)                                                                          \
    RT__KERNELS_ARGMAX(X)                                                                          \
    RT__KERNELS_WELFORD(X)                                                                         \
    RT__KERNELS_NORM(X)                                                                            \
    RT__KERNELS_NORMEXT(X)                                                                         \
    RT__KERNELS_ANY(X)                                                                             \
    RT__KERNELS_NORM2(X)

/* Fast unsigned division by a fixed divisor (PyTorch's IntDivider):
   n / d == (umulhi(n, magic) + n) >> shift for every n < 2^31. */
typedef struct rt__divmod {
    uint32_t divisor;
    uint32_t magic;
    uint32_t shift;
} rt__divmod;

/* Fills *dm for divisor d <= INT32_MAX (cuda_args.c); d == 0, an extent of
   an iter with no work, gives a divider that is never used. */
void rt__divmod_init(rt__divmod *dm, uint32_t d);

/* Operand slots of the output offset calculator (kept dims). */
enum { RT__OUT_SLOT_OUT = 0, RT__OUT_SLOT_IN = 1, RT__OUT_SLOT_IDX = 2, RT__OUT_SLOT_ACC = 3 };

/*
 * Everything one launch needs, passed by value as a __grid_constant__
 * kernel parameter (about 900 bytes). All offsets are BYTES, signed 32-bit:
 * a piece fits 32-bit indexing by construction (rt__iter_for_each_piece),
 * and negative strides walk backwards from the base.
 */
typedef struct rt__kernel_args {
    /* The head: every field the ROWS kernels' exact rows read, in the
       block's first 48 bytes (cuda_args.c asserts it). On sm_90 the
       parameters start at c[0x0][0x210], so these share a 64-byte
       constant line with the memory descriptor (c[0x0][0x208]) that
       every kernel's prologue loads: one constant fetch, where the
       fields spread over the block cost a kernel's first blocks a chain
       of three, the first from the block's last line (bench/NOTES.md
       v1.41). */
    const char *in;  /* input element [0,..,0] of this piece */
    char *out;       /* output (values, or the index of argmin/argmax) */
    /* out_strides[0][OUT, IN, IDX] again: the one kept dim's strides that
       exact rows (rows_exact) step by (rt__cuda_pack_iter). */
    int32_t exact_strides[3];
    int rows_exact;       /* exact rows (rt__launch_config's rows_exact), for
                             first and last pieces only (the executor) */
    uint32_t num_inputs;  /* reduced elements per output in this piece */
    uint32_t num_outputs; /* outputs of this piece */
    int out_dtype;        /* rt_dtype of `out` (the final store converts) */
    int op_mode;          /* RT__MODE_* / RT__NORM_* */

    /* Input offset of reduced linear index r: digits of r over in_sizes
       (fastest first) times in_strides. */
    int in_ndim;
    rt__divmod in_sizes[RT_MAX_DIMS];
    int32_t in_strides[RT_MAX_DIMS];
    /* Offsets of output linear index o, for OUT, IN (the input slice of that
       output), IDX and ACC: digits of o over out_sizes times out_strides. */
    int out_ndim;
    rt__divmod out_sizes[RT_MAX_DIMS];
    int32_t out_strides[RT_MAX_DIMS][4];

    char *idx;       /* int64 indices of min/max, or NULL */
    char *acc;       /* accumulator states of a split reduction, or NULL */
    char *staging;   /* global reduce: per-block partials */
    unsigned *semaphores; /* global reduce: one counter per grid.x block, 0 at rest */

    /* The launch configuration (rt__launch_config, same meaning). */
    int input_mult[3];
    int output_mult[2];
    int step_input;
    int step_output;
    int ctas_per_output;
    int input_chunked; /* block y reads its own run of input_mult[2] indices */
    int vectorize_input;
    /* walk: 1 where a thread's successive reduced indices (a block step
       of step_input vectors or elements apart) move no digit that can
       carry into another, so that the kernel walks them (an add a load,
       walk_carry more where digit 0 wraps) instead of dividing each out:
       a step of whole units of the slowest reduced dim (only its digit
       moves), or of the second slowest, dim R - 2 of R (its digit, the
       walk's digit 0, wraps at most once a step into the slowest).
       rt__cuda_pack_walk (cuda_args.c). */
    int walk;
    /* pipelined: batch b + 1's loads go out before batch b is folded on the
       general kernel's strided and walk paths (rt__launch_config's
       pipelined; reduce_body.cuh pipeline_batches). The strided path
       counts its batches with step_div, set wherever this is. */
    int pipelined;
    int32_t walk_step;    /* bytes a step adds */
    uint32_t walk_digit;  /* units a step adds to the walk's digit 0 (below its extent) */
    int32_t walk_carry;   /* bytes a wrap of that digit adds: stride R-1 - extent x stride */
    int walk_dim;         /* the reduced dim of the walk's digit 0 (R - 2) */
    uint32_t walk_extent; /* its extent (in_sizes[walk_dim] would index at run time) */
    rt__divmod step_div;  /* step_input as a divider: the steps a thread of a walk takes */
    /* walk_count > 0: the walk is uniform (every thread active): every
       thread takes walk_count steps, its first index sits tx x
       walk_lin[0] + ty x walk_lin[1] + by x walk_lin[2] bytes into the
       slice (no digit carries between the three terms), and digit 0
       wraps after every walk_period steps (0: no digit 0), for every
       thread alike; so the kernel neither divides, counts nor compares. */
    uint32_t walk_count;
    uint32_t walk_period;
    int32_t walk_lin[3];

    int first;          /* 0: combine with the state already in `acc` */
    int last;           /* 0: write the state to `acc`, not to `out` */
    int64_t index_base; /* added to indices (split pieces) */

    double param0; /* mean: 1/N; var/std: correction; norm: p */
    double param1; /* norm: 1/p */

    /* RT__KERNEL_ROWS only (rt__launch_config's rows_* fields). */
    int rows_group;     /* lanes per row */
    int rows_per_block; /* tile: rows in one block's tile */
    int rows_rot_shift; /* tile: row r starts at column G * ((r >> */
    int rows_rot_mask;  /* rows_rot_shift) & rows_rot_mask) (mod L) */
} rt__kernel_args;

/*
 * The index map of a keyed piece (rt__iter_index_keyed): an index-tracking
 * iter whose reduced dims run in memory order where that is not their
 * logical order (argmax over every dim of a transposed matrix). Inside the
 * piece an element's state carries a key, not its linear reduced index:
 * the sum over reduced dims d of its digit along d times key_weight[d],
 * which is the row-major index over the piece's reduced extents taken in
 * logical order. Keys order as the logical indices do (the tie rule of
 * ArgOp holds) and stay below the piece's element count (32 bits). An
 * output's index is index_base plus each digit, read back from the key,
 * times weight[d] (the iter's index_strides). Extent-1 dims: key_weight 1,
 * their digit is always 0. rt__cuda_pack_index_map (cuda_args.c).
 */
typedef struct rt__index_map {
    uint32_t key_weight[RT_MAX_DIMS];
    int64_t weight[RT_MAX_DIMS];
} rt__index_map;

/*
 * Launches one piece: grid and block from cfg, shared_bytes of dynamic
 * shared memory, on stream, on the current device, whose ordinal is
 * `device` (-1: ask the runtime; the executor passes the one it has just
 * made current). Returns cudaGetLastError() after the launch (or
 * cudaErrorInvalidValue for an output_vec_size it has no kernel for).
 */
typedef cudaError_t (*rt__launch_fn)(const rt__kernel_args *args, const rt__launch_config *cfg,
                                     size_t shared_bytes, cudaStream_t stream, int device);

/* The general kernel over a keyed piece, with its index map as a second
   parameter (index-tracking families only). */
typedef cudaError_t (*rt__keyed_launch_fn)(const rt__kernel_args *args, const rt__index_map *map,
                                           const rt__launch_config *cfg, size_t shared_bytes,
                                           cudaStream_t stream, int device);

/* Registers per thread and the most threads a block (its launch bounds)
   of the general kernel for output_vec_size 1, 2 and 4 on the current
   device (cudaFuncGetAttributes), into regs[0..2] and threads[0..2]. */
typedef cudaError_t (*rt__limits_fn)(int regs[3], int threads[3]);

/* What one (family, dtype) instantiation exports. */
typedef struct rt__kernel_entry {
    rt__launch_fn launch;
    rt__limits_fn limits;
    int acc_size;  /* sizeof the state inside a piece (staging, shared) */
    int out_size;  /* sizeof the translated state (the ACC operand) */
    int vt0;       /* the kernel's compiled unroll and vector widths */
    int input_vec; /* (the config's traits should say the same) */
} rt__kernel_entry;

#define RT__DECLARE_KERNEL_ENTRY(fam, FAM, sfx, DT) extern const rt__kernel_entry rt__kernel_##fam##_##sfx;
RT__FOR_EACH_KERNEL(RT__DECLARE_KERNEL_ENTRY)
#undef RT__DECLARE_KERNEL_ENTRY

/* The entry of (family, input dtype), NULL if none (dispatch.c). */
const rt__kernel_entry *rt__kernel_lookup(rt__family family, rt_dtype in_dtype);

/* The RT__KERNEL_ROWS launch of each (family, dtype) (reduce_rows.cuh),
   stamped from the same list; rt__rows_lookup gives NULL if none. */
#define RT__DECLARE_ROWS_ENTRY(fam, FAM, sfx, DT)                                                  \
    extern const rt__launch_fn rt__rows_##fam##_##sfx;
RT__FOR_EACH_KERNEL(RT__DECLARE_ROWS_ENTRY)
#undef RT__DECLARE_ROWS_ENTRY
rt__launch_fn rt__rows_lookup(rt__family family, rt_dtype in_dtype);

/*
 * The LEAN walk kernel (reduce_walk.cu): the general kernel's vector path
 * for one class of plans, in a kernel of its own with a small argument
 * block. The class (rt__cuda_lean_walk_fits, cuda_args.c): one output a block
 * of whole warps whose lanes and rows both split the reduced index, no
 * grid split, at most two kept dims, one piece (first and last), and a
 * uniform walk of whole units of the slowest reduced dim (walk_count
 * steps a thread, no digit 0, rt__cuda_pack_walk) whose count is a
 * multiple of RT__LEAN_WALK_LOADS; aligned 16-byte vectors. d024 of the
 * suite is this class. The general kernel's other paths and its ~900-byte
 * argument block cost d024 ~0.9 us of ~89 (H100, bench/NOTES.md v1.53);
 * each thread here keeps RT__LEAN_WALK_LOADS loads in flight at one block
 * of 512 a SM (v1.53's nv_d024_u16: 0.1-0.5% ahead of Inductor's kernel),
 * where the general kernel's 32-register bound holds 4: d024 at
 * 0.986-0.987 of the general kernel's time and 0.998-0.999 of
 * torch.compile's (H100, v1.54). Its launch takes rt__kernel_args as the
 * general kernel's does (so the plan memo replays it alike) and packs
 * this block from it.
 */
#define RT__LEAN_WALK_LOADS 16
typedef struct rt__walk_args {
    const char *in;     /* the piece's input base (output 0's slice) */
    char *out;          /* output 0 */
    int32_t lin[2];     /* walk_lin[0..1]: a thread's first vector at tx
                           lin[0] + ty lin[1] bytes into its slice */
    int32_t step;       /* walk_step: bytes between a thread's loads */
    uint32_t count;     /* walk_count: loads a thread, a multiple of
                           RT__LEAN_WALK_LOADS */
    /* Output o (blockIdx.x) has digits o % div0, o / div0 over the kept
       dims: div0 is kept dim 0's extent (with one kept dim digit 1 is
       then 0; with none div0 is 1, and the strides 0); its slice and its
       output sit digit . in_strides and digit . out_strides bytes from
       the bases. */
    rt__divmod div0;
    int32_t in_strides[2];
    int32_t out_strides[2];
    int out_dtype;      /* as in rt__kernel_args */
    int op_mode;
    double param0, param1;
    /* No index output, ACC, first/last or index base: the class has no
       index-tracking op and one piece, so the kernel writes its output
       straight (the general kernel's finish_output with first and last
       set, index base 0). */
} rt__walk_args;

/* Whether the general kernel's config c and its packed arguments a (a
   piece's iter, config and walk: rt__cuda_pack_iter, _config, _walk) are
   of the LEAN walk kernel's class, above (cuda_args.c). Its launch checks
   it again; the executor also asks for a grid of several waves. */
bool rt__cuda_lean_walk_fits(const rt__launch_config *c, const rt__kernel_args *a);
/* The LEAN walk kernel's block from a, a plan of its class. */
void rt__cuda_pack_lean(const rt__kernel_args *a, rt__walk_args *w);

/* The LEAN walk launch of each (family, dtype) that has one, in a
   translation unit of its own (reduce_walk.cu); rt__walk_lookup gives
   NULL for the rest. cudaErrorInvalidValue for a plan outside the class.
   Sums and means of f32 only: 79 registers, no spill; f16 and bf16 (8
   elements a vector) spilled 484-872 bytes at 128 (-Xptxas -v, sm_90,
   CUDA 13.0), and no case of the suite measures them. */
#define RT__FOR_EACH_WALK_KERNEL(X) X(sum, SUM, f32, RT_F32)
#define RT__DECLARE_WALK_ENTRY(fam, FAM, sfx, DT)                                                  \
    extern const rt__launch_fn rt__walk_##fam##_##sfx;
RT__FOR_EACH_WALK_KERNEL(RT__DECLARE_WALK_ENTRY)
#undef RT__DECLARE_WALK_ENTRY
rt__launch_fn rt__walk_lookup(rt__family family, rt_dtype in_dtype);

/* The STREAM kernel's slot encoding (reduce_tiny.cuh fold_slots): a
   signalling NaN's bits, and the quiet NaN stored for a state that has
   them. */
#define RT__STREAM_SLOT_MARK 0x7ff4c0ffee5107edull
#define RT__STREAM_SLOT_NAN 0x7ff8000000000000ull

/*
 * The argument block of the TINY and STREAM kernels (RT__KERNEL_TINY,
 * RT__KERNEL_STREAM, reduce_tiny.cuh): they reduce one contiguous run of
 * elements to one output, so they need none of rt__kernel_args' offset
 * calculators, and a launch copies ~90 bytes of parameters instead of
 * ~900. Pointers are the elements' own addresses (the piece's data
 * pointers: a single output has no offsets).
 */
typedef struct rt__tiny_args {
    const char *in;       /* element 0 of the run */
    char *out;            /* the output element */
    char *idx;            /* its int64 index (min/max with indices), or NULL */
    char *acc;            /* its state across split pieces, or NULL */
    /* STREAM with several blocks: a state per block, and one counter, 0 at
       rest (the block that folds the states resets it). NULL otherwise. */
    char *staging;
    unsigned *semaphores;
    uint32_t num_inputs;  /* elements in the run (>= 1) */
    /* STREAM: vectors (of the op's input_vec elements) block b reads,
       from vector b * chunk; at least num_inputs with one block. TINY: 0. */
    uint32_t chunk;
    /* STREAM with several blocks: 1, the grid's last block folds the
       states once every other block has counted; 0, the last block to
       count folds them (rt__launch_config's stream_fold_last). */
    int fold_last;
    /* STREAM with a dependent fold (rt__launch_config's stream_dependent):
       the grid's blocks, each of which stores its state in staging and
       exits; the fold kernel launched after the grid, as its programmatic
       dependent, folds that many states. 0 otherwise. */
    uint32_t fold_grid;
    /* Slots (rt__launch_config's stream_slots, stream_slot_group and
       stream_slot_delay; with fold_last, double states): slot_group is
       nonzero and even. Block b stores its state as the word state ^
       RT__STREAM_SLOT_MARK in slot b of `semaphores` (two unsigneds a
       word, 0 at rest) instead of a partial in `staging` and a count;
       block (g + 1) * slot_group + slot_delay - 1, where that is not the
       grid's last, folds the slots of blocks [g * slot_group,
       (g + 1) * slot_group) into word grid + g, and the grid's last folds
       those words and the slots left, each reset to 0 once read. A state
       whose bits are the mark (a NaN) is stored as RT__STREAM_SLOT_NAN,
       so a filled slot is never 0. 0 and 0: no slots. */
    uint32_t slot_group, slot_delay;
    int out_dtype;        /* rt_dtype of `out` */
    int first, last;      /* as in rt__kernel_args */
    int64_t index_base;   /* added to indices (split pieces) */
    int op_mode;          /* RT__MODE_* / RT__NORM_* */
    double param0, param1; /* as in rt__kernel_args */
} rt__tiny_args;

/* Launches the TINY kernel (one block of cfg->block[0] threads) or the
   STREAM kernel (cfg->grid[0] blocks of RT__STREAM_THREADS), as
   cfg->kernel says, on the current device, whose ordinal is `device` (the
   executor has just made it current: the launch need not ask the runtime
   again). cudaErrorInvalidValue for a shape the kernel cannot run. */
typedef cudaError_t (*rt__tiny_launch_fn)(const rt__tiny_args *args, const rt__launch_config *cfg,
                                          cudaStream_t stream, int device);

/* Whether a launch of config c takes rt__tiny_args (the TINY and STREAM
   kernels) rather than rt__kernel_args. */
static inline bool rt__config_tiny_args(const rt__launch_config *c) {
    return c->kernel == RT__KERNEL_TINY || c->kernel == RT__KERNEL_STREAM;
}

/* The general kernel over keyed pieces (rt__index_map) of each
   index-tracking (family, dtype), in translation units of their own
   (reduce_arg*_keyed.cu, reduce_arg*_keyed_int.cu) so that a parallel
   build's longest unit does not grow; rt__keyed_lookup gives NULL for the
   other families. */
#define RT__FOR_EACH_KEYED_KERNEL(X)                                                               \
    RT__KERNELS_ARGMIN(X)                                                                          \
    RT__KERNELS_ARGMAX(X)
#define RT__DECLARE_KEYED_ENTRY(fam, FAM, sfx, DT)                                                 \
    extern const rt__keyed_launch_fn rt__keyed_##fam##_##sfx;
RT__FOR_EACH_KEYED_KERNEL(RT__DECLARE_KEYED_ENTRY)
#undef RT__DECLARE_KEYED_ENTRY
rt__keyed_launch_fn rt__keyed_lookup(rt__family family, rt_dtype in_dtype);

/* The TINY/STREAM launch of each (family, dtype), stamped from the same
   list; rt__tiny_lookup gives NULL if none. */
#define RT__DECLARE_TINY_ENTRY(fam, FAM, sfx, DT)                                                  \
    extern const rt__tiny_launch_fn rt__tiny_##fam##_##sfx;
RT__FOR_EACH_KERNEL(RT__DECLARE_TINY_ENTRY)
#undef RT__DECLARE_TINY_ENTRY
rt__tiny_launch_fn rt__tiny_lookup(rt__family family, rt_dtype in_dtype);

/*
 * Writes `value` (converted to out_dtype; bool: value != 0) to each of the
 * args->num_outputs outputs, at the OUT offsets of the output calculator:
 * the result of reducing an empty dim (fill.cu). An elementwise fill, not
 * a reduction, so its fixed 1-D grid is not a launch-config decision.
 */
cudaError_t rt__launch_fill(const rt__kernel_args *args, double value, cudaStream_t stream);

/* Whether the library's kernels run on the current device as code built
   for compute capability 9.0 or newer (their binary version, which every
   kernel unit shares: one set of CUDA architectures), so that the
   griddepcontrol instructions of a programmatic dependent launch are in
   them (fill.cu). False where the runtime cannot say. */
bool rt__cuda_kernels_sm90(void);

/* The driver function `name` (its CUDA 12.0 version) through the
   runtime's entry-point query, so nothing links libcuda; NULL where the
   runtime is older than 12.5 or the query fails (cuda_context.c). The
   driver launch (launch_fast.cuh) and the pointer check take theirs
   here. */
void *rt__cuda_driver_entry(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* RT_KERNELS_LAUNCH_H */
