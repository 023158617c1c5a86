#!/usr/bin/env python3
"""How a case's first calls after its input is written run (bench/NOTES.md
v1.29 section 6). For reduce_tensor, torch.compile and eager in turn: write
the input again (uniform_ in [0.5, 1.5)), time 120 calls one at a time with an
event pair each and print the medians of calls 1-10, 11-20, ..., 111-120;
then 120 more calls without a rewrite. Two rounds, the first two series'
order swapped in the second. Needs torch with CUDA.

    python3 bench/first_calls.py build/libreduce_tensor.so build/bench/rt_bench var_4096x32768_d0
"""
import argparse, ctypes, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_torch as ct
import rt_ctypes as rt
import torch

lib = rt.Lib(sys.argv[1])
args = argparse.Namespace(bench_json=None, bench_bin=sys.argv[2])
cases, _ = ct.load_suite(args)
case = [c for c in cases if c["name"] == sys.argv[3]][0]
dev = torch.device("cuda", 0)
stream = torch.cuda.current_stream(dev).cuda_stream
ctx = lib.context(rt.DEVICE_CUDA, 0, ctypes.c_void_p(stream), None)
t = ct.Case(torch, lib, ctx, case, 1, dev)
f = ct.torch_fn(torch, case)
cf = torch.compile(f, dynamic=False)
cf(t.views[0])
calls = {"rt": lambda: t.rt_call(0), "compile": lambda: cf(t.views[0]), "eager": lambda: f(t.views[0])}

def series(name, rewrite, n=120):
    if rewrite:
        t.views[0].uniform_(0.5, 1.5)
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    for s, e in ev:
        s.record(); calls[name](); e.record()
    torch.cuda.synchronize()
    us = [1000.0 * s.elapsed_time(e) for s, e in ev]
    return " ".join("%.1f" % statistics.median(us[i:i + 10]) for i in range(0, n, 10))

for rnd in range(2):
    order = ["rt", "compile", "eager"] if rnd == 0 else ["compile", "rt", "eager"]
    for name in order:
        print("round %d %-8s after rewrite: %s" % (rnd + 1, name, series(name, True)))
        print("round %d %-8s no rewrite:    %s" % (rnd + 1, name, series(name, False)))
        sys.stdout.flush()
lib.destroy(ctx)
