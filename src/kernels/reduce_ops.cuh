/*
 * The reduction ops (DESIGN.md section 6). Each is a small struct over an
 * input storage type S with:
 *   acc_t                         the accumulator state
 *   vt0, input_vec                unroll depth and contiguous vector width
 *   loads_in_flight               vector loads per iteration of the
 *                                 contiguous path: as many as the register
 *                                 bound holds without a spill (-Xptxas -v,
 *                                 sm_90, CUDA 13.0)
 *   strided_loads (optional)      loads in flight a step of the strided
 *                                 1-d path at one output a thread
 *                                 (default vt0; reduce_body.cuh)
 *   min_blocks                    blocks per SM the kernel is compiled for
 *                                 (see reduce_kernel's launch bounds)
 *   ident()                       the state of no elements
 *   reduce(acc, x, idx)           fold one element at reduced index idx
 *   combine(a, b)                 merge two states (a covers lower indices
 *                                 where that matters for rounding)
 *   shfl_down(acc, offset, mask)  warp shuffle of a state
 *   translate(acc, base)          shift a state's index by a piece's base
 *   write(out, idx, dtype, acc)   project and store the final result
 * Ops are built from the kernel arguments (run-time op parameters) inside
 * the kernel and live in registers. Their constructors read op_mode,
 * param0 and param1 only, so any argument block with those fields will
 * do: rt__kernel_args, or the TINY kernel's rt__tiny_args.
 */
#ifndef RT_KERNELS_REDUCE_OPS_CUH
#define RT_KERNELS_REDUCE_OPS_CUH

#include <utility>

#include "reduce_types.cuh"

