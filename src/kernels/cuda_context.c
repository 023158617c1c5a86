/*
 * CUDA contexts: the device, its cached properties, pointer checks, the
 * grow-only workspace, and the one place a cudaError_t becomes a status.
 */
#include <stdlib.h>

#include "cuda_backend.h"

rt_status rt__cuda_status(cudaError_t err) {
    if (err == cudaSuccess)
        return RT_OK;
    /* Non-sticky errors stay in the last-error slot until read: read it so
       the caller's next cudaGetLastError() is not ours. */
    (void)cudaGetLastError();
    switch (err) {
    case cudaErrorMemoryAllocation:
        return RT_ERR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return RT_ERR_NO_CUDA;
    default:
        return RT_ERR_CUDA;
    }
}

int rt__cuda_device_count(void) {
    int n = 0;
    if (rt__cuda_status(cudaGetDeviceCount(&n)) != RT_OK)
        return 0;
    return n;
}

/* Whether this thread has had a device set by us: until then, on a thread
   whose first CUDA call is the library's, cudaGetDevice answers 0 with no
   context current, and the driver's launch (launch_fast.cuh) would find
   none. cudaSetDevice makes the device's primary context current. */
static _Thread_local bool t_device_set;

rt_status rt__cuda_device_enter(const rt_context *ctx, int *prev) {
    RT_FORWARD_IF_ERROR(rt__cuda_status(cudaGetDevice(prev)));
    if (*prev != ctx->device_index || !t_device_set) {
        RT_FORWARD_IF_ERROR(rt__cuda_status(cudaSetDevice(ctx->device_index)));
        t_device_set = true;
    }
    return RT_OK;
}

void rt__cuda_device_restore(const rt_context *ctx, int prev) {
    if (prev != ctx->device_index)
        (void)rt__cuda_status(cudaSetDevice(prev));
}

/* Programmatic dependent launch (the STREAM kernel's dependent fold) needs
   the kernels built for compute capability 9.0 or newer on `device`: an
   older build's kernels lack the wait their fold needs. The binary version
   is the current device's, so `device` is made current for the query. */
static bool kernels_sm90_on(int device) {
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess ||
        (prev != device && cudaSetDevice(device) != cudaSuccess)) {
        (void)cudaGetLastError();
        return false;
    }
    const bool native = rt__cuda_kernels_sm90();
    if (prev != device)
        (void)rt__cuda_status(cudaSetDevice(prev));
    return native;
}

static rt_status read_props(int device, rt__device_props *p) {
    struct cudaDeviceProp dp;
    RT_FORWARD_IF_ERROR(rt__cuda_status(cudaGetDeviceProperties(&dp, device)));
    p->num_sms = dp.multiProcessorCount;
    p->max_threads_per_sm = dp.maxThreadsPerMultiProcessor;
    p->warp_size = dp.warpSize;
    p->max_threads_per_block = dp.maxThreadsPerBlock;
    p->shared_mem_per_block = (int)dp.sharedMemPerBlock;
    p->l2_bytes = dp.l2CacheSize;
    p->regs_per_sm = dp.regsPerMultiprocessor;
    p->dependent_launch = dp.major >= 9 && kernels_sm90_on(device) ? 1 : 0;
    /* Peak DRAM bandwidth: double data rate over the bus; 0 (unknown) when
       the runtime does not report it. */
    int clock_khz = 0, bus_bits = 0;
    p->mem_gbps = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
        p->mem_gbps = (int)(2.0 * clock_khz * 1e3 * (bus_bits / 8) / 1e9);
    else
        (void)cudaGetLastError();
    return RT_OK;
}

void *rt__cuda_driver_entry(const char *name) {
#if CUDART_VERSION >= 12050
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) ==
            cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
        return fn;
    (void)cudaGetLastError();
#else
    (void)name;
#endif
    return NULL;
}

rt_status rt__cuda_context_init(rt_context *ctx) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    int count = rt__cuda_device_count();
    RT_RETURN_IF(count <= 0, RT_ERR_NO_CUDA);
    RT_RETURN_IF(ctx->device_index < 0 || ctx->device_index >= count, RT_ERR_BAD_DEVICE);
    struct rt__cuda_state *st = calloc(1, sizeof *st);
    RT_RETURN_IF(st == NULL, RT_ERR_OUT_OF_MEMORY);
    st->device = ctx->device_index;
    st->pointer_attrs = (rt__pointer_attrs_fn)rt__cuda_driver_entry("cuPointerGetAttributes");
    rt_status s = read_props(st->device, &st->props);
    if (s != RT_OK) {
        free(st);
        return s;
    }
    ctx->cuda = st;
    return RT_OK;
}

