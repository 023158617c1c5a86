// stream_probe: the library's STREAM kernel (src/kernels/reduce_tiny.cuh)
// on the f64 full sum of 2^26 elements under several chunk sizes, fold
// protocols (the grid's last block polling a count, or slots) and
// register bounds, beside the same kernel's f32 sum of the same bytes and
// a one-shot read of them that folds nothing (the read rate's bound).
//
//   stream_probe [--reps N] [--passes P]
//
// Four 512 MiB slots rotate (far over L2); an event pair around each call,
// the median of N calls; P passes, the arms in a rotated order each pass.
// Every arm's result is checked against a host sum of its slot.
#define kProbeName "stream_probe"
#include "probe.cuh"

#include "reduce_tiny.cuh"

namespace {

// The library's f64 sum with its register bound (min_blocks) and the STREAM
// kernel's loads in flight a thread as knobs: SumOp<double> is 2 and 4
// (2 until v1.45).
template <int MinBlocks, int InFlight> struct F64Sum : rt::SumOp<double> {
    static constexpr int min_blocks = MinBlocks;
    static constexpr int loads_in_flight = InFlight;
    template <typename Args> __device__ explicit F64Sum(const Args &a) : rt::SumOp<double>(a) {}
};

} // namespace

// The STREAM kernel's loads a round are stream_loads_in_flight's; here the
// arm's InFlight.
#define STREAM_PROBE_LOADS(M, L)                                                                   \
    template <> __device__ constexpr int rt::stream_loads_in_flight<F64Sum<M, L>>() { return L; }
STREAM_PROBE_LOADS(2, 2)
STREAM_PROBE_LOADS(3, 2)
STREAM_PROBE_LOADS(4, 2)
STREAM_PROBE_LOADS(2, 4)
STREAM_PROBE_LOADS(2, 3)
STREAM_PROBE_LOADS(3, 3)

namespace {

enum Kind { F64_22, F64_32, F64_42, F64_24, F64_23, F64_33, F32 };

struct Arm {
    const char *name;
    Kind kind;
    int bytes_per_thread; // bytes each thread reads; negative: -(waves of 2 blocks a SM)
    bool slots;
};

const Arm kArms[] = {
    {"f64 256B count (v1.44)", F64_22, 256, false},
    {"f64 256B slots", F64_22, 256, true},
    {"f64 128B count", F64_22, 128, false},
    {"f64 128B slots", F64_22, 128, true},
    {"f64 64B count", F64_22, 64, false},
    {"f64 64B slots", F64_22, 64, true},
    {"f64 256B count, 3 blocks/SM", F64_32, 256, false},
    {"f64 256B slots, 3 blocks/SM", F64_32, 256, true},
    {"f64 64B slots, 3 blocks/SM", F64_32, 64, true},
    {"f64 256B count, 4 blocks/SM", F64_42, 256, false},
    {"f64 256B slots, 4 blocks/SM", F64_42, 256, true},
    {"f64 128B count, 4 blocks/SM", F64_42, 128, false},
    {"f64 128B slots, 4 blocks/SM", F64_42, 128, true},
    {"f64 64B count, 4 blocks/SM", F64_42, 64, false},
    {"f64 64B slots, 4 blocks/SM", F64_42, 64, true},
    {"f64 256B count, 4 loads (v1.45)", F64_24, 256, false},
    {"f64 512B count, 4 loads", F64_24, 512, false},
    {"f64 256B slots, 4 loads", F64_24, 256, true},
    {"f64 128B count, 4 loads", F64_24, 128, false},
    {"f64 128B slots, 4 loads", F64_24, 128, true},
    {"f64 384B count, 4 loads", F64_24, 384, false},
    {"f64 15 waves count, 4 loads", F64_24, -15, false},
    {"f64 16 waves count, 4 loads", F64_24, -16, false},
    {"f64 31 waves count, 4 loads", F64_24, -31, false},
    {"f64 192B count, 3 loads", F64_23, 192, false},
    {"f64 288B count, 3 loads", F64_23, 288, false},
    {"f64 192B count, 3 loads 3 blocks/SM", F64_33, 192, false},
    {"f64 288B count, 3 loads 3 blocks/SM", F64_33, 288, false},
    {"f32 256B count (TUNED now)", F32, 256, false},
};
constexpr int kNumArms = sizeof kArms / sizeof kArms[0];

template <typename Op> void launch(const rt__tiny_args &a, unsigned blocks) {
    rt::stream_kernel<Op><<<blocks, RT__STREAM_THREADS>>>(a);
}

// The arms' kernels, by Kind.
using LaunchFn = void (*)(const rt__tiny_args &, unsigned);
const LaunchFn kLaunch[] = {launch<F64Sum<2, 2>>,    launch<F64Sum<3, 2>>, launch<F64Sum<4, 2>>,
                            launch<F64Sum<2, 4>>,    launch<F64Sum<2, 3>>, launch<F64Sum<3, 3>>,
                            launch<rt::SumOp<float>>};
static_assert(sizeof kLaunch / sizeof kLaunch[0] == F32 + 1, "a kernel for each Kind");

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    const int passes = probe_int_arg(argc, argv, "--passes", 4, 1);
    const cudaDeviceProp prop = probe_device();
    const size_t bytes = (size_t)512 << 20, n64 = bytes / 8;
    const int kSlots = 4;
    const ProbeF64Slots inputs = probe_f64_slots(kSlots, bytes);
    const std::vector<char *> &slot = inputs.slot;
    const std::vector<double> &ref64 = inputs.ref64, &ref32 = inputs.ref32;
    // Workspace: a partial a block, a count, slots for the largest grid.
    const int64_t max_blocks = (int64_t)(bytes / 64 / RT__STREAM_THREADS);
    char *staging;
    unsigned *sem;
    double *out;
    PROBE_CHECK(cudaMalloc(&staging, (size_t)max_blocks * 8));
    PROBE_CHECK(cudaMalloc(&sem, (size_t)(4 * max_blocks + 16) * sizeof(unsigned)));
    PROBE_CHECK(cudaMemset(sem, 0, (size_t)(4 * max_blocks + 16) * sizeof(unsigned)));
    PROBE_CHECK(cudaMalloc(&out, 8));
    float *one_shot_out;
    PROBE_CHECK(cudaMalloc(&one_shot_out, bytes / 2048 / 16 * sizeof(float) + 64));

