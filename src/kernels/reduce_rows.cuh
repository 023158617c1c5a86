/*
 * The ROWS kernels (RT__KERNEL_ROWS): one contiguous reduced dim of short
 * or medium length L (input stride == element size), any kept dims.
 * PyTorch's body spends a warp (or a block) of lanes and a shuffle tree on
 * every row whatever its length, so a row of 32 floats is one 128-byte
 * load per warp between shuffles: 11% of the read ceiling (bench/NOTES-rows.md).
 *
 * Four shapes of work, all chosen in src/config/tuned_rows.c:
 *  - short: a thread per row of up to 8 elements (scalar loads) or of one
 *    aligned 16-byte vector, 2-4 rows per thread, the whole of each row
 *    loaded before any fold; a warp's load reads 32 adjacent rows.
 *  - direct: a group of G lanes (a power of two, 1..32) per row, each lane
 *    reading V-element vectors (16 bytes when every row start is aligned,
 *    else scalars) at g*V, g*V + G*V, ...; R rows per group in flight,
 *    the 32/G rows a warp reads at once adjacent; a shuffle tree over the
 *    group at the end.
 *  - tile: packed rows (pitch == L) of up to 2 KiB: a block copies the
 *    T*L contiguous elements of its T rows into shared memory with aligned
 *    16-byte loads (scalar head and tail), then a group of G lanes (1 for
 *    short rows: a thread per row, looping over T / 256 rows) folds each
 *    row from shared memory, starting at a rotated column so that rows
 *    sharing a bank start on different banks (rows_rot_*), and stores its
 *    output: coalesced loads and stores for any L, odd ones too.
 *  - block: rows of more than 2 KiB, a block of up to 512 threads per row,
 *    each thread C (1, 2, 4; 3 for 16-bit two passes) aligned 16-byte
 *    vectors of the row at once, then the general kernel's warps_reduce,
 *    without the barrier before it (a block's first use of smem;
 *    Inductor's shape for them); short
 *    ones of these (aligned, whole vectors) two rows a block, one
 *    warps_reduce for both; var/std of aligned rows one batch covers
 *    (one or two a block) in two passes over the registers and one block
 *    reduction of (mean, m2) pairs, with their count where the batch is
 *    partial (two_pass_rows, a kernel of its own: rows_two_pass_kernel).
 * And one shape for the other side, an outer reduction:
 *  - cols: one strided reduced dim whose outputs are contiguous columns
 *    (var/std of f32 only): a thread a column, 64 columns x 4 row lanes a
 *    block, 12 scalar loads a lane in flight folded as one Welford batch,
 *    the lanes' states folded in order through shared memory (Inductor's
 *    shape for var over dim 0).
 * Results go through Reducer::store, so split pieces (first/last, ACC,
 * index_base) and the indices output behave exactly as in the body.
 *
 * Included by the reduce_<family>.cu files after reduce_body.cuh.
 */
#ifndef RT_KERNELS_REDUCE_ROWS_CUH
#define RT_KERNELS_REDUCE_ROWS_CUH

#include "reduce_body.cuh"

