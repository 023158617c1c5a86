/*
 * The CUDA backend's private state and helpers (src/kernels), shared by the
 * context code, the executor and the CUDA tests. Plain C: the CUDA runtime
 * API header is C-compatible.
 */
#ifndef RT_KERNELS_CUDA_BACKEND_H
#define RT_KERNELS_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "config.h"
#include "launch.h"
#include "rt_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The driver's cuPointerGetAttributes (cuda.h for its types only: the
   function comes from the runtime, nothing links libcuda). */
typedef CUresult (*rt__pointer_attrs_fn)(unsigned count, CUpointer_attribute *attributes,
                                         void **data, CUdeviceptr ptr);

/*
 * One kernel launch of a call that ran as exactly one (a one-piece
 * reduction), as the executor made it: what the plan memo replays with a
 * later call's own data pointers. The launch's in/out/idx pointers are the
 * call's tensors' data plus in_off/out_off/idx_off (the iteration space
 * may start elsewhere than element [0,...,0], e.g. where it flips a dim of
 * negative stride). Its staging and semaphore pointers are the workspace's
 * regions of allocation `alloc_count`.
 */
typedef struct rt__cuda_launch {
    rt__launch_config cfg;
    /* general/ROWS launches use kargs and launch; TINY/STREAM ones (those
       of rt__config_tiny_args) targs and tiny_launch. */
    rt__kernel_args kargs;
    rt__tiny_args targs;
    rt__launch_fn launch;
    rt__tiny_launch_fn tiny_launch;
    size_t shared_bytes;
    ptrdiff_t in_off, out_off, idx_off;
    const char *workspace;
    uint64_t alloc_count;
} rt__cuda_launch;

/* A memo entry's view of a tensor: everything but its data pointer, whose
   address modulo RT__MEMO_ALIGN stands in for it (the plans look at the
   input's alignment: vectors, rows of whole vectors). */
typedef struct rt__memo_tensor {
    rt_dtype dtype;
    int ndim;
    unsigned align;
    int64_t shape[RT_MAX_DIMS];
    int64_t strides[RT_MAX_DIMS];
} rt__memo_tensor;

#define RT__MEMO_ENTRIES 8
#define RT__MEMO_ALIGN 256u

/* A call the context planned, and its launch. */
typedef struct rt__cuda_memo {
    bool valid;
    rt_op op;
    bool keepdim;
    int ndims;
    int dims[RT_MAX_DIMS];
    double correction, p; /* compared bit for bit */
    rt_policy policy;     /* the call's, and the context's settings below */
    rt_policy ctx_policy;
    unsigned kinds_off;
    int64_t split_limit;
    rt__device_props props; /* the device the plan was made for (tests
                               change it: case_plan_gbps) */
    int ntensors; /* in, out and, for 3, indices */
    rt__memo_tensor t[3];
    rt__cuda_launch launch;
} rt__cuda_memo;

/*
 * ctx->cuda. The workspace is one device allocation, grow-only, laid out as
 * [semaphores | staging | acc], each region 256-byte aligned:
 *  - semaphores: unsigned counters of the global reduce, zeroed once when the
 *    allocation is made; every launch leaves them at 0 again (the block that
 *    folds each output tile's partials resets its own), so later calls need
 *    no memset; the STREAM kernel's slots and group words (two unsigneds a
 *    block and a group, stream_slots) live here too, each reset to 0 by
 *    the block that folds it;
 *  - staging: the per-block partials of a global reduce;
 *  - acc: accumulator states carried between the pieces of a split
 *    reduction (RT__ITER_ACC).
 * Calls on one context are ordered by its stream; rt_context_set_stream
 * chains the old stream to the new one with `switch_event`, so work still
 * in flight on the old stream finishes with the workspace before the new
 * stream's next call touches it (no host wait). One context must not be
 * used from several host threads at once, as a cuBLAS handle.
 */
struct rt__cuda_state {
    int device;
    rt__device_props props;
    char *workspace;
    size_t workspace_bytes;
    int64_t sem_capacity;     /* ints */
    int64_t staging_capacity; /* bytes */
    int64_t acc_capacity;     /* bytes */
    uint64_t alloc_count;     /* workspace (re)allocations so far */
    cudaEvent_t switch_event; /* created at the first stream switch; NULL before */
    /* The driver's cuPointerGetAttributes, looked up at creation; NULL
       where the runtime cannot provide it (pointer checks then ask the
       runtime). */
    rt__pointer_attrs_fn pointer_attrs;
    /* The general kernels' registers per thread and most threads a block
       on this device, per (family, input dtype) and output_vec_size 1/2/4,
       asked for at their first use (0: not yet; -1: the query failed,
       treated as unknown). */
    int16_t kernel_regs[RT__FAM_COUNT][RT_DTYPE_COUNT][3];
    int16_t kernel_threads[RT__FAM_COUNT][RT_DTYPE_COUNT][3];
    /* The plan memo (cuda_memo.c): the launches of recent one-kernel
       calls, the executor's record of the call in progress, and how many
       calls replayed an entry (a test hook). */
    rt__cuda_memo memo[RT__MEMO_ENTRIES];
    int memo_next;   /* the entry the next new call replaces */
    int memo_last;   /* the entry the last hit or keep used: looked at first */
    rt__cuda_launch pending;
    bool pending_ok; /* pending holds this call's launch, made and accepted */
    uint64_t memo_hits;
};

