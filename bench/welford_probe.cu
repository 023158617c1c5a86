// welford_probe: var of [4096,32768] f32 over dim 0 (the suite's var d0,
// 512 MiB, 32768 outputs) under two thread mappings, in one process,
// against a one-shot read of the same bytes (bench/NOTES.md v1.28):
//
//   cols4 BYxU   the library's outer shape: blocks of 32 x BY threads, a
//                thread 4 adjacent columns (16-byte loads), BY row lanes,
//                U rows in flight a thread (all loads before any update),
//                the lanes' states merged through shared memory (256
//                blocks of 32 x 16 is what TUNED runs)
//   col1 U       Inductor's (torch 2.11: XBLOCK 64, R0_BLOCK 4, 8 warps):
//                blocks of 64 x 4 threads, a thread one column (4-byte
//                loads), 4 row lanes, U rows in flight (Triton unrolls 12)
//
// Every variant keeps one Welford state (count, mean, m2) a column a
// thread, updated a value at a time with one division (the IEEE one, or
// with "fast" the library's __fdividef), and merges the
// lanes' states in a fixed order. Each line: the median of an event pair
// a call (rt_bench's way) and the largest relative difference of its
// variances from a double-precision CPU reference on 256 columns.
//
//   welford_probe [--reps N]
namespace {
const char *const kProbeName = "welford_probe";
}
#include "probe.cuh"

#include <cmath>

namespace {

constexpr int kRows = 4096, kCols = 32768;

struct W {
    float n, mean, m2;
};

// FAST: delta / n by __fdividef (a reciprocal and a multiply), as the
// library's div_fast; else the IEEE division.
template <bool FAST> __device__ __forceinline__ void update(W &w, float x) {
    w.n += 1.0f;
    const float d = x - w.mean;
    w.mean += FAST ? __fdividef(d, w.n) : d / w.n;
    w.m2 += d * (x - w.mean);
}

__device__ __forceinline__ W merge(W a, W b) {
    if (b.n == 0.0f)
        return a;
    if (a.n == 0.0f)
        return b;
    const float n = a.n + b.n, d = b.mean - a.mean, f = b.n / n;
    return W{n, a.mean + d * f, a.m2 + b.m2 + d * d * a.n * f};
}

// Lane y's states of every column of the block, merged in lane order by
// the threads of lane 0, which store var = m2 / (n - 1).
template <int BX, int BY, int C>
__device__ __forceinline__ void merge_lanes(W (&w)[C], W *slots, float *out, int col0) {
    const int x = threadIdx.x, y = threadIdx.y;
    if (y > 0)
#pragma unroll
        for (int c = 0; c < C; c++)
            slots[((y - 1) * BX + x) * C + c] = w[c];
    __syncthreads();
    if (y == 0) {
#pragma unroll
        for (int c = 0; c < C; c++) {
            W acc = w[c];
            for (int k = 1; k < BY; k++)
                acc = merge(acc, slots[((k - 1) * BX + x) * C + c]);
            out[col0 + c] = acc.m2 / (acc.n - 1.0f);
        }
    }
}

template <int BY, int U, bool FAST>
__global__ void __launch_bounds__(32 * BY) cols4(const float *in, float *out) {
    __shared__ W slots[(BY - 1) * 32 * 4];
    const int col0 = (blockIdx.x * 32 + threadIdx.x) * 4;
    W w[4] = {};
    const float4 *p = reinterpret_cast<const float4 *>(in + col0) + (size_t)threadIdx.y * (kCols / 4);
    const size_t step = (size_t)BY * (kCols / 4);
    static_assert(kRows % (BY * U) == 0, "whole batches");
    for (int r = threadIdx.y; r < kRows; r += BY * U, p += U * step) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = __ldcs(p + u * step);
#pragma unroll
        for (int u = 0; u < U; u++) {
            update<FAST>(w[0], v[u].x);
            update<FAST>(w[1], v[u].y);
            update<FAST>(w[2], v[u].z);
            update<FAST>(w[3], v[u].w);
        }
    }
    merge_lanes<32, BY, 4>(w, slots, out, col0);
}

template <int U, bool FAST>
__global__ void __launch_bounds__(256) col1(const float *in, float *out) {
    __shared__ W slots[3 * 64];
    const int col = blockIdx.x * 64 + threadIdx.x;
    W w[1] = {};
    const float *p = in + col + (size_t)threadIdx.y * kCols;
    const size_t step = (size_t)4 * kCols;
    int r = threadIdx.y;
    for (; r + 4 * (U - 1) < kRows; r += 4 * U, p += U * step) {
        float v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = __ldcs(p + u * step);
#pragma unroll
        for (int u = 0; u < U; u++)
            update<FAST>(w[0], v[u]);
    }
    for (; r < kRows; r += 4, p += step) // 4096 rows are not whole batches of 12
        update<FAST>(w[0], __ldcs(p));
    merge_lanes<64, 4, 1>(w, slots, out, col);
}

