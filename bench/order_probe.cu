// order_probe: does the order in which a one-shot grid's blocks take their
// chunks change the read rate? Every STREAM and ROWS launch maps block b
// to chunk b, so the blocks resident at once read one contiguous window
// of the buffer. This probe maps block b to chunk map(b), a permutation
// (checked on the host), and times the same bytes in each order, in one
// process, the schemes in rotating order pass by pass (bench/NOTES.md
// v1.37).
//
//   order_probe [--reps N] [--passes P]
//
// A block is 512 threads of U float4 loads (ld.global.cs; at U 8 ptxas
// issues four before the first add, then one as each is added), one
// round, a partial a block stored, nothing folded.
// Chunk c starts at c x pitch: pitch == chunk reads a contiguous buffer,
// pitch == 2 x chunk half of every 2-chunk row (the suite's c4096 slice).
// Orders (N chunks, a power of two):
//   id        c = b
//   rev       c = N - 1 - b
//   way K     c = (b >> log2 K) + (b % K) x N / K: K streams N / K apart
//   mul P     c = b x P mod N (P odd): consecutive blocks P chunks apart
//   bitrev    c = b's log2 N bits reversed
//   taper T   c = b, but the last T chunks read as 2T half chunks (blocks
//             past N - T read U / 2 loads), so the grid's last blocks,
//             dispatched last, end sooner
namespace {
const char *const kProbeName = "order_probe";
}
#include "probe.cuh"

namespace {

enum Order { ID, REV, WAY, MUL, BITREV };

struct Map {
    int order;
    unsigned param; // WAY: log2 K; MUL: P
    unsigned log2n;
};

__host__ __device__ __forceinline__ unsigned map_chunk(Map m, unsigned b) {
    const unsigned n = 1u << m.log2n;
    switch (m.order) {
    case REV:
        return n - 1 - b;
    case WAY:
        return (b >> m.param) + (b & ((1u << m.param) - 1)) * (n >> m.param);
    case MUL:
        return (b * m.param) & (n - 1);
    case BITREV: {
        unsigned r = 0;
        for (unsigned i = 0; i < m.log2n; ++i)
            r |= ((b >> i) & 1u) << (m.log2n - 1 - i);
        return r;
    }
    default:
        return b;
    }
}

// Blocks below nfull read chunk map(b) (U loads a thread); the grid's
// blocks past them (tapers only, identity order, contiguous) read the
// half chunks after the nfull full ones (U / 2 loads a thread).
template <int U>
__global__ void __launch_bounds__(512) order_kernel(const float4 *__restrict__ src, Map m,
                                                   size_t pitch4, unsigned nfull, float *out) {
    const unsigned b = blockIdx.x;
    float acc;
    if (b < nfull) {
        const size_t begin = (size_t)map_chunk(m, b) * pitch4;
        acc = probe_read_run<U, CS>(src, begin + threadIdx.x, begin + (size_t)512 * U, 512);
    } else {
        const size_t begin = (size_t)nfull * pitch4 + (size_t)(b - nfull) * 512 * (U / 2);
        acc = probe_read_run<U / 2, CS>(src, begin + threadIdx.x, begin + (size_t)512 * (U / 2),
                                        512);
    }
    probe_block_store<512>(acc, out);
}

struct Scheme {
    const char *name;
    int u;        // float4 loads a thread: chunk = 512 x u x 16 bytes
    int pitch;    // chunks a row: 1 contiguous, 2 half of every row
    size_t bytes; // bytes read
    Map map;      // log2n filled in by main
    unsigned taper; // > 0: the last `taper` full chunks read as twice as many half chunks
};

unsigned log2u(size_t v) {
    unsigned l = 0;
    while (((size_t)1 << l) < v)
        ++l;
    return l;
}

bool is_permutation(Map m) {
    const unsigned n = 1u << m.log2n;
    std::vector<char> seen(n, 0);
    for (unsigned b = 0; b < n; ++b) {
        unsigned c = map_chunk(m, b);
        if (c >= n || seen[c])
            return false;
        seen[c] = 1;
    }
    return true;
}

void launch(const Scheme &s, const float4 *src, float *out) {
    const size_t pitch4 = (size_t)512 * s.u * s.pitch;
    const unsigned nfull = (1u << s.map.log2n) - s.taper, grid = nfull + 2 * s.taper;
    if (s.u == 2)
        order_kernel<2><<<grid, 512>>>(src, s.map, pitch4, nfull, out);
    else if (s.u == 4)
        order_kernel<4><<<grid, 512>>>(src, s.map, pitch4, nfull, out);
    else
        order_kernel<8><<<grid, 512>>>(src, s.map, pitch4, nfull, out);
}

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const int passes = probe_int_arg(argc, argv, "--passes", 3, 1);
    probe_device();

