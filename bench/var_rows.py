"""var and std over dim 1 of packed rows through one reduce_tensor build.

Times reduce_tensor (ctypes, rt_ctypes.py) on var and std of [rows, L]
tensors over dim 1 for several dtypes and row lengths (the ROWS block
kernel's rows: two passes, wide blocks, Welford's folds), each an event pair
a call, the median of --reps calls after 10 warm-up calls, fresh torch.rand
data per case; and checks each result against torch in float64 (the largest
relative error is printed, not judged). For an A/B of builds run it once a
build, in separate processes (two copies of one soname do not load side by
side), alternating: bench/NOTES.md v1.30 run 2. --eager times PyTorch
eager on the same tensors after each reduce_tensor series.

    python3 bench/var_rows.py --lib build/libreduce_tensor.so --tag new
    python3 bench/var_rows.py --lib build/libreduce_tensor.so --ops var,sum \
        --shapes f32:32768x3000,f64:33554x1000
"""
import argparse
import ctypes
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rt_ctypes as rt  # noqa: E402

SHAPES = [("f32", 32768, 4096), ("f32", 65536, 2048), ("bf16", 32768, 4096),
          ("bf16", 65536, 2048), ("f16", 32768, 4096), ("f64", 16384, 4096)]


def time_calls(torch, call, reps):
    """Median of reps calls, an event pair each, after 10 warm-up calls."""
    for _ in range(10):
        call()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2 * reps)]
    for i in range(reps):
        ev[2 * i].record()
        call()
        ev[2 * i + 1].record()
    torch.cuda.synchronize()
    return statistics.median(ev[2 * i].elapsed_time(ev[2 * i + 1]) * 1000 for i in range(reps))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", required=True, help="libreduce_tensor.so to load")
    p.add_argument("--tag", default="rt", help="first column of every line")
    p.add_argument("--reps", type=int, default=200, help="timed calls a case")
    p.add_argument("--shapes", default="",
                   help="comma list of DTYPE:ROWSxL (default: the six of v1.30 run 2)")
    p.add_argument("--ops", default="var,std",
                   help="comma list of ops over dim 1 (var, std, sum, mean, ...)")
    p.add_argument("--eager", action="store_true",
                   help="also time PyTorch eager on the same tensors (tag 'eager')")
    opts = p.parse_args()
    shapes = SHAPES
    if opts.shapes:
        shapes = []
        for item in opts.shapes.split(","):
            dt, dims = item.split(":")
            rows, length = dims.split("x")
            shapes.append((dt, int(rows), int(length)))
    import torch

    lib = rt.Lib(opts.lib)
    ctx = lib.context(rt.DEVICE_CUDA, 0)
    tdt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16,
           "f64": torch.float64}
    for dt, rows, length in shapes:
        for op in opts.ops.split(","):
            wide = torch.float64 if dt == "f64" else torch.float32
            x = (torch.rand(rows, length, device="cuda", dtype=wide) * 4 + 7).to(tdt[dt])
            out = torch.empty(rows, dtype=tdt[dt], device="cuda")
            tin = rt.make_tensor(x.data_ptr(), dt, [rows, length], [length, 1])
            tout = rt.make_tensor(out.data_ptr(), dt, [rows], [1])
            args = lib.make_args(op, tin, [1], False, tout, correction=1.0)
            ref = ctypes.byref(args)

            def call():
                lib.check(lib.reduce_ex(ctx, ref), op)
            call()
            torch.cuda.synchronize()
            want = getattr(torch, op)(x.double(), dim=1)
            err = float(((out.double() - want).abs() / want.abs()).max())
            series = [(opts.tag, call, out)]
            if opts.eager:
                fn = getattr(torch, op)
                eout = torch.empty_like(out)
                series.append(("eager", lambda x=x, e=eout: fn(x, dim=1, out=e), eout))
            for tag, fn_call, res in series:
                if res is not out:
                    fn_call()
                    torch.cuda.synchronize()
                    err = float(((res.double() - want).abs() / want.abs()).max())
                us = time_calls(torch, fn_call, opts.reps)
                print("%-9s %-5s %-4s [%d,%d] %8.2f us  max rel err %.2e"
                      % (tag, dt, op, rows, length, us, err))
            del x, out
    lib.destroy(ctx)


if __name__ == "__main__":
    main()
