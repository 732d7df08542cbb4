#!/usr/bin/env bash
# Builds ptera and runs the model the project ships: a small CNN trained on
# scikit-learn's handwritten digits (examples/digits), on the held-out image
# of a 3. Prints the class probabilities and the top classes. Needs only a C
# toolchain, CMake and Ninja (scripts/deps.sh demo); the library and CLI are
# built without the test suite, in build-demo/.
# Usage: scripts/demo.sh [IMAGE.npy] [ptera run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh demo
cmake -S . -B build-demo -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTERA_BUILD_TESTS=OFF -DPTERA_BUILD_COMPILER=OFF >/dev/null
cmake --build build-demo -j "$(nproc 2>/dev/null || echo 2)" --target ptera >/dev/null
image=examples/digits/digit_3.npy
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then image=$1; shift; fi
./build-demo/ptera run examples/digits/digits.pte --input "$image" "$@"
