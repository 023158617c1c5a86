#!/usr/bin/env python3
"""Where a case's time goes between two events: kernel time or launch gap.

For each case of rt_bench's suite that --filter selects, builds the same
tensors as compare_torch.py and runs reduce_tensor, PyTorch eager and
torch.compile back to back under torch.profiler (CUPTI), each series twice:
as compare_torch times it (an event pair around every call) and with no
events. From the trace it prints, per series, the median event interval
(compare_torch's number), the median GPU time of the call's kernels
(CUPTI start to end, summed over a call's kernels) and the median gap
from one call's last kernel to the next call's first (the launch's share
of a back-to-back call).

    python3 bench/kernel_times.py --lib build/libreduce_tensor.so \
        --bench-bin build/bench/rt_bench --filter sum_32768x4096_d1

A kernel profiler adds its own cost to every launch, so the gaps here are
upper bounds; the kernel times are the GPU's. With --no-profile there is
no profiler: each series is timed both ways in --passes passes of rotating
order (as compare_torch rotates them), and each way's best pass is shown
with all passes, so the cost of the events themselves (each - loop) and
any pass that ran apart from the others can be read off; --order sets pass
1's order (rt2: reduce_tensor again, as a series of its own), --idle and
--rewrite idle the GPU or write the inputs again before each pass, and
--smi prints nvidia-smi's clocks, power, temperatures and clock event
reasons while each series ran (bench/NOTES.md v1.27 has what these found).
The profile mode also prints each kernel's launch as the trace records it
(grid, block, registers, shared memory, occupancy). Needs torch with CUDA.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_torch as ct  # noqa: E402
import rt_ctypes as rt  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", help="libreduce_tensor.so (default: newest build*/libreduce_tensor.so)")
    p.add_argument("--bench-bin", help="rt_bench binary to read the suite from (--list-json)")
    p.add_argument("--bench-json", help="rt_bench --json results instead of --bench-bin")
    p.add_argument("--filter", required=True,
                   help="cases whose name contains this (comma-separated: any of them)")
    p.add_argument("--calls", type=int, default=40, help="profiled calls per series and mode")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls before them")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--device", type=int, default=0, help="CUDA device index")
    p.add_argument("--no-profile", action="store_true",
                   help="no profiler: time each series as compare_torch does (an event pair "
                        "a call, median) and as a loop (one event pair around --calls calls, "
                        "per call, median of 5), in --passes passes")
    p.add_argument("--passes", type=int, default=3, help="passes for --no-profile")
    p.add_argument("--idle", type=float, default=0.0,
                   help="--no-profile: seconds the GPU idles before each pass, so that each "
                        "series in turn runs first after an idle spell")
    p.add_argument("--order", default="rt,eager,compile",
                   help="--no-profile: the series in pass 1's order (each later pass rotates "
                        "it a place); rt2 is reduce_tensor once more, as a series of its own")
    p.add_argument("--rewrite", action="store_true",
                   help="--no-profile: write every input copy again (fresh uniform values, "
                        "floating-point cases) before each pass")
    p.add_argument("--smi", action="store_true",
                   help="--no-profile: sample nvidia-smi every 20 ms and print, per series and "
                        "pass, the median SM clock, power, GPU and memory temperature and the "
                        "clock event reasons while it ran")
    return p.parse_args(argv)


SMI_FIELDS = ["timestamp", "clocks.sm", "clocks.mem", "power.draw", "temperature.gpu",
              "temperature.memory", "clocks_event_reasons.active"]


class SmiSampler:
    """nvidia-smi in a loop of 20 ms in the background; window(t0, t1) gives
    the medians of the samples taken between two time.time() stamps."""

    def __init__(self, device):
        import subprocess
        import threading
        self.rows = []
        self.proc = subprocess.Popen(
            ["nvidia-smi", "-i", str(device), "--query-gpu=" + ",".join(SMI_FIELDS),
             "--format=csv,noheader,nounits", "-lms", "20"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        import datetime
        for line in self.proc.stdout:
            parts = [x.strip() for x in line.split(",")]
            if len(parts) != len(SMI_FIELDS):
                continue
            try:
                t = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
                vals = [float(x) if x not in ("[N/A]", "N/A") else float("nan")
                        for x in parts[1:6]]
                self.rows.append((t, vals, parts[6]))
            except ValueError:
                continue

    def window(self, t0, t1):
        sel = [r for r in self.rows if t0 <= r[0] <= t1]
        if not sel:
            return "no samples"
        med = [statistics.median(r[1][i] for r in sel) for i in range(5)]
        reasons = sorted(set(r[2] for r in sel))
        return "sm %4.0f MHz mem %4.0f MHz %5.0f W gpu %2.0f C hbm %2.0f C reasons %s (%d)" % (
            med[0], med[1], med[2], med[3], med[4], "/".join(reasons), len(sel))

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def loop_us(torch, call, ncopies, calls, warmup):
    """Microseconds a call of `calls` back-to-back calls between one event
    pair, median of 5."""
    per = []
    for _ in range(5):
        for k in range(warmup):
            call(k % ncopies)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for r in range(calls):
            call((warmup + r) % ncopies)
        e.record()
        torch.cuda.synchronize()
        per.append(1000.0 * s.elapsed_time(e) / calls)
    return statistics.median(per)


def kernels_of(trace_path):
    """[(start_us, end_us, name)] of the trace's GPU kernels, by start."""
    with open(trace_path) as f:
        doc = json.load(f)
    out = [(float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0.0)), e.get("name", ""),
            launch_of(e.get("args", {})))
           for e in doc.get("traceEvents", [])
           if e.get("ph") == "X" and e.get("cat") == "kernel"]
    return sorted(out)


