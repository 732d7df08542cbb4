#!/usr/bin/env bash
# Builds ptera and runs a model: the add model ExecuTorch ships in its
# examples, from the shared corpus (x + 1.0 for x of shape [1]).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
model=../shared/corpus/pte/pytorch+executorch__examples_arduino_examples_AddModel_model.pte
./build/ptera inspect "$model"
./build/ptera run "$model" --random 7 "$@"
