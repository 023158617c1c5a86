// welford_probe: var of [4096,32768] f32 over dim 0 (the suite's var d0,
// 512 MiB, 32768 outputs) under two thread mappings, in one process,
// against a one-shot read of the same bytes (bench/NOTES.md v1.28, v1.29):
//
//   cols4 BXxBYxU  the library's outer shape: blocks of BX x BY threads,
//                a thread 4 adjacent columns (16-byte loads), BY row
//                lanes, U rows in flight a thread (all loads before any
//                update), the lanes' states merged through shared memory
//                (256 blocks of 32 x 16 x 2 is what TUNED runs for var d0,
//                512 of 16 x 32 x 4 for the sum of the same shape, 4
//                blocks a SM: "4/SM" bounds a kernel at 32 registers)
//   col1 U       Inductor's (torch 2.11: XBLOCK 64, R0_BLOCK 4, 8 warps):
//                blocks of 64 x 4 threads, a thread one column (4-byte
//                loads), 4 row lanes, U rows in flight (Triton unrolls 12)
//
// How a thread folds its U rows (the mode, first word of each line):
//   ieee / fast  one Welford state (count, mean, m2) a column, updated a
//                value at a time with one division (the IEEE one, or the
//                library's __fdividef)
//   batch        the U values of a column as one batch: their own mean
//                and m2 (two passes in registers), then one Chan merge
//                into the column's state (one __fdividef a batch)
//   sum          a plain sum (no variance): what the mapping's reads cost
//                without a Welford step, its line checked against sums
// The lanes' states merge in a fixed order. Each line: the median of an
// event pair a call (rt_bench's way) and the largest relative difference
// of its results from a double-precision CPU reference on 256 columns.
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

enum Mode { IEEE, FAST, BATCH, SUM };

// One value: a Welford step (FAST: delta / n by __fdividef, a reciprocal
// and a multiply, as the library's div_fast; else the IEEE division), or
// for SUM a plain add into mean.
template <Mode M> __device__ __forceinline__ void update(W &w, float x) {
    if (M == SUM) {
        w.mean += x;
        return;
    }
    w.n += 1.0f;
    const float d = x - w.mean;
    w.mean += M == FAST ? __fdividef(d, w.n) : d / w.n;
    w.m2 += d * (x - w.mean);
}

// U values of one column: a step each (ieee, fast, sum), or (batch) their
// own mean and m2 merged into w by Chan's formula, U / n by __fdividef.
template <Mode M, int U> __device__ __forceinline__ void fold(W &w, const float (&x)[U]) {
    if (M != BATCH) {
#pragma unroll
        for (int u = 0; u < U; u++)
            update<M>(w, x[u]);
        return;
    }
    float s = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++)
        s += x[u];
    const float mb = s * (1.0f / U);
    float m2b = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++) {
        const float d = x[u] - mb;
        m2b += d * d;
    }
    const float n = w.n + U, d = mb - w.mean, r = __fdividef((float)U, n);
    w.mean += d * r;
    w.m2 += m2b + d * d * w.n * r;
    w.n = n;
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
// the threads of lane 0, which store var = m2 / (n - 1) (SUM: the sum).
template <Mode M, int BX, int BY, int C>
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
            for (int k = 1; k < BY; k++) {
                if (M == SUM)
                    acc.mean += slots[((k - 1) * BX + x) * C + c].mean;
                else
                    acc = merge(acc, slots[((k - 1) * BX + x) * C + c]);
            }
            out[col0 + c] = M == SUM ? acc.mean : acc.m2 / (acc.n - 1.0f);
        }
    }
}

template <int BX, int BY, int U, Mode M, int MINB = 1>
__global__ void __launch_bounds__(BX * BY, MINB) cols4(const float *in, float *out) {
    __shared__ W slots[(BY - 1) * BX * 4];
    const int col0 = (blockIdx.x * BX + threadIdx.x) * 4;
    W w[4] = {};
    const float4 *p = reinterpret_cast<const float4 *>(in + col0) + (size_t)threadIdx.y * (kCols / 4);
    const size_t step = (size_t)BY * (kCols / 4);
    static_assert(kRows % (BY * U) == 0, "whole batches");
    for (int r = threadIdx.y; r < kRows; r += BY * U, p += U * step) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = __ldcs(p + u * step);
        float x[4][U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            x[0][u] = v[u].x;
            x[1][u] = v[u].y;
            x[2][u] = v[u].z;
            x[3][u] = v[u].w;
        }
        if (M == BATCH) {
#pragma unroll
            for (int c = 0; c < 4; c++)
                fold<M, U>(w[c], x[c]);
        } else {
            // Row by row across the 4 columns, as the library's lockstep.
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int c = 0; c < 4; c++)
                    update<M>(w[c], x[c][u]);
        }
    }
    merge_lanes<M, BX, BY, 4>(w, slots, out, col0);
}

