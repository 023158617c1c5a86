// rows_probe: how a sum of short packed f32 rows ([N, L] over dim 1, L = 3
// and 4; 127 and 129 for the warp mapping) reads fastest on this GPU. Times
// several thread-to-row mappings and load instructions in one process,
// against a float4 streaming read of the same bytes, so the ROWS kernel can
// take the best one (bench/NOTES-rows.md).
//
//   rows_probe [--reps N] [--only SUBSTRING]
//
// Mappings (out[r] = sum of the L floats of row r):
//   strided   thread t of a warp takes rows w*32R + t + 32i (i < R): each load
//             instruction reads 32 adjacent rows (the ROWS direct kernel)
//   grouped   thread t takes Q adjacent rows and reads their Q*L floats as
//             16-byte vectors (Q*L*4 bytes aligned), one 16-byte store
//   scalar4   thread t takes 4 adjacent rows, reads them element by element
//             (12 or 16 scalar loads), one 16-byte store (Inductor's kernel)
//   warp      a warp takes RW adjacent rows, lane l reads elements l, l + 32,
//             ... of each (ceil(L / 32) scalar loads a row, predicated), every
//             load before the first add, then a shuffle tree per row; blocks
//             of T threads (Inductor's kernel for rows of 129: RW 4, T 32)
//   warp2     rows of 100 as Inductor's persistent reduction reads them
//             (XBLOCK 8, 2 warps): the block's rows interleaved between its
//             warps or not, 16-byte vectors or scalars, the block's outputs
//             stored through shared memory or a lane a row (NOTES v1.29)
//   vgroup    rows of L = 4 LPR floats (LPR lanes a row, 16-byte vectors): a
//             warp's load u reads 512 contiguous bytes (32 / LPR rows), U
//             loads a lane all in flight before the first add; a butterfly
//             over each row's LPR lanes, then lane l gathers row l (and
//             l + 32, ...) of the warp's 32 U / LPR rows with shuffles and
//             the warp stores them adjacent (rows of 32: NOTES v1.56)
// Loads: plain ld.global, ld.global.L1::evict_last (el), ld.global.nc (nc).
#include <cmath>

namespace {
const char *const kProbeName = "rows_probe";
}
#include "probe.cuh"