namespace rt {

/* ---- sum, mean, prod ---------------------------------------------------------- */

template <typename S> static __device__ __forceinline__ typename SumAcc<S>::type to_sum_acc(S x) {
    if constexpr (std::is_same<typename SumAcc<S>::type, unsigned long long>::value)
        return widen_u64(x);
    else
        return widen(x);
}

template <typename S, bool IsProd> struct SumProdOp {
    using scalar_t = S;
    using acc_t = typename SumAcc<S>::type;
    static constexpr int vt0 = 4;
    /* PyTorch's sum_functor reads 8 16-bit elements per vector. */
    static constexpr int input_vec = (!IsProd && sizeof(S) == 2) ? 8 : 4;
    /* Sums of 1-4 byte integers into int64: 3 blocks of 512 (42 registers,
       no spill; 38 used), i32 [32768,4096] dim 1 133.5 -> 130.1 us on an
       H200 (bench/NOTES.md v1.4). */
    static constexpr int min_blocks = sizeof(acc_t) <= 4 && sizeof(S) <= 4 ? 4
                                      : sizeof(S) <= 4                     ? 3
                                                                           : 2;
    /* Four 16-byte loads (64 bytes) fit 32 registers with 4-byte states;
       8-byte states take two in their 64. H200, v0 (2 / 1 in flight) ->
       now: f32 [32768,4096] dim 1 125.6 -> 123.3 us; i32 (i64 state)
       153.5 -> 132.2 (90.6% of the read ceiling). */
    static constexpr int loads_in_flight = sizeof(acc_t) == 4 ? 4 : 2;
    /* 4-byte states: 8 loads in flight a step of the strided 1-d path at
       one output a thread (reduce_body.cuh StridedLoads), into the 4
       states; 32 registers, no spill (f16, bf16, f32; sum and prod;
       -Xptxas -v, sm_90). Unmeasured: no case of the suite sums on that
       path on an H200. (bench/NOTES.md v1.47 credited it with f32
       [671088,100] over dim 0, 69.8-70.5 -> 69.5-70.0 us; that case runs
       at 4 outputs a thread, TUNED rules 10 and 14, where this count
       does not reach: the move was run-to-run spread, v1.48.) Argmax's
       columns gained from the same change of ArgOp. 8-byte states keep
       vt0. */
    static constexpr int strided_loads = sizeof(acc_t) == 4 ? 8 : vt0;
    /* 4-byte states: the general kernel's strided and uniform-walk loops
       at 2 and 4 outputs a thread come pipelined too (reduce_body.cuh
       Pipelined; TUNED rule 15 turns them on): f32 56 -> 64 registers at
       4 outputs, still 2 blocks of 512 a SM; f16 55 -> 57, bf16 55 -> 63;
       no spill (-Xptxas -v, sm_90). 8-byte states went 112 -> 164 (f64,
       int64 at 4 outputs): not built. */
    static constexpr bool pipelined = sizeof(acc_t) == 4;
    /* rt_reduce_default_dtype: int64 for integer and bool inputs. */
    using usual_out_t = typename std::conditional<std::is_integral<S>::value, int64_t, S>::type;
    bool mean;
    acc_t factor;

    template <typename Args> __device__ explicit SumProdOp(const Args &a)
        : mean(a.op_mode == RT__MODE_MEAN), factor(static_cast<acc_t>(a.param0)) {}
    __device__ acc_t ident() const { return acc_t(IsProd ? 1 : 0); }
    __device__ acc_t combine(acc_t a, acc_t b) const { return IsProd ? a * b : a + b; }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const { return combine(acc, to_sum_acc(x)); }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const { return shfl_down(mask, a, off); }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const {
        /* mean = sum * (1/N); integer inputs never take this branch. */
        store_as<usual_out_t>(out, dt, mean ? a * factor : a);
    }
};

template <typename S> using SumOp = SumProdOp<S, false>;
template <typename S> using ProdOp = SumProdOp<S, true>;

/* ---- min, max (values only) ---------------------------------------------------- */

/* NaN propagates: once either side is NaN, the result is NaN. Without
   branches: the if-chain this replaced compiled to a branch and a
   reconvergence barrier (BSSY/BSYNC) per element, about 9 instructions;
   f32 on sm_80+ is one FMNMX.NAN (max.NaN / min.NaN, a canonical NaN
   out). H100, rt_bench, three runs each (bench/NOTES.md v1.9): f32 amax
   of 2^27 178.35 -> 175.94 us (the full sum's 175.8), amax of
   [32768,4096] over dim 1 174.12 -> 173.41. */
template <bool IsMax, typename T> static __device__ __forceinline__ T pick_nan(T a, T b) {
    const bool take_b = !is_nan(a) & (is_nan(b) | (IsMax ? (b > a) : (b < a)));
    return take_b ? b : a;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
template <> __device__ __forceinline__ float pick_nan<true, float>(float a, float b) {
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
template <> __device__ __forceinline__ float pick_nan<false, float>(float a, float b) {
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#endif

template <typename S, bool IsMax> struct MinMaxOp {
    using scalar_t = S;
    using acc_t = typename CmpAcc<S>::type;
    static constexpr int vt0 = 4;
    static constexpr int input_vec = 4;
    static constexpr int min_blocks = sizeof(acc_t) <= 4 ? 4 : 2;
    static constexpr int loads_in_flight = sizeof(acc_t) == 4 ? 4 : 2;

    template <typename Args> __device__ explicit MinMaxOp(const Args &) {}
    __device__ acc_t ident() const {
        return IsMax ? Limits<acc_t>::lowest() : Limits<acc_t>::highest();
    }
    __device__ acc_t combine(acc_t a, acc_t b) const { return pick_nan<IsMax>(a, b); }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const { return combine(acc, widen(x)); }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const { return shfl_down(mask, a, off); }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const { store_as<S>(out, dt, a); }
};

/* ---- argmin, argmax, min/max with indices --------------------------------------- */

/* The state inside a piece (threads, shuffles, shared memory, staging):
   the piece's own 32-bit index (a piece is cut so every reduced index
   fits 32 bits; the kernels pass it as uint32_t). UINT32_MAX: no element
   yet. */
template <typename V> struct ArgAcc {
    V value;
    uint32_t index;
};
/* The state translated by the piece's index base: what the ACC operand
   carries across pieces and write() stores. INT64_MAX: no element yet. */
template <typename V> struct ArgOut {
    V value;
    int64_t index;
};

/*
 * (value, index) pairs under a total order, so the winner does not depend
 * on the reduction order: NaN beats every number; between two NaNs or two
 * equal values the lower index wins; otherwise the smaller (min) or larger
 * (max) value. The identity carries UINT32_MAX (translated: INT64_MAX),
 * so any real element with the same value beats it.
 */
template <typename S, bool IsMax> struct ArgOp {
    using scalar_t = S;
    using val_t = typename CmpAcc<S>::type;
    using acc_t = ArgAcc<val_t>;
    using out_t = ArgOut<val_t>;
    static constexpr int vt0 = 4;
    static constexpr int input_vec = 4;
    /* Float values fit 32 registers (no spill with CUDA 13.0; 12 bytes
       with the compiler this was first measured under); integer and f64
       values spilled 160 to 490 bytes there (-Xptxas -v, sm_90). */
    static constexpr int min_blocks = std::is_same<val_t, float>::value ? 4 : 2;
    /* Two. Float pairs spilled 16 bytes (stores; 48 of loads) under 32
       registers with the compiler of the time (none with CUDA 13.0), and
       still gained: argmax of [32768,4096] dim 1, 138.7 us with one load in
       flight (v0), 133.6 with two (H200); four: 131.6 -> 192.0 (v1.5,
       same run). */
    static constexpr int loads_in_flight = 2;
    /* Float values: 6 loads in flight a step of the strided 1-d path at
       one output a thread (reduce_body.cuh StridedLoads), into the 4
       states. H200, argmax of [4096,32768] over dim 0 (one 4-byte column
       a thread), gpu-check's rt_bench and compare_torch, runs 1-2 (4
       loads) and 3 (6) of bench/NOTES.md v1.47: 136.1-136.5 us
       (89.6-89.8% of the read ceiling) -> 130.3-130.8 (93.4-93.5%). 8
       loads spilled 60-84 bytes (f16, bf16, f32) under the 32-register
       bound (-Xptxas -v, sm_90); 6 spill none. Other values keep 4: 6
       took the i32 kernel from 42 registers (3 blocks of 512 a SM) to 44. */
    static constexpr int strided_loads = std::is_same<val_t, float>::value ? 6 : vt0;
    bool values_mode;

    template <typename Args>
    __device__ explicit ArgOp(const Args &a) : values_mode(a.op_mode == RT__MODE_VALUES) {}
    __device__ acc_t ident() const {
        return {IsMax ? Limits<val_t>::lowest() : Limits<val_t>::highest(), UINT32_MAX};
    }
    template <typename T> __device__ static bool better(const T &a, const T &b) {
        bool an = is_nan(a.value), bn = is_nan(b.value);
        if (an || bn)
            return an && bn ? a.index < b.index : an;
        if (a.value == b.value)
            return a.index < b.index;
        return IsMax ? a.value > b.value : a.value < b.value;
    }
    /* One order for both states: acc_t inside a piece, out_t across them. */
    template <typename T> __device__ T combine(T a, T b) const { return better(a, b) ? a : b; }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t idx) const {
        return combine(acc, acc_t{widen(x), idx});
    }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const {
        return {shfl_down(mask, a.value, off), shfl_down(mask, a.index, off)};
    }
    __device__ out_t translate(acc_t a, int64_t base) const {
        return {a.value, a.index == UINT32_MAX ? INT64_MAX : (int64_t)a.index + base};
    }
    __device__ void write(char *out, char *idx, int dt, out_t a) const {
        if (values_mode) {
            store_as<S>(out, dt, a.value);
            *reinterpret_cast<int64_t *>(idx) = a.index;
        } else {
            *reinterpret_cast<int64_t *>(out) = a.index;
        }
    }
};

/* ---- var, std (Welford, Chan's merge) ------------------------------------------- */

/* delta / n of a Welford step. f32: __fdividef (MUFU reciprocal and a
   multiply, within 2 ulp for n < 2^126) instead of the IEEE division
   subroutine, which made var/std of [32768,4096] compute-bound at 74% of
   the read ceiling (H200, v0). f64 keeps the exact division. */
static __device__ __forceinline__ float div_fast(float x, float n) {
    return __fdividef(x, n);
}
static __device__ __forceinline__ double div_fast(double x, double n) {
    return x / n;
}
/* A product rounded on its own: never contracted into an FMA with a
   neighbouring add, which would round one side of a commutative sum
   differently from the other. */
static __device__ __forceinline__ float mul_rn(float x, float y) {
    return __fmul_rn(x, y);
}
static __device__ __forceinline__ double mul_rn(double x, double y) {
    return __dmul_rn(x, y);
}

template <typename A> struct WelfordAcc {
    A mean;
    A m2;
    A nf;      /* element count, as the float type (Chan's merge needs it) */
    int32_t n; /* element count of a thread-local state, exact */
};

template <typename S> struct WelfordOp {
    using scalar_t = S;
    using A = typename FloatAcc<S>::type;
    using acc_t = WelfordAcc<A>;
    /* PyTorch's std_var_kernel_impl: vt0 = 2 to limit register pressure.
       (4, with the strided path folding its 4 steps as one batch: f32 var
       of [4096,32768] over dim 0 133.5 -> 135.4 us, H200, v1.5.) */
    static constexpr int vt0 = 2;
    /* 16-byte loads (PyTorch: 2-wide, 8 bytes for f32) into vt0 = 2
       lockstep states, two loads in flight, with div_fast: f32 var of
       [32768,4096] dim 1, 164 us (v0: 8-byte loads, one in flight, IEEE
       division) -> 151 (div_fast, four 8-byte loads) -> 134.4 (89% of the
       read ceiling; eager 165.6), H200; no spill. */
    static constexpr int input_vec = 16 / (int)sizeof(S);
    static constexpr int min_blocks = sizeof(A) == 4 ? 4 : 2;
    static constexpr int loads_in_flight = 2;
    bool is_std;
    A correction;

    template <typename Args> __device__ explicit WelfordOp(const Args &a)
        : is_std(a.op_mode == RT__MODE_STD), correction(static_cast<A>(a.param0)) {}
    __device__ acc_t ident() const { return {A(0), A(0), A(0), 0}; }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const {
        A v = widen(x);
        int32_t n = acc.n + 1;
        A nf = static_cast<A>(n);
        A delta = v - acc.mean;
        A mean = acc.mean + div_fast(delta, nf);
        return {mean, acc.m2 + delta * (v - mean), nf, n};
    }
    /* A whole vector of V elements at once (the contiguous path): its own
       mean and m2, merged into acc by Chan's formula. One division and one
       int-to-float conversion (quarter-rate pipes) per batch of up to 4
       elements instead of per element. Predicted: var near a sum's speed;
       measured (H200, bench/NOTES.md v1.5): f32 var of [32768,4096] over
       dim 1 133.4 -> 132.2 us: those pipes were not what held var at 90%
       of the read ceiling. (The strided path folding its 2 steps per
       output as one batch left var over dim 0 at 133.8 -> 133.6 us, and
       was dropped; four loads in flight instead of two: 132.6 vs 132.7.) */
    static constexpr bool packed = true;
    template <int V> __device__ acc_t reduce_packed(acc_t acc, const Packed<S, V> &p) const {
        /* Batches of up to 4: 8 widened halves at once spilled under the
           32-register bound (-Xptxas -v, sm_90). */
        constexpr int B = V < 4 ? V : 4;
#pragma unroll
        for (int b = 0; b < V; b += B)
            acc = fold_batch<B>(acc, p.v + b);
        return acc;
    }
    /* The mean and m2 of B elements on their own, x(i) the i-th, in two
       passes (their sum, then their squared deviations about the mean):
       fold_batch's batches and the ROWS two-pass rows' thread values
       (reduce_rows.cuh two_pass_rows). The mean multiplies by 1/B where B
       is a power of two (exact), and divides by B otherwise (the ROWS
       column kernel's 12). */
    template <int B, typename At> __device__ void moments(At x, A &mean, A &m2) const {
        A s = widen(x(0));
#pragma unroll
        for (int i = 1; i < B; i++)
            s += widen(x(i));
        mean = (B & (B - 1)) == 0 ? s * (A(1) / A(B)) : s / A(B);
        m2 = A(0);
#pragma unroll
        for (int i = 0; i < B; i++) {
            const A d = widen(x(i)) - mean;
            m2 += d * d;
        }
    }
    /* The mean and m2 of the first k of B values x(0) .. x(k - 1), k at
       run time (0: both 0), in the same two passes: the ROWS two-pass
       rows' partial batches (reduce_rows.cuh two_pass_rows). */
    template <int B, typename At>
    __device__ void moments_first(At x, int k, A &mean, A &m2) const {
        A s = A(0);
#pragma unroll
        for (int i = 0; i < B; i++)
            if (i < k)
                s += widen(x(i));
        mean = k > 0 ? div_fast(s, static_cast<A>(k)) : A(0);
        m2 = A(0);
#pragma unroll
        for (int i = 0; i < B; i++)
            if (i < k) {
                const A d = widen(x(i)) - mean;
                m2 += d * d;
            }
    }
    /* Elements x[0 .. B-1]: their own mean and m2 (moments), merged into
       acc by Chan's formula. */
    template <int B> __device__ acc_t fold_batch(acc_t acc, const S *x) const {
        A mb, m2b;
        moments<B>([x](int i) { return x[i]; }, mb, m2b);
        const int32_t n = acc.n + B;
        const A nf = static_cast<A>(n);
        const A delta = mb - acc.mean;
        const A r = div_fast(A(B), nf); /* nb / n */
        return {acc.mean + delta * r, acc.m2 + m2b + delta * delta * acc.nf * r, nf, n};
    }
    /* Chan's merge. An empty side returns the other as is, by selects: the
       if-chain and IEEE division it replaces branched (the division is a
       subroutine), and this runs at every lockstep, shuffle and block
       merge. H100, rt_bench, three runs each (bench/NOTES.md v1.9): f32
       var of [4096,32768] over dim 0 186.99 -> 185.78 us, over dim 1 of
       [32768,4096] 175.19 -> 174.89 (std alike). */
    __device__ acc_t combine(acc_t a, acc_t b) const {
        const A nf = a.nf + b.nf;
        const A delta = b.mean - a.mean;
        const A r = div_fast(b.nf, nf); /* nb / n */
        /* n only matters for thread-local states; wrap instead of UB. */
        const int32_t n = (int32_t)((uint32_t)a.n + (uint32_t)b.n);
        const acc_t m = {a.mean + delta * r, a.m2 + b.m2 + delta * delta * a.nf * r, nf, n};
        return a.nf == A(0) ? b : b.nf == A(0) ? a : m;
    }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const {
        return {shfl_down(mask, a.mean, off), shfl_down(mask, a.m2, off),
                shfl_down(mask, a.nf, off), shfl_down(mask, a.n, off)};
    }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const {
        /* NaN when N <= correction (N == 0 included). */
        A var = a.nf > correction ? a.m2 / (a.nf - correction) : quiet_nan(A(0));
        store_as<S>(out, dt, is_std ? sqrt_of(var) : var);
    }
};

/* ---- norm ---------------------------------------------------------------------- */

/* p = 0 (count of nonzeros), 1, 2 and any other finite p: sum of a power of
   |x|, then the inverse power. Kind < 0: one kernel for every p, the kind
   a uniform run-time branch (a.op_mode). Kind = RT__NORM_P2: the p = 2
   kernel (family NORM2), its kind fixed at compile time, so no powf path
   holds registers and it keeps a sum's four loads in flight. H200,
   [32768,4096] over dim 1: norm-2 through the run-time kernel 129.2 us
   against a sum's 125.4 on the same 32-lane rows; its own kernel 122.6
   (bench/NOTES.md v1.5). */
template <typename S, int Kind = -1> struct NormOp {
    using scalar_t = S;
    using acc_t = typename FloatAcc<S>::type;
    static constexpr int vt0 = 4;
    static constexpr int input_vec = 4;
    static constexpr int min_blocks = sizeof(acc_t) == 4 ? 4 : 2;
    /* Two for the run-time kind: with four, the p switch (powf) spilled
       96 bytes for f32. */
    static constexpr int loads_in_flight = Kind == RT__NORM_P2 && sizeof(acc_t) == 4 ? 4 : 2;
    int kind;
    acc_t p, inv_p;

    template <typename Args> __device__ explicit NormOp(const Args &a)
        : kind(Kind >= 0 ? Kind : a.op_mode), p(static_cast<acc_t>(a.param0)),
          inv_p(static_cast<acc_t>(a.param1)) {}
    __device__ acc_t ident() const { return acc_t(0); }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const {
        acc_t v = abs_of(widen(x));
        switch (Kind >= 0 ? Kind : kind) {
        case RT__NORM_P0:
            v = v != acc_t(0) ? acc_t(1) : acc_t(0); /* NaN counts */
            break;
        case RT__NORM_P1:
            break;
        case RT__NORM_P2:
            v = v * v;
            break;
        default:
            v = pow_of(v, p);
            break;
        }
        return acc + v;
    }
    __device__ acc_t combine(acc_t a, acc_t b) const { return a + b; }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const { return shfl_down(mask, a, off); }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const {
        const int k = Kind >= 0 ? Kind : kind;
        acc_t r = a;
        if (k == RT__NORM_P2)
            r = sqrt_of(a);
        else if (k == RT__NORM_PGEN)
            r = pow_of(a, inv_p);
        store_as<S>(out, dt, r);
    }
};

/* The p = 2 norm's kernel (family NORM2). */
template <typename S> using Norm2Op = NormOp<S, RT__NORM_P2>;

/* p = +inf: max |x|; p = -inf: min |x|, computed as -max(-|x|) so both
   share one comparison. NaN propagates. Identities 0 and +inf (as -(-inf)). */
template <typename S> struct NormExtOp {
    using scalar_t = S;
    using acc_t = typename FloatAcc<S>::type;
    static constexpr int vt0 = 4;
    static constexpr int input_vec = 4;
    static constexpr int min_blocks = sizeof(acc_t) == 4 ? 4 : 2;
    static constexpr int loads_in_flight = sizeof(acc_t) == 4 ? 4 : 2;
    bool neg;

    template <typename Args>
    __device__ explicit NormExtOp(const Args &a) : neg(a.op_mode == RT__MODE_NEG) {}
    __device__ acc_t ident() const { return neg ? Limits<acc_t>::lowest() : acc_t(0); }
    __device__ acc_t combine(acc_t a, acc_t b) const { return pick_nan<true>(a, b); }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const {
        acc_t v = abs_of(widen(x));
        return combine(acc, neg ? -v : v);
    }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const { return shfl_down(mask, a, off); }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const {
        store_as<S>(out, dt, neg ? -a : a);
    }
};

/* ---- any, all ------------------------------------------------------------------- */

/* all(x) == !any(x == 0): one kernel, `invert` flips the predicate and the
   result. */
template <typename S> struct AnyOp {
    using scalar_t = S;
    using acc_t = bool;
    static constexpr int vt0 = 4;
    /* 16-byte loads for 1- and 2-byte inputs (bool rows of [32768,4096]
       read 4 bytes per load at 43.6% of the read ceiling, H200, v0;
       48.6 us, 69%, with 16-byte loads). */
    static constexpr int input_vec = sizeof(S) <= 2 ? 16 / (int)sizeof(S) : 4;
    static constexpr int min_blocks = sizeof(S) <= 4 ? 4 : 2;
    static constexpr int loads_in_flight = 4;
    bool invert;

    template <typename Args>
    __device__ explicit AnyOp(const Args &a) : invert(a.op_mode == RT__MODE_ALL) {}
    __device__ acc_t ident() const { return false; }
    __device__ acc_t combine(acc_t a, acc_t b) const { return a || b; }
    __device__ acc_t reduce(acc_t acc, S x, uint32_t) const { return acc || (nonzero(x) != invert); }

    /* Integer and bool inputs fold a whole vector by 32-bit words: any()
       asks whether some word is nonzero, all() whether some element is
       zero (the has-zero-byte / has-zero-halfword bit trick, whole words
       for 4-byte elements, word pairs for 8-byte ones). Per-element tests
       cost 3 instructions per byte: bool any of [32768,4096] dim 1 ran at
       69% of the read ceiling with them, 80% (41.5 us, v0 77.9, eager
       80.6) without (H200). Floats keep reduce() (-0.0 is zero, NaN is
       nonzero). */
    static constexpr bool packed = !std::is_floating_point<S>::value && !IsHalfLike<S>::value;
    template <int N> __device__ acc_t reduce_packed(acc_t acc, const Packed<S, N> &p) const {
        constexpr int W = (int)(sizeof(S) * N / 4);
        static_assert(sizeof(S) * N % 8 == 0, "whole word pairs");
        uint32_t w[W];
        memcpy(w, &p, sizeof w);
        uint32_t hit = 0;
#pragma unroll
        for (int i = 0; i < W; i++) {
            if (!invert) {
                hit |= w[i];
            } else if constexpr (sizeof(S) == 1) {
                hit |= (w[i] - 0x01010101u) & ~w[i] & 0x80808080u;
            } else if constexpr (sizeof(S) == 2) {
                hit |= (w[i] - 0x00010001u) & ~w[i] & 0x80008000u;
            } else if constexpr (sizeof(S) == 4) {
                hit |= w[i] == 0u;
            } else if (i % 2 == 1) {
                hit |= (w[i - 1] | w[i]) == 0u;
            }
        }
        return acc || hit != 0u;
    }
    __device__ acc_t shfl(acc_t a, int off, unsigned mask) const { return shfl_down(mask, a, off); }
    __device__ acc_t translate(acc_t a, int64_t) const { return a; }
    __device__ void write(char *out, char *, int dt, acc_t a) const {
        store_as<bool>(out, dt, a != invert);
    }
};

/* The state an op's translate() gives (ArgOp: ArgOut, the rest: acc_t):
   the ACC operand's element across pieces, and the size the config's
   traits mirror (traits.c acc_size) wherever a kernel sizes its work by
   its state. */
template <typename Op>
using OutState = decltype(std::declval<const Op &>().translate(
    std::declval<typename Op::acc_t>(), int64_t(0)));

/* The ops whose state is one number folded like a sum: sum, prod, mean,
   min/max without indices and the p = 2 norm (traits.c gives them
   row_lanes above a warp). The kernels TUNED keeps for that set (STREAM,
   the ROWS warp kernel) are built for these ops only; the rest would add
   build time (and Welford, any and the (value, index) states spill under
   their bounds). */
template <typename Op> struct OneNumberState {
    static constexpr bool value = false;
};
template <typename S, bool IsProd> struct OneNumberState<SumProdOp<S, IsProd>> {
    static constexpr bool value = true;
};
template <typename S, bool IsMax> struct OneNumberState<MinMaxOp<S, IsMax>> {
    static constexpr bool value = true;
};
template <typename S> struct OneNumberState<Norm2Op<S>> {
    static constexpr bool value = true;
};

/* Welford's var/std: the ROWS two-pass kernel (reduce_rows.cuh
   rows_two_pass_kernel, two_pass_rows) is built for these ops only. */
template <typename Op> struct IsWelford {
    static constexpr bool value = false;
};
template <typename S> struct IsWelford<WelfordOp<S>> {
    static constexpr bool value = true;
};

} // namespace rt

#endif /* RT_KERNELS_REDUCE_OPS_CUH */
