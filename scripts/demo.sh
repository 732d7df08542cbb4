#!/usr/bin/env bash
# Builds ptera and runs the model the project ships: a small CNN trained on
# scikit-learn's handwritten digits (examples/digits), on the held-out image
# of a 3. Prints the class probabilities and the top classes.
# Usage: scripts/demo.sh [IMAGE.npy] [ptera run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
image=examples/digits/digit_3.npy
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then image=$1; shift; fi
./build/ptera run examples/digits/digits.pte --input "$image" "$@"
