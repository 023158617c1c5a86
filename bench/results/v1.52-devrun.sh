#!/bin/bash
# v1.52 device run: prebuilt library (HEAD src + ring patch + dependent fold on H100-class, experiment)
cd "$(dirname "$0")/.."
D=.devrun; O=${OUT:-/tmp/out}; mkdir -p $O
t0=$(date +%s)
xz -dc $D/libreduce_tensor.so.xz > $D/libreduce_tensor.so
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv | tee $O/gpu.txt
python3 -c "import torch;print('torch',torch.__version__)" | tee -a $O/gpu.txt
CT="python3 bench/compare_torch.py --lib $D/libreduce_tensor.so --bench-bin $D/stand.sh"
MODE=${1:-all}
if [ $MODE = all ] || [ $MODE = stream ]; then
  echo "== A: STREAM dependent fold A/B (rt: the dependent fold, also on H100-class GPUs; rt_ab: bit 30 off. On an H100 rt_ab is the committed plan, on an H200 rt is)" | tee $O/A-stream-dep.txt
  timeout 200 $CT --no-compile --filter full_2e2,full_64MB,full_256MB,full_1GB,67108864x1 --ab-kinds-off 0x40000000 --passes 5 --json $O/A.json 2>&1 | tee -a $O/A-stream-dep.txt
  echo "A done at $(( $(date +%s) - t0 )) s"
fi
if [ $MODE = all ] || [ $MODE = ring ]; then
  echo "== B: d024 ring A/B (rt: rule 16 on, rt_ab: off = committed)" | tee $O/B-ring.txt
  timeout 200 $CT --filter d024 --ab-kinds-off 0x4000 --passes 5 --json $O/B.json 2>&1 | tee -a $O/B-ring.txt
  echo "B done at $(( $(date +%s) - t0 )) s"
fi
if [ $MODE = all ] || [ $MODE = suite ]; then
  LARGE=$(python3 -c "
import json;d=json.load(open('$D/suite.json'))
print(' '.join(c['name'] for c in d['cases'] if c['read_bytes']>=256*2**20-4096))")
  echo "large: $LARGE" > $O/C-suite.txt
  i=0; for c in $LARGE; do g[$((i%8))]="${g[$((i%8))]},$c"; i=$((i+1)); done
  for k in 0 1 2 3 4 5 6 7; do [ -n "${g[$k]}" ] && timeout 240 $CT --filter "${g[$k]#,}" --no-autotune-cache --reps 3 --warmup 1 --passes 1 > $O/warm$k.log 2>&1 & done; wait
  echo "warm done at $(( $(date +%s) - t0 )) s" | tee -a $O/C-suite.txt
  timeout 300 $CT --filter "$(echo $LARGE | tr ' ' ',')" --passes 3 --ab-kinds-off 0x40004000 --json $O/C.json 2>&1 | tee -a $O/C-suite.txt
  echo "C done at $(( $(date +%s) - t0 )) s"
fi
rm -f $D/libreduce_tensor.so
