#!/usr/bin/env python3
"""reduce_tensor against PyTorch eager and torch.compile, on the same tensors.

Loads the built library through ctypes (bench/rt_ctypes.py) and, for every
case of rt_bench's suite, builds the input in PyTorch (the same shape,
strides, storage offset and dtype), calls reduce_tensor on its data_ptr()
on torch's current stream, checks the result against torch's once, then
times reduce_tensor, torch eager and torch.compile (Inductor) with
torch.cuda.Event: warm-up, median of --reps, rotating over input copies
that together exceed 4x the L2. Each series (reduce_tensor, eager,
torch.compile) is timed in --passes passes whose order rotates, so that
each takes every place once in three passes (the first after the case's
set-up, when the GPU has been idle through a compile, and the last); a
series' time is the median of its passes, and the table's spread% is the
widest (max - min) / median of rt's and the best peer's passes. A series
whose calls keep the host busy for at least 0.9 of their time between
events is marked "host-bound" in the row's notes (the GPU may have waited
for the host inside the events; JSON: host_bound, <series>_host_us). The
host time is measured while the calls are queued, so it reads true only
while the launch queue has room: at the default --reps it has. --spin-us
times every series again with a GPU spin queued ahead of each event pair,
so that the call is queued before the GPU reaches it: the kernels' time
where the host is slower than they are. Prints a table and writes JSON
(--json).

The suite has one definition, the table in bench/suite.c: this script reads
it from `rt_bench --list-json` (--bench-bin, or build*/bench/rt_bench when
found), or from an rt_bench results file (--bench-json), which also brings
the per-case read ceiling and the CUB time, so the table can show % of the
ceiling and the ratio to the best of eager, compile and CUB. The ratio to
CUB is rt_bench's own, reduce_tensor and CUB both timed from C: through
Python a launch-bound call pays a few microseconds that CUB's would not.

--cpu-smoke needs neither torch nor a GPU: it checks the ctypes layer on a
CPU context (bench/cpu_smoke.py).
"""
import argparse
import ctypes
import glob
import json
import math
import os
import statistics
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import rt_ctypes as rt  # noqa: E402

# Same tolerances as bench/check.c: a few output ulps for 16-bit results.
RTOL = {"f64": 1e-9, "f32": 1e-4, "f16": 2e-3, "bf16": 8e-3}
TORCH_DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16",
                "i8": "int8", "u8": "uint8", "i16": "int16", "i32": "int32",
                "i64": "int64", "bool": "bool"}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", help="libreduce_tensor.so (default: newest build*/libreduce_tensor.so)")
    p.add_argument("--bench-bin", help="rt_bench binary to read the suite from (--list-json)")
    p.add_argument("--bench-json", help="rt_bench --json results: suite, ceilings and CUB times")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--filter", default="",
                   help="only cases whose name contains this (comma-separated: any of them)")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--dump-code", metavar="DIR",
                   help="write the code torch.compile generates for each case to DIR/<case>.py")
    p.add_argument("--flush-l2", action="store_true",
                   help="also time every call after an L2 flush (a 2x L2 read of other bytes "
                        "outside the events): *_flush_us columns in the JSON, printed under "
                        "the row")
    p.add_argument("--spin-us", type=float, default=0.0, metavar="US",
                   help="also time every call queued behind a GPU spin of US microseconds "
                        "(torch.cuda._sleep, outside its events), so that a call whose host "
                        "side outruns its kernel is queued before its start event fires: "
                        "*_queued_us columns in the JSON, printed under the row. US must "
                        "exceed the host time a call of every series (a row notes where it "
                        "did not)")
    p.add_argument("--no-autotune-cache", action="store_true",
                   help="keep none of Inductor's autotuning choices on disk (for processes "
                        "that compile beside others: configs timed on a busy GPU would be "
                        "kept and reused by a later timed run)")
    p.add_argument("--reps", type=int, default=100, help="timed calls per measurement")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls before them")
    p.add_argument("--passes", type=int, default=3,
                   help="passes over the series in rotating order; each series' time is the "
                        "median of its passes (default 3)")
    p.add_argument("--host-calls", type=int, default=10000, help="calls per host-overhead batch")
    p.add_argument("--policy", choices=["tuned", "compat"], help="reduce_tensor launch policy")
    p.add_argument("--ab-kinds-off", type=lambda v: int(v, 0), metavar="MASK",
                   help="also time reduce_tensor with these TUNED rules off (a bit mask of "
                        "src/config/config.h's RT__RULE_OFF_*, e.g. 0x20000000 for row-exact) "
                        "on a second context, as series rt_ab in the same passes: an A/B in "
                        "one process, printed under the row")
    p.add_argument("--device", type=int, default=0, help="CUDA device index")
    p.add_argument("--cpu-smoke", action="store_true",
                   help="check the ctypes layer on a CPU context and exit (no torch needed)")
    return p.parse_args(argv)


