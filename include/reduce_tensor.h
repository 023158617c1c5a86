/*
 * reduce_tensor: reductions over arbitrary axes of strided N-d tensors,
 * on NVIDIA GPUs and on the CPU.
 *
 * One header, C99/C11, no CUDA types (a stream is a void *). The caller owns
 * every tensor and stream; the library owns only its context (device
 * properties, a grow-only device workspace, the CPU thread count).
 *
 * Example: the column sums of a row-major 3x4 float matrix on the CPU.
 *
 *     float x[12] = {...}, col[4];
 *     rt_tensor in  = {x,   RT_F32, 2, {3, 4}, {4, 1}};
 *     rt_tensor out = {col, RT_F32, 1, {4},    {1}};
 *     int dim = 0;
 *     rt_context *ctx;
 *     rt_status s = rt_context_create(&ctx, RT_DEVICE_CPU, 0);
 *     if (s == RT_OK) s = reduce_tensor(ctx, RT_OP_SUM, &in, &dim, 1, false, &out);
 *     if (s != RT_OK) fprintf(stderr, "%s\n", rt_status_string(s));
 *     rt_context_destroy(ctx);
 */
#ifndef REDUCE_TENSOR_H
#define REDUCE_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RT_VERSION_MAJOR 0
#define RT_VERSION_MINOR 1
#define RT_VERSION_PATCH 0

/* Largest rank a tensor may have. PyTorch allows 25; 16 covers real use. */
#define RT_MAX_DIMS 16

/* Element types. Values are fixed and only grow at the end. */
typedef enum rt_dtype {
    RT_F32 = 0,  /* IEEE binary32 */
    RT_F64 = 1,  /* IEEE binary64 */
    RT_F16 = 2,  /* IEEE binary16, stored as 16 bits */
    RT_BF16 = 3, /* bfloat16 (top half of a binary32), stored as 16 bits */
    RT_I8 = 4,
    RT_U8 = 5,
    RT_I16 = 6,
    RT_I32 = 7,
    RT_I64 = 8,
    RT_BOOL = 9, /* one byte, 0 or 1 */
    RT_DTYPE_COUNT = 10
} rt_dtype;

/* Reductions. Semantics follow PyTorch's (README.md, "Semantics"). */
typedef enum rt_op {
    RT_OP_SUM = 0,
    RT_OP_PROD = 1,
    RT_OP_MEAN = 2,
    RT_OP_MIN = 3,    /* amin; with reduce_tensor_ex it can also give indices */
    RT_OP_MAX = 4,    /* amax; likewise */
    RT_OP_ARGMIN = 5,
    RT_OP_ARGMAX = 6,
    RT_OP_VAR = 7,
    RT_OP_STD = 8,
    RT_OP_NORM = 9,
    RT_OP_ANY = 10,
    RT_OP_ALL = 11,
    RT_OP_COUNT = 12
} rt_op;

typedef enum rt_device_kind {
    RT_DEVICE_CPU = 0,
    RT_DEVICE_CUDA = 1
} rt_device_kind;

/* How a CUDA launch configuration is chosen. */
typedef enum rt_policy {
    RT_POLICY_DEFAULT = 0, /* the context's policy (itself TUNED unless set) */
    RT_POLICY_COMPAT = 1,  /* PyTorch 2.11's setReduceConfig, reproduced */
    RT_POLICY_TUNED = 2    /* ours, chosen by measurement (bench/NOTES.md) */
} rt_policy;

/*
 * Status codes, generated from one list: X(name, value, meaning).
 * Every function that can fail returns one; a failed reduction writes
 * nothing to its outputs.
 */
