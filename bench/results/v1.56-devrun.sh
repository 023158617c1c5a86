#!/bin/bash
# v1.56 device run (run 2), from .devrun/: built here from f442174 with
# results/v1.56-vector-rows.patch applied (RT__RULE_OFF_VECTOR_ROWS =
# 0x2000): libreduce_tensor.so (xz), rt_bench and test_reduce_cuda linked
# against it (g++ of the CMake objects with the .so, rpath $ORIGIN, and
# libcudart_static for their own CUDA calls), libcmocka.so* beside them,
# rows_probe (nvcc -O3 -arch=sm_90, xz).
#   A: rows of 32 ([4194304,32] over dim 1): rt_bench, the rule (rt) against
#      --kinds-off vector-rows (the 18 KiB tile), three alternating passes;
#   D: test_reduce_cuda (RT_TEST_CASES=200; its VECTOR rows cases plan as
#      on an H200 on any GPU);
#   C: rows_probe's rows-of-32 mappings;
#   B: compare_torch on the same case, rt against rt_ab (0x2000 off) and
#      torch.compile, 5 passes (after one warm-up process), as time allows.
# On an H100 the rule does not fire (H100-class): only D runs.
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p $O; t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.txt
xz -d libreduce_tensor.so.xz rows_probe.xz; chmod +x rows_probe rt_bench test_reduce_cuda
export LD_LIBRARY_PATH=$PWD
h200=0; grep -q H200 $O/gpu.txt && h200=1
if [ $h200 = 1 ]; then
  for p in 1 2 3; do
    chk=--no-check; [ $p = 1 ] && chk=
    echo "== A$p rule on" >> $O/A.txt; timeout 40 ./rt_bench --filter x32_d1 --reps 100 $chk >> $O/A.txt 2>&1
    echo "== A$p vector-rows off" >> $O/A.txt; timeout 40 ./rt_bench --filter x32_d1 --reps 100 --no-check --kinds-off vector-rows >> $O/A.txt 2>&1
  done
  grep -h "x32_d1\|==\|failed" $O/A.txt; echo "A done at $(( $(date +%s) - t0 )) s"
fi
RT_TEST_CASES=200 timeout 100 ./test_reduce_cuda > $O/D-test.txt 2>&1; echo "test_reduce_cuda rc=$?"; grep -h "rows cases\|PASSED\|FAILED\|ERROR" $O/D-test.txt | head
echo "D done at $(( $(date +%s) - t0 )) s"
if [ $h200 = 1 ]; then
  timeout 40 ./rows_probe --only L32 --reps 60 2>&1 | tee $O/C.txt
  ./rt_bench --filter x32_d1 --reps 20 --no-check --json $O/bench.json > /dev/null 2>&1
  export TORCHINDUCTOR_CACHE_DIR=$PWD/inductor-cache
  CT="python3 ../bench/compare_torch.py --lib $PWD/libreduce_tensor.so --bench-json $O/bench.json --filter x32_d1"
  timeout 90 $CT --reps 3 --warmup 1 --passes 1 > $O/warm.log 2>&1
  timeout 90 $CT --ab-kinds-off 0x2000 --passes 5 --json $O/B.json 2>&1 | tee $O/B.txt | tail -4
  echo "B done at $(( $(date +%s) - t0 )) s"
fi
rm -f libreduce_tensor.so rows_probe
