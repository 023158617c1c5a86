#!/usr/bin/env python3
"""The timing logic of bench/compare_torch.py, without torch or a GPU.

A stand-in for torch runs one CUDA stream on a virtual clock: host work
advances the host's clock, GPU work starts once the host has queued it and
the GPU is free, and an event reads the GPU's clock when the GPU reaches
it. On that stream a call whose host side (100 us) outruns its kernel
(63 us) is timed at its host's pace back to back, and at its kernel's
behind a long enough spin (--spin-us); these tests hold compare_torch's
event timing, its host-bound and spin-too-short marks, run_case's columns
and the printed row to that model. Run by ctest (compare_torch_timing).
"""
import contextlib
import io
import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
import compare_torch as ct  # noqa: E402

CYCLES_PER_US = 1980.0  # the stand-in GPU's clock, as torch.cuda._sleep counts


class Stream:
    """One stream on a virtual clock, in microseconds."""

    def __init__(self):
        self.host = 0.0
        self.gpu_free = 0.0

    def host_work(self, us):
        self.host += us

    def enqueue(self, gpu_us):
        """Queues gpu_us of GPU work now; returns when the GPU starts it."""
        start = max(self.host, self.gpu_free)
        self.gpu_free = start + gpu_us
        return start

    def call(self, host_us, gpu_us):
        """A call that takes the host host_us, then queues one kernel."""
        def run(k):
            self.host_work(host_us)
            self.enqueue(gpu_us)
        return run


def fake_torch(stream):
    """The parts of torch that compare_torch's timing uses, on stream."""
    torch = types.ModuleType("torch")

    class Event:
        def __init__(self, enable_timing=False):
            self.at = None

        def record(self):
            stream.host_work(1.0)
            self.at = stream.enqueue(0.0)

        def elapsed_time(self, end):
            return (end.at - self.at) / 1000.0  # milliseconds, as torch

    class cuda:
        pass

    def sleep(cycles):
        stream.host_work(3.0)
        stream.enqueue(cycles / CYCLES_PER_US)

    def synchronize():
        stream.host = max(stream.host, stream.gpu_free)

    class Tensor:
        def zero_(self):
            stream.host_work(2.0)
            stream.enqueue(5.0)

    def compile(f, dynamic=False):
        def compiled(x):
            stream.host_work(90.0)  # guards and launch through Python
            return f(x)
        return compiled

    cuda.Event = Event
    cuda._sleep, cuda.synchronize = staticmethod(sleep), staticmethod(synchronize)
    torch.cuda = cuda
    torch.float32 = "float32"
    torch.empty = lambda *a, **k: Tensor()
    torch.sum = lambda x, dim=0, out=None: (stream.host_work(5.0), stream.enqueue(40.0))
    torch._dynamo = types.SimpleNamespace(reset=lambda: None)
    torch.compile = compile
    return torch


