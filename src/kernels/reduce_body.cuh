/*
 * The reduction kernel body, PyTorch's ReduceOp::run (Reduce.cuh) split in
 * layers: thread_reduce (each thread folds its share of the inputs), then
 * block_y_reduce (warps, through shared memory), block_x_reduce (lanes,
 * through shuffles; shared memory above a warp), then global_reduce when
 * one output's inputs are spread over several blocks (grid.y).
 *
 * The work split is entirely the launch configuration's (src/config), read
 * from rt__kernel_args: input index = tx*input_mult[0] + ty*input_mult[1]
 * + by*input_mult[2] (stepping by step_input), output index =
 * (tx*output_mult[0] + ty*output_mult[1] + bx*step_output) * OVS.
 *
 * Included by the reduce_<family>.cu files only; each stamps out one
 * Reducer per (op, dtype) through RT__DEFINE_KERNEL_ENTRY.
 */
#ifndef RT_KERNELS_REDUCE_BODY_CUH
#define RT_KERNELS_REDUCE_BODY_CUH

#include "launch_fast.cuh"
#include "reduce_offsets.cuh"
#include "reduce_ops.cuh"

namespace rt {

static __device__ __forceinline__ uint32_t next_pow2(uint32_t v) {
    return v <= 1 ? 1 : 1u << (32 - __clz(v - 1));
}

/* Elements of data[0, n) before the first one aligned to a V-element
   vector (the scalar head of a vectorized row), at most n. */
template <int V, typename S>
static __device__ __forceinline__ uint32_t vector_head(const S *data, uint32_t n) {
    const uint32_t mis =
        (uint32_t)(reinterpret_cast<uintptr_t>(data) % (V * sizeof(S))) / sizeof(S);
    return mis == 0 ? 0 : min(n, (uint32_t)V - mis);
}

/* Vector loads the contiguous path keeps in flight per thread: each op's
   Op::loads_in_flight (reduce_ops.cuh says why per op). */
template <typename Op> static __device__ __host__ constexpr int loads_in_flight() {
    return Op::loads_in_flight;
}

/* Loads strided_reduce keeps in flight per thread on the 1-d strided
   path at one output a thread (OVS 1), folded in turn into its vt0
   states: Op::strided_loads where the op has one (reduce_ops.cuh says
   why), else vt0. Not on the n-d path (its offsets spilled). */
template <typename Op, typename = void> struct StridedLoads {
    static constexpr int value = Op::vt0;
};
template <typename Op> struct StridedLoads<Op, std::void_t<decltype(Op::strided_loads)>> {
    static constexpr int value = Op::strided_loads;
};

/* Whether Op folds a whole vector at once (Op::packed true, with
   reduce_packed(acc, Packed<S, V>)): any/all of integer inputs, and
   Welford's var/std. */
template <typename Op, typename = void> struct HasPackedReduce {
    static constexpr bool value = false;
};
template <typename Op> struct HasPackedReduce<Op, std::void_t<decltype(Op::packed)>> {
    static constexpr bool value = Op::packed;
};

/* Whether the general kernel of Op at OVS outputs a thread builds the
   pipelined strided and uniform-walk loops (pipeline_batches; the config's
   pipelined picks them at run time): Op::pipelined where the op has it,
   else off. The loops' second batch of loads costs registers in every
   launch of the kernel, so an op opts in where its registers stay within
   its blocks' occupancy (reduce_ops.cuh says which and why). */
template <typename Op, int OVS, typename = void> struct Pipelined {
    static constexpr bool value = false;
};
template <typename Op, int OVS>
struct Pipelined<Op, OVS, std::void_t<decltype(Op::pipelined)>> {
    static constexpr bool value = OVS > 1 && Op::pipelined;
};

/* An index-tracking op over a keyed piece (rt__index_map, launch.h): its
   states carry keys, the logical order's row-major index over the piece's
   reduced extents, so Base's tie rule (the lower index wins) holds in the
   logical order; translate() turns a key back into the logical index. */
template <typename Base> struct KeyedOp : Base {
    using typename Base::acc_t;
    using typename Base::scalar_t;
    static constexpr bool keyed = true;
    /* vt0 loads a step of the strided path: each load's key divides
       every reduced digit, and Base's strided_loads spilled 8 more bytes
       in the f32 keyed kernel (-Xptxas -v, sm_90). */
    static constexpr int strided_loads = Base::vt0;
    const rt__kernel_args *args;
    const rt__index_map *map;

    __device__ KeyedOp(const rt__kernel_args &a, const rt__index_map &m)
        : Base(a), args(&a), map(&m) {}
    /* The key of linear reduced index r: one division a reduced dim. */
    __device__ uint32_t key(uint32_t r) const {
        uint32_t k = 0;
#pragma unroll
        for (int d = 0; d < RT_MAX_DIMS; d++) {
            if (d == args->in_ndim)
                break;
            uint32_t mod;
            r = div_mod(args->in_sizes[d], r, mod);
            k += mod * map->key_weight[d];
        }
        return k;
    }
    /* What a step along reduced dim 0 adds to a key (a vector's elements
       lie along it). */
    __device__ uint32_t key_step() const { return map->key_weight[0]; }
    __device__ acc_t reduce(acc_t acc, scalar_t x, uint32_t r) const {
        return Base::reduce(acc, x, key(r));
    }
    __device__ acc_t reduce_key(acc_t acc, scalar_t x, uint32_t k) const {
        return Base::reduce(acc, x, k);
    }
    __device__ auto translate(acc_t s, int64_t base) const {
        auto out = Base::translate(s, base);
        if (s.index != UINT32_MAX) {
            int64_t index = base;
            for (int d = 0; d < args->in_ndim; d++)
                index += (int64_t)((s.index / map->key_weight[d]) % args->in_sizes[d].divisor) *
                         map->weight[d];
            out.index = index;
        }
        return out;
    }
};

template <typename Op, typename = void> struct IsKeyed {
    static constexpr bool value = false;
};
template <typename Op> struct IsKeyed<Op, std::void_t<decltype(Op::keyed)>> {
    static constexpr bool value = Op::keyed;
};

/* Folds one vector whose first element is reduced index `first` into the
   K lane states: element i into state i % K, or the whole vector at once
   into state slot % K where the op can (Op::reduce_packed, see
   HasPackedReduce; the vectors of one batch of loads take different
   states, so their folds do not wait on each other). */
template <typename Op, int K, int V>
static __device__ __forceinline__ void fold_vector(const Op &op, typename Op::acc_t (&acc)[K],
                                                   const Packed<typename Op::scalar_t, V> &v,
                                                   uint32_t first, int slot) {
    if constexpr (HasPackedReduce<Op>::value) {
        acc[slot % K] = op.reduce_packed(acc[slot % K], v);
    } else if constexpr (IsKeyed<Op>::value) {
        /* A vector lies along reduced dim 0 (vectorized_reduce): one key
           calculation a vector. */
        const uint32_t k = op.key(first), step = op.key_step();
#pragma unroll
        for (int i = 0; i < V; i++)
            acc[i % K] = op.reduce_key(acc[i % K], v.v[i], k + (uint32_t)i * step);
    } else {
#pragma unroll
        for (int i = 0; i < V; i++)
            acc[i % K] = op.reduce(acc[i % K], v.v[i], first + i);
    }
}

/* Shuffles lanes [0, n) of a warp into lane 0 (pairwise tree; lanes at or
   past n never contribute), OVS states at once. */
template <typename Op, int OVS>
static __device__ __forceinline__ Vec<typename Op::acc_t, OVS>
warp_reduce(const Op &op, Vec<typename Op::acc_t, OVS> value, uint32_t lane, uint32_t n,
            unsigned mask) {
    for (uint32_t off = 1; off < n; off <<= 1) {
#pragma unroll
        for (int j = 0; j < OVS; j++) {
            typename Op::acc_t other = op.shfl(value.v[j], (int)off, mask);
            if (lane + off < n)
                value.v[j] = op.combine(value.v[j], other);
        }
    }
    return value;
}

/* OVS identity states. */
template <typename Op, int OVS>
static __device__ __forceinline__ Vec<typename Op::acc_t, OVS> ident_states(const Op &op) {
    Vec<typename Op::acc_t, OVS> r;
#pragma unroll
    for (int j = 0; j < OVS; j++)
        r.v[j] = op.ident();
    return r;
}

/* Across the dim_x lanes (whole warps, dim_x a multiple of 32) of row
   `row`, this thread being lane tx: each warp by shuffles, then the row's
   first warp shuffles the warps' states, which it reads from the row's
   dim_x / 32 slots of smem (rows one after another). The result is in the
   row's lane 0. Two barriers whatever the width (a shared-memory tree
   took one per halving above 32 lanes); the first lets an earlier phase
   finish reading smem, so a block's first use of smem (Fresh: the ROWS
   block kernels, a STREAM or TINY block's own chunk) does without it.
   (The ternary below takes the identity as a value: a named one made the
   kernels' code differ, nvcc 13.0.) */
template <typename Op, int OVS, bool Fresh = false>
static __device__ __forceinline__ Vec<typename Op::acc_t, OVS>
warps_reduce(const Op &op, Vec<typename Op::acc_t, OVS> value, uint32_t tx, uint32_t dim_x,
             char *smem, uint32_t row) {
    const uint32_t lane = tx & 31u, warp = tx >> 5, nw = dim_x >> 5;
    value = warp_reduce(op, value, lane, 32, 0xffffffffu);
    auto *shared = reinterpret_cast<Vec<typename Op::acc_t, OVS> *>(smem) + row * nw;
    if constexpr (!Fresh)
        __syncthreads();
    if (lane == 0)
        shared[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < nw ? shared[lane] : ident_states<Op, OVS>(op);
        value = warp_reduce(op, value, lane, nw, 0xffffffffu);
    }
    return value;
}

/* The last step for one output: shift the state's index by the piece's
   base, merge the state the pieces before this one left in ACC (a.first
   false), then project and write the output (a.last) or leave the state
   in ACC for the pieces after it. off holds the output's byte offsets from
   each operand's base (RT__OUT_SLOT_*); a is rt__kernel_args or
   rt__tiny_args, whose fields of the same names mean the same. */
template <typename Op, typename Args>
static __device__ __forceinline__ void finish_output(const Op &op, typename Op::acc_t value,
                                                     const Args &a, const int32_t (&off)[4]) {
    OutState<Op> v = op.translate(value, a.index_base);
    auto *acc = reinterpret_cast<OutState<Op> *>(a.acc + off[RT__OUT_SLOT_ACC]);
    if (!a.first)
        v = op.combine(*acc, v);
    if (a.last)
        op.write(a.out + off[RT__OUT_SLOT_OUT], a.idx + off[RT__OUT_SLOT_IDX], a.out_dtype, v);
    else
        *acc = v;
}

/* nb batches of L loads each, software-pipelined: batch b + 1's loads
   go out before batch b is folded, so a thread has 2L loads in flight at
   the peak and L at the least, where batch by batch every load of the
   next batch waited while the thread folded (a.pipelined). load(v) reads
   the next batch into v, fold(v) folds it; the folds run in batch order,
   so the result is the batches' bit for bit. Unrolled by two so that the
   two buffers take turns without copies. */
template <int L, typename Load, typename LoadBatch, typename FoldBatch>
static __device__ __forceinline__ void pipeline_batches(uint32_t nb, LoadBatch load,
                                                        FoldBatch fold) {
    if (nb == 0)
        return;
    Load v[L], w[L];
    load(v);
    nb--;
#pragma unroll 1
    for (; nb >= 2; nb -= 2) {
        load(w);
        fold(v);
        load(v);
        fold(w);
    }
    if (nb != 0) {
        load(w);
        fold(v);
        fold(w);
    } else {
        fold(v);
    }
}

template <typename Op, int OVS> struct Reducer {
    using S = typename Op::scalar_t;
    using A = typename Op::acc_t;
    using AV = Vec<A, OVS>;

    const rt__kernel_args &a;
    Op op;

    __device__ explicit Reducer(const rt__kernel_args &args) : a(args), op(args) {}
    __device__ Reducer(const rt__kernel_args &args, const Op &o) : a(args), op(o) {}

    /* PyTorch's should_block_x_reduce and friends. */
    __device__ bool splits_x() const { return a.input_mult[0] != 0; }
    __device__ bool splits_y() const { return a.input_mult[1] != 0; }
    __device__ bool splits_grid() const { return a.input_mult[2] != 0; }

    /* End (exclusive) of the reduced indices [0, n) this block reads. A
       chunked block split (a.input_chunked) gives block y of a tile the
       contiguous run [y * input_mult[2], (y + 1) * input_mult[2]), its
       threads stepping by the block's own step; PyTorch's interleaved
       split, or none, leaves every block the whole range. */
    __device__ uint32_t input_end(uint32_t n) const {
        if (!a.input_chunked)
            return n;
        const uint64_t e = ((uint64_t)blockIdx.y + 1) * (uint32_t)a.input_mult[2];
        return e < n ? (uint32_t)e : n;
    }

    __device__ uint32_t input_idx() const {
        return threadIdx.x * (uint32_t)a.input_mult[0] + threadIdx.y * (uint32_t)a.input_mult[1] +
               blockIdx.y * (uint32_t)a.input_mult[2];
    }
    __device__ uint32_t output_idx() const {
        return (threadIdx.x * (uint32_t)a.output_mult[0] +
                threadIdx.y * (uint32_t)a.output_mult[1] + blockIdx.x * (uint32_t)a.step_output) *
               OVS;
    }
    /* The one thread that holds an output's reduced value stores it. */
    __device__ bool should_store(uint32_t o) const {
        return o < a.num_outputs && (!splits_x() || threadIdx.x == 0) &&
               (!splits_y() || threadIdx.y == 0);
    }
    /* The unaligned head and tail of a vectorized row are read once, by the
       row's first warp row and first block. */
    __device__ bool owns_row_ends() const {
        return (threadIdx.y == 0 || !splits_y()) && (blockIdx.y == 0 || !splits_grid());
    }

    __device__ AV ident_vec() const { return ident_states<Op, OVS>(op); }

    /* ---- thread_reduce ---------------------------------------------------- */

    /* Folds vectors idx, idx + step, ... (below nvec, and below this
       block's chunk end in a chunked split: input_end) into the K lane
       states, Op's loads_in_flight of them per iteration (independent loads
       before any fold); vector j holds reduced elements first + j*V ..
       first + j*V + V-1 and load(j) reads it. Element i of a vector feeds
       state i % K (K = min(input_vec, vt0) lockstep states), so 16
       one-byte elements per load cost 4 states, not 16, and Welford's
       16-byte states stay at vt0 = 2. */
    template <int K, typename LoadAt>
    __device__ void fold_vectors(A (&acc)[K], uint32_t nvec, uint32_t first, LoadAt load) const {
        constexpr int V = Op::input_vec;
        constexpr int L = loads_in_flight<Op>();
        using Load = Packed<S, V>;
        const uint32_t step = a.step_input;
        uint32_t idx = input_idx();
        const uint32_t end = input_end(nvec);
        while ((uint64_t)idx + (uint64_t)(L - 1) * step < end) {
            Load v[L];
#pragma unroll
            for (int l = 0; l < L; l++)
                v[l] = load(idx + l * step);
#pragma unroll
            for (int l = 0; l < L; l++)
                fold_vector(op, acc, v[l], first + (idx + l * step) * V, l);
            idx += L * step;
        }
        /* Fewer than L vectors left: two at once while two remain, then
           one (loading them all first, guarded, spilled 8 to 84 bytes in
           most ops under 32 registers; two unguarded loads fit in what the
           main loop already holds). */
        if constexpr (L >= 4) {
            if ((uint64_t)idx + step < end) {
                const Load v0 = load(idx), v1 = load(idx + step);
                fold_vector(op, acc, v0, first + idx * V, 0);
                fold_vector(op, acc, v1, first + (idx + step) * V, 1);
                idx += 2 * step;
            }
        }
        for (; idx < end; idx += step)
            fold_vector(op, acc, load(idx), first + idx * V, 0);
    }

    /* ---- walks (a.walk, the host's rt__cuda_pack_walk) -------------------- */

    /* Where a thread is on its walk over reduced indices idx, idx + step,
       ...: the address of the current index's element and that index's
       digit of reduced dim a.walk_dim, the walk's digit 0 (in units of
       that dim). */
    struct Walker {
        const char *p;
        uint32_t d0;
    };

    /* Reduced index r (in elements), with one offset calculation. */
    __device__ Walker walk_at(const char *slice, uint32_t r) const {
        uint32_t d0;
        const int32_t off = input_offset_walk(a, r, d0);
        return Walker{slice + off, d0};
    }

    /* One block step on: walk_step bytes and walk_digit units of digit
       0, and walk_carry bytes where digit 0 wraps (into the slowest
       reduced dim; digit 0 is the second slowest, a.walk_dim). WRAPS
       false: a step of whole units of the slowest dim, which leaves digit
       0 where it is. */
    template <bool WRAPS> __device__ void walk_on(Walker &w) const {
        w.p += a.walk_step;
        if constexpr (WRAPS) {
            const uint32_t s0 = a.walk_extent;
            w.d0 += a.walk_digit;
            if (w.d0 >= s0) {
                w.d0 -= s0;
                w.p += a.walk_carry;
            }
        }
    }

    /* A thread's indices idx, idx + step, ... below end (units of U
       elements: vectors, or single elements), read as Loads along the walk
       L at a time, then fold(l, load, first element's index) each: one
       offset calculation a thread, then an add a load (and a compare where
       digit 0 moves: WRAPS), where the offset calculators divide every
       digit of every index. Whole units of the slowest dim take the walk
       without the compare: H200, bf16 d024 (8-wide vectors) read 37.4-37.6
       us with it, as without a walk, and 36.2-36.5 without. */
    template <int L, int U, typename Load, typename Fold>
    __device__ void walk_fold(const char *slice, Fold fold) const {
        if (a.walk_count % L == 0 && a.walk_period % L == 0 && a.walk_count != 0)
            walk_fold_uniform<L, U, Load>(slice, fold);
        else if (a.walk_digit != 0)
            walk_fold_on<true, L, U, Load>(slice, fold);
        else
            walk_fold_on<false, L, U, Load>(slice, fold);
    }

    /* A uniform walk (a.walk_count, rt__cuda_pack_walk) whose count and
       period are whole batches of L: the start from the host's linear
       terms, walk_count / L batches of L loads, no remainder, and digit
       0's wraps (walk_carry) between batches, every walk_period / L of
       them, by a count all threads share. */
    template <int L, int U, typename Load, typename Fold>
    __device__ void walk_fold_uniform(const char *slice, Fold fold) const {
        const uint32_t step = a.step_input, period = a.walk_period / L;
        const char *p = slice + (int32_t)(threadIdx.x * (uint32_t)a.walk_lin[0] +
                                          threadIdx.y * (uint32_t)a.walk_lin[1] +
                                          blockIdx.y * (uint32_t)a.walk_lin[2]);
        uint32_t first = input_idx() * U; /* reduced index of p's element */
        uint32_t left = period;           /* batches before digit 0 wraps */
        if (Pipelined<Op, OVS>::value && a.pipelined) {
            pipeline_batches<L, Load>(
                a.walk_count / L,
                [&](Load(&v)[L]) {
#pragma unroll
                    for (int l = 0; l < L; l++) {
                        v[l] = load_stream(reinterpret_cast<const Load *>(p));
                        p += a.walk_step;
                    }
                    if (period != 0 && --left == 0) {
                        p += a.walk_carry;
                        left = period;
                    }
                },
                [&](const Load(&v)[L]) {
#pragma unroll
                    for (int l = 0; l < L; l++)
                        fold(l, v[l], first + l * step * U);
                    first += L * step * U;
                });
            return;
        }
#pragma unroll 1
        for (uint32_t b = a.walk_count / L; b > 0; b--) {
            Load v[L];
#pragma unroll
            for (int l = 0; l < L; l++) {
                v[l] = load_stream(reinterpret_cast<const Load *>(p));
                p += a.walk_step;
            }
            if (period != 0 && --left == 0) {
                p += a.walk_carry;
                left = period;
            }
#pragma unroll
            for (int l = 0; l < L; l++)
                fold(l, v[l], first + l * step * U);
            first += L * step * U;
        }
    }

    template <bool WRAPS, int L, int U, typename Load, typename Fold>
    __device__ void walk_fold_on(const char *slice, Fold fold) const {
        const uint32_t step = a.step_input;
        const uint32_t idx = input_idx();
        const uint32_t end = input_end(a.num_inputs / U);
        if (idx >= end)
            return;
        /* Loads this thread makes, by the host's divider of the step: a
           division took ~20 more instructions a thread before its first
           load, and those of a wave's start are not hidden (H100: d024
           91.14-91.28 -> 91.06-91.10 us with walk_at's one pass of
           divisions, bench/NOTES.md v1.22). */
        uint32_t n = div_q(a.step_div, end - 1 - idx) + 1;
        Walker w = walk_at(slice, idx * U);
        uint32_t first = idx * U; /* reduced index of w's element */
        /* Not unrolled: a counted loop unrolls 4 deep, with 4 batches of
           loads live (f64 sums 44 -> 64 registers, f32 sums spilled). */
#pragma unroll 1
        for (; n >= L; n -= L) {
            Load v[L];
#pragma unroll
            for (int l = 0; l < L; l++) {
                v[l] = load_stream(reinterpret_cast<const Load *>(w.p));
                walk_on<WRAPS>(w);
            }
#pragma unroll
            for (int l = 0; l < L; l++)
                fold(l, v[l], first + l * step * U);
            first += L * step * U;
        }
#pragma unroll 1
        for (; n > 0; n--) {
            fold(0, load_stream(reinterpret_cast<const Load *>(w.p)), first);
            walk_on<WRAPS>(w);
            first += step * U;
        }
    }

    /* vectorize_input: the contiguous fastest reduced dim read in aligned
       vectors of input_vec elements (fold_vectors). With one reduced dim
       (a row at the slice), an unaligned head and the tail are read as
       scalars by the row's first warp row and block. With several, the
       config guarantees that no vector straddles a row of that dim: its
       extent in bytes, the slice and every other stride are multiples of
       RT__ND_VEC_BYTES, so vector j sits at input_offset(j*V) and there is
       no head or tail. */
    __device__ A vectorized_reduce(const char *slice) const {
        constexpr int V = Op::input_vec;
        constexpr int K = V < Op::vt0 ? V : Op::vt0;
        using Load = Packed<S, V>;
        A acc[K];
#pragma unroll
        for (int i = 0; i < K; i++)
            acc[i] = op.ident();

        if (a.in_ndim == 1) {
            const S *data = reinterpret_cast<const S *>(slice);
            const uint32_t end = a.num_inputs;
            const uint32_t head = vector_head<V>(data, end);
            if (head > 0 && owns_row_ends())
                for (uint32_t i = threadIdx.x; i < head; i += blockDim.x)
                    acc[0] = op.reduce(acc[0], data[i], i);
            const Load *vec = reinterpret_cast<const Load *>(data + head);
            const uint32_t n = end - head, nvec = n / V;
            /* The scalar tail before the vectors, so that nothing but the
               loop's own bound stays live through it (the tail after it
               held one more register, and f32 argmax spilled at its 32). */
            if (owns_row_ends())
                for (uint32_t i = nvec * V + threadIdx.x; i < n; i += blockDim.x)
                    acc[0] = op.reduce(acc[0], data[head + i], head + i);
            fold_vectors(acc, nvec, head, [vec](uint32_t j) { return load_stream(&vec[j]); });
        } else {
            static_assert(sizeof(Load) <= RT__ND_VEC_BYTES && RT__ND_VEC_BYTES % sizeof(Load) == 0,
                          "the config's nd-vector rule must cover this op's vector");
            if (a.walk)
                walk_fold<loads_in_flight<Op>(), V, Load>(
                    slice, [&](int l, const Load &v, uint32_t first) {
                        fold_vector(op, acc, v, first, l);
                    });
            else
                fold_vectors(acc, a.num_inputs / V, 0, [this, slice](uint32_t j) {
                    return load_stream(
                        reinterpret_cast<const Load *>(slice + input_offset(a, j * V)));
                });
        }

#pragma unroll
        for (int i = 1; i < K; i++)
            acc[0] = op.combine(acc[0], acc[i]);
        return acc[0];
    }

    /* Every other layout: vt0 independent accumulators, each step loading
       OVS adjacent outputs' elements at once; calc(r) is the byte offset of
       reduced index r from the slice. PIPE: the pipelined loop is built
       (the 1-d paths); not on the n-d offsets' path, where a second batch
       of offsets took the f32 kernel at 4 outputs to 68 registers (64
       without; one block of 512 a SM above 64), as the counted walk did. */
    template <int L, bool PIPE, typename Calc>
    __device__ AV strided_reduce(const char *slice, Calc calc) const {
        constexpr int VT = Op::vt0;
        /* L >= VT loads a step, load i folded into state i % VT. */
        static_assert(L >= VT, "strided loads: at least one a state");
        using Load = Packed<S, OVS>;
        const uint32_t end = input_end(a.num_inputs), step = a.step_input;
        uint32_t idx = input_idx();
        AV acc[VT];
#pragma unroll
        for (int i = 0; i < VT; i++)
            acc[i] = ident_vec();

        if (PIPE && Pipelined<Op, OVS>::value && a.pipelined) {
            /* Whole batches of L below end: n loads, n / L batches. */
            const uint32_t n = idx < end ? div_q(a.step_div, end - 1 - idx) + 1 : 0;
            uint32_t li = idx, fi = idx; /* the next batch to load, to fold */
            pipeline_batches<L, Load>(
                n / L,
                [&](Load(&v)[L]) {
#pragma unroll
                    for (int i = 0; i < L; i++)
                        v[i] = load_stream(
                            reinterpret_cast<const Load *>(slice + calc(li + i * step)));
                    li += L * step;
                },
                [&](const Load(&v)[L]) {
#pragma unroll
                    for (int i = 0; i < L; i++)
#pragma unroll
                        for (int j = 0; j < OVS; j++)
                            acc[i % VT].v[j] = op.reduce(acc[i % VT].v[j], v[i].v[j], fi + i * step);
                    fi += L * step;
                });
            idx = li;
        }
        Load v[L];
        while ((uint64_t)idx + (uint64_t)(L - 1) * step < end) {
#pragma unroll
            for (int i = 0; i < L; i++)
                v[i] =
                    load_stream(reinterpret_cast<const Load *>(slice + calc(idx + i * step)));
#pragma unroll
            for (int i = 0; i < L; i++)
#pragma unroll
                for (int j = 0; j < OVS; j++)
                    acc[i % VT].v[j] = op.reduce(acc[i % VT].v[j], v[i].v[j], idx + i * step);
            idx += L * step;
        }
        /* Tail: fewer than L steps left; loads first, then the folds. */
#pragma unroll
        for (int i = 0; i < L; i++)
            if ((uint64_t)idx + (uint64_t)i * step < end)
                v[i] =
                    load_stream(reinterpret_cast<const Load *>(slice + calc(idx + i * step)));
#pragma unroll
        for (int i = 0; i < L; i++)
            if ((uint64_t)idx + (uint64_t)i * step < end)
#pragma unroll
                for (int j = 0; j < OVS; j++)
                    acc[i % VT].v[j] = op.reduce(acc[i % VT].v[j], v[i].v[j], idx + i * step);

#pragma unroll
        for (int i = 1; i < VT; i++)
#pragma unroll
            for (int j = 0; j < OVS; j++)
                acc[0].v[j] = op.combine(acc[0].v[j], acc[i].v[j]);
        return acc[0];
    }

    __device__ AV thread_reduce(const char *slice) const {
        if constexpr (OVS == 1) {
            if (a.vectorize_input) {
                AV r;
                r.v[0] = vectorized_reduce(slice);
                return r;
            }
        }
        if (a.walk) {
            constexpr int VT = Op::vt0;
            using Load = Packed<S, OVS>;
            AV acc[VT];
#pragma unroll
            for (int i = 0; i < VT; i++)
                acc[i] = ident_vec();
            walk_fold<VT, 1, Load>(slice, [&](int i, const Load &v, uint32_t r) {
#pragma unroll
                for (int j = 0; j < OVS; j++)
                    acc[i].v[j] = op.reduce(acc[i].v[j], v.v[j], r);
            });
#pragma unroll
            for (int i = 1; i < VT; i++)
                combine_into(acc[0], acc[i]);
            return acc[0];
        }
        if (a.in_ndim == 1) {
            const int32_t st = a.in_strides[0];
            constexpr int L = OVS == 1 ? StridedLoads<Op>::value : Op::vt0;
            if (st == (int32_t)sizeof(S))
                return strided_reduce<L, true>(slice, [](uint32_t r) { return (int32_t)(r * (uint32_t)sizeof(S)); });
            return strided_reduce<L, true>(slice, [st](uint32_t r) { return (int32_t)r * st; });
        }
        return strided_reduce<Op::vt0, false>(slice, [this](uint32_t r) { return input_offset(a, r); });
    }

    /* ---- block reductions -------------------------------------------------- */

    __device__ void combine_into(AV &x, const AV &y) const {
#pragma unroll
        for (int j = 0; j < OVS; j++)
            x.v[j] = op.combine(x.v[j], y.v[j]);
    }

    /* Across threadIdx.y, a tree in shared memory; the result is in the
       threads with threadIdx.y == 0. Any blockDim.y. */
    __device__ AV block_y_reduce(AV value, char *smem) const {
        AV *shared = reinterpret_cast<AV *>(smem);
        const uint32_t bx = blockDim.x, by = blockDim.y;
        const uint32_t self = threadIdx.x + threadIdx.y * bx;
        __syncthreads(); /* an earlier phase may still read smem */
        shared[self] = value;
        for (uint32_t off = next_pow2(by) / 2; off > 0; off >>= 1) {
            __syncthreads();
            if (threadIdx.y < off && threadIdx.y + off < by) {
                combine_into(value, shared[self + off * bx]);
                shared[self] = value;
            }
        }
        return value;
    }

    /* Lanes of this thread's warp that exist (the last warp of a block may
       be partial). */
    __device__ unsigned warp_mask() const {
        const uint32_t nthreads = blockDim.x * blockDim.y;
        const uint32_t base = (threadIdx.x + threadIdx.y * blockDim.x) & ~31u;
        const uint32_t n = min(32u, nthreads - base);
        return n == 32 ? 0xffffffffu : (1u << n) - 1;
    }

    /* Across threadIdx.x; the result is in threadIdx.x == 0. The executor
       guarantees blockDim.x is a power of two up to 32 or a multiple of 32,
       so a row's lanes fill whole warps; rows wider than a warp go through
       warps_reduce, each row (threadIdx.y) on its own shared slots. */
    __device__ AV block_x_reduce(AV value, char *smem) const {
        const uint32_t dim_x = blockDim.x;
        if (dim_x <= 32)
            return warp_reduce(op, value, threadIdx.x, dim_x, warp_mask());
        return warps_reduce(op, value, threadIdx.x, dim_x, smem, threadIdx.y);
    }

    /* The block's fold, into the threads that store. Where lanes and rows
       both split the reduced index, the whole block holds one output:
       its warps shuffle, then meet in shared memory (warps_reduce over the
       flat block, two barriers; the y tree took five at 16 rows, and d024,
       whose two waves of blocks end together, ran 0.95% slower with it:
       H100, bench/NOTES.md v1.21). Otherwise rows, then lanes. Only OVS 1
       can split both (the config vectorizes outputs only where lanes
       split the outputs): the guard keeps the branch out of the other
       kernels. */
    __device__ AV block_reduce(AV value, char *smem) const {
        if constexpr (OVS == 1) {
            const uint32_t nthreads = blockDim.x * blockDim.y;
            if (splits_x() && splits_y() && nthreads % 32 == 0)
                return warps_reduce(op, value, threadIdx.x + threadIdx.y * blockDim.x,
                                    nthreads, smem, 0);
        }
        if (splits_y())
            value = block_y_reduce(value, smem);
        if (splits_x())
            value = block_x_reduce(value, smem);
        return value;
    }

    /* ---- results ----------------------------------------------------------- */

    /* Final store of OVS adjacent outputs o0 .. o0+OVS-1: shift indices by
       the piece's base, merge the state of earlier pieces (first == 0),
       then project to the output (last) or keep the state for later
       pieces. The OVS outputs lie along kept dim 0 (the config makes its
       extent a multiple of OVS), so output j sits j strides of that dim
       past o0 in every operand: one pass of divisions serves all. */
    __device__ void store(AV value, uint32_t o0) const {
        const OutOffsets base = output_offsets(a, o0);
#pragma unroll
        for (int j = 0; j < OVS; j++) {
            if (o0 + j >= a.num_outputs)
                break;
            OutOffsets off = base;
            if (j > 0) {
#pragma unroll
                for (int s = 0; s < 4; s++)
                    off.v[s] += j * a.out_strides[0][s];
            }
            finish_output(op, value.v[j], a, off.v);
        }
    }

    /* Slot of this thread's partial in the staging buffer (PyTorch's
       staging_memory_offset): one per block of a tile, times the lanes
       when lanes own separate outputs. */
    __device__ uint32_t staging_offset(uint32_t cta) const {
        uint32_t off = cta + blockIdx.x * gridDim.y;
        if (!splits_x())
            off = threadIdx.x + off * blockDim.x;
        return off;
    }

    /*
     * Blocks of one output tile (same blockIdx.x) each publish a partial;
     * the last to arrive (semaphore) folds them all in a fixed order, so
     * the result does not depend on which block came last, then resets the
     * semaphore to 0 for the next launch. The executor only enables this
     * when splits_y() holds, so the block result sits in threadIdx.y == 0.
     */
    __device__ void global_reduce(AV value, uint32_t o, char *smem) const {
        __shared__ bool is_last;
        AV *staging = reinterpret_cast<AV *>(a.staging);
        const bool store_ok = should_store(o);
        if (store_ok)
            staging[staging_offset(blockIdx.y)] = value;
        /* The block's partials, then one count by thread 0 that releases
           them (after the barrier) and, in the last block, acquires every
           other block's; the barrier after it hands that to the block. A
           fence in every thread (__threadfence, fence.sc.gpu) cost ~0.5 us
           per launch at 16-256 MB: H100, bench/fold_probe.cu os-fold1c vs
           os-fold1r. */
        __syncthreads();
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            unsigned *sem = &a.semaphores[blockIdx.x];
            is_last = atomic_add_acq_rel(sem) == gridDim.y - 1;
            if (is_last)
                *sem = 0; /* every block has counted: ready for the next launch */
        }
        __syncthreads();
        if (!is_last)
            return;

        /* Thread t of the nt folding threads takes partials t, t + nt,
           t + 2 nt, ... in that order: a fixed order whichever block came
           last, so the result is bit-identical run to run, and neighbouring
           threads read neighbouring partials (a warp's load is one
           transaction; contiguous runs per thread took one per lane, and
           cost 25 us of a 1 GiB sum folding 65536 partials: H100,
           bench/fold_probe.cu). */
        const uint32_t ctas = gridDim.y;
        uint32_t t, nt;
        if (splits_x()) {
            t = threadIdx.x + threadIdx.y * blockDim.x;
            nt = blockDim.x * blockDim.y;
        } else {
            t = threadIdx.y;
            nt = blockDim.y;
        }
        value = ident_vec();
        /* RT__TAIL_LOADS partials in flight: one at a time, each fold
           waited a full L2 round trip, and a 4-row block folding 1056
           partials per output took ~40 us of a 74 us NHWC mean (H200,
           v1.2). */
        constexpr int TAIL = RT__TAIL_LOADS((int)sizeof(A));
        uint32_t c = t;
        for (; (uint64_t)c + (uint64_t)(TAIL - 1) * nt < ctas; c += TAIL * nt) {
            AV part[TAIL];
#pragma unroll
            for (int i = 0; i < TAIL; i++)
                part[i] = load_cg(&staging[staging_offset(c + i * nt)]);
#pragma unroll
            for (int i = 0; i < TAIL; i++)
                combine_into(value, part[i]);
        }
        for (; c < ctas; c += nt)
            combine_into(value, load_cg(&staging[staging_offset(c)]));

        value = block_reduce(value, smem);
        if (store_ok)
            store(value, o);
    }