void rt__cuda_context_release(rt_context *ctx) {
    if (ctx == NULL || ctx->cuda == NULL)
        return;
    struct rt__cuda_state *st = ctx->cuda;
    if (st->workspace != NULL) {
        int prev = 0;
        if (rt__cuda_device_enter(ctx, &prev) == RT_OK) {
            /* Work this context enqueued may still read the workspace. */
            (void)rt__cuda_status(cudaStreamSynchronize((cudaStream_t)ctx->stream));
            (void)rt__cuda_status(cudaFree(st->workspace));
            rt__cuda_device_restore(ctx, prev);
        }
    }
    if (st->switch_event != NULL)
        (void)rt__cuda_status(cudaEventDestroy(st->switch_event));
    free(st);
    ctx->cuda = NULL;
}

rt_status rt__cuda_context_set_stream(rt_context *ctx, void *stream) {
    RT_RETURN_IF(ctx == NULL || ctx->cuda == NULL, RT_ERR_NULL_POINTER);
    struct rt__cuda_state *st = ctx->cuda;
    if (stream == ctx->stream)
        return RT_OK;
    int prev = 0;
    RT_FORWARD_IF_ERROR(rt__cuda_device_enter(ctx, &prev));
    rt_status s = RT_OK;
    if (st->workspace != NULL) {
        /* Earlier calls on the old stream may still use the workspace. */
        if (st->switch_event == NULL)
            s = rt__cuda_status(cudaEventCreateWithFlags(&st->switch_event,
                                                         cudaEventDisableTiming));
        if (s == RT_OK)
            s = rt__cuda_status(cudaEventRecord(st->switch_event, (cudaStream_t)ctx->stream));
        if (s == RT_OK)
            s = rt__cuda_status(cudaStreamWaitEvent((cudaStream_t)stream, st->switch_event, 0));
    }
    rt__cuda_device_restore(ctx, prev);
    if (s == RT_OK)
        ctx->stream = stream;
    return s;
}

/* The driver's answer: 1 accepted, 0 refused, -1 no answer. The plural
   query returns CUDA_SUCCESS with zeroed attributes for memory CUDA does
   not know (plain host memory), where the singular one errs. */
static int driver_accepts(const struct rt__cuda_state *st, const void *ptr) {
    CUmemorytype type = (CUmemorytype)0;
    unsigned managed = 0; /* documented as a boolean: zero the whole word */
    int ordinal = -1;
    CUpointer_attribute attrs[3] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *data[3] = {&type, &managed, &ordinal};
    if (st->pointer_attrs(3, attrs, data, (CUdeviceptr)(uintptr_t)ptr) != CUDA_SUCCESS)
        return -1;
    return managed != 0 || (type == CU_MEMORYTYPE_DEVICE && ordinal == st->device);
}

/*
 * Every call asks where each tensor lives: the driver's
 * cuPointerGetAttributes where the runtime gave it (40-91 ns against the
 * runtime's cudaPointerGetAttributes' 73-150, and 70-140 ns less a tensor
 * between launches: H100 hosts, bench/host_bench.c, bench/NOTES.md v1.12),
 * else the runtime. A cache of accepted addresses was measured (0.12 us
 * per call saved) and dropped: it would rely on the driver never handing
 * a freed device range to host memory, which CUDA does not promise, and a
 * stale hit turns RT_ERR_WRONG_MEMORY into an illegal-address fault that
 * poisons the caller's CUDA context.
 */
rt_status rt__cuda_check_pointer(const rt_context *ctx, const void *ptr) {
    RT_RETURN_IF(ctx == NULL || ctx->cuda == NULL, RT_ERR_NULL_POINTER);
    struct rt__cuda_state *st = ctx->cuda;
    if (st->pointer_attrs != NULL) {
        const int verdict = driver_accepts(st, ptr);
        if (verdict >= 0)
            return verdict ? RT_OK : RT_ERR_WRONG_MEMORY;
    }
    struct cudaPointerAttributes attr;
    /* Plain host memory is not an error for the runtime (type
       cudaMemoryTypeUnregistered); an error here means "not ours" too. */
    if (rt__cuda_status(cudaPointerGetAttributes(&attr, ptr)) != RT_OK)
        return RT_ERR_WRONG_MEMORY;
    if (attr.type == cudaMemoryTypeManaged ||
        (attr.type == cudaMemoryTypeDevice && attr.device == st->device))
        return RT_OK;
    return RT_ERR_WRONG_MEMORY;
}

