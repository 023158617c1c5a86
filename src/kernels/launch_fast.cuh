/*
 * Kernel launches through the driver's cuLaunchKernel on a cached function
 * handle instead of the runtime's <<<>>>: ~0.35-0.5 us less host time per
 * call (host_bench, H200 VM: an empty kernel with the library's 900-byte
 * argument block 3121 ns through <<<>>>, 3034 through cudaLaunchKernel,
 * 2597-2771 through cuLaunchKernel). The entry point comes from the runtime
 * (rt__cuda_driver_entry, launch.h: cudaGetDriverEntryPointByVersion), so
 * nothing links libcuda and a machine without a driver still loads the
 * library; the handle is the kernel's CUfunction in the current device's
 * primary context (cudaGetFuncBySymbol), cached per kernel and device. Where a lookup or
 * the driver's launch fails, the launch goes through cudaLaunchKernel.
 */
#ifndef RT_KERNELS_LAUNCH_FAST_CUH
#define RT_KERNELS_LAUNCH_FAST_CUH

#include <atomic>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "launch.h"

namespace rt {

using CuLaunchKernelFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, CUstream, void **, void **);

/* The driver's cuLaunchKernel, looked up once per process; null when the
   runtime cannot provide it. */
inline CuLaunchKernelFn driver_launch_kernel() {
    static const CuLaunchKernelFn fn =
        reinterpret_cast<CuLaunchKernelFn>(rt__cuda_driver_entry("cuLaunchKernel"));
    return fn;
}

enum { kLaunchCacheDevices = 64 };

/* Launches Kernel (a __global__ function) with its parameters' addresses
   in params, on the current device, whose ordinal the caller knows
   (device; -1: ask the runtime, cudaGetDevice, ~35-50 ns on H100 hosts). */
template <auto Kernel>
cudaError_t launch_fast(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, void **params,
                        int device = -1) {
    static std::atomic<void *> handles[kLaunchCacheDevices]; /* zeroed: static storage */
    const CuLaunchKernelFn launch = driver_launch_kernel();
    int dev = device;
    if (launch != nullptr && (dev >= 0 || cudaGetDevice(&dev) == cudaSuccess) && dev >= 0 &&
        dev < kLaunchCacheDevices) {
        void *f = handles[dev].load(std::memory_order_acquire);
        if (f == nullptr) {
            cudaFunction_t h;
            if (cudaGetFuncBySymbol(&h, reinterpret_cast<const void *>(Kernel)) == cudaSuccess) {
                f = reinterpret_cast<void *>(h);
                handles[dev].store(f, std::memory_order_release);
            } else {
                (void)cudaGetLastError();
            }
        }
        /* A driver launch that fails launched nothing, so the runtime's
           may follow: it reports the same error where the launch itself
           is wrong, and binds the device's primary context where none is
           current. The executor's device_enter makes it current on each
           thread's first call (bench/NOTES.md v1.12), so this is for what
           it cannot see: a thread whose context was popped or reset
           since. */
        if (f != nullptr &&
            launch(reinterpret_cast<CUfunction>(f), grid.x, grid.y, grid.z, block.x, block.y,
                   block.z, (unsigned)smem, reinterpret_cast<CUstream>(stream), params,
                   nullptr) == CUDA_SUCCESS)
            return cudaSuccess;
    }
    return cudaLaunchKernel(reinterpret_cast<const void *>(Kernel), grid, block, params, smem,
                            stream);
}

/* Launches func (no dynamic shared memory) with its parameters' addresses
   in params, on `stream`, as the programmatic dependent of the kernel
   before it there (cudaLaunchAttributeProgrammaticStreamSerialization):
   it may start once every block of that kernel has let it (or ended), and
   waits for that kernel's end and memory itself (griddepcontrol.wait,
   reduce_tiny.cuh). The config asks for it only on a device with
   dependent_launch. Where the runtime refuses the attribute, a plain
   launch, which starts after that kernel in stream order, is as correct;
   it reports the same error where the launch itself is wrong. */
inline cudaError_t launch_dependent(const void *func, dim3 grid, dim3 block, cudaStream_t stream,
                                    void **params) {
#if CUDART_VERSION >= 12000
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    if (cudaLaunchKernelExC(&cfg, func, params) == cudaSuccess)
        return cudaSuccess;
    (void)cudaGetLastError();
#endif
    return cudaLaunchKernel(func, grid, block, params, 0, stream);
}

} // namespace rt

#endif /* RT_KERNELS_LAUNCH_FAST_CUH */
