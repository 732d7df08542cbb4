#!/usr/bin/env bash
# The deep checks CI runs after scripts/test.sh: the whole ctest suite under
# valgrind memcheck (any invalid access or definite/indirect leak fails),
# ThreadSanitizer over the threaded tests (scripts/tsan.sh), then a fuzz
# smoke run (scripts/fuzz.sh; FUZZ_SECONDS caps each harness, default 180;
# 0 skips it) that fails on any crash. The smoke run is exactly repeatable: a fixed
# seed (FUZZ_SEED, default 1) and a fixed number of inputs per harness
# (FUZZ_RUNS, default below, about 20 s each in CI), so a clean run here is
# a clean run in CI and a finding reproduces anywhere. Open-ended fuzzing
# with fresh seeds is scripts/fuzz.sh on its own. About 12 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_secs=${FUZZ_SECONDS:-180}
source scripts/stages.sh

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

# ThreadSanitizer over the thread pool and threaded method execution.
bash scripts/tsan.sh
stage "tsan"

if [ "$fuzz_secs" -gt 0 ]; then
  FUZZ_JOBS=$jobs FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_RUNS=${FUZZ_RUNS:-"500000 load_execute=600 compile=100000"} \
    bash scripts/fuzz.sh "$fuzz_secs"
  stage "fuzz smoke"
fi
