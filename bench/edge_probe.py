#!/usr/bin/env python3
"""edge_probe: a row sum's time through each launch path and kernel binary.

bench/NOTES.md v1.27 found the [32768,4096] f32 row sum within 0.1-0.15%
of Inductor's back to back, but 0.3-0.6 us a call behind it with an event
pair around every call (compare_torch's timing). This times one shape of
kernel through each path, in passes of rotating order, on compare_torch's
tensors, to tell the launch path, the binary's compiler and the library's
kernel code apart (v1.39 has what it found):

    rt           reduce_tensor (ctypes, the library's driver launch)
    compile      torch.compile(x.sum(1)) (Inductor's kernel, Triton's launcher)
    eager        x.sum(1)
    tri          a Triton kernel of Inductor's shape (a program a row, the
                 whole row in one load, 16 warps), Triton's launcher
    tri_drv      the same cubin through cuLaunchKernel from here (ctypes)
    tri_loop     Inductor's loop: two rounds of 2048 into an elementwise
                 accumulator, then one sum (Triton's launcher)
    nv_rows      nvcc's kernel of the same shape (512 threads, two 16-byte
                 ld.global.cs loads a thread issued together, a
                 warp-shuffle block sum; its loop kept rolled), cuLaunchKernel
                 from here; nv_unr the same loop as nvcc unrolls it (32
                 registers)
    nv_plain     the same with plain loads; nv_l1ef with Triton's
                 evict_first loads (an L1 hint and an L2 cache policy);
                 nv_seq with one load a round (the loop kept rolled)
    nv_rows_pad  nv_rows with ~900 bytes of unused arguments (the
                 library's argument block's size)
    nv_rows_gc   nv_rows with its pointers at the far end of a ~900-byte
                 __grid_constant__ argument block (as the library reads
                 them); nv_rows_dyn with the block sum's 16 words in
                 dynamic shared memory (64 bytes at the launch, as the
                 library's ROWS block kernel); nv_rows_gc_dyn both;
                 nv_at<X> the pointers X bytes into such a block;
                 nv_lines3 a flag, the pointers and the count from three
                 lines of it before the first load, nv_lines1 from one;
                 nv_sz<S> nv_rows with S bytes of unused arguments
and empty kernels of the same grid (tri_empty, nv_empty). Per series:
each (median of an event pair a call, compare_torch's number), slept (the
same with a sleep kernel queued before each pair, so the GPU never waits
for the host), loop (one pair around --calls calls, a call, median of 5)
and the differences. --arm NAME=PATH adds another build of the library as
a series of its own (A/B builds on the same tensors), --only picks the
series, --sass-dir keeps the nvcc and Triton cubins for cuobjdump. Needs
torch with Triton, and nvcc on PATH (the device's image has both). A case
that is not an f32 row sum of 4096-float batches has no probe kernels: its
series are rt, the --arm builds, eager and compile (name them in --only),
except d024 ([32,32,16,32,128] over (0, 2, 4), v1.53), which has its own:

    tri_d024     a Triton kernel of Inductor's d024 shape (a program an
                 output, 16 warps, 2048 elements a step, evict-first),
                 Triton's launcher; tri_d024_drv the same cubin through
                 cuLaunchKernel
    nv_d024      nvcc's kernel of that mapping (a block of 512 an output,
                 a warp on a 512-byte row, 32 steps of 8 MiB), a rolling
                 window of 4 loads (Triton's SASS shape); nv_d024_ef with
                 Triton's evict-first loads; nv_d024_batch in batches of 4
                 drained before the next (the library's walk loop);
                 nv_d024_u8 / nv_d024_u16 rolling windows of 8 / 16 at 2 / 1
                 blocks a SM
    nv_d024_rt   nv_d024_batch with the shape from its arguments (a division
                 for the output's digits, strides, step and count: the
                 library's uniform walk); nv_d024_rt_gc with them at the
                 end of a ~900-byte argument block; nv_d024_rt_dyn also
                 folding through 2048 bytes of dynamic shared memory;
                 nv_d024_rt2 that in 512 blocks of two outputs each (one
                 wave at 4 blocks a SM)

    python3 bench/edge_probe.py --lib build/libreduce_tensor.so \
        --bench-bin build/bench/rt_bench --filter sum_32768x4096_d1
"""
import argparse
import ctypes
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_torch as ct  # noqa: E402
import kernel_times as kt  # noqa: E402
import rt_ctypes as rt  # noqa: E402