namespace {

enum Load { PLAIN, EVICT_LAST, NC, EVICT_FIRST };

template <int LD>
__device__ __forceinline__ float load1(const float *p) {
    float v;
    if (LD == PLAIN)
        asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else if (LD == EVICT_LAST)
        asm volatile("ld.global.L1::evict_last.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else if (LD == EVICT_FIRST)
        asm volatile("ld.global.L1::evict_first.f32 %0, [%1];" : "=f"(v) : "l"(p));
    else
        v = __ldg(p);
    return v;
}

template <int LD>
__device__ __forceinline__ float4 load4(const float *p) {
    float4 v;
    if (LD == PLAIN)
        asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p));
    else if (LD == EVICT_LAST)
        asm volatile("ld.global.L1::evict_last.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p));
    else if (LD == EVICT_FIRST)
        asm volatile("ld.global.L1::evict_first.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p));
    else
        v = __ldg(reinterpret_cast<const float4 *>(p));
    return v;
}

// strided: R rows per thread, 32 adjacent rows per load instruction.
template <int L, int R, int LD>
__global__ void __launch_bounds__(256) strided_kernel(const float *in, float *out, int n) {
    const int warp = (blockIdx.x * 256 + threadIdx.x) / 32, lane = threadIdx.x % 32;
    const int first = warp * 32 * R + lane;
    float acc[R];
    if (L == 4) {
        float4 v[R];
#pragma unroll
        for (int i = 0; i < R; i++)
            if (first + 32 * i < n)
                v[i] = load4<LD>(in + (size_t)(first + 32 * i) * 4);
#pragma unroll
        for (int i = 0; i < R; i++)
            acc[i] = (v[i].x + v[i].y) + (v[i].z + v[i].w);
    } else {
        float v[R][L];
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int c = 0; c < L; c++)
                if (first + 32 * i < n)
                    v[i][c] = load1<LD>(in + (size_t)(first + 32 * i) * L + c);
#pragma unroll
        for (int i = 0; i < R; i++) {
            acc[i] = v[i][0];
#pragma unroll
            for (int c = 1; c < L; c++)
                acc[i] += v[i][c];
        }
    }
#pragma unroll
    for (int i = 0; i < R; i++)
        if (first + 32 * i < n)
            out[first + 32 * i] = acc[i];
}

// grouped: Q = 4 adjacent rows per thread (Q*L floats, a multiple of 4),
// REP groups per thread at a stride of the block's groups.
template <int L, int REP, int LD>
__global__ void __launch_bounds__(128) grouped_kernel(const float *in, float *out, int n) {
    constexpr int Q = 4, NV = Q * L / 4;
    const int group0 = blockIdx.x * 128 * REP + threadIdx.x;
    float4 v[REP][NV];
#pragma unroll
    for (int rep = 0; rep < REP; rep++) {
        const int g = group0 + rep * 128;
        if ((g + 1) * Q <= n)
#pragma unroll
            for (int j = 0; j < NV; j++)
                v[rep][j] = load4<LD>(in + (size_t)g * Q * L + 4 * j);
    }
#pragma unroll
    for (int rep = 0; rep < REP; rep++) {
        const int g = group0 + rep * 128;
        if ((g + 1) * Q > n)
            continue;
        const float *f = reinterpret_cast<const float *>(v[rep]);
        float s[Q];
#pragma unroll
        for (int q = 0; q < Q; q++) {
            s[q] = f[q * L];
#pragma unroll
            for (int c = 1; c < L; c++)
                s[q] += f[q * L + c];
        }
        reinterpret_cast<float4 *>(out)[g] = make_float4(s[0], s[1], s[2], s[3]);
    }
}

// pair: 2 adjacent rows of 4 floats per thread, 256 threads (512 rows a
// block), one 8-byte store: Inductor's pointwise kernel for rows of 4
// (torch 2.11: XBLOCK 512, 8 warps; 8 scalar loads with
// eviction_policy='evict_last', bench/NOTES.md v1.28) when VEC is false,
// two 16-byte loads when it is true.
template <bool VEC, int LD>
__global__ void __launch_bounds__(256) pair_kernel(const float *in, float *out, int n) {
    const int p = blockIdx.x * 256 + threadIdx.x; // rows 2p, 2p + 1
    if (2 * p >= n) // n is even: main takes a multiple of 4 rows
        return;
    const float *row = in + (size_t)p * 8;
    float s0, s1;
    if (VEC) {
        float4 a = load4<LD>(row), b = load4<LD>(row + 4);
        s0 = ((a.x + a.y) + a.z) + a.w;
        s1 = ((b.x + b.y) + b.z) + b.w;
    } else {
        float v[8];
#pragma unroll
        for (int c = 0; c < 8; c++)
            v[c] = load1<LD>(row + c);
        s0 = ((v[0] + v[1]) + v[2]) + v[3];
        s1 = ((v[4] + v[5]) + v[6]) + v[7];
    }
    reinterpret_cast<float2 *>(out)[p] = make_float2(s0, s1);
}

// scalar4: 4 adjacent rows per thread, element loads, REP groups.
template <int L, int REP, int LD>
__global__ void __launch_bounds__(128) scalar4_kernel(const float *in, float *out, int n) {
    const int group0 = blockIdx.x * 128 * REP + threadIdx.x;
    float v[REP][4 * L];
#pragma unroll
    for (int rep = 0; rep < REP; rep++) {
        const int g = group0 + rep * 128;
        if ((g + 1) * 4 <= n)
#pragma unroll
            for (int j = 0; j < 4 * L; j++)
                v[rep][j] = load1<LD>(in + (size_t)g * 4 * L + j);
    }
#pragma unroll
    for (int rep = 0; rep < REP; rep++) {
        const int g = group0 + rep * 128;
        if ((g + 1) * 4 > n)
            continue;
        float s[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
            s[q] = v[rep][q * L];
#pragma unroll
            for (int c = 1; c < L; c++)
                s[q] += v[rep][q * L + c];
        }
        reinterpret_cast<float4 *>(out)[g] = make_float4(s[0], s[1], s[2], s[3]);
    }
}

// warp: RW adjacent rows a warp, scalar loads, all issued before any add.
// Flags, what the library's version differed in (NOTES v1.15): WARP_RUNTIME_L
// reads the row length from constant memory instead of the template (every
// load predicated), WARP_LANE0_STORES has lane 0 store every row.
// WARP_FULL_COLUMNS also reads the length at run time but predicates only
// the last column (32 (C - 1) < L <= 32 C), and warps whose rows all exist
// take a branch without row predicates.
enum WarpFlags { WARP_RUNTIME_L = 1, WARP_LANE0_STORES = 2, WARP_FULL_COLUMNS = 4 };
__constant__ int c_row_length;

// A butterfly a row: every lane ends with each of the RW row sums.
template <int RW> __device__ __forceinline__ void warp_butterfly(float (&acc)[RW]) {
#pragma unroll
    for (int off = 16; off > 0; off /= 2)
#pragma unroll
        for (int r = 0; r < RW; r++)
            acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], off);
}

