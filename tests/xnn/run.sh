#!/bin/sh
# Generates the XNNPACK node cases with PyTorch, then runs them.
# Usage: run.sh PYTHON RUNNER OUT_DIR
set -e
"$1" "$(dirname "$0")/gen.py" "$3"
exec "$2" "$3/cases.txt" "$3/data.bin"
