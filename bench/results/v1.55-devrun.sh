#!/bin/bash
# v1.55 device run: a library built here from d53bca4 (the LEAN walk kernel),
# carried as .devrun/libreduce_tensor.so.xz with the suite as
# .devrun/suite.json (.devrun/stand.sh stands in for rt_bench --list-json).
# Asked for an H200: on any other GPU it stops (MODE=force runs A-C anyway,
# MODE=c runs C alone).
#   A: d024, the LEAN kernel (rt) against the general kernel (rt_ab, bit
#      0x4000 off) and torch.compile, two processes (the first fills
#      Inductor's caches, as in v1.54).
#   B: every case of the suite against eager and torch.compile, three
#      passes, after eight warm-up processes (--no-autotune-cache).
#   C: TUNED rule 11 (one or two waves of 32 x 16 outer tiles, kept on
#      H100-class GPUs where loops are pipelined; bit 0x100000 off gives
#      rule 9's 16 x 8 tiles) on the outer and multi-dim sums, with
#      torch.compile, five passes: rt is the committed plan, rt_ab rule 11
#      off. Never timed pipelined on an H100 (v1.49 measured it on an H200).
cd "$(dirname "$0")/.."
D=.devrun; O=${OUT:-/tmp/out}; mkdir -p $O
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
xz -dc $D/libreduce_tensor.so.xz > $D/libreduce_tensor.so
export TORCHINDUCTOR_CACHE_DIR=$PWD/$D/inductor-cache
CT="python3 bench/compare_torch.py --lib $D/libreduce_tensor.so --bench-bin $D/stand.sh"
OUTER="sum_32x256x64x256_d02 sum_4096x32768_d0 sum_16777216x8_d0 sum_16384x8192t_d1 f16_sum_4096x32768_d0 bf16_sum_4096x32768_d0 sum_64x128x64x128_d1 var_4096x32768_d0"
run_c() {
  for c in $OUTER; do timeout 150 $CT --filter $c --reps 3 --warmup 1 --passes 1 --no-autotune-cache >> $O/warm.log 2>&1 & done; wait
  echo "== C: rule 11 A/B (rt: committed, rt_ab: 0x100000 off), warm at $(( $(date +%s) - t0 )) s" | tee $O/C-outer.txt
  timeout 200 $CT --filter "$(echo $OUTER | tr ' ' ',')" --ab-kinds-off 0x100000 --passes 5 --json $O/C.json 2>&1 | tee -a $O/C-outer.txt
  echo "C done at $(( $(date +%s) - t0 )) s"
}
# Run 5 ran C alone on an H100 (this script then ran C on any GPU but an
# H200; MODE=c does that now); other GPUs stop here.
if [ "${MODE:-}" = c ]; then run_c; rm -f $D/libreduce_tensor.so; exit 0; fi
if ! grep -q H200 $O/gpu.txt && [ "${MODE:-}" != force ]; then echo "not an H200: stop"; rm -f $D/libreduce_tensor.so; exit 0; fi
for i in 1 2; do
  echo "== A$i: d024, rt: LEAN walk kernel, rt_ab: general kernel" | tee -a $O/A-d024.txt
  timeout 100 $CT --filter sum_32x32x16x32x128_d024 --ab-kinds-off 0x4000 --passes 5 2>&1 | tee -a $O/A-d024.txt
done
echo "A done at $(( $(date +%s) - t0 )) s"
mapfile -t sl < <(python3 -c "
import json;n=[c['name'] for c in json.load(open('$D/suite.json'))['cases']]
[print(','.join(n[i::8])) for i in range(8)]")
for s in "${sl[@]}"; do timeout 200 $CT --filter "$s" --reps 3 --warmup 1 --passes 1 --no-autotune-cache >> $O/warm.log 2>&1 & done; wait
echo "warm done at $(( $(date +%s) - t0 )) s" | tee $O/B-suite.txt
timeout 300 $CT --passes 3 --json $O/B.json 2>&1 | tee -a $O/B-suite.txt | tail -60
echo "B done at $(( $(date +%s) - t0 )) s"
run_c
rm -f $D/libreduce_tensor.so