    const int wave =
        prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / RT__STREAM_THREADS);
    std::vector<std::vector<float>> times(kNumArms + 1);
    bool all_ok = true;
    for (int p = 0; p < passes; ++p) {
        for (int k = 0; k <= kNumArms; ++k) {
            const int i = (k + p) % (kNumArms + 1);
            if (i == kNumArms) { // the one-shot read, no fold
                const size_t n4 = bytes / 16;
                times[i].push_back(probe_median_us(reps, [&](int r) {
                    probe_full_read(reinterpret_cast<const float4 *>(slot[r % kSlots]), n4,
                                    one_shot_out);
                }));
                continue;
            }
            const Arm &arm = kArms[i];
            const bool f32 = arm.kind == F32;
            const int64_t vec_bytes = f32 ? 16 : 32;
            const int64_t n = f32 ? (int64_t)(bytes / 4) : (int64_t)n64;
            const int64_t chunk =
                arm.bytes_per_thread > 0
                    ? RT__STREAM_THREADS * (arm.bytes_per_thread / vec_bytes)
                    : probe_div_up(n / 4, -arm.bytes_per_thread * 2 * prop.multiProcessorCount);
            const int64_t blocks = probe_div_up(n / 4, chunk);
            rt__tiny_args a;
            memset(&a, 0, sizeof a);
            a.out = reinterpret_cast<char *>(out);
            a.staging = staging;
            a.semaphores = sem;
            a.num_inputs = (uint32_t)n;
            a.chunk = (uint32_t)chunk;
            a.fold_last = blocks > wave;
            if (arm.slots) {
                const int64_t most_groups = prop.multiProcessorCount - 1;
                const int64_t pack = 2 * RT__STREAM_THREADS;
                a.slot_group =
                    (uint32_t)(probe_div_up(probe_div_up(blocks, most_groups), pack) * pack);
                a.slot_delay = (uint32_t)wave;
                a.staging = nullptr;
            }
            a.out_dtype = f32 ? RT_F32 : RT_F64;
            a.first = a.last = 1;
            auto run = [&](int r) {
                a.in = slot[r % kSlots];
                kLaunch[arm.kind](a, (unsigned)blocks);
            };
            times[i].push_back(probe_median_us(reps, run));
            PROBE_CHECK(cudaGetLastError());
            // The result of one more call on slot 0.
            run(0);
            double got = 0;
            if (f32) {
                float g;
                PROBE_CHECK(cudaMemcpy(&g, out, 4, cudaMemcpyDeviceToHost));
                got = g;
            } else {
                PROBE_CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
            }
            const double want = f32 ? ref32[0] : ref64[0];
            const double rel = fabs(got - want) / fabs(want);
            if (rel > (f32 ? 1e-5 : 1e-12)) {
                printf("  %s: result %.17g, host %.17g (rel %.3g) WRONG\n", arm.name, got, want,
                       rel);
                all_ok = false;
            }
        }
    }
    printf("f64/f32 full sum of 512 MiB, 4 slots rotated, median of %d a pass, %d passes (us)\n",
           reps, passes);
    for (int i = 0; i <= kNumArms; ++i) {
        const char *name = i == kNumArms ? "one-shot read 512x4 float4, no fold" : kArms[i].name;
        printf("  %-38s", name);
        for (float t : times[i])
            printf(" %8.2f", t);
        std::vector<float> s = times[i];
        std::sort(s.begin(), s.end());
        printf("   min %8.2f  GB/s %7.1f\n", s[0], bytes / (s[0] * 1e3));
    }
    printf("%s\n", all_ok ? "results ok" : "RESULTS WRONG");
    return all_ok ? 0 : 1;
}