namespace rt {

/* Rows per lane group in flight in the direct kernel, per load width V
   (the config's rows_in_flight, tuned_rows.c, computes the same): scalar
   loads 8 (4 for the 16/32-byte Welford and (value, index) states), 16-byte
   loads 4 (2 for wide states and for bytes, whose 16 lanes unpack into
   many registers), two steps of them per loop iteration. With more, the
   byte and 8-byte kernels spilled up to 1.8 KB under 64 registers
   (-Xptxas -v, sm_90). */
template <typename Op, int V> struct RowsTraits {
    static constexpr bool wide = sizeof(OutState<Op>) > 8; /* traits.c acc_size > 8 */
    static constexpr int R = V == 1 ? (wide ? 4 : 8)
                                    : (wide || sizeof(typename Op::scalar_t) == 1 ? 2 : 4);
};
/* 256 threads, 2 blocks per SM (up to 128 registers): under 4 (64
   registers) the scalar kernels of 8-byte and byte types spilled 60 to
   270 bytes (-Xptxas -v, sm_90); occupancy follows the registers used. */
template <typename Op> struct RowsBounds {
    static constexpr int min_blocks = 2;
};

/* The short kernel (the config's rows_short, tuned_rows.c): a thread per
   row of at most C loads of V elements -- scalars, C = RT__ROWS_SHORT_MAX
   (8) or half that by the row's length, or one 16-byte vector (C = 1) --
   R rows per thread, every load of the R rows issued before any fold. A
   warp's load instruction reads 32 adjacent rows, so the scalar columns
   of a row meet in the same L1 lines. C = 4 for rows of up to 4 scalars keeps f32 sums
   at 32 registers (below) instead of 50 (-Xptxas -v, sm_90). Rows of one
   vector take R = 2 (tuned_rows.c says why). */
template <typename Op, int V> struct ShortRows {
    static constexpr int R = sizeof(OutState<Op>) > 8 || V > 1 ? 2 : 4;
};

/* Whether the block kernel's general path folds a row's scalar head or
   tail element after the row's vectors (loaded before them either way).
   Folded first, the value held its warp a memory round trip before the
   first vector load (the sm_90 SASS: the FADD waited on the scalar LDG
   ahead of the LDG.E.128s). Kept for (value, index) states of 4-byte values
   at 4 vectors a thread, which spilled 12 bytes holding it under their
   32 registers (-Xptxas -v, sm_90). */
template <typename Op, int C> struct EdgeAfterVectors {
    static constexpr bool value = true;
};
template <typename S, bool IsMax, int C> struct EdgeAfterVectors<ArgOp<S, IsMax>, C> {
    static constexpr bool value = !(sizeof(S) == 4 && C == 4);
};

/* 16-byte loads per thread per batch of the tile copy: a tile of up to
   18 KiB over 128 threads is one batch (tuned_rows.c ROWS_TILE_BYTES). */
constexpr int kTileBatch = 9;

/* One step of a butterfly over the (mean, m2) states of R rows by Chan's
   merge: this lane's states, of n values each, and those of lane ^ off
   become their merges, of their summed count. Equal counts (Equal: every
   state of the step holds n values, the rows one batch covers exactly)
   merge without a division: the mean is the halved sum and m2 adds (mean
   difference)^2 * n / 2. Otherwise the count comes along (a shuffle
   more) and unequal ones take the weighted mean (n mean + n' mean') / (n
   + n') and add d^2 n n' / (n + n'), one division for the R rows. Every
   operation is commutative (the products rounded on their own, mul_rn),
   so both lanes get the same bits. */
template <bool Equal, int R, typename F>
static __device__ __forceinline__ void chan_xor(F (&mean)[R], F (&m2)[R], F &n, uint32_t off) {
    const F no = Equal ? n : __shfl_xor_sync(0xffffffffu, n, off);
    const bool equal = Equal || n == no;
    const F w = equal ? F(0) : div_fast(F(1), n + no);
#pragma unroll
    for (int r = 0; r < R; r++) {
        const F mo = __shfl_xor_sync(0xffffffffu, mean[r], off);
        const F qo = __shfl_xor_sync(0xffffffffu, m2[r], off);
        const F d = mo - mean[r];
        if (equal) {
            mean[r] = (mean[r] + mo) * F(0.5);
            m2[r] = (m2[r] + qo) + d * d * (n * F(0.5));
        } else {
            mean[r] = (mul_rn(n, mean[r]) + mul_rn(no, mo)) * w;
            m2[r] = (m2[r] + qo) + d * d * (mul_rn(n, no) * w);
        }
    }
    n = n + no;
}

template <typename Op> struct RowsReducer {
    using S = typename Op::scalar_t;
    using A = typename Op::acc_t;

    const rt__kernel_args &a;
    Op op;
    Reducer<Op, 1> body; /* for store(): split pieces, indices, projection */

    __device__ explicit RowsReducer(const rt__kernel_args &args) : a(args), op(args), body(args) {}

    __device__ void store(A v, uint32_t o) const {
        Vec<A, 1> r;
        r.v[0] = v;
        body.store(r, o);
    }

    /* Exact rows (a.rows_exact, tuned_rows.c): row o starts at o x the
       one kept dim's stride, and its output is written straight there,
       with no ACC to merge (the executor keeps the flag to unsplit
       calls). The block kernel takes them only for rows one batch covers
       exactly (exact_row, two_pass_block); the direct, short and warp
       kernels through row_starts and row_store, their bounds unchanged. */
    __device__ int32_t exact_offset(uint32_t o, int slot) const {
        return (int32_t)o * a.exact_strides[slot];
    }
    template <typename Load> __device__ const Load *exact_start(uint32_t o) const {
        return reinterpret_cast<const Load *>(a.in + exact_offset(o, RT__OUT_SLOT_IN));
    }
    __device__ void exact_store(A v, uint32_t o) const {
        op.write(a.out + exact_offset(o, RT__OUT_SLOT_OUT),
                 a.idx + exact_offset(o, RT__OUT_SLOT_IDX), a.out_dtype,
                 op.translate(v, a.index_base));
    }
    /* The first bytes from a.in of rows first, first + step, ...,
       first + (R - 1) step, 0 where ok[r] is false: straight on exact
       rows, through the output offsets' digits otherwise. The exact test
       is taken once for the R rows, so that the kernels' loads after it
       go out back to back: with the test inside each row's load (before
       bench/NOTES.md v1.41), ptxas put a branch and a reconvergence
       barrier between the warp vector kernel's four loads (sm_90 SASS). */
    template <int R>
    __device__ void row_starts(uint32_t first, uint32_t step, const bool (&ok)[R],
                               int32_t (&row)[R]) const {
        if (a.rows_exact) {
#pragma unroll
            for (int r = 0; r < R; r++)
                row[r] = ok[r] ? exact_offset(first + (uint32_t)r * step, RT__OUT_SLOT_IN) : 0;
        } else {
#pragma unroll
            for (int r = 0; r < R; r++)
                row[r] = ok[r] ? output_offset(a, first + (uint32_t)r * step, RT__OUT_SLOT_IN) : 0;
        }
    }
    /* Row o's store: straight on exact rows, through the output offsets'
       digits and the pieces' ACC otherwise. */
    __device__ void row_store(A v, uint32_t o) const {
        if (a.rows_exact)
            exact_store(v, o);
        else
            store(v, o);
    }

    /* Folds elements [k, k+V) of R rows into acc (rows with ok false are
       skipped). All loads first, then the folds. */
    template <int V, int R>
    __device__ void fold_step(A (&acc)[R], const int32_t (&row)[R], const bool (&ok)[R],
                              uint32_t k) const {
        using Load = Packed<S, V>;
        Load v[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            if (ok[r])
                v[r] = *reinterpret_cast<const Load *>(a.in + row[r] + (int32_t)(k * sizeof(S)));
#pragma unroll
        for (int r = 0; r < R; r++)
            if (ok[r])
#pragma unroll
                for (int i = 0; i < V; i++)
                    acc[r] = op.reduce(acc[r], v[r].v[i], k + i);
    }

    /* ---- direct: G lanes per row ----------------------------------------- */
    template <int V> __device__ void direct() const {
        constexpr int R = RowsTraits<Op, V>::R;
        const uint32_t G = (uint32_t)a.rows_group;
        const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
        const uint32_t g = lane & (G - 1), per_step = 32u / G;
        const uint32_t warp_rows = per_step * R;
        const uint32_t first_row =
            (blockIdx.x * (blockDim.x >> 5) + warp) * warp_rows + lane / G;
        const uint32_t L = a.num_inputs, n = a.num_outputs;

        A acc[R];
        int32_t row[R]; /* byte offsets of the rows from a.in */
        bool ok[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            ok[r] = first_row + (uint32_t)r * per_step < n;
            acc[r] = op.ident();
        }
        row_starts<R>(first_row, per_step, ok, row);
        const uint32_t stride = G * V;
        uint32_t k = g * V;
        /* Two steps per iteration: 2R loads in flight. */
        for (; k + stride < L; k += 2 * stride) {
            fold_step<V, R>(acc, row, ok, k);
            fold_step<V, R>(acc, row, ok, k + stride);
        }
        if (k < L)
            fold_step<V, R>(acc, row, ok, k);

        /* The group's lanes hold interleaved columns; a tree gives lane 0
           the row. Every lane of the warp takes part (full mask). */
        for (uint32_t off = 1; off < G; off <<= 1) {
#pragma unroll
            for (int r = 0; r < R; r++) {
                A other = op.shfl(acc[r], (int)off, 0xffffffffu);
                if (g + off < G)
                    acc[r] = op.combine(acc[r], other);
            }
        }
        if (g == 0) {
#pragma unroll
            for (int r = 0; r < R; r++)
                if (ok[r])
                    row_store(acc[r], first_row + (uint32_t)r * per_step);
        }
    }

    /* ---- warp: a warp on R adjacent rows, every load at once ---------------- */
    /* The warp kernels' end: the body's shuffle tree over the R row states
       at once (every lane takes part, full mask; lanes past a row's end
       hold the identity, and so do rows past the end), then lane r takes
       row r from lane 0 and stores it: R stores at once, not R in turn on
       lane 0 (rows_probe lane0-stores: 3% slower). */
    template <int R>
    __device__ void warp_rows_store(Vec<A, R> acc, uint32_t lane, uint32_t first_row,
                                    uint32_t n) const {
        acc = warp_reduce(op, acc, lane, 32u, 0xffffffffu);
        A mine = acc.v[0];
#pragma unroll
        for (int r = 1; r < R; r++) {
            const A from_lane0 = shfl_up(0xffffffffu, acc.v[r], r);
            if (lane == (uint32_t)r)
                mine = from_lane0;
        }
        if (lane < (uint32_t)R && first_row + lane < n)
            row_store(mine, first_row + lane);
    }

    /* Lane l folds elements l, l + 32, ..., l + 32 (C - 1) of each of its
       warp's R rows, where 32 (C - 1) < L <= 32 C (the launch picks C):
       columns below C - 1 exist in every row and load without a
       predicate, the last one where l + 32 (C - 1) < L. Every load of the
       R rows is issued before the first fold. (With a length predicate on
       every load, as in v1.14's attempt, ptxas put each fold right after
       its load and the warp waited on the loads in turn: rows_probe, rows
       of 129, 119 us against 94; bench/NOTES.md v1.15.) A warp whose R
       rows are not all there (the grid's last) predicates the rows too.
       Then a shuffle tree a row gives lane 0 the rows, and lane r stores
       row r. A block's warps take rows of their own. */
    template <int C> __device__ void warp_rows() const {
        constexpr int R = RT__ROWS_WARP_ROWS;
        const uint32_t lane = threadIdx.x & 31u;
        const uint32_t first_row = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * R;
        const uint32_t L = a.num_inputs, n = a.num_outputs;
        const bool last_column = lane + 32u * (C - 1) < L;

        int32_t row[R]; /* byte offsets of the rows' lane-l elements from a.in */
        bool ok[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            ok[r] = first_row + (uint32_t)r < n;
        row_starts<R>(first_row, 1u, ok, row);
#pragma unroll
        for (int r = 0; r < R; r++)
            row[r] += (int32_t)(lane * sizeof(S));
        S v[R][C];
        if (first_row + R <= n) {
#pragma unroll
            for (int r = 0; r < R; r++) {
#pragma unroll
                for (int c = 0; c < C - 1; c++)
                    v[r][c] = *reinterpret_cast<const S *>(a.in + row[r] +
                                                           (int32_t)(32 * c * sizeof(S)));
                if (last_column)
                    v[r][C - 1] = *reinterpret_cast<const S *>(
                        a.in + row[r] + (int32_t)(32 * (C - 1) * sizeof(S)));
            }
        } else {
#pragma unroll
            for (int r = 0; r < R; r++)
#pragma unroll
                for (int c = 0; c < C; c++)
                    if (ok[r] && (c < C - 1 || last_column))
                        v[r][c] = *reinterpret_cast<const S *>(a.in + row[r] +
                                                               (int32_t)(32 * c * sizeof(S)));
        }
        Vec<A, R> acc;
#pragma unroll
        for (int r = 0; r < R; r++) {
            acc.v[r] = op.ident();
#pragma unroll
            for (int c = 0; c < C - 1; c++)
                acc.v[r] = op.reduce(acc.v[r], v[r][c], lane + 32u * c);
            if (last_column)
                acc.v[r] = op.reduce(acc.v[r], v[r][C - 1], lane + 32u * (C - 1));
        }
        warp_rows_store(acc, lane, first_row, n);
    }

    /* ---- warp, vectors: rows of at most 32 aligned 16-byte vectors ---------- */
    /* warp_rows where every row is whole 16-byte vectors, 16-byte aligned,
       at most 32 of them (the config's rows_vec, tuned_rows.c): lane l
       loads vector l of each of its warp's R rows, the R loads at once
       (lanes past a row's end load nothing), folds its V elements a row,
       then warp_rows_store. */
    __device__ void warp_rows_vec() const {
        constexpr int R = RT__ROWS_WARP_ROWS;
        constexpr int V = 16 / (int)sizeof(S);
        using Load = Packed<S, V>;
        const uint32_t lane = threadIdx.x & 31u;
        const uint32_t first_row = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * R;
        const uint32_t n = a.num_outputs;
        const bool in_row = lane * (uint32_t)V < a.num_inputs;
        bool ok[R];
        int32_t row[R]; /* byte offsets of the rows from a.in */
#pragma unroll
        for (int r = 0; r < R; r++)
            ok[r] = in_row && first_row + (uint32_t)r < n;
        row_starts<R>(first_row, 1u, ok, row);
        Load v[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            if (ok[r])
                v[r] = *reinterpret_cast<const Load *>(a.in + row[r] + (int32_t)(lane * 16u));
        Vec<A, R> acc;
#pragma unroll
        for (int r = 0; r < R; r++) {
            acc.v[r] = op.ident();
            if (ok[r])
#pragma unroll
                for (int i = 0; i < V; i++)
                    acc.v[r] = op.reduce(acc.v[r], v[r].v[i], lane * (uint32_t)V + (uint32_t)i);
        }
        warp_rows_store(acc, lane, first_row, n);
    }

    /* ---- short: a thread per row, the whole row in one batch ----------------- */
    template <int V, int C> __device__ void short_rows() const {
        constexpr int R = ShortRows<Op, V>::R;
        using Load = Packed<S, V>;
        const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
        const uint32_t first_row = (blockIdx.x * (blockDim.x >> 5) + warp) * (32u * R) + lane;
        const uint32_t loads = a.num_inputs / V, n = a.num_outputs;

        int32_t row[R]; /* byte offsets of the rows from a.in */
        bool ok[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            ok[r] = first_row + (uint32_t)r * 32u < n;
        row_starts<R>(first_row, 32u, ok, row);
        Load v[R][C];
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int c = 0; c < C; c++)
                if (ok[r] && (uint32_t)c < loads)
                    v[r][c] = *reinterpret_cast<const Load *>(a.in + row[r] +
                                                              c * (int32_t)sizeof(Load));
#pragma unroll
        for (int r = 0; r < R; r++) {
            if (!ok[r])
                continue;
            A acc = op.ident();
#pragma unroll
            for (int c = 0; c < C; c++)
                if ((uint32_t)c < loads)
#pragma unroll
                    for (int i = 0; i < V; i++)
                        acc = op.reduce(acc, v[r][c].v[i], (uint32_t)(c * V + i));
            row_store(acc, first_row + (uint32_t)r * 32u);
        }
    }

    /* ---- cols: a thread a column (an outer reduction) ------------------------ */
    /* Output o is the column starting at output_offset(a, o, IN); its
       elements lie in_strides[0] bytes apart (one reduced dim). Thread t
       of a block takes column blockIdx.x * W + t % W and lane y = t / W
       of its rows: y, y + Y, ..., U at once in flight, each batch's loads
       all issued before it folds them as one batch (Op::fold_batch: the
       batch's own mean and m2, then one Chan merge), the rows past the
       last whole batch a Welford step each. Lanes 1.. Y-1 leave their
       states in smem; lane 0 folds them in lane order and stores.
       Streaming loads: every element is read once. A Welford step a value
       chains U dependent updates of one state (each a division) after
       every batch of loads; the batch's sums are independent adds. */
    template <int W, int Y, int U> __device__ void cols(char *smem) const {
        const uint32_t x = threadIdx.x % W, y = threadIdx.x / W;
        const uint32_t o = blockIdx.x * W + x, L = a.num_inputs;
        const bool ok = o < a.num_outputs;
        A acc = op.ident();
        if (ok) {
            const int32_t st = a.in_strides[0];
            const char *p = a.in + output_offset(a, o, RT__OUT_SLOT_IN) + (ptrdiff_t)y * st;
            uint32_t r = y;
            for (; r + (uint32_t)(Y * (U - 1)) < L; r += Y * U, p += (ptrdiff_t)(Y * U) * st) {
                S v[U];
#pragma unroll
                for (int u = 0; u < U; u++)
                    v[u] = load_stream(reinterpret_cast<const S *>(p + (ptrdiff_t)(u * Y) * st));
                acc = op.template fold_batch<U>(acc, v);
            }
            for (; r < L; r += Y, p += (ptrdiff_t)Y * st)
                acc = op.reduce(acc, load_stream(reinterpret_cast<const S *>(p)), r);
        }
        A *slots = reinterpret_cast<A *>(smem);
        if (y > 0)
            slots[(y - 1) * W + x] = acc;
        __syncthreads();
        if (y == 0 && ok) {
#pragma unroll
            for (int k = 1; k < Y; k++)
                acc = op.combine(acc, slots[(k - 1) * W + x]);
            store(acc, o);
        }
    }

    /* ---- block: a block of threads per row ----------------------------------- */
    /* Row blockIdx.x, read by the block's nt threads in aligned 16-byte
       vectors (scalar head and tail): thread t loads vectors t, t + nt,
       ..., C of them before any fold (a whole row in one batch when it has
       C * nt vectors), a partial batch also at once; then the warps'
       shuffles and one exchange through shared memory. One state per
       thread: the lockstep states of the general kernel (min(V, vt0)) made
       bf16 sums spill under the 32-register bound with C = 2. The loads of
       a batch are unguarded: with every load guarded, amax of [32768,4096]
       over dim 1 took 201 us against 187 unguarded (512 threads, H100,
       bench/NOTES.md v1.7). Exact rows (a.rows_exact:
       aligned rows of C x nt vectors, one kept dim, an unsplit reduction)
       take exact_row instead. */
    template <int C> __device__ void block_row(char *smem) const {
        if (a.rows_exact) {
            exact_row<C>(smem);
            return;
        }
        constexpr int V = 16 / (int)sizeof(S);
        using Load = Packed<S, V>;
        const uint32_t t = threadIdx.x, nt = blockDim.x, o = blockIdx.x;
        const uint32_t L = a.num_inputs;
        const S *data = reinterpret_cast<const S *>(a.in + output_offset(a, o, RT__OUT_SLOT_IN));
        const uint32_t head = vector_head<V>(data, L);
        const uint32_t nvec = (L - head) / V, tail = head + nvec * V;
        A acc[1] = {op.ident()};
        /* Fewer than V elements at each end, one a thread: the head's to
           threads 0, 1, ..., the tail's to the block's last threads (head
           and L - tail are below V <= 16, the block whole warps, so no
           thread gets both), loaded before the vectors and folded after
           them (EdgeAfterVectors). H100, the 4096-of-4097-column slice,
           edge_probe, 8 passes, us (bench/NOTES.md v1.42): 89.12 -> 88.91
           a call after a sleep, 87.11 -> 86.89 back to back. */
        const uint32_t back = nt - 1 - t;
        const bool has_edge = t < head || back < L - tail;
        const uint32_t edge_at = t < head ? t : tail + back;
        S edge = S();
        if (has_edge)
            edge = data[edge_at];
        if (!EdgeAfterVectors<Op, C>::value && has_edge)
            acc[0] = op.reduce(acc[0], edge, edge_at);
        const Load *vec = reinterpret_cast<const Load *>(data + head);
        uint32_t j = t;
        for (; j + (C - 1) * nt < nvec; j += C * nt) {
            Load v[C];
#pragma unroll
            for (int c = 0; c < C; c++)
                v[c] = load_stream(&vec[j + c * nt]);
#pragma unroll
            for (int c = 0; c < C; c++)
                fold_vector(op, acc, v[c], head + (j + c * nt) * V, 0);
        }
        /* The partial batch: what is left of this thread's vectors lies
           below j + (C - 1) * nt.
           - 4- and 8-byte elements: one batch loads it all at once (one
             at a time, each load waited on before the next, rows of
             5000-6000 floats took 20% longer as var than as sums and f64
             rows of 4000 79%, H100, bench/NOTES.md v1.30). Its slots past
             nvec reload vector j (this thread's own, below nvec) and are
             not folded, so that no load is guarded: guarded, ptxas folded
             the first vectors before it issued the rest, two memory round
             trips (the sm_90 SASS). H100, sums over dim 1,
             bench/var_rows.py, us (v1.42): f32 [16384,5000] 120.6 ->
             107.1, f64 [16384,4000] 197.0 -> 170.3.
           - Welford's states keep the guarded loads: with the reloads f64
             var of [16384,2049] ran 11% slower, though its rows never take
             this batch (v1.42, not understood).
           - Byte and 16-bit elements keep one at a time: their widened
             values spilled 8-168 bytes under the 32-register bound with
             C = 4 (-Xptxas -v, sm_90). */
        if constexpr (sizeof(S) < 4) {
            for (; j < nvec; j += nt)
                fold_vector(op, acc, load_stream(&vec[j]), head + j * V, 0);
        } else if (j < nvec) {
            Load v[C];
#pragma unroll
            for (int c = 0; c < C; c++) {
                if constexpr (IsWelford<Op>::value) {
                    if (j + c * nt < nvec)
                        v[c] = load_stream(&vec[j + c * nt]);
                } else {
                    v[c] = load_stream(&vec[j + c * nt < nvec ? j + c * nt : j]);
                }
            }
#pragma unroll
            for (int c = 0; c < C; c++)
                if (j + c * nt < nvec)
                    fold_vector(op, acc, v[c], head + (j + c * nt) * V, 0);
        }
        if (EdgeAfterVectors<Op, C>::value && has_edge)
            acc[0] = op.reduce(acc[0], edge, edge_at);
        Vec<A, 1> r;
        r.v[0] = acc[0];
        r = warps_reduce<Op, 1, true>(op, r, t, nt, smem, 0); /* smem's first use */
        if (t == 0)
            body.store(r, o);
    }

    /* Row blockIdx.x of exactly C x nt aligned vectors (tuned_rows.c
       rows_exact): the row starts at exact_start and every thread loads
       its C vectors unguarded, with no head, tail or bounds; thread 0
       writes the output with exact_store. What block_row spends around
       the same loads and block reduction (the output offsets' digits, the
       alignment head, the batch bounds, the pieces' first/last branches)
       cost the [32768,4096]-class row reductions 0.05-0.3 us a call
       (tuned_rows.c has the times). */
    template <int C> __device__ void exact_row(char *smem) const {
        constexpr int V = 16 / (int)sizeof(S);
        using Load = Packed<S, V>;
        const uint32_t t = threadIdx.x, nt = blockDim.x, o = blockIdx.x;
        const Load *vec = exact_start<Load>(o);
        Load v[C];
#pragma unroll
        for (int c = 0; c < C; c++)
            v[c] = load_stream(&vec[t + c * nt]);
        A acc[1] = {op.ident()};
#pragma unroll
        for (int c = 0; c < C; c++)
            fold_vector(op, acc, v[c], (t + c * nt) * V, 0);
        Vec<A, 1> r;
        r.v[0] = acc[0];
        r = warps_reduce<Op, 1, true>(op, r, t, nt, smem, 0); /* smem's first use */
        if (t == 0)
            exact_store(r.v[0], o);
    }

    /* var/std of R aligned rows of nvec whole vectors each that one batch
       of C a thread covers (the config's rows_two_pass; R = 2: two rows a
       block), every value in registers: each thread takes the mean of its
       values of each row, then their squared deviations about it (two
       passes over registers, Op::moments), and a butterfly of Chan's
       merges (chan_xor) combines the warp's states; lane 0 of each warp
       leaves its states in smem, and warp 0 merges the block's
       power-of-two count of warps the same way; thread 0 stores (mean,
       m2, L) of each row (o0, o0 + 1 where it exists) through the op's
       projection. One block reduction and one barrier a block: no Welford
       folds, no 16-byte (mean, m2, n) states, and no second block sum
       after the mean (tuned_rows.c has the measurements).
       Exact (nvec == C x nt, C = 1, 2 or 4: two_pass_block keeps 3 on the
       general path): every thread holds K = C x V values a row, a power
       of two (the mean an exact scaling, the merges without a division or
       counts). Otherwise thread t holds vectors t, t + nt, ...
       below nvec of each row, loaded at once (guarded): C or C - 1 of them
       (none past nvec on the fewest threads), the same count in every
       row, so one count travels with the states and a merge of unequal
       ones divides once.
       smem holds 2R (exact) or 2R + 1 numbers a warp (the config gives
       R x acc_size, 16 or 32 bytes a row, a warp). */
    template <int C, int R, bool Exact>
    __device__ void two_pass_rows(const Packed<S, 16 / (int)sizeof(S)> *const (&row)[R],
                                  uint32_t nvec, char *smem, uint32_t o0) const {
        constexpr int V = 16 / (int)sizeof(S), K = C * V, Q = Exact ? 2 * R : 2 * R + 1;
        using F = decltype(A{}.mean);
        const uint32_t t = threadIdx.x, nt = blockDim.x, lane = t & 31u, nw = nt >> 5;
        Packed<S, V> v[R][C];
        F mean[R], m2[R], n;
        if constexpr (Exact) {
#pragma unroll
            for (int r = 0; r < R; r++)
#pragma unroll
                for (int c = 0; c < C; c++)
                    v[r][c] = load_stream(&row[r][t + c * nt]);
#pragma unroll
            for (int r = 0; r < R; r++)
                op.template moments<K>([&v, r](int i) { return v[r][i / V].v[i % V]; }, mean[r],
                                       m2[r]);
            n = F(K);
        } else {
            int k = 0; /* this thread's vectors of each row: the first k of its C */
#pragma unroll
            for (int c = 0; c < C; c++)
                if (t + c * nt < nvec) {
#pragma unroll
                    for (int r = 0; r < R; r++)
                        v[r][c] = load_stream(&row[r][t + c * nt]);
                    k = c + 1;
                }
#pragma unroll
            for (int r = 0; r < R; r++)
                op.template moments_first<K>([&v, r](int i) { return v[r][i / V].v[i % V]; },
                                             k * V, mean[r], m2[r]);
            n = static_cast<F>(k * V);
        }
#pragma unroll
        for (uint32_t off = 1; off < 32; off <<= 1)
            chan_xor<Exact>(mean, m2, n, off);
        F *slots = reinterpret_cast<F *>(smem);
        if (lane == 0) {
#pragma unroll
            for (int r = 0; r < R; r++) {
                slots[Q * (t >> 5) + 2 * r] = mean[r];
                slots[Q * (t >> 5) + 2 * r + 1] = m2[r];
            }
            if constexpr (!Exact)
                slots[Q * (t >> 5) + 2 * R] = n;
        }
        __syncthreads();
        if (t >= 32)
            return;
        /* Lanes past the last warp reread warp 0's states; with nw a power
           of two no lane below nw merges with them. (Exact: n is already
           each warp's count, 32 K.) */
        const uint32_t w = lane < nw ? lane : 0;
#pragma unroll
        for (int r = 0; r < R; r++) {
            mean[r] = slots[Q * w + 2 * r];
            m2[r] = slots[Q * w + 2 * r + 1];
        }
        if constexpr (!Exact)
            n = slots[Q * w + 2 * R];
        for (uint32_t off = 1; off < nw; off <<= 1)
            chan_xor<Exact>(mean, m2, n, off);
        if (t == 0)
#pragma unroll
            for (int r = 0; r < R; r++)
                if (o0 + r < a.num_outputs) {
                    const A s{mean[r], m2[r], static_cast<F>(a.num_inputs),
                              (int32_t)a.num_inputs};
                    if (R == 1) /* exact rows only a row a block (two_pass_block) */
                        row_store(s, o0);
                    else
                        store(s, o0 + r);
                }
    }

    /* The two-pass kernel's rows (rows_two_pass_kernel): row blockIdx.x
       (R = 1), or rows 2 blockIdx.x and the next (R = 2; a missing last
       row rereads row n - 1), aligned, of whole vectors, that one batch
       of C vectors a thread covers; an exact batch of one row takes the
       exact path, the rest the general one. Exact rows (a.rows_exact; never
       with C = 3) start at exact_start and store with exact_store. */
    template <int C, int R> __device__ void two_pass_block(char *smem) const {
        constexpr int V = 16 / (int)sizeof(S);
        using Load = Packed<S, V>;
        const uint32_t n = a.num_outputs, o0 = blockIdx.x * R, nvec = a.num_inputs / V;
        if constexpr (R == 1 && C != 3) {
            if (a.rows_exact) {
                const Load *const row[1] = {exact_start<Load>(o0)};
                two_pass_rows<C, 1, true>(row, nvec, smem, o0);
                return;
            }
        }
        const Load *row[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            row[r] = reinterpret_cast<const Load *>(
                a.in +
                output_offset(a, R == 1 ? o0 : min(o0 + (uint32_t)r, n - 1), RT__OUT_SLOT_IN));
        /* (3 vectors of 16-bit values: the exact path spilled 6 bytes of
           bf16 under 32 registers, -Xptxas -v, sm_90; the general one, whose
           equal counts merge without a division, none.) */
        if constexpr (R == 1 && C != 3) {
            if (nvec == (uint32_t)C * blockDim.x) {
                two_pass_rows<C, 1, true>(row, nvec, smem, o0);
                return;
            }
        }
        two_pass_rows<C, R, false>(row, nvec, smem, o0);
    }

    /* Rows 2 * blockIdx.x and the next, aligned and of whole vectors, at
       most C * nt of them (the config's rows_per_block 2): every thread
       loads its up to C vectors of both rows in one guarded batch before
       any fold, and one warps_reduce combines the two states at once, so
       a block's barriers and shuffles serve two rows. H100,
       [67108,1000] f32 sum dim 1: 99.2 -> 90.1 us (bench/NOTES.md v1.8). */
    template <int C> __device__ void block_row_pair(char *smem) const {
        constexpr int V = 16 / (int)sizeof(S), R = 2;
        using Load = Packed<S, V>;
        const uint32_t t = threadIdx.x, nt = blockDim.x, n = a.num_outputs;
        const uint32_t nvec = a.num_inputs / V, o0 = blockIdx.x * R;
        const Load *row[R];
#pragma unroll
        for (int r = 0; r < R; r++) /* a missing last row rereads row n - 1 */
            row[r] = reinterpret_cast<const Load *>(
                a.in + output_offset(a, min(o0 + (uint32_t)r, n - 1), RT__OUT_SLOT_IN));
        Load v[R][C];
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int c = 0; c < C; c++)
                if (t + c * nt < nvec)
                    v[r][c] = load_stream(&row[r][t + c * nt]);
        A acc[R][1];
#pragma unroll
        for (int r = 0; r < R; r++) {
            acc[r][0] = op.ident();
#pragma unroll
            for (int c = 0; c < C; c++)
                if (t + c * nt < nvec)
                    fold_vector(op, acc[r], v[r][c], (t + c * nt) * V, 0);
        }
        Vec<A, R> both;
#pragma unroll
        for (int r = 0; r < R; r++)
            both.v[r] = acc[r][0];
        both = warps_reduce<Op, R, true>(op, both, t, nt, smem, 0); /* smem's first use */
        if (t == 0)
#pragma unroll
            for (int r = 0; r < R; r++)
                if (o0 + r < n)
                    store(both.v[r], o0 + r);
    }

    /* ---- tile: packed rows through shared memory ----------------------------- */
    __device__ void tile(char *smem) const {
        constexpr int V = 16 / (int)sizeof(S);
        using Load = Packed<S, V>;
        const uint32_t L = a.num_inputs, nt = blockDim.x, t = threadIdx.x;
        const uint32_t rows = (uint32_t)a.rows_per_block;
        const uint32_t row0 = blockIdx.x * rows;
        const uint32_t nrows = min(rows, a.num_outputs - row0);
        const uint32_t n = nrows * L;
        const S *src = reinterpret_cast<const S *>(a.in + output_offset(a, row0, RT__OUT_SLOT_IN));
        /* Element i goes to tile[mis + i], so 16-byte aligned input lands
           on 16-byte aligned shared memory. */
        const uint32_t mis = (uint32_t)(reinterpret_cast<uintptr_t>(src) % 16u) / sizeof(S);
        const uint32_t head = mis == 0 ? 0 : min(n, (uint32_t)V - mis);
        S *tile = reinterpret_cast<S *>(smem);
        for (uint32_t i = t; i < head; i += nt)
            tile[mis + i] = src[i];
        const Load *vsrc = reinterpret_cast<const Load *>(src + head);
        Load *vdst = reinterpret_cast<Load *>(tile + mis + head);
        const uint32_t nvec = (n - head) / V;
        /* Up to 9 16-byte loads per thread, all issued before any store:
           the config sizes the tile so one batch covers it (a thread's
           loads one after the other cost a memory latency each). The
           __syncwarp() between the loads and the stores holds ptxas to
           that order: without it, under the old 48-register allocation of
           f32 tiles, it put the first store after 3 or 4 loads, so a batch
           took 3 round trips, and a change elsewhere in the kernel moved
           it from 4 to 3 (+25%). f32 tiles now take 56 registers, 8-byte
           states 64 (H100, rt_bench: rows of 33 98.6-99.2 -> 97.2-97.4 us,
           [4194304,32] -0.15%; bench/NOTES.md v1.24). */
        for (uint32_t c = 0; c < nvec; c += kTileBatch * nt) {
            Load x[kTileBatch];
#pragma unroll
            for (int u = 0; u < kTileBatch; u++)
                if (c + u * nt + t < nvec)
                    x[u] = vsrc[c + u * nt + t];
            __syncwarp();
#pragma unroll
            for (int u = 0; u < kTileBatch; u++)
                if (c + u * nt + t < nvec)
                    vdst[c + u * nt + t] = x[u];
        }
        for (uint32_t j = head + nvec * V + t; j < n; j += nt)
            tile[mis + j] = src[j];
        __syncthreads();

        /* G lanes per row (1: a thread per row); lane g folds columns
           g, g+G, ... of the row rotated by s, then a shuffle tree. The
           loop bound is uniform so every lane reaches the shuffles. */
        const uint32_t G = (uint32_t)a.rows_group, g = t & (G - 1), step = nt / G;
        for (uint32_t rb = 0; rb < nrows; rb += step) {
            const uint32_t r = rb + t / G;
            A acc = op.ident();
            if (r < nrows) {
                const S *row = tile + mis + r * L;
                uint32_t s = ((r >> a.rows_rot_shift) & (uint32_t)a.rows_rot_mask) * G;
                if (s >= L)
                    s %= L;
                uint32_t j = g + s;
                if (j >= L)
                    j -= L;
                for (uint32_t x = g; x < L; x += G) {
                    acc = op.reduce(acc, row[j], j);
                    j += G;
                    if (j >= L)
                        j -= L;
                }
            }
            for (uint32_t off = 1; off < G; off <<= 1) {
                A other = op.shfl(acc, (int)off, 0xffffffffu);
                if (g + off < G)
                    acc = op.combine(acc, other);
            }
            if (g == 0 && r < nrows)
                store(acc, row0 + r);
        }
    }
};

template <typename Op, int V>
__global__ void __launch_bounds__(256, RowsBounds<Op>::min_blocks)
    rows_direct_kernel(const __grid_constant__ rt__kernel_args a) {
    RowsReducer<Op>(a).template direct<V>();
}

/* Blocks of 1 to RT__ROWS_WARP_MAX_WARPS warps; 48 warps a SM under the
   bound's 40 registers (f32 sums take 31 and 37; 1-warp blocks stop at
   the SM's 32 blocks). */
template <typename Op, int C>
__global__ void __launch_bounds__(32 * RT__ROWS_WARP_MAX_WARPS, 48 / RT__ROWS_WARP_MAX_WARPS)
    rows_warp_kernel(const __grid_constant__ rt__kernel_args a) {
    RowsReducer<Op>(a).template warp_rows<C>();
}

/* The vector form: a full SM of warps (2048 threads, 32 registers). */
template <typename Op>
__global__ void __launch_bounds__(32 * RT__ROWS_WARP_MAX_WARPS, 64 / RT__ROWS_WARP_MAX_WARPS)
    rows_warp_vec_kernel(const __grid_constant__ rt__kernel_args a) {
    RowsReducer<Op>(a).warp_rows_vec();
}

/* Rows of at most 4 elements of at most 4 bytes into a state of at most 4
   bytes fit 32 registers without a spill: 8 blocks of 256 per SM, a full
   SM. The rest keep RowsBounds (8 scalars of f32 spilled 60 bytes under
   32 registers; -Xptxas -v, sm_90). */
template <typename Op, int V, int C>
__global__ void __launch_bounds__(256, C * V <= 4 && sizeof(typename Op::scalar_t) <= 4 &&
                                               sizeof(typename Op::acc_t) <= 4
                                           ? 8
                                           : RowsBounds<Op>::min_blocks)
    rows_short_kernel(const __grid_constant__ rt__kernel_args a) {
    RowsReducer<Op>(a).template short_rows<V, C>();
}

/* The most vectors a thread the block kernel of R rows a block is built
   for with Op (the config's traits row_block_loads and row_pair_loads say
   the same, traits.c); more spilled (-Xptxas -v, sm_90), so they are not
   built:
    - a row a block (32-register bound): (value, index) states of 16-bit
      values spilled 20-92 bytes with two or four, norms of run-time p
      14-16 bytes with four;
    - two rows a block (twice that bound): byte sums 60-100 bytes and
      16-bit max and infinite norms 26-28 bytes with four of each row, so
      1- and 2-byte values take two at most. States over 16 bytes (f64
      var) are not built two rows a block: [33554,1000] f64 var ran 168.7
      -> 183.7 us with it (H100, bench/NOTES.md v1.8). */
template <typename Op, int R> struct BlockRowsMaxLoads {
    static constexpr int value = R == 2 && sizeof(typename Op::acc_t) > 16  ? 0
                                 : R == 2 && sizeof(typename Op::scalar_t) <= 2 ? 2
                                                                                : 4;
};
template <typename S, bool IsMax, int R> struct BlockRowsMaxLoads<ArgOp<S, IsMax>, R> {
    static constexpr int value = sizeof(S) == 2 ? 0 : R == 2 && sizeof(S) == 1 ? 2 : 4;
};
template <typename S, int R> struct BlockRowsMaxLoads<NormOp<S, -1>, R> {
    static constexpr int value = 2;
};

/* The block kernel's register bound: the op's, but 40 registers (3
   blocks of 512 threads a SM) for sums and products of 8-byte values at 4
   vectors a thread, a row a block, where the op's bound (2 blocks) left
   the f64 sum 42 registers and so 2 blocks a SM, and the i64 sum took 40
   and 3 (ptxas, sm_90). bench/NOTES.md v1.40 has the times. */
template <typename Op, int C, int R> struct RowsBlockBounds {
    static constexpr int min_blocks = Op::min_blocks;
};
template <typename S, bool IsProd, int C, int R>
struct RowsBlockBounds<SumProdOp<S, IsProd>, C, R> {
    static constexpr int min_blocks =
        sizeof(S) == 8 && C == 4 && R == 1 ? 3 : SumProdOp<S, IsProd>::min_blocks;
};

/* R rows a block (1 or 2) on up to 512 / R threads (whole warps): the
   general kernel's register bound for one row, twice it for two, for the
   2C vectors a thread then holds at once (f32 sums of [67108,1000] ran
   90.0 us under it, bench/NOTES.md v1.8). */
template <typename Op, int C, int R>
__global__ void __launch_bounds__(512 / R, RowsBlockBounds<Op, C, R>::min_blocks)
    rows_block_kernel(const __grid_constant__ rt__kernel_args a) {
    extern __shared__ __align__(16) char rt_smem[];
    if constexpr (R == 1)
        RowsReducer<Op>(a).template block_row<C>(rt_smem);
    else
        RowsReducer<Op>(a).template block_row_pair<C>(rt_smem);
}

/* The two-pass kernel's register bound: the block kernel's, but 40
   registers (3 blocks of 512 threads, 6 of 256) for 16-bit values at 4
   vectors a thread or two rows a block, and for f64 rows at 2 vectors a
   thread or 1. H100, bench/var_rows.py, bench/NOTES.md v1.32 runs 2-4:
   - 16-bit, C = 4 (from 32): their 32 widened values spilled 14-70 bytes
     under 32 registers (-Xptxas -v, sm_90), none at 40, and the fewer
     blocks still read rows faster than Welford's folds at 32 (tuned_rows.c
     TWO_PASS has the times). Unconditional loads that reread a row's last
     vector fitted 32 registers, but ran 0-8% slower than this bound
     (likely every warp's rereads of one line);
   - bf16 pairs (from 46 registers, 5 blocks of 256 a SM): [67108,2000]
     102.2-103.0 -> 98.9-99.0 us, [89478,1496] 122.2-123.0 -> 119.7-119.8;
     f16 pairs need 32 registers under either bound; at 32 bf16 spilled 38
     bytes;
   - f64 rows at C = 2 (from 42 registers): [131072,500] 204.4-205.5 ->
     188.3-188.4 us (the row sum 195.0). At C = 4 f64 spilled 24 bytes at
     40 registers and rows of 1000 ran 6% slower: those keep 2 blocks of
     512;
   - 16-bit rows of at most 3 vectors a thread take C = 3 (tuned_rows.c),
     which keeps the bound of 32: 16 blocks of 128 a SM, as the sum has
     (run 8).
   A kernel apart from the block kernel, so that Welford's folds keep the
   block kernel's bound for misaligned rows: under the 40-register bound
   bf16 and f16 var of those ran 4-11% slower (run 3). */
template <typename Op, int C, int R> struct RowsTwoPassBounds {
    using S = typename Op::scalar_t;
    static constexpr bool at40 =
        (sizeof(S) == 2 && (C == 4 || R == 2)) || (sizeof(S) == 8 && R == 1 && C <= 2);
    static constexpr int min_blocks = at40 ? 3 * R : Op::min_blocks;
};

/* var/std of R aligned rows a block in two passes (the config's
   rows_two_pass), C vectors a thread. */
template <typename Op, int C, int R>
__global__ void __launch_bounds__(512 / R, RowsTwoPassBounds<Op, C, R>::min_blocks)
    rows_two_pass_kernel(const __grid_constant__ rt__kernel_args a) {
    extern __shared__ __align__(16) char rt_smem[];
    RowsReducer<Op>(a).template two_pass_block<C, R>(rt_smem);
}

/* The column kernel (the config's rows_cols): exactly W x Y threads. */
template <typename Op>
__global__ void __launch_bounds__(RT__ROWS_COLS_WIDTH * RT__ROWS_COLS_LANES)
    rows_cols_kernel(const __grid_constant__ rt__kernel_args a) {
    extern __shared__ __align__(16) char rt_smem[];
    RowsReducer<Op>(a).template cols<RT__ROWS_COLS_WIDTH, RT__ROWS_COLS_LANES,
                                     RT__ROWS_COLS_LOADS>(rt_smem);
}

/* 128 threads, the config's tile block (ROWS_TILE_THREADS). */
template <typename Op>
__global__ void __launch_bounds__(128) rows_tile_kernel(const __grid_constant__ rt__kernel_args a) {
    extern __shared__ __align__(16) char rt_smem[];
    RowsReducer<Op>(a).tile(rt_smem);
}

/* The block kernel of C vectors a thread and R rows a block, or for
   var/std in two passes (rows_two_pass) its two-pass kernel. */
template <typename Op, int C, int R>
cudaError_t launch_block_kernel(const rt__launch_config *c, dim3 grid, dim3 block, size_t smem,
                                cudaStream_t stream, void **params, int device) {
    if constexpr (IsWelford<Op>::value) {
        if (c->rows_two_pass)
            return launch_fast<rows_two_pass_kernel<Op, C, R>>(grid, block, smem, stream, params,
                                                               device);
    }
    return launch_fast<rows_block_kernel<Op, C, R>>(grid, block, smem, stream, params, device);
}

/* The block kernel of R rows a block and the config's C (rows_in_flight)
   vectors a thread; cudaErrorInvalidValue for more than the MAX it is
   built for. */
template <typename Op, int R, int MAX>
cudaError_t launch_rows_block(const rt__launch_config *c, dim3 grid, dim3 block, size_t smem,
                              cudaStream_t stream, void **params, int device) {
    if constexpr (MAX >= 1) {
        if (c->rows_in_flight == 1)
            return launch_block_kernel<Op, 1, R>(c, grid, block, smem, stream, params, device);
    }
    if constexpr (MAX >= 2) {
        if (c->rows_in_flight == 2)
            return launch_block_kernel<Op, 2, R>(c, grid, block, smem, stream, params, device);
    }
    if constexpr (MAX >= 4) {
        if (c->rows_in_flight == 4)
            return launch_block_kernel<Op, 4, R>(c, grid, block, smem, stream, params, device);
    }
    /* 3 a thread: var/std of 16-bit values in two passes, a row a block
       (tuned_rows.c TWO_PASS). */
    if constexpr (IsWelford<Op>::value && R == 1 && sizeof(typename Op::scalar_t) == 2) {
        if (c->rows_in_flight == 3 && c->rows_two_pass)
            return launch_fast<rows_two_pass_kernel<Op, 3, R>>(grid, block, smem, stream, params,
                                                               device);
    }
    return cudaErrorInvalidValue;
}

/* The launch of either ROWS kernel; cudaErrorInvalidValue for a config the
   kernels were not compiled for (rows_in_flight, vector width). */
template <typename Op>
cudaError_t launch_rows(const rt__kernel_args *a, const rt__launch_config *c, size_t smem,
                        cudaStream_t stream, int device) {
    using S = typename Op::scalar_t;
    const dim3 grid((unsigned)c->grid[0], 1, 1), block((unsigned)c->block[0], 1, 1);
    void *params[] = {const_cast<rt__kernel_args *>(a)};
    constexpr int VW = 16 / sizeof(S);
    if (c->rows_cols) {
        /* Built for the config's set only: var/std of 4-byte floats. */
        if constexpr (IsWelford<Op>::value && sizeof(S) == 4) {
            if (c->block[0] == RT__ROWS_COLS_WIDTH * RT__ROWS_COLS_LANES &&
                c->rows_in_flight == RT__ROWS_COLS_LOADS)
                return launch_fast<rows_cols_kernel<Op>>(grid, block, smem, stream, params,
                                                         device);
        }
        return cudaErrorInvalidValue;
    }
    if (c->rows_tile)
        return launch_fast<rows_tile_kernel<Op>>(grid, block, smem, stream, params, device);
    if (c->rows_warp) {
        /* Built for one-number states of 4-byte elements only (the config's
           set), 4 or 5 loads a lane a row: C loads for rows of 32 (C - 1) + 1
           to 32 C elements, the kernel's assumption; or, with the config's
           rows_vec, one 16-byte vector a lane a row of at most 32. */
        if constexpr (OneNumberState<Op>::value && sizeof(S) == 4) {
            constexpr int C = RT__ROWS_WARP_MAX_LOADS;
            const int64_t L = a->num_inputs;
            if (c->block[0] % 32 == 0 && c->block[0] <= 32 * RT__ROWS_WARP_MAX_WARPS &&
                c->rows_in_flight == RT__ROWS_WARP_ROWS) {
                if (c->rows_vec == VW && L % VW == 0 && L <= 32 * VW)
                    return launch_fast<rows_warp_vec_kernel<Op>>(grid, block, 0, stream, params,
                                                                 device);
                if (c->rows_vec != 1)
                    return cudaErrorInvalidValue;
                if (L > 32 * (C - 2) && L <= 32 * (C - 1))
                    return launch_fast<rows_warp_kernel<Op, C - 1>>(grid, block, 0, stream,
                                                                    params, device);
                if (L > 32 * (C - 1) && L <= 32 * C)
                    return launch_fast<rows_warp_kernel<Op, C>>(grid, block, 0, stream, params,
                                                                device);
            }
        }
        return cudaErrorInvalidValue;
    }
    if (c->rows_block) {
        if (c->rows_vec != VW)
            return cudaErrorInvalidValue;
        if (c->rows_per_block == 2)
            return launch_rows_block<Op, 2, BlockRowsMaxLoads<Op, 2>::value>(
                c, grid, block, smem, stream, params, device);
        if (c->rows_per_block == 1)
            return launch_rows_block<Op, 1, BlockRowsMaxLoads<Op, 1>::value>(
                c, grid, block, smem, stream, params, device);
        return cudaErrorInvalidValue;
    }
    if (c->rows_short) {
        if (c->rows_vec == 1 && c->rows_in_flight == ShortRows<Op, 1>::R) {
            constexpr int C = RT__ROWS_SHORT_MAX;
            if (a->num_inputs <= C / 2)
                return launch_fast<rows_short_kernel<Op, 1, C / 2>>(grid, block, 0, stream, params,
                                                                    device);
            if (a->num_inputs <= C)
                return launch_fast<rows_short_kernel<Op, 1, C>>(grid, block, 0, stream, params,
                                                                device);
        }
        if (c->rows_vec == VW && c->rows_in_flight == ShortRows<Op, VW>::R && a->num_inputs == VW)
            return launch_fast<rows_short_kernel<Op, VW, 1>>(grid, block, 0, stream, params,
                                                             device);
        return cudaErrorInvalidValue;
    }
    if (c->rows_vec == 1 && c->rows_in_flight == RowsTraits<Op, 1>::R)
        return launch_fast<rows_direct_kernel<Op, 1>>(grid, block, 0, stream, params, device);
    if (c->rows_vec == VW && c->rows_in_flight == RowsTraits<Op, VW>::R)
        return launch_fast<rows_direct_kernel<Op, VW>>(grid, block, 0, stream, params, device);
    return cudaErrorInvalidValue;
}

} // namespace rt

/* The ROWS launch of one (family, dtype) row of RT__FOR_EACH_KERNEL; the
   including file defines RT__OP_<FAM>(T). */
#define RT__DEFINE_ROWS_ENTRY(fam, FAM, sfx, DT)                                                   \
    extern "C" const rt__launch_fn rt__rows_##fam##_##sfx =                                        \
        rt::launch_rows<RT__OP_##FAM(RT__CTYPE_##sfx)>;

#endif /* RT_KERNELS_REDUCE_ROWS_CUH */
