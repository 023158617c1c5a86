// ndim_probe: how fast the suite's d024 case (an f32 sum of
// [32,32,16,32,128] over dims 0, 2 and 4: 1024 outputs of 65536 inputs,
// each a set of 512 rows of 512 bytes) can read on this GPU, against a
// one-shot full sum of the same 256 MiB (bench/NOTES.md, v1.15).
//
//   ndim_probe [--reps N] [--window]
//
// Three mappings:
//   output  a block an output (TUNED's general kernel today: 512 threads,
//           32 lanes of 16 bytes on a row, T/32 rows a step, U loads in
//           flight; Inductor's kernel is this one with 512 threads and
//           evict-first loads), the block's fold in shared memory;
//   slab    a block on the 32 outputs that share dim 1 and a chunk of P of
//           the 512 (dim 0, dim 2) pairs: each pair is a contiguous slab of
//           [32,128] floats (16 KiB, dims 3 and 4), read whole by the block
//           (T threads, 16 KiB / T / 16 float4 a thread a slab, S slabs in
//           flight), so a thread keeps one sum per output it touches; a
//           warp's lanes fold each output, and with several chunks the
//           block stores its 32 partials and the last block of the 32
//           folds them in chunk order.
//   roll    the output mapping with a rolling window of U loads (v1.21,
//           d024.cuh's roll_sum): U loads stay in flight to the end
//           instead of draining to none between batches.
// Each result is checked against a one-thread-an-output reference.
namespace {
const char *const kProbeName = "ndim_probe";
}
#include "probe.cuh"
#include "d024.cuh"

namespace {

using namespace d024;

template <int T, int U, int HINT, int MINB = 1>
__global__ void __launch_bounds__(T, MINB)
    output_kernel(const float *__restrict__ src, float *out) {
    constexpr int ROWS = T / 32;
    const int o = blockIdx.x, lane = threadIdx.x % 32, row = threadIdx.x / 32;
    const float4 *base =
        reinterpret_cast<const float4 *>(src + (long)(o / K2) * S1 + (long)(o % K2) * S3) + lane;
    float acc = 0.0f;
    for (int p = row; p < PAIRS; p += ROWS * U) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = probe_load4<HINT>(base + pair_off(p + u * ROWS) / 4);
#pragma unroll
        for (int u = 0; u < U; ++u)
            acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    probe_block_store<T>(acc, out);
}

template <int T, int U, int HINT, int MINB = 1>
__global__ void __launch_bounds__(T, MINB)
    roll_kernel(const float *__restrict__ src, float *out) {
    probe_block_store<T>(roll_sum<T, U, HINT>(src, blockIdx.x), out);
}

template <int T, int P, int S, bool CHUNKS_FAST, int HINT>
__global__ void __launch_bounds__(T)
    slab_kernel(const float *__restrict__ src, float *staging, unsigned *counts, float *out) {
    constexpr int F = K2 * C / 4 / T; // float4s a thread a slab
    constexpr int CHUNKS = PAIRS / P;
    static_assert(F >= 1 && PAIRS % P == 0 && P % S == 0, "shape");
    const int k1 = CHUNKS_FAST ? blockIdx.y : blockIdx.x;
    const int chunk = CHUNKS_FAST ? blockIdx.x : blockIdx.y;
    const float4 *base = reinterpret_cast<const float4 *>(src + (long)k1 * S1) + threadIdx.x;
    float acc[F];
#pragma unroll
    for (int f = 0; f < F; ++f)
        acc[f] = 0.0f;
    for (int p = chunk * P; p < (chunk + 1) * P; p += S) {
        float4 v[S][F];
#pragma unroll
        for (int s = 0; s < S; ++s)
#pragma unroll
            for (int f = 0; f < F; ++f)
                v[s][f] = probe_load4<HINT>(base + pair_off(p + s) / 4 + f * T);
#pragma unroll
        for (int s = 0; s < S; ++s)
#pragma unroll
            for (int f = 0; f < F; ++f)
                acc[f] += (v[s][f].x + v[s][f].y) + (v[s][f].z + v[s][f].w);
    }
    // Float4 f of the thread is output k2 = (threadIdx.x + f T) / 32: a
    // warp's lanes share it.
#pragma unroll
    for (int f = 0; f < F; ++f)
        for (int off = 16; off > 0; off /= 2)
            acc[f] += __shfl_xor_sync(0xffffffffu, acc[f], off);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (CHUNKS == 1) {
        if (lane == 0)
#pragma unroll
            for (int f = 0; f < F; ++f)
                out[k1 * K2 + warp + f * (T / 32)] = acc[f];
        return;
    }
    if (lane == 0)
#pragma unroll
        for (int f = 0; f < F; ++f)
            staging[(long)chunk * OUTPUTS + k1 * K2 + warp + f * (T / 32)] = acc[f];
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&counts[k1], 1u) == (unsigned)CHUNKS - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    if (threadIdx.x < K2) {
        float total = 0.0f;
        for (int k = 0; k < CHUNKS; ++k)
            total += __ldcg(staging + (long)k * OUTPUTS + k1 * K2 + threadIdx.x);
        out[k1 * K2 + threadIdx.x] = total;
    }
    if (threadIdx.x == 0)
        counts[k1] = 0;
}

