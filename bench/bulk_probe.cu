// bulk_probe: can Hopper's bulk copy engine (cp.async.bulk, global to
// shared memory, completing on an mbarrier) read a reduction's input faster
// than the library's 16-byte loads? Times, in one process, a row sum of
// [32768,4096] f32 (512 MiB) and a full sum of the same 512 MiB:
//
//   rows ldg T x U     a block a row, T threads of U 16-byte ld.global.cs
//                      loads (512 x 2 is the library's ROWS block kernel)
//   rows bulk T /N     a block a row: one thread arms an mbarrier with the
//                      row's 16 KiB and issues N bulk copies of 16/N KiB
//                      into shared memory; every thread waits on the
//                      barrier, sums its 16-byte words, block reduce, store
//   rows ring T S B    a persistent grid of B blocks a SM, each walking rows
//                      G apart with S rows of shared memory in flight (a
//                      ring of S buffers, one mbarrier each)
//   full ldg           the one-shot read of probe.cuh (512 x 4 float4 a
//                      block, a partial a block)
//   full bulk T K      a block a chunk of K KiB by one bulk copy, a partial
//                      a block (the rows' kernel, chunk_bulk, on chunks of
//                      K KiB instead of rows)
//   +ef                the bulk copies with an L2 evict-first cache policy
//
// Each line: the median of an event pair a call (rt_bench's and
// compare_torch's way) and the mean of one pair around 100 calls back to
// back, and the largest relative difference of its outputs from the
// first line's (rows) or of its total from the first full line's (full).
//
//   bulk_probe [--reps N]
namespace {
const char *const kProbeName = "bulk_probe";
}
#include "probe.cuh"

#include <cmath>
#include <cstdint>

namespace {

constexpr int kRows = 32768, kCols = 4096;
constexpr unsigned kRowBytes = kCols * 4;

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

// Makes the barriers' initialisation visible to the copy engine.
__device__ __forceinline__ void mbar_fence_init() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ bool mbar_try_wait(uint64_t *bar, unsigned parity) {
    uint32_t done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smem_addr(bar)), "r"(parity)
                 : "memory");
    return done != 0;
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity) {
    while (!mbar_try_wait(bar, parity)) {
    }
}

template <bool EF>
__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes,
                                          uint64_t *bar) {
    if (EF) {
        uint64_t pol;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                     ".L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(smem_addr(dst)),
                     "l"(src), "r"(bytes), "r"(smem_addr(bar)), "l"(pol)
                     : "memory");
    } else {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
                     "l"(src), "r"(bytes), "r"(smem_addr(bar))
                     : "memory");
    }
}

// The sum of every thread's v, in thread 0 (blocks of whole warps).
template <int T> __device__ __forceinline__ float block_sum(float v, float *slots) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (T == 32)
        return v;
    if ((threadIdx.x & 31) == 0)
        slots[threadIdx.x >> 5] = v;
    __syncthreads();
    float s = 0.0f;
    if (threadIdx.x == 0)
#pragma unroll
        for (int w = 0; w < T / 32; ++w)
            s += slots[w];
    return s;
}

template <int T, int U>
__global__ void __launch_bounds__(T) rows_ldg(const float *in, float *out) {
    __shared__ float slots[T / 32];
    const float4 *row = reinterpret_cast<const float4 *>(in) + (size_t)blockIdx.x * (kCols / 4);
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
        v[u] = __ldcs(row + threadIdx.x + u * T);
    float acc = 0.0f;
#pragma unroll
    for (int u = 0; u < U; ++u)
        acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    acc = block_sum<T>(acc, slots);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

// The f32 sum of the n 16-byte words at buf, thread t taking t, t + T, ...
template <int T>
__device__ __forceinline__ float smem_sum(const float4 *buf, int n) {
    float acc = 0.0f;
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += T) {
        float4 v = buf[i];
        acc += (v.x + v.y) + (v.z + v.w);
    }
    return acc;
}

// Thread 0 initialises n mbarriers of one arrival each and makes them
// visible to the copy engine; the block waits for it.
__device__ __forceinline__ void init_barriers(uint64_t *bar, int n) {
    if (threadIdx.x == 0) {
        for (int i = 0; i < n; ++i)
            mbar_init(&bar[i], 1);
        mbar_fence_init();
    }
    __syncthreads();
}