CUDA_SRC = r"""
/* Loads: 0 __ldcs (ld.global.cs, the library's load_stream), 1 plain
   ld.global, 2 Triton's evict_first (ld.global.L1::evict_first with an
   L2 evict_first cache policy). */
template <int K> __device__ __forceinline__ float4 ld(const float4 *p, unsigned long long pol) {
    if constexpr (K == 0) {
        return __ldcs(p);
    } else if constexpr (K == 1) {
        return *p;
    } else {
        float4 v;
        asm("ld.global.L1::evict_first.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
            : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p), "l"(pol));
        return v;
    }
}
/* A block of 512 a row of nvec vectors (a multiple of 1024): two loads a
   thread a round, both issued before the adds, or (SEQ) one round a load
   with the loop kept rolled; a warp-shuffle sum and 16 words of smem. */
/* The block sum's 16 words: static shared memory, or (DYN) the launch's
   dynamic shared memory, as the library's ROWS block kernel takes them. */
template <bool DYN> __device__ __forceinline__ float *block_words() {
    if constexpr (DYN) {
        extern __shared__ float dyn_w[];
        return dyn_w;
    } else {
        __shared__ float w[16];
        return w;
    }
}
/* A block of 512's sum of s, stored to out[blockIdx.x]: a warp-shuffle
   sum, 16 words of shared memory, one warp's sum of those. */
template <bool DYN> __device__ __forceinline__ void block_sum_store(float s, float *out) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    float *w = block_words<DYN>();
    if ((threadIdx.x & 31) == 0)
        w[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < 16 ? w[threadIdx.x] : 0.f;
#pragma unroll
        for (int o = 8; o > 0; o >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0)
            out[blockIdx.x] = s;
    }
}
template <int K, bool SEQ, bool ROLL = true, bool DYN = false>
__device__ __forceinline__ void rows_body(const float4 *__restrict__ in, float *__restrict__ out,
                                          int nvec) {
    const float4 *p = in + (size_t)blockIdx.x * nvec;
    unsigned long long pol = 0;
    if constexpr (K == 2)
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    float s = 0.f;
    if constexpr (SEQ) {
#pragma unroll 1
        for (int j = threadIdx.x; j < nvec; j += 512) {
            const float4 a = ld<K>(p + j, pol);
            s += (a.x + a.y) + (a.z + a.w);
        }
    } else if constexpr (ROLL) {
#pragma unroll 1
        for (int j = threadIdx.x; j < nvec; j += 2 * 512) {
            const float4 a = ld<K>(p + j, pol);
            const float4 b = ld<K>(p + j + 512, pol);
            s += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w));
        }
    } else {
        for (int j = threadIdx.x; j < nvec; j += 2 * 512) {
            const float4 a = ld<K>(p + j, pol);
            const float4 b = ld<K>(p + j + 512, pol);
            s += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w));
        }
    }
    block_sum_store<DYN>(s, out);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_rows(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<0, false>(in, out, nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_unr(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<0, false, false>(in, out, nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_plain(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<1, false>(in, out, nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_l1ef(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<2, false>(in, out, nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_seq(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<0, true>(in, out, nvec);
}
struct pad { long long w[112]; };
extern "C" __global__ void __launch_bounds__(512, 4)
nv_rows_pad(const float4 *__restrict__ in, float *__restrict__ out, int nvec, pad unused) {
    rows_body<0, false>(in, out, nvec);
}
/* The library's launch, piece by piece: a ~900-byte __grid_constant__
   argument block whose pointers sit at its far end (the library's `in`
   lies ~1.2 KB in), and the block sum's 16 words in dynamic shared memory
   (the library's ROWS block kernel takes them so). */
struct far_args { long long w[110]; const float4 *in; float *out; int nvec; };
extern "C" __global__ void __launch_bounds__(512, 4)
nv_rows_gc(const __grid_constant__ far_args a) {
    rows_body<0, false>(a.in, a.out, a.nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_rows_dyn(const float4 *__restrict__ in, float *__restrict__ out, int nvec) {
    rows_body<0, false, true, true>(in, out, nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_rows_gc_dyn(const __grid_constant__ far_args a) {
    rows_body<0, false, true, true>(a.in, a.out, a.nvec);
}
/* The same with the pointers X bytes into a ~900-byte argument block
   (nv_at<X>): where in the block a kernel's first reads sit. */
template <int X> struct at_args { char pad[X]; const float4 *in; float *out; int nvec;
                                  char rest[896 - X]; };
#define NV_AT(X) extern "C" __global__ void __launch_bounds__(512, 4) \
    nv_at##X(const __grid_constant__ at_args<X> a) { rows_body<0, false>(a.in, a.out, a.nvec); }
NV_AT(0) NV_AT(48) NV_AT(112) NV_AT(240) NV_AT(496) NV_AT(752)
/* The library's exact row's prologue reads three lines of its argument
   block before its first load (the exact flag, the input pointer, the
   row stride): nv_lines3 reads a flag, the pointers and the vector count
   from three lines ~256 bytes apart; nv_lines1 the same fields in one. */
struct lines3_args { char p0[496]; int nvec; char p1[252]; const float4 *in; float *out;
                     char p2[112]; int flag; char p3[28]; };
struct lines1_args { const float4 *in; float *out; int nvec; int flag; char rest[880]; };
template <typename Args> __device__ __forceinline__ void flagged(const Args &a) {
    if (a.flag != 1)
        return;
    rows_body<0, false>(a.in, a.out, a.nvec);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_lines3(const __grid_constant__ lines3_args a) { flagged(a); }
extern "C" __global__ void __launch_bounds__(512, 4)
nv_lines1(const __grid_constant__ lines1_args a) { flagged(a); }
/* nv_sz<S>: nv_rows with S bytes of unused arguments after its own three
   (what an argument block's size costs a launch). */
template <int S> struct sz_pad { char b[S]; };
#define NV_SZ(S) extern "C" __global__ void __launch_bounds__(512, 4) \
    nv_sz##S(const float4 *__restrict__ in, float *__restrict__ out, int nvec, sz_pad<S>) { \
        rows_body<0, false>(in, out, nvec); }
NV_SZ(128) NV_SZ(256) NV_SZ(512) NV_SZ(896) NV_SZ(2048) NV_SZ(4000)
/* acc += v, lane by lane (the d024 kernels' fold of one load). */
__device__ __forceinline__ void add4(float4 &acc, const float4 &v) {
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
}
/* d024: the f32 sum of [32,32,16,32,128] over (0, 2, 4), Inductor's
   mapping (bench/NOTES.md v1.15): a block of 512 an output o (dims 1 and
   3), a warp on a 512-byte row (dim 4), the block's 16 warps on the 16
   rows of dim 2, and 32 steps, one a unit of dim 0 (8 MiB apart). ROLL:
   U loads in flight to the end (load k + U issued as load k is added, the
   shape of Triton's SASS); else batches of U, all U added before the next
   batch is issued (the library's walk loop). Strides in float4 units. */
template <int K, int U, bool ROLL>
__device__ __forceinline__ void d024_body(const float4 *__restrict__ in, float *__restrict__ out) {
    constexpr long S0 = 524288, S1 = 16384, S2 = 1024, S3 = 32;
    constexpr int STEPS = 32;
    const int o = blockIdx.x;
    const float4 *p = in + (o >> 5) * S1 + (o & 31) * S3 + (threadIdx.x & 31) +
                      (threadIdx.x >> 5) * S2;
    unsigned long long pol = 0;
    if constexpr (K == 2)
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 v[U];
    if constexpr (ROLL) {
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = ld<K>(p + u * S0, pol);
#pragma unroll
        for (int k = 0; k < STEPS; ++k) {
            add4(acc, v[k % U]);
            if (k + U < STEPS)
                v[k % U] = ld<K>(p + (k + U) * S0, pol);
        }
    } else {
#pragma unroll 1
        for (int k = 0; k < STEPS; k += U) {
#pragma unroll
            for (int u = 0; u < U; ++u)
                v[u] = ld<K>(p + (k + u) * S0, pol);
#pragma unroll
            for (int u = 0; u < U; ++u)
                add4(acc, v[u]);
        }
    }
    block_sum_store<false>((acc.x + acc.y) + (acc.z + acc.w), out);
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024(const float4 *__restrict__ in, float *__restrict__ out) { d024_body<0, 4, true>(in, out); }
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_ef(const float4 *__restrict__ in, float *__restrict__ out) { d024_body<2, 4, true>(in, out); }
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_batch(const float4 *__restrict__ in, float *__restrict__ out) { d024_body<0, 4, false>(in, out); }
extern "C" __global__ void __launch_bounds__(512, 2)
nv_d024_u8(const float4 *__restrict__ in, float *__restrict__ out) { d024_body<0, 8, true>(in, out); }
extern "C" __global__ void __launch_bounds__(512, 1)
nv_d024_u16(const float4 *__restrict__ in, float *__restrict__ out) { d024_body<0, 16, true>(in, out); }
/* The same mapping with the shape at run time, as the library holds it
   (v1.53): the output's two kept digits from a division, strides, step and
   count from the arguments, batches of 4 (count a multiple of 4: the
   library's uniform walk). nv_d024_rt takes them as scalar arguments;
   nv_d024_rt_gc at the far end of a ~900-byte __grid_constant__ block
   (the library's argument block); nv_d024_rt_dyn also folds through
   dynamic shared memory (the library launches d024 with 2048 bytes).
   Strides in float4 units. */
struct d024_rt { const float4 *in; float *out; long long so_hi, so_lo, s_warp, step;
                 int kdiv, count; };
struct d024_far { char pad[832]; d024_rt a; };
template <bool DYN> __device__ __forceinline__ void d024_rt_body(const d024_rt &a,
                                                                 int o = blockIdx.x) {
    const int q = o / a.kdiv, r = o - q * a.kdiv;
    const float4 *p = a.in + q * a.so_hi + r * a.so_lo + (threadIdx.x & 31) +
                      (threadIdx.x >> 5) * a.s_warp;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 1
    for (int k = 0; k < a.count; k += 4) {
        float4 v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
            v[u] = ld<0>(p + u * a.step, 0ull);
        p += 4 * a.step;
#pragma unroll
        for (int u = 0; u < 4; ++u)
            add4(acc, v[u]);
    }
    /* block_sum_store writes out[blockIdx.x]: shifted, it writes out[o]. */
    block_sum_store<DYN>((acc.x + acc.y) + (acc.z + acc.w), a.out + (o - (int)blockIdx.x));
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_rt(const float4 *in, float *out, long long so_hi, long long so_lo, long long s_warp,
           long long step, int kdiv, int count) {
    d024_rt_body<false>(d024_rt{in, out, so_hi, so_lo, s_warp, step, kdiv, count});
}
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_rt_gc(const __grid_constant__ d024_far f) { d024_rt_body<false>(f.a); }
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_rt_dyn(const __grid_constant__ d024_far f) { d024_rt_body<true>(f.a); }
/* nv_d024_rt2: half the blocks (512, one wave at 4 a SM), each reading
   outputs b and b + 512 in turn: a block's start and fold paid once a
   slot instead of twice. */
extern "C" __global__ void __launch_bounds__(512, 4)
nv_d024_rt2(const __grid_constant__ d024_far f) {
    d024_rt_body<true>(f.a);
    __syncthreads(); /* warp 0 has read the block's words */
    d024_rt_body<true>(f.a, blockIdx.x + gridDim.x);
}
extern "C" __global__ void __launch_bounds__(512, 4) nv_empty(float *out) {
    if (out == nullptr && threadIdx.x == 1023)
        out[0] = 0.f;
}
"""