__global__ void reference(const float *src, float *out) {
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= OUTPUTS)
        return;
    const float *base = src + (long)(o / K2) * S1 + (long)(o % K2) * S3;
    double acc = 0.0;
    for (int p = 0; p < PAIRS; ++p)
        for (int c = 0; c < C; ++c)
            acc += base[pair_off(p) + c];
    out[o] = (float)acc;
}

struct Ctx {
    const float *src;
    float *staging, *out;
    unsigned *counts;
    std::vector<float> ref;
    int reps;
};

const char *hint_name(int h) {
    static const char *const names[] = {"nc", "nc.256", "ld", "cs", "evict_first", "evict_last",
                                        "L1.ef", "L1.no_alloc", "triton_ef"};
    return names[h];
}

template <typename Launch> void report(Ctx &c, const char *what, int blocks, Launch launch) {
    PROBE_CHECK(cudaMemset(c.out, 0, OUTPUTS * sizeof(float)));
    launch(0);
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(OUTPUTS);
    PROBE_CHECK(cudaMemcpy(got.data(), c.out, OUTPUTS * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int i = 0; i < OUTPUTS; ++i)
        worst = std::max(worst, (double)fabsf(got[i] - c.ref[i]) / fabsf(c.ref[i]));
    float us = probe_median_us(c.reps, launch);
    printf("%-44s blocks %6d  %8.2f us  %7.1f GB/s  %s\n", what, blocks, us,
           (double)PAIRS * OUTPUTS * C * 4.0 / us * 1e-3, worst < 1e-4 ? "ok" : "WRONG");
}

// per_sm > 0: dynamic shared memory that leaves room for at most per_sm
// blocks a SM (occupancy capped, as a launch can without a new kernel).
template <int T, int U, int HINT = NC, int MINB = 1> void output(Ctx &c, int per_sm = 0) {
    char what[96];
    size_t smem = 0;
    if (per_sm > 0) {
        cudaDeviceProp prop;
        PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
        smem = prop.sharedMemPerMultiprocessor / per_sm - 1024 - 64; // 1 KiB reserved a block
        smem = std::min<size_t>(smem, prop.sharedMemPerBlockOptin - 64);
        PROBE_CHECK(cudaFuncSetAttribute(output_kernel<T, U, HINT, MINB>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    }
    int blocks = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks,
                                                              output_kernel<T, U, HINT, MINB>, T,
                                                              smem));
    cudaFuncAttributes fa;
    PROBE_CHECK(cudaFuncGetAttributes(&fa, output_kernel<T, U, HINT, MINB>));
    snprintf(what, sizeof what, "output T%d U%d %s min%d (%d/SM, %dr %zuB)", T, U,
             hint_name(HINT), MINB, blocks, fa.numRegs, (size_t)fa.localSizeBytes);
    report(c, what, OUTPUTS,
           [&](int) { output_kernel<T, U, HINT, MINB><<<OUTPUTS, T, smem>>>(c.src, c.out); });
}

template <int T, int U, int HINT = NC, int MINB = 1> void roll(Ctx &c) {
    char what[96];
    int blocks = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, roll_kernel<T, U, HINT, MINB>, T, 0));
    cudaFuncAttributes fa;
    PROBE_CHECK(cudaFuncGetAttributes(&fa, roll_kernel<T, U, HINT, MINB>));
    snprintf(what, sizeof what, "roll T%d U%d %s min%d (%d/SM, %dr %zuB)", T, U,
             hint_name(HINT), MINB, blocks, fa.numRegs, (size_t)fa.localSizeBytes);
    report(c, what, OUTPUTS,
           [&](int) { roll_kernel<T, U, HINT, MINB><<<OUTPUTS, T>>>(c.src, c.out); });
}

