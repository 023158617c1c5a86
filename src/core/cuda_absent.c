/*
 * The CUDA backend of a build without CUDA (CMake compiles this file only
 * when RT_HAVE_CUDA is off, in place of src/kernels). It is the real
 * behaviour of a CPU-only library: no devices, so every CUDA request is
 * answered with RT_ERR_NO_CUDA and no host pointer is device memory.
 */
#include "rt_internal.h"

int rt__cuda_device_count(void) {
    return 0;
}

rt_status rt__cuda_context_init(rt_context *ctx) {
    (void)ctx;
    return RT_ERR_NO_CUDA;
}

void rt__cuda_context_release(rt_context *ctx) {
    /* init never succeeds here, so there is no state to free. */
    (void)ctx;
}

rt_status rt__cuda_context_set_stream(rt_context *ctx, void *stream) {
    /* No CUDA context can exist in this build. */
    (void)ctx;
    (void)stream;
    return RT_ERR_NO_CUDA;
}

rt_status rt__cuda_check_pointer(const rt_context *ctx, const void *ptr) {
    (void)ctx;
    (void)ptr;
    return RT_ERR_NO_CUDA;
}

rt_status rt__cuda_execute(rt_context *ctx, const rt__problem *pb) {
    (void)ctx;
    (void)pb;
    return RT_ERR_NO_CUDA;
}

/* No CUDA context exists here, so nothing was ever planned. */
bool rt__cuda_memo_replay(rt_context *ctx, const rt_reduce_args *args, rt_status *status) {
    (void)ctx;
    (void)args;
    (void)status;
    return false;
}

void rt__cuda_memo_keep(rt_context *ctx, const rt_reduce_args *args) {
    (void)ctx;
    (void)args;
}

bool rt__cuda_pointer_is_device_only(const void *ptr) {
    (void)ptr;
    return false;
}
