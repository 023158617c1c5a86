/*
 * Offset calculators (PyTorch's OffsetCalculator): a linear index becomes
 * its digits over the iter's extents (fast divmod) and then a byte offset
 * per operand. 32-bit throughout: a piece fits by construction.
 */
#ifndef RT_KERNELS_REDUCE_OFFSETS_CUH
#define RT_KERNELS_REDUCE_OFFSETS_CUH

#include "launch.h"

namespace rt {

/* n / d for n < 2^31, with one multiply-high (rt__divmod_init). */
static __device__ __forceinline__ uint32_t div_q(const rt__divmod &d, uint32_t n) {
    return (__umulhi(n, d.magic) + n) >> d.shift;
}

/* n / d and n % d for n < 2^31. */
static __device__ __forceinline__ uint32_t div_mod(const rt__divmod &d, uint32_t n, uint32_t &mod) {
    const uint32_t q = div_q(d, n);
    mod = n - q * d.divisor;
    return q;
}

/* An index's digits over sizes[0 .. n), fastest first, dotted with the
   strides. */

/* Byte offset of reduced index r in the input, relative to an output's
   input slice, and in walk_digit r's digit of reduced dim a.walk_dim,
   where a walk starts (one pass of divisions for both; input_offset
   drops the digit). Every digit takes a division here: skipping the last
   one (as the output side does) indexes the stride table at run time,
   which cost the general path 16 more spilled bytes under the 32-register
   bound (argmax f32, -Xptxas -v). */
static __device__ __forceinline__ int32_t input_offset_walk(const rt__kernel_args &a, uint32_t r,
                                                            uint32_t &walk_digit) {
    int32_t off = 0;
    walk_digit = 0;
#pragma unroll
    for (int d = 0; d < RT_MAX_DIMS; d++) {
        if (d == a.in_ndim)
            break;
        uint32_t mod;
        r = div_mod(a.in_sizes[d], r, mod);
        if (d == a.walk_dim)
            walk_digit = mod;
        off += (int32_t)mod * a.in_strides[d];
    }
    return off;
}

static __device__ __forceinline__ int32_t input_offset(const rt__kernel_args &a, uint32_t r) {
    uint32_t unused;
    return input_offset_walk(a, r, unused);
}

/* Byte offsets of output index o (< num_outputs) in every operand slot
   (RT__OUT_SLOT_*: OUT, IN, IDX, ACC), from one pass of divisions. The
   slowest digit is what the others leave (o is in range), so it needs no
   division: one kept dim costs none. */
struct OutOffsets {
    int32_t v[4];
};

static __device__ __forceinline__ OutOffsets output_offsets(const rt__kernel_args &a, uint32_t o) {
    const int last = a.out_ndim - 1;
    OutOffsets r = {{0, 0, 0, 0}};
#pragma unroll
    for (int d = 0; d < RT_MAX_DIMS - 1; d++) {
        if (d >= last)
            break;
        uint32_t mod;
        o = div_mod(a.out_sizes[d], o, mod);
#pragma unroll
        for (int s = 0; s < 4; s++)
            r.v[s] += (int32_t)mod * a.out_strides[d][s];
    }
    if (last >= 0) {
#pragma unroll
        for (int s = 0; s < 4; s++)
            r.v[s] += (int32_t)o * a.out_strides[last][s];
    }
    return r;
}

/* The offset of output index o in one slot alone: the input slice at the
   start of a thread's work, the OUT slot of the fill kernel. slot is a
   constant at every call, so the other slots' arithmetic is dead code and
   no register holds it through the reduction. */
static __device__ __forceinline__ int32_t output_offset(const rt__kernel_args &a, uint32_t o,
                                                        int slot) {
    return output_offsets(a, o).v[slot];
}

} // namespace rt

#endif /* RT_KERNELS_REDUCE_OFFSETS_CUH */
