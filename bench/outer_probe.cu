// outer_probe: how fast an outer reduction (a sum over rows, the columns
// kept) can read on this GPU, against a one-shot full sum of the same bytes
// (bench/NOTES.md, v1.14). Times f32 sums of [4096,32768] over dim 0 and of
// [32,256,64,256] over dims 0 and 2 with one-shot grids of column tiles by
// row chunks, in one process, and prints us per scheme.
//
//   outer_probe [--reps N] [--sweep] [--wide] [--d02 [--once]]
//
// A block is BX lanes x BY rows of threads; a lane reads 16 bytes (4
// columns) of a row, so a block tile is 4 BX columns wide. A block sums a
// chunk of rows (BY rows a step, U loads in flight: issued in batches, or
// as a ring whose every add is followed by the load refilling its slot),
// folds its BY rows in shared memory, and, when the rows are split in
// chunks, stores the tile's partial; the last block of a tile (an atomic
// count) folds the partials in chunk order. Grid order: column tiles
// fastest (x) or row chunks fastest (y).
//
// By default: Inductor's tiles (64 outputs a block, no split) and ours
// (128, 4 warp rows) under several load flavours, two passes; --sweep
// adds tile shapes x rows a chunk (128 .. all) x U. --wide instead (v1.40):
// bands of 1-4 KiB of every row (64-256 lanes a block row), the rows split
// in chunks so that about 256 blocks (a wave of 512-thread blocks on 132
// SMs) read at once, against the narrow tiles, three passes in rotating
// order. --d02 instead (v1.49): d02 alone, in Inductor's 16 x 8 tile as a
// ring and in batches (nc and Triton's evict-first loads) and the library's
// 32 x 16; --once launches each arm once, untimed (for Nsight Compute).
// Each result is checked against a one-thread-a-column reference.
namespace {
const char *const kProbeName = "outer_probe";
}
#include "probe.cuh"

namespace {

// Row r starts at (r / r2) * s0 + (r % r2) * s2 floats, r2 = 2^r2_log2 (a
// shift, not a division: the probe's index math stays off the critical
// path); column c at (c / c3) * s1 + c % c3 (once a thread).
struct Shape {
    const char *name;
    long rows, cols, r2_log2, s0, s2, c3, s1;
};

__device__ __forceinline__ long row_off(const Shape &s, long r) {
    return (r >> s.r2_log2) * s.s0 + (r & ((1L << s.r2_log2) - 1)) * s.s2;
}
__device__ __forceinline__ long col_off(const Shape &s, long c) {
    return (c / s.c3) * s.s1 + c % s.c3;
}

__device__ __forceinline__ void add4(float4 &a, float4 b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    a.w += b.w;
}

template <int BX, int BY, int U, bool ROWS_FAST, int HINT = NC, bool RING = false>
__global__ void __launch_bounds__(BX *BY)
    outer_kernel(const float *__restrict__ src, Shape s, int rows_per_chunk, float4 *staging,
                 unsigned *counts, float4 *out) {
    const int chunks = (int)((s.rows + rows_per_chunk - 1) / rows_per_chunk);
    const int tile = ROWS_FAST ? blockIdx.y : blockIdx.x;
    const int chunk = ROWS_FAST ? blockIdx.x : blockIdx.y;
    const int tx = threadIdx.x % BX, ty = threadIdx.x / BX;
    const long c4 = (long)tile * BX + tx;
    const float *base = src + col_off(s, 4 * c4);
    const long r1 = min((long)(chunk + 1) * rows_per_chunk, s.rows);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    long r = (long)chunk * rows_per_chunk + ty;
    if (RING && r + (U - 1) * BY < r1) {
        // U loads in flight at every step: each add is followed at once by
        // the load that refills its slot.
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = probe_load4<HINT>((const float4 *)(base + row_off(s, r + u * BY)));
        r += U * BY;
        for (; r + (U - 1) * BY < r1; r += U * BY) {
#pragma unroll
            for (int u = 0; u < U; ++u) {
                add4(acc, v[u]);
                v[u] = probe_load4<HINT>((const float4 *)(base + row_off(s, r + u * BY)));
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
            add4(acc, v[u]);
    }
    for (; r + (U - 1) * BY < r1; r += U * BY) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = probe_load4<HINT>((const float4 *)(base + row_off(s, r + u * BY)));
#pragma unroll
        for (int u = 0; u < U; ++u)
            add4(acc, v[u]);
    }
    for (; r < r1; r += BY)
        add4(acc, probe_load4<HINT>((const float4 *)(base + row_off(s, r))));

    __shared__ float4 rows_acc[BY][BX];
    __shared__ bool last;
    rows_acc[ty][tx] = acc;
    __syncthreads();
    if (ty == 0) {
        for (int y = 1; y < BY; ++y)
            add4(acc, rows_acc[y][tx]);
        if (chunks == 1)
            out[c4] = acc;
        else
            staging[(long)chunk * (s.cols / 4) + c4] = acc;
    }
    if (chunks == 1)
        return;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&counts[tile], 1u) == (unsigned)chunks - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    if (ty == 0) {
        float4 total = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int k = 0; k < chunks; ++k)
            add4(total, __ldcg(staging + (long)k * (s.cols / 4) + c4));
        out[c4] = total;
    }
    if (threadIdx.x == 0)
        counts[tile] = 0;
}