#define RT_STATUS_LIST(X)                                                                  \
    X(RT_OK, 0, "success")                                                                 \
    X(RT_ERR_NULL_POINTER, 1, "a required pointer argument is NULL")                       \
    X(RT_ERR_BAD_NDIM, 2, "a tensor's ndim is negative or above RT_MAX_DIMS")              \
    X(RT_ERR_BAD_SHAPE, 3, "a tensor has a negative extent")                               \
    X(RT_ERR_BAD_DIM, 4, "a reduced dim is out of range for the input's rank")             \
    X(RT_ERR_DUPLICATE_DIM, 5, "a reduced dim is listed twice")                            \
    X(RT_ERR_OUT_SHAPE, 6, "the output's shape is not the one rt_reduce_shape gives")     \
    X(RT_ERR_OUT_DTYPE, 7, "the output's dtype is not allowed for this op and input")      \
    X(RT_ERR_OVERLAP, 8, "an output overlaps the input or another output")                 \
    X(RT_ERR_SELF_OVERLAP, 9, "an output's strides may make two elements share memory")    \
    X(RT_ERR_OVERFLOW, 10, "a shape product, byte span or address range overflows")       \
    X(RT_ERR_UNSUPPORTED, 11, "this op is not defined for this input dtype")               \
    X(RT_ERR_EMPTY_REDUCTION, 12, "min/max/argmin/argmax over a reduced dim of size 0")    \
    X(RT_ERR_BAD_DTYPE, 13, "a dtype value is not one of rt_dtype")                       \
    X(RT_ERR_BAD_OP, 14, "an op value is not one of rt_op")                               \
    X(RT_ERR_BAD_ARGUMENT, 15, "an op parameter or option is invalid")                     \
    X(RT_ERR_INDICES, 16, "the indices output is invalid: wrong op, dtype or shape")       \
    X(RT_ERR_BAD_DEVICE, 17, "unknown device kind, or no such device index")               \
    X(RT_ERR_NO_CUDA, 18, "CUDA is not available (built without it, or no GPU)")           \
    X(RT_ERR_WRONG_MEMORY, 19, "a tensor's memory is not usable by the context's device")  \
    X(RT_ERR_OUT_OF_MEMORY, 20, "a host or device allocation failed")                      \
    X(RT_ERR_CUDA, 21, "a CUDA runtime call failed")                                       \
    X(RT_ERR_THREAD, 22, "a CPU worker thread could not be started")                       \
    X(RT_ERR_INTERNAL, 23, "internal error: a bug in reduce_tensor, please report it")

typedef enum rt_status {
#define RT__STATUS_ENUM(name, value, meaning) name = value,
    RT_STATUS_LIST(RT__STATUS_ENUM)
#undef RT__STATUS_ENUM
} rt_status;

/*
 * A strided view of memory the caller owns.
 * data    : address of element [0, ..., 0]: host memory for a CPU context;
 *           for a CUDA context, memory of that context's device
 *           (cudaMalloc, cudaMallocAsync) or managed memory, not host
 *           memory, pinned or not (RT_ERR_WRONG_MEMORY). Need not be aligned beyond
 *           the element size. May be NULL only when the tensor is empty.
 * ndim    : rank, 0 .. RT_MAX_DIMS; a rank-0 tensor is a scalar.
 * shape   : extents, each >= 0. Entries past ndim are ignored.
 * strides : in ELEMENTS, not bytes; 0 broadcasts, negative walks backwards.
 *           Entries past ndim are ignored.
 */
typedef struct rt_tensor {
    void *data;
    rt_dtype dtype;
    int ndim;
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT_MAX_DIMS];
} rt_tensor;

/* Opaque: a device, a stream, cached properties and workspace. */
typedef struct rt_context rt_context;

/*
 * Creates a context for the CPU (device_index ignored) or for CUDA device
 * device_index. On success *ctx owns resources until rt_context_destroy.
 * Errors: RT_ERR_NULL_POINTER (ctx NULL), RT_ERR_BAD_DEVICE (unknown kind or
 * index out of range), RT_ERR_NO_CUDA (CUDA requested but the library was
 * built without CUDA or no GPU is visible), RT_ERR_OUT_OF_MEMORY, RT_ERR_CUDA.
 * *ctx is set to NULL on failure.
 */
rt_status rt_context_create(rt_context **ctx, rt_device_kind kind, int device_index);

/*
 * Frees a context and its workspace. Accepts NULL. For a CUDA context the
 * caller must not destroy it while work it issued may still run on its
 * stream unless that work is complete (destroy synchronises the stream
 * before freeing the workspace).
 */
