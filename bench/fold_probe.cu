// fold_probe: what a deterministic full f32 sum costs on top of the fastest
// read, and whether re-reading one buffer larger than L2 is really cold.
// One process, one table per question (bench/NOTES.md, v1.6).
//
//   fold_probe [--reps N]
//
// Part 1, full sums (each scheme's result is checked against CUB's):
//   gs-fold1    one wave of 512-thread blocks, grid-stride, 4 float4 loads in
//               flight; each block publishes a partial and the last block
//               (semaphore) folds them all: the library's shape for a full
//               sum (tuned.c rule 2)
//   os-only     one block per T x U float4 (read_probe's fastest "one-shot"
//               scheme); each block writes a partial and nothing folds them:
//               the read alone, for reference
//   os-fold1    one-shot, the last block folds every partial
//   os-fold2    one-shot, a semaphore per group of T blocks: the group's
//               last block folds its T partials into a level-2 partial, and
//               the last group to finish folds those (two short folds)
//   os-fold1c   os-fold1 with the partials spread over the folding threads
//               (coalesced loads); os-fold1r the same with an acq_rel count
//               instead of __threadfence + atomicAdd
//   os-2k       one-shot partials, then a second 1024-thread kernel folds them
//               (coalesced); os-2k-pdl launches it as a programmatic
//               dependent launch
//   library     reduce_tensor's full sum
//   cub         cub::DeviceReduce::Sum
// timed two ways: back to back (an event pair around each call, no host wait
// between calls: rt_bench's way) and alone (a sync after each call).
// Inputs rotate through a 2 GiB pool so no call finds its input in L2.
//
// Part 2, L2 residue: the os-only read of one 256 MiB buffer, back to back,
// always the same buffer versus four rotating, under several load hints,
// and the same buffer after a 2x L2 read of other bytes (outside the
// events); a difference means a "cold" re-read of one buffer 4x the L2 is
// partly warm.
#include <cub/device/device_reduce.cuh>

#include <cmath>

#include "reduce_tensor.h"

namespace {
const char *const kProbeName = "fold_probe";
}
#include "probe.cuh"

namespace {

// The block's sum in thread 0 (fixed shuffle tree: deterministic).
template <int T> __device__ __forceinline__ float block_sum(float acc) {
    __shared__ float warp_sums[T / 32];
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = acc;
    __syncthreads();
    float total = 0.0f;
    if (threadIdx.x < 32) {
        total = threadIdx.x < T / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int off = 16; off > 0; off /= 2)
            total += __shfl_down_sync(0xffffffffu, total, off);
    }
    return total;
}

// Folds p[0..n) with T threads, each a contiguous run in order, 8 loads at
// a time (the library's global_reduce tail); the sum lands in thread 0.
template <int T> __device__ float fold_partials(const float *p, unsigned n) {
    const unsigned chunk = (n + T - 1) / T;
    const unsigned b = min(n, threadIdx.x * chunk), e = min(n, b + chunk);
    float acc = 0.0f;
    unsigned c = b;
    for (; c + 8 <= e; c += 8) {
        float v[8];
#pragma unroll
        for (int i = 0; i < 8; ++i)
            v[i] = __ldcg(p + c + i);
#pragma unroll
        for (int i = 0; i < 8; ++i)
            acc += v[i];
    }
    for (; c < e; ++c)
        acc += __ldcg(p + c);
    return block_sum<T>(acc);
}

// The same fold with the partials spread over the threads (thread t folds
// t, t + T, ...: every load instruction of a warp reads 32 neighbours),
// still a fixed order, so still deterministic.
template <int T> __device__ float fold_partials_coalesced(const float *p, unsigned n) {
    float acc = 0.0f;
    unsigned c = threadIdx.x;
    for (; c + 7 * T < n; c += 8 * T) {
        float v[8];
#pragma unroll
        for (int i = 0; i < 8; ++i)
            v[i] = __ldcg(p + c + i * T);
#pragma unroll
        for (int i = 0; i < 8; ++i)
            acc += v[i];
    }
    for (; c < n; c += T)
        acc += __ldcg(p + c);
    return block_sum<T>(acc);
}