// The warp's RW row sums (acc: each lane's partials) out: a butterfly a
// row, then lane r stores row r, or lane 0 every row (LANE0).
template <int RW, bool LANE0>
__device__ __forceinline__ void warp_store(float (&acc)[RW], int lane, int first, int n,
                                           float *out) {
    warp_butterfly<RW>(acc);
    if (LANE0) {
        if (lane == 0)
#pragma unroll
            for (int r = 0; r < RW; r++)
                if (first + r < n)
                    out[first + r] = acc[r];
        return;
    }
    if (lane < RW && first + lane < n) {
        float mine = acc[0];
#pragma unroll
        for (int r = 1; r < RW; r++)
            if (lane == r)
                mine = acc[r];
        out[first + lane] = mine;
    }
}

template <int L, int RW, int T, int LD, int FLAGS = 0>
__global__ void __launch_bounds__(T) warp_kernel(const float *in, float *out, int n) {
    constexpr int C = (L + 31) / 32;
    const int len = (FLAGS & (WARP_RUNTIME_L | WARP_FULL_COLUMNS)) ? c_row_length : L;
    const int lane = threadIdx.x % 32;
    const int first = (blockIdx.x * T + threadIdx.x) / 32 * RW;
    float v[RW][C];
    if ((FLAGS & WARP_FULL_COLUMNS) && first + RW <= n) {
        const float *row = in + (size_t)first * len + lane;
#pragma unroll
        for (int r = 0; r < RW; r++) {
#pragma unroll
            for (int c = 0; c < C - 1; c++)
                v[r][c] = load1<LD>(row + (size_t)r * len + 32 * c);
            const float *last = row + (size_t)r * len + 32 * (C - 1);
            v[r][C - 1] = lane + 32 * (C - 1) < len ? load1<LD>(last) : 0.0f;
        }
        float acc[RW];
#pragma unroll
        for (int r = 0; r < RW; r++) {
            acc[r] = v[r][0];
#pragma unroll
            for (int c = 1; c < C; c++)
                acc[r] += v[r][c];
        }
        warp_store<RW, false>(acc, lane, first, n, out);
        return;
    }
#pragma unroll
    for (int r = 0; r < RW; r++)
#pragma unroll
        for (int c = 0; c < C; c++)
            if (first + r < n && lane + 32 * c < len)
                v[r][c] = load1<LD>(in + (size_t)(first + r) * len + lane + 32 * c);
    float acc[RW];
#pragma unroll
    for (int r = 0; r < RW; r++) {
        acc[r] = 0.0f;
#pragma unroll
        for (int c = 0; c < C; c++)
            if (first + r < n && lane + 32 * c < len)
                acc[r] += v[r][c];
    }
    warp_store<RW, (FLAGS & WARP_LANE0_STORES) != 0>(acc, lane, first, n, out);
}