NV_AT_OFFSETS = (0, 48, 112, 240, 496, 752)
NV_AT_NAMES = tuple("nv_at%d" % x for x in NV_AT_OFFSETS)
NV_SZ_SIZES = (128, 256, 512, 896, 2048, 4000)
NV_SZ_NAMES = tuple("nv_sz%d" % x for x in NV_SZ_SIZES)


class Driver:
    """The few driver calls this needs, through ctypes."""

    ATTRS = {"regs": 4, "local": 3, "shared": 1, "const": 2, "ptx": 5, "binary": 6}

    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.keep = []

    def ok(self, r, what):
        if r != 0:
            raise RuntimeError("%s: CUresult %d" % (what, r))

    def load(self, image, name):
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        buf = ctypes.create_string_buffer(image, len(image))
        self.keep.append(buf)
        self.ok(self.cu.cuModuleLoadData(ctypes.byref(mod), buf), "cuModuleLoadData")
        self.ok(self.cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()),
                "cuModuleGetFunction " + name)
        return fn

    def attrs(self, fn):
        out = {}
        for k, a in self.ATTRS.items():
            v = ctypes.c_int()
            self.ok(self.cu.cuFuncGetAttribute(ctypes.byref(v), a, fn), "cuFuncGetAttribute")
            out[k] = v.value
        return out

    def launcher(self, fn, grid, block, smem, stream, args):
        """A call(k) that launches fn with args(k), a list of ctypes values."""
        cu = self.cu

        def call(k):
            vals = args(k)
            ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.addressof(v) for v in vals])
            r = cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, smem, ctypes.c_void_p(stream),
                                  ptrs, None)
            if r != 0:
                raise RuntimeError("cuLaunchKernel: CUresult %d" % r)
        return call


