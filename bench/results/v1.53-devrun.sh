#!/bin/bash
# v1.53 device run: prebuilt library (HEAD = v1.49 code); d024 through edge_probe's
# launch paths and kernel binaries (run 2 on: and with d024's shape at run time); the STREAM kernel's dependent fold against the count.
cd "$(dirname "$0")/.."
D=.devrun; O=${OUT:-/tmp/out}; mkdir -p $O
t0=$(date +%s)
xz -dc $D/libreduce_tensor.so.xz > $D/libreduce_tensor.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv | tee $O/gpu.txt
python3 -c "import torch,triton;print('torch',torch.__version__,'triton',triton.__version__)" | tee -a $O/gpu.txt
MODE=${1:-all}
if [ $MODE = all ] || [ $MODE = d024 ]; then
  echo "== A: d024 through edge_probe (rt, compile, eager, Triton and nvcc kernels of Inductor's mapping)" | tee $O/A-d024.txt
  timeout 240 python3 bench/edge_probe.py --lib $D/libreduce_tensor.so --bench-bin $D/stand.sh \
    --filter sum_32x32x16x32x128_d024 --passes ${PASSES:-5} --sass-dir $O 2>&1 | tee -a $O/A-d024.txt
  echo "A done at $(( $(date +%s) - t0 )) s"
fi
# B answers an H200 question (the H100's answer is v1.52's and run 1's): on an H100 only if asked.
if [ $MODE = stream ] || { [ $MODE = all ] && grep -q H200 $O/gpu.txt; }; then
  echo "== B: STREAM dependent fold A/B (rt: committed plan; rt_ab: bit 30 off. On an H200 rt is the dependent fold, rt_ab the count)" | tee $O/B-stream-dep.txt
  timeout 200 python3 bench/compare_torch.py --lib $D/libreduce_tensor.so --bench-bin $D/stand.sh \
    --no-compile --filter f64_sum_full_2e26,sum_full_2e27,amax_full_2e27,bf16_sum_full_2e28 --ab-kinds-off 0x40000000 --passes 5 --json $O/B.json 2>&1 | tee -a $O/B-stream-dep.txt
  echo "B done at $(( $(date +%s) - t0 )) s"
fi
rm -f $D/libreduce_tensor.so