    __device__ void run() const {
        extern __shared__ __align__(16) char rt_smem[];
        const uint32_t o = output_idx();
        AV value = ident_vec();
        if (o < a.num_outputs)
            value = thread_reduce(a.in + output_offset(a, o, RT__OUT_SLOT_IN));
        value = block_reduce(value, rt_smem);
        if (splits_grid())
            global_reduce(value, o, rt_smem);
        else if (should_store(o))
            store(value, o);
    }
};

/* Launch bounds. PyTorch's are 512 / OVS threads and 4 blocks per SM,
   which caps a thread at 32 registers when OVS is 1. Ops on 8-byte numbers
   (int64 accumulators, f64, integer (value, index) pairs) spilled 64 to
   500 bytes under that cap (-Xptxas -v, sm_90, CUDA 13.0); their
   Op::min_blocks asks for 2 blocks per SM, 64 registers, no spill. The
   rest keep PyTorch's 4: with 2, f32 var of [32768,4096] over dim 1 took
   207 us against 166 us with 4, and argmax 157 us against 144 us (H200,
   compare_torch.py).
   For inputs of 4 bytes or more where OVS divides Op::min_blocks, the
   kernel is built for 512 threads with min_blocks / OVS blocks instead:
   the same register cap (65536 / (512 / OVS x min_blocks)), but blocks of
   512 threads at OVS 2 and 4 (TUNED rules 10 and 11). Elsewhere PyTorch's
   bound stays: 8-byte states at OVS 4 (up to 193 registers), 3-block ops
   at OVS 2 and 4, and 16-bit inputs, whose OVS 4 kernels' registers
   moved by 1-6 under the wider bound (sm_90, CUDA 13.0) and which no rule
   gives blocks that wide. The backend reads the bound back
   (kernel_limits) and the config plans within it. */
