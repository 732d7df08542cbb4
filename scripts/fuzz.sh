#!/usr/bin/env bash
# Builds the libFuzzer harnesses (build-fuzz/, clang, ASan+UBSan) and runs
# each for SECONDS (default 60), one at a time. Seeds come from the shared
# corpus (copied into build-fuzz/corpus/<harness>/, never into the repo);
# crash, leak, timeout and OOM inputs are copied into
# tests/fuzz/regressions/<harness>/, where the fuzz_replay_<harness> ctest
# replays them in every build.
#
# Exit status: 0 when no harness crashed, leaked, timed out or ran out of
# memory; 1 when one did (its input is saved as above) or a run failed.
#
# usage: scripts/fuzz.sh [SECONDS] [HARNESS...]
#   env: PTERA_CORPUS_DIR (default ../shared/corpus), FUZZ_JOBS (build jobs),
#        FUZZ_TIMEOUT (seconds one input may take: default 10, 30 for
#        load_execute and compile, which run whole programs; a slower input
#        is a finding), FUZZ_SEED (libFuzzer's -seed: unset picks a random
#        seed per run; a fixed seed makes a run repeat the same inputs in the
#        same order, so a finding in CI's smoke run reproduces anywhere by
#        running as long with that seed), FUZZ_RUNS (inputs per harness
#        instead of a time budget, e.g. "200000 load_execute=1000": a default
#        count, then HARNESS=COUNT overrides; SECONDS still caps each run.
#        With FUZZ_SEED this makes a run exactly repeatable)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(pte ptd bpte npy load_execute ptg compile xnngraph xnn_delegate)
corpus=${PTERA_CORPUS_DIR:-$root/../shared/corpus}
build=$root/build-fuzz
jobs=${FUZZ_JOBS:-2}

# -O1: at -O0 a legal but large kernel (a quantized conv the fuzzer grew to
# the harness's size limits) took over 10 s per input under ASan; -O1 is
# what libFuzzer's documentation builds with.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_C_COMPILER=clang \
  -DPTERA_FUZZ=ON -DPTERA_SANITIZE=OFF -DPTERA_BUILD_TESTS=ON -DPTERA_CORPUS_DIR="$corpus" >/dev/null ||
  exit 1
cmake --build "$build" -j "$jobs" --target fuzzers xnn_runner || exit 1

