#!/usr/bin/env bash
# Line coverage of src/format/*.c and src/runtime/*.c reached by the fuzz
# corpus: builds fuzz_replay (the harnesses' entry functions behind a plain
# main, no libFuzzer) with clang source-based coverage in build-cov/, replays
# every input of build-fuzz/corpus/<harness>/ (seeds plus what the fuzzer
# kept; run scripts/fuzz.sh first) and tests/fuzz/regressions/<harness>/,
# merges the profiles and prints llvm-cov's report.
#
# usage: scripts/fuzz_coverage.sh [HARNESS...]
#   env: FUZZ_JOBS (build jobs, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(pte ptd bpte npy load_execute)
build=$root/build-cov
jobs=${FUZZ_JOBS:-2}

tool() { # llvm-profdata / llvm-cov matching clang 14 (Debian 12: llvm-14)
  for t in "$1-14" "$1"; do
    if command -v "$t" >/dev/null; then
      echo "$t"
      return
    fi
  done
  echo "fuzz_coverage: $1 not found (apt-get install llvm-14)" >&2
  exit 1
}
profdata=$(tool llvm-profdata)
cov=$(tool llvm-cov)

if [ ! -d "$root/build-fuzz/corpus" ]; then
  echo "fuzz_coverage: no build-fuzz/corpus; run scripts/fuzz.sh first" >&2
  exit 1
fi

flags="-O0 -g -fprofile-instr-generate -fcoverage-mapping"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
  -DCMAKE_C_FLAGS_DEBUG="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" \
  -DPTERA_SANITIZE=OFF -DPTERA_FUZZ=OFF -DPTERA_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j "$jobs" --target fuzz_replay

rm -rf "$build/profiles"
mkdir -p "$build/profiles"
for h in "${harnesses[@]}"; do
  for dir in "$root/build-fuzz/corpus" "$root/tests/fuzz/regressions"; do
    [ -d "$dir/$h" ] || continue
    n=$(find "$dir/$h" -maxdepth 1 -type f | wc -l)
    tag=$(basename "$dir")
    echo "replaying $n input(s) of $h from ${dir#"$root"/}/$h"
    # A failed replay (broken invariant) still leaves a profile for the
    # inputs before it; the fuzzer and the replay ctest report it.
    LLVM_PROFILE_FILE="$build/profiles/$h-$tag-%p.profraw" \
      "$build/fuzz_replay" "$h" "$dir" >"$build/replay-$h-$tag.log" 2>&1 ||
      echo "  (fuzz_replay $h exited non-zero; see $build/replay-$h-$tag.log)"
  done
done
"$profdata" merge -sparse "$build"/profiles/*.profraw -o "$build/fuzz.profdata"
shopt -s nullglob
"$cov" report "$build/fuzz_replay" -instr-profile="$build/fuzz.profdata" \
  "$root"/src/format/*.c "$root"/src/runtime/*.c
