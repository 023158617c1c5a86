#!/usr/bin/env bash
# run_general.sh: one device call of the general-kernel tuning work
# (bench/NOTES-general.md): build, GPU tests, optional sanitizers, the host
# stage timings, rt_bench under both policies, optional compare_torch; a
# short compat-vs-tuned table last. Logs under $OUT.
# Env: CMOCKA_ROOT, SAN=1 (sanitizers), TORCH=1 (compare_torch, tuned),
# FILTER (rt_bench/compare filter, default all).
set -u
OUT=${OUT:-./run-general-out}
mkdir -p "$OUT"
L=/tmp/run-general-logs  # logs, packed into $OUT/logs.tgz at the end
mkdir -p $L
B=build-gpu
F=${FILTER:-}
FARG=()
[ -n "$F" ] && FARG=(--filter "$F")
lib=$(ls "$CMOCKA_ROOT"/lib*/libcmocka.so* | head -1)
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DRT_BUILD_BENCH=ON \
    -DCMOCKA_INCLUDE_DIR="$CMOCKA_ROOT/include" -DCMOCKA_LIBRARY="$lib" &&
  cmake --build $B -j16; } >"$L/build.log" 2>&1 || { tail -40 "$L/build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
(cd $B && timeout 240 ctest --output-on-failure --timeout 200) >"$L/ctest.log" 2>&1
grep -E "tests passed|Failed|Passed|cases:" "$L/ctest.log" | tail -14
$B/tests/test_reduce_cuda 2>&1 | grep -E "cases|FAILED|ERROR" | head
$B/bench/host_bench >"$L/host.log" 2>&1
for p in compat tuned; do
  timeout 200 $B/bench/rt_bench --quick --no-check --policy $p "${FARG[@]}" --json "$OUT/$p.json" \
    >"$L/$p.log" 2>&1
done
if [ "${TORCH:-0}" = 1 ]; then
  PYTHONUNBUFFERED=1 timeout 200 python3 bench/compare_torch.py --lib $B/libreduce_tensor.so \
    --no-compile "${FARG[@]}" --json "$OUT/torch.json" >"$L/torch.log" 2>&1
  tail -4 "$L/torch.log"
fi
cat "$L/host.log"
python3 - "$OUT" <<'PY'
import json, sys, os
o = sys.argv[1]
def load(n):
    p = os.path.join(o, n)
    return {c['name']: c for c in json.load(open(p))['cases']} if os.path.exists(p) else {}
c, t = load('compat.json'), load('tuned.json')
tj = load('torch.json')
print('%-30s %9s %9s %6s %6s %9s' % ('case', 'compat', 'tuned', '%ceil', 'speed', 'eager'))
for n in t:
    a, b = c.get(n, {}).get('time_us'), t[n].get('time_us')
    e = tj.get(n, {}).get('eager_us')
    if a is None or b is None: continue
    print('%-30s %9.2f %9.2f %6.1f %6.2f %9s' % (n, a, b, t[n].get('pct_ceiling') or 0, a / b,
          '%.2f' % e if e else '-'))
PY
if [ "${SAN:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    for t in test_reduce_cuda test_reduce_cuda_split; do
      RT_TEST_CASES=${SAN_CASES:-60} RT_TEST_BIG=0 timeout ${SAN_TIMEOUT:-90} compute-sanitizer --tool $tool \
        --error-exitcode 99 $B/tests/$t >"$L/san_${tool}_$t.log" 2>&1
      echo "$tool $t: exit $? $(grep -E 'ERROR SUMMARY' "$L/san_${tool}_$t.log" | tail -1)"
    done
  done
fi
tar czf "$OUT/logs.tgz" -C $L .
