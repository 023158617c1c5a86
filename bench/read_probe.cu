// read_probe: what the streaming-read ceiling depends on. Times one f32 sum
// of a large buffer with several load schemes, in one process, and prints
// GB/s per scheme and size, so a kernel change can be aimed at the scheme
// that reads fastest on this GPU (bench/NOTES.md, v1.4).
//
//   read_probe [--reps N]
//
// Schemes (256-thread blocks unless named):
//   grid-stride  one wave of blocks; each step a block reads threads x 16 B,
//                the grid steps over the whole buffer (rt_bench's ceiling)
//   blocked      one wave of blocks; each block reads one contiguous chunk
//   one-shot     one block per threads x U x 16 B; a block reads and exits
// and load instructions: ld.global.nc (nc), the same with a 256-byte L2
// prefetch (nc.256), plain ld.global (ld), ld.global.cs (cs).
namespace {
const char *const kProbeName = "read_probe";
}
#include "probe.cuh"

namespace {

enum Mode { GRID_STRIDE, BLOCKED, ONE_SHOT };

__device__ __forceinline__ size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

template <int THREADS, int U, int MODE, int HINT>
__global__ void __launch_bounds__(THREADS) probe_kernel(const float4 *__restrict__ src, size_t n4,
                                                        float *out) {
    float acc;
    if (MODE == GRID_STRIDE) {
        acc = probe_read_run<U, HINT>(src, (size_t)blockIdx.x * THREADS + threadIdx.x, n4,
                                (size_t)gridDim.x * THREADS);
    } else if (MODE == BLOCKED) {
        size_t chunk = (n4 + gridDim.x - 1) / gridDim.x;
        chunk = (chunk + THREADS - 1) / THREADS * THREADS;
        size_t begin = min_size(n4, (size_t)blockIdx.x * chunk);
        size_t end = min_size(n4, begin + chunk);
        acc = probe_read_run<U, HINT>(src, begin + threadIdx.x, end, THREADS);
    } else {
        size_t begin = (size_t)blockIdx.x * THREADS * U;
        acc = probe_read_run<U, HINT>(src, begin + threadIdx.x, min_size(n4, begin + THREADS * U),
                                THREADS);
    }
    probe_block_store<THREADS>(acc, out);
}

struct Scheme {
    const char *name;
    void (*kernel)(const float4 *, size_t, float *);
    int threads, unroll, mode;
};

#define SCHEME(T, U, M, H, NAME) {NAME, probe_kernel<T, U, M, H>, T, U, M}

const Scheme kSchemes[] = {
    SCHEME(256, 4, GRID_STRIDE, NC, "grid-stride u4 nc (ceiling)"),
    SCHEME(256, 8, GRID_STRIDE, NC, "grid-stride u8 nc"),
    SCHEME(512, 4, GRID_STRIDE, NC, "grid-stride 512t u4 nc"),
    SCHEME(256, 4, GRID_STRIDE, NC_L2_256, "grid-stride u4 nc.256"),
    SCHEME(256, 4, GRID_STRIDE, PLAIN, "grid-stride u4 ld"),
    SCHEME(256, 4, GRID_STRIDE, CS, "grid-stride u4 cs"),
    SCHEME(256, 4, BLOCKED, NC, "blocked u4 nc"),
    SCHEME(256, 8, BLOCKED, NC, "blocked u8 nc"),
    SCHEME(256, 4, BLOCKED, NC_L2_256, "blocked u4 nc.256"),
    SCHEME(256, 2, ONE_SHOT, NC, "one-shot u2 nc"),
    SCHEME(256, 4, ONE_SHOT, NC, "one-shot u4 nc"),
    SCHEME(256, 8, ONE_SHOT, NC, "one-shot u8 nc"),
    SCHEME(512, 4, ONE_SHOT, NC, "one-shot 512t u4 nc"),
    SCHEME(128, 4, ONE_SHOT, NC, "one-shot 128t u4 nc"),
    SCHEME(256, 4, ONE_SHOT, NC_L2_256, "one-shot u4 nc.256"),
    SCHEME(256, 4, ONE_SHOT, CS, "one-shot u4 cs"),
};

int grid_for(const Scheme &s, size_t n4, int sms) {
    if (s.mode == ONE_SHOT)
        return (int)((n4 + (size_t)s.threads * s.unroll - 1) / ((size_t)s.threads * s.unroll));
    int per_sm = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, s.kernel, s.threads, 0));
    return per_sm * sms;
}

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const cudaDeviceProp prop = probe_device();

    const size_t sizes[] = {(size_t)256 << 20, (size_t)512 << 20, (size_t)1 << 30};
    const int nsizes = 3;
    // Buffers rotate so that consecutive calls never read what the last one
    // left in L2: 4 x 256 MiB for the smaller sizes, 2 x 1 GiB for the largest.
    size_t pool_bytes = (size_t)2 << 30;
    char *pool = nullptr;
    PROBE_CHECK(cudaMalloc(&pool, pool_bytes));
    probe_fill<<<4096, 256>>>((float *)pool, pool_bytes / 4);
    float *out = nullptr;
    PROBE_CHECK(cudaMalloc(&out, (size_t)1 << 26));

    printf("%-30s", "scheme");
    for (int s = 0; s < nsizes; ++s)
        printf("  %7zuMiB us    GB/s", sizes[s] >> 20);
    printf("\n");
    for (const Scheme &sc : kSchemes) {
        printf("%-30s", sc.name);
        for (int s = 0; s < nsizes; ++s) {
            size_t bytes = sizes[s], n4 = bytes / 16;
            int copies = (int)(pool_bytes / bytes);
            int grid = grid_for(sc, n4, prop.multiProcessorCount);
            float us = probe_median_us(reps, [&](int k) {
                const float4 *src = (const float4 *)(pool + (size_t)(k % copies) * bytes);
                sc.kernel<<<grid, sc.threads>>>(src, n4, out);
            });
            printf("  %10.2f %7.1f", us, bytes / (us * 1e3));
        }
        printf("\n");
    }
    PROBE_CHECK(cudaGetLastError());
    return 0;
}
