/*
 * 16-bit floats (IEEE binary16 and bfloat16) in portable C: conversions to
 * and from binary32/binary64 by bit manipulation, rounding to nearest even,
 * with NaN, infinities and subnormals exact. Header-only (static inline) so
 * the CPU backend's hot loops inline them and the tests' oracle shares the
 * same definitions.
 *
 * Narrowing goes straight from binary64 (binary32 widens exactly first):
 * rounding a double to f32 and then to f16 could round twice and land one
 * ulp off when the first rounding creates a tie.
 */
#ifndef RT_HALF_H
#define RT_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t rt__f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float rt__f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint64_t rt__f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* binary16 bits -> binary32, exact. NaN payloads keep their bits (shifted
   into the top of the f32 mantissa). */
static inline float rt__f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1fu) /* inf or NaN */
        return rt__f32_from_bits(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        /* zero or subnormal: mant * 2^-24 is exact in binary32. */
        float v = (float)mant * 0x1p-24f;
        return sign ? -v : v;
    }
    return rt__f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
}

/* bfloat16 bits -> binary32, exact: bf16 is the top half of a binary32. */
static inline float rt__bf16_to_f32(uint16_t h)
{
    return rt__f32_from_bits((uint32_t)h << 16);
}

/*
 * Rounds a binary64 to a narrower binary format with `ebits` exponent bits
 * and `mbits` stored mantissa bits (f16: 5, 10; bf16: 8, 7), to nearest,
 * ties to even. Overflow gives infinity, underflow gradual subnormals then
 * zero; NaN stays NaN (quiet, keeping the payload's top bits).
 */
static inline uint16_t rt__f64_to_small(double d, int ebits, int mbits)
{
    uint64_t u = rt__f64_bits(d);
    uint16_t sign = (uint16_t)((u >> 63) << (ebits + mbits));
    int e = (int)((u >> 52) & 0x7ffu);
    uint64_t m = u & 0xfffffffffffffull;
    int emax = (1 << ebits) - 1; /* all-ones exponent field: inf/NaN */
    int bias = (1 << (ebits - 1)) - 1;
    if (e == 0x7ff) {
        if (m == 0)
            return (uint16_t)(sign | (emax << mbits));
        return (uint16_t)(sign | (emax << mbits) | (1u << (mbits - 1)) |
                          (uint16_t)(m >> (52 - mbits)));
    }
    if (e == 0) /* zero, or a double subnormal: far below half the target's smallest subnormal */
        return sign;
    uint64_t sig = m | (1ull << 52); /* 53 significant bits */
    int te = e - 1023 + bias;        /* target exponent field if normal */
    if (te >= emax)
        return (uint16_t)(sign | (emax << mbits));
    /* Bits of sig to drop: the mantissa width difference, plus the
       denormalisation shift when the target exponent is below 1. */
    int shift = (52 - mbits) + (te < 1 ? 1 - te : 0);
    if (shift > 63)
        return sign; /* below half the smallest subnormal */
    uint64_t keep = sig >> shift;
    uint64_t rem = sig & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (keep & 1u)))
        keep++;
    if (te < 1) /* subnormal: a carry into bit mbits makes the smallest normal, correctly */
        return (uint16_t)(sign | keep);
    if (keep >> (mbits + 1)) { /* mantissa carried out: next binade */
        keep >>= 1;
        te++;
        if (te >= emax)
            return (uint16_t)(sign | (emax << mbits));
    }
    return (uint16_t)(sign | ((uint32_t)te << mbits) | (keep & ((1u << mbits) - 1)));
}

/* binary64 -> binary16, to nearest even. */
static inline uint16_t rt__f64_to_f16(double d)
{
    return rt__f64_to_small(d, 5, 10);
}

/* binary64 -> bfloat16, to nearest even. */
static inline uint16_t rt__f64_to_bf16(double d)
{
    return rt__f64_to_small(d, 8, 7);
}

/* binary32 -> binary16, to nearest even (the widening is exact). */
static inline uint16_t rt__f32_to_f16(float f)
{
    return rt__f64_to_small((double)f, 5, 10);
}

/* binary32 -> bfloat16, to nearest even (the widening is exact). */
static inline uint16_t rt__f32_to_bf16(float f)
{
    return rt__f64_to_small((double)f, 8, 7);
}

#endif /* RT_HALF_H */