void rt_context_destroy(rt_context *ctx);

/*
 * Sets the cudaStream_t (passed as void *) that later calls on a CUDA
 * context enqueue on; NULL means the legacy default stream. Calls never
 * synchronise the host with the stream. Work the context already enqueued
 * on the previous stream is ordered before the new stream's later work (an
 * event, no host wait), since both share the context's workspace. One
 * context must not be used from several host threads at once.
 * Errors: RT_ERR_NULL_POINTER (ctx), RT_ERR_BAD_DEVICE (a CPU context),
 * RT_ERR_CUDA.
 */
rt_status rt_context_set_stream(rt_context *ctx, void *cuda_stream);

/*
 * CPU contexts: number of worker threads for later calls, >= 1; 0 restores
 * the default (the number of online cores). Errors: RT_ERR_NULL_POINTER,
 * RT_ERR_BAD_ARGUMENT (negative), RT_ERR_BAD_DEVICE (a CUDA context).
 */
rt_status rt_context_set_num_threads(rt_context *ctx, int num_threads);

/*
 * Sets the launch-configuration policy used by calls whose args say
 * RT_POLICY_DEFAULT. Setting RT_POLICY_DEFAULT restores RT_POLICY_TUNED.
 * Accepted on CPU contexts too (where it changes nothing).
 * Errors: RT_ERR_NULL_POINTER, RT_ERR_BAD_ARGUMENT (unknown policy).
 */
rt_status rt_context_set_policy(rt_context *ctx, rt_policy policy);

/* The device kind a context was created for, RT_DEVICE_CPU for NULL. */
rt_device_kind rt_context_device_kind(const rt_context *ctx);

/* Number of visible CUDA devices; 0 when built without CUDA or none. */
int rt_cuda_device_count(void);

/*
 * All arguments of a reduction. Fill with rt_reduce_args_init, then set the
 * fields that matter. Pointers are borrowed for the duration of the call.
 */
typedef struct rt_reduce_args {
    rt_op op;
    const rt_tensor *in;
    const int *dims;  /* dims to reduce, any order, negative counts from the end */
    int ndims;        /* 0 reduces every dim (PyTorch's dim=None) */
    bool keepdim;     /* keep reduced dims as extent 1 in the output shape */
    const rt_tensor *out;
    /* RT_OP_MIN / RT_OP_MAX only: optional RT_I64 output, the same shape as
       out, receiving the index of the chosen element (as argmin/argmax would
       give it). NULL for none. */
    const rt_tensor *indices;
    double correction; /* var/std: divide by N - correction; default 1, >= 0 */
    double p;          /* norm order: any non-NaN value, +-INFINITY allowed; default 2 */
    rt_policy policy;  /* CUDA launch policy; default RT_POLICY_DEFAULT */
} rt_reduce_args;

/* Sets every field to its default: op RT_OP_SUM, pointers NULL, ndims 0,
   keepdim false, correction 1, p 2, policy RT_POLICY_DEFAULT. Accepts NULL. */
void rt_reduce_args_init(rt_reduce_args *args);

/*
 * Reduces args->in over args->dims into args->out (and args->indices).
 *
 * out must describe a tensor of exactly the shape rt_reduce_shape() gives
 * for (in, dims, ndims, keepdim), not overlapping the input, with strides
 * under which no two of its elements can share memory. The test of that
 * is sufficient, not exact: its dims of extent > 1, sorted by |stride|,
 * must each step past the largest offset the dims before them reach.
 * Every permutation, slice or flip of a dense tensor passes; an
 * interleaved layout that happens never to collide (extents {3, 2},
 * strides {2, 3}) is refused with RT_ERR_SELF_OVERLAP. Its dtype must be
 * allowed for (op, in->dtype): see rt_reduce_out_dtype_ok(). The library
 * never allocates outputs. Every tensor's addresses, data plus each
 * element's offset, must lie in the address space (RT_ERR_OVERFLOW
 * otherwise).
 *
 * Reducing over an empty dim gives the op's identity (sum 0, prod 1, any
 * false, all true, norm 0), NaN for mean and var/std, and RT_ERR_EMPTY_REDUCTION
 * for min/max/argmin/argmax. A zero-size output does nothing and succeeds.
 * A 0-d input reduces to itself (dims may be empty, 0 or -1).
 *
 * On a CUDA context the call only enqueues work on the context's stream: it
 * neither allocates (after the workspace has grown to the largest need seen)
 * nor synchronises. Results are bitwise reproducible run to run. The
 * context remembers the launches of its last few calls that ran as one
 * kernel; a call of the same layout (everything above but the data
 * pointers, whose addresses modulo 256 count) reuses that launch after
 * checking its own pointers, with the same result and errors as a call
 * planned from scratch.
 *
 * Errors: any RT_ERR_* of RT_STATUS_LIST describing the first problem found;
 * the outputs are then left untouched.
 */