// warp2 (rows of 100, Inductor's persistent reduction: XBLOCK 8, 2 warps):
// a block of T threads (W = T / 32 warps) takes W * RW adjacent rows.
// INTERLEAVE: warp w takes the block's rows w, w + W, ... (Inductor's);
// else rows w * RW .. w * RW + RW - 1 (the library's ROWS warp kernel).
// VEC: lane l loads columns 4l .. 4l + 3 of each row as one 16-byte vector
// (L a multiple of 4, at most 128); else scalars l, l + 32, ... SMEM: the
// warps' row sums go through shared memory and the block's first W * RW
// threads store its W * RW adjacent outputs; else lane r of each warp
// stores its row r.
template <int L, int RW, int T, bool VEC, bool INTERLEAVE, bool SMEM>
__global__ void __launch_bounds__(T) warp2_kernel(const float *in, float *out, int n) {
    constexpr int W = T / 32, C = VEC ? 1 : (L + 31) / 32, E = VEC ? 4 : 1;
    static_assert(!VEC || (L % 4 == 0 && L <= 128), "one vector a lane a row");
    __shared__ float sums[W * RW];
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    const int block_first = blockIdx.x * W * RW;
    int row[RW];
#pragma unroll
    for (int r = 0; r < RW; r++)
        row[r] = block_first + (INTERLEAVE ? w + W * r : w * RW + r);
    float v[RW][C][E];
#pragma unroll
    for (int r = 0; r < RW; r++)
#pragma unroll
        for (int c = 0; c < C; c++) {
            const int col = VEC ? 4 * lane : lane + 32 * c;
            const bool ok = row[r] < n && col < L;
            if constexpr (VEC) {
                const float4 x =
                    ok ? load4<PLAIN>(in + (size_t)row[r] * L + col) : make_float4(0, 0, 0, 0);
                v[r][c][0] = x.x;
                v[r][c][1] = x.y;
                v[r][c][2] = x.z;
                v[r][c][3] = x.w;
            } else {
                v[r][c][0] = ok ? load1<PLAIN>(in + (size_t)row[r] * L + col) : 0.0f;
            }
        }
    float acc[RW];
#pragma unroll
    for (int r = 0; r < RW; r++) {
        acc[r] = 0.0f;
#pragma unroll
        for (int c = 0; c < C; c++)
#pragma unroll
            for (int e = 0; e < E; e++)
                acc[r] += v[r][c][e];
    }
    warp_butterfly<RW>(acc);
    if (SMEM) {
        if (lane == 0)
#pragma unroll
            for (int r = 0; r < RW; r++)
                sums[row[r] - block_first] = acc[r];
        __syncthreads();
        if (threadIdx.x < W * RW && block_first + (int)threadIdx.x < n)
            out[block_first + threadIdx.x] = sums[threadIdx.x];
        return;
    }
    if (lane < RW) {
        float mine = acc[0];
        int o = row[0];
#pragma unroll
        for (int r = 1; r < RW; r++)
            if (lane == r) {
                mine = acc[r];
                o = row[r];
            }
        if (o < n)
            out[o] = mine;
    }
}

// vgroup: LPR = L / 4 lanes a row, one 16-byte vector a lane a row; a warp
// takes RW = 32 U / LPR adjacent rows, its load u the RPL = 32 / LPR rows
// u RPL .. u RPL + RPL - 1 (512 contiguous bytes). Blocks of T threads.
template <int L, int U, int T, int LD>
__global__ void __launch_bounds__(T) vgroup_kernel(const float *in, float *out, int n) {
    constexpr int LPR = L / 4, RPL = 32 / LPR, RW = RPL * U;
    static_assert(L % 4 == 0 && 32 % LPR == 0 && LPR <= 32, "whole vectors, lanes split evenly");
    const int lane = threadIdx.x % 32;
    const int first = (blockIdx.x * T + threadIdx.x) / 32 * RW;
    const float *p = in + (size_t)first * L + 4 * lane;
    float4 v[U];
    if (first + RW <= n) {
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = load4<LD>(p + 128 * u);
    } else {
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = first + u * RPL + lane / LPR < n ? load4<LD>(p + 128 * u)
                                                    : make_float4(0, 0, 0, 0);
    }
    float s[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
        s[u] = (v[u].x + v[u].y) + (v[u].z + v[u].w);
#pragma unroll
        for (int off = LPR / 2; off > 0; off /= 2)
            s[u] += __shfl_xor_sync(0xffffffffu, s[u], off);
    }
    // Row j = c 32 + lane of the warp is load u = j / RPL's group j % RPL
    // (= lane % RPL), held by each of that group's lanes.
    constexpr int CH = (RW + 31) / 32;
    float mine[CH];
#pragma unroll
    for (int u = 0; u < U; u++) {
        const float t = __shfl_sync(0xffffffffu, s[u], (lane % RPL) * LPR);
#pragma unroll
        for (int c = 0; c < CH; c++)
            if (u == c * LPR + lane / RPL)
                mine[c] = t;
    }
#pragma unroll
    for (int c = 0; c < CH; c++)
        if (c * 32 + lane < RW && first + c * 32 + lane < n)
            out[first + c * 32 + lane] = mine[c];
}

