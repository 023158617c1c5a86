/*
 * Device-side types and conversions shared by the ops and the kernel body:
 * the storage type of each dtype, accumulator types, packed vector loads,
 * L2-only loads, warp shuffles of any trivially copyable value, and the
 * final store that converts an accumulator to the output's dtype.
 */
#ifndef RT_KERNELS_REDUCE_TYPES_CUH
#define RT_KERNELS_REDUCE_TYPES_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "launch.h"

/* Storage type of each dtype suffix of RT__FOR_EACH_KERNEL. bool is a byte
   holding 0 or 1, so it shares u8's instantiations. */
#define RT__CTYPE_f32 float
#define RT__CTYPE_f64 double
#define RT__CTYPE_f16 __half
#define RT__CTYPE_bf16 __nv_bfloat16
#define RT__CTYPE_i8 int8_t
#define RT__CTYPE_u8 uint8_t
#define RT__CTYPE_i16 int16_t
#define RT__CTYPE_i32 int32_t
#define RT__CTYPE_i64 int64_t
#define RT__CTYPE_bool uint8_t

namespace rt {

/* Accumulators per output of one thread (output_vec_size of them). */
template <typename T, int N> struct Vec {
    T v[N];
};

/* N adjacent elements loaded by one instruction (up to 16 bytes; a 32-byte
   pack compiles to two). The caller guarantees the alignment. */
template <typename T, int N> struct alignas(sizeof(T) * N) Packed {
    T v[N];
};

/* ---- scalar classes -------------------------------------------------------- */

template <typename S> struct IsHalfLike {
    static constexpr bool value = false;
};
template <> struct IsHalfLike<__half> {
    static constexpr bool value = true;
};
template <> struct IsHalfLike<__nv_bfloat16> {
    static constexpr bool value = true;
};

/* The float accumulator of a float input: f32 for f16/bf16/f32, f64 for
   f64 (DESIGN.md section 3). */
template <typename S> struct FloatAcc {
    using type = float;
};
template <> struct FloatAcc<double> {
    using type = double;
};

/* sum/prod: floats as above; integers and bool in int64 with two's
   complement wrap, held unsigned so overflow is defined. */
template <typename S> struct SumAcc {
    using type = unsigned long long;
};
template <> struct SumAcc<float> {
    using type = float;
};
template <> struct SumAcc<double> {
    using type = double;
};
template <> struct SumAcc<__half> {
    using type = float;
};
template <> struct SumAcc<__nv_bfloat16> {
    using type = float;
};

/* min/max compare in the input type, 16-bit floats in f32. */
template <typename S> struct CmpAcc {
    using type = S;
};
template <> struct CmpAcc<__half> {
    using type = float;
};
template <> struct CmpAcc<__nv_bfloat16> {
    using type = float;
};

/* Widening of an input element to an accumulator type. */
static __device__ __forceinline__ float widen(__half x) {
    return __half2float(x);
}
static __device__ __forceinline__ float widen(__nv_bfloat16 x) {
    return __bfloat162float(x);
}
template <typename S> static __device__ __forceinline__ S widen(S x) {
    return x;
}

/* An integer widened to the int64 accumulator, sign-extended, as unsigned. */
template <typename S> static __device__ __forceinline__ unsigned long long widen_u64(S x) {
    return static_cast<unsigned long long>(static_cast<long long>(x));
}

template <typename T> static __device__ __forceinline__ bool is_nan(T x) {
    return x != x; /* false for integers */
}

/* x != 0 as any()/all() define it: NaN is nonzero, -0.0 is zero. */
template <typename S> static __device__ __forceinline__ bool nonzero(S x) {
    return widen(x) != decltype(widen(x))(0);
}

template <typename T> struct Limits;
#define RT__LIMITS(T, LO, HI)                                                                      \
    template <> struct Limits<T> {                                                                 \
        static __device__ __forceinline__ T lowest() { return LO; }                                \
        static __device__ __forceinline__ T highest() { return HI; }                               \
    };
RT__LIMITS(float, -__int_as_float(0x7f800000), __int_as_float(0x7f800000))
RT__LIMITS(double, -__longlong_as_double(0x7ff0000000000000LL),
           __longlong_as_double(0x7ff0000000000000LL))
RT__LIMITS(int8_t, INT8_MIN, INT8_MAX)
RT__LIMITS(uint8_t, 0, UINT8_MAX)
RT__LIMITS(int16_t, INT16_MIN, INT16_MAX)
RT__LIMITS(int32_t, INT32_MIN, INT32_MAX)
RT__LIMITS(int64_t, INT64_MIN, INT64_MAX)
#undef RT__LIMITS

/* Float math by accumulator type (f32 stays f32, no silent promotion). */
static __device__ __forceinline__ float quiet_nan(float) {
    return __int_as_float(0x7fc00000);
}
static __device__ __forceinline__ double quiet_nan(double) {
    return __longlong_as_double(0x7ff8000000000000LL);
}
static __device__ __forceinline__ float abs_of(float x) {
    return fabsf(x);
}
static __device__ __forceinline__ double abs_of(double x) {
    return fabs(x);
}
static __device__ __forceinline__ float sqrt_of(float x) {
    return sqrtf(x);
}
static __device__ __forceinline__ double sqrt_of(double x) {
    return sqrt(x);
}
static __device__ __forceinline__ float pow_of(float x, float y) {
    return powf(x, y);
}
static __device__ __forceinline__ double pow_of(double x, double y) {
    return pow(x, y);
}

/* ---- memory ----------------------------------------------------------------- */

/* A load that bypasses L1: the partials of other blocks, written during
   this launch, may sit in lines this SM cached before they were written. */
template <typename T> static __device__ __forceinline__ T load_cg(const T *p) {
    T out;
    if constexpr (sizeof(T) % 8 == 0 && alignof(T) >= 8) {
        unsigned long long w[sizeof(T) / 8];
#pragma unroll
        for (int i = 0; i < (int)(sizeof(T) / 8); i++)
            w[i] = __ldcg(reinterpret_cast<const unsigned long long *>(p) + i);
        memcpy(&out, w, sizeof(T));
    } else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
        unsigned int w[sizeof(T) / 4];
#pragma unroll
        for (int i = 0; i < (int)(sizeof(T) / 4); i++)
            w[i] = __ldcg(reinterpret_cast<const unsigned int *>(p) + i);
        memcpy(&out, w, sizeof(T));
    } else {
        unsigned char w[sizeof(T)];
#pragma unroll
        for (int i = 0; i < (int)sizeof(T); i++)
            w[i] = __ldcg(reinterpret_cast<const unsigned char *>(p) + i);
        memcpy(&out, w, sizeof(T));
    }
    return out;
}