# ---- seeds ---------------------------------------------------------------
seed() { # harness, files...
  local d=$build/corpus/$1
  shift
  mkdir -p "$d"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$d/" 2>/dev/null; done
  return 0
}
# A program and its .ptd in one input: "PTFZ" + u32 LE size + .pte + .ptd
# (the format fuzz_load_execute.c reads).
pair() { # out, pte, ptd
  [ -f "$2" ] && [ -f "$3" ] || return 0
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
pte = open(sys.argv[2], 'rb').read()
ptd = open(sys.argv[3], 'rb').read()
open(sys.argv[1], 'wb').write(b'PTFZ' + struct.pack('<I', len(pte)) + pte + ptd)
PY
}
shopt -s nullglob globstar
seed pte "$corpus"/pte/*.pte
seed ptd "$corpus"/pte/*.ptd
seed bpte "$corpus"/pte/*.bpte
seed npy "$corpus"/expected/**/*.npy
seed load_execute "$corpus"/pte/*.pte
p=$corpus/pte
mkdir -p "$build/corpus/load_execute"
pair "$build/corpus/load_execute/pair_data_map" "$p/barakugav+executorch-rs__examples_data_map_model_model.pte" \
  "$p/barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd"
pair "$build/corpus/load_execute/pair_xor" \
  "$p/pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.pte" \
  "$p/pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.ptd"
pair "$build/corpus/load_execute/pair_linear" "$p/pytorch+executorch__extension_module_test_resources_linear.pte" \
  "$p/pytorch+executorch__extension_module_test_resources_linear.ptd"
# The XNNPACK harnesses start from the delegate blobs inside the corpus
# programs (tests/fuzz/xnn_seeds.py extracts them).
mkdir -p "$build/corpus/xnngraph" "$build/corpus/xnn_delegate"
python3 "$root/tests/fuzz/xnn_seeds.py" "$build/corpus/xnngraph" "$corpus"/pte/*.pte
# ... and from one generated blob per node type x datatype (tests/xnn/gen.py
# cases written by xnn_runner), so every node family is reached.
if python3 -c 'import numpy, torch' 2>/dev/null &&
  python3 "$root/tests/xnn/gen.py" "$build/xnn_cases" >/dev/null; then
  "$build/xnn_runner" "$build/xnn_cases/cases.txt" "$build/xnn_cases/data.bin" "$build/corpus/xnngraph" >/dev/null
fi
seed xnn_delegate "$build"/corpus/xnngraph/*
# The compiler harness also starts from the reader's .ptg seeds.
seed compile "$root"/tests/fuzz/regressions/ptg/*
# Regressions are seeds too: the fuzzer starts from what once broke.
for h in "${harnesses[@]}"; do seed "$h" "$root"/tests/fuzz/regressions/"$h"/*; done

# ---- run -----------------------------------------------------------------
total=0
status=0
declare -A execs found
for h in "${harnesses[@]}"; do
  bin=$build/fuzz_$h
  art=$build/artifacts/$h/
  rm -rf "$art" # only this run's findings count below
  mkdir -p "$art" "$root/tests/fuzz/regressions/$h"
  execs[$h]=0
  bad=0
  found[$h]=0
  end=$((SECONDS + secs))
  tries=0
  tmo=${FUZZ_TIMEOUT:-10}
  runs=
  for r in ${FUZZ_RUNS:-}; do
    case $r in
      "$h"=*) runs=${r#*=} ;;
      *=*) ;;
      *) [ -z "$runs" ] && runs=$r ;;
    esac
  done
  runopt=()
  [ -n "$runs" ] && runopt=("-runs=$runs")
  [ -z "${FUZZ_TIMEOUT:-}" ] && { [ "$h" = load_execute ] || [ "$h" = compile ]; } && tmo=30
  # A crash stops libFuzzer; restart (at most 5 times) to use the time left.
  while [ $((end - SECONDS)) -gt 0 ] && [ $tries -lt 5 ]; do
    tries=$((tries + 1))
    seedopt=() # a restart after a finding goes on with the next seed
    [ -n "${FUZZ_SEED:-}" ] && seedopt=("-seed=$((FUZZ_SEED + tries - 1))")
    log=$build/fuzz_$h.$tries.log
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$bin" "$build/corpus/$h" -max_total_time=$((end - SECONDS)) -timeout="$tmo" -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$art" "${seedopt[@]}" "${runopt[@]}" >"$log" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -z "$n" ] && n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    execs[$h]=$((${execs[$h]} + ${n:-0}))
    [ $rc -eq 0 ] && break
    bad=$((bad + 1))
    echo "fuzz_$h: stopped with status $rc (log: $log)"
    grep -m3 -E 'ERROR: |invariant broken|runtime error' "$log" | sed 's/^/    /'
  done
  for f in "$art"crash-* "$art"leak-* "$art"timeout-* "$art"oom-* "$art"slow-unit-*; do
    [ -f "$f" ] || continue
    case $(basename "$f") in slow-unit-*) continue ;; esac
    echo "fuzz_$h: FOUND $(basename "$f")"
    dst=$root/tests/fuzz/regressions/$h/$(basename "$f")
    if [ ! -f "$dst" ]; then
      cp "$f" "$dst"
      found[$h]=$((${found[$h]} + 1))
      echo "fuzz_$h: saved $dst"
    fi
  done
  printf 'fuzz_%-13s %10d execs in %ss, %d new regression input(s)\n' "$h" "${execs[$h]}" "$((SECONDS - end + secs))" "${found[$h]}"
  total=$((total + ${execs[$h]}))
  if [ $bad -gt 0 ]; then
    echo "fuzz_$h: FAILED ($bad run(s) stopped on a finding or an error)"
    status=1
  fi
done
echo "total: $total execs over ${#harnesses[@]} harness(es)"
[ $status -eq 0 ] || echo "fuzz: FAILED (see above; inputs are in tests/fuzz/regressions/)"
exit $status