def entry_params(ptx, name):
    """The number of .param entries of kernel `name` in ptx."""
    m = re.search(r"\.entry\s+%s\s*\((.*?)\)" % re.escape(name), ptx, re.S)
    if m is None:
        raise RuntimeError("no .entry %s in Triton's PTX" % name)
    return m.group(1).count(".param")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", help="libreduce_tensor.so (default: newest build*/libreduce_tensor.so)")
    p.add_argument("--bench-bin", help="rt_bench binary to read the suite from (--list-json)")
    p.add_argument("--bench-json", help="rt_bench --json results instead of --bench-bin")
    p.add_argument("--filter", default="sum_32768x4096_d1",
                   help="one case of the suite: an f32 sum over the last dim of a 2-d tensor, "
                   "or d024's")
    p.add_argument("--calls", type=int, default=100, help="calls a series, each way")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--only", help="time only these series (comma-separated names)")
    p.add_argument("--arm", action="append",
                   help="NAME=PATH: another build of the library, timed as a series of its own")
    p.add_argument("--sass-dir", help="write the nvcc and Triton cubins here (for cuobjdump)")
    p.add_argument("--sleep-cycles", type=int, default=200000,
                   help="torch.cuda._sleep before each empty kernel's event pair")
    return p.parse_args(argv)


