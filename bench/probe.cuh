// What the probes (read_probe.cu, rows_probe.cu, fold_probe.cu,
// outer_probe.cu, ndim_probe.cu, rowblock_probe.cu) share: error checks,
// the --reps argument, a device fill, the read loop (read_loop.cuh: load
// flavours, an unrolled read, a block's partial sum), a one-shot full
// read, and the median of event-timed launches.
// A probe defines kProbeName before including this.
#ifndef RT_BENCH_PROBE_CUH
#define RT_BENCH_PROBE_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "read_loop.cuh"

#define PROBE_CHECK(call)                                                                   \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s: %s: %s\n", kProbeName, #call, cudaGetErrorString(e_));    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

// The value of `name N` on the command line, at least lo; def if absent.
inline int probe_int_arg(int argc, char **argv, const char *name, int def, int lo) {
    int v = def;
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], name) == 0 && i + 1 < argc)
            v = std::max(lo, atoi(argv[++i]));
    return v;
}

// Whether `name` is on the command line.
inline bool probe_flag(int argc, char **argv, const char *name) {
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

// --reps N (at least 5; default 50).
inline int probe_reps(int argc, char **argv) { return probe_int_arg(argc, argv, "--reps", 50, 5); }

// Device 0's properties, after a line naming it, its SMs and its L2.
inline cudaDeviceProp probe_device() {
    cudaDeviceProp prop;
    PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs, L2 %.1f MiB\n", prop.name, prop.multiProcessorCount,
           prop.l2CacheSize / 1048576.0);
    return prop;
}

// n floats in [0.5, 1.5), none zero, from a cheap hash of the index.
__global__ void probe_fill(float *dst, size_t n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        dst[i] = 0.5f + (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}

// n doubles in [0.5, 1.5), none zero, from a hash of the index and seed.
__global__ void probe_fill_f64(double *dst, size_t n, unsigned seed) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = ((unsigned)i ^ seed) * 2654435761u;
        dst[i] = 0.5 + (double)(h >> 8) * (1.0 / 16777216.0);
    }
}

// `count` device buffers of `bytes` each, filled by probe_fill_f64 (seed
// 77 (k + 1) for buffer k), with long-double host sums of each buffer read
// as doubles (ref64) and as floats (ref32): the rotated inputs of the full
// sum probes (stream_probe, pdl_probe).
struct ProbeF64Slots {
    std::vector<char *> slot;
    std::vector<double> ref64, ref32;
};
inline ProbeF64Slots probe_f64_slots(int count, size_t bytes) {
    const size_t n64 = bytes / 8;
    ProbeF64Slots r{std::vector<char *>(count), std::vector<double>(count),
                    std::vector<double>(count)};
    std::vector<double> h(n64);
    for (int k = 0; k < count; ++k) {
        PROBE_CHECK(cudaMalloc(&r.slot[k], bytes));
        probe_fill_f64<<<4096, 256>>>(reinterpret_cast<double *>(r.slot[k]), n64, 77u * (k + 1));
        PROBE_CHECK(cudaGetLastError());
        PROBE_CHECK(cudaMemcpy(h.data(), r.slot[k], bytes, cudaMemcpyDeviceToHost));
        long double s64 = 0, s32 = 0;
        for (size_t i = 0; i < n64; ++i)
            s64 += h[i];
        const float *f = reinterpret_cast<const float *>(h.data());
        for (size_t i = 0; i < 2 * n64; ++i)
            s32 += f[i];
        r.ref64[k] = (double)s64;
        r.ref32[k] = (double)s32;
    }
    return r;
}

inline int64_t probe_div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The one-shot full sum of n4 float4s: 512 threads of 4 float4 each, a
// partial a block into out (no fold): the read rate a reduction of the
// same bytes would match (outer_probe, ndim_probe, rowblock_probe).
__global__ void __launch_bounds__(512) probe_full_one_shot(const float4 *src, size_t n4,
                                                          float *out) {
    size_t begin = (size_t)blockIdx.x * 512 * 4;
    float acc = probe_read_run<4, NC>(src, begin + threadIdx.x, min(n4, begin + 2048), 512);
    probe_block_store<512>(acc, out);
}

// probe_full_one_shot over n4 float4s; out holds a partial a block
// (ceil(n4 / 2048) floats).
inline void probe_full_read(const float4 *src, size_t n4, float *out) {
    probe_full_one_shot<<<(unsigned)((n4 + 2047) / 2048), 512>>>(src, n4, out);
}

// The median time in us of launch(k) over reps calls after 3 warm-ups;
// k counts calls from 0, for rotating inputs. The calls go back to back,
// an event pair around each and one sync at the end, as rt_bench and
// compare_torch.py time (until v1.21 a sync after each call put the
// launch's latency inside the events: about 1.3 us more a call, H100).
// The events go on `stream`, where launch enqueues its work.
template <typename Launch> float probe_median_us_on(cudaStream_t stream, int reps, Launch launch) {
    std::vector<cudaEvent_t> ev(2 * (size_t)reps);
    for (auto &e : ev)
        PROBE_CHECK(cudaEventCreate(&e));
    for (int r = 0; r < 3; ++r)
        launch(r);
    PROBE_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < reps; ++r) {
        PROBE_CHECK(cudaEventRecord(ev[2 * r], stream));
        launch(r + 3);
        PROBE_CHECK(cudaEventRecord(ev[2 * r + 1], stream));
    }
    PROBE_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        float ms = 0;
        PROBE_CHECK(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
        t.push_back(ms * 1000.0f);
    }
    for (auto &e : ev)
        PROBE_CHECK(cudaEventDestroy(e));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// The same on the legacy default stream (every probe but pdl_probe).
template <typename Launch> float probe_median_us(int reps, Launch launch) {
    return probe_median_us_on(0, reps, launch);
}

#endif // RT_BENCH_PROBE_CUH