// One thread a column, rows in order: the reference.
__global__ void outer_reference(const float *src, Shape s, float *out) {
    long c = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= s.cols)
        return;
    double acc = 0.0;
    for (long r = 0; r < s.rows; ++r)
        acc += src[row_off(s, r) + col_off(s, c)];
    out[c] = (float)acc;
}

struct Ctx {
    const float *src;
    Shape s;
    float4 *staging;
    unsigned *counts;
    float4 *out;
    std::vector<float> ref;
    int reps;
    bool once;
};

template <int BX, int BY, int U, bool ROWS_FAST, int HINT = NC, bool RING = false>
void run(Ctx &c, int rows_per_chunk) {
    if (c.s.cols % (4 * BX) != 0 || (c.s.c3 % (4 * BX) != 0 && c.s.c3 < c.s.cols))
        return;
    int tiles = (int)(c.s.cols / (4 * BX));
    int chunks = (int)((c.s.rows + rows_per_chunk - 1) / rows_per_chunk);
    dim3 grid = ROWS_FAST ? dim3(chunks, tiles) : dim3(tiles, chunks);
    auto launch = [&](int) {
        outer_kernel<BX, BY, U, ROWS_FAST, HINT, RING>
            <<<grid, BX * BY>>>(c.src, c.s, rows_per_chunk, c.staging, c.counts, c.out);
    };
    PROBE_CHECK(cudaMemset(c.out, 0, c.s.cols * sizeof(float)));
    launch(0);
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(c.s.cols);
    PROBE_CHECK(cudaMemcpy(got.data(), c.out, c.s.cols * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (long i = 0; i < c.s.cols; ++i)
        worst = std::max(worst, (double)fabsf(got[i] - c.ref[i]) / fabsf(c.ref[i]));
    float us = c.once ? 0.0f : probe_median_us(c.reps, launch);
    static const char *const hints[] = {"nc",    "nc.256",      "ld",       "cs",
                                        "evict_first", "evict_last", "L1.ef", "L1.no_alloc",
                                        "triton_ef"};
    printf("%-18s %3dx%-3d U%d%s %-5s %-11s rows/chunk %5d  blocks %6d  %8.2f us  %7.1f GB/s  %s\n",
           c.s.name, BX, BY, U, RING ? "ring" : "    ", ROWS_FAST ? "rows" : "tiles", hints[HINT],
           rows_per_chunk, tiles * chunks, us, c.s.rows * c.s.cols * 4.0 / us * 1e-3,
           worst < 1e-4 ? "ok" : "WRONG");
}

template <int BX, int BY, int U> void sweep(Ctx &c) {
    for (int rpc : {128, 256, 512, 1024, 1 << 30}) {
        int r = (int)std::min<long>(rpc, c.s.rows);
        run<BX, BY, U, false>(c, r);
        if (rpc == 512)
            run<BX, BY, U, true>(c, r);
    }
}

} // namespace

int main(int argc, char **argv) {
    int reps = probe_reps(argc, argv);
    const bool sweep_all = probe_flag(argc, argv, "--sweep");
    const bool wide = probe_flag(argc, argv, "--wide");
    const bool d02 = probe_flag(argc, argv, "--d02");
    const bool once = probe_flag(argc, argv, "--once");
    probe_device();
    const size_t n = (size_t)1 << 27; // 512 MiB of f32
    float *src;
    PROBE_CHECK(cudaMalloc(&src, n * sizeof(float)));
    probe_fill<<<1024, 256>>>(src, n);
    float4 *staging, *out;
    unsigned *counts;
    PROBE_CHECK(cudaMalloc(&staging, 64 << 20));
    PROBE_CHECK(cudaMalloc(&out, n / 1024 * sizeof(float4)));
    PROBE_CHECK(cudaMalloc(&counts, 1 << 20));
    PROBE_CHECK(cudaMemset(counts, 0, 1 << 20));
    PROBE_CHECK(cudaDeviceSynchronize());

    float *partials = (float *)staging;
    const size_t n4 = n / 4;
    float full = 0.0f;
    if (once)
        probe_full_read((const float4 *)src, n4, partials);
    else
        full = probe_median_us(reps, [&](int) { probe_full_read((const float4 *)src, n4, partials); });
    printf("full one-shot 512x4: %.2f us, %.1f GB/s\n", full, n * 4.0 / full * 1e-3);

    const Shape shapes[] = {
        {"[4096,32768] d0", 4096, 32768, 12, 0, 32768, 32768, 0},
        {"[32,256,64,256] d02", 2048, 65536, 6, 256L * 64 * 256, 256, 256, 64L * 256},
    };
    for (const Shape &s : shapes) {
        if (d02 && s.r2_log2 != 6)
            continue;
        Ctx c{src, s, staging, counts, out, std::vector<float>(s.cols), reps, once};
        float *ref;
        PROBE_CHECK(cudaMalloc(&ref, s.cols * sizeof(float)));
        outer_reference<<<(unsigned)((s.cols + 255) / 256), 256>>>(src, s, ref);
        PROBE_CHECK(cudaMemcpy(c.ref.data(), ref, s.cols * sizeof(float), cudaMemcpyDeviceToHost));
        PROBE_CHECK(cudaFree(ref));
        const int all = (int)s.rows;
        if (d02) {
            for (int pass = 0; pass < (once ? 1 : 3); ++pass) {
                run<16, 8, 4, false, NC, true>(c, all);
                run<16, 8, 4, false, NC, false>(c, all);
                run<16, 8, 4, false, TRITON_EF, true>(c, all);
                run<32, 16, 4, false, NC, true>(c, all);
                run<32, 16, 4, false, NC, false>(c, all);
            }
            continue;
        }
        if (wide) {
            // Narrow tiles (the library's d0 32 x 16 and Inductor's 16 x
            // 32 / 16 x 8, no split) against wide bands; rows a chunk so
            // that tiles x chunks is about 256 blocks.
            auto per = [&](int bx) {
                const long tiles = s.cols / (4L * bx);
                const long chunks = std::max(1L, 256 / tiles);
                return (int)((s.rows + chunks - 1) / chunks);
            };
            for (int pass = 0; pass < 3; ++pass) {
                run<32, 16, 4, false, NC, true>(c, all);
                run<16, 32, 4, false, NC, true>(c, all);
                run<16, 8, 4, false, NC, true>(c, all);
                run<64, 8, 4, false, NC, true>(c, per(64));
                run<64, 8, 4, false, NC, true>(c, per(64) / 2);
                run<128, 4, 4, false, NC, true>(c, per(128));
                run<128, 4, 8, false, NC, true>(c, per(128));
                run<128, 4, 4, true, NC, true>(c, per(128));
                run<256, 2, 4, false, NC, true>(c, per(256));
                run<256, 2, 8, false, NC, true>(c, per(256));
                run<512, 1, 8, false, NC, true>(c, per(512));
            }
            float again = probe_median_us(reps, [&](int) {
                probe_full_read((const float4 *)src, n4, partials);
            });
            printf("full one-shot 512x4 again: %.2f us\n", again);
            continue;
        }
        if (sweep_all) {
            sweep<32, 4, 4>(c);
            sweep<16, 8, 4>(c);
            sweep<16, 32, 4>(c);
        }
        // Inductor's tiles (64 outputs, no split): d02 16 x 8, d0 16 x 32.
        for (int pass = 0; pass < 2; ++pass) {
            run<16, 8, 4, false, NC, true>(c, all);
            run<16, 8, 4, false, L1_EVICT_FIRST, true>(c, all);
            run<16, 8, 4, false, L1_NO_ALLOCATE, true>(c, all);
            run<16, 8, 4, false, TRITON_EF, true>(c, all);
            run<16, 8, 4, false, PLAIN, true>(c, all);
            run<16, 32, 4, false, NC, true>(c, all);
            run<16, 32, 4, false, TRITON_EF, true>(c, all);
            run<16, 32, 4, false, L1_NO_ALLOCATE, true>(c, all);
            run<32, 4, 4, false, NC, true>(c, all);
            run<32, 4, 4, false, TRITON_EF, true>(c, all);
        }
        float again = probe_median_us(reps, [&](int) {
            probe_full_read((const float4 *)src, n4, partials);
        });
        printf("full one-shot 512x4 again: %.2f us\n", again);
    }
    PROBE_CHECK(cudaFree(src));
    PROBE_CHECK(cudaFree(staging));
    PROBE_CHECK(cudaFree(out));
    PROBE_CHECK(cudaFree(counts));
    return 0;
}