def main(argv):
    opts = parse_args(argv)
    import torch
    import triton
    import triton.language as tl

    lib = rt.Lib(opts.lib or rt.find_library(ct.ROOT))
    args = argparse.Namespace(bench_json=opts.bench_json, bench_bin=opts.bench_bin)
    cases, _ = ct.load_suite(args)
    cases = [c for c in cases if c["name"] == opts.filter]
    if len(cases) != 1:
        sys.exit("edge_probe: --filter must name one case of the suite")
    case = cases[0]
    # The probe kernels read f32 rows of whole 1024-vector batches (4096
    # floats, ...) of a packed 2-d tensor; any other case times the
    # library's builds, eager and torch.compile only.
    row_family = (case["dtype"] == "f32" and case["op"] == "sum" and len(case["shape"]) == 2 and
                  case["dims"] == [1] and case["strides"] == [case["shape"][1], 1] and
                  case["shape"][1] % 4096 == 0)

    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    props = torch.cuda.get_device_properties(device)
    stream = torch.cuda.current_stream(device).cuda_stream
    ctx = lib.context(rt.DEVICE_CUDA, 0, ctypes.c_void_p(stream), None)
    l2_bytes = getattr(props, "L2_cache_size", 0) or (60 << 20)
    ncopies = ct.copies_for(case, l2_bytes, opts.calls, opts.warmup)
    t = ct.Case(torch, lib, ctx, case, ncopies, device)
    f = ct.torch_fn(torch, case)
    want = f(t.views[0])

    calls = {"rt": t.rt_call}
    # Other builds of the library (--arm NAME=PATH), each on the same tensors.
    arm_libs = []
    for spec in opts.arm or []:
        aname, apath = spec.split("=", 1)
        alib = rt.Lib(apath)
        actx = alib.context(rt.DEVICE_CUDA, 0, ctypes.c_void_p(stream), None)
        arm_libs.append((alib, actx))
        calls[aname] = t.rt_call_for(alib, actx)
    calls["eager"] = lambda k: f(t.views[k])
    torch._dynamo.reset()
    cf = torch.compile(f, dynamic=False)
    cf(t.views[0])
    calls["compile"] = lambda k: cf(t.views[k])
    # Every library build's result against torch's, once.
    for aname in ["rt"] + [spec.split("=", 1)[0] for spec in opts.arm or []]:
        t.outs[0].zero_()
        calls[aname](0)
        torch.cuda.synchronize()
        err = ((t.outs[0].double() - want.double()).abs().max().item() /
               max(want.double().abs().max().item(), 1e-30))
        print("  %s: relative error %.3g against torch's result" % (aname, err))
    print("torch %s, triton %s on %s; case %s, %d input copies, %d calls a series" % (
        torch.__version__, triton.__version__, props.name, case["name"], ncopies, opts.calls))
    d024 = (case["dtype"] == "f32" and case["op"] == "sum" and
             case["shape"] == [32, 32, 16, 32, 128] and case["dims"] == [0, 2, 4] and
             case["strides"] == [2097152, 65536, 4096, 128, 1])
    empties = {}
    if row_family:
        more, empties = probe_calls(opts, torch, triton, tl, t, case, stream, props)
        calls.update(more)
    elif d024:
        calls.update(d024_calls(opts, torch, triton, tl, t, stream, props))
    elif opts.only is None or not set(opts.only.split(",")) <= set(calls):
        sys.exit("edge_probe: %s is neither a row sum of 4096-float batches nor d024: --only "
                 "may name %s" % (case["name"], ",".join(calls)))
    run_series(opts, torch, ncopies, calls, empties)
    torch.cuda.synchronize()
    for alib, actx in arm_libs:
        alib.destroy(actx)
    lib.destroy(ctx)
    return 0


def nvcc_cubin(props, sass_dir):
    """CUDA_SRC built by nvcc for this GPU (a copy kept in sass_dir)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "edge.cu")
        with open(src, "w") as f:
            f.write(CUDA_SRC)
        cubin = os.path.join(tmp, "edge.cubin")
        subprocess.run(["nvcc", "-cubin", "-O3", "-arch=sm_%d%d" % (props.major, props.minor),
                        "-o", cubin, src], check=True)
        with open(cubin, "rb") as f:
            image = f.read()
    if sass_dir:
        with open(os.path.join(sass_dir, "edge_probe_nvcc.cubin"), "wb") as f:
            f.write(image)
    return image


D024_NV = ("nv_d024", "nv_d024_ef", "nv_d024_batch", "nv_d024_u8", "nv_d024_u16")
D024_RT = ("nv_d024_rt", "nv_d024_rt_gc", "nv_d024_rt_dyn", "nv_d024_rt2")


class D024Rt(ctypes.Structure):
    """CUDA_SRC's d024_rt."""
    _fields_ = [("inp", ctypes.c_void_p), ("out", ctypes.c_void_p),
                ("so_hi", ctypes.c_longlong), ("so_lo", ctypes.c_longlong),
                ("s_warp", ctypes.c_longlong), ("step", ctypes.c_longlong),
                ("kdiv", ctypes.c_int), ("count", ctypes.c_int)]


class D024Far(ctypes.Structure):
    """CUDA_SRC's d024_far: d024_rt at the far end of ~900 bytes."""
    _fields_ = [("pad", ctypes.c_char * 832), ("a", D024Rt)]