__global__ void stream_kernel(const float4 *in, float *out, size_t n4) {
    size_t i = (size_t)blockIdx.x * 256 * 4 + threadIdx.x;
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++)
        if (i + u * 256 < n4)
            v[u] = __ldg(in + i + u * 256);
    float acc = 0;
#pragma unroll
    for (int u = 0; u < 4; u++)
        if (i + u * 256 < n4)
            acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    if (acc == -1.0f)
        out[0] = acc;
}

struct Variant {
    const char *name;
    int L;
    void (*kernel)(const float *, float *, int);
    int threads, rows_per_block;
};

#define STRIDED(L, R, LD, NAME) {NAME, L, strided_kernel<L, R, LD>, 256, 256 * R}
#define GROUPED(L, REP, LD, NAME) {NAME, L, grouped_kernel<L, REP, LD>, 128, 128 * 4 * REP}
#define SCALAR4(L, REP, LD, NAME) {NAME, L, scalar4_kernel<L, REP, LD>, 128, 128 * 4 * REP}
#define PAIR(VEC, LD, NAME) {NAME, 4, pair_kernel<VEC, LD>, 256, 512}
#define WARP(L, RW, T, LD, NAME) {NAME, L, warp_kernel<L, RW, T, LD>, T, T / 32 * RW}
#define WARP2(L, RW, T, VEC, IL, SM, NAME)                                                         \
    {NAME, L, warp2_kernel<L, RW, T, VEC, IL, SM>, T, T / 32 * RW}
#define VGROUP(L, U, T, LD, NAME) {NAME, L, vgroup_kernel<L, U, T, LD>, T, T / 32 * (32 / (L / 4)) * U}
#define WARPF(L, RW, T, LD, F, NAME) {NAME, L, warp_kernel<L, RW, T, LD, F>, T, T / 32 * RW}