// publish() with the count as one acq_rel atomic instead of a full fence
// (__threadfence is fence.sc.gpu) before a relaxed one: thread 0 wrote the
// partial, so release order on its own atomic is enough, and the last
// block's acquire plus the barrier orders its threads' reads after it.
template <int T>
__device__ bool publish_acq_rel(float value, float *partials, unsigned slot, unsigned *sem,
                                unsigned count) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[slot] = value;
        unsigned prev;
        asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                     : "=r"(prev)
                     : "l"(sem)
                     : "memory");
        last = prev == count - 1;
        if (last)
            *sem = 0;
    }
    __syncthreads();
    return last;
}

// Publishes `value` (thread 0's) as partial `slot` and counts it on *sem;
// returns, in every thread, whether this block is the last of `count`
// (which then resets *sem for the next launch).
template <int T>
__device__ bool publish(float value, float *partials, unsigned slot, unsigned *sem, unsigned count) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[slot] = value;
        __threadfence();
        const unsigned prev = atomicAdd(sem, 1u);
        last = prev == count - 1;
        if (last)
            *sem = 0;
    }
    __syncthreads();
    if (last)
        __threadfence();
    return last;
}

struct Work {
    float *partials;  // one per block
    float *partials2; // one per group (os-fold2)
    unsigned *sems;   // [0] the top semaphore, [1 + g] group g's
    float *out;
};

template <int T, int U>
__global__ void __launch_bounds__(T) gs_fold1(const float4 *src, size_t n4, Work w) {
    float s = block_sum<T>(probe_read_run<U, NC>(src, (size_t)blockIdx.x * T + threadIdx.x, n4,
                                           (size_t)gridDim.x * T));
    if (!publish<T>(s, w.partials, blockIdx.x, &w.sems[0], gridDim.x))
        return;
    s = fold_partials<T>(w.partials, gridDim.x);
    if (threadIdx.x == 0)
        *w.out = s;
}

// FOLD 0: partials only; 1: last block folds all; 2: two levels; 3: last
// block folds all, coalesced; 4: as 3 with an acq_rel count.
template <int T, int U, int FOLD, int HINT = NC>
__global__ void __launch_bounds__(T) one_shot(const float4 *src, size_t n4, Work w) {
    const size_t begin = (size_t)blockIdx.x * T * U;
    const size_t end = begin + (size_t)T * U < n4 ? begin + (size_t)T * U : n4;
    float s = block_sum<T>(probe_read_run<U, HINT>(src, begin + threadIdx.x, end, T));
    if (FOLD == 0) {
        if (threadIdx.x == 0)
            w.partials[blockIdx.x] = s;
        return;
    }
    if (FOLD == 1) {
        if (!publish<T>(s, w.partials, blockIdx.x, &w.sems[0], gridDim.x))
            return;
        s = fold_partials<T>(w.partials, gridDim.x);
    } else if (FOLD == 3) {
        if (!publish<T>(s, w.partials, blockIdx.x, &w.sems[0], gridDim.x))
            return;
        s = fold_partials_coalesced<T>(w.partials, gridDim.x);
    } else if (FOLD == 4) {
        if (!publish_acq_rel<T>(s, w.partials, blockIdx.x, &w.sems[0], gridDim.x))
            return;
        s = fold_partials_coalesced<T>(w.partials, gridDim.x);
    } else {
        const unsigned g = blockIdx.x / T, groups = (gridDim.x + T - 1) / T;
        const unsigned in_group = min((unsigned)T, gridDim.x - g * T);
        if (!publish<T>(s, w.partials, blockIdx.x, &w.sems[1 + g], in_group))
            return;
        s = fold_partials<T>(w.partials + (size_t)g * T, in_group);
        if (!publish<T>(s, w.partials2, g, &w.sems[0], groups))
            return;
        s = fold_partials<T>(w.partials2, groups);
    }
    if (threadIdx.x == 0)
        *w.out = s;
}