template <int T, int P, int S, bool CHUNKS_FAST = true, int HINT = NC> void slab(Ctx &c) {
    char what[96];
    constexpr int CHUNKS = PAIRS / P;
    snprintf(what, sizeof what, "slab T%d P%d S%d (%d loads) %s %s", T, P, S,
             S * (K2 * C / 4 / T), CHUNKS_FAST ? "chunks" : "k1", hint_name(HINT));
    dim3 grid = CHUNKS_FAST ? dim3(CHUNKS, K1) : dim3(K1, CHUNKS);
    report(c, what, K1 * CHUNKS, [&](int) {
        slab_kernel<T, P, S, CHUNKS_FAST, HINT><<<grid, T>>>(c.src, c.staging, c.counts, c.out);
    });
}

} // namespace

int main(int argc, char **argv) {
    int reps = probe_reps(argc, argv);
    probe_device();
    const size_t n = (size_t)A * K1 * B * K2 * C; // 256 MiB of f32
    float *src, *staging, *out, *ref_d;
    unsigned *counts;
    PROBE_CHECK(cudaMalloc(&src, n * sizeof(float)));
    probe_fill<<<1024, 256>>>(src, n);
    PROBE_CHECK(cudaMalloc(&staging, 16 << 20));
    PROBE_CHECK(cudaMalloc(&out, OUTPUTS * sizeof(float)));
    PROBE_CHECK(cudaMalloc(&ref_d, OUTPUTS * sizeof(float)));
    PROBE_CHECK(cudaMalloc(&counts, K1 * sizeof(unsigned)));
    PROBE_CHECK(cudaMemset(counts, 0, K1 * sizeof(unsigned)));
    Ctx c{src, staging, out, counts, std::vector<float>(OUTPUTS), reps};
    reference<<<OUTPUTS / 128, 128>>>(src, ref_d);
    PROBE_CHECK(cudaMemcpy(c.ref.data(), ref_d, OUTPUTS * sizeof(float), cudaMemcpyDeviceToHost));

    const size_t n4 = n / 4;
    auto full = [&] {
        float us = probe_median_us(reps, [&](int) {
            probe_full_read((const float4 *)src, n4, staging);
        });
        printf("full one-shot 512x4: %.2f us, %.1f GB/s\n", us, n * 4.0 / us * 1e-3);
    };
    full();
    // --window (v1.37): the library's mapping against blocks whose loads
    // in flight stay in one (dim 0) slab of 16 rows: T/32 rows a step, so
    // U loads a thread span U x T / 512 slabs (512 threads: 4 slabs; 256
    // threads and 2 loads, 128 threads and 4: one), at the 32-register
    // bound of a full SM; 1024 blocks are two waves at 512 threads, one
    // at 256 or 128.
    const bool window = probe_flag(argc, argv, "--window");
    for (int pass = 0; window && pass < 3; ++pass) {
        output<512, 4, CS, 4>(c);
        roll<512, 4, TRITON_EF, 4>(c);
        output<256, 4, CS, 8>(c);
        output<256, 2, CS, 8>(c);
        output<128, 4, CS, 16>(c);
        output<128, 2, CS, 16>(c);
        full();
    }
    for (int pass = 0; !window && pass < 2; ++pass) {
        // v1.21: a rolling window of loads (the library drains its batch
        // of 4 before the next), against the batch kernel.
        output<512, 4>(c);
        output<512, 2, NC, 4>(c, 4); // the library's bound: 32 registers
        roll<512, 4, NC, 4>(c);
        roll<512, 4, TRITON_EF, 4>(c);
        roll<512, 3, NC, 4>(c);
        roll<512, 6, NC, 4>(c);
        roll<512, 4>(c);
        roll<512, 8>(c);
        roll<256, 4, NC, 8>(c);
        roll<256, 8>(c);
        slab<256, 32, 2>(c); // v1.15's best slab
        full();
    }
    PROBE_CHECK(cudaFree(src));
    PROBE_CHECK(cudaFree(staging));
    PROBE_CHECK(cudaFree(out));
    PROBE_CHECK(cudaFree(ref_d));
    PROBE_CHECK(cudaFree(counts));
    return 0;
}
