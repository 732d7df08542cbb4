#!/bin/sh
# The XNNPACK delegate against the portable fast path on the same shapes:
# FullyConnected 1024x1024 (batch 1024) and Conv2d 3x3 64->64 on 56x56.
# The delegate files come from xnn_speed_gen (the XNNGraph writer), their
# portable twins from ptera's front end (bench/xnn_speed_models.py, --ops
# ptera). Each pair is timed with `ptera bench` back to back, alternating,
# ROUNDS times; the figure is the median of the rounds' medians, and the
# ratio delegate/portable (about 1: both run the same GEMM kernels).
#
# Usage: sh bench/xnn_speed.sh [BUILD_DIR] [THREADS...]
#   BUILD_DIR  default build (needs ptera and xnn_speed_gen built)
#   THREADS    default "1 2"
# Env: PYTHON (with torch; default /usr/bin/python3), ROUNDS (default 5),
#      RUNS (timed executions per round, default 10), WORK (default a temp dir).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
[ $# -gt 0 ] && shift
threads=${*:-1 2}
py=${PYTHON:-/usr/bin/python3}
rounds=${ROUNDS:-5}
runs=${RUNS:-10}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
"$build/xnn_speed_gen" "$work"
for m in fc conv; do
  PYTHONPATH="$root/python:$root" "$py" -m ptera.export "bench.xnn_speed_models:$m" "$work/${m}_portable.pte" \
    --ops ptera --ptera "$build/ptera" >/dev/null
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ms() { "$build/ptera" bench "$1" --threads "$2" --warmup 2 --runs "$runs" --random 1 --json |
       sed 's/.*"median_ms": *\([0-9.eE+-]*\).*/\1/'; }
printf '%-6s %-8s %14s %14s %8s\n' model threads delegate_ms portable_ms ratio
for t in $threads; do
  for m in fc conv; do
    : >"$work/x" && : >"$work/p"
    i=0
    while [ $i -lt "$rounds" ]; do
      ms "$work/${m}_xnn.pte" "$t" >>"$work/x"
      ms "$work/${m}_portable.pte" "$t" >>"$work/p"
      i=$((i + 1))
    done
    x=$(median <"$work/x")
    p=$(median <"$work/p")
    printf '%-6s %-8s %14.3f %14.3f %8.3f\n' "$m" "$t" "$x" "$p" "$(echo "$x $p" | awk '{print $1 / $2}')"
  done
done