// Thread 0's part: arm bar with `bytes` and ask the copy engine for them,
// src to dst, in N equal copies.
template <int N, bool EF>
__device__ __forceinline__ void fetch(void *dst, const char *src, unsigned bytes, uint64_t *bar) {
    mbar_expect_tx(bar, bytes);
#pragma unroll
    for (int c = 0; c < N; ++c)
        bulk_copy<EF>(reinterpret_cast<char *>(dst) + c * (bytes / N), src + c * (bytes / N),
                      bytes / N, bar);
}

// A block a chunk of B bytes (a row of 16 KiB, or a piece of the full
// sum), read by bulk copy in N pieces, its sum into out[blockIdx.x].
template <int T, unsigned B, int N, bool EF>
__global__ void __launch_bounds__(T) chunk_bulk(const float *in, float *out) {
    extern __shared__ __align__(128) float4 buf[];
    __shared__ __align__(8) uint64_t bar;
    __shared__ float slots[T / 32];
    init_barriers(&bar, 1);
    if (threadIdx.x == 0)
        fetch<N, EF>(buf, reinterpret_cast<const char *>(in) + (size_t)blockIdx.x * B, B, &bar);
    mbar_wait(&bar, 0);
    float acc = block_sum<T>(smem_sum<T>(buf, B / 16), slots);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

template <int T, int S, bool EF>
__global__ void __launch_bounds__(T) rows_ring(const float *in, float *out) {
    extern __shared__ __align__(128) float4 buf[];
    __shared__ __align__(8) uint64_t bar[S];
    __shared__ float slots[T / 32];
    const char *base = reinterpret_cast<const char *>(in);
    const int G = gridDim.x;
    init_barriers(bar, S);
    if (threadIdx.x == 0)
        for (int s = 0; s < S; ++s) {
            int r = blockIdx.x + s * G;
            if (r < kRows)
                fetch<1, EF>(buf + s * (kRowBytes / 16), base + (size_t)r * kRowBytes, kRowBytes,
                             &bar[s]);
        }
    int k = 0;
    for (int r = blockIdx.x; r < kRows; r += G, ++k) {
        const int s = k % S;
        mbar_wait(&bar[s], (unsigned)(k / S) & 1u);
        float acc = block_sum<T>(smem_sum<T>(buf + s * (kRowBytes / 16), kRowBytes / 16), slots);
        if (threadIdx.x == 0)
            out[r] = acc;
        __syncthreads(); // every thread is done with buffer s and with slots
        const int nr = r + S * G;
        if (threadIdx.x == 0 && nr < kRows)
            fetch<1, EF>(buf + s * (kRowBytes / 16), base + (size_t)nr * kRowBytes, kRowBytes,
                         &bar[s]);
    }
}

struct Line {
    const char *name;
    bool rows;     // a row sum (else a full sum's partials)
    unsigned grid; // 0: a block a row or chunk
    int threads;
    size_t smem;   // also a full sum's chunk of bytes a block
    void (*kernel)(const float *, float *); // null: probe.cuh's one-shot read
};

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const cudaDeviceProp prop = probe_device();
    const int sms = prop.multiProcessorCount;
    const size_t bytes = (size_t)kRows * kRowBytes;
    const int copies = 2;
    char *pool = nullptr;
    PROBE_CHECK(cudaMalloc(&pool, copies * bytes));
    probe_fill<<<4096, 256>>>((float *)pool, copies * bytes / 4);
    float *out = nullptr;
    PROBE_CHECK(cudaMalloc(&out, (size_t)kRows * 4 * 2));

    auto set_smem = [](const void *k, size_t smem) {
        PROBE_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)smem));
    };
    constexpr unsigned R = kRowBytes;
    std::vector<Line> lines = {
        {"rows ldg 512x2 (library)", true, 0, 512, 0, rows_ldg<512, 2>},
        {"rows ldg 256x4", true, 0, 256, 0, rows_ldg<256, 4>},
        {"rows bulk 256 /1", true, 0, 256, R, chunk_bulk<256, R, 1, false>},
        {"rows bulk 128 /1", true, 0, 128, R, chunk_bulk<128, R, 1, false>},
        {"rows bulk 256 /4", true, 0, 256, R, chunk_bulk<256, R, 4, false>},
        {"rows bulk 256 /1 +ef", true, 0, 256, R, chunk_bulk<256, R, 1, true>},
        {"rows bulk 512 /1", true, 0, 512, R, chunk_bulk<512, R, 1, false>},
        {"rows ring 256 S4 B2", true, (unsigned)(2 * sms), 256, 4 * R, rows_ring<256, 4, false>},
        {"rows ring 256 S3 B4", true, (unsigned)(4 * sms), 256, 3 * R, rows_ring<256, 3, false>},
        {"rows ring 512 S6 B2", true, (unsigned)(2 * sms), 512, 6 * R, rows_ring<512, 6, false>},
        {"rows ring 256 S4 B2 +ef", true, (unsigned)(2 * sms), 256, 4 * R, rows_ring<256, 4, true>},
        {"rows ring 128 S2 B6", true, (unsigned)(6 * sms), 128, 2 * R, rows_ring<128, 2, false>},
        {"full ldg 512x4 (probe.cuh)", false, 0, 512, 0, nullptr},
        {"full bulk 256 32K", false, 0, 256, 32768, chunk_bulk<256, 32768, 1, false>},
        {"full bulk 256 16K", false, 0, 256, 16384, chunk_bulk<256, 16384, 1, false>},
        {"full bulk 512 64K", false, 0, 512, 65536, chunk_bulk<512, 65536, 1, false>},
        {"full bulk 256 32K +ef", false, 0, 256, 32768, chunk_bulk<256, 32768, 1, true>},
    };
    for (const Line &l : lines) {
        if (l.smem > 0)
            set_smem((const void *)l.kernel, l.smem);
    }
    std::vector<float> host(kRows), want(kRows);
    double full_want = 0.0;
    bool have_rows = false, have_full = false;
    printf("%-28s %10s %10s %12s\n", "variant", "each us", "loop us", "max rel diff");
    for (const Line &l : lines) {
        const bool is_rows = l.rows;
        // A full sum's grid: a block a chunk (probe.cuh's: 512 x 4 float4).
        const unsigned parts =
            is_rows ? 0 : (unsigned)(bytes / (l.kernel ? l.smem : (size_t)512 * 4 * 16));
        const unsigned grid = l.grid ? l.grid : is_rows ? (unsigned)kRows : parts;
        auto launch = [&](int k) {
            const char *src = pool + (size_t)(k % copies) * bytes;
            if (l.kernel)
                l.kernel<<<grid, l.threads, l.smem>>>((const float *)src, out);
            else
                probe_full_read((const float4 *)src, bytes / 16, out);
        };
        float each = probe_median_us(reps, launch);
        cudaEvent_t a, b;
        PROBE_CHECK(cudaEventCreate(&a));
        PROBE_CHECK(cudaEventCreate(&b));
        PROBE_CHECK(cudaEventRecord(a));
        for (int k = 0; k < 100; ++k)
            launch(k);
        PROBE_CHECK(cudaEventRecord(b));
        PROBE_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
        PROBE_CHECK(cudaEventDestroy(a));
        PROBE_CHECK(cudaEventDestroy(b));
        PROBE_CHECK(cudaGetLastError());
        // Check: copy 0 through this variant against the first of its kind.
        launch(0);
        PROBE_CHECK(cudaDeviceSynchronize());
        double diff = 0.0;
        if (is_rows) {
            PROBE_CHECK(cudaMemcpy(host.data(), out, kRows * 4, cudaMemcpyDeviceToHost));
            if (!have_rows) {
                want = host;
                have_rows = true;
            }
            for (int r = 0; r < kRows; ++r)
                diff = std::max(diff, (double)fabsf(host[r] - want[r]) / fabsf(want[r]));
        } else {
            std::vector<float> p(parts);
            PROBE_CHECK(cudaMemcpy(p.data(), out, parts * 4, cudaMemcpyDeviceToHost));
            double s = 0.0;
            for (float x : p)
                s += x;
            if (!have_full) {
                full_want = s;
                have_full = true;
            }
            diff = fabs(s - full_want) / full_want;
        }
        printf("%-28s %10.2f %10.2f %12.2e %s\n", l.name, each, ms * 10.0f, diff,
               diff < 1e-5 ? "ok" : "MISMATCH");
        fflush(stdout);
    }
    PROBE_CHECK(cudaFree(pool));
    PROBE_CHECK(cudaFree(out));
    return 0;
}