template <int U, Mode M>
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
        fold<M, U>(w[0], v);
    }
    // 4096 rows are not whole batches of 12 or 24: the rest a value at a
    // time (a batch of one).
    for (; r < kRows; r += 4, p += step) {
        const float v1[1] = {__ldcs(p)};
        fold<M == BATCH ? FAST : M, 1>(w[0], v1);
    }
    merge_lanes<M, 64, 4, 1>(w, slots, out, col);
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
    std::vector<double> want, want_sum;
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
        want_sum.push_back(s);
    }

    const float read_us = probe_median_us(reps, [&](int k) {
        probe_full_read(reinterpret_cast<const float4 *>(in + (size_t)(k % copies) * (bytes / 4)),
                        bytes / 16, part);
    });
    printf("one-shot read of the same 512 MiB: %.2f us\n", read_us);
    const dim3 g4x32(kCols / 128), b4x32(32, 16), g4x16(kCols / 64), b4x16(16, 32);
    const dim3 g1(kCols / 64), b1(64, 4);
    const Variant variants[] = {
        {"sum cols4 16x32x4 (sum's)", cols4<16, 32, 4, SUM>, g4x16, b4x16},
        {"sum cols4 16x32x4 4/SM", cols4<16, 32, 4, SUM, 4>, g4x16, b4x16},
        {"sum cols4 32x16x2", cols4<32, 16, 2, SUM>, g4x32, b4x32},
        {"sum cols4 32x16x4", cols4<32, 16, 4, SUM>, g4x32, b4x32},
        {"sum col1 U12", col1<12, SUM>, g1, b1},
        {"sum col1 U16", col1<16, SUM>, g1, b1},
        {"fast cols4 32x16x2 (TUNED's)", cols4<32, 16, 2, FAST>, g4x32, b4x32},
        {"fast cols4 32x16x4", cols4<32, 16, 4, FAST>, g4x32, b4x32},
        {"fast cols4 16x32x4", cols4<16, 32, 4, FAST>, g4x16, b4x16},
        {"fast col1 U12", col1<12, FAST>, g1, b1},
        {"fast col1 U16", col1<16, FAST>, g1, b1},
        {"batch cols4 32x16x2", cols4<32, 16, 2, BATCH>, g4x32, b4x32},
        {"batch cols4 32x16x4", cols4<32, 16, 4, BATCH>, g4x32, b4x32},
        {"batch cols4 16x32x4", cols4<16, 32, 4, BATCH>, g4x16, b4x16},
        {"batch cols4 16x32x4 4/SM", cols4<16, 32, 4, BATCH, 4>, g4x16, b4x16},
        {"batch cols4 16x32x8", cols4<16, 32, 8, BATCH>, g4x16, b4x16},
        {"batch col1 U8", col1<8, BATCH>, g1, b1},
        {"batch col1 U12", col1<12, BATCH>, g1, b1},
        {"batch col1 U16", col1<16, BATCH>, g1, b1},
        {"ieee col1 U16", col1<16, IEEE>, g1, b1},
    };
    printf("%-30s %10s %8s %12s\n", "variant", "us", "%read", "max rel err");
    for (const Variant &v : variants) {
        const float us = probe_median_us(reps, [&](int k) {
            v.kernel<<<v.grid, v.block>>>(in + (size_t)(k % copies) * (bytes / 4), out);
        });
        PROBE_CHECK(cudaGetLastError());
        v.kernel<<<v.grid, v.block>>>(in, out);
        std::vector<float> got(kCols);
        PROBE_CHECK(cudaMemcpy(got.data(), out, (size_t)kCols * 4, cudaMemcpyDeviceToHost));
        double err = 0;
        const bool is_sum = strncmp(v.name, "sum", 3) == 0;
        for (size_t i = 0; i < cols.size(); i++) {
            const double w = is_sum ? want_sum[i] : want[i];
            err = std::max(err, std::fabs(got[cols[i]] - w) / std::fabs(w));
        }
        printf("%-30s %10.2f %8.1f %12.2e %s\n", v.name, us, 100.0 * read_us / us, err,
               err < 1e-3 ? "ok" : "BAD");
        fflush(stdout);
    }
    PROBE_CHECK(cudaFree(in));
    PROBE_CHECK(cudaFree(out));
    PROBE_CHECK(cudaFree(part));
    return 0;
}
