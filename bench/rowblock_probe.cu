// rowblock_probe: does a block that walks several rows, issuing the next
// row's loads before it folds the current one, read rows of 16 KiB faster
// than the ROWS block kernel's one row a block? (bench/NOTES.md v1.15: the
// [32768,4096] f32 row sums sit 0.2-0.4% behind torch.compile, the sliced
// [16384,8192][:, :4096] 1.5%.) f32 sums of n rows of 4096 floats, pitch
// 4096 (packed) or 8192 (sliced), 256 threads a row, 4 vectors a thread.
//
//   rowblock_probe [--reps N]
//
// Mappings:
//   row      a block a row (256 x 4: the library's block kernel): loads, fold,
//            shuffles, one exchange through shared memory, a store; also
//            512 x 2, 1024 x 1 and 128 x 8 threads x vectors, and load hints;
//   walk     K blocks a SM, each on rows b, b + grid, ...: the same work a
//            row, the next row's loads issued before the current row's
//            fold when PREFETCH, else after its store.
namespace {
const char *const kProbeName = "rowblock_probe";
}
#include "probe.cuh"

namespace {

constexpr int L = 4096, T = 256, C = 4; // the library's shape: C * T * 4 == L

template <int CC> __device__ __forceinline__ float fold4(const float4 (&v)[CC]) {
    float acc = 0.0f;
#pragma unroll
    for (int c = 0; c < CC; ++c)
        acc += (v[c].x + v[c].y) + (v[c].z + v[c].w);
    return acc;
}

// Thread t of TT loads vectors t, t + TT, ... (CC of them) of the row.
template <int TT, int CC, int HINT = NC>
__device__ __forceinline__ void load_row(const float *src, long row, long pitch,
                                         float4 (&v)[CC]) {
    const float4 *p = reinterpret_cast<const float4 *>(src + row * pitch) + threadIdx.x;
#pragma unroll
    for (int c = 0; c < CC; ++c)
        v[c] = probe_load4<HINT>(p + c * TT);
}

// The block's (TT threads) sum of acc into out[row]; buf (TT / 32 floats)
// is free again when this returns.
template <int TT>
__device__ __forceinline__ void block_sum(float acc, float *buf, float *out, long row) {
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (threadIdx.x % 32 == 0)
        buf[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        float s = threadIdx.x < TT / 32 ? buf[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off /= 2)
            s += __shfl_down_sync(0xffffffffu, s, off);
        if (threadIdx.x == 0)
            out[row] = s;
    }
}

// A block of TT threads a row, CC vectors a thread (TT * CC * 4 == L), the
// loads of flavour HINT (probe.cuh): the library's block kernel is 256 x 4.
template <int TT, int CC, int HINT>
__global__ void __launch_bounds__(TT) row_kernel_of(const float *src, long pitch, float *out) {
    static_assert(TT * CC * 4 == L, "a row a batch");
    __shared__ float buf[TT / 32];
    float4 v[CC];
    load_row<TT, CC, HINT>(src, blockIdx.x, pitch, v);
    block_sum<TT>(fold4(v), buf, out, blockIdx.x);
}

template <bool PREFETCH>
__global__ void __launch_bounds__(T) walk_kernel(const float *src, long pitch, long n, float *out) {
    __shared__ float buf[2][T / 32]; // by row parity: a row's exchange never waits on the last
    long row = blockIdx.x;
    if (row >= n)
        return;
    float4 v[C];
    load_row<T, C>(src, row, pitch, v);
    for (int parity = 0;; parity ^= 1) {
        const long next = row + gridDim.x;
        float acc;
        if (PREFETCH) {
            float4 w[C];
            if (next < n)
                load_row<T, C>(src, next, pitch, w);
            acc = fold4(v);
#pragma unroll
            for (int c = 0; c < C; ++c)
                v[c] = w[c];
        } else {
            acc = fold4(v);
        }
        block_sum<T>(acc, buf[parity], out, row);
        if (next >= n)
            return;
        if (!PREFETCH)
            load_row<T, C>(src, next, pitch, v);
        row = next;
    }
}

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const cudaDeviceProp prop = probe_device();
    const size_t bytes = (size_t)512 << 20; // two copies of 256 MiB of rows, rotated
    float *src, *out;
    PROBE_CHECK(cudaMalloc(&src, bytes));
    PROBE_CHECK(cudaMalloc(&out, 1 << 20));
    probe_fill<<<1024, 256>>>(src, bytes / 4);
    PROBE_CHECK(cudaDeviceSynchronize());
    const size_t half = bytes / 2 / 4; // floats in a copy

