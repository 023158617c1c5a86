// What the probes (read_probe.cu, rows_probe.cu) share: error checks, the
// --reps argument, a device fill and the median of event-timed launches.
// A probe defines kProbeName before including this.
#ifndef RT_BENCH_PROBE_CUH
#define RT_BENCH_PROBE_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define PROBE_CHECK(call)                                                                   \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s: %s: %s\n", kProbeName, #call, cudaGetErrorString(e_));    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

// --reps N (at least 5; default 50).
inline int probe_reps(int argc, char **argv) {
    int reps = 50;
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = std::max(5, atoi(argv[++i]));
    return reps;
}

// n floats in [0.5, 1.5), none zero, from a cheap hash of the index.
__global__ void probe_fill(float *dst, size_t n) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        dst[i] = 0.5f + (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}

// The median time in us of launch(k) over reps calls after 3 warm-ups;
// k counts calls from 0, for rotating inputs.
template <typename Launch> float probe_median_us(int reps, Launch launch) {
    cudaEvent_t a, b;
    PROBE_CHECK(cudaEventCreate(&a));
    PROBE_CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = -3; r < reps; ++r) {
        PROBE_CHECK(cudaEventRecord(a));
        launch(r + 3);
        PROBE_CHECK(cudaEventRecord(b));
        PROBE_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 0)
            t.push_back(ms * 1000.0f);
    }
    PROBE_CHECK(cudaEventDestroy(a));
    PROBE_CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

#endif // RT_BENCH_PROBE_CUH