__global__ void __launch_bounds__(1024) fold_kernel(const float *p, unsigned n, float *out) {
    float s = fold_partials_coalesced<1024>(p, n);
    if (threadIdx.x == 0)
        *out = s;
}

// The same second kernel launched as a programmatic dependent launch: it may
// start while the first kernel's last blocks still run, and waits for their
// results in cudaGridDependencySynchronize.
__global__ void __launch_bounds__(1024) fold_kernel_pdl(const float *p, unsigned n, float *out) {
    cudaGridDependencySynchronize();
    float s = fold_partials_coalesced<1024>(p, n);
    if (threadIdx.x == 0)
        *out = s;
}

enum Second { NONE, PLAIN_LAUNCH, PDL_LAUNCH };

struct Scheme {
    const char *name;
    int threads, unroll; // unroll 0: grid-stride one wave; -1: the library
    void (*kernel)(const float4 *, size_t, Work);
    int second; // a second kernel folds the partials
};

const Scheme kSchemes[] = {
    {"library", 0, -1, nullptr, NONE},
    {"gs-fold1 512t u4", 512, 0, gs_fold1<512, 4>, NONE},
    {"os-only 256t u4", 256, 4, one_shot<256, 4, 0>, NONE},
    {"os-only 512t u4", 512, 4, one_shot<512, 4, 0>, NONE},
    {"os-only 512t u8", 512, 8, one_shot<512, 8, 0>, NONE},
    {"os-fold1 256t u4", 256, 4, one_shot<256, 4, 1>, NONE},
    {"os-fold1c 256t u4", 256, 4, one_shot<256, 4, 3>, NONE},
    {"os-fold1c 512t u8", 512, 8, one_shot<512, 8, 3>, NONE},
    {"os-fold1r 256t u4", 256, 4, one_shot<256, 4, 4>, NONE},
    {"os-fold1r 512t u4", 512, 4, one_shot<512, 4, 4>, NONE},
    {"os-fold1r 512t u8", 512, 8, one_shot<512, 8, 4>, NONE},
    {"os-fold2 512t u8", 512, 8, one_shot<512, 8, 2>, NONE},
    {"os-2k 256t u4", 256, 4, one_shot<256, 4, 0>, PLAIN_LAUNCH},
    {"os-2k 512t u8", 512, 8, one_shot<512, 8, 0>, PLAIN_LAUNCH},
    {"os-2k-pdl 256t u4", 256, 4, one_shot<256, 4, 0>, PDL_LAUNCH},
    {"os-2k-pdl 512t u8", 512, 8, one_shot<512, 8, 0>, PDL_LAUNCH},
};

void launch_second(int second, unsigned n, const Work &w) {
    if (second == PLAIN_LAUNCH) {
        fold_kernel<<<1, 1024>>>(w.partials, n, w.out);
        return;
    }
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(1024);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    PROBE_CHECK(cudaLaunchKernelEx(&cfg, fold_kernel_pdl, (const float *)w.partials, n, w.out));
}

unsigned grid_for(const Scheme &s, size_t n4, int sms) {
    if (s.unroll < 0)
        return 0;
    if (s.unroll > 0)
        return (unsigned)((n4 + (size_t)s.threads * s.unroll - 1) / ((size_t)s.threads * s.unroll));
    int per_sm = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, s.kernel, s.threads, 0));
    return (unsigned)(per_sm * sms);
}

// reduce_tensor's full f32 sum of n floats at src into *out (device).
void library_sum(rt_context *ctx, const float4 *src, size_t n, float *out) {
    rt_tensor in = {};
    in.data = const_cast<float4 *>(src);
    in.dtype = RT_F32;
    in.ndim = 1;
    in.shape[0] = (int64_t)n;
    in.strides[0] = 1;
    rt_tensor o = {};
    o.data = out;
    o.dtype = RT_F32;
    o.ndim = 0;
    const rt_status st = reduce_tensor(ctx, RT_OP_SUM, &in, nullptr, 0, false, &o);
    if (st != RT_OK) {
        fprintf(stderr, "fold_probe: reduce_tensor: %s\n", rt_status_string(st));
        exit(1);
    }
}

