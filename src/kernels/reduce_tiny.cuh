/*
 * The TINY kernel (RT__KERNEL_TINY): one block of whole warps reduces one
 * contiguous run of at most a few thousand elements to one output -- the
 * full reduction of a small tensor, the latency end of the suite.
 *
 * The general kernel runs these correctly, but it carries every path of
 * DESIGN.md section 6 (offset calculators, strided and nd paths, the block
 * split, the output tiles): reduce_kernel<SumOp<float>, 1> is 4384 SASS
 * instructions, CUB's single-tile kernel 944-1096, and a 256-element sum
 * took 4.0-4.2 us of GPU time against CUB's 3.0-3.2 with about as many
 * instructions executed (H100, ncu, bench/NOTES.md v1.10). Its ~900-byte
 * argument block also costs host time per launch. This kernel has one
 * path and a ~72-byte argument block (rt__tiny_args):
 *  - thread t reads scalar t of the unaligned head and of the tail (each
 *    shorter than one vector, and a block has at least 32 threads), then
 *    aligned vectors t, t + T, ... of Op::input_vec elements, up to
 *    Op::loads_in_flight of them loaded before any fold;
 *  - a shuffle tree in one warp, or the general kernel's warps_reduce
 *    (a tree per warp, their states through shared memory, a tree over
 *    them in warp 0);
 *  - thread 0 finishes the output as the general kernel does
 *    (finish_output: split pieces, indices, projection).
 * The config (tuned_tiny.c) sizes the block so that one batch of loads
 * covers the run where it can.
 *
 * Included by the reduce_<family>.cu files after reduce_body.cuh.
 */
#ifndef RT_KERNELS_REDUCE_TINY_CUH
#define RT_KERNELS_REDUCE_TINY_CUH

#include "reduce_body.cuh"

namespace rt {

template <typename Op> struct TinyReducer {
    using S = typename Op::scalar_t;
    using A = typename Op::acc_t;

    const rt__tiny_args &a;
    Op op;

    __device__ explicit TinyReducer(const rt__tiny_args &args) : a(args), op(args) {}

    /* This thread's share of the run, folded into one state. */
    __device__ A thread_reduce() const {
        constexpr int V = Op::input_vec;
        constexpr int K = V < Op::vt0 ? V : Op::vt0;
        constexpr int L = loads_in_flight<Op>();
        using Load = Packed<S, V>;
        const S *data = reinterpret_cast<const S *>(a.in);
        const uint32_t n = a.num_inputs, t = threadIdx.x, nt = blockDim.x;
        const uint32_t head = vector_head<V>(data, n);
        const uint32_t nvec = (n - head) / V, tail = head + nvec * V;

        A acc[K];
#pragma unroll
        for (int i = 0; i < K; i++)
            acc[i] = op.ident();
        /* head < V and n - tail < V, both below the 32 threads a block has
           at least: one scalar of each per thread. */
        if (t < head)
            acc[0] = op.reduce(acc[0], data[t], t);
        if (tail + t < n)
            acc[0] = op.reduce(acc[0], data[tail + t], tail + t);

        const Load *vec = reinterpret_cast<const Load *>(data + head);
        for (uint32_t j = t; j < nvec; j += L * nt) {
            Load v[L];
#pragma unroll
            for (int l = 0; l < L; l++)
                if (j + l * nt < nvec)
                    v[l] = load_stream(&vec[j + l * nt]);
#pragma unroll
            for (int l = 0; l < L; l++)
                if (j + l * nt < nvec)
                    fold_vector(op, acc, v[l], head + (j + l * nt) * V, l);
        }
#pragma unroll
        for (int i = 1; i < K; i++)
            acc[0] = op.combine(acc[0], acc[i]);
        return acc[0];
    }

    __device__ void run() const {
        __shared__ __align__(16) char smem[RT__TINY_MAX_THREADS / 32 * sizeof(Vec<A, 1>)];
        Vec<A, 1> v;
        v.v[0] = thread_reduce();
        /* One warp: shuffles alone, no barrier. */
        if (blockDim.x == 32)
            v = warp_reduce(op, v, threadIdx.x, 32, 0xffffffffu);
        else
            v = warps_reduce(op, v, threadIdx.x, blockDim.x, smem, 0);
        if (threadIdx.x == 0) {
            const int32_t at_base[4] = {0, 0, 0, 0}; /* one output: the operands' bases */
            finish_output(op, v.v[0], a, at_base);
        }
    }
};

template <typename Op>
__global__ void __launch_bounds__(RT__TINY_MAX_THREADS)
    tiny_kernel(const __grid_constant__ rt__tiny_args a) {
    TinyReducer<Op>(a).run();
}

/* One block of c->block[0] threads; cudaErrorInvalidValue for a block the
   kernel cannot run (not whole warps, or over its launch bound). */
template <typename Op>
cudaError_t launch_tiny(const rt__tiny_args *a, const rt__launch_config *c, cudaStream_t stream,
                        int device) {
    const int threads = c->block[0];
    if (threads < 32 || threads > RT__TINY_MAX_THREADS || threads % 32 != 0)
        return cudaErrorInvalidValue;
    void *params[] = {const_cast<rt__tiny_args *>(a)};
    return launch_fast<tiny_kernel<Op>>(dim3(1, 1, 1), dim3((unsigned)threads, 1, 1), 0, stream,
                                        params, device);
}

} // namespace rt

/* The TINY launch of one (family, dtype) row of RT__FOR_EACH_KERNEL; the
   including file defines RT__OP_<FAM>(T). */
#define RT__DEFINE_TINY_ENTRY(fam, FAM, sfx, DT)                                                   \
    extern "C" const rt__tiny_launch_fn rt__tiny_##fam##_##sfx =                                   \
        rt::launch_tiny<RT__OP_##FAM(RT__CTYPE_##sfx)>;

#endif /* RT_KERNELS_REDUCE_TINY_CUH */
