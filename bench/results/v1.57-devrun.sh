#!/bin/bash
# v1.57 device run, from .devrun/ as results/v1.57-devrun-build.sh
# leaves it: the tree at HEAD (0753ced when written) with
# results/v1.56-vector-rows.patch applied (RT__RULE_OFF_VECTOR_ROWS =
# 0x2000) and, for this run only, rows_vector's bandwidth gate removed
# (mem_gbps <= 0 in place of <= RT__H100_CLASS_MAX_GBPS), so that the rule
# fires on an H100 too: libreduce_tensor.so (xz), rt_bench and
# test_reduce_cuda linked against it, libcmocka.so.0 beside them,
# rows_probe (nvcc -O3 -arch=sm_90, xz).
#   A: rt_bench rows of 32, rule on against --kinds-off vector-rows (the
#      18 KiB tile), 3 alternating passes; then C, then B;
#   B: compare_torch rt / rt_ab (0x2000 off) / torch.compile, 3 passes after
#      a warm-up process, each series also queued behind a 300 us spin
#      (--spin-us, v1.58: the kernels' times where a call is host-bound);
#   C: rows_probe L32 mappings;  D: test_reduce_cuda (RT_TEST_CASES=100);
#   E (H200 only, time allowing): d024 against torch.compile, LEAN on/off,
#      queued behind spins as B;
#   F (last, ~20 s): rt_bench's full sums (256 B to 1 GB) against CUB,
#      back to back and with --spin-us 20 (v1.58: the latency end on the
#      GPU alone).
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p $O; t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $O/gpu.txt
xz -dk libreduce_tensor.so.xz rows_probe.xz; chmod +x rows_probe rt_bench test_reduce_cuda
export LD_LIBRARY_PATH=$PWD
for p in 1 2 3; do
  chk=--no-check; [ $p = 1 ] && chk=
  echo "== A$p rule on" >> $O/A.txt; timeout 40 ./rt_bench --filter x32_d1 --reps 100 $chk >> $O/A.txt 2>&1
  echo "== A$p vector-rows off" >> $O/A.txt; timeout 40 ./rt_bench --filter x32_d1 --reps 100 --no-check --kinds-off vector-rows >> $O/A.txt 2>&1
done
grep -h "x32_d1\|==\|fail\|ceiling" $O/A.txt; echo "A done at $(el) s"
timeout 40 ./rows_probe --only L32 --reps 60 > $O/C.txt 2>&1; tail -17 $O/C.txt
echo "C done at $(el) s"
./rt_bench --filter x32_d1 --reps 20 --no-check --json $O/bench.json > /dev/null 2>&1
export TORCHINDUCTOR_CACHE_DIR=$PWD/inductor-cache
CT="python3 ../bench/compare_torch.py --lib $PWD/libreduce_tensor.so --bench-json $O/bench.json --filter x32_d1"
timeout 90 $CT --reps 3 --warmup 1 --passes 1 > $O/warm.log 2>&1
timeout 100 $CT --ab-kinds-off 0x2000 --passes 3 --spin-us 300 --json $O/B.json 2>&1 | tee $O/B.txt | tail -6
echo "B done at $(el) s"
RT_TEST_CASES=100 timeout 100 ./test_reduce_cuda > $O/D-test.txt 2>&1; echo "test_reduce_cuda rc=$?"; grep -h "rows cases\|PASSED\|FAILED\|ERROR" $O/D-test.txt | head
echo "D done at $(el) s"
if grep -q H200 $O/gpu.txt && [ $(el) -lt 300 ]; then
  ./rt_bench --filter d024 --reps 20 --no-check --json $O/bench-d024.json > /dev/null 2>&1
  CE="python3 ../bench/compare_torch.py --lib $PWD/libreduce_tensor.so --bench-json $O/bench-d024.json --filter d024"
  timeout 60 $CE --reps 3 --warmup 1 --passes 1 > $O/warm-d024.log 2>&1
  timeout 90 $CE --ab-kinds-off 0x4000 --passes 3 --spin-us 300 --json $O/E.json 2>&1 | tee $O/E.txt | tail -6
  echo "E done at $(el) s"
fi
for sp in 0 20; do  # F: the latency end against CUB, back to back and behind 20 us spins (v1.58)
  a=; [ $sp = 0 ] || a="--spin-us $sp"
  timeout 40 ./rt_bench --filter sum_full --reps 100 --no-check $a > $O/F$sp.txt 2>&1
  grep -h "^sum_full\|queued" $O/F$sp.txt | head -16
done
echo "F done at $(el) s"
rm -f libreduce_tensor.so rows_probe
