// The read loop the benchmark's ceiling (peers.cu) and the probes
// (probe.cuh) share: load flavours, an unrolled float4 read, and a block's
// partial sum.
#ifndef RT_BENCH_READ_LOOP_CUH
#define RT_BENCH_READ_LOOP_CUH

#include <cuda_runtime.h>

// Load flavours the probes compare: ld.global.nc, the same with a 256-byte
// L2 prefetch, plain ld.global, ld.global.cs, an L2 eviction-priority
// policy (createpolicy + .L2::cache_hint), L1 evict-first or no-allocate,
// and both evict-first hints at once, as Triton's eviction_policy argument
// emits them.
enum ProbeHint {
    NC,
    NC_L2_256,
    PLAIN,
    CS,
    EVICT_FIRST,
    EVICT_LAST,
    L1_EVICT_FIRST,
    L1_NO_ALLOCATE,
    TRITON_EF
};

// One ld.global<QUAL>.v4.f32 of p into v: the flavours that differ only
// in the instruction's qualifiers.
#define RT_PROBE_LD4(QUAL, v, p)                                                                   \
    asm volatile("ld.global" QUAL ".v4.f32 {%0,%1,%2,%3}, [%4];"                                   \
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)                                      \
                 : "l"(p))
// The same with an L2 cache policy (createpolicy) operand.
#define RT_PROBE_LD4_POLICY(QUAL, v, p, pol)                                                       \
    asm volatile("ld.global" QUAL ".L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"                \
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)                                      \
                 : "l"(p), "l"(pol))

template <int HINT> __device__ __forceinline__ float4 probe_load4(const float4 *p) {
    float4 v;
    if (HINT == NC) {
        v = __ldg(p);
    } else if (HINT == NC_L2_256) {
        RT_PROBE_LD4(".nc.L2::256B", v, p);
    } else if (HINT == PLAIN) {
        RT_PROBE_LD4("", v, p);
    } else if (HINT == CS) {
        v = __ldcs(p);
    } else if (HINT == L1_EVICT_FIRST) {
        RT_PROBE_LD4(".L1::evict_first", v, p);
    } else if (HINT == L1_NO_ALLOCATE) {
        RT_PROBE_LD4(".L1::no_allocate", v, p);
    } else {
        // An L2 eviction-priority policy on the load (EVICT_FIRST,
        // EVICT_LAST); TRITON_EF, what Triton emits for
        // eviction_policy='evict_first', adds L1::evict_first.
        unsigned long long pol;
        if (HINT == EVICT_LAST)
            asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
        else
            asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        if (HINT == TRITON_EF)
            RT_PROBE_LD4_POLICY(".L1::evict_first", v, p, pol);
        else
            RT_PROBE_LD4_POLICY("", v, p, pol);
    }
    return v;
}
#undef RT_PROBE_LD4
#undef RT_PROBE_LD4_POLICY

// The f32 sum of float4s first, first + stride, ... below end, U loads in
// flight (all issued before any add), then one at a time.
template <int U, int HINT>
__device__ __forceinline__ float probe_read_run(const float4 *src, size_t first, size_t end,
                                                size_t stride) {
    float acc = 0.0f;
    size_t i = first;
    for (; i + (U - 1) * stride < end; i += U * stride) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = probe_load4<HINT>(src + i + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u)
            acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; i < end; i += stride) {
        float4 v = probe_load4<HINT>(src + i);
        acc += (v.x + v.y) + (v.z + v.w);
    }
    return acc;
}

// The block's sum of acc into out[blockIdx.x] (THREADS threads, whole
// warps): a partial a block, for the probes' reads and the ceiling.
template <int THREADS> __device__ __forceinline__ void probe_block_store(float acc, float *out) {
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    __shared__ float warp_sums[THREADS / 32];
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < THREADS / 32; ++w)
            total += warp_sums[w];
        out[blockIdx.x] = total;
    }
}

#endif // RT_BENCH_READ_LOOP_CUH
