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
 * path and a ~90-byte argument block (rt__tiny_args):
 *  - thread t reads scalar t of the unaligned head and of the tail (each
 *    shorter than one vector, and a block has at least 32 threads), then
 *    aligned vectors t, t + T, ... of Op::input_vec elements, up to
 *    Op::loads_in_flight of them loaded before any fold (STREAM:
 *    stream_loads_in_flight);
 *  - a shuffle tree in one warp, or the general kernel's warps_reduce
 *    (a tree per warp, their states through shared memory, a tree over
 *    them in warp 0);
 *  - thread 0 finishes the output as the general kernel does
 *    (finish_output: split pieces, indices, projection).
 * The config (tuned_tiny.c) sizes the block so that one batch of loads
 * covers the run where it can.
 *
 * The STREAM kernel (RT__KERNEL_STREAM) is the same reducer over a large
 * run: block b of a one-shot grid reads the chunk of vectors [b * chunk,
 * (b + 1) * chunk) in rounds of stream_loads_in_flight loads (block 0
 * also the head and the tail), reduces it, and thread 0 publishes the
 * block's state and counts it; one block (the last to count, or in
 * grids over a wave the grid's last, run_stream) folds every block's
 * state in a fixed order, 16 bytes of states a load, and finishes the
 * output. Double states of grids over a wave skip the count: each
 * block's state goes to a slot that reads 0 until it is stored; a block a
 * wave after each group of slots folds that group into a word, and the
 * grid's last block folds those words and the slots left (fold_slots).
 * With a dependent fold (a.fold_grid != 0) the blocks store their states
 * and exit, with no count, and stream_fold_kernel, one block launched as
 * the grid's programmatic dependent, folds them once the grid has ended
 * (run_stream_fold).
 * tuned_stream.c has the measurements behind the shape.
 *
 * Included by the reduce_<family>.cu files after reduce_body.cuh.
 */
#ifndef RT_KERNELS_REDUCE_TINY_CUH
#define RT_KERNELS_REDUCE_TINY_CUH

#include "reduce_body.cuh"