/* THE conversion of a CUDA error into a status: cudaSuccess -> RT_OK,
   an allocation failure -> RT_ERR_OUT_OF_MEMORY, no device or no driver ->
   RT_ERR_NO_CUDA, anything else -> RT_ERR_CUDA. Clears the runtime's
   last-error slot so a failure does not leak into the caller's checks. */
rt_status rt__cuda_status(cudaError_t err);

/* Makes ctx's device current for the duration of a call; *prev receives the
   caller's device for rt__cuda_device_restore. */
rt_status rt__cuda_device_enter(const rt_context *ctx, int *prev);
/* Restores the device saved by rt__cuda_device_enter (errors ignored: the
   call's own status is what the caller gets). */
void rt__cuda_device_restore(const rt_context *ctx, int prev);

/*
 * Ensures the workspace holds at least `sems` semaphores, `staging_bytes`
 * and `acc_bytes` (each region grows independently, never shrinks). When it
 * must grow: waits for the context's stream (old work may still read the
 * old allocation), frees it, allocates the new one and zeroes its
 * semaphores on the stream. Does nothing when everything fits. Errors:
 * RT_ERR_OUT_OF_MEMORY (the workspace is then empty), RT_ERR_CUDA.
 */
rt_status rt__cuda_workspace_reserve(rt_context *ctx, int64_t sems, int64_t staging_bytes,
                                     int64_t acc_bytes);

/* The plan memo's half in the executor (cuda_memo.c): the launch
   rt__cuda_execute made for pb as its one piece, once the launch was
   accepted, into ctx->cuda->pending (pending_ok). Either targs and
   tiny_launch (TINY/STREAM) or kargs and launch (general/ROWS, with
   shared_bytes of dynamic shared memory). */
void rt__cuda_memo_record(rt_context *ctx, const rt__problem *pb, const rt__launch_config *cfg,
                          const rt__tiny_args *targs, rt__tiny_launch_fn tiny_launch,
                          const rt__kernel_args *kargs, rt__launch_fn launch,
                          size_t shared_bytes);

/* Test hook: how many calls replayed a memo entry on ctx so far. */
uint64_t rt__cuda_memo_hits(const rt_context *ctx);

/* Region addresses of the current workspace (NULL when empty). */
unsigned *rt__cuda_workspace_semaphores(const rt_context *ctx);
char *rt__cuda_workspace_staging(const rt_context *ctx);
char *rt__cuda_workspace_acc(const rt_context *ctx);

/* Test hooks. The workspace base, its size and how many times it was
   (re)allocated; any out pointer may be NULL. RT_ERR_BAD_DEVICE for a CPU
   context. */
rt_status rt__cuda_workspace_info(const rt_context *ctx, const void **base, size_t *bytes,
                                  uint64_t *alloc_count);
/* The device properties cached at context creation (NULL for CPU). */
const rt__device_props *rt__cuda_props(const rt_context *ctx);

/* The op traits the executor plans pb with on ctx's device:
   rt__op_traits_for plus the registers of the (family, dtype) general
   kernels (TUNED's occupancy). RT_ERR_UNSUPPORTED without a kernel. */
rt_status rt__cuda_op_traits(rt_context *ctx, const rt__problem *pb, rt__op_traits *traits);

/* Test hook: the walk the executor packs for a piece `it` of pb under
   general-kernel config c (launch.h), with the vector width of pb's
   kernel: walk[0..4] = walk, walk_step, walk_digit, walk_carry,
   walk_count. RT_ERR_UNSUPPORTED without a kernel. */
rt_status rt__cuda_walk(const rt__problem *pb, const rt__iter *it, const rt__launch_config *c,
                        int32_t walk[5]);

/* Test hook: whether the executor sends the one-piece plan of pb (iter it,
   general-kernel config c) on ctx to the LEAN walk kernel (cuda_exec.c
   lean_walk: its kinds_off and device count too). */
bool rt__cuda_lean_walk(rt_context *ctx, const rt__problem *pb, const rt__iter *it,
                        const rt__launch_config *c);

#ifdef __cplusplus
}
#endif

#endif /* RT_KERNELS_CUDA_BACKEND_H */