def load_suite(args):
    """(cases, rt_bench results document or None)."""
    if args.bench_json:
        with open(args.bench_json) as f:
            doc = json.load(f)
        return doc["cases"], doc
    exe = args.bench_bin
    if exe is None:
        found = glob.glob(os.path.join(ROOT, "build*", "bench", "rt_bench"))
        exe = max(found, key=os.path.getmtime) if found else None
    if exe is None:
        sys.exit("compare_torch: no suite: pass --bench-bin build/bench/rt_bench "
                 "or --bench-json results.json")
    out = subprocess.run([exe, "--list-json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["cases"], None


def median_of_events(torch, call, ncopies, reps, warmup, before=None, host_us=None):
    """Median microseconds of call(k) between two events; k walks the copies
    across warm-up and timing, as rt_bench's slots do. before(), when given,
    runs ahead of each timed call, outside its events (--flush-l2,
    --spin-us). host_us, when a list, gets the host's microseconds a call
    to queue the timed calls (their events and before() included),
    measured before the sync."""
    for k in range(warmup):
        call(k % ncopies)
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    t0 = time.perf_counter()
    for r in range(reps):
        if before is not None:
            before()
        starts[r].record()
        call((warmup + r) % ncopies)
        ends[r].record()
    queued = time.perf_counter() - t0
    torch.cuda.synchronize()
    if host_us is not None:
        host_us.append(1e6 * queued / reps)
    return statistics.median(1000.0 * s.elapsed_time(e) for s, e in zip(starts, ends))


# A series whose calls take the host at least this fraction of the time
# between their events is marked host-bound: the GPU may have waited for
# the host inside the events, so the time is the host's, not the kernel's
# (torch.compile's call on some hosts: 90-127 us, v1.55).
HOST_BOUND_FRACTION = 0.9


def host_bound_series(row, names, column="", spin_us=0.0):
    """The series of names whose host time a call (row[s + column +
    "_host_us"]) is at least HOST_BOUND_FRACTION of the GPU's time a call:
    their time between events (row[s + column + "_us"]) plus the spin
    queued ahead of each call, if any. column "" is the back-to-back
    timing; "_queued" with spin_us the one behind spins (--spin-us), where
    a series so marked had a spin too short for the queue to stay ahead."""
    return [s for s in names
            if row.get(s + column + "_host_us") and row.get(s + column + "_us")
            and row[s + column + "_host_us"]
            >= HOST_BOUND_FRACTION * (spin_us + row[s + column + "_us"])]


def spin_cycles_per_us(torch):
    """The GPU clock's cycles a microsecond as torch.cuda._sleep counts them:
    the median of five spins of 10^6 cycles between events, each queued
    behind an untimed one (so that no launch gap is timed with it)."""
    cycles = 1000000
    us = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(cycles)
        start.record()
        torch.cuda._sleep(cycles)
        end.record()
        torch.cuda.synchronize()
        us.append(1000.0 * start.elapsed_time(end))
    return cycles / statistics.median(us)


def host_rate(torch, call, n):
    """Microseconds per call of n back-to-back calls and one sync, median of 5."""
    per = []
    for _ in range(5):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            call(0)
        torch.cuda.synchronize()
        per.append((time.perf_counter() - t0) / n)
    return 1e6 * statistics.median(per)


def torch_fn(torch, case):
    """The PyTorch expression for a case, or None when torch has none."""
    op, kd, nd = case["op"], case["keepdim"], len(case["shape"])
    red = tuple(sorted(d % nd for d in case["dims"])) if case["dims"] else tuple(range(nd))
    if op in ("sum", "mean"):
        f = getattr(torch, op)
        return lambda x: f(x, dim=red, keepdim=kd)
    if op in ("max", "min"):
        f = torch.amax if op == "max" else torch.amin
        return lambda x: f(x, dim=red, keepdim=kd)
    if op in ("var", "std"):
        f, c = getattr(torch, op), case["correction"]
        return lambda x: f(x, dim=red, correction=c, keepdim=kd)
    if op == "norm":
        return lambda x: torch.linalg.vector_norm(x, ord=case["p"], dim=red, keepdim=kd)
    if op in ("any", "all"):
        f = getattr(torch, op)
        def seq(x):  # one dim at a time: tuple dims need torch >= 2.2
            for d in reversed(red):
                x = f(x, dim=d, keepdim=kd)
            return x
        return seq
    if op in ("prod", "argmax", "argmin"):
        f = getattr(torch, op)
        if len(red) == 1:
            return lambda x: f(x, dim=red[0], keepdim=kd)
        if len(red) == nd and not kd:
            return lambda x: f(x)  # flat, row-major: our index convention
    return None


def matches(torch, got, want, dtype):
    """(ok, worst error in units of the tolerance)."""
    if tuple(got.shape) != tuple(want.shape):
        return False, math.inf
    if dtype in RTOL:
        g, w = got.double(), want.double()
        both_nan = torch.isnan(g) & torch.isnan(w)
        err = ((g - w).abs() / (RTOL[dtype] * w.abs() + 1e-30)).masked_fill(both_nan, 0.0)
        worst = float(err.nan_to_num(math.inf).max()) if err.numel() else 0.0
        return worst <= 1.0, worst
    ok = torch.equal(got, want.to(got.dtype))
    return ok, 0.0 if ok else math.inf


class Case:
    """One case's tensors in PyTorch: input copies (separate storages with
    identical layout, so torch.compile sees one signature), outputs, and the
    reduce_tensor arguments bound to them."""

    def __init__(self, torch, lib, ctx, case, ncopies, device):
        self.case = case
        dt = getattr(torch, TORCH_DTYPES[case["dtype"]])
        n = case["storage"]
        gen = torch.Generator(device=device).manual_seed(zlib.crc32(case["name"].encode()))
        if case["fill"] == "sparse":  # about one element in 2^14 nonzero, as rt_bench
            first = (torch.rand(n, device=device, generator=gen) < 2.0 ** -14).to(dt)
        elif dt.is_floating_point:  # [0.5, 1.5): never zero
            wide = torch.float64 if dt == torch.float64 else torch.float32
            first = (torch.rand(n, device=device, generator=gen, dtype=wide) + 0.5).to(dt)
        elif dt == torch.bool:
            first = torch.ones(n, dtype=dt, device=device)
        else:
            first = torch.randint(1, 101, (n,), device=device, generator=gen, dtype=dt)
        storages = [first] + [first.clone() for _ in range(ncopies - 1)]
        self.views = [s.as_strided(case["shape"], case["strides"], case["offset"])
                      for s in storages]
        out_dt = getattr(torch, TORCH_DTYPES[case["out_dtype"]])
        self.outs = [torch.empty(case["out_shape"], dtype=out_dt, device=device)
                     for _ in range(ncopies)]
        self.rt_call = self.rt_call_for(lib, ctx)

    def rt_call_for(self, lib, ctx):
        """call(k): reduce_tensor of copy k into output k through lib on ctx
        (another build of the library may time the same tensors)."""
        case = self.case
        args = []
        for v, o in zip(self.views, self.outs):
            tin = rt.make_tensor(v.data_ptr(), case["dtype"], list(v.shape), list(v.stride()))
            tout = rt.make_tensor(o.data_ptr(), case["out_dtype"], list(o.shape), list(o.stride()))
            args.append(lib.make_args(case["op"], tin, case["dims"], case["keepdim"], tout,
                                      correction=case["correction"], p=case["p"]))
        refs = [ctypes.byref(a) for a in args]
        fn, name = lib.reduce_ex, case["name"]

        def rt_call(k):
            s = fn(ctx, refs[k])
            if s != rt.RT_OK:
                raise rt.RtError(lib, s, name)
        rt_call.args = args  # keeps the argument structures alive with the call
        return rt_call


def copies_for(case, l2_bytes, reps, warmup):
    """Input copies to rotate through: enough that 4x L2 passes between two
    uses of one copy, but never more than the calls that use them."""
    elem = rt.DTYPE_SIZE[case["dtype"]]
    slot = case["storage"] * elem + case["write_bytes"]
    if slot >= 4 * l2_bytes:
        return 1
    return max(1, min(-(-4 * l2_bytes // slot), reps + warmup))


def run_case(torch, lib, ctx, case, opts, l2_bytes, device, ab_ctx=None):
    """Times one case (and, with ab_ctx, reduce_tensor on that context as
    series rt_ab); returns its result row (dict)."""
    row = {"name": case["name"], "group": case["group"], "kind": case["kind"],
           "bytes": case["read_bytes"] + case["write_bytes"],
           "rt_us": None, "eager_us": None, "compile_us": None, "notes": []}
    host = case["kind"] == "host_overhead"
    ncopies = 1 if host else copies_for(case, l2_bytes, opts.reps, opts.warmup)
    t = Case(torch, lib, ctx, case, ncopies, device)
    flush = torch.empty(2 * l2_bytes // 4 + 1, dtype=torch.float32, device=device)
    flush_sum = torch.empty((), dtype=torch.float32, device=device)

    def read_flush():
        # A read leaves clean lines in L2; a memset's dirty ones would be
        # written back during the timed call, at its expense.
        torch.sum(flush, dim=0, out=flush_sum)

    def spin():
        torch.cuda._sleep(opts.spin_cycles)

    def measure(call, host_us, queued_host_us):
        """(time, {extra: time}) of one series in one pass; the extras are
        "flush" (--flush-l2) and "queued" (--spin-us)."""
        flush.zero_()  # whatever the fill left in L2 is gone before the first call
        if host:
            return host_rate(torch, call, opts.host_calls), {}
        extra = {}
        if opts.flush_l2:
            extra["flush"] = median_of_events(torch, call, ncopies, opts.reps, opts.warmup,
                                              read_flush)
        us = median_of_events(torch, call, ncopies, opts.reps, opts.warmup, host_us=host_us)
        if opts.spin_cycles:
            extra["queued"] = median_of_events(torch, call, ncopies, opts.reps, opts.warmup,
                                               spin, host_us=queued_host_us)
        return us, extra

    calls = {"rt": t.rt_call}
    t.rt_call(0)
    if ab_ctx is not None:
        calls["rt_ab"] = t.rt_call_for(lib, ab_ctx)
    f = torch_fn(torch, case)
    if f is None:
        row["notes"].append("no torch expression for this case")
        row["check"] = "no-reference"
    else:
        want = f(t.views[0])
        ok, worst = matches(torch, t.outs[0], want, case["out_dtype"])
        if ok and ab_ctx is not None:
            calls["rt_ab"](0)
            ok, worst_ab = matches(torch, t.outs[0], want, case["out_dtype"])
            worst = max(worst, worst_ab)
        row["check"], row["max_err"] = ("ok" if ok else "MISMATCH"), worst
        calls["eager"] = lambda k: f(t.views[k])
    if f is not None and not opts.no_compile:
        try:
            torch._dynamo.reset()  # a fresh cache per case: no recompile limit, no fallback
            cf = torch.compile(f, dynamic=False)
            if opts.dump_code:
                from torch._inductor.utils import run_and_get_code
                got, codes = run_and_get_code(cf, t.views[0])
                os.makedirs(opts.dump_code, exist_ok=True)
                with open(os.path.join(opts.dump_code, case["name"] + ".py"), "w") as out:
                    out.write("\n\n# ---- next module ----\n\n".join(codes))
            else:
                got = cf(t.views[0])
            ok, _ = matches(torch, got, f(t.views[0]), case["out_dtype"])
            if not ok:
                row["notes"].append("torch.compile result differs from eager")
            calls["compile"] = lambda k: cf(t.views[k])
        except Exception as e:  # Inductor unavailable or failing: report, go on
            row["notes"].append("torch.compile failed: %s" % str(e).splitlines()[0][:120])
    # Every series in every pass, the order rotated a place a pass.
    names = list(calls)
    passes = {s: [] for s in names}
    extras = {s: {"flush": [], "queued": []} for s in names}
    host_us = {s: [] for s in names}
    queued_host_us = {s: [] for s in names}
    for p in range(max(1, opts.passes)):
        k = p % len(names)
        for s in names[k:] + names[:k]:
            us, extra = measure(calls[s], host_us[s], queued_host_us[s])
            passes[s].append(us)
            for e, v in extra.items():
                extras[s][e].append(v)
    for s in names:
        row[s + "_us"] = statistics.median(passes[s])
        row[s + "_passes_us"] = passes[s]
        for e, v in extras[s].items():
            if v:
                row["%s_%s_us" % (s, e)] = statistics.median(v)
        if host_us[s]:
            row[s + "_host_us"] = statistics.median(host_us[s])
        if queued_host_us[s]:
            row[s + "_queued_host_us"] = statistics.median(queued_host_us[s])
    bound = host_bound_series(row, names)
    if bound:
        row["host_bound"] = bound
        row["notes"].append("host-bound: " + ", ".join(
            "%s (host %.1f us a call)" % (s, row[s + "_host_us"]) for s in bound))
    short = host_bound_series(row, names, "_queued", opts.spin_us)
    if short:
        row["spin_short"] = short
        row["notes"].append("spin too short for: " + ", ".join(
            "%s (host %.1f us a call while queued)" % (s, row[s + "_queued_host_us"])
            for s in short))
    if host:
        row["calls_per_s"] = {k[:-3]: 1e6 / row[k] for k in ("rt_us", "eager_us", "compile_us")
                              if row[k]}
    return row


def add_peers(row, case):
    """Best peer (eager, compile, CUB from rt_bench), ratio and % of ceiling.

    Each ratio is taken within one harness: reduce_tensor's time here over
    eager's and torch.compile's (both timed here, through Python), and
    rt_bench's reduce_tensor time over its CUB time (both timed from C). A
    launch-bound case costs several microseconds more a call through Python
    than from C, so this script's rt_us over rt_bench's cub_us would charge
    reduce_tensor with Python's overhead and not CUB. The best peer is the
    one with the highest ratio; rt_c_us is rt_bench's time.
    """
    ours = {"eager": row["rt_us"], "compile": row["rt_us"]}
    peers = {"eager": row["eager_us"], "compile": row["compile_us"]}
    if case.get("cub_us") and case.get("time_us"):
        peers["cub"], ours["cub"] = case["cub_us"], case["time_us"]
        row["rt_c_us"] = case["time_us"]
    peers = {k: v for k, v in peers.items() if v}
    row["cub_us"] = peers.get("cub")
    if peers and row["rt_us"]:
        best = max(peers, key=lambda k: ours[k] / peers[k])
        row["best_peer"], row["best_peer_us"] = best, peers[best]
        row["ratio_rt_to_best"] = ours[best] / peers[best]
        spreads = [(max(v) - min(v)) / statistics.median(v)
                   for v in (row.get("rt_passes_us"), row.get(best + "_passes_us")) if v]
        if spreads:
            row["spread_pct"] = 100.0 * max(spreads)
    ceiling = case.get("ceiling_gbps")
    if ceiling and row["kind"] == "reduce":
        row["ceiling_gbps"] = ceiling
        row["pct_ceiling"] = {k: 100.0 * row["bytes"] / (us * 1e3) / ceiling
                              for k, us in dict(peers, rt=row["rt_us"]).items() if us}


def fmt(x, spec="%.2f"):
    return spec % x if x is not None else "-"


def print_row(row):
    if "error" in row:
        print("%-32s error: %s" % (row["name"], row["error"]))
        return
    pct = row.get("pct_ceiling", {}).get("rt")
    print("%-32s %9s %9s %10s %9s %-8s %7s %6s %7s  %s%s" % (
        row["name"], fmt(row["rt_us"]), fmt(row["eager_us"]), fmt(row["compile_us"]),
        fmt(row.get("cub_us")), row.get("best_peer", "-"), fmt(row.get("ratio_rt_to_best"), "%.3f"),
        fmt(pct, "%.1f"), fmt(row.get("spread_pct")), row.get("check", "-"),
        "".join("; " + n for n in row["notes"]) +
        ("; rt from C, against CUB: %.2f us" % row["rt_c_us"] if row.get("best_peer") == "cub" else "")))
    if "rt_ab_us" in row:
        print("%-32s %9s  rt/rt_ab %.4f  (rt %s; rt_ab %s)" % (
            "  (rules off: rt_ab)", fmt(row["rt_ab_us"]), row["rt_us"] / row["rt_ab_us"],
            " ".join("%.2f" % x for x in row["rt_passes_us"]),
            " ".join("%.2f" % x for x in row["rt_ab_passes_us"])))
    if "rt_flush_us" in row:
        print("%-32s %9s %9s %10s" % ("  (after an L2 flush)", fmt(row.get("rt_flush_us")),
                                      fmt(row.get("eager_flush_us")),
                                      fmt(row.get("compile_flush_us"))))
    if "rt_queued_us" in row:
        q = {s: row[s + "_queued_us"] for s in ("eager", "compile") if row.get(s + "_queued_us")}
        best = min(q, key=q.get) if q else None
        print("%-32s %9s %9s %10s%s%s" % (
            "  (queued behind a spin)", fmt(row["rt_queued_us"]), fmt(row.get("eager_queued_us")),
            fmt(row.get("compile_queued_us")),
            "  rt/%s %.3f" % (best, row["rt_queued_us"] / q[best]) if best else "",
            "  rt/rt_ab %.4f" % (row["rt_queued_us"] / row["rt_ab_queued_us"])
            if row.get("rt_ab_queued_us") else ""))


def main(argv):
    opts = parse_args(argv)
    lib_path = opts.lib or rt.find_library(ROOT)
    if lib_path is None:
        sys.exit("compare_torch: no build*/libreduce_tensor.so found: build it or pass --lib")
    lib = rt.Lib(lib_path)
    if opts.cpu_smoke:
        import cpu_smoke
        return 1 if cpu_smoke.run(lib) else 0

    import torch
    if opts.no_autotune_cache:
        import torch._inductor.config
        torch._inductor.config.autotune_local_cache = False
    cases, bench = load_suite(opts)
    wanted = opts.filter.split(",")
    cases = [c for c in cases if any(w in c["name"] for w in wanted)]
    device = torch.device("cuda", opts.device)
    torch.cuda.set_device(device)
    props = torch.cuda.get_device_properties(device)
    l2_bytes = getattr(props, "L2_cache_size", 0) or \
        (bench["device"]["l2_bytes"] if bench else 60 << 20)
    if bench and bench["device"]["name"] != props.name:
        print("warning: rt_bench ran on %s, this is %s: its ceilings and CUB times do not "
              "apply" % (bench["device"]["name"], props.name))
    stream = torch.cuda.current_stream(device).cuda_stream
    try:
        ctx = lib.context(rt.DEVICE_CUDA, opts.device, ctypes.c_void_p(stream), opts.policy)
    except rt.RtError as e:
        sys.exit("compare_torch: %s\n(is %s a CUDA build? pass --lib build-xxx/libreduce_tensor.so)"
                 % (e, lib_path))
    ab_ctx = None
    if opts.ab_kinds_off is not None:
        ab_ctx = lib.context(rt.DEVICE_CUDA, opts.device, ctypes.c_void_p(stream), opts.policy)
        lib.set_kinds_off(ab_ctx, opts.ab_kinds_off)
    opts.spin_cycles = 0
    if opts.spin_us > 0:
        opts.spin_cycles = int(opts.spin_us * spin_cycles_per_us(torch))
    print("torch %s on %s, library %s, median of %d, %d passes, policy %s%s%s" % (
        torch.__version__, props.name, lib_path, opts.reps, opts.passes, opts.policy or "tuned",
        "" if ab_ctx is None else ", rt_ab: kinds off 0x%x" % opts.ab_kinds_off,
        "" if not opts.spin_cycles else ", queued: %.0f us spins (%d cycles)" % (
            opts.spin_us, opts.spin_cycles)))
    print("%-32s %9s %9s %10s %9s %-8s %7s %6s %7s  %s" % (
        "case", "rt_us", "eager_us", "compile_us", "cub_us", "best", "rt/best", "%ceil",
        "spread%", "check"))
    rows, failed = [], 0
    try:
        for case in cases:
            try:
                row = run_case(torch, lib, ctx, case, opts, l2_bytes, device, ab_ctx)
                add_peers(row, case)
            except Exception as e:  # one failing case must not lose the others
                row = {"name": case["name"], "group": case["group"], "error": str(e)}
            failed += "error" in row or row.get("check") == "MISMATCH"
            rows.append(row)
            print_row(row)
            sys.stdout.flush()
            torch.cuda.empty_cache()
    finally:
        torch.cuda.synchronize()
        lib.destroy(ctx)
        if ab_ctx is not None:
            lib.destroy(ab_ctx)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"tool": "compare_torch", "torch": torch.__version__, "device": props.name,
                       "library": lib_path, "reps": opts.reps, "passes": opts.passes,
                       "policy": opts.policy or "tuned", "bench_json": opts.bench_json,
                       "spin_us": opts.spin_us, "spin_cycles": opts.spin_cycles,
                       "cases": rows}, f, indent=1)
    print("%d cases, %d failed" % (len(rows), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