/* *counter += 1 at GPU scope with acquire-release order, returning the old
   value: the release publishes everything the calling block wrote before
   its last __syncthreads() (CUTLASS's barrier arrive is the same pattern),
   the acquire makes every earlier releaser's writes visible to the caller,
   and through the next __syncthreads() to its block. */
static __device__ __forceinline__ unsigned atomic_add_acq_rel(unsigned *counter) {
    unsigned prev;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                 : "=r"(prev)
                 : "l"(counter)
                 : "memory");
    return prev;
}

/* *counter += 1 at GPU scope with release order and no value back (a
   reduction, red): its earlier writes are visible to whoever acquires the
   count it leaves. The caller waits for the release's fence on those
   writes (MEMBAR.ALL.GPU before the RED in sm_90 SASS), not for an
   answer, and may exit at once. */
static __device__ __forceinline__ void red_add_release(unsigned *counter) {
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" : : "l"(counter) : "memory");
}

/* *counter at GPU scope with acquire order: every write released before
   the count read is visible to the caller (and, through the next
   __syncthreads(), to its block). */
static __device__ __forceinline__ unsigned load_acquire(const unsigned *counter) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(counter) : "memory");
    return v;
}

/* A 64-bit word at GPU scope, relaxed order: single-copy atomic, so a
   reader at the same scope sees the whole word or none of it (STREAM
   slots: the value is its own flag, no fence needed). */
