#!/usr/bin/env python3
"""Which launch configuration Inductor (torch.compile) autotunes for a few
outer reductions of the suite, and the lines of its generated kernels
that show the tiling: compiles each case once, then prints every
*.best_config under the Inductor cache and the key lines of each
generated reduction kernel. Needs torch with CUDA (not the library).

    TORCHINDUCTOR_CACHE_DIR=/tmp/ic python3 bench/inductor_configs.py

Use a fresh cache directory: a cache shared with other runs holds their
kernels too. The times it prints are one call each through the compiled
function, host guards included: not comparable with compare_torch.py's.
"""
import glob, json, os, sys, time
import torch
torch.manual_seed(0)
cases = [
    ("d02 [32,256,64,256] sum (0,2)", (32, 256, 64, 256), (0, 2)),
    ("d0 [4096,32768] sum 0", (4096, 32768), (0,)),
    ("var d0 [4096,32768]", (4096, 32768), None),
]
out = {}
for name, shape, dims in cases:
    x = torch.randn(*shape, device="cuda")
    if dims is None:
        fn = torch.compile(lambda t: t.var(0), dynamic=False)
    else:
        fn = torch.compile(lambda t, d=dims: t.sum(d), dynamic=False)
    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(50):
        st.record(); fn(x); en.record(); torch.cuda.synchronize(); ts.append(st.elapsed_time(en) * 1e3)
    ts.sort()
    print(f"{name}: median {ts[len(ts)//2]:.2f} us")
    torch._dynamo.reset()
root = os.environ.get("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_" + os.environ.get("USER", "root"))
print("cache", root)
for p in sorted(glob.glob(root + "/**/*.best_config", recursive=True)):
    print("==", p); print(open(p).read())
for p in sorted(glob.glob(root + "/**/*.py", recursive=True)):
    src = open(p).read()
    if "@triton.jit" in src and ("reduction" in src):
        print("== kernel", p)
        for line in src.splitlines():
            if any(k in line for k in ("@triton_heuristics", "def triton_", "triton_meta", "inductor_meta", "XBLOCK", "R0_BLOCK", "num_warps", "size_hints", "tl.load", "tl.sum", "for r0")):
                print(line[:300])