    const size_t M = (size_t)1 << 20;
    std::vector<Scheme> schemes = {
        {"512M u4 id", 4, 1, 512 * M, {ID, 0, 0}, 0},
        {"512M u4 taper264", 4, 1, 512 * M, {ID, 0, 0}, 264},
        {"512M u4 taper528", 4, 1, 512 * M, {ID, 0, 0}, 528},
        {"512M u4 taper1056", 4, 1, 512 * M, {ID, 0, 0}, 1056},
        {"512M u8 id", 8, 1, 512 * M, {ID, 0, 0}, 0},
        {"512M u8 taper264", 8, 1, 512 * M, {ID, 0, 0}, 264},
        {"512M u8 taper528", 8, 1, 512 * M, {ID, 0, 0}, 528},
        {"512M u8 taper1056", 8, 1, 512 * M, {ID, 0, 0}, 1056},
        {"512M u4 way8", 4, 1, 512 * M, {WAY, 3, 0}, 0},
        {"512M u4 mul529", 4, 1, 512 * M, {MUL, 529, 0}, 0},
        {"512M u4 bitrev", 4, 1, 512 * M, {BITREV, 0, 0}, 0},
        {"256M u2 id", 2, 1, 256 * M, {ID, 0, 0}, 0},
        {"256M u2 half-rows id", 2, 2, 256 * M, {ID, 0, 0}, 0},
    };
    for (Scheme &s : schemes) {
        s.map.log2n = log2u(s.bytes / ((size_t)512 * s.u * 16));
        if (!is_permutation(s.map) || (s.taper && (s.map.order != ID || s.pitch != 1))) {
            fprintf(stderr, "order_probe: %s is not a permutation (or a taper of another)\n", s.name);
            return 1;
        }
    }

    // Four 512 MiB slots: a call never finds the last call's lines in L2.
    const size_t slot = 512 * M;
    const int slots = 4;
    char *pool = nullptr;
    PROBE_CHECK(cudaMalloc(&pool, slot * slots));
    probe_fill<<<4096, 256>>>((float *)pool, slot * slots / 4);
    float *out = nullptr;
    PROBE_CHECK(cudaMalloc(&out, (size_t)1 << 20));

    // Check: each order's partials add up to the identity order's total
    // (the same chunks, so the same sum to rounding).
    std::vector<float> host((size_t)1 << 16);
    std::vector<double> totals(schemes.size());
    for (size_t i = 0; i < schemes.size(); ++i) {
        const Scheme &s = schemes[i];
        launch(s, (const float4 *)pool, out);
        PROBE_CHECK(cudaDeviceSynchronize());
        const size_t nb = ((size_t)1 << s.map.log2n) + s.taper;
        PROBE_CHECK(cudaMemcpy(host.data(), out, nb * sizeof(float), cudaMemcpyDeviceToHost));
        double t = 0;
        for (size_t b = 0; b < nb; ++b)
            t += host[b];
        totals[i] = t;
    }
    for (size_t i = 0; i < schemes.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            const Scheme &a = schemes[i], &b = schemes[j];
            if (a.u == b.u && a.pitch == b.pitch && a.bytes == b.bytes &&
                fabs(totals[i] - totals[j]) > 1e-6 * fabs(totals[j])) {
                fprintf(stderr, "order_probe: %s sums to %.6f, %s to %.6f\n", a.name, totals[i],
                        b.name, totals[j]);
                return 1;
            }
        }
    }
    printf("check: every order's partials add up to its identity order's total\n");

    std::vector<std::vector<float>> us(schemes.size());
    for (int p = 0; p < passes; ++p) {
        for (size_t k = 0; k < schemes.size(); ++k) {
            const size_t i = (k + (size_t)p) % schemes.size();
            const Scheme &s = schemes[i];
            us[i].push_back(probe_median_us(reps, [&](int call) {
                launch(s, (const float4 *)(pool + (size_t)(call % slots) * slot), out);
            }));
        }
    }
    PROBE_CHECK(cudaGetLastError());
    printf("%-26s %8s  %s\n", "scheme", "GB/s", "us per pass (median of each pass's calls)");
    for (size_t i = 0; i < schemes.size(); ++i) {
        std::vector<float> v = us[i];
        std::sort(v.begin(), v.end());
        printf("%-26s %8.1f ", schemes[i].name, schemes[i].bytes / (v[v.size() / 2] * 1e3));
        for (float t : us[i])
            printf(" %8.2f", t);
        printf("\n");
    }
    return 0;
}
