/*
 * host_bench's empty kernels: the cost of a launch alone, with the library's
 * ~900-byte argument block (rt__kernel_args, __grid_constant__) or with 12
 * bytes, so the host time of a reduction can be split into ours and the
 * runtime's.
 */
#include "launch.h"

__global__ void rt_bench_empty_big(const __grid_constant__ rt__kernel_args a) {
    if (a.num_outputs == 0x7fffffffu && a.out != nullptr)
        *a.out = 1;
}

__global__ void rt_bench_empty_small(unsigned n, char *out) {
    if (n == 0x7fffffffu && out != nullptr)
        *out = 1;
}

extern "C" cudaError_t rt_bench_launch_empty(int big, const rt__kernel_args *a) {
    if (big)
        rt_bench_empty_big<<<1, 32>>>(*a);
    else
        rt_bench_empty_small<<<1, 32>>>(a->num_outputs, a->out);
    return cudaGetLastError();
}

/* The same 900-byte launch through cudaLaunchKernel (no <<<>>> stub) and
   through the library's own path (launch_fast.cuh: cuLaunchKernel on a
   cached CUfunction): what each launch path costs per call. */
#include "launch_fast.cuh"

extern "C" cudaError_t rt_bench_launch_empty_fast(const rt__kernel_args *a) {
    void *params[] = {const_cast<rt__kernel_args *>(a)};
    return rt::launch_fast<rt_bench_empty_big>(dim3(1), dim3(32), 0, nullptr, params);
}

extern "C" cudaError_t rt_bench_launch_empty_runtime(const rt__kernel_args *a) {
    void *params[] = {const_cast<rt__kernel_args *>(a)};
    return cudaLaunchKernel((const void *)rt_bench_empty_big, dim3(1), dim3(32), params, 0, nullptr);
}

/* CUB's full sum, the rt_bench peer of the tiny full sums: its host time
   per call against reduce_tensor_ex's. */
#include <cub/device/device_reduce.cuh>

extern "C" cudaError_t rt_bench_cub_sum_host(void *temp, size_t *temp_bytes, const float *in,
                                             float *out, int n) {
    return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, n, (cudaStream_t)0);
}
