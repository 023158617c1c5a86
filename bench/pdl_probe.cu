// pdl_probe: a full sum of 512 MiB as two kernels -- a one-shot grid whose
// blocks each store a partial and exit (no fence, no count), then a
// one-block fold of the partials -- with and without programmatic
// dependent launch (PDL: the fold launched while the grid runs, waiting in
// griddepcontrol.wait for its memory), against the library's STREAM
// kernel (one launch; every block publishes its partial with release
// order and the grid's last block folds; and its own dependent fold since
// v1.46, through the library's launch) and probe.cuh's one-shot read
// that folds nothing (bench/NOTES.md v1.46).
//
//   pdl_probe [--reps N] [--passes P]
//
// Four 512 MiB slots rotate (far over L2); an event pair around each call
// (both kernels of a two-kernel arm), the median of N calls; P passes, the
// arms in a rotated order each pass. Every arm's result is checked against
// a host sum of its slot.
#define kProbeName "pdl_probe"
#include "probe.cuh"

#include <functional>

#include "reduce_tiny.cuh"

namespace {

constexpr int kThreads = 512;
constexpr int kFoldThreads = 512;

template <typename T> struct Vec16;
template <> struct Vec16<float> {
    using type = float4;
    static __device__ float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};
template <> struct Vec16<double> {
    using type = double2;
    static __device__ double sum(double2 v) { return v.x + v.y; }
};

// The sum of a block's per-thread values, in thread 0 (a fixed tree).
template <typename T, int NT> __device__ T block_sum(T v) {
    __shared__ T warp_sums[NT / 32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < NT / 32 ? warp_sums[threadIdx.x] : T(0);
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}

// Block b sums 16-byte vectors [b * R * 4 * kThreads, (b + 1) * ...): R
// rounds of 4 loads in flight a thread (streaming loads, __ldcs, or with
// Nc the library's ld.global.nc, __ldg); thread 0 stores the block's
// partial with a plain store and the block exits. Trigger: each block
// lets the dependent grid launch as it starts (griddepcontrol.launch_dependents).
template <typename T, int R, bool Trigger, bool Nc>
__global__ void __launch_bounds__(kThreads) partial_kernel(const typename Vec16<T>::type *src,
                                                           size_t nvec, T *partials) {
    using V = typename Vec16<T>::type;
#if __CUDA_ARCH__ >= 900
    if (Trigger)
        asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const size_t begin = (size_t)blockIdx.x * R * 4 * kThreads;
    T acc = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        V v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const size_t i = begin + (size_t)(r * 4 + u) * kThreads + threadIdx.x;
            if (i < nvec)
                v[u] = Nc ? __ldg(src + i) : __ldcs(src + i);
            else
                memset(&v[u], 0, sizeof v[u]);
        }
#pragma unroll
        for (int u = 0; u < 4; ++u)
            acc += Vec16<T>::sum(v[u]);
    }
    acc = block_sum<T, kThreads>(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

// One block folds nb partials (16-byte packs, up to 8 loads in flight a
// thread, then a fixed tree) into *out. Wait: griddepcontrol.wait first
// (the partials' grid launched it early; the wait returns once that
// grid has finished and its stores are visible).
template <typename T, bool Wait>
__global__ void __launch_bounds__(kFoldThreads) fold_kernel(const T *partials, unsigned nb,
                                                            T *out) {
    using V = typename Vec16<T>::type;
#if __CUDA_ARCH__ >= 900
    if (Wait)
        asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    const V *packs = reinterpret_cast<const V *>(partials);
    const unsigned npack = nb * (unsigned)sizeof(T) / 16;
    T acc = 0;
    for (unsigned k = threadIdx.x; k < npack; k += 8 * kFoldThreads) {
        V v[8];
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            if (k + u * kFoldThreads < npack)
                v[u] = __ldcg(packs + k + u * kFoldThreads);
            else
                memset(&v[u], 0, sizeof v[u]);
        }
#pragma unroll
        for (int u = 0; u < 8; ++u)
            acc += Vec16<T>::sum(v[u]);
    }
    for (unsigned c = npack * 16 / sizeof(T) + threadIdx.x; c < nb; c += kFoldThreads)
        acc += __ldcg(partials + c);
    acc = block_sum<T, kFoldThreads>(acc);
    if (threadIdx.x == 0)
        *out = acc;
}

enum Mode { LIB, LIB_DEPENDENT, TWO_PLAIN, TWO_PDL, TWO_PDL_TRIGGER, TWO_PDL_TRIGGER_NC, ONE_SHOT };

struct Arm {
    const char *name;
    bool f64;
    Mode mode;
    int rounds; // rounds of 4 16-byte loads a thread (two-kernel arms); LIB: bytes a thread
};

const Arm kArms[] = {
    {"f32 library STREAM 256B count", false, LIB, 256},
    {"f64 library STREAM 256B count", true, LIB, 256},
    {"f32 library dependent 128B (v1.46)", false, LIB_DEPENDENT, 128},
    {"f64 library dependent 128B (v1.46)", true, LIB_DEPENDENT, 128},
    {"f32 2 kernels 128B PDL trigger nc", false, TWO_PDL_TRIGGER_NC, 2},
    {"f64 2 kernels 128B PDL trigger nc", true, TWO_PDL_TRIGGER_NC, 2},
    {"f32 one-shot read, no fold", false, ONE_SHOT, 1},
    {"f32 2 kernels 64B plain", false, TWO_PLAIN, 1},
    {"f32 2 kernels 64B PDL", false, TWO_PDL, 1},
    {"f32 2 kernels 64B PDL trigger", false, TWO_PDL_TRIGGER, 1},
    {"f32 2 kernels 128B PDL trigger", false, TWO_PDL_TRIGGER, 2},
    {"f32 2 kernels 256B PDL trigger", false, TWO_PDL_TRIGGER, 4},
    {"f64 2 kernels 64B plain", true, TWO_PLAIN, 1},
    {"f64 2 kernels 64B PDL trigger", true, TWO_PDL_TRIGGER, 1},
    {"f64 2 kernels 128B PDL trigger", true, TWO_PDL_TRIGGER, 2},
    {"f64 2 kernels 256B PDL trigger", true, TWO_PDL_TRIGGER, 4},
};
constexpr int kNumArms = sizeof kArms / sizeof kArms[0];

template <typename T, int R, bool Trigger, bool Nc>
void launch_partials(cudaStream_t s, const void *src, size_t nvec, T *partials, unsigned nb) {
    partial_kernel<T, R, Trigger, Nc><<<nb, kThreads, 0, s>>>(
        reinterpret_cast<const typename Vec16<T>::type *>(src), nvec, partials);
}

template <typename T>
void launch_partials_r(cudaStream_t s, int r, bool trigger, bool nc, const void *src,
                       size_t nvec, T *partials, unsigned nb) {
    if (nc) {
        if (r == 2) launch_partials<T, 2, true, true>(s, src, nvec, partials, nb);
    } else if (trigger) {
        if (r == 1) launch_partials<T, 1, true, false>(s, src, nvec, partials, nb);
        if (r == 2) launch_partials<T, 2, true, false>(s, src, nvec, partials, nb);
        if (r == 4) launch_partials<T, 4, true, false>(s, src, nvec, partials, nb);
    } else {
        if (r == 1) launch_partials<T, 1, false, false>(s, src, nvec, partials, nb);
        if (r == 2) launch_partials<T, 2, false, false>(s, src, nvec, partials, nb);
        if (r == 4) launch_partials<T, 4, false, false>(s, src, nvec, partials, nb);
    }
}

template <typename T>
void launch_fold(cudaStream_t s, bool pdl, const T *partials, unsigned nb, T *out) {
    if (!pdl) {
        fold_kernel<T, false><<<1, kFoldThreads, 0, s>>>(partials, nb, out);
        return;
    }
    void *params[] = {&partials, &nb, &out};
    PROBE_CHECK(rt::launch_dependent(reinterpret_cast<const void *>(fold_kernel<T, true>), dim3(1),
                                     dim3(kFoldThreads), s, params));
}

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const int passes = probe_int_arg(argc, argv, "--passes", 3, 1);
    const cudaDeviceProp prop = probe_device();
    cudaStream_t s;
    PROBE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const size_t bytes = (size_t)512 << 20, n64 = bytes / 8;
    const int kSlots = 4;
    const ProbeF64Slots inputs = probe_f64_slots(kSlots, bytes);
    const std::vector<char *> &slot = inputs.slot;
    const std::vector<double> &ref64 = inputs.ref64, &ref32 = inputs.ref32;
    const int64_t max_blocks = (int64_t)(bytes / 64 / kThreads);
    char *staging;
    unsigned *sem;
    char *out;
    PROBE_CHECK(cudaMalloc(&staging, (size_t)max_blocks * 8 + 64));
    PROBE_CHECK(cudaMalloc(&sem, 64));
    PROBE_CHECK(cudaMemset(sem, 0, 64));
    PROBE_CHECK(cudaMalloc(&out, 8));
    float *one_shot_out;
    PROBE_CHECK(cudaMalloc(&one_shot_out, bytes / 2048 / 16 * sizeof(float) + 64));
    PROBE_CHECK(cudaDeviceSynchronize());

