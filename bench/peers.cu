// The benchmark's device code: the random fill, the streaming-read ceiling
// and the CUB peers. Contracts are in peers.h.
#include "peers.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "read_loop.cuh"
#include "reduce_tensor.h"

namespace {

// ---------------------------------------------------------------- fill

// splitmix64's finaliser: a cheap hash whose low and high bits are both
// well mixed, so every element gets independent-looking bits.
__device__ __forceinline__ uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// [0.5, 1.5): never zero, no cancellation in sums, and 24 random mantissa
// bits so argmax rows rarely hold two equal maxima.
__device__ __forceinline__ float unit_f32(uint64_t h) {
    return 0.5f + (float)(h >> 40) * (1.0f / 16777216.0f);
}
__device__ __forceinline__ double unit_f64(uint64_t h) {
    return 0.5 + (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

template <typename T>
__device__ __forceinline__ T dense_value(uint64_t h);
template <> __device__ __forceinline__ float dense_value<float>(uint64_t h) { return unit_f32(h); }
template <> __device__ __forceinline__ double dense_value<double>(uint64_t h) { return unit_f64(h); }
template <> __device__ __forceinline__ __half dense_value<__half>(uint64_t h) {
    return __float2half_rn(unit_f32(h));
}
template <> __device__ __forceinline__ __nv_bfloat16 dense_value<__nv_bfloat16>(uint64_t h) {
    return __float2bfloat16_rn(unit_f32(h));
}
// Integers 1..100: sums of a few million stay far from int64 wrap, and the
// values are never zero.
#define RT_BENCH_INT_VALUE(T)                                                                      \
    template <> __device__ __forceinline__ T dense_value<T>(uint64_t h) {                          \
        return (T)(1 + (h >> 32) % 100);                                                           \
    }
RT_BENCH_INT_VALUE(int8_t)
RT_BENCH_INT_VALUE(uint8_t)
RT_BENCH_INT_VALUE(int16_t)
RT_BENCH_INT_VALUE(int32_t)
RT_BENCH_INT_VALUE(int64_t)
#undef RT_BENCH_INT_VALUE

// rt_bool storage: one byte that must be 0 or 1, whatever the fill.
struct bool8 {
    uint8_t v;
    __device__ explicit bool8(float f) : v(f != 0.0f) {}
};
static_assert(sizeof(bool8) == 1, "bool8 must be one byte");
template <> __device__ __forceinline__ bool8 dense_value<bool8>(uint64_t) { return bool8(1.0f); }

// One in 2^14 elements is nonzero: rows of a few thousand elements then
// give a mix of true and false for any(), which is what makes it a test.
constexpr uint64_t kSparseMask = (1u << 14) - 1;

template <typename T>
__global__ void fill_kernel(T *dst, int64_t count, int fill, uint64_t seed) {
    const uint64_t key = mix64(seed);
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
         i += (int64_t)gridDim.x * blockDim.x) {
        uint64_t h = mix64(key ^ (uint64_t)i);
        if (fill == RT__BENCH_FILL_SPARSE && (h & kSparseMask) != 0)
            dst[i] = T(0.0f);
        else
            dst[i] = dense_value<T>(h);
    }
}

template <typename T>
cudaError_t fill_as(void *dst, int64_t count, int fill, uint64_t seed, cudaStream_t stream) {
    const int threads = 256;
    int64_t blocks = (count + threads - 1) / threads;
    if (blocks > 65536) // grid-stride beyond one large wave
        blocks = 65536;
    if (blocks == 0)
        return cudaSuccess;
    fill_kernel<T><<<(unsigned)blocks, threads, 0, stream>>>((T *)dst, count, fill, seed);
    return cudaGetLastError();
}

// ---------------------------------------------------------------- read ceiling

constexpr int kReadThreads = 256;
constexpr int kReadUnroll = 4; // independent float4 loads in flight per thread

__global__ void __launch_bounds__(kReadThreads)
    stream_read_kernel(const float4 *__restrict__ src, size_t n4, float *block_sums) {
    const size_t stride = (size_t)gridDim.x * kReadThreads;
    // All loads of one step are issued before any is consumed, so each
    // thread keeps kReadUnroll requests outstanding; the block's partial is
    // a result the compiler must keep.
    const float acc = probe_read_run<kReadUnroll, NC>(
        src, (size_t)blockIdx.x * kReadThreads + threadIdx.x, n4, stride);
    probe_block_store<kReadThreads>(acc, block_sums);
}

// The per-device grid of one full wave, cached: the query must not add host
// time to the small-size ceilings it is used for.
int read_blocks_cached = -1;

// Segment r of a contiguous row-major matrix starts at r * row_len.
struct row_start {
    int64_t row_len;
    __host__ __device__ int64_t operator()(int64_t r) const { return r * row_len; }
};

} // namespace

extern "C" cudaError_t rt__bench_fill_launch(void *dst, int64_t count, int dtype, int fill,
                                             uint64_t seed, cudaStream_t stream) {
    if (fill != RT__BENCH_FILL_DENSE && fill != RT__BENCH_FILL_SPARSE)
        return cudaErrorInvalidValue;
    switch (dtype) {
    case RT_F32: return fill_as<float>(dst, count, fill, seed, stream);
    case RT_F64: return fill_as<double>(dst, count, fill, seed, stream);
    case RT_F16: return fill_as<__half>(dst, count, fill, seed, stream);
    case RT_BF16: return fill_as<__nv_bfloat16>(dst, count, fill, seed, stream);
    case RT_I8: return fill_as<int8_t>(dst, count, fill, seed, stream);
    case RT_U8: return fill_as<uint8_t>(dst, count, fill, seed, stream);
    case RT_I16: return fill_as<int16_t>(dst, count, fill, seed, stream);
    case RT_I32: return fill_as<int32_t>(dst, count, fill, seed, stream);
    case RT_I64: return fill_as<int64_t>(dst, count, fill, seed, stream);
    case RT_BOOL: return fill_as<bool8>(dst, count, fill, seed, stream);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" int rt__bench_read_blocks(void) {
    if (read_blocks_cached > 0)
        return read_blocks_cached;
    int device = 0, sms = 0, threads_per_sm = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
            cudaSuccess)
        return 0;
    read_blocks_cached = sms * (threads_per_sm / kReadThreads);
    return read_blocks_cached;
}

extern "C" size_t rt__bench_read_launch(const void *src, size_t nbytes, float *block_sums,
                                        cudaStream_t stream) {
    const size_t n4 = nbytes / sizeof(float4);
    const int max_blocks = rt__bench_read_blocks();
    if (n4 == 0 || max_blocks <= 0)
        return 0;
    // Enough threads for every float4 once the unrolled steps are counted,
    // but never more than one wave: grid-stride covers the rest.
    size_t blocks = (n4 + kReadThreads * kReadUnroll - 1) / (kReadThreads * kReadUnroll);
    if (blocks > (size_t)max_blocks)
        blocks = (size_t)max_blocks;
    stream_read_kernel<<<(unsigned)blocks, kReadThreads, 0, stream>>>((const float4 *)src, n4,
                                                                      block_sums);
    return cudaGetLastError() == cudaSuccess ? n4 * sizeof(float4) : 0;
}

__global__ void spin_kernel(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

extern "C" cudaError_t rt__bench_spin_launch(long long cycles, cudaStream_t stream) {
    spin_kernel<<<1, 1, 0, stream>>>(cycles);
    return cudaGetLastError();
}

extern "C" cudaError_t rt__bench_cub_sum(void *temp, size_t *temp_bytes, const float *in,
                                         float *out, int64_t n, cudaStream_t stream) {
    return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, n, stream);
}

extern "C" cudaError_t rt__bench_cub_row_sum(void *temp, size_t *temp_bytes, const float *in,
                                             float *out, int64_t rows, int64_t row_len,
                                             cudaStream_t stream) {
    auto begin = thrust::make_transform_iterator(thrust::make_counting_iterator<int64_t>(0),
                                                 row_start{row_len});
    return cub::DeviceSegmentedReduce::Sum(temp, *temp_bytes, in, out, rows, begin, begin + 1,
                                           stream);
}