template <typename Op, int OVS> struct GeneralBounds {
    static constexpr bool tall = Op::min_blocks % OVS == 0 && sizeof(typename Op::scalar_t) >= 4;
    static constexpr int threads = tall ? 512 : 512 / OVS;
    static constexpr int blocks = tall ? Op::min_blocks / OVS : Op::min_blocks;
    static_assert(threads * blocks == 512 / OVS * Op::min_blocks,
                  "the register cap must stay PyTorch's bound's");
};

template <typename Op, int OVS>
__global__ void __launch_bounds__(GeneralBounds<Op, OVS>::threads, GeneralBounds<Op, OVS>::blocks)
    reduce_kernel(const __grid_constant__ rt__kernel_args a) {
    Reducer<Op, OVS>(a).run();
}

/* The general kernel over a keyed piece (index-tracking ops only): the
   same body, its states carrying the map's keys. */
template <typename Op, int OVS>
__global__ void __launch_bounds__(GeneralBounds<Op, OVS>::threads, GeneralBounds<Op, OVS>::blocks)
    reduce_kernel_keyed(const __grid_constant__ rt__kernel_args a,
                        const __grid_constant__ rt__index_map m) {
    Reducer<KeyedOp<Op>, OVS>(a, KeyedOp<Op>(a, m)).run();
}