def launch_of(args):
    """A kernel's launch as the trace records it: grid, block, registers a
    thread, shared memory a block, blocks a SM, estimated occupancy."""
    def get(*keys):
        for k in keys:
            if k in args:
                return args[k]
        return "?"
    return "grid %s block %s regs %s smem %s blocks/SM %s occ %s%%" % (
        get("grid"), get("block"), get("registers per thread"), get("shared memory"),
        get("blocks per SM"), get("est. achieved occupancy %"))


def profile_series(torch, call, ncopies, calls, warmup, with_events):
    """(median event interval or None, kernels in the profiled window)."""
    from torch.profiler import ProfilerActivity, profile
    for k in range(warmup):
        call(k % ncopies)
    torch.cuda.synchronize()
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
             for _ in range(calls)] if with_events else None
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for r in range(calls):
            if pairs:
                pairs[r][0].record()
            call((warmup + r) % ncopies)
            if pairs:
                pairs[r][1].record()
        torch.cuda.synchronize()
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        prof.export_chrome_trace(path)
        ks = kernels_of(path)
    finally:
        os.unlink(path)
    interval = (statistics.median(1000.0 * s.elapsed_time(e) for s, e in pairs)
                if pairs else None)
    return interval, ks


def per_call(ks, calls):
    """Split the kernels into `calls` equal groups (each call launches the
    same kernels): (median GPU time a call, median gap between calls,
    kernel names of one call, their launches)."""
    if not ks or len(ks) % calls != 0:
        return None, None, [k[2] for k in ks[:4]], [k[3] for k in ks[:4]]
    per = len(ks) // calls
    groups = [ks[i * per:(i + 1) * per] for i in range(calls)]
    busy = [sum(k[1] - k[0] for k in g) for g in groups]
    gaps = [groups[i + 1][0][0] - groups[i][-1][1] for i in range(calls - 1)]
    return (statistics.median(busy), statistics.median(gaps), [k[2] for k in groups[0]],
            [k[3] for k in groups[0]])


