/*
 * The LEAN walk kernel (launch.h rt__walk_args says which plans are its
 * class, and why it exists): a block of whole warps reduces one output
 * over a uniform walk of whole units of the slowest reduced dim.
 *  - block o's output has two kept digits (one division); its slice sits
 *    at their dot product with the input strides, and thread (tx, ty)'s
 *    first vector at tx lin[0] + ty lin[1] bytes into it (the host's
 *    uniform walk: no digit carries between the terms);
 *  - every thread makes `count` loads, `step` bytes apart, with
 *    RT__LEAN_WALK_LOADS of them in flight: the first window issued at
 *    once, then each vector folded and its register loaded again with the
 *    vector a window on (nvcc 13.0 schedules this, sm_90, as the fold of
 *    the whole window and then its 16 loads: batches of 16);
 *  - each vector folds lane by lane into min(input_vec, vt0) states (the
 *    general kernel's fold_vector), the states fold into one, the block
 *    folds by warps (warps_reduce, in static shared memory), and thread 0
 *    writes the output as the general kernel's finish_output does for one
 *    piece (first and last, index base 0, no index output).
 * The walk visits exactly the vectors the general kernel's uniform walk
 * does (walk_fold_uniform at period 0), in another order: a sum's
 * rounding may differ from the general kernel's, as between any two
 * plans.
 *
 * Sums and means of f32 only (RT__FOR_EACH_WALK_KERNEL says why): the
 * fold ignores the reduced index, which this kernel does not track.
 */
#include "reduce_body.cuh"

namespace rt {

/* One block of at most 512 threads a SM: RT__LEAN_WALK_LOADS 16-byte
   vectors a thread are 64 registers of loads alone (f32: 79 registers,
   no spill; -Xptxas -v, sm_90, CUDA 13.0). */
template <typename Op>
__global__ void __launch_bounds__(512, 1) walk_kernel(const __grid_constant__ rt__walk_args a) {
    using S = typename Op::scalar_t;
    using A = typename Op::acc_t;
    constexpr int V = Op::input_vec;
    constexpr int K = V < Op::vt0 ? V : Op::vt0;
    constexpr int W = RT__LEAN_WALK_LOADS;
    using Load = Packed<S, V>;
    static_assert(sizeof(Load) == 16 && sizeof(A) == 4,
                  "the LEAN walk kernel is built for 16-byte vectors of 4-byte states");
    __shared__ __align__(16) A words[32];
    const Op op(a);

    uint32_t d0;
    const uint32_t d1 = div_mod(a.div0, blockIdx.x, d0);
    const char *p = a.in + (int32_t)(d0 * (uint32_t)a.in_strides[0] +
                                     d1 * (uint32_t)a.in_strides[1] +
                                     threadIdx.x * (uint32_t)a.lin[0] +
                                     threadIdx.y * (uint32_t)a.lin[1]);
    A acc[K];
#pragma unroll
    for (int i = 0; i < K; i++)
        acc[i] = op.ident();
    Load v[W];
#pragma unroll
    for (int l = 0; l < W; l++) {
        v[l] = load_stream(reinterpret_cast<const Load *>(p));
        p += a.step;
    }
#pragma unroll 1
    for (uint32_t b = a.count / W - 1; b > 0; b--) {
#pragma unroll
        for (int l = 0; l < W; l++) {
            fold_vector(op, acc, v[l], 0, l);
            v[l] = load_stream(reinterpret_cast<const Load *>(p));
            p += a.step;
        }
    }
#pragma unroll
    for (int l = 0; l < W; l++)
        fold_vector(op, acc, v[l], 0, l);
#pragma unroll
    for (int i = 1; i < K; i++)
        acc[0] = op.combine(acc[0], acc[i]);

    const uint32_t t = threadIdx.x + threadIdx.y * blockDim.x;
    Vec<A, 1> value;
    value.v[0] = acc[0];
    value = warps_reduce<Op, 1, true>(op, value, t, blockDim.x * blockDim.y,
                                      reinterpret_cast<char *>(words), 0);
    if (t == 0)
        op.write(a.out + (int32_t)(d0 * (uint32_t)a.out_strides[0] +
                                   d1 * (uint32_t)a.out_strides[1]),
                 nullptr, a.out_dtype, op.translate(value.v[0], 0));
}

/* The executor's launch of a general-kernel plan of the class: packs the
   small block from the general kernel's (so the plan memo, which keeps
   the general block, replays this launch alike) and launches a block of
   the config's shape an output. */
template <typename Op>
cudaError_t launch_walk(const rt__kernel_args *k, const rt__launch_config *c, size_t smem,
                        cudaStream_t stream, int device) {
    (void)smem; /* its shared memory is static */
    if (!rt__cuda_lean_walk_fits(c, k) || c->input_vec_size != Op::input_vec)
        return cudaErrorInvalidValue;
    rt__walk_args a;
    rt__cuda_pack_lean(k, &a);
    void *params[] = {&a};
    return launch_fast<walk_kernel<Op>>(dim3((unsigned)c->grid[0], 1, 1),
                                        dim3((unsigned)c->block[0], (unsigned)c->block[1], 1), 0,
                                        stream, params, device);
}

} // namespace rt

#define RT__OP_SUM(T) rt::SumOp<T>
#define RT__DEFINE_WALK_ENTRY(fam, FAM, sfx, DT)                                                   \
    extern "C" const rt__launch_fn rt__walk_##fam##_##sfx =                                        \
        rt::launch_walk<RT__OP_##FAM(RT__CTYPE_##sfx)>;
RT__FOR_EACH_WALK_KERNEL(RT__DEFINE_WALK_ENTRY)