// Median us of launch(k), an event pair around each call and no host wait
// between calls (rt_bench's timing); 10 warm-up calls. before(), when
// given, is enqueued ahead of each call, outside its events.
struct Nothing {
    void operator()() const {}
};
template <typename Launch, typename Before = Nothing>
float back_to_back_us(int reps, Launch launch, Before before = Before()) {
    std::vector<cudaEvent_t> ev(2 * reps);
    for (auto &e : ev)
        PROBE_CHECK(cudaEventCreate(&e));
    for (int k = 0; k < 10; ++k)
        launch(k);
    for (int r = 0; r < reps; ++r) {
        before();
        PROBE_CHECK(cudaEventRecord(ev[2 * r]));
        launch(10 + r);
        PROBE_CHECK(cudaEventRecord(ev[2 * r + 1]));
    }
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<float> t(reps);
    for (int r = 0; r < reps; ++r) {
        float ms = 0;
        PROBE_CHECK(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
        t[r] = ms * 1000.0f;
    }
    for (auto &e : ev)
        PROBE_CHECK(cudaEventDestroy(e));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const cudaDeviceProp prop = probe_device();

    const size_t pool_bytes = (size_t)2 << 30;
    char *pool = nullptr;
    PROBE_CHECK(cudaMalloc(&pool, pool_bytes));
    probe_fill<<<4096, 256>>>((float *)pool, pool_bytes / 4);
    Work w{};
    const size_t max_blocks = pool_bytes / (256 * 4 * 16) + 1;
    PROBE_CHECK(cudaMalloc(&w.partials, max_blocks * sizeof(float)));
    PROBE_CHECK(cudaMalloc(&w.partials2, max_blocks * sizeof(float)));
    PROBE_CHECK(cudaMalloc(&w.sems, (max_blocks + 1) * sizeof(unsigned)));
    PROBE_CHECK(cudaMemset(w.sems, 0, (max_blocks + 1) * sizeof(unsigned)));
    PROBE_CHECK(cudaMalloc(&w.out, sizeof(float)));
    rt_context *ctx = nullptr;
    if (rt_context_create(&ctx, RT_DEVICE_CUDA, 0) != RT_OK) {
        fprintf(stderr, "fold_probe: no CUDA context\n");
        return 1;
    }
    float *cub_out = nullptr;
    PROBE_CHECK(cudaMalloc(&cub_out, sizeof(float)));
    void *temp = nullptr;
    size_t temp_bytes = 0;
    PROBE_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, (const float *)pool, cub_out,
                                       (int)(pool_bytes / 8)));
    PROBE_CHECK(cudaMalloc(&temp, temp_bytes));

    const size_t sizes[] = {(size_t)16 << 10,  (size_t)256 << 10, (size_t)1 << 20,
                            (size_t)4 << 20,   (size_t)16 << 20,  (size_t)64 << 20,
                            (size_t)256 << 20, (size_t)512 << 20, (size_t)1 << 30};
    int bad = 0;
    for (int mode = 0; mode < 2; ++mode) {
        printf("\npart 1: full f32 sums, %s (us, median of %d)\n",
               mode == 0 ? "back to back" : "alone (sync after each call)", reps);
        printf("%-20s", "scheme");
        for (size_t bytes : sizes)
            printf(" %9zuKiB", bytes >> 10);
        printf("\n");
        for (int s = -1; s < (int)(sizeof(kSchemes) / sizeof(kSchemes[0])); ++s) {
            printf("%-20s", s < 0 ? "cub" : kSchemes[s].name);
            for (size_t bytes : sizes) {
                const size_t n4 = bytes / 16;
                const int copies = (int)(pool_bytes / bytes);
                auto src = [&](int k) { return (const float4 *)(pool + (size_t)(k % copies) * bytes); };
                unsigned grid = s < 0 ? 0 : grid_for(kSchemes[s], n4, prop.multiProcessorCount);
                auto launch = [&](int k) {
                    if (s < 0) {
                        size_t tb = temp_bytes;
                        PROBE_CHECK(cub::DeviceReduce::Sum(temp, tb, (const float *)src(k), cub_out,
                                                           (int)(n4 * 4)));
                        return;
                    }
                    const Scheme &sc = kSchemes[s];
                    if (sc.unroll < 0) {
                        library_sum(ctx, src(k), n4 * 4, w.out);
                        return;
                    }
                    sc.kernel<<<grid, sc.threads>>>(src(k), n4, w);
                    if (sc.second != NONE)
                        launch_second(sc.second, grid, w);
                };
                float us = mode == 0 ? back_to_back_us(reps, launch) : probe_median_us(reps, launch);
                printf(" %12.2f", us);
                fflush(stdout);
                // Check the folding schemes against CUB on copy 0.
                if (s >= 0 && std::strncmp(kSchemes[s].name, "os-only", 7) != 0) {
                    launch(0);
                    size_t tb = temp_bytes;
                    PROBE_CHECK(cub::DeviceReduce::Sum(temp, tb, (const float *)src(0), cub_out,
                                                       (int)(n4 * 4)));
                    float a = 0, b = 0;
                    PROBE_CHECK(cudaMemcpy(&a, w.out, sizeof(float), cudaMemcpyDeviceToHost));
                    PROBE_CHECK(cudaMemcpy(&b, cub_out, sizeof(float), cudaMemcpyDeviceToHost));
                    if (!(std::fabs(a - b) <= 1e-5f * std::fabs(b))) {
                        printf("(MISMATCH %g vs cub %g)", a, b);
                        bad = 1;
                    }
                }
            }
            printf("\n");
        }
    }

    // Part 2: one 256 MiB buffer re-read, the same copy every call or four
    // copies in turn.
    printf("\npart 2: os-only 256t u4 over 256 MiB, back to back (us, median of %d)\n", reps);
    printf("%-20s %12s %12s %12s\n", "load", "same buffer", "4 rotating", "read flush");
    struct HintRow {
        const char *name;
        void (*kernel)(const float4 *, size_t, Work);
    };
    const HintRow hints[] = {
        {"ld.global.nc", one_shot<256, 4, 0, NC>},
        {"ld.global.cs", one_shot<256, 4, 0, CS>},
        {"ld plain", one_shot<256, 4, 0, PLAIN>},
        {"L2::evict_first", one_shot<256, 4, 0, EVICT_FIRST>},
        {"L2::evict_last", one_shot<256, 4, 0, EVICT_LAST>},
    };
    const size_t bytes = (size_t)256 << 20, n4 = bytes / 16;
    const unsigned grid = (unsigned)(n4 / (256 * 4));
    const size_t flush_n4 = 2 * (size_t)prop.l2CacheSize / 16;
    const float4 *flush_src = (const float4 *)(pool + 4 * bytes);
    const unsigned flush_grid = (unsigned)((flush_n4 + 1023) / 1024);
    for (const HintRow &h : hints) {
        printf("%-20s", h.name);
        for (int rotate = 0; rotate < 3; ++rotate) {
            // rotate 2: the same buffer, but a 2x L2 read of other bytes
            // (clean lines, unlike a memset's dirty ones) runs before each
            // call, outside its events (back_to_back_us's `before`).
            auto before = [&]() {
                if (rotate == 2)
                    one_shot<256, 4, 0, NC><<<flush_grid, 256>>>(flush_src, flush_n4, w);
            };
            float us = back_to_back_us(reps, [&](int k) {
                const float4 *src = (const float4 *)(pool + (rotate == 1 ? (size_t)(k % 4) * bytes : 0));
                h.kernel<<<grid, 256>>>(src, n4, w);
            }, before);
            printf(" %12.2f", us);
        }
        printf("\n");
    }
    PROBE_CHECK(cudaGetLastError());
    PROBE_CHECK(cudaDeviceSynchronize());
    rt_context_destroy(ctx);
    return bad;
}
