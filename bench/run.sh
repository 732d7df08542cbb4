#!/usr/bin/env bash
# The CPU benchmark (not part of the test suite): ptera against PyTorch eager
# and ONNX Runtime on the same models, inputs and thread counts. See
# bench/README.md for what the figures mean.
#
#   bash bench/run.sh [--threads N] [--models a,b] [--runs N] [--rounds R] [--warmup N] [--work DIR]
#
# Builds ptera (Release, build-release/), exports the models (bench/export.py:
# .pte with ptera's front end, .onnx with torch.onnx from the same modules and
# weights), installs onnxruntime-node 1.30 with npm into the cache
# (${PTERA_BENCH_CACHE:-~/.cache/ptera-bench}, outside the repository), measures
# the FP32 FMA peak (bench/gemm_bench.c), then times every model on each runtime
# in its own process (ptera bench --json; bench/torch_bench.py;
# bench/ort_bench.js) in R rounds (default 3): each round runs every thread
# count on every runtime, a share of the timed calls each, so the figures a
# ratio compares come from the same stretches of a host whose speed drifts.
# Prints the table (bench/report.py) from all rounds' calls together.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
CACHE=${PTERA_BENCH_CACHE:-$HOME/.cache/ptera-bench}
ORT_VERSION=1.30.0
ALL=mobilenet_v2,resnet18,transformer_encoder,mlp,llama_step,llama_step_8da4w,sgemm512,sgemm1024,gemv4096
THREADS="1 2" MODELS=$ALL RUNS=20 ROUNDS=3 WARMUP=3 WORK=""

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) [ $# -ge 2 ] || usage; THREADS=$2; shift 2 ;;
    --models) [ $# -ge 2 ] || usage; MODELS=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || usage; ROUNDS=$2; shift 2 ;;
    --warmup) [ $# -ge 2 ] || usage; WARMUP=$2; shift 2 ;;
    --work) [ $# -ge 2 ] || usage; WORK=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "bench/run.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
THREADS=${THREADS//,/ }
case "$RUNS$WARMUP$ROUNDS" in *[!0-9]*) echo "bench/run.sh: --runs/--rounds/--warmup take numbers" >&2; exit 2 ;; esac
[ "$ROUNDS" -ge 1 ] && [ "$RUNS" -ge 1 ] || { echo "bench/run.sh: --runs and --rounds are at least 1" >&2; exit 2; }
# the timed calls of each round (all rounds together: at least --runs)
PER_ROUND=$(( (RUNS + ROUNDS - 1) / ROUNDS ))
for t in $THREADS; do
  case "$t" in ''|*[!0-9]*|0) echo "bench/run.sh: bad thread count '$t'" >&2; exit 2 ;; esac
