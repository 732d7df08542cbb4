#!/usr/bin/env bash
# ThreadSanitizer over the threaded code: the thread-pool test (coverage,
# reuse, nested and concurrent loops, destroy), test_kernel_lifecycle
# (two methods sharing one pool, executed from two threads at once) and
# test_thread_contract (ptera/ptera.h's contract: one program shared by four
# threads creating and running their own methods). Builds
# the library and those two tests with clang -fsanitize=thread in
# build-tsan; the runs take seconds. Any report fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
  -DCMAKE_C_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build build-tsan -j "$jobs" --target test_threadpool test_kernel_lifecycle test_thread_contract
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
# TSan (clang 14) cannot map its shadow with a high ASLR entropy: run without
# randomisation where setarch allows it.
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then run=(setarch "$(uname -m)" -R); fi
"${run[@]}" build-tsan/test_threadpool
"${run[@]}" build-tsan/test_kernel_lifecycle
"${run[@]}" build-tsan/test_thread_contract "${PTERA_CORPUS_DIR:-../shared/corpus}"
echo "tsan: no data races"