static __device__ __forceinline__ void store_relaxed(unsigned long long *p, unsigned long long v) {
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* Two adjacent 64-bit words at GPU scope, relaxed order, in one 16-byte
   load: PTX models a vector access as one access an element, so each
   word is single-copy atomic (the pair need not be). */
static __device__ __forceinline__ void load_relaxed2(const unsigned long long *p,
                                                     unsigned long long &x,
                                                     unsigned long long &y) {
    asm volatile("ld.relaxed.gpu.global.v2.b64 {%0, %1}, [%2];"
                 : "=l"(x), "=l"(y)
                 : "l"(p)
                 : "memory");
}

static __device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long *p) {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* A streaming load (ld.global.cs, evict first) of the general kernel's
   input, which it reads exactly once. H200, whole suite built three ways
   in one run (plain / .cs / .lu loads, best of two passes): bool any of
   [32768,4096] over dim 1 42.7 -> 37.6 us, [671088,100] over dim 0 74.8
   -> 73.0, 64 KB..1 MB full sums 3-6% faster, every other case within
   0.5%. Not in the ROWS kernels: their short rows lost 7-14% with it
   (rows of 3 118.6 -> 129.9 us), whose lines other loads of the same
   warp reuse. Not .lu: f64/i64 sums lost 5%. */
template <typename W> static __device__ __forceinline__ W load_stream_word(const W *p) {
    return __ldcs(p);
}
template <typename T> static __device__ __forceinline__ T load_stream(const T *p) {
    T out;
    if constexpr (sizeof(T) % 16 == 0 && alignof(T) >= 16) {
        uint4 w[sizeof(T) / 16];
#pragma unroll
        for (int i = 0; i < (int)(sizeof(T) / 16); i++)
            w[i] = load_stream_word(reinterpret_cast<const uint4 *>(p) + i);
        memcpy(&out, w, sizeof(T));
    } else if constexpr (sizeof(T) == 8 && alignof(T) >= 8) {
        const uint2 w = load_stream_word(reinterpret_cast<const uint2 *>(p));
        memcpy(&out, &w, sizeof(T));
    } else if constexpr (sizeof(T) == 4 && alignof(T) >= 4) {
        const unsigned w = load_stream_word(reinterpret_cast<const unsigned *>(p));
        memcpy(&out, &w, sizeof(T));
    } else {
        out = *p;
    }
    return out;
}

/* A warp shuffle of any trivially copyable scalar of at most 8 bytes:
   __shfl_down_sync (UP false) or __shfl_up_sync by delta lanes. */
template <bool UP, typename T>
static __device__ __forceinline__ T shfl_scalar(unsigned mask, T v, int delta) {
    static_assert(sizeof(T) <= 8, "shuffle scalars, not structs");
    if constexpr (sizeof(T) == 8) {
        unsigned long long w;
        memcpy(&w, &v, 8);
        w = UP ? __shfl_up_sync(mask, w, delta) : __shfl_down_sync(mask, w, delta);
        memcpy(&v, &w, 8);
    } else {
        unsigned int w = 0;
        memcpy(&w, &v, sizeof(T));
        w = UP ? __shfl_up_sync(mask, w, delta) : __shfl_down_sync(mask, w, delta);
        memcpy(&v, &w, sizeof(T));
    }
    return v;
}
template <typename T>
static __device__ __forceinline__ T shfl_down(unsigned mask, T v, int offset) {
    return shfl_scalar<false>(mask, v, offset);
}
template <typename T> static __device__ __forceinline__ T shfl_up(unsigned mask, T v, int delta) {
    return shfl_scalar<true>(mask, v, delta);
}

/* ---- the final store ---------------------------------------------------------- */

/* Conversions of an accumulator value to a storage type: floats round to
   nearest; the int64 accumulator (unsigned) wraps into narrower integers;
   bool is value != 0. Pairs that no allowed output uses still compile. */
template <typename O> struct Convert {
    template <typename A> static __device__ __forceinline__ O from(A a) {
        return static_cast<O>(a);
    }
    static __device__ __forceinline__ O from(unsigned long long a) {
        return static_cast<O>(a); /* modular for integers */
    }
};
template <> struct Convert<float> {
    template <typename A> static __device__ __forceinline__ float from(A a) {
        return static_cast<float>(a);
    }
    static __device__ __forceinline__ float from(unsigned long long a) {
        return static_cast<float>(static_cast<long long>(a));
    }
};
template <> struct Convert<double> {
    template <typename A> static __device__ __forceinline__ double from(A a) {
        return static_cast<double>(a);
    }
    static __device__ __forceinline__ double from(unsigned long long a) {
        return static_cast<double>(static_cast<long long>(a));
    }
};
template <> struct Convert<__half> {
    static __device__ __forceinline__ __half from(double a) {
        return __double2half(a);
    }
    template <typename A> static __device__ __forceinline__ __half from(A a) {
        return __float2half_rn(Convert<float>::from(a));
    }
};
template <> struct Convert<__nv_bfloat16> {
    static __device__ __forceinline__ __nv_bfloat16 from(double a) {
        return __double2bfloat16(a);
    }
    template <typename A> static __device__ __forceinline__ __nv_bfloat16 from(A a) {
        return __float2bfloat16_rn(Convert<float>::from(a));
    }
};

/* Stores accumulator value a at p as dtype DT. */
template <int DT, typename A> static __device__ __forceinline__ void store_dt(char *p, A a) {
    if constexpr (DT == RT_F32)
        *reinterpret_cast<float *>(p) = Convert<float>::from(a);
    else if constexpr (DT == RT_F64)
        *reinterpret_cast<double *>(p) = Convert<double>::from(a);
    else if constexpr (DT == RT_F16)
        *reinterpret_cast<__half *>(p) = Convert<__half>::from(a);
    else if constexpr (DT == RT_BF16)
        *reinterpret_cast<__nv_bfloat16 *>(p) = Convert<__nv_bfloat16>::from(a);
    else if constexpr (DT == RT_I8)
        *reinterpret_cast<int8_t *>(p) = (int8_t)Convert<uint8_t>::from(a);
    else if constexpr (DT == RT_U8)
        *reinterpret_cast<uint8_t *>(p) = Convert<uint8_t>::from(a);
    else if constexpr (DT == RT_I16)
        *reinterpret_cast<int16_t *>(p) = (int16_t)Convert<uint16_t>::from(a);
    else if constexpr (DT == RT_I32)
        *reinterpret_cast<int32_t *>(p) = (int32_t)Convert<uint32_t>::from(a);
    else if constexpr (DT == RT_I64)
        *reinterpret_cast<int64_t *>(p) = (int64_t)Convert<unsigned long long>::from(a);
    else if constexpr (DT == RT_BOOL)
        *reinterpret_cast<uint8_t *>(p) = a != A(0) ? 1 : 0;
}

/* The rt_dtype of a storage type (-1: none). Bool tensors are stored as
   uint8_t (RT__CTYPE_bool), which maps to RT_U8, so their min/max
   stores (RT_BOOL out) take store_as's switch: slower, same bytes. */
template <typename T> struct DtypeOf {
    static constexpr int value = std::is_same<T, float>::value            ? RT_F32
                                 : std::is_same<T, double>::value         ? RT_F64
                                 : std::is_same<T, __half>::value         ? RT_F16
                                 : std::is_same<T, __nv_bfloat16>::value  ? RT_BF16
                                 : std::is_same<T, int8_t>::value         ? RT_I8
                                 : std::is_same<T, uint8_t>::value        ? RT_U8
                                 : std::is_same<T, int16_t>::value        ? RT_I16
                                 : std::is_same<T, int32_t>::value        ? RT_I32
                                 : std::is_same<T, int64_t>::value        ? RT_I64
                                 : std::is_same<T, bool>::value           ? RT_BOOL
                                                                          : -1;
};

/* Stores accumulator value a at p as dtype dt, a run-time value: one code
   path per kernel serves every allowed output dtype. Usual is the op's
   default output type for its input (rt_reduce_default_dtype), which
   one compare takes; the others go through a switch, which compiles to
   an indexed constant load of a jump table and an indirect branch (BRX).
   H100, rt_bench against the switch alone: NHWC mean -0.8%, outer and
   strided sums -0.1..-0.2% (bench/NOTES.md v1.24). */
template <typename Usual, typename A>
static __device__ __forceinline__ void store_as(char *p, int dt, A a) {
    constexpr int U = DtypeOf<Usual>::value;
    static_assert(U >= 0, "the usual output type must be a storage type");
    if (dt == U) {
        store_dt<U>(p, a);
        return;
    }
    switch (dt) {
    case RT_F32:
        store_dt<RT_F32>(p, a);
        break;
    case RT_F64:
        store_dt<RT_F64>(p, a);
        break;
    case RT_F16:
        store_dt<RT_F16>(p, a);
        break;
    case RT_BF16:
        store_dt<RT_BF16>(p, a);
        break;
    case RT_I8:
        store_dt<RT_I8>(p, a);
        break;
    case RT_U8:
        store_dt<RT_U8>(p, a);
        break;
    case RT_I16:
        store_dt<RT_I16>(p, a);
        break;
    case RT_I32:
        store_dt<RT_I32>(p, a);
        break;
    case RT_I64:
        store_dt<RT_I64>(p, a);
        break;
    case RT_BOOL:
        store_dt<RT_BOOL>(p, a);
        break;
    default:
        break;
    }
}

} // namespace rt

#endif /* RT_KERNELS_REDUCE_TYPES_CUH */
