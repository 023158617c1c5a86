"""compare_torch.py --cpu-smoke: the ctypes layer against a CPU context.

Runs a few reductions through rt_ctypes on host arrays (the standard
library's array module: no numpy, no torch) and compares them with values
computed here in Python. Each check exercises a different part of the
binding: strides, keepdim, correction, p, indices, integer widening, bool
output, a view with an offset, and an error status coming back.
"""
import array
import ctypes
import math
import statistics

import rt_ctypes as rt


def _ptr(arr, offset=0):
    return arr.buffer_info()[0] + offset * arr.itemsize


def _run(lib, ctx, op, inp, dims, keepdim, out, **kw):
    args = lib.make_args(op, inp, dims, keepdim, out, **kw)
    return lib.reduce_ex(ctx, ctypes.byref(args))


def _close(got, want, rel=1e-6):
    return all(abs(g - w) <= rel * max(1.0, abs(w)) for g, w in zip(got, want))


def check_transposed_sum(lib, ctx):
    base = array.array("f", [float(i % 7) - 2.5 for i in range(15)])  # [3,5]
    out = array.array("f", [math.nan] * 5)
    inp = rt.make_tensor(_ptr(base), "f32", [5, 3], [1, 5])  # base.t()
    s = _run(lib, ctx, "sum", inp, [1], False, rt.make_tensor(_ptr(out), "f32", [5], [1]))
    want = [sum(base[r * 5 + j] for r in range(3)) for j in range(5)]
    return s == rt.RT_OK and _close(out, want), (s, list(out), want)


def check_mean_keepdim(lib, ctx):
    base = array.array("d", [1.0 + i * 0.25 for i in range(24)])  # [4,6]
    inp = rt.make_tensor(_ptr(base), "f64", [4, 6], [6, 1])
    shape = lib.reduce_shape(inp, [0], True)
    out = array.array("d", [math.nan] * 6)
    s = _run(lib, ctx, "mean", inp, [0], True, rt.make_tensor(_ptr(out), "f64", [1, 6], [6, 1]))
    want = [sum(base[r * 6 + j] for r in range(4)) / 4 for j in range(6)]
    return s == rt.RT_OK and shape == [1, 6] and _close(out, want, 1e-12), (s, shape, list(out))


def check_var_correction(lib, ctx):
    rows = [[0.5, 1.0, 4.0, -2.0, 3.0, 7.5, 1.25], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 9.0]]
    base = array.array("f", rows[0] + rows[1])
    inp = rt.make_tensor(_ptr(base), "f32", [2, 7], [7, 1])
    var0 = array.array("f", [math.nan] * 2)
    std1 = array.array("f", [math.nan] * 2)
    s0 = _run(lib, ctx, "var", inp, [-1], False, rt.make_tensor(_ptr(var0), "f32", [2], [1]),
              correction=0.0)
    s1 = _run(lib, ctx, "std", inp, [1], False, rt.make_tensor(_ptr(std1), "f32", [2], [1]))
    want0 = [statistics.pvariance(r) for r in rows]
    want1 = [statistics.stdev(r) for r in rows]
    ok = s0 == s1 == rt.RT_OK and _close(var0, want0, 1e-5) and _close(std1, want1, 1e-5)
    return ok, (s0, s1, list(var0), want0, list(std1), want1)


def check_norm_p3(lib, ctx):
    vals = [0.5, -1.5, 2.0, -3.0, 0.25, 1.0]
    base = array.array("d", vals)
    out = array.array("d", [math.nan])
    inp = rt.make_tensor(_ptr(base), "f64", [2, 3], [3, 1])
    s = _run(lib, ctx, "norm", inp, [], False, rt.make_tensor(_ptr(out), "f64", [], []), p=3.0)
    want = sum(abs(v) ** 3 for v in vals) ** (1.0 / 3.0)
    return s == rt.RT_OK and _close(out, [want], 1e-12), (s, out[0], want)


