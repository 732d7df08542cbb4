#!/bin/sh
# Prints the conformance coverage report (OPS.md sections 1-3): builds the
# runner if needed, generates the cases with Debian's python3-torch, runs them.
# usage: scripts/conformance.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -G Ninja >/dev/null
cmake --build "$build" --target conformance_runner >/dev/null
sh "$root/tests/conformance/run.sh" /usr/bin/python3 "$build/conformance_runner" "$build/conformance" --report-only
