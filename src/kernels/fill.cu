/*
 * The result of reducing over an empty dim (sum 0, prod 1, mean NaN, ...):
 * one value written to every output. An elementwise fill, not a reduction,
 * so a fixed grid-stride 1-D launch serves every shape.
 */
#include "launch_fast.cuh"
#include "reduce_offsets.cuh"
#include "reduce_types.cuh"

namespace rt {

static __global__ void fill_kernel(const __grid_constant__ rt__kernel_args a, double value) {
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t o = blockIdx.x * blockDim.x + threadIdx.x; o < a.num_outputs; o += stride)
        /* Any dtype: float is only the one tried first. */
        store_as<float>(a.out + output_offset(a, o, RT__OUT_SLOT_OUT), a.out_dtype, value);
}

} // namespace rt

extern "C" cudaError_t rt__launch_fill(const rt__kernel_args *args, double value,
                                       cudaStream_t stream) {
    /* 256 threads, at most 1024 blocks: a fill is far from launch-bound or
       latency-bound, and outputs of empty reductions are rarely large. */
    const unsigned threads = 256;
    unsigned blocks = (args->num_outputs + threads - 1) / threads;
    blocks = blocks < 1 ? 1 : (blocks > 1024 ? 1024 : blocks);
    void *params[] = {const_cast<rt__kernel_args *>(args), &value};
    return rt::launch_fast<rt::fill_kernel>(dim3(blocks), dim3(threads), 0, stream, params);
}

extern "C" bool rt__cuda_kernels_sm90(void) {
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(rt::fill_kernel)) !=
        cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return attr.binaryVersion >= 90;
}
