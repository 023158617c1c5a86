#!/usr/bin/env bash
# gpu-check.sh: everything a GPU machine can tell about reduce_tensor, in one
# command from the repository root:
#   1. build build-gpu (Release) for the GPU's own compute capability with the
#      machine's nvcc and cmake, -j$(nproc);
#   2. ctest, every test, -j$(nproc); the GPU tests must pass, not skip;
#   3. the GPU test executables under compute-sanitizer memcheck and racecheck,
#      the two tools at once (RT_TEST_CASES lowered, RT_TEST_BIG=0 so they
#      finish in minutes);
#   4. the benchmark and the PyTorch comparison, when they are built/present;
# then prints a summary table LAST and exits non-zero if anything failed.
#
# Logs go to $OUT (the device tool's output folder), or ./gpu-check-out:
# ctest.log bench.log compare.log bench.json compare.json [compile.log
# compile.json], and logs.tgz with build.log memcheck.log racecheck.log
# [bench_compat.*] (the device tool brings back at most 8 files).
# Stages share a deadline (GPU_CHECK_BUDGET seconds, default 570) so the
# whole run stays under ~9.5 minutes (the device tool allows 10 a call); a
# stage cut short by it counts as failed.
#
# Environment: OUT, GPU_CHECK_BUDGET, GPU_CHECK_BUILD (default build-gpu),
# SANITIZER_CASES (default 120), BENCH_COMPAT=1 (also time the compat policy:
# bench_compat.json/.log, and host_bench's per-stage host costs),
# COMPILE_FILTERS (space-separated case-name filters, each a comma list of
# substrings run in one process, timed against
# torch.compile too: compile.log, compile.json; "_" is every case),
# COMPILE_WARM_JOBS (default 8: processes that compile those cases first, in
# parallel, to fill Inductor's caches; 0: none), COMPILE_ARGS (extra
# compare_torch arguments for the timed torch.compile passes, e.g.
# "--spin-us 300" where Inductor's calls are host-bound),
# HOST_BENCH=1 (host_bench alone: where a tiny call's host time goes,
# host_bench.txt), NCU_FILTER (rt_bench case filter: those cases' kernels
# and CUB's single-tile kernel under Nsight Compute, GPU time and active
# cycles per launch in launch order, ncu.txt; NCU_KERNELS overrides the
# kernel-name regex),
# CMOCKA_ROOT (a prefix with include/cmocka.h and lib*/libcmocka.so*, for a
# machine without libcmocka-dev; ./.cmocka is tried too), BENCH_ARGS (extra
# rt_bench arguments, default --quick), COMPARE_ARGS (default --no-compile).
set -u
START=$(date +%s)
BUDGET=${GPU_CHECK_BUDGET:-570}
OUT=${OUT:-./gpu-check-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(pwd)
BUILD=${GPU_CHECK_BUILD:-$ROOT/build-gpu}
SAN_CASES=${SANITIZER_CASES:-120}
FAILED=0

left() { echo $((BUDGET - ($(date +%s) - START))); }
# run_for SECONDS_MAX LOG CMD...: runs CMD with a timeout of the smaller of
# SECONDS_MAX and what is left of the budget, appending to LOG; returns its
# exit status (124 on timeout).
run_for() {
    local max=$1 log=$2
    shift 2
    local t
    t=$(left)
    [ "$t" -gt "$max" ] && t=$max
    if [ "$t" -le 5 ]; then
        echo "gpu-check: no time left for: $*" >>"$log"
        return 124
    fi
    timeout --signal=TERM --kill-after=10 "$t" "$@" >>"$log" 2>&1
}

# ---- the GPU ----------------------------------------------------------------
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')
[ -z "$GPU_NAME" ] && GPU_NAME="(no GPU found)"
if [ -z "$CAP" ]; then
    CAP=90
    echo "gpu-check: no compute capability from nvidia-smi, building for sm_$CAP" >"$OUT/build.log"
else
    : >"$OUT/build.log"
fi

# ---- 1. build ------------------------------------------------------------------
CMOCKA_FLAGS=()
if [ ! -e /usr/include/cmocka.h ] && [ ! -e /usr/local/include/cmocka.h ]; then
    for prefix in "${CMOCKA_ROOT:-}" "$ROOT/.cmocka"; do
        if [ -n "$prefix" ] && [ -e "$prefix/include/cmocka.h" ]; then
            lib=$(find "$prefix"/lib* -name "libcmocka.so*" 2>/dev/null | sort | head -n1)
            CMOCKA_FLAGS=(-DCMOCKA_INCLUDE_DIR="$prefix/include" -DCMOCKA_LIBRARY="$lib")
            break
        fi
    done
fi
BUILD_OK=FAIL
if run_for 300 "$OUT/build.log" cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES="$CAP" -DRT_ENABLE_CUDA=ON -DRT_BUILD_PROBES=ON \
        "${CMOCKA_FLAGS[@]}" &&
    run_for 420 "$OUT/build.log" cmake --build "$BUILD" -j"$(nproc)"; then
    BUILD_OK=OK
else
    FAILED=1
fi
BUILD_SECS=$(($(date +%s) - START))

# ---- 2. ctest -------------------------------------------------------------------
T_PASS=0 T_FAIL=0 T_SKIP=0 GPU_SKIP=0 CTEST_STATUS=FAIL
: >"$OUT/ctest.log"
if [ "$BUILD_OK" = OK ]; then
    # In parallel: the CPU tests (test_reduce_cpu, fuzz_reduce) run beside
    # the GPU ones, which share the GPU (none of them times anything).
    (cd "$BUILD" && run_for 300 "$OUT/ctest.log" ctest -V --output-on-failure --timeout 280 \
        -j"$(nproc)")
    rc=$?
    T_PASS=$(grep -cE 'Test +#[0-9]+: .* Passed' "$OUT/ctest.log")
    T_FAIL=$(grep -cE 'Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception|Not Run)' "$OUT/ctest.log")
    T_SKIP=$(grep -cE 'Test +#[0-9]+: .*Skipped' "$OUT/ctest.log")
    GPU_SKIP=$(grep -cE 'Test +#[0-9]+: [^ ]*cuda[^ ]* .*Skipped' "$OUT/ctest.log")
    if [ "$rc" -eq 0 ] && [ "$T_FAIL" -eq 0 ] && [ "$GPU_SKIP" -eq 0 ] && [ "$T_PASS" -gt 0 ]; then
        CTEST_STATUS=OK
    else
        FAILED=1
    fi
else
    FAILED=1
fi

# ---- 3. sanitizers --------------------------------------------------------------
GPU_TESTS=$(find "$BUILD/tests" -maxdepth 1 -type f -executable -name 'test_*cuda*' 2>/dev/null | sort)
sanitize() { # tool log -> prints the error count, or FAIL
    local tool=$1 log=$2 total=0 bad=0
    : >"$log"
    if ! command -v compute-sanitizer >/dev/null 2>&1 || [ -z "$GPU_TESTS" ]; then
        echo "FAIL"
        echo "gpu-check: compute-sanitizer or GPU tests missing" >>"$log"
        return
    fi
    for t in $GPU_TESTS; do
        echo "=== $tool: $t" >>"$log"
        RT_TEST_CASES=$SAN_CASES RT_TEST_BIG=0 run_for 200 "$log" \
            compute-sanitizer --tool "$tool" --error-exitcode 99 "$t"
        local rc=$?
        local n
        # A test of host code only (test_cuda_walk) makes no CUDA call, so
        # there is nothing to sanitize: the sanitizer says so and exits
        # 255. ctest (step 2) has already run it.
        local last
        last=$(tail -n 4 "$log")
        if [ "$rc" -ne 0 ] && grep -q 'terminated before first instrumented API call' <<<"$last" &&
            grep -q 'PASSED' <<<"$last"; then
            echo "=== exit $rc: no CUDA calls, nothing to sanitize" >>"$log"
            continue
        fi
        n=$(grep -E 'ERROR SUMMARY: [0-9]+' "$log" | tail -n1 | sed -E 's/.*ERROR SUMMARY: ([0-9]+).*/\1/')
        # Each run appends one summary: take the last, which is this run's.
        [ -n "$n" ] && total=$((total + n))
        [ "$rc" -ne 0 ] && bad=1
        echo "=== exit $rc" >>"$log"
    done
    if [ "$bad" -ne 0 ] && [ "$total" -eq 0 ]; then echo "FAIL"; else echo "$total"; fi
}
MEMCHECK=FAIL RACECHECK=FAIL
if [ "$BUILD_OK" = OK ]; then
    # The two tools at once, each over the tests in turn: they share the
    # GPU, and most of their time is the host's.
    sanitize memcheck "$OUT/memcheck.log" >"$OUT/memcheck.count" &
    sanitize racecheck "$OUT/racecheck.log" >"$OUT/racecheck.count" &
    wait
    MEMCHECK=$(cat "$OUT/memcheck.count")
    RACECHECK=$(cat "$OUT/racecheck.count")
    rm -f "$OUT/memcheck.count" "$OUT/racecheck.count"
    [ -n "$MEMCHECK" ] || MEMCHECK=FAIL
    [ -n "$RACECHECK" ] || RACECHECK=FAIL
fi
[ "$MEMCHECK" = 0 ] || FAILED=1
[ "$RACECHECK" = 0 ] || FAILED=1

# ---- 4. benchmark ------------------------------------------------------------------
BENCH=absent
: >"$OUT/bench.log"
if [ -x "$BUILD/bench/rt_bench" ]; then
    # shellcheck disable=SC2086
    if run_for 240 "$OUT/bench.log" "$BUILD/bench/rt_bench" ${BENCH_ARGS---quick} --json "$OUT/bench.json"; then
        BENCH=OK
    else
        BENCH=FAIL
        FAILED=1
    fi
    if [ -f "$ROOT/bench/compare_torch.py" ]; then
        : >"$OUT/compare.log"
        # shellcheck disable=SC2086
        if run_for 240 "$OUT/compare.log" python3 "$ROOT/bench/compare_torch.py" \
                --lib "$BUILD/libreduce_tensor.so" --bench-json "$OUT/bench.json" \
                --json "$OUT/compare.json" ${COMPARE_ARGS---no-compile}; then
            BENCH="$BENCH, compare OK"
        else
            BENCH="$BENCH, compare FAIL"
            FAILED=1
        fi
    fi
fi

# ---- 5. optional: compat policy, host stages, torch.compile -------------------------
if [ "$BUILD_OK" = OK ] && [ "${BENCH_COMPAT:-0}" = 1 ] && [ -x "$BUILD/bench/rt_bench" ]; then
    run_for 200 "$OUT/bench_compat.log" "$BUILD/bench/rt_bench" ${BENCH_ARGS---quick} --no-check \
        --policy compat --json "$OUT/bench_compat.json" || true
    [ -x "$BUILD/bench/host_bench" ] && run_for 60 "$OUT/bench_compat.log" "$BUILD/bench/host_bench"
fi
if [ "$BUILD_OK" = OK ] && [ "${HOST_BENCH:-0}" = 1 ] && [ -x "$BUILD/bench/host_bench" ]; then
    run_for 90 "$OUT/host_bench.txt" "$BUILD/bench/host_bench" || true
fi
if [ "$BUILD_OK" = OK ] && [ -n "${NCU_FILTER:-}" ] && [ -x "$BUILD/bench/rt_bench" ]; then
    if command -v ncu >/dev/null 2>&1; then
        # ncu flushes the caches before each profiled kernel (its default):
        # cold-code, cold-data GPU times. The ceilings' CUB sum comes first.
        # --clock-control none: the GPU's clocks stay as found (ncu's
        # default locks them to base while it profiles).
        run_for 150 "$OUT/ncu.raw" ncu --clock-control none --csv --metrics gpu__time_duration.sum,sm__cycles_active.max \
            -k "regex:${NCU_KERNELS:-tiny_kernel|reduce_kernel|rows_|SingleTile}" --launch-count 300 \
            "$BUILD/bench/rt_bench" --filter "$NCU_FILTER" --quick --reps 5 --no-check || true
        python3 - "$OUT/ncu.raw" >"$OUT/ncu.txt" <<'PY' || true
import csv, re, sys
rows = {}
for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')):
    if r[0] == "ID":
        head = {k: i for i, k in enumerate(r)}
        continue
    k = int(r[head["ID"]])
    name = re.sub(r"\(.*", "", r[head["Kernel Name"]])[:60]
    d = rows.setdefault(k, {"name": name, "grid": r[head["Grid Size"]],
                            "block": r[head["Block Size"]]})
    d[r[head["Metric Name"]]] = r[head["Metric Value"]]
print("launch kernel grid block gpu_time(ns|us) active_cycles")
for k in sorted(rows):
    d = rows[k]
    print(k, d["name"], d["grid"], d["block"], d.get("gpu__time_duration.sum", "-"),
          d.get("sm__cycles_active.max", "-"))
PY
    else
        echo "gpu-check: ncu not found" >"$OUT/ncu.txt"
    fi
fi
if [ "$BUILD_OK" = OK ] && [ -n "${COMPILE_FILTERS:-}" ] && [ -f "$ROOT/bench/compare_torch.py" ]; then
    : >"$OUT/compile.log"
    # Inductor keeps what it compiles in on-disk caches (one per build
    # folder here): compile the chosen cases first in COMPILE_WARM_JOBS
    # parallel processes (3 reps each, results dropped), so the timed pass
    # below, one case at a time on a quiet GPU, mostly reuses them (about
    # 20 s a case cold). The warm-up keeps no autotuning choice: configs
    # picked while seven other processes share the GPU can be far off (H100,
    # Inductor's bf16 row sum 125.9 us in one such run, 89.3 in another).
    export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-$BUILD/inductor-cache}
    jobs=${COMPILE_WARM_JOBS:-8}
    if [ "$jobs" -gt 0 ] && [ -f "$OUT/bench.json" ]; then
        mapfile -t slices < <(python3 - "$OUT/bench.json" "$jobs" $COMPILE_FILTERS <<'PY'
import json, sys
names = [c["name"] for c in json.load(open(sys.argv[1]))["cases"]]
jobs = int(sys.argv[2])
subs = [f for arg in sys.argv[3:] for f in arg.split(",") if f]
pick = [n for n in names if any(f in n for f in subs)]
for i in range(jobs):
    if pick[i::jobs]:
        print(",".join(pick[i::jobs]))
PY
        )
        for sl in "${slices[@]}"; do
            run_for 300 "$OUT/compile_warm.log" python3 "$ROOT/bench/compare_torch.py" \
                --lib "$BUILD/libreduce_tensor.so" --bench-json "$OUT/bench.json" \
                --filter "$sl" --reps 3 --warmup 1 --passes 1 --no-autotune-cache &
        done
        wait
    fi
    parts=()
    COMPILE_FAILED=()
    for f in $COMPILE_FILTERS; do
        j="$OUT/compile_part_${#parts[@]}.json"
        if run_for 540 "$OUT/compile.log" python3 "$ROOT/bench/compare_torch.py" \
                --lib "$BUILD/libreduce_tensor.so" --bench-json "$OUT/bench.json" --json "$j" \
                --filter "$f" ${COMPILE_ARGS:-}; then
            parts+=("$j")
        else
            COMPILE_FAILED+=("$f")
        fi
    done
    # A filter whose process failed or was cut short by the deadline (the
    # log says which) fails the check, as any stage does.
    if [ ${#COMPILE_FAILED[@]} -eq 0 ]; then
        n=${#parts[@]}
        COMPILE="OK ($n filter$([ "$n" -eq 1 ] || echo s))"
    else
        COMPILE="FAIL (failed or cut short: ${COMPILE_FAILED[*]}; compile.log)"
        FAILED=1
    fi
    # One JSON of every part's cases, so the files that come back stay few.
    python3 - "$OUT/compile.json" "${parts[@]}" <<'PY' || true
import json, sys
out, parts = sys.argv[1], sys.argv[2:]
merged = None
for p in parts:
    d = json.load(open(p))
    if merged is None:
        merged = d
    else:
        merged["cases"] += d.get("cases", [])
json.dump(merged or {}, open(out, "w"), indent=1)
PY
    rm -f "$OUT"/compile_part_*.json
fi
# The device tool brings back 8 files: pack the secondary logs into one.
(cd "$OUT" && tar czf logs.tgz --remove-files $(ls build.log memcheck.log racecheck.log \
    bench_compat.log bench_compat.json compile_warm.log ncu.raw 2>/dev/null)) || true

# ---- summary (last) -------------------------------------------------------------------
TOTAL_SECS=$(($(date +%s) - START))
{
    echo
    echo "================ gpu-check summary ================"
    printf '%-22s %s\n' "GPU" "$GPU_NAME (sm_$CAP)"
    printf '%-22s %s\n' "build" "$BUILD_OK (${BUILD_SECS}s)"
    printf '%-22s %s\n' "tests" "$CTEST_STATUS: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped ($GPU_SKIP GPU tests skipped)"
    printf '%-22s %s\n' "memcheck errors" "$MEMCHECK (RT_TEST_CASES=$SAN_CASES)"
    printf '%-22s %s\n' "racecheck errors" "$RACECHECK (RT_TEST_CASES=$SAN_CASES)"
    printf '%-22s %s\n' "bench" "$BENCH"
    [ -n "${COMPILE:-}" ] && printf '%-22s %s\n' "torch.compile" "$COMPILE"
    printf '%-22s %s\n' "total time" "${TOTAL_SECS}s"
    printf '%-22s %s\n' "logs" "$OUT"
    if [ "$FAILED" -eq 0 ]; then echo "RESULT: PASS"; else echo "RESULT: FAIL"; fi
}
exit "$FAILED"
