/*
 * The CPU backend's op kernels, as the executor (cpu_exec.c) sees them.
 *
 * A kernel is a small table of functions over an accumulator state
 * (rt__cpu_acc) for one (op family, input dtype): reduce a strided 1-d run
 * into one state, reduce a tile of adjacent outputs over a range of
 * reduced rows, merge two states, and turn a state into a result. The
 * executor owns the loops over outputs, the threads and the stores; the
 * kernels own the arithmetic. Each family lives in its own file
 * (cpu_sum.c, cpu_extreme.c, cpu_var.c, cpu_int.c) and is stamped per
 * dtype from one force-inlined generic body.
 */
#ifndef RT_CPU_KERNEL_H
#define RT_CPU_KERNEL_H

#include <math.h>
#include <string.h>

#include "rt_half.h"
#include "rt_internal.h"

/* f64 inputs: elements summed naively (in 8 lanes, so 4 per lane and a
   3-level tree) before a compensated fold. The error bound, about 7 ulps
   of the block's sum of |x| plus 1 ulp of the total, is that of pairwise
   summation over 128 elements, whatever N; the fold costs ~0.5 flop per
   element. */
#define RT__CPU_BLOCK 32
/* f32/f16/bf16 inputs are exact in binary64 and each lane's naive error
   after 1024 / 8 adds stays ~2^-46 relative, far below any output's ulp:
   fold rarely and let the lanes stream. */
#define RT__CPU_BLOCK_NARROW 1024
/* Adjacent outputs reduced together in the vertical (column) path. Wide
   tiles matter: each row of a tile is one contiguous stretch that the
   prefetchers must pick up anew. Column sums of an [8192, 8192] f32 matrix
   on one core of the 2-core dev VM (AMD EPYC, GB/s, four rows per step):
   tile 256: 5.8, 512: 8.2, 1024: 11.7, 2048: 13.3, 4096: 13.2; a row sum
   streams at 21. */
#ifndef RT__CPU_TILE
#define RT__CPU_TILE 2048
#endif
/* Scratch a tile function may use: three 8-byte words per output. The
   executor allocates it on the heap (it is too big for every stack). */
#define RT__CPU_TILE_WORK_BYTES ((size_t)RT__CPU_TILE * 3 * 8)
/* Iteration dims the executor may use: the iter's plus one dummy. */
#define RT__CPU_MAX_DIMS (RT_MAX_DIMS + 1)

/* The accumulator state of every family; a kernel uses one member. */
typedef union rt__cpu_acc {
    struct {
        double s, c; /* running sum and its Neumaier compensation */
    } sum;
    double prod;
    uint64_t u; /* integer sum/prod, two's-complement wrap */
    struct {
        double v;  /* best value so far (may be NaN, which wins) */
        int64_t i; /* its index; -1 while empty */
    } fbest;
    struct {
        int64_t v;
        int64_t i; /* -1 while empty */
    } ibest;
    double ext; /* norm +-inf: max|x| / min|x| with NaN propagating */
    struct {
        double n, mean, m2; /* Welford / Chan */
    } w;
    unsigned char b; /* any / all */
} rt__cpu_acc;

/* Per-call constants a kernel may need. */
typedef struct rt__cpu_params {
    double p;          /* norm order */
    double correction; /* var/std */
    int64_t count;     /* N, elements reduced into each output */
} rt__cpu_params;

/* What a state finishes into, before the store converts it to the output's
   dtype. */
typedef enum rt__cpu_result_kind {
    RT__CPU_RES_FLOAT = 0, /* f */
    RT__CPU_RES_INT = 1,   /* u, an int64 in two's complement */
    RT__CPU_RES_BOOL = 2   /* u is 0 or 1 */
} rt__cpu_result_kind;

typedef struct rt__cpu_result {
    rt__cpu_result_kind kind;
    double f;
    uint64_t u;
    int64_t index; /* min/max/argmin/argmax: the winner's linear reduced index */
} rt__cpu_result;

/*
 * A range of reduced rows for the vertical path: the linear reduced index
 * range [begin, end) over dims [0, nd) (dim 0 fastest), each with an input
 * byte stride. The linear index is also the logical index that
 * argmin/argmax report (the CPU backend builds its iter with
 * index_by_memory false: index-tracking ops keep their reduced dims in
 * logical order).
 */
typedef struct rt__cpu_rows {
    int nd;
    int64_t shape[RT__CPU_MAX_DIMS];
    int64_t stride[RT__CPU_MAX_DIMS];
    int64_t begin, end;
} rt__cpu_rows;

/* A position inside an rt__cpu_rows: byte offset and per-dim counters. */
typedef struct rt__cpu_cursor {
    int64_t off;
    int64_t ctr[RT__CPU_MAX_DIMS];
} rt__cpu_cursor;

/* Places c at linear reduced index lin (0 <= lin <= product of shapes). */
static inline void rt__cpu_cursor_seek(const rt__cpu_rows *r, int64_t lin, rt__cpu_cursor *c)
{
    c->off = 0;
    for (int d = 0; d < r->nd; d++) {
        int64_t q = r->shape[d] ? lin / r->shape[d] : 0;
        c->ctr[d] = lin - q * r->shape[d];
        c->off += c->ctr[d] * r->stride[d];
        lin = q;
    }
}