    const int wave = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
    std::vector<std::vector<float>> times(kNumArms);
    bool all_ok = true;
    for (int p = 0; p < passes; ++p) {
        for (int k = 0; k < kNumArms; ++k) {
            const int i = (k + p) % kNumArms;
            const Arm &arm = kArms[i];
            const size_t nvec = bytes / 16;
            std::function<void(int)> run;
            rt__tiny_args a;
            memset(&a, 0, sizeof a);
            unsigned nb = 0;
            if (arm.mode == ONE_SHOT) {
                run = [&](int r) {
                    probe_full_one_shot<<<(unsigned)((nvec + 2047) / 2048), 512, 0, s>>>(
                        reinterpret_cast<const float4 *>(slot[r % kSlots]), nvec, one_shot_out);
                };
            } else if (arm.mode == LIB || arm.mode == LIB_DEPENDENT) {
                // The library's STREAM kernel: the grid's last block folds
                // (LIB), or, as launch_tiny launches it with a dependent
                // fold, the grid and then its fold kernel as the grid's
                // dependent (launch_dependent; the grid here through <<<>>>).
                const bool dependent = arm.mode == LIB_DEPENDENT;
                const int64_t vec_bytes = arm.f64 ? 32 : 16;
                const int64_t n = arm.f64 ? (int64_t)n64 : (int64_t)(bytes / 4);
                const int64_t chunk = kThreads * (arm.rounds / vec_bytes);
                const int64_t blocks = probe_div_up(n / 4, chunk);
                a.out = out;
                a.staging = staging;
                a.semaphores = dependent ? nullptr : sem;
                a.num_inputs = (uint32_t)n;
                a.chunk = (uint32_t)chunk;
                a.fold_last = !dependent && blocks > wave;
                a.fold_grid = dependent ? (uint32_t)blocks : 0;
                a.out_dtype = arm.f64 ? RT_F64 : RT_F32;
                a.first = a.last = 1;
                run = [&, blocks, dependent](int r) {
                    a.in = slot[r % kSlots];
                    void *params[] = {&a};
                    using F64 = rt::SumOp<double>;
                    using F32 = rt::SumOp<float>;
                    const void *fold;
                    if (arm.f64) {
                        rt::stream_kernel<F64><<<(unsigned)blocks, kThreads, 0, s>>>(a);
                        fold = reinterpret_cast<const void *>(rt::stream_fold_kernel<F64>);
                    } else {
                        rt::stream_kernel<F32><<<(unsigned)blocks, kThreads, 0, s>>>(a);
                        fold = reinterpret_cast<const void *>(rt::stream_fold_kernel<F32>);
                    }
                    if (dependent)
                        PROBE_CHECK(rt::launch_dependent(fold, dim3(1), dim3(kThreads), s, params));
                };
            } else {
                nb = (unsigned)probe_div_up((int64_t)nvec, (int64_t)arm.rounds * 4 * kThreads);
                const bool pdl = arm.mode != TWO_PLAIN,
                           nc = arm.mode == TWO_PDL_TRIGGER_NC,
                           trigger = arm.mode == TWO_PDL_TRIGGER || nc;
                run = [&, nb, pdl, trigger, nc](int r) {
                    if (arm.f64) {
                        launch_partials_r<double>(s, arm.rounds, trigger, nc, slot[r % kSlots],
                                                  nvec, reinterpret_cast<double *>(staging), nb);
                        launch_fold<double>(s, pdl, reinterpret_cast<double *>(staging), nb,
                                            reinterpret_cast<double *>(out));
                    } else {
                        launch_partials_r<float>(s, arm.rounds, trigger, nc, slot[r % kSlots],
                                                 nvec, reinterpret_cast<float *>(staging), nb);
                        launch_fold<float>(s, pdl, reinterpret_cast<float *>(staging), nb,
                                           reinterpret_cast<float *>(out));
                    }
                };
            }
            times[i].push_back(probe_median_us_on(s, reps, run));
            PROBE_CHECK(cudaGetLastError());
            if (arm.mode == ONE_SHOT)
                continue;
            // The result of one more call on slot 0.
            PROBE_CHECK(cudaMemsetAsync(out, 0, 8, s));
            run(0);
            PROBE_CHECK(cudaStreamSynchronize(s));
            double got = 0;
            if (!arm.f64) {
                float g;
                PROBE_CHECK(cudaMemcpy(&g, out, 4, cudaMemcpyDeviceToHost));
                got = g;
            } else {
                PROBE_CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
            }
            const double want = arm.f64 ? ref64[0] : ref32[0];
            const double rel = fabs(got - want) / fabs(want);
            if (rel > (arm.f64 ? 1e-12 : 1e-5)) {
                printf("  %s: result %.17g, host %.17g (rel %.3g) WRONG\n", arm.name, got, want,
                       rel);
                all_ok = false;
            }
        }
    }
    printf("full sums of 512 MiB, 4 slots rotated, median of %d a pass, %d passes (us)\n", reps,
           passes);
    for (int i = 0; i < kNumArms; ++i) {
        printf("  %-36s", kArms[i].name);
        for (float t : times[i])
            printf(" %8.2f", t);
        std::vector<float> v = times[i];
        std::sort(v.begin(), v.end());
        printf("   min %8.2f  GB/s %7.1f\n", v[0], bytes / (v[0] * 1e3));
    }
    printf("%s\n", all_ok ? "results ok" : "RESULTS WRONG");
    return all_ok ? 0 : 1;
}