struct Variant {
    const char *name;
    void (*kernel)(const float *, float *);
    dim3 grid, block;
};

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    probe_device();
    const size_t bytes = (size_t)kRows * kCols * 4;
    const int copies = 2;
    float *in = nullptr, *out = nullptr, *part = nullptr;
    PROBE_CHECK(cudaMalloc(&in, bytes * copies));
    PROBE_CHECK(cudaMalloc(&out, (size_t)kCols * 4));
    PROBE_CHECK(cudaMalloc(&part, bytes / 2048 * 4));
    probe_fill<<<4096, 256>>>(in, bytes * copies / 4);
    PROBE_CHECK(cudaDeviceSynchronize());

    // The reference: 256 columns of copy 0 in double precision.
    std::vector<float> host((size_t)kRows * kCols);
    PROBE_CHECK(cudaMemcpy(host.data(), in, bytes, cudaMemcpyDeviceToHost));
    std::vector<int> cols;
    std::vector<double> want;
    for (int c = 0; c < kCols; c += kCols / 256 + 1) {
        double s = 0, s2 = 0;
        for (int r = 0; r < kRows; r++)
            s += host[(size_t)r * kCols + c];
        const double m = s / kRows;
        for (int r = 0; r < kRows; r++) {
            const double d = host[(size_t)r * kCols + c] - m;
            s2 += d * d;
        }
        cols.push_back(c);
        want.push_back(s2 / (kRows - 1));
    }

    const float read_us = probe_median_us(reps, [&](int k) {
        probe_full_read(reinterpret_cast<const float4 *>(in + (size_t)(k % copies) * (bytes / 4)),
                        bytes / 16, part);
    });
    printf("one-shot read of the same 512 MiB: %.2f us\n", read_us);
    const Variant variants[] = {
        {"cols4 16x2 (TUNED's)", cols4<16, 2, false>, dim3(kCols / 128), dim3(32, 16)},
        {"cols4 16x4", cols4<16, 4, false>, dim3(kCols / 128), dim3(32, 16)},
        {"cols4 8x4", cols4<8, 4, false>, dim3(kCols / 128), dim3(32, 8)},
        {"cols4 8x2", cols4<8, 2, false>, dim3(kCols / 128), dim3(32, 8)},
        {"cols4 4x4", cols4<4, 4, false>, dim3(kCols / 128), dim3(32, 4)},
        {"col1 U12 (Inductor's)", col1<12, false>, dim3(kCols / 64), dim3(64, 4)},
        {"col1 U8", col1<8, false>, dim3(kCols / 64), dim3(64, 4)},
        {"col1 U16", col1<16, false>, dim3(kCols / 64), dim3(64, 4)},
        {"col1 U4", col1<4, false>, dim3(kCols / 64), dim3(64, 4)},
        {"fast cols4 16x2", cols4<16, 2, true>, dim3(kCols / 128), dim3(32, 16)},
        {"fast cols4 16x4", cols4<16, 4, true>, dim3(kCols / 128), dim3(32, 16)},
        {"fast col1 U12", col1<12, true>, dim3(kCols / 64), dim3(64, 4)},
        {"fast col1 U16", col1<16, true>, dim3(kCols / 64), dim3(64, 4)},
        {"fast col1 U24", col1<24, true>, dim3(kCols / 64), dim3(64, 4)},
    };
    printf("%-24s %10s %8s %12s\n", "variant", "us", "%read", "max rel err");
    for (const Variant &v : variants) {
        const float us = probe_median_us(reps, [&](int k) {
            v.kernel<<<v.grid, v.block>>>(in + (size_t)(k % copies) * (bytes / 4), out);
        });
        PROBE_CHECK(cudaGetLastError());
        v.kernel<<<v.grid, v.block>>>(in, out);
        std::vector<float> got(kCols);
        PROBE_CHECK(cudaMemcpy(got.data(), out, (size_t)kCols * 4, cudaMemcpyDeviceToHost));
        double err = 0;
        for (size_t i = 0; i < cols.size(); i++)
            err = std::max(err, std::fabs(got[cols[i]] - want[i]) / want[i]);
        printf("%-24s %10.2f %8.1f %12.2e %s\n", v.name, us, 100.0 * read_us / us, err,
               err < 1e-3 ? "ok" : "BAD");
        fflush(stdout);
    }
    PROBE_CHECK(cudaFree(in));
    PROBE_CHECK(cudaFree(out));
    PROBE_CHECK(cudaFree(part));
    return 0;
}
