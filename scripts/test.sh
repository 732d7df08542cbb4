#!/usr/bin/env bash
# Builds ptera and runs every test: the default build, then the whole suite
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then under
# valgrind memcheck (any invalid access or definite/indirect leak fails), and
# last a fuzz smoke run (scripts/fuzz.sh, FUZZ_SECONDS per harness, default
# 60; 0 skips it) that fails on any crash.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_secs=${FUZZ_SECONDS:-60}

times=()
stage_start=$SECONDS
stage() { # name: closes the running stage
  times+=("$(printf '%-28s %4ds' "$1" $((SECONDS - stage_start)))")
  stage_start=$SECONDS
}
report() {
  echo "---- test.sh stage times"
  printf '  %s\n' "${times[@]}"
  echo "  total                        ${SECONDS}s"
}
trap report EXIT

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

# Valgrind: every test executable runs under memcheck (CMake puts the
# emulator before each test that is a built target), and the corpus driver
# runs every `ptera run` under it too (PTERA_RUN_PREFIX). Exit status 99 is
# valgrind's; it fails the test whatever the test expected.
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
  --show-leak-kinds=definite,indirect)
vg_list=$(
  IFS=';'
  echo "${vg[*]}"
)
cmake -S . -B build-valgrind -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$vg_list"
cmake --build build-valgrind -j "$jobs"
stage "build (valgrind)"
(cd build-valgrind && PTERA_RUN_PREFIX="${vg[*]}" ctest --output-on-failure -j "$jobs")
stage "ctest (valgrind)"

if [ "$fuzz_secs" -gt 0 ]; then
  FUZZ_JOBS=$jobs bash scripts/fuzz.sh "$fuzz_secs"
  stage "fuzz smoke (${fuzz_secs}s/harness)"
fi
