#!/usr/bin/env bash
# Device run for the ROWS work (bench/NOTES-rows.md): build, GPU tests, rows cases timed on both
# policies, PyTorch eager (and Inductor on a few), a short table last.
# Env: OUT, CMOCKA_ROOT, ROWS_FILTER (rt_bench/compare filter, default _d1),
# ROWS_COMPILE (compare_torch filter run with Inductor, default none),
# ROWS_SAN=1 (compute-sanitizer memcheck+racecheck on the GPU tests).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-./rows-out}; mkdir -p "$OUT"
C=${CMOCKA_ROOT}
B=build-dev
F=${ROWS_FILTER:-_d1}
T0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DRT_BUILD_BENCH=ON \
  -DCMOCKA_INCLUDE_DIR=$C/include -DCMOCKA_LIBRARY=$(ls $C/lib*/libcmocka.so* | head -1) >$OUT/build.log 2>&1
cmake --build $B -j16 >>$OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
RT_TEST_BIG=0 timeout 200 $B/tests/test_reduce_cuda >$OUT/test.log 2>&1; R1=$?
RT_TEST_BIG=0 timeout 100 $B/tests/test_reduce_cuda_split >>$OUT/test.log 2>&1; R2=$?
timeout 60 $B/tests/test_config >>$OUT/test.log 2>&1; R3=$?
echo "tests: cuda rc=$R1 split rc=$R2 config rc=$R3 ($(( $(date +%s) - T0 )) s)"
grep -E "^\[|FAILED|rows cases|random cases|branch cases|split-limit|Error|error" $OUT/test.log | head -40
if [ "${ROWS_SAN:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    RT_TEST_CASES=60 RT_TEST_BIG=0 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
      $B/tests/test_reduce_cuda >$OUT/san_$tool.log 2>&1; echo "$tool test_reduce_cuda rc=$?"
    RT_TEST_BIG=0 timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 \
      $B/tests/test_reduce_cuda_split >>$OUT/san_$tool.log 2>&1; echo "$tool split rc=$?"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$tool.log | head -4
  done
fi
for p in compat tuned; do
  timeout 120 $B/bench/rt_bench --quick --filter "$F" --policy $p >$OUT/bench_$p.log 2>&1
done
PYTHONUNBUFFERED=1 timeout 150 python3 bench/compare_torch.py --lib $B/libreduce_tensor.so --filter "$F" \
  --no-compile --policy tuned >$OUT/torch.log 2>&1
for f in ${ROWS_COMPILE:-}; do
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/compare_torch.py --lib $B/libreduce_tensor.so \
    --filter "$f" --policy tuned >>$OUT/torch_compile.log 2>&1
done
[ -f $OUT/torch_compile.log ] && grep -E "^sum|^case" $OUT/torch_compile.log
python3 - "$OUT" <<'PY'
import sys, re
out = sys.argv[1]
def table(path, cols):
    r = {}
    try:
        for line in open(path):
            f = line.split()
            if len(f) > max(cols) and re.match(r'^[a-z]', f[0]) and re.match(r'^[0-9.]+$', f[1]):
                r[f[0]] = [f[c] for c in cols]
    except OSError:
        pass
    return r
c = table(out + '/bench_compat.log', [1, 4])
t = table(out + '/bench_tuned.log', [1, 4])
e = table(out + '/torch.log', [1, 2, 7])
print('%-30s %9s %9s %7s %9s %6s' % ('case', 'compat_us', 'tuned_us', '%ceil', 'eager_us', 't/eag'))
for k in t:
    ce = c.get(k, ['-', '-'])[0]
    eg = e.get(k, ['-', '-', '-'])[1]
    ratio = '%.2f' % (float(t[k][0]) / float(eg)) if eg not in ('-',) else '-'
    print('%-30s %9s %9s %7s %9s %6s' % (k, ce, t[k][0], t[k][1], eg, ratio))
PY