/* Moves c to the next row (odometer, dim 0 fastest). */
static inline void rt__cpu_cursor_next(const rt__cpu_rows *r, rt__cpu_cursor *c)
{
    for (int d = 0; d < r->nd; d++) {
        c->off += r->stride[d];
        if (++c->ctr[d] < r->shape[d])
            return;
        c->off -= r->stride[d] * r->shape[d];
        c->ctr[d] = 0;
    }
}

typedef struct rt__cpu_kernel {
    /* Sets *a to the op's identity (an empty state). */
    void (*init)(rt__cpu_acc *a);
    /* Folds n elements x, x + stride, ... (stride in bytes, any sign) into
       *a; the first has linear reduced index idx0, the next idx0 + 1, ...
       Runs reach a state in increasing index order. */
    void (*run)(rt__cpu_acc *a, const char *x, int64_t n, int64_t stride, int64_t idx0,
                const rt__cpu_params *prm);
    /* Sets a[0..m) (m <= RT__CPU_TILE) to the reduction of outputs j = 0..m-1
       over rows->begin .. rows->end: output j's element of a row lies at
       x + row offset + j * col_stride. Overwrites a (no init needed). work:
       RT__CPU_TILE_WORK_BYTES of 8-byte aligned scratch. */
    void (*tile)(rt__cpu_acc *a, int64_t m, const char *x, int64_t col_stride,
                 const rt__cpu_rows *rows, const rt__cpu_params *prm, void *work);
    /* *a = the reduction of a's elements followed by b's (deterministic:
       index ties resolve by index, not by argument order). */
    void (*merge)(rt__cpu_acc *a, const rt__cpu_acc *b);
    /* The op's result from a finished state. */
    void (*finish)(const rt__cpu_acc *a, const rt__cpu_params *prm, rt__cpu_result *r);
} rt__cpu_kernel;

/*
 * The kernel for (op, input dtype, norm order p), or NULL when the op is not
 * defined for the dtype (mean/var/std/norm of non-floats). Pointers are to
 * static tables.
 */
const rt__cpu_kernel *rt__cpu_kernel_for(rt_op op, rt_dtype in, double p);

/* Per-family lookups used by rt__cpu_kernel_for; same NULL convention. */
/* sum, prod, mean, norm of finite p (floats) */
const rt__cpu_kernel *rt__cpu_sum_kernel(rt_op op, rt_dtype in, double p);
/* min, max, argmin, argmax (all dtypes), norm of p = +-inf (floats) */
const rt__cpu_kernel *rt__cpu_extreme_kernel(rt_op op, rt_dtype in, double p);
const rt__cpu_kernel *rt__cpu_var_kernel(rt_op op, rt_dtype in); /* var std */
const rt__cpu_kernel *rt__cpu_int_kernel(rt_op op, rt_dtype in); /* integer sum/prod, any/all */

/*
 * Writes r to one output element at out (dtype od): floats round to
 * nearest (16-bit types directly from binary64), integers truncate in two's
 * complement, bool is (value != 0). When idx is not NULL, also writes
 * r->index there as int64.
 */
void rt__cpu_store(const rt__cpu_result *r, char *out, rt_dtype od, char *idx);

/* Element loads by dtype, as the kernels read them. memcpy keeps them free
   of aliasing assumptions; compilers turn each into one load. */
static inline double rt__cpu_ld_f32(const char *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline double rt__cpu_ld_f64(const char *p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline double rt__cpu_ld_f16(const char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return rt__f16_to_f32(v);
}
static inline double rt__cpu_ld_bf16(const char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return rt__bf16_to_f32(v);
}
static inline int64_t rt__cpu_ld_i8(const char *p)
{
    int8_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int64_t rt__cpu_ld_u8(const char *p)
{
    return (unsigned char)*p;
}
static inline int64_t rt__cpu_ld_i16(const char *p)
{
    int16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int64_t rt__cpu_ld_i32(const char *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int64_t rt__cpu_ld_i64(const char *p)
{
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int64_t rt__cpu_ld_b8(const char *p)
{
    return *p != 0;
}

/* The always-inline attribute the generic bodies need so that their
   loader/transform arguments become constants in each stamped wrapper. */
#if defined(__GNUC__) || defined(__clang__)
#define RT__CPU_INLINE static inline __attribute__((always_inline))
#else
#define RT__CPU_INLINE static inline
#endif

/* X(ENUM, suffix, size in bytes) for the float dtypes and for the
   integer/bool ones: the kernel files stamp their wrappers from these. */
#define RT__CPU_FLOAT_DTYPES(X)                                                                    \
    X(RT_F32, f32, 4) X(RT_F64, f64, 8) X(RT_F16, f16, 2) X(RT_BF16, bf16, 2)
#define RT__CPU_INT_DTYPES(X)                                                                      \
    X(RT_I8, i8, 1)                                                                                \
    X(RT_U8, u8, 1) X(RT_I16, i16, 2) X(RT_I32, i32, 4) X(RT_I64, i64, 8) X(RT_BOOL, b8, 1)

#endif /* RT_CPU_KERNEL_H */