const Variant kVariants[] = {
    STRIDED(3, 4, PLAIN, "L3 strided R4 ld"),
    STRIDED(3, 4, EVICT_LAST, "L3 strided R4 el"),
    STRIDED(3, 8, EVICT_LAST, "L3 strided R8 el"),
    STRIDED(3, 4, NC, "L3 strided R4 nc"),
    GROUPED(3, 1, PLAIN, "L3 grouped x1 ld"),
    GROUPED(3, 2, PLAIN, "L3 grouped x2 ld"),
    GROUPED(3, 2, EVICT_LAST, "L3 grouped x2 el"),
    GROUPED(3, 2, NC, "L3 grouped x2 nc"),
    SCALAR4(3, 1, PLAIN, "L3 scalar4 x1 ld"),
    SCALAR4(3, 2, PLAIN, "L3 scalar4 x2 ld"),
    SCALAR4(3, 2, EVICT_LAST, "L3 scalar4 x2 el"),
    SCALAR4(3, 2, NC, "L3 scalar4 x2 nc"),
    STRIDED(4, 2, PLAIN, "L4 strided R2 ld"),
    STRIDED(4, 4, PLAIN, "L4 strided R4 ld (ROWS direct)"),
    STRIDED(4, 4, NC, "L4 strided R4 nc"),
    STRIDED(4, 8, PLAIN, "L4 strided R8 ld"),
    GROUPED(4, 1, PLAIN, "L4 grouped x1 ld"),
    GROUPED(4, 2, PLAIN, "L4 grouped x2 ld"),
    GROUPED(4, 2, NC, "L4 grouped x2 nc"),
    PAIR(false, EVICT_LAST, "L4 pair el (Inductor)"),
    PAIR(false, PLAIN, "L4 pair ld"),
    PAIR(true, PLAIN, "L4 pair vec ld"),
    PAIR(true, EVICT_LAST, "L4 pair vec el"),
    SCALAR4(4, 2, PLAIN, "L4 scalar4 x2 ld"),
    SCALAR4(4, 2, EVICT_LAST, "L4 scalar4 x2 el"),
    WARP(129, 4, 32, PLAIN, "L129 warp RW4 T32 ld (Inductor)"),
    WARP(129, 4, 32, NC, "L129 warp RW4 T32 nc"),
    WARP(129, 2, 32, PLAIN, "L129 warp RW2 T32 ld"),
    WARP(129, 8, 32, PLAIN, "L129 warp RW8 T32 ld"),
    WARP(129, 4, 64, PLAIN, "L129 warp RW4 T64 ld"),
    WARP(129, 4, 128, PLAIN, "L129 warp RW4 T128 ld"),
    WARP(129, 8, 128, PLAIN, "L129 warp RW8 T128 ld"),
    WARP(127, 4, 32, PLAIN, "L127 warp RW4 T32 ld"),
    WARP(127, 4, 128, PLAIN, "L127 warp RW4 T128 ld"),
    WARP(127, 8, 128, PLAIN, "L127 warp RW8 T128 ld"),
    WARP(129, 4, 32, EVICT_FIRST, "L129 warp RW4 T32 ef"),
    WARPF(129, 4, 32, PLAIN, WARP_RUNTIME_L, "L129 warp RW4 T32 ld runtime-L"),
    WARPF(129, 4, 32, PLAIN, WARP_LANE0_STORES, "L129 warp RW4 T32 ld lane0-stores"),
    WARPF(129, 4, 32, PLAIN, WARP_RUNTIME_L | WARP_LANE0_STORES, "L129 warp RW4 T32 ld both"),
    WARPF(129, 4, 32, PLAIN, WARP_FULL_COLUMNS, "L129 warp RW4 T32 ld full-columns"),
    WARPF(129, 4, 32, NC, WARP_FULL_COLUMNS, "L129 warp RW4 T32 nc full-columns"),
    WARP(127, 4, 32, EVICT_FIRST, "L127 warp RW4 T32 ef"),
    WARPF(127, 4, 32, PLAIN, WARP_FULL_COLUMNS, "L127 warp RW4 T32 ld full-columns"),
    WARPF(127, 4, 32, PLAIN, WARP_RUNTIME_L, "L127 warp RW4 T32 ld runtime-L"),
    WARP(33, 4, 32, PLAIN, "L33 warp RW4 T32 ld"),
    WARP(100, 4, 64, PLAIN, "L100 warp RW4 T64 ld (the library's)"),
    WARP2(100, 4, 64, false, false, false, "L100 warp2 RW4 T64 scalar"),
    WARP2(100, 4, 64, false, true, false, "L100 warp2 RW4 T64 scalar interleave"),
    WARP2(100, 4, 64, false, false, true, "L100 warp2 RW4 T64 scalar smem"),
    WARP2(100, 4, 64, false, true, true, "L100 warp2 RW4 T64 scalar interleave smem"),
    WARP2(100, 4, 64, true, false, false, "L100 warp2 RW4 T64 vec"),
    WARP2(100, 4, 64, true, true, false, "L100 warp2 RW4 T64 vec interleave"),
    WARP2(100, 4, 64, true, false, true, "L100 warp2 RW4 T64 vec smem"),
    WARP2(100, 4, 64, true, true, true, "L100 warp2 RW4 T64 vec interleave smem (Inductor)"),
    WARP2(100, 4, 128, true, true, true, "L100 warp2 RW4 T128 vec interleave smem"),
    WARP2(100, 4, 128, false, true, true, "L100 warp2 RW4 T128 scalar interleave smem"),
    WARP(1000, 2, 128, PLAIN, "L1000 warp RW2 T128 ld"),
    WARP(32, 4, 64, PLAIN, "L32 warp RW4 T64 ld"),
    WARP(32, 8, 64, PLAIN, "L32 warp RW8 T64 ld"),
    VGROUP(32, 4, 64, PLAIN, "L32 vgroup U4 T64 ld (Inductor's)"),
    VGROUP(32, 4, 64, EVICT_FIRST, "L32 vgroup U4 T64 ef"),
    VGROUP(32, 8, 64, PLAIN, "L32 vgroup U8 T64 ld"),
    VGROUP(32, 8, 64, NC, "L32 vgroup U8 T64 nc"),
    VGROUP(32, 8, 64, EVICT_FIRST, "L32 vgroup U8 T64 ef"),
    VGROUP(32, 8, 128, PLAIN, "L32 vgroup U8 T128 ld"),
    VGROUP(32, 8, 256, PLAIN, "L32 vgroup U8 T256 ld"),
    VGROUP(32, 16, 64, PLAIN, "L32 vgroup U16 T64 ld"),
    VGROUP(32, 16, 128, PLAIN, "L32 vgroup U16 T128 ld"),
    VGROUP(32, 4, 128, PLAIN, "L32 vgroup U4 T128 ld"),
    VGROUP(32, 4, 32, PLAIN, "L32 vgroup U4 T32 ld"),
    VGROUP(32, 4, 256, PLAIN, "L32 vgroup U4 T256 ld (direct G8)"),
};

} // namespace

