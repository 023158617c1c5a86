// The suite's d024 case as the probes read it (ndim_probe.cu,
// launch_probe.cu): an f32 sum of [32,32,16,32,128] over dims 0, 2 and 4,
// 1024 outputs of 65536 inputs, each a set of 512 rows of 512 bytes (the
// (dim 0, dim 2) pairs), and the read of one output by a block with a
// rolling window of loads. Include after probe.cuh.
#ifndef RT_BENCH_D024_CUH
#define RT_BENCH_D024_CUH

namespace d024 {

// [A, K1, B, K2, C] over (0, 2, 4), strides in floats.
constexpr int A = 32, K1 = 32, B = 16, K2 = 32, C = 128;
constexpr long S0 = (long)K1 * B * K2 * C, S1 = (long)B * K2 * C, S2 = (long)K2 * C, S3 = C;
constexpr int PAIRS = A * B, OUTPUTS = K1 * K2;

// Offset in floats of (dim 0, dim 2) pair p, dim 2 fastest.
__device__ __forceinline__ long pair_off(int p) { return (long)(p / B) * S0 + (long)(p % B) * S2; }

// This thread's share of output o read by a block of T threads (32 lanes
// of 16 bytes on a row, T/32 rows a step), its 32 loads unrolled, load
// k + U issued as soon as load k is folded, so U stay in flight to the
// end (Inductor's SASS has this shape: 4 loads before the first add, then
// one every 4-5 adds). skew (0 at run time in the probes) moves the first
// load's address, so start-up work can be put ahead of it.
template <int T, int U, int HINT>
__device__ __forceinline__ float roll_sum(const float *src, int o, long skew = 0) {
    constexpr int ROWS = T / 32, N = PAIRS / ROWS;
    static_assert(PAIRS % ROWS == 0 && N >= U, "shape");
    const int lane = threadIdx.x % 32, row = threadIdx.x / 32;
    const float4 *base =
        reinterpret_cast<const float4 *>(src + (long)(o / K2) * S1 + (long)(o % K2) * S3) + lane +
        skew;
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
        v[u] = probe_load4<HINT>(base + pair_off(row + u * ROWS) / 4);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int k = 0; k < N; ++k) {
        acc[0] += v[k % U].x;
        acc[1] += v[k % U].y;
        acc[2] += v[k % U].z;
        acc[3] += v[k % U].w;
        if (k + U < N)
            v[k % U] = probe_load4<HINT>(base + pair_off(row + (k + U) * ROWS) / 4);
    }
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

} // namespace d024

#endif // RT_BENCH_D024_CUH
