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

#ifdef __cplusplus
}
#endif

#endif /* RT_KERNELS_CUDA_BACKEND_H */
