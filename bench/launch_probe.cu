// launch_probe: what a launch and a block's start cost a short, wave-bound
// streaming kernel, the suite's d024 read ([32,32,16,32,128] f32 over
// dims 0, 2 and 4: 1024 blocks of 512 threads, two waves on 132 SMs, each
// block an output; ndim_probe's roll kernel, rolling window of 4 loads)
// and, where it says so, a one-shot full read of the same 256 MiB
// (bench/NOTES.md v1.22).
//
//   launch_probe [--reps N]
//
// Four questions, each against the same kernel without the change:
//   pad     the kernel's argument block padded to 8, 900 (the library's
//           rt__kernel_args is ~900 bytes) or 4000 bytes, never read;
//   chain   CH parameter reads 128 bytes apart, each index from the one
//           before, ahead of the first load (a chain of constant-cache
//           misses at a wave's start);
//   smem    dynamic shared memory a block and the preferred carveout
//           (cudaFuncAttributePreferredSharedMemoryCarveout, default: the
//           driver's choice), which sets the L1 left to the loads;
//   busy    8K independent multiply-adds on parameters ahead of the first
//           load, unrolled (8K instructions) or in a loop of 8: what each
//           instruction of a block's start costs when every block of a
//           wave starts at once.
// Each line: the median of N calls with an event pair around each (as
// rt_bench and compare_torch time), and the mean of 200 calls under one
// pair. Inputs rotate over 4 buffers of 256 MiB.
namespace {
const char *const kProbeName = "launch_probe";
}
#include "probe.cuh"
#include "d024.cuh"

namespace {

using namespace d024;
constexpr int BIG = 1200; // the argument block of the chain, smem and busy kernels

// The arguments, padded to PAD bytes of ints that are 0 at run time.
template <int PAD> struct Args {
    const float *src;
    float *out;
    int pad[PAD / 4 > 0 ? PAD / 4 : 1];
};

// CH dependent parameter reads, 128 bytes apart: 0 at run time.
template <int PAD, int CH> __device__ __forceinline__ int chain(const Args<PAD> &a) {
    int idx = 0;
#pragma unroll
    for (int k = 0; k < CH; ++k)
        idx = a.pad[idx + 32 * k];
    return idx;
}

// K rounds of 8 independent multiply-adds on parameters: 0 at run time.
// UNROLL lays out the 8K instructions; otherwise a loop of K trips.
template <int PAD, int K, bool UNROLL> __device__ __forceinline__ int busy(const Args<PAD> &a) {
    if constexpr (K == 0) {
        return 0;
    } else {
        unsigned x[8];
#pragma unroll
        for (int j = 0; j < 8; ++j)
            x[j] = (unsigned)a.pad[j] + threadIdx.x;
        auto round = [&](int k) {
#pragma unroll
            for (int j = 0; j < 8; ++j)
                x[j] = x[j] * (unsigned)a.pad[8 + (k * 8 + j) % 16] + (unsigned)a.pad[(k + j) % 8];
        };
        if constexpr (UNROLL) {
#pragma unroll
            for (int k = 0; k < K; ++k)
                round(k);
        } else {
#pragma unroll 1
            for (int k = 0; k < K; ++k)
                round(k);
        }
        unsigned r = 0;
#pragma unroll
        for (int j = 0; j < 8; ++j)
            r ^= x[j];
        return (int)(r & (unsigned)a.pad[30]);
    }
}

// The d024 read, a block an output, a rolling window of 4 loads
// (d024.cuh); CH and BK add a parameter chain and start-up work ahead of
// the first load.
template <int PAD, int CH = 0, int BK = 0, bool BU = true>
__global__ void __launch_bounds__(512, 4) roll_kernel(const __grid_constant__ Args<PAD> a) {
    const long skew = chain<PAD, CH>(a) + busy<PAD, BK, BU>(a);
    probe_block_store<512>(roll_sum<512, 4, CS>(a.src, blockIdx.x, skew), a.out);
}

// The one-shot full read (probe_full_one_shot) with these arguments.
template <int PAD, int CH = 0>
__global__ void __launch_bounds__(512) full_kernel(const __grid_constant__ Args<PAD> a, size_t n4) {
    const float4 *src = reinterpret_cast<const float4 *>(a.src) + chain<PAD, CH>(a);
    const size_t begin = (size_t)blockIdx.x * 512 * 4;
    const float acc = probe_read_run<4, NC>(src, begin + threadIdx.x, min(n4, begin + 2048), 512);
    probe_block_store<512>(acc, a.out);
}

template <int PAD> __global__ void empty_kernel(const __grid_constant__ Args<PAD> a) {
    if (threadIdx.x == 0 && a.pad[0] == 12345)
        a.out[0] = 1.0f;
}

struct Ctx {
    const float *bufs[4];
    float *out;
    int reps;
};
constexpr int NBUF = 4;
constexpr size_t N4 = (size_t)PAIRS * OUTPUTS * C / 4;

template <typename Launch> void time2(const Ctx &c, const char *what, Launch launch) {
    const float each = probe_median_us(c.reps, launch);
    cudaEvent_t e0, e1;
    PROBE_CHECK(cudaEventCreate(&e0));
    PROBE_CHECK(cudaEventCreate(&e1));
    for (int r = 0; r < 3; ++r)
        launch(r);
    PROBE_CHECK(cudaEventRecord(e0));
    for (int r = 0; r < 200; ++r)
        launch(r);
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaDeviceSynchronize());
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    PROBE_CHECK(cudaEventDestroy(e0));
    PROBE_CHECK(cudaEventDestroy(e1));
    printf("%-38s each %8.2f us   loop %8.2f us/call\n", what, each, ms * 1000.0f / 200);
}

