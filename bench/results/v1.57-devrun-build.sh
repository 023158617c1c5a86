#!/bin/bash
# Builds the package that results/v1.57-devrun.sh runs, into .devrun/ of
# the checkout (git ignores nothing there: delete it before committing).
# Usage, from the repository root: bash bench/results/v1.57-devrun-build.sh
# Needs nvcc, cmake, xz, and cmocka at ./.cmocka (include/, lib/) or
# CMOCKA_ROOT. About 15 minutes on 2 cores; the package is ~32 MiB.
#   1. the tree at HEAD with results/v1.56-vector-rows.patch applied and
#      rows_vector's bandwidth gate removed (the rule fires on any GPU);
#   2. libreduce_tensor.so, rt_bench and test_reduce_cuda (sm_90, Release);
#   3. rt_bench and test_reduce_cuda relinked against the .so (rpath
#      $ORIGIN) so that the package carries one copy of the kernels;
#   4. rows_probe, the .so (xz), libcmocka.so.0 and the run script.
set -euo pipefail
ROOT=$(pwd)
CM=${CMOCKA_ROOT:-$ROOT/.cmocka}
SRC=$(mktemp -d /tmp/devrun-src.XXXX)
BLD=$(mktemp -d /tmp/devrun-build.XXXX)
trap 'rm -rf "$SRC" "$BLD"' EXIT
git archive HEAD | tar -x -C "$SRC"
(cd "$SRC" && git apply "$ROOT/bench/results/v1.56-vector-rows.patch")
sed -i 's/|| dev->mem_gbps <= RT__H100_CLASS_MAX_GBPS ||/|| dev->mem_gbps <= 0 ||/' \
    "$SRC/src/config/tuned_rows.c"
grep -q "VECTOR_ROWS) || dev->mem_gbps <= 0 ||" "$SRC/src/config/tuned_rows.c"
cmake -S "$SRC" -B "$BLD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMOCKA_INCLUDE_DIR="$CM/include" -DCMOCKA_LIBRARY="$CM/lib/libcmocka.so" >/dev/null
make -C "$BLD" -j"$(nproc)" reduce_tensor rt_bench test_reduce_cuda >/dev/null
CUDART=/usr/local/cuda/lib/libcudart_static.a
(cd "$BLD/bench" && g++ $(cat CMakeFiles/rt_bench.dir/objects1) -o rt_bench_dyn \
    ../libreduce_tensor.so -Wl,-rpath,'$ORIGIN' $CUDART -ldl -lm -lrt -lpthread)
(cd "$BLD/tests" && g++ $(cat CMakeFiles/test_reduce_cuda.dir/objects1) -o test_reduce_cuda_dyn \
    librt_test_support.a ../libreduce_tensor.so "$CM/lib/libcmocka.so" -Wl,-rpath,'$ORIGIN' \
    $CUDART -ldl -lm -lrt -lpthread)
nvcc -O3 -arch=sm_90 -o "$BLD/rows_probe" "$SRC/bench/rows_probe.cu"
D=$ROOT/.devrun
rm -rf "$D" && mkdir -p "$D"
cp "$BLD/bench/rt_bench_dyn" "$D/rt_bench"
cp "$BLD/tests/test_reduce_cuda_dyn" "$D/test_reduce_cuda"
cp -L "$CM/lib/libcmocka.so.0" "$D/libcmocka.so.0"
xz -T0 -6 -c "$BLD/libreduce_tensor.so" >"$D/libreduce_tensor.so.xz"
xz -c "$BLD/rows_probe" >"$D/rows_probe.xz"
cp "$ROOT/bench/results/v1.57-devrun.sh" "$D/run.sh"
du -sh "$D"