def main(argv):
    opts = parse_args(argv)
    lib = rt.Lib(opts.lib or rt.find_library(ct.ROOT))
    import torch
    args = argparse.Namespace(bench_json=opts.bench_json, bench_bin=opts.bench_bin)
    cases, _ = ct.load_suite(args)
    wanted = opts.filter.split(",")
    cases = [c for c in cases if any(w in c["name"] for w in wanted)]
    device = torch.device("cuda", opts.device)
    torch.cuda.set_device(device)
    props = torch.cuda.get_device_properties(device)
    l2_bytes = getattr(props, "L2_cache_size", 0) or (60 << 20)
    stream = torch.cuda.current_stream(device).cuda_stream
    ctx = lib.context(rt.DEVICE_CUDA, opts.device, ctypes.c_void_p(stream), None)
    print("torch %s on %s, %d calls a series and mode" % (torch.__version__, props.name,
                                                         opts.calls))
    if not opts.no_profile:
        print("%-30s %-8s %10s %10s %9s %10s  %s" % ("case", "series", "event_us", "kernel_us",
                                                   "gap_us", "k_noev_us", "kernels"))
    else:
        print("each: best pass of the medians of an event pair a call; loop: best pass of one "
              "pair around --calls calls, a call; passes in rotating order")
    smi = SmiSampler(opts.device) if opts.smi and opts.no_profile else None
    try:
        for case in cases:
            ncopies = ct.copies_for(case, l2_bytes, opts.calls, opts.warmup)
            t = ct.Case(torch, lib, ctx, case, ncopies, device)
            calls = {"rt": t.rt_call}
            f = ct.torch_fn(torch, case)
            if f is not None:
                views = t.views
                calls["eager"] = lambda k, f=f, v=views: f(v[k])
                if not opts.no_compile:
                    torch._dynamo.reset()
                    cf = torch.compile(f, dynamic=False)
                    cf(t.views[0])
                    calls["compile"] = lambda k, cf=cf, v=views: cf(v[k])
            if opts.no_profile:
                if "rt2" in opts.order.split(","):
                    calls["rt2"] = t.rt_call
                names = [n for n in opts.order.split(",") if n in calls]
                names += [n for n in calls if n not in names]
                each = {s: [] for s in names}
                loop = {s: [] for s in names}
                windows = []
                for p in range(opts.passes):
                    k = p % len(names)
                    if opts.rewrite:
                        for v in t.views:
                            if v.dtype.is_floating_point:
                                v.uniform_(0.5, 1.5)
                        torch.cuda.synchronize()
                    if opts.idle > 0:
                        torch.cuda.synchronize()
                        time.sleep(opts.idle)
                    for name in names[k:] + names[:k]:
                        t0 = time.time()
                        each[name].append(ct.median_of_events(torch, calls[name], ncopies,
                                                              opts.calls, opts.warmup))
                        loop[name].append(loop_us(torch, calls[name], ncopies, opts.calls,
                                                  opts.warmup))
                        windows.append((name, p + 1, each[name][-1], loop[name][-1], t0,
                                        time.time()))
                if smi is not None:
                    time.sleep(0.2)  # the last samples through the pipe
                    for name, p, e, lp, t0, t1 in windows:
                        print("  %-28s %-8s pass %d: each %8.2f loop %8.2f  %s" % (
                            case["name"], name, p, e, lp, smi.window(t0, t1)))
                for name in names:
                    e, l = min(each[name]), min(loop[name])
                    print("%-30s %-8s each %9.2f loop %9.2f each-loop %6.2f  (each %s; loop %s)" % (
                        case["name"], name, e, l, e - l,
                        " ".join("%.2f" % x for x in each[name]),
                        " ".join("%.2f" % x for x in loop[name])))
                sys.stdout.flush()
                del t
                torch.cuda.empty_cache()
                continue
            for name, call in calls.items():
                ev, ks = profile_series(torch, call, ncopies, opts.calls, opts.warmup, True)
                busy, _, names, launches = per_call(ks, opts.calls)
                _, ks2 = profile_series(torch, call, ncopies, opts.calls, opts.warmup, False)
                busy2, gap2, _, _ = per_call(ks2, opts.calls)
                print("%-30s %-8s %10s %10s %9s %10s  %s" % (
                    case["name"], name, ct.fmt(ev), ct.fmt(busy), ct.fmt(gap2), ct.fmt(busy2),
                    ",".join(n[:48] for n in names)))
                for n, l in zip(names, launches):
                    print("%-30s %-8s   %s: %s" % ("", "", n[:40], l))
                sys.stdout.flush()
            del t
            torch.cuda.empty_cache()
    finally:
        torch.cuda.synchronize()
        lib.destroy(ctx)
        if smi is not None:
            smi.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