template <int PAD> Args<PAD> args_for(const Ctx &c, int k) {
    Args<PAD> a{};
    a.src = c.bufs[k % NBUF];
    a.out = c.out;
    return a;
}

template <int PAD> void pad(const Ctx &c) {
    char w[64];
    snprintf(w, sizeof w, "pad %d: empty kernel", PAD);
    time2(c, w, [&](int k) { empty_kernel<PAD><<<1, 32>>>(args_for<PAD>(c, k)); });
    snprintf(w, sizeof w, "pad %d: d024", PAD);
    time2(c, w, [&](int k) { roll_kernel<PAD><<<OUTPUTS, 512>>>(args_for<PAD>(c, k)); });
    snprintf(w, sizeof w, "pad %d: full 256 MiB", PAD);
    time2(c, w, [&](int k) {
        full_kernel<PAD><<<(unsigned)((N4 + 2047) / 2048), 512>>>(args_for<PAD>(c, k), N4);
    });
}

template <int CH> void chain_of(const Ctx &c) {
    char w[64];
    snprintf(w, sizeof w, "chain %d: d024", CH);
    time2(c, w, [&](int k) { roll_kernel<BIG, CH><<<OUTPUTS, 512>>>(args_for<BIG>(c, k)); });
    snprintf(w, sizeof w, "chain %d: full 256 MiB", CH);
    time2(c, w, [&](int k) {
        full_kernel<BIG, CH><<<(unsigned)((N4 + 2047) / 2048), 512>>>(args_for<BIG>(c, k), N4);
    });
}

// carve < -1: the driver's choice (the attribute left as the last call set
// it: run these first); else the preferred carveout in percent.
void smem(const Ctx &c, int bytes, int carve) {
    char w[64];
    if (carve >= -1)
        PROBE_CHECK(cudaFuncSetAttribute(roll_kernel<BIG>,
                                         cudaFuncAttributePreferredSharedMemoryCarveout, carve));
    if (carve < -1)
        snprintf(w, sizeof w, "smem %d B, carveout default: d024", bytes);
    else
        snprintf(w, sizeof w, "smem %d B, carveout %d%%: d024", bytes, carve);
    time2(c, w, [&](int k) { roll_kernel<BIG><<<OUTPUTS, 512, bytes>>>(args_for<BIG>(c, k)); });
}

template <int BK, bool BU> void busy_of(const Ctx &c) {
    char w[64];
    snprintf(w, sizeof w, "busy %d %s: d024", BK * 8, BU ? "unrolled" : "loop");
    time2(c, w, [&](int k) { roll_kernel<BIG, 0, BK, BU><<<OUTPUTS, 512>>>(args_for<BIG>(c, k)); });
}

} // namespace

int main(int argc, char **argv) {
    Ctx c;
    c.reps = probe_reps(argc, argv);
    probe_device();
    for (int i = 0; i < NBUF; ++i) {
        float *b = nullptr;
        PROBE_CHECK(cudaMalloc(&b, N4 * sizeof(float4)));
        probe_fill<<<1024, 256>>>(b, N4 * 4);
        c.bufs[i] = b;
    }
    PROBE_CHECK(cudaMalloc(&c.out, 1 << 20));
    PROBE_CHECK(cudaDeviceSynchronize());
    for (int pass = 0; pass < 2; ++pass) {
        pad<8>(c);
        pad<900>(c);
        pad<4000>(c);
        chain_of<0>(c);
        chain_of<4>(c);
        chain_of<8>(c);
        busy_of<0, true>(c);
        busy_of<4, true>(c);
        busy_of<4, false>(c);
        busy_of<16, true>(c);
        busy_of<16, false>(c);
        busy_of<48, true>(c);
        busy_of<48, false>(c);
        smem(c, 0, -2);
        smem(c, 2048, -2);
        smem(c, 2048, 0);
        smem(c, 2048, 50);
        smem(c, 2048, 100);
        PROBE_CHECK(cudaFuncSetAttribute(roll_kernel<BIG>,
                                         cudaFuncAttributePreferredSharedMemoryCarveout, -1));
    }
    for (int i = 0; i < NBUF; ++i)
        PROBE_CHECK(cudaFree(const_cast<float *>(c.bufs[i])));
    PROBE_CHECK(cudaFree(c.out));
    return 0;
}