template <typename Op>
cudaError_t launch_reduce(const rt__kernel_args *a, const rt__launch_config *c, size_t smem,
                          cudaStream_t stream, int device) {
    const dim3 grid((unsigned)c->grid[0], (unsigned)c->grid[1], 1);
    const dim3 block((unsigned)c->block[0], (unsigned)c->block[1], 1);
    void *params[] = {const_cast<rt__kernel_args *>(a)};
    switch (c->output_vec_size) {
    case 1:
        return launch_fast<reduce_kernel<Op, 1>>(grid, block, smem, stream, params, device);
    case 2:
        return launch_fast<reduce_kernel<Op, 2>>(grid, block, smem, stream, params, device);
    case 4:
        return launch_fast<reduce_kernel<Op, 4>>(grid, block, smem, stream, params, device);
    default:
        return cudaErrorInvalidValue;
    }
}

template <typename Op>
cudaError_t launch_reduce_keyed(const rt__kernel_args *a, const rt__index_map *m,
                                const rt__launch_config *c, size_t smem, cudaStream_t stream,
                                int device) {
    const dim3 grid((unsigned)c->grid[0], (unsigned)c->grid[1], 1);
    const dim3 block((unsigned)c->block[0], (unsigned)c->block[1], 1);
    void *params[] = {const_cast<rt__kernel_args *>(a), const_cast<rt__index_map *>(m)};
    switch (c->output_vec_size) {
    case 1:
        return launch_fast<reduce_kernel_keyed<Op, 1>>(grid, block, smem, stream, params, device);
    case 2:
        return launch_fast<reduce_kernel_keyed<Op, 2>>(grid, block, smem, stream, params, device);
    case 4:
        return launch_fast<reduce_kernel_keyed<Op, 4>>(grid, block, smem, stream, params, device);
    default:
        return cudaErrorInvalidValue;
    }
}

