#!/usr/bin/env python3
"""Which launch configuration Inductor (torch.compile) autotunes for a few
outer reductions of the suite, and the lines of its generated kernels
that show the tiling: compiles each case once, then prints every
*.best_config under the Inductor cache and the key lines of each
generated reduction kernel. Needs torch with CUDA (not the library).

    TORCHINDUCTOR_CACHE_DIR=/tmp/ic python3 bench/inductor_configs.py [SUBSTRING...]

With arguments, only the cases whose names contain one of them, and
every line of their generated kernels.

Use a fresh cache directory: a cache shared with other runs holds their
kernels too. The times it prints are medians of 100 calls through the
compiled function, an event pair around each and no sync between them,
as compare_torch.py times (there: inputs rotated over copies; here one
input, so a case that fits L2 reads it from there).
"""
import glob, json, os, sys, time
import torch
torch.manual_seed(0)
cases = [
    ("d02 [32,256,64,256] sum (0,2)", (32, 256, 64, 256), (0, 2)),
    ("d0 [4096,32768] sum 0", (4096, 32768), (0,)),
    ("var d0 [4096,32768]", (4096, 32768), None),
    ("d024 [32,32,16,32,128] sum (0,2,4)", (32, 32, 16, 32, 128), (0, 2, 4)),
    ("rows4096 [32768,4096] sum 1", (32768, 4096), (1,)),
    ("rows127 [528416,127] sum 1", (528416, 127), (1,)),
    ("rows129 [520222,129] sum 1", (520222, 129), (1,)),
    ("rows32 [4194304,32] sum 1", (4194304, 32), (1,)),
    ("rows4 [33554432,4] sum 1", (33554432, 4), (1,)),
    ("rows100 [671088,100] sum 1", (671088, 100), (1,)),
    ("d1of4 [64,128,64,128] sum 1", (64, 128, 64, 128), (1,)),
    # the suite's column slices: a view of the allocated shape
    ("slice4096 [16384,8192][:, :4096] sum 1", (16384, 8192), (1,), lambda t: t[:, :4096]),
    ("slice4097c1 [16384,4097][:, 1:] sum 1", (16384, 4097), (1,), lambda t: t[:, 1:]),
]
if len(sys.argv) > 1:
    cases = [c for c in cases if any(a in c[0] for a in sys.argv[1:])]
out = {}
for name, shape, dims, *view in cases:
    x = torch.randn(*shape, device="cuda")
    if view:
        x = view[0](x)
    if dims is None:
        fn = torch.compile(lambda t: t.var(0), dynamic=False)
    else:
        fn = torch.compile(lambda t, d=dims: t.sum(d), dynamic=False)
    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    # Events around each call, no sync between calls (compare_torch.py's
    # way): once the GPU runs behind the host, host guards fall outside.
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
          for _ in range(100)]
    for st, en in ev:
        st.record(); fn(x); en.record()
    torch.cuda.synchronize()
    ts = sorted(st.elapsed_time(en) * 1e3 for st, en in ev)
    print(f"{name}: median {ts[len(ts)//2]:.2f} us")
    torch._dynamo.reset()
root = os.environ.get("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_" + os.environ.get("USER", "root"))
print("cache", root)
for p in sorted(glob.glob(root + "/**/*.best_config", recursive=True)):
    print("==", p); print(open(p).read())
for p in sorted(glob.glob(root + "/**/*.py", recursive=True)):
    src = open(p).read()
    if "@triton.jit" in src and ("reduction" in src or "pointwise" in src):
        print("== kernel", p)
        for line in src.splitlines():
            if len(sys.argv) > 1 or any(k in line for k in ("@triton_heuristics", "def triton_", "triton_meta", "inductor_meta", "XBLOCK", "R0_BLOCK", "num_warps", "size_hints", "tl.load", "tl.sum", "for r0")):
                print(line[:300])