bool rt__cuda_pointer_is_device_only(const void *ptr) {
    if (ptr == NULL || rt__cuda_device_count() <= 0)
        return false;
    struct cudaPointerAttributes attr;
    if (rt__cuda_status(cudaPointerGetAttributes(&attr, ptr)) != RT_OK)
        return false;
    return attr.type == cudaMemoryTypeDevice;
}

/* ---- workspace ---------------------------------------------------------- */

static int64_t round_up(int64_t v, int64_t a) {
    return (v + a - 1) / a * a;
}

static int64_t max64(int64_t a, int64_t b) {
    return a > b ? a : b;
}

static int64_t sem_region_bytes(int64_t sems) {
    return round_up(sems * (int64_t)sizeof(int), 256);
}

rt_status rt__cuda_workspace_reserve(rt_context *ctx, int64_t sems, int64_t staging_bytes,
                                     int64_t acc_bytes) {
    struct rt__cuda_state *st = ctx->cuda;
    if (sems <= st->sem_capacity && staging_bytes <= st->staging_capacity &&
        acc_bytes <= st->acc_capacity)
        return RT_OK;
    /* Round the regions up so a slowly growing sequence of shapes does not
       reallocate at every call. */
    int64_t new_sems = round_up(max64(sems, st->sem_capacity), 1024);
    int64_t new_staging = round_up(max64(staging_bytes, st->staging_capacity), 1 << 16);
    int64_t new_acc = round_up(max64(acc_bytes, st->acc_capacity), 1 << 16);
    int64_t total = sem_region_bytes(new_sems) + new_staging + new_acc;

    cudaStream_t stream = (cudaStream_t)ctx->stream;
    if (st->workspace != NULL) {
        /* Growth is not the steady state: a host wait is acceptable here,
           and freeing memory that queued work still reads is not. */
        RT_FORWARD_IF_ERROR(rt__cuda_status(cudaStreamSynchronize(stream)));
        (void)rt__cuda_status(cudaFree(st->workspace));
        st->workspace = NULL;
        st->workspace_bytes = 0;
        st->sem_capacity = st->staging_capacity = st->acc_capacity = 0;
    }
    void *p = NULL;
    RT_FORWARD_IF_ERROR(rt__cuda_status(cudaMalloc(&p, (size_t)total)));
    rt_status s =
        rt__cuda_status(cudaMemsetAsync(p, 0, (size_t)sem_region_bytes(new_sems), stream));
    if (s != RT_OK) {
        (void)cudaFree(p);
        return s;
    }
    st->workspace = p;
    st->workspace_bytes = (size_t)total;
    st->sem_capacity = new_sems;
    st->staging_capacity = new_staging;
    st->acc_capacity = new_acc;
    st->alloc_count++;
    return RT_OK;
}

unsigned *rt__cuda_workspace_semaphores(const rt_context *ctx) {
    return (unsigned *)ctx->cuda->workspace;
}

char *rt__cuda_workspace_staging(const rt_context *ctx) {
    const struct rt__cuda_state *st = ctx->cuda;
    if (st->workspace == NULL)
        return NULL;
    return st->workspace + sem_region_bytes(st->sem_capacity);
}

char *rt__cuda_workspace_acc(const rt_context *ctx) {
    const struct rt__cuda_state *st = ctx->cuda;
    if (st->workspace == NULL)
        return NULL;
    return st->workspace + sem_region_bytes(st->sem_capacity) + st->staging_capacity;
}

rt_status rt__cuda_workspace_info(const rt_context *ctx, const void **base, size_t *bytes,
                                  uint64_t *alloc_count) {
    RT_RETURN_IF(ctx == NULL, RT_ERR_NULL_POINTER);
    RT_RETURN_IF(ctx->kind != RT_DEVICE_CUDA || ctx->cuda == NULL, RT_ERR_BAD_DEVICE);
    if (base != NULL)
        *base = ctx->cuda->workspace;
    if (bytes != NULL)
        *bytes = ctx->cuda->workspace_bytes;
    if (alloc_count != NULL)
        *alloc_count = ctx->cuda->alloc_count;
    return RT_OK;
}

const rt__device_props *rt__cuda_props(const rt_context *ctx) {
    if (ctx == NULL || ctx->kind != RT_DEVICE_CUDA || ctx->cuda == NULL)
        return NULL;
    return &ctx->cuda->props;
}