int main(int argc, char **argv) {
    const int reps = probe_reps(argc, argv);
    // 256 MiB of input per copy (as rt_bench's rows cases), 2 copies rotated.
    const size_t in_bytes = (size_t)256 << 20;
    const int copies = 2;
    float *in = nullptr, *out = nullptr;
    PROBE_CHECK(cudaMalloc(&in, in_bytes * copies));
    PROBE_CHECK(cudaMalloc(&out, in_bytes / 2));
    probe_fill<<<4096, 256>>>(in, in_bytes * copies / 4);
    std::vector<float> host_out, host_in;
    auto time = [&](auto launch) {
        return probe_median_us(reps, [&](int k) { launch(k % copies); });
    };
    const size_t n4 = in_bytes / 16;
    float ceil_us = time([&](int k) {
        stream_kernel<<<(unsigned)((n4 + 1023) / 1024), 256>>>(
            reinterpret_cast<const float4 *>((char *)in + k * in_bytes), out, n4);
    });
    printf("read of 256 MiB (one-shot float4): %.2f us, %.1f GB/s\n", ceil_us,
           in_bytes / (ceil_us * 1e3));
    printf("%-34s %9s %8s %6s %s\n", "variant", "us", "GB/s", "%read", "check");
    const char *only = nullptr;
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "--only") == 0)
            only = argv[i + 1];
    for (const Variant &v : kVariants) {
        if (only && !strstr(v.name, only))
            continue;
        PROBE_CHECK(cudaMemcpyToSymbol(c_row_length, &v.L, sizeof v.L));
        // n rows of L floats, a multiple of 4 rows, within 256 MiB.
        const int n = (int)(in_bytes / (4 * v.L) / 4 * 4);
        const unsigned grid = (unsigned)((n + v.rows_per_block - 1) / v.rows_per_block);
        float us = time([&](int k) {
            void *args[] = {nullptr, &out, (void *)&n};
            const float *src = (const float *)((char *)in + k * in_bytes);
            args[0] = (void *)&src;
            PROBE_CHECK(cudaLaunchKernel((const void *)v.kernel, dim3(grid), dim3(v.threads), args, 0,
                                   0));
        });
        // Check a sample of rows against the host.
        host_out.resize(n);
        host_in.resize((size_t)n * v.L);
        PROBE_CHECK(cudaMemcpy(host_out.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
        PROBE_CHECK(cudaMemcpy(host_in.data(), (char *)in + ((reps + 2) % copies) * in_bytes,
                         (size_t)n * v.L * 4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int r = 0; r < n; r += 997) {
            float s = 0;
            for (int c = 0; c < v.L; c++)
                s += host_in[(size_t)r * v.L + c];
            if (std::abs(s - host_out[r]) > 1e-4f * (1 + std::abs(s)))
                bad++;
        }
        const double bytes = (double)n * v.L * 4 + (double)n * 4;
        printf("%-34s %9.2f %8.1f %6.1f %s\n", v.name, us, bytes / (us * 1e3),
               100.0 * (bytes / us) / (in_bytes / ceil_us), bad ? "BAD" : "ok");
    }
    return 0;
}