namespace rt {

/* 16 bytes of partials loaded at once in a STREAM fold: 4 states of 4
   bytes, 2 of 8; states of other sizes one at a time. */
template <typename A> struct PartialPack {
    static constexpr int n = sizeof(A) == 4 || sizeof(A) == 8 ? 16 / (int)sizeof(A) : 1;
    using type = Packed<A, n>;
};

/* A 16-byte load that bypasses L1 (ld.global.cg.v4), for packs of
   partials other blocks wrote during this launch. */
template <typename T> static __device__ __forceinline__ T load_cg_pack(const T *p) {
    if constexpr (sizeof(T) == 16 && alignof(T) >= 16) {
        const uint4 w = __ldcg(reinterpret_cast<const uint4 *>(p));
        T out;
        memcpy(&out, &w, sizeof(T));
        return out;
    } else {
        return load_cg(p);
    }
}

/* States the STREAM kernel folds through slots (fold_slots): doubles,
   whose NaN patterns leave one to mark an empty slot. */
template <typename A> struct SlotState {
    static constexpr bool value = sizeof(A) == 8 && std::is_floating_point<A>::value;
};

/* Vector loads a STREAM thread keeps in flight: the op's own
   (loads_in_flight) but for 8-byte inputs, whose 32-byte vectors take 4,
   128 bytes a thread. Their ops run 2 blocks of 512 a SM (Op::min_blocks,
   64 registers), so at 2 loads a round an SM had half the bytes in flight
   that f32's 4 blocks of 4 16-byte loads keep. H200, bench/stream_probe.cu
   (the STREAM kernel on the f64 sum of 2^26, 256 bytes a thread, count
   fold, 4 slots rotated, medians of 100, 4 passes, three runs;
   bench/NOTES.md v1.45), us:
                            2 loads (46 regs)   4 loads (56 regs)
     f64 sum 512 MiB        124.32-124.61       122.91-123.17
   (the f32 sum of the same bytes 123.07-123.36; at 2 loads, 3 blocks a SM
   under 40 registers 123.17-123.42, 4 under 32 124.16-124.48; 3 loads
   123.6-124.1; 4 loads of 512 bytes a thread 123.4-123.6, of 128 bytes
   with slots 123.5-123.7.) No spill under the bound (-Xptxas -v, sm_90);
   the H100 was not measured. */
template <typename Op> static __device__ constexpr int stream_loads_in_flight() {
    return sizeof(typename Op::scalar_t) == 8 ? 4 : loads_in_flight<Op>();
}

/* Programmatic dependent launch (compute capability 9.0): a block of the
   prerequisite grid lets its dependent launch early; the dependent waits
   until the prerequisite grid has ended and its memory is visible. The
   host launches a dependent only where the kernels are built for it
   (rt__cuda_kernels_sm90); otherwise the dependent launches after the grid
   in stream order, and these are no-ops. */
static __device__ __forceinline__ void launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
static __device__ __forceinline__ void wait_for_prerequisite_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

template <typename Op> struct TinyReducer {
    using S = typename Op::scalar_t;
    using A = typename Op::acc_t;

    const rt__tiny_args &a;
    Op op;

    __device__ explicit TinyReducer(const rt__tiny_args &args) : a(args), op(args) {}

    /* One round of the TINY loop: this thread's vectors j + l * nt (l < L)
       below vend, every load issued before the first fold, folded into
       acc (element indices from head). */
    template <int L, int K, typename Load>
    __device__ void fold_round(A (&acc)[K], const Load *vec, uint32_t j, uint32_t nt, uint32_t vend,
                               uint32_t head) const {
        constexpr int V = Op::input_vec;
        Load v[L];
#pragma unroll
        for (int l = 0; l < L; l++)
            if (j + l * nt < vend)
                v[l] = load_stream(&vec[j + l * nt]);
#pragma unroll
        for (int l = 0; l < L; l++)
            if (j + l * nt < vend)
                fold_vector(op, acc, v[l], head + (j + l * nt) * V, l);
    }

    /* This thread's share of aligned vectors [vbegin, vend) of the run,
       and, where `ends`, of its scalar head and tail, folded into one
       state. Round: the run is whole vectors from an aligned start and
       one round covers [vbegin, vend) (run_tiny's fast path): no head,
       tail or loop. */
    template <bool Stream, bool Round = false>
    __device__ A thread_reduce(uint32_t vbegin, uint32_t vend, bool ends) const {
        constexpr int V = Op::input_vec;
        constexpr int K = V < Op::vt0 ? V : Op::vt0;
        constexpr int L = Stream ? stream_loads_in_flight<Op>() : loads_in_flight<Op>();
        using Load = Packed<S, V>;
        const S *data = reinterpret_cast<const S *>(a.in);
        const uint32_t n = a.num_inputs, t = threadIdx.x, nt = blockDim.x;
        const uint32_t head = Round ? 0 : vector_head<V>(data, n);

        A acc[K];
#pragma unroll
        for (int i = 0; i < K; i++)
            acc[i] = op.ident();
        /* head < V and the tail < V, both below the 32 threads a block has
           at least: one scalar of each per thread. */
        if constexpr (!Round) {
            if (ends) {
                const uint32_t tail = head + (n - head) / V * V;
                if (t < head)
                    acc[0] = op.reduce(acc[0], data[t], t);
                if (tail + t < n)
                    acc[0] = op.reduce(acc[0], data[tail + t], tail + t);
            }
        }

        const Load *vec = reinterpret_cast<const Load *>(data + head);
        if constexpr (Round) {
            fold_round<L>(acc, vec, vbegin + t, nt, vend, 0);
        } else if constexpr (Stream) {
            /* Whole batches of L vectors, then at most one partial batch
               whose loads past the end re-read the last vector (one cached
               line) and are not folded. Guarding the loads of every batch
               (TINY's loop below) spilled 20-100 bytes in the STREAM
               kernels under their 32-register bound, guarding only the
               last batch's still 32 in f16 sums (-Xptxas -v, sm_90); this
               spills none. */
            uint32_t j = vbegin + t;
            for (; j + (L - 1) * nt < vend; j += L * nt) {
                Load v[L];
#pragma unroll
                for (int l = 0; l < L; l++)
                    v[l] = load_stream(&vec[j + l * nt]);
#pragma unroll
                for (int l = 0; l < L; l++)
                    fold_vector(op, acc, v[l], head + (j + l * nt) * V, l);
            }
            if (j < vend) {
                Load v[L];
#pragma unroll
                for (int l = 0; l < L; l++)
                    v[l] = load_stream(&vec[min(j + l * nt, vend - 1)]);
#pragma unroll
                for (int l = 0; l < L; l++)
                    if (j + l * nt < vend)
                        fold_vector(op, acc, v[l], head + (j + l * nt) * V, l);
            }
        } else {
            for (uint32_t j = vbegin + t; j < vend; j += L * nt)
                fold_round<L>(acc, vec, j, nt, vend, head);
        }
#pragma unroll
        for (int i = 1; i < K; i++)
            acc[0] = op.combine(acc[0], acc[i]);
        return acc[0];
    }

    /* The block's states into thread 0; Fresh: the block's first use of
       smem (warps_reduce). */
    template <bool Fresh> __device__ Vec<A, 1> block_reduce(A value) const {
        __shared__ __align__(16) char smem[RT__STREAM_THREADS / 32 * sizeof(Vec<A, 1>)];
        Vec<A, 1> v;
        v.v[0] = value;
        /* One warp: shuffles alone, no barrier. */
        if (blockDim.x == 32)
            return warp_reduce(op, v, threadIdx.x, 32, 0xffffffffu);
        return warps_reduce<Op, 1, Fresh>(op, v, threadIdx.x, blockDim.x, smem, 0);
    }

    __device__ void finish(A value) const {
        const int32_t at_base[4] = {0, 0, 0, 0}; /* one output: the operands' bases */
        finish_output(op, value, a, at_base);
    }

    /* TINY: one block, the whole run. */
    __device__ void run_tiny() const {
        /* An aligned run of whole vectors that one round covers (the
           config's blocks are sized so: up to 4 vectors a thread): no
           head, tail or loop, so the loads go out first. H100, rt_bench
           timing ours and CUB in turn, four passes (bench/NOTES.md v1.35,
           run 15): 16 KB 1.04-1.11 of CUB's time -> 1.01-1.09 (mostly
           1.01-1.02), 256 B 1.03-1.08 -> 1.00-1.04. States of one or two
           words only: the second copy of the round spilled 16 bytes in
           f64 var/std's kernel (-Xptxas -v, sm_90). */
        if constexpr (sizeof(A) <= 8) {
            constexpr int V = Op::input_vec;
            const uint32_t n = a.num_inputs;
            if ((uintptr_t)a.in % sizeof(Packed<S, V>) == 0 && n % V == 0 &&
                n / V <= loads_in_flight<Op>() * blockDim.x) {
                const Vec<A, 1> r = block_reduce<true>(thread_reduce<false, true>(0, n / V, false));
                if (threadIdx.x == 0)
                    finish(r.v[0]);
                return;
            }
        }
        const uint32_t nvec = (a.num_inputs - vector_head<Op::input_vec>(
                                                  reinterpret_cast<const S *>(a.in), a.num_inputs)) /
                              Op::input_vec;
        const Vec<A, 1> v = block_reduce<true>(thread_reduce<false>(0, nvec, true));
        if (threadIdx.x == 0)
            finish(v.v[0]);
    }

    /* STREAM slots (fold_slots, double states, grids over a wave). Block
       b's thread 0 stores its state in slot b as a word that is never 0,
       with no fence and no count. The slots of blocks [g S, (g + 1) S)
       are group g (S = a.slot_group); block (g + 1) S + D - 1
       (D = a.slot_delay), where that is not the grid's last, folds group
       g into word nb + g after its own chunk, and every other block but
       the grid's last exits. The last folds the words of the groups with
       a folder (thread t: word t, t + T, ...) and then the slots of the
       groups left and the odd slot at the end, in that order, so the
       result is the same bits whatever order blocks finish in. Every
       slot and word is reset to 0 once folded, for the next launch. A
       block waits only for slots of lower-indexed blocks, each stored
       before its own block waits for anything, and the config keeps the
       waiting blocks (a group each) under the GPU's SMs, so they cannot
       fill it. */
    /* The state a filled slot holds (to_slot undone). */
    static __device__ A from_slot(unsigned long long w) {
        w ^= RT__STREAM_SLOT_MARK;
        A x;
        memcpy(&x, &w, sizeof x);
        return x;
    }
    /* A state as a slot word: never 0 (a state whose bits are the mark, a
       NaN, is stored as another NaN). */
    static __device__ unsigned long long to_slot(A state) {
        unsigned long long w;
        memcpy(&w, &state, sizeof w);
        if (w == RT__STREAM_SLOT_MARK)
            w = RT__STREAM_SLOT_NAN;
        return w ^ RT__STREAM_SLOT_MARK;
    }
    /* Thread t folds packs p0 + t, p0 + t + T, ... below p1 (two slots
       each, 16 bytes) into acc in that order, FOLD_LOADS at a time, each
       once both its words are nonzero: it stops at the first that is not
       and loads it again after a short sleep. Each folded pack is reset. */
    __device__ A fold_packs(unsigned long long *slot, uint32_t p0, uint32_t p1, A acc) const {
        constexpr int FOLD_LOADS = 4;
        const uint32_t nt = blockDim.x;
        uint32_t k = p0 + threadIdx.x;
        while (k < p1) {
            unsigned long long w[FOLD_LOADS][2];
#pragma unroll
            for (int i = 0; i < FOLD_LOADS; i++)
                if (k + i * nt < p1)
                    load_relaxed2(&slot[2 * (k + i * nt)], w[i][0], w[i][1]);
            /* Packs folded this round: a prefix of the FOLD_LOADS. */
            int done = 0;
#pragma unroll
            for (int i = 0; i < FOLD_LOADS; i++) {
                if (done != i || k + i * nt >= p1 || w[i][0] == 0 || w[i][1] == 0)
                    continue;
#pragma unroll
                for (int j = 0; j < 2; j++)
                    acc = op.combine(acc, from_slot(w[i][j]));
                *reinterpret_cast<uint4 *>(&slot[2 * (k + i * nt)]) = make_uint4(0, 0, 0, 0);
                done++;
            }
            k += done * nt;
            if (done < FOLD_LOADS && k < p1)
                __nanosleep(64);
        }
        return acc;
    }
    /* One slot word into acc once it is nonzero; reset. */
    __device__ A fold_word(unsigned long long *w, A acc) const {
        unsigned long long u;
        while ((u = load_relaxed(w)) == 0)
            __nanosleep(64);
        *w = 0;
        return op.combine(acc, from_slot(u));
    }
    __device__ void fold_slots(A state) const {
        static_assert(SlotState<A>::value, "slots hold double states");
        unsigned long long *slot = reinterpret_cast<unsigned long long *>(a.semaphores);
        const uint32_t nb = gridDim.x, b = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
        const uint32_t S = a.slot_group, D = a.slot_delay;
        /* Groups with a folder other than the grid's last: g + 1 <= (nb - 1 - D) / S. */
        const uint32_t folded = nb - 1 >= S + D ? (nb - 1 - D) / S : 0;
        if (t == 0)
            store_relaxed(&slot[b], to_slot(state));
        if (b != nb - 1) {
            if (b + 1 < S + D || (b + 1 - D) % S != 0)
                return;
            const uint32_t g = (b + 1 - D) / S - 1;
            const A acc = fold_packs(slot, g * (S / 2), (g + 1) * (S / 2), op.ident());
            const Vec<A, 1> v = block_reduce<false>(acc);
            if (t == 0)
                store_relaxed(&slot[nb + g], to_slot(v.v[0]));
            return;
        }
        /* Its own slot (the odd one, or in the last pack) is visible to
           its threads through the barrier. */
        __syncthreads();
        A acc = op.ident();
        for (uint32_t g = t; g < folded; g += nt)
            acc = fold_word(&slot[nb + g], acc);
        acc = fold_packs(slot, folded * (S / 2), nb / 2, acc);
        for (uint32_t c = 2 * (nb / 2) + t; c < nb; c += nt)
            acc = fold_word(&slot[c], acc);
        const Vec<A, 1> v = block_reduce<false>(acc);
        if (t == 0)
            finish(v.v[0]);
    }

    /* STREAM: block b reads vectors [b * chunk, (b + 1) * chunk), block 0
       the scalar head and tail too; with several blocks each publishes its
       state and one block folds them all. */
    __device__ void run_stream() const {
        constexpr int V = Op::input_vec;
        const uint32_t n = a.num_inputs;
        const uint32_t nvec = (n - vector_head<V>(reinterpret_cast<const S *>(a.in), n)) / V;
        const uint32_t b = blockIdx.x;
        const uint64_t begin = (uint64_t)b * a.chunk, end = begin + a.chunk;
        const uint32_t vbegin = begin < nvec ? (uint32_t)begin : nvec;
        const uint32_t vend = end < nvec ? (uint32_t)end : nvec;
        if (a.fold_grid != 0)
            launch_dependents();
        Vec<A, 1> v = block_reduce<true>(thread_reduce<true>(vbegin, vend, b == 0));
        if (gridDim.x == 1) {
            if (threadIdx.x == 0)
                finish(v.v[0]);
            return;
        }
        if constexpr (SlotState<A>::value) {
            if (a.slot_group != 0) {
                fold_slots(v.v[0]);
                return;
            }
        }

        /* Thread 0 holds the block's state and stores it, then counts.
           fold_last (grids of more blocks than the GPU holds at once,
           tuned_stream.c): every block but the grid's last counts with
           release order and no answer (a reduction) and exits; the last,
           after its own chunk, waits until the other blocks have all
           counted (acquire). Dispatched last, it waits little; dispatched
           early, it holds one slot while the others run in the rest.
           Otherwise each block counts with acquire-release order and the
           last to count folds. Either way the folding block's acquire,
           through the barrier after it, hands every other block's state
           to its threads, and it resets the count for the next launch. */
        A *staging = reinterpret_cast<A *>(a.staging);
        __shared__ bool is_last;
        if (threadIdx.x == 0)
            staging[b] = v.v[0];
        if (a.fold_grid != 0)
            return; /* stream_fold_kernel folds the states */
        if (a.fold_last) {
            if (b != gridDim.x - 1) {
                if (threadIdx.x == 0)
                    red_add_release(a.semaphores);
                return;
            }
            if (threadIdx.x == 0) {
                while (load_acquire(a.semaphores) != gridDim.x - 1)
                    __nanosleep(64);
                *a.semaphores = 0;
            }
            __syncthreads();
        } else {
            if (threadIdx.x == 0) {
                is_last = atomic_add_acq_rel(a.semaphores) == gridDim.x - 1;
                if (is_last)
                    *a.semaphores = 0;
            }
            __syncthreads();
            if (!is_last)
                return;
        }
        fold_staging<4, false>(gridDim.x);
    }

    /* One batch of a fold: packs k, k + nt, ... (FOLD_LOADS of them, or
       with GUARD those below npack), every load issued before the first
       combine, folded into acc in that order. */
    template <int FOLD_LOADS, bool GUARD, typename Pack>
    __device__ A fold_pack_batch(A acc, const Pack *packs, uint32_t k, uint32_t nt,
                                 uint32_t npack) const {
        Pack p[FOLD_LOADS];
#pragma unroll
        for (int i = 0; i < FOLD_LOADS; i++)
            if (!GUARD || k + i * nt < npack)
                p[i] = load_cg_pack(&packs[k + i * nt]);
#pragma unroll
        for (int i = 0; i < FOLD_LOADS; i++)
            if (!GUARD || k + i * nt < npack)
#pragma unroll
                for (int j = 0; j < PartialPack<A>::n; j++)
                    acc = op.combine(acc, p[i].v[j]);
        return acc;
    }

    /* Folds the nb block states in staging and finishes the output. Thread
       t folds packs t, t + T, ... of PartialPack states (16 bytes),
       FOLD_LOADS at a time, then the states past the last whole pack: a
       fixed order whichever block came last, so the result is the same
       run to run. FOLD_LOADS: the STREAM kernel's own fold keeps 4 (its
       registers bound the grid's reads); the fold kernel has no reads
       but these, and TAIL_BATCH (below). */
    template <int FOLD_LOADS, bool TAIL_BATCH> __device__ void fold_staging(uint32_t nb) const {
        constexpr int P = PartialPack<A>::n;
        using Pack = typename PartialPack<A>::type;
        const A *staging = reinterpret_cast<const A *>(a.staging);
        const Pack *packs = reinterpret_cast<const Pack *>(staging);
        const uint32_t npack = nb / P, t = threadIdx.x, nt = blockDim.x;
        A acc = op.ident();
        uint32_t k = t;
        for (; k + (FOLD_LOADS - 1) * nt < npack; k += FOLD_LOADS * nt)
            acc = fold_pack_batch<FOLD_LOADS, false>(acc, packs, k, nt, npack);
        /* The packs left, fewer than a batch. TAIL_BATCH: their loads
           together too, in the same order (the fold kernel: one at a
           time, the f32 sum's fold of 8192 states waited for four L2
           round trips in turn). Otherwise one at a time: batched, the
           STREAM kernel's own fold spilled 36 bytes in the f32 sum and
           took 6 more registers in 8- and 16-bit ones (-Xptxas -v,
           sm_90). */
        if constexpr (TAIL_BATCH) {
            acc = fold_pack_batch<FOLD_LOADS, true>(acc, packs, k, nt, npack);
        } else {
            for (; k < npack; k += nt) {
                const Pack p = load_cg_pack(&packs[k]);
#pragma unroll
                for (int j = 0; j < P; j++)
                    acc = op.combine(acc, p.v[j]);
            }
        }
        for (uint32_t c = npack * P + t; c < nb; c += nt)
            acc = op.combine(acc, load_cg(&staging[c]));
        const Vec<A, 1> v = block_reduce<false>(acc);
        if (threadIdx.x == 0)
            finish(v.v[0]);
    }

    /* The dependent fold (stream_fold_kernel): one block, launched after
       a STREAM grid of a.fold_grid blocks as its programmatic dependent,
       waits until that grid has ended and its states are visible, then
       folds them. */
    __device__ void run_stream_fold() const {
        wait_for_prerequisite_grid();
        fold_staging<8, true>(a.fold_grid);
    }
};

template <typename Op>
__global__ void __launch_bounds__(RT__TINY_MAX_THREADS)
    tiny_kernel(const __grid_constant__ rt__tiny_args a) {
    TinyReducer<Op>(a).run_tiny();
}

/* The general kernel's register bound (reduce_kernel: 512 threads,
   Op::min_blocks a SM). */
template <typename Op>
__global__ void __launch_bounds__(RT__STREAM_THREADS, Op::min_blocks)
    stream_kernel(const __grid_constant__ rt__tiny_args a) {
    TinyReducer<Op>(a).run_stream();
}

/* The dependent fold of a STREAM grid (a.fold_grid != 0): one block of
   RT__STREAM_THREADS. */
template <typename Op>
__global__ void __launch_bounds__(RT__STREAM_THREADS)
    stream_fold_kernel(const __grid_constant__ rt__tiny_args a) {
    TinyReducer<Op>(a).run_stream_fold();
}

/* TINY: one block of c->block[0] threads; STREAM: c->grid[0] blocks of
   RT__STREAM_THREADS, built only for the ops TUNED sends there
   (tuned_stream.c), those whose state is one number (OneNumberState).
   cudaErrorInvalidValue for a shape the kernel cannot run (TINY: not whole
   warps, or over its launch bound; STREAM: an op built without it, or
   missing workspace). */
template <typename Op>
cudaError_t launch_tiny(const rt__tiny_args *a, const rt__launch_config *c, cudaStream_t stream,
                        int device) {
    void *params[] = {const_cast<rt__tiny_args *>(a)};
    const int threads = c->block[0];
    if (c->kernel == RT__KERNEL_STREAM) {
        if constexpr (OneNumberState<Op>::value) {
            constexpr bool slots = SlotState<typename Op::acc_t>::value;
            if (threads != RT__STREAM_THREADS || c->grid[0] < 1 || a->chunk == 0 ||
                (c->grid[0] > 1 && a->fold_grid == 0 && a->semaphores == nullptr) ||
                (c->grid[0] > 1 && a->slot_group == 0 && a->staging == nullptr) ||
                (a->slot_group != 0 && (!slots || !a->fold_last || c->grid[0] < 2 ||
                                        a->slot_group % 2 != 0)) ||
                (a->fold_grid != 0 &&
                 (a->fold_grid != (uint32_t)c->grid[0] || c->grid[0] < 2 ||
                  a->staging == nullptr || a->fold_last || a->slot_group != 0)))
                return cudaErrorInvalidValue;
            const cudaError_t e = launch_fast<stream_kernel<Op>>(
                dim3((unsigned)c->grid[0], 1, 1), dim3((unsigned)threads, 1, 1), 0, stream,
                params, device);
            if (e != cudaSuccess || a->fold_grid == 0)
                return e;
            return launch_dependent(reinterpret_cast<const void *>(stream_fold_kernel<Op>),
                                    dim3(1, 1, 1), dim3((unsigned)threads, 1, 1), stream, params);
        } else {
            return cudaErrorInvalidValue;
        }
    }
    if (threads < 32 || threads > RT__TINY_MAX_THREADS || threads % 32 != 0)
        return cudaErrorInvalidValue;
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