template <typename Op> cudaError_t kernel_limits(int regs[3], int threads[3]) {
    const void *kernels[3] = {reinterpret_cast<const void *>(reduce_kernel<Op, 1>),
                              reinterpret_cast<const void *>(reduce_kernel<Op, 2>),
                              reinterpret_cast<const void *>(reduce_kernel<Op, 4>)};
    for (int k = 0; k < 3; k++) {
        cudaFuncAttributes attr;
        const cudaError_t e = cudaFuncGetAttributes(&attr, kernels[k]);
        if (e != cudaSuccess)
            return e;
        regs[k] = attr.numRegs;
        threads[k] = attr.maxThreadsPerBlock;
    }
    return cudaSuccess;
}

} // namespace rt

/* Stamps out the table entry of one (family, dtype) row of
   RT__FOR_EACH_KERNEL; the including file defines RT__OP_<FAM>(T). */
#define RT__DEFINE_KERNEL_ENTRY(fam, FAM, sfx, DT)                                                 \
    extern "C" const rt__kernel_entry rt__kernel_##fam##_##sfx = {                                 \
        rt::launch_reduce<RT__OP_##FAM(RT__CTYPE_##sfx)>,                                          \
        rt::kernel_limits<RT__OP_##FAM(RT__CTYPE_##sfx)>,                                          \
        (int)sizeof(RT__OP_##FAM(RT__CTYPE_##sfx)::acc_t),                                       \
        (int)sizeof(rt::OutState<RT__OP_##FAM(RT__CTYPE_##sfx)>), RT__OP_##FAM(RT__CTYPE_##sfx)::vt0, \
        RT__OP_##FAM(RT__CTYPE_##sfx)::input_vec};

/* The keyed general kernel's launch of one (family, dtype) row of
   RT__FOR_EACH_KEYED_KERNEL (reduce_arg*_keyed.cu). */
#define RT__DEFINE_KEYED_ENTRY(fam, FAM, sfx, DT)                                                  \
    extern "C" const rt__keyed_launch_fn rt__keyed_##fam##_##sfx =                                 \
        rt::launch_reduce_keyed<RT__OP_##FAM(RT__CTYPE_##sfx)>;

#endif /* RT_KERNELS_REDUCE_BODY_CUH */