class TimingTest(unittest.TestCase):
    def setUp(self):
        self.stream = Stream()
        self.torch = fake_torch(self.stream)
        self.clock = ct.time.perf_counter
        ct.time.perf_counter = lambda: self.stream.host * 1e-6

    def tearDown(self):
        ct.time.perf_counter = self.clock

    def timed(self, call, before=None):
        host = []
        us = ct.median_of_events(self.torch, call, 4, 100, 10, before, host_us=host)
        return us, host[0]

    def spin(self, us):
        cycles = int(us * ct.spin_cycles_per_us(self.torch))
        return lambda: self.torch.cuda._sleep(cycles)

    def test_spin_calibration(self):
        self.assertAlmostEqual(ct.spin_cycles_per_us(self.torch), CYCLES_PER_US, places=6)

    def test_events_against_the_host(self):
        # A kernel-bound call reads its kernel either way.
        us, host = self.timed(self.stream.call(5.0, 64.0))
        self.assertAlmostEqual(us, 64.0)
        self.assertAlmostEqual(host, 7.0)  # the call and its two events
        self.assertAlmostEqual(self.timed(self.stream.call(5.0, 64.0), self.spin(300))[0], 64.0)
        # A host-bound call reads its host's time a call back to back (the
        # call and its two events), its kernel's behind a spin.
        us, host = self.timed(self.stream.call(100.0, 63.0))
        self.assertAlmostEqual(us, 102.0)
        self.assertAlmostEqual(host, 102.0)
        us, host = self.timed(self.stream.call(100.0, 63.0), self.spin(300))
        self.assertAlmostEqual(us, 63.0)
        self.assertAlmostEqual(host, 105.0)  # the spin's launch too
        # Behind a spin shorter than the host's call the GPU waits again.
        self.assertGreater(self.timed(self.stream.call(100.0, 63.0), self.spin(20))[0], 80.0)

    def test_marks(self):
        row = {"rt_us": 64.0, "rt_host_us": 7.0, "compile_us": 102.0, "compile_host_us": 102.0,
               "rt_queued_us": 64.0, "rt_queued_host_us": 10.0,
               "compile_queued_us": 63.0, "compile_queued_host_us": 105.0}
        self.assertEqual(ct.host_bound_series(row, ["rt", "compile"]), ["compile"])
        self.assertEqual(ct.host_bound_series(row, ["rt", "compile"], "_queued", 300.0), [])
        row["compile_queued_us"] = 85.0  # a 20 us spin: 105 >= 0.9 x (20 + 85)
        self.assertEqual(ct.host_bound_series(row, ["rt", "compile"], "_queued", 20.0), ["compile"])
        self.assertEqual(ct.host_bound_series({"rt_us": 64.0}, ["rt"], "_queued", 0.0), [])

    def run_case(self, argv):
        """run_case and add_peers on a stand-in case: rt 5 us of host and a
        64 us kernel, rt_ab a 65 us kernel, eager 10 us and 70 us, the
        compiled call 90 us more host than eager."""
        stream = self.stream

        class Case:
            def __init__(self, torch, lib, ctx, case, ncopies, device):
                self.views = [None] * ncopies
                self.outs = [None] * ncopies
                self.rt_call = stream.call(5.0, 64.0)

            def rt_call_for(self, lib, ctx):
                return stream.call(5.0, 65.0)

        def torch_fn(torch, case):
            def eager(x):
                stream.host_work(10.0)
                stream.enqueue(70.0)
            return eager

        case = {"name": "sum_d024", "group": "ndim", "kind": "reduce", "read_bytes": 1 << 28,
                "write_bytes": 1 << 20, "dtype": "f32", "storage": 1 << 26,
                "out_dtype": "f32", "ceiling_gbps": 4400.0}
        opts = ct.parse_args(argv)
        opts.spin_cycles = int(opts.spin_us * ct.spin_cycles_per_us(self.torch))
        saved = ct.Case, ct.torch_fn, ct.matches
        ct.Case, ct.torch_fn = Case, torch_fn
        ct.matches = lambda torch, got, want, dtype: (True, 0.0)
        try:
            row = ct.run_case(self.torch, None, None, case, opts, 50 << 20, None, ab_ctx=object())
        finally:
            ct.Case, ct.torch_fn, ct.matches = saved
        ct.add_peers(row, case)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            ct.print_row(row)
        return row, printed.getvalue()

    def test_run_case_queued(self):
        row, printed = self.run_case(["--spin-us", "300", "--flush-l2"])
        for s, kernel in (("rt", 64.0), ("rt_ab", 65.0), ("eager", 70.0), ("compile", 70.0)):
            self.assertAlmostEqual(row[s + "_queued_us"], kernel, msg=s)
            self.assertIn(s + "_flush_us", row)
        self.assertAlmostEqual(row["compile_us"], 102.0)
        self.assertEqual(row["host_bound"], ["compile"])
        self.assertNotIn("spin_short", row)
        self.assertEqual(row["best_peer"], "eager")
        self.assertAlmostEqual(row["ratio_rt_to_best"], 64.0 / 70.0)
        self.assertIn("(queued behind a spin)", printed)
        self.assertIn("rt/eager %.3f" % (64.0 / 70.0), printed)
        self.assertIn("rt/rt_ab %.4f" % (64.0 / 65.0), printed)

    def test_run_case_plain(self):
        row, printed = self.run_case([])
        self.assertFalse([k for k in row if "queued" in k or "flush" in k])
        self.assertNotIn("(queued behind a spin)", printed)
        self.assertIn("host-bound: compile", printed)

    def test_run_case_spin_too_short(self):
        row, printed = self.run_case(["--spin-us", "20"])
        self.assertEqual(row["spin_short"], ["compile"])
        self.assertIn("spin too short for: compile", printed)


if __name__ == "__main__":
    unittest.main()