rt_status reduce_tensor_ex(rt_context *ctx, const rt_reduce_args *args);

/* The short form: reduce_tensor_ex with correction 1, p 2, no indices. */
rt_status reduce_tensor(rt_context *ctx, rt_op op, const rt_tensor *in, const int *dims,
                        int ndims, bool keepdim, const rt_tensor *out);

/*
 * The output shape of reducing `in` over dims (same conventions as
 * reduce_tensor). Writes *out_ndim and out_shape[0 .. *out_ndim); out_shape
 * must have room for RT_MAX_DIMS entries. Errors: RT_ERR_NULL_POINTER,
 * RT_ERR_BAD_NDIM, RT_ERR_BAD_SHAPE, RT_ERR_BAD_DIM, RT_ERR_DUPLICATE_DIM,
 * RT_ERR_BAD_DTYPE.
 */
rt_status rt_reduce_shape(const rt_tensor *in, const int *dims, int ndims, bool keepdim,
                          int *out_ndim, int64_t *out_shape);

/*
 * The output dtype PyTorch would pick by default for (op, in): sum/prod of
 * integers and bool give RT_I64, argmin/argmax RT_I64, any/all RT_BOOL,
 * others the input dtype. Errors: RT_ERR_NULL_POINTER, RT_ERR_BAD_OP,
 * RT_ERR_BAD_DTYPE, RT_ERR_UNSUPPORTED (e.g. mean of an integer tensor).
 */
rt_status rt_reduce_default_dtype(rt_op op, rt_dtype in, rt_dtype *out);

/* Whether `out` is an allowed output dtype for (op, in). The rules:
   sum/prod: in's dtype, a wider float for float inputs (f16/bf16 -> f32/f64,
   f32 -> f64), RT_I64 for integer and bool inputs; mean/var/std/norm: float
   inputs only, same or wider float; min/max: in's dtype; argmin/argmax:
   RT_I64; any/all: RT_BOOL. */
bool rt_reduce_out_dtype_ok(rt_op op, rt_dtype in, rt_dtype out);

/* One-line English meaning of a status ("success", ...); never NULL. */
const char *rt_status_string(rt_status s);
/* The enumerator's name ("RT_OK", ...); "RT_STATUS_UNKNOWN" if out of range. */
const char *rt_status_name(rt_status s);

/* Element size in bytes; 0 for an unknown dtype. */
size_t rt_dtype_size(rt_dtype dtype);
/* Short names as the tools take them: "f32" "f64" "f16" "bf16" "i8" "u8"
   "i16" "i32" "i64" "bool"; NULL for an unknown value. */
const char *rt_dtype_name(rt_dtype dtype);
/* "sum" "prod" "mean" "min" "max" "argmin" "argmax" "var" "std" "norm"
   "any" "all"; NULL for an unknown value. */
const char *rt_op_name(rt_op op);
/* Parse the names above. Errors: RT_ERR_NULL_POINTER, RT_ERR_BAD_DTYPE /
   RT_ERR_BAD_OP for an unknown name. */
rt_status rt_dtype_from_name(const char *name, rt_dtype *dtype);
rt_status rt_op_from_name(const char *name, rt_op *op);

#ifdef __cplusplus
}
#endif

#endif /* REDUCE_TENSOR_H */
