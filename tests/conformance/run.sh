#!/bin/sh
# Generates the conformance cases (needs torch) and runs them.
# usage: run.sh PYTHON RUNNER OUT_DIR [runner options]
set -eu
py=$1; runner=$2; out=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
  echo "FAIL: $py cannot import torch; the conformance test needs Debian's python3-torch" >&2
  echo "      (apt-get install python3-torch, or scripts/deps.sh)" >&2
  exit 1
fi
rm -rf "$out"
"$py" "$here/gen.py" "$out"
exec "$runner" "$out" "$here/ops_list.txt" "$@"