    const size_t n4 = half / 4;
    float full = probe_median_us(reps, [&](int k) {
        probe_full_read((const float4 *)(src + (k % 2) * half), n4, out);
    });
    printf("full one-shot read of 256 MiB: %.2f us\n", full);

    for (long pitch : {4096L, 8192L}) {
        const long n = (long)(half / pitch); // rows in a copy
        std::vector<float> host((size_t)n * pitch), got(n);
        PROBE_CHECK(cudaMemcpy(host.data(), src, host.size() * 4, cudaMemcpyDeviceToHost));
        auto check = [&](const char *what, float us) {
            PROBE_CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
            int bad = 0;
            for (long r = 0; r < n; r += 97) {
                double s = 0;
                for (int c = 0; c < L; ++c)
                    s += host[(size_t)r * pitch + c];
                bad += fabs(s - got[r]) > 1e-3 * fabs(s);
            }
            printf("[%ld,%d] pitch %-5ld %-26s %8.2f us  %7.1f GB/s  %s\n", n, L, pitch, what, us,
                   n * (double)L * 4 / us * 1e-3, bad ? "WRONG" : "ok");
        };
        for (int pass = 0; pass < 2; ++pass) {
            // k: the copy, rotated; the last call (k = reps + 2) reads copy 0 or 1.
            auto at = [&](int k) { return src + (k % 2) * half; };
            // The median over rotated copies, then one call on copy 0 to check.
            auto measure = [&](const char *what, auto launch) {
                const float us = probe_median_us(reps, [&](int k) { launch(at(k)); });
                launch(src);
                check(what, us);
            };
            auto shape = [&](auto kernel, int threads, const char *what) {
                measure(what, [&](const float *in) {
                    kernel<<<(unsigned)n, threads>>>(in, pitch, out);
                });
            };
            shape(row_kernel_of<T, C, NC>, T, "row 256 x 4 nc (library)");
            shape(row_kernel_of<512, 2, NC>, 512, "row 512 x 2 nc");
            shape(row_kernel_of<1024, 1, NC>, 1024, "row 1024 x 1 nc");
            shape(row_kernel_of<128, 8, NC>, 128, "row 128 x 8 nc");
            shape(row_kernel_of<256, 4, TRITON_EF>, 256, "row 256 x 4 evict-first");
            shape(row_kernel_of<512, 2, TRITON_EF>, 512, "row 512 x 2 evict-first");
            shape(row_kernel_of<256, 4, PLAIN>, 256, "row 256 x 4 ld");
            if (pass == 1)
                continue; // the walks once
            for (int k_per_sm : {4, 8, 16}) {
                const unsigned grid =
                    (unsigned)std::min<long>(n, (long)prop.multiProcessorCount * k_per_sm);
                char what[64];
                snprintf(what, sizeof what, "walk prefetch %d/SM", k_per_sm);
                measure(what, [&](const float *in) {
                    walk_kernel<true><<<grid, T>>>(in, pitch, n, out);
                });
                snprintf(what, sizeof what, "walk %d/SM", k_per_sm);
                measure(what, [&](const float *in) {
                    walk_kernel<false><<<grid, T>>>(in, pitch, n, out);
                });
            }
        }
    }
    PROBE_CHECK(cudaFree(src));
    PROBE_CHECK(cudaFree(out));
    return 0;
}