def d024_calls(opts, torch, triton, tl, t, stream, props):
    """d024's probe kernels (CUDA_SRC's d024_body, and a Triton kernel of
    Inductor's shape through Triton's launcher and through
    cuLaunchKernel), on t's tensors, each checked against torch's sums."""
    ncopies = len(t.views)
    device = t.views[0].device
    outs = [torch.empty(1024, dtype=torch.float32, device=device) for _ in range(ncopies)]
    want = t.views[0].sum((0, 2, 4)).reshape(-1)
    drv = Driver()
    image = nvcc_cubin(props, opts.sass_dir)
    nv = {n: drv.load(image, n) for n in D024_NV + D024_RT}

    @triton.jit
    def tri_d024(in_ptr, out_ptr, RB: tl.constexpr):
        # Inductor's kernel for this case (bench/NOTES.md v1.15): a program
        # an output, 16 warps, R0_BLOCK 2048 a step, evict-first loads.
        o = tl.program_id(0)
        base = (o // 32) * 65536 + (o % 32) * 128
        acc = tl.zeros([RB], tl.float32)
        for r0 in range(0, 65536, RB):
            r = r0 + tl.arange(0, RB)
            off = (r % 128) + 4096 * ((r // 128) % 16) + 2097152 * (r // 2048)
            acc = acc + tl.load(in_ptr + base + off, eviction_policy="evict_first")
        tl.store(out_ptr + o, tl.sum(acc, 0))

    k = tri_d024[(1024,)](t.views[0], outs[0], RB=2048, num_warps=16)
    torch.cuda.synchronize()
    if k is None or not hasattr(k, "asm"):
        sys.exit("edge_probe: this Triton returns no compiled kernel from a launch")
    if opts.sass_dir:
        with open(os.path.join(opts.sass_dir, "edge_probe_tri_d024.cubin"), "wb") as f:
            f.write(k.asm["cubin"])
    tri_fn = drv.load(k.asm["cubin"], k.name)
    n_params = entry_params(k.asm["ptx"], k.name)

    P = ctypes.c_void_p
    in_ptrs = [P(v.data_ptr()) for v in t.views]
    out_ptrs = [P(o.data_ptr()) for o in outs]
    nulls = [P(0) for _ in range(8)]
    calls = {
        "tri_d024": lambda j: tri_d024[(1024,)](t.views[j], outs[j], RB=2048, num_warps=16),
        "tri_d024_drv": drv.launcher(tri_fn, 1024, 512, k.metadata.shared, stream,
                                     lambda j: [in_ptrs[j], out_ptrs[j]] +
                                     nulls[:n_params - 2]),
    }
    for name in D024_NV:
        calls[name] = drv.launcher(nv[name], 1024, 512, 0, stream,
                                   lambda j: [in_ptrs[j], out_ptrs[j]])
    # d024's shape in float4 units: dims 1 and 3 kept (16384, 32), a warp
    # a row of dim 2 (1024), 32 steps of dim 0 (524288).
    shape = dict(so_hi=16384, so_lo=32, s_warp=1024, step=524288, kdiv=32, count=32)
    scalars = [[P(v.data_ptr()), P(o.data_ptr())] +
               [ctypes.c_longlong(shape[k]) for k in ("so_hi", "so_lo", "s_warp", "step")] +
               [ctypes.c_int(shape["kdiv"]), ctypes.c_int(shape["count"])]
               for v, o in zip(t.views, outs)]
    far = [D024Far(a=D024Rt(inp=v.data_ptr(), out=o.data_ptr(), **shape))
           for v, o in zip(t.views, outs)]
    calls["nv_d024_rt"] = drv.launcher(nv["nv_d024_rt"], 1024, 512, 0, stream,
                                       lambda j: scalars[j])
    calls["nv_d024_rt_gc"] = drv.launcher(nv["nv_d024_rt_gc"], 1024, 512, 0, stream,
                                          lambda j: [far[j]])
    calls["nv_d024_rt_dyn"] = drv.launcher(nv["nv_d024_rt_dyn"], 1024, 512, 2048, stream,
                                           lambda j: [far[j]])
    calls["nv_d024_rt2"] = drv.launcher(nv["nv_d024_rt2"], 512, 512, 2048, stream,
                                        lambda j: [far[j]])
    for name, call in calls.items():
        outs[0].zero_()
        call(0)
        torch.cuda.synchronize()
        err = (outs[0] - want).abs().max().item() / want.abs().max().item()
        if err > 1e-5:
            sys.exit("edge_probe: %s's sums differ from torch's (relative %.3g)" % (name, err))
    for name, fn in [("tri_d024", tri_fn)] + list(nv.items()):
        print("  %-14s %s" % (name, drv.attrs(fn)))
    return calls


def probe_calls(opts, torch, triton, tl, t, case, stream, props):
    """The probe kernels' calls and the empty kernels', on t's tensors,
    each checked against torch's row sums."""
    rows, L = case["shape"]
    ncopies = len(t.views)
    device = t.views[0].device
    outs = [torch.empty(rows, dtype=torch.float32, device=device) for _ in range(ncopies)]
    want = t.views[0].sum(1)
    drv = Driver()
    nv_image = nvcc_cubin(props, opts.sass_dir)
    nv = {n: drv.load(nv_image, n) for n in
          ("nv_rows", "nv_unr", "nv_plain", "nv_l1ef", "nv_seq", "nv_rows_pad", "nv_rows_gc",
           "nv_rows_dyn", "nv_rows_gc_dyn", "nv_lines3", "nv_lines1", "nv_empty") +
          NV_AT_NAMES + NV_SZ_NAMES}

    @triton.jit
    def tri_rows(in_ptr, out_ptr, R: tl.constexpr):
        row = tl.program_id(0)
        offs = tl.arange(0, R)
        x = tl.load(in_ptr + row * R + offs, eviction_policy="evict_first")
        tl.store(out_ptr + row, tl.sum(x, 0))

    @triton.jit
    def tri_loop(in_ptr, out_ptr, R: tl.constexpr, RB: tl.constexpr):
        row = tl.program_id(0)
        acc = tl.zeros([RB], tl.float32)
        for r0 in range(0, R, RB):
            x = tl.load(in_ptr + row * R + r0 + tl.arange(0, RB), eviction_policy="evict_first")
            acc = acc + x
        tl.store(out_ptr + row, tl.sum(acc, 0))

    @triton.jit
    def tri_empty(out_ptr, n):
        if tl.program_id(0) == n:
            tl.store(out_ptr, 0.0)

    k_rows = tri_rows[(rows,)](t.views[0], outs[0], R=L, num_warps=16)
    k_loop = tri_loop[(rows,)](t.views[0], outs[0], R=L, RB=2048, num_warps=16)
    k_empty = tri_empty[(rows,)](outs[0], -1, num_warps=16)
    torch.cuda.synchronize()
    for name, k in (("tri_rows", k_rows), ("tri_loop", k_loop), ("tri_empty", k_empty)):
        if k is None or not hasattr(k, "asm"):
            sys.exit("edge_probe: this Triton returns no compiled kernel from a launch")
    if opts.sass_dir:
        for name, k in (("tri_rows", k_rows), ("tri_loop", k_loop)):
            with open(os.path.join(opts.sass_dir, "edge_probe_%s.cubin" % name), "wb") as f:
                f.write(k.asm["cubin"])
    tri_rows_fn = drv.load(k_rows.asm["cubin"], k_rows.name)
    tri_empty_fn = drv.load(k_empty.asm["cubin"], k_empty.name)
    n_rows_params = entry_params(k_rows.asm["ptx"], k_rows.name)
    n_empty_params = entry_params(k_empty.asm["ptx"], k_empty.name)
    smem_rows = k_rows.metadata.shared
    smem_empty = k_empty.metadata.shared

    P = ctypes.c_void_p
    in_ptrs = [P(v.data_ptr()) for v in t.views]
    out_ptrs = [P(o.data_ptr()) for o in outs]
    nvec = ctypes.c_int(L // 4)
    pad = (ctypes.c_longlong * 112)()
    nulls = [P(0) for _ in range(8)]

    calls = {}
    calls["tri"] = lambda k: tri_rows[(rows,)](t.views[k], outs[k], R=L, num_warps=16)
    calls["tri_drv"] = drv.launcher(
        tri_rows_fn, rows, 512, smem_rows, stream,
        lambda k: [in_ptrs[k], out_ptrs[k]] + nulls[:n_rows_params - 2])
    calls["tri_loop"] = lambda k: tri_loop[(rows,)](t.views[k], outs[k], R=L, RB=2048,
                                                     num_warps=16)
    for name in ("nv_rows", "nv_unr", "nv_plain", "nv_l1ef", "nv_seq"):
        calls[name] = drv.launcher(nv[name], rows, 512, 0, stream,
                                   lambda k: [in_ptrs[k], out_ptrs[k], nvec])
    calls["nv_rows_pad"] = drv.launcher(nv["nv_rows_pad"], rows, 512, 0, stream,
                                        lambda k: [in_ptrs[k], out_ptrs[k], nvec, pad])
    class FarArgs(ctypes.Structure):
        _fields_ = [("w", ctypes.c_longlong * 110), ("inp", ctypes.c_void_p),
                    ("out", ctypes.c_void_p), ("nvec", ctypes.c_int)]
    far = [FarArgs(inp=in_ptrs[k].value, out=out_ptrs[k].value, nvec=L // 4)
           for k in range(ncopies)]
    for x in NV_AT_OFFSETS:
        class AtArgs(ctypes.Structure):
            _fields_ = [("pad", ctypes.c_char * x), ("inp", ctypes.c_void_p),
                        ("out", ctypes.c_void_p), ("nvec", ctypes.c_int),
                        ("rest", ctypes.c_char * (896 - x))]
        at = [AtArgs(inp=in_ptrs[k].value, out=out_ptrs[k].value, nvec=L // 4)
              for k in range(ncopies)]
        calls["nv_at%d" % x] = drv.launcher(nv["nv_at%d" % x], rows, 512, 0, stream,
                                            lambda k, at=at: [at[k]])
    class Lines3(ctypes.Structure):
        _fields_ = [("p0", ctypes.c_char * 496), ("nvec", ctypes.c_int),
                    ("p1", ctypes.c_char * 252), ("inp", ctypes.c_void_p),
                    ("out", ctypes.c_void_p), ("p2", ctypes.c_char * 112),
                    ("flag", ctypes.c_int), ("p3", ctypes.c_char * 28)]
    class Lines1(ctypes.Structure):
        _fields_ = [("inp", ctypes.c_void_p), ("out", ctypes.c_void_p), ("nvec", ctypes.c_int),
                    ("flag", ctypes.c_int), ("rest", ctypes.c_char * 880)]
    for name, T in (("nv_lines3", Lines3), ("nv_lines1", Lines1)):
        la = [T(inp=in_ptrs[k].value, out=out_ptrs[k].value, nvec=L // 4, flag=1)
              for k in range(ncopies)]
        calls[name] = drv.launcher(nv[name], rows, 512, 0, stream, lambda k, la=la: [la[k]])
    for sz in NV_SZ_SIZES:
        szpad = (ctypes.c_char * sz)()
        calls["nv_sz%d" % sz] = drv.launcher(nv["nv_sz%d" % sz], rows, 512, 0, stream,
                                             lambda k, p=szpad: [in_ptrs[k], out_ptrs[k], nvec, p])
    calls["nv_rows_gc"] = drv.launcher(nv["nv_rows_gc"], rows, 512, 0, stream,
                                       lambda k: [far[k]])
    calls["nv_rows_dyn"] = drv.launcher(nv["nv_rows_dyn"], rows, 512, 64, stream,
                                        lambda k: [in_ptrs[k], out_ptrs[k], nvec])
    calls["nv_rows_gc_dyn"] = drv.launcher(nv["nv_rows_gc_dyn"], rows, 512, 64, stream,
                                           lambda k: [far[k]])
    empties = {
        "tri_empty": drv.launcher(tri_empty_fn, rows, 512, smem_empty, stream,
                                  lambda k: [out_ptrs[k], ctypes.c_int(-1)] +
                                  nulls[:n_empty_params - 2]),
        "nv_empty": drv.launcher(nv["nv_empty"], rows, 512, 0, stream, lambda k: [out_ptrs[k]]),
    }

    # Every probe kernel's result against torch's, once.
    for name in ("tri", "tri_drv", "tri_loop", "nv_rows", "nv_unr", "nv_plain", "nv_l1ef", "nv_seq",
                 "nv_rows_pad", "nv_rows_gc", "nv_rows_dyn", "nv_rows_gc_dyn", "nv_lines3",
                 "nv_lines1") + NV_AT_NAMES + NV_SZ_NAMES:
        outs[0].zero_()
        calls[name](0)
        torch.cuda.synchronize()
        err = (outs[0] - want).abs().max().item() / want.abs().max().item()
        if err > 1e-5:
            sys.exit("edge_probe: %s's sums differ from torch's (relative %.3g)" % (name, err))

    for name, fn in [("tri_rows", tri_rows_fn), ("tri_empty", tri_empty_fn)] + list(nv.items()):
        print("  %-12s %s" % (name, drv.attrs(fn)))
    print("  tri_rows: %d params, %d B shared; tri_empty: %d params" % (
        n_rows_params, smem_rows, n_empty_params))
    return calls, empties


def run_series(opts, torch, ncopies, calls, empties):
    """Times every series (each, slept, loop) in passes of rotating order
    and prints them."""
    def each_after_sleep(call):
        """compare_torch's median with a sleep kernel queued ahead of each
        event pair, so the launch is queued before the GPU reaches it."""
        return ct.median_of_events(torch, call, ncopies, opts.calls, opts.warmup,
                                   before=lambda: torch.cuda._sleep(opts.sleep_cycles))

    names = list(calls) + list(empties)
    if opts.only:
        keep = opts.only.split(",")
        names = [n for n in names if n in keep]
    res = {n: {"each": [], "loop": [], "slept": []} for n in names}
    for p in range(opts.passes):
        k = p % len(names)
        for name in names[k:] + names[:k]:
            call = calls.get(name) or empties[name]
            if name in calls:
                res[name]["each"].append(ct.median_of_events(torch, call, ncopies, opts.calls,
                                                             opts.warmup))
            res[name]["slept"].append(each_after_sleep(call))
            res[name]["loop"].append(kt.loop_us(torch, call, ncopies, opts.calls, opts.warmup))
    print("us a call; each: an event pair a call; slept: the same after a sleep kernel; loop: "
          "one pair around %d calls; best pass (all passes)" % opts.calls)
    for name in names:
        r = res[name]
        e = min(r["each"]) if r["each"] else float("nan")
        s, lp = min(r["slept"]), min(r["loop"])
        print("%-11s each %8.2f slept %8.2f loop %8.2f each-loop %5.2f slept-loop %5.2f  "
              "(each %s; slept %s; loop %s)" % (
                  name, e, s, lp, e - lp, s - lp,
                  " ".join("%.2f" % x for x in r["each"]),
                  " ".join("%.2f" % x for x in r["slept"]),
                  " ".join("%.2f" % x for x in r["loop"])))
    print("medians of the passes, us: each / slept / loop")
    for name in names:
        r = res[name]
        e = statistics.median(r["each"]) if r["each"] else float("nan")
        print("%-11s %8.2f %8.2f %8.2f" % (name, e, statistics.median(r["slept"]),
                                           statistics.median(r["loop"])))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
