/*
 * The tests' own PRNG: splitmix64 (Steele, Lea, Flood 2014). Deterministic
 * per seed on every platform, independent of libc's rand(), so a failing
 * case seed reproduces anywhere.
 */
#ifndef RT_RNG_H
#define RT_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rt_rng {
    uint64_t s;
} rt_rng;

/* Seeds r; any seed (0 included) gives a good stream. */
static inline void rt_rng_seed(rt_rng *r, uint64_t seed)
{
    r->s = seed ^ 0x6a09e667f3bcc909ull;
}

/* The next 64 random bits. */
static inline uint64_t rt_rng_next(rt_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), 53 random bits. */
static inline double rt_rng_unit(rt_rng *r)
{
    return (double)(rt_rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform integer in [lo, hi] (inclusive; hi >= lo, hi - lo < 2^63). */
static inline int64_t rt_rng_range(rt_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    return lo + (int64_t)(rt_rng_next(r) % span);
}

/* True with probability p. */
static inline bool rt_rng_chance(rt_rng *r, double p)
{
    return rt_rng_unit(r) < p;
}

#endif /* RT_RNG_H */
