#!/usr/bin/env bash
# Builds ptera and runs every test: the default build, then the whole suite
# again under AddressSanitizer + UndefinedBehaviorSanitizer. The slower deep
# checks (valgrind, fuzz smoke) are scripts/test_deep.sh; CI runs both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

source scripts/stages.sh

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs"
stage "build (gcc)"
(cd build && ctest --output-on-failure -j "$jobs")
stage "ctest (gcc)"

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DPTERA_SANITIZE=ON
cmake --build build-asan -j "$jobs"
stage "build (asan+ubsan)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$jobs")
stage "ctest (asan+ubsan)"

