/*
 * Internal declarations shared by the core, the backends and the tests.
 * Names are rt__ (double underscore): not part of the public API.
 */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include "reduce_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One-line early exits, zstd style. */
#define RT_RETURN_IF(cond, err)                                                                    \
    do {                                                                                           \
        if (cond)                                                                                  \
            return (err);                                                                          \
    } while (0)
#define RT_FORWARD_IF_ERROR(expr)                                                                  \
    do {                                                                                           \
        rt_status rt__fwd = (expr);                                                                \
        if (rt__fwd != RT_OK)                                                                      \
            return rt__fwd;                                                                        \
    } while (0)

/* X(ENUM, suffix, size_bytes, is_float, is_signed) for every dtype. */
#define RT_FOR_EACH_DTYPE(X)                                                                       \
    X(RT_F32, f32, 4, 1, 1)                                                                        \
    X(RT_F64, f64, 8, 1, 1)                                                                        \
    X(RT_F16, f16, 2, 1, 1)                                                                        \
    X(RT_BF16, bf16, 2, 1, 1)                                                                      \
    X(RT_I8, i8, 1, 0, 1)                                                                          \
    X(RT_U8, u8, 1, 0, 0)                                                                          \
    X(RT_I16, i16, 2, 0, 1)                                                                        \
    X(RT_I32, i32, 4, 0, 1)                                                                        \
    X(RT_I64, i64, 8, 0, 1)                                                                        \
    X(RT_BOOL, bool, 1, 0, 0)

/* X(ENUM, name) for every op. */
#define RT_FOR_EACH_OP(X)                                                                          \
    X(RT_OP_SUM, sum)                                                                              \
    X(RT_OP_PROD, prod)                                                                            \
    X(RT_OP_MEAN, mean)                                                                            \
    X(RT_OP_MIN, min)                                                                              \
    X(RT_OP_MAX, max)                                                                              \
    X(RT_OP_ARGMIN, argmin)                                                                        \
    X(RT_OP_ARGMAX, argmax)                                                                        \
    X(RT_OP_VAR, var)                                                                              \
    X(RT_OP_STD, std)                                                                              \
    X(RT_OP_NORM, norm)                                                                            \
    X(RT_OP_ANY, any)                                                                              \
    X(RT_OP_ALL, all)

bool rt__dtype_valid(rt_dtype d);
bool rt__dtype_is_float(rt_dtype d); /* f32 f64 f16 bf16 */
bool rt__op_valid(rt_op op);
/* Ops whose result depends on which element won: argmin/argmax, and
   min/max when an indices output is requested. */
bool rt__op_tracks_index(rt_op op, bool has_indices);

/*
 * A validated call, what the backends execute. Built by rt__problem_init
 * (src/core/validate.c) from rt_reduce_args; every field is checked. The
 * tensors' shape and strides hold their first ndim entries; past ndim
 * they are left as they were (never read).
 */
typedef struct rt__problem {
    rt_op op;
    rt_tensor in;         /* the input as given */
    rt_tensor out;        /* the output as given */
    /* out (and indices) viewed at the input's rank: reduced dims have extent
       1 and stride 0, kept dims carry out's extents and strides. For a 0-d
       input these are 0-d too. */
    rt_tensor out_full;
    rt_tensor idx_full;
    bool has_indices;     /* min/max with an indices output */
    uint32_t reduce_mask; /* bit d set: input dim d is reduced */
    int64_t reduce_count; /* N, the number of elements reduced into each output */
    int64_t out_count;    /* number of output elements */
    double correction;    /* var/std */
    double p;             /* norm */
    rt_policy policy;     /* resolved: never RT_POLICY_DEFAULT */
} rt__problem;

/* Validates args against ctx's device kind and fills *pb. Does not touch
   memory behind any tensor (except, for CUDA contexts, asking the runtime
   where pointers live). */
rt_status rt__problem_init(const rt_context *ctx, const rt_reduce_args *args, rt__problem *pb);

/* The checks of rt__problem_init that look at data pointers (overlap
   between tensors, NULL data, where the memory lives), in its order, for
   args whose other checks all pass: the plan memo's check of a call whose
   layout an earlier call validated. */
rt_status rt__problem_check_data(const rt_context *ctx, const rt_reduce_args *args);

struct rt__cuda_state; /* src/kernels: device props, workspace, stream */

struct rt_context {
    rt_device_kind kind;
    int device_index;
    int num_threads;   /* CPU workers; 0 = number of online cores */
    rt_policy policy;  /* never RT_POLICY_DEFAULT */
    void *stream;      /* cudaStream_t; NULL = legacy default stream */
    /* Test hook: the largest element count / byte offset a 32-bit kernel
       piece may have; 0 means INT32_MAX. Lets tests drive the split path on
       small tensors. Set through rt__context_set_split_limit. */
    int64_t split_limit;
    /* Test and benchmark hook: kernel kinds (a mask of 1 << RT__KERNEL_*,
       src/config/config.h) TUNED must leave to the general kernel, so a
       kind of its own can be checked or timed against it on the same
       call; 0: every kind. Set through rt__context_set_kinds_off. */
    unsigned kinds_off;
    struct rt__cuda_state *cuda; /* NULL for CPU contexts */
};

rt_status rt__context_set_split_limit(rt_context *ctx, int64_t limit);
rt_status rt__context_set_kinds_off(rt_context *ctx, unsigned kinds_off);

/* CPU backend (src/cpu). */
rt_status rt__cpu_execute(const rt_context *ctx, const rt__problem *pb);
int rt__cpu_default_threads(void);

/* CUDA backend (src/kernels, or src/core/cuda_absent.c without CUDA). */
int rt__cuda_device_count(void);
rt_status rt__cuda_context_init(rt_context *ctx);     /* fills ctx->cuda */
void rt__cuda_context_release(rt_context *ctx);       /* frees ctx->cuda; accepts NULL cuda */
/* Makes `stream` ctx's stream, ordering it after the work ctx enqueued on
   the previous one (event record + stream wait; no host synchronisation). */
rt_status rt__cuda_context_set_stream(rt_context *ctx, void *stream);
/* RT_OK when ptr is device (or managed) memory usable by ctx's device,
   RT_ERR_WRONG_MEMORY otherwise. */
rt_status rt__cuda_check_pointer(const rt_context *ctx, const void *ptr);
rt_status rt__cuda_execute(rt_context *ctx, const rt__problem *pb);
/* The plan memo (src/kernels/cuda_memo.c). replay: where args matches a
   call ctx planned and ran as one launch (data pointers aside) and its
   data pointers pass rt__problem_check_data, launches that plan on them
   and returns true with the launch's status in *status; else false, and
   the call takes the whole path. keep: after rt__cuda_execute succeeded
   on args, remembers the launch it made (if it made exactly one). */
bool rt__cuda_memo_replay(rt_context *ctx, const rt_reduce_args *args, rt_status *status);
void rt__cuda_memo_keep(rt_context *ctx, const rt_reduce_args *args);
/* True when ptr is device memory the host cannot dereference (CPU contexts
   reject such tensors). False without CUDA, without a GPU, or on error. */
bool rt__cuda_pointer_is_device_only(const void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* RT_INTERNAL_H */