def check_argmax_nan_ties(lib, ctx):
    nan = math.nan
    base = array.array("f", [1, 5, 5, 2, nan, 3, nan, 1, -1, -2, -3, 9])  # [3,4]
    out = array.array("q", [-7] * 3)
    inp = rt.make_tensor(_ptr(base), "f32", [3, 4], [4, 1])
    s = _run(lib, ctx, "argmax", inp, [1], False, rt.make_tensor(_ptr(out), "i64", [3], [1]))
    return s == rt.RT_OK and list(out) == [1, 0, 3], (s, list(out))


def check_max_indices(lib, ctx):
    base = array.array("f", [3, 9, 9, -4, -8, -6])  # [2,3]
    vals = array.array("f", [math.nan] * 2)
    idx = array.array("q", [-7] * 2)
    inp = rt.make_tensor(_ptr(base), "f32", [2, 3], [3, 1])
    s = _run(lib, ctx, "max", inp, [1], False, rt.make_tensor(_ptr(vals), "f32", [2], [1]),
             indices=rt.make_tensor(_ptr(idx), "i64", [2], [1]))
    return s == rt.RT_OK and list(vals) == [9, -4] and list(idx) == [1, 0], \
        (s, list(vals), list(idx))


def check_int_widening(lib, ctx):
    base = array.array("i", [2**31 - 1, 2**31 - 1, -5, 7])  # [2,2]
    out = array.array("q", [0] * 2)
    inp = rt.make_tensor(_ptr(base), "i32", [2, 2], [2, 1])
    s = _run(lib, ctx, "sum", inp, [1], False, rt.make_tensor(_ptr(out), "i64", [2], [1]))
    return s == rt.RT_OK and list(out) == [2**32 - 2, 2], (s, list(out))


def check_any_bool(lib, ctx):
    base = array.array("B", [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0])  # [3,4]
    out = array.array("B", [7] * 4)
    inp = rt.make_tensor(_ptr(base), "bool", [3, 4], [4, 1])
    s = _run(lib, ctx, "any", inp, [0], False, rt.make_tensor(_ptr(out), "bool", [4], [1]))
    return s == rt.RT_OK and list(out) == [0, 1, 1, 0], (s, list(out))


def check_offset_view_prod(lib, ctx):
    base = array.array("d", [100.0, 1.5, 2.0, -1.0, 99.0, 0.5, 4.0, 3.0, 98.0])  # [2,4] + 1
    out = array.array("d", [math.nan])
    inp = rt.make_tensor(_ptr(base, 1), "f64", [2, 3], [4, 1])  # x.view(2,4)[:, :3] at +1
    s = _run(lib, ctx, "prod", inp, [0, 1], False, rt.make_tensor(_ptr(out), "f64", [], []))
    want = 1.5 * 2.0 * -1.0 * 0.5 * 4.0 * 3.0
    return s == rt.RT_OK and _close(out, [want], 1e-12), (s, out[0], want)


def check_error_status(lib, ctx):
    base = array.array("f", [1.0] * 4)
    out = array.array("i", [0])
    inp = rt.make_tensor(_ptr(base), "f32", [4], [1])
    s = _run(lib, ctx, "sum", inp, [], False, rt.make_tensor(_ptr(out), "i32", [], []))
    return lib.status_name(s) == "RT_ERR_OUT_DTYPE" and out[0] == 0, (lib.status_name(s),)


CHECKS = [check_transposed_sum, check_mean_keepdim, check_var_correction, check_norm_p3,
          check_argmax_nan_ties, check_max_indices, check_int_widening, check_any_bool,
          check_offset_view_prod, check_error_status]


def run(lib):
    """Runs every check on a CPU context; prints one line each and a
    summary. Returns the number of failures."""
    ctx = lib.context(rt.DEVICE_CPU)
    failed = 0
    try:
        for check in CHECKS:
            try:
                ok, detail = check(lib, ctx)
            except Exception as e:  # a binding error is a failed check, not a crash
                ok, detail = False, repr(e)
            failed += not ok
            print("%-4s %s%s" % ("ok" if ok else "FAIL", check.__name__[6:],
                                 "" if ok else "  " + str(detail)))
    finally:
        lib.destroy(ctx)
    print("%d passed, %d failed" % (len(CHECKS) - failed, failed))
    return failed
