#!/usr/bin/env bash
# The micro-kernel tests on AArch64: cross-builds them with aarch64-linux-gnu-gcc
# (cmake/aarch64-linux-gnu.cmake) and runs them under qemu-aarch64, so the NEON
# kernels are checked on an x86-64 CI machine. Only the library and the listed
# tests are built (every fast path checked against its portable kernel with
# each ISA forced); add a micro-kernel test to `tests` below to run it here.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
source scripts/stages.sh

tests=(test_isa test_gemm test_conv_fast test_pool_fast test_vmath test_fast_f32 test_matmul_fast
       test_batch_norm_fast test_copy_fast test_transpose_fast test_evens_fast test_fuse_bmm test_fuse_softmax
       test_fuse_rmsnorm)

cmake -S . -B build-neon -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTERA_BUILD_TESTS=ON
cmake --build build-neon -j "$jobs" --target "${tests[@]}"
stage "build (aarch64 cross)"
regex="^($(
  IFS='|'
  echo "${tests[*]}"
))\$"
(cd build-neon && ctest --output-on-failure -R "$regex")
stage "ctest (qemu-aarch64)"