done
[ "$RUNS" -ge 20 ] || echo "bench/run.sh: note: --runs $RUNS is under the 20 timed calls the figures are meant for" >&2
WORK=${WORK:-$CACHE/run}
mkdir -p "$WORK/res"
rm -f "$WORK"/res/*

command -v node >/dev/null || { echo "bench/run.sh: needs node and npm (apt-get install nodejs npm)" >&2; exit 1; }
"$PY" -c 'import onnx' 2>/dev/null || { echo "bench/run.sh: needs python3-onnx (apt-get install python3-onnx)" >&2; exit 1; }
# Debian's torch calls whatever libblas.so.3 resolves to, by default the
# netlib reference BLAS; the PyTorch figures use OpenBLAS (its pthread
# build), for this run's torch processes only.
OPENBLAS=/usr/lib/$(gcc -print-multiarch)/openblas-pthread
[ -f "$OPENBLAS/libblas.so.3" ] || { echo "bench/run.sh: needs OpenBLAS for PyTorch (apt-get install libopenblas0-pthread)" >&2; exit 1; }

echo "== build (Release)"
cmake -S "$REPO" -B "$REPO/build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTERA_BUILD_TESTS=OFF >/dev/null
cmake --build "$REPO/build-release" >/dev/null
PTERA=$REPO/build-release/ptera

# The FP32 FMA peak and the memory read bandwidth per thread count:
# gemm_bench's register-only loop and its plain read loop over 64 MiB (it
# also times ptera's GEMM layer alone; its whole output is kept).
MAXT=$(printf '%s\n' $THREADS | sort -n | tail -1)
echo "== FMA peak (gemm_bench $MAXT)"
"$REPO/build-release/gemm_bench" "$MAXT" > "$WORK/res/gemm_bench.txt"
awk -v dir="$WORK/res" '
  /^gemm_bench: ISA/ { isa = $3; sub(",", "", isa) }
  /^threads [0-9]+:/ { t = $2; sub(":", "", t) }
  /FMA peak, registers only/ {
    for (i = 1; i <= NF; i++) if ($i == "GFLOP/s") g = $(i - 1)
  }
  /memory read loop/ {
    for (i = 1; i <= NF; i++) if ($i == "GB/s") r = $(i - 1)
    printf "{\"isa\": \"%s\", \"threads\": %s, \"gflops\": %s, \"read_gbs\": %s}\n", isa, t, g, r > (dir "/peak." t ".json")
  }' "$WORK/res/gemm_bench.txt"

echo "== onnxruntime-node $ORT_VERSION (in $CACHE)"
have=$(node -e "try{console.log(require('$CACHE/node_modules/onnxruntime-node/package.json').version)}catch(e){}")
if [ "$have" != "$ORT_VERSION" ]; then
  # The package bundles the CPU libraries; its install script would only
  # fetch GPU ones.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$CACHE" --no-audit --no-fund --ignore-scripts \
    "onnxruntime-node@$ORT_VERSION" >/dev/null
fi

echo "== export ($MODELS)"
"$PY" "$REPO/bench/export.py" "$WORK" --models "$MODELS" --ptera "$PTERA" | grep -v '^  \[.*\] wrote' || true

HAVE_BENCH=1
"$PTERA" bench --help >/dev/null 2>&1 || HAVE_BENCH=0
[ $HAVE_BENCH = 1 ] || echo "bench/run.sh: this ptera has no 'bench' command: its column stays empty" >&2

inputs() { local d=$1 k=0; while [ -f "$d/input_$k.npy" ]; do printf -- '--input\n%s\n' "$d/input_$k.npy"; k=$((k + 1)); done; }

# Each runtime's outputs once, for the error column.
for m in ${MODELS//,/ }; do
  d=$WORK/$m
  mapfile -t in < <(inputs "$d")
  rm -rf "$d/ptera_out" "$d/ort_out"
  "$PTERA" run "$d/model.pte" "${in[@]}" --output-dir "$d/ptera_out" --show 0 --top 0 >/dev/null \
    2>"$WORK/res/$m.ptera.outputs.err" || true
done

# Model by model, in rounds, every thread count and runtime back to back in
# each: a speed-up (1 thread against 2) and a ratio between runtimes compare
# calls taken in the same rounds, within seconds of each other, on a host
# whose speed drifts.
for m in ${MODELS//,/ }; do
  echo "== $m"
  d=$WORK/$m
  mapfile -t in < <(inputs "$d")
  for k in $(seq "$ROUNDS"); do
    for t in $THREADS; do
      r=$WORK/res/$m
      export OMP_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t MKL_NUM_THREADS=$t
      if [ $HAVE_BENCH = 1 ]; then
        "$PTERA" bench "$d/model.pte" "${in[@]}" --threads "$t" --warmup "$WARMUP" --runs "$PER_ROUND" \
          --json > "$r.ptera.$t.$k.json" 2> "$r.ptera.$t.$k.err" || true
      else
        echo "ptera has no bench command" > "$r.ptera.$t.$k.err"
      fi
      LD_LIBRARY_PATH=$OPENBLAS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        "$PY" "$REPO/bench/torch_bench.py" "$d" --threads "$t" --warmup "$WARMUP" --runs "$PER_ROUND" \
        > "$r.torch.$t.$k.json" 2> "$r.torch.$t.$k.err" || true
      if [ -f "$d/model.onnx" ]; then
        out=$d/ort_out # the first call's outputs, for the error column
        [ ! -d "$out" ] || out=$d/ort_out_later
        node "$REPO/bench/ort_bench.js" "$CACHE" "$d" "$out" "$t" "$WARMUP" "$PER_ROUND" \
          > "$r.ort.$t.$k.json" 2> "$r.ort.$t.$k.err" || true
      else
        "$PY" -c 'import json,sys; print("no ONNX file:", json.load(open(sys.argv[1]))["onnx_error"])' \
          "$d/meta.json" > "$r.ort.$t.$k.err"
      fi
      for rt in ptera torch ort; do [ -s "$r.$rt.$t.$k.err" ] || rm -f "$r.$rt.$t.$k.err"; done
    done
    echo "   round $k of $ROUNDS done"
  done
done

echo
"$PY" "$REPO/bench/report.py" "$WORK" --models "$MODELS" --threads "${THREADS// /,}" --rounds "$ROUNDS" \
  --json "$WORK/results.json"
echo "(figures in $WORK/results.json; ptera's GEMM layer alone: $WORK/res/gemm_bench.txt)"
