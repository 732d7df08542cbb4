#!/bin/sh
# Generates the XNNPACK node cases with PyTorch, then runs them, once more
# on the scalar micro-kernels (PTERA_ISA=scalar) and once without the ISA
# extensions (PTERA_ISA_EXT=none: no VNNI / DotProd kernels).
# Usage: run.sh PYTHON RUNNER OUT_DIR
set -e
"$1" "$(dirname "$0")/gen.py" "$3"
PTERA_ISA=scalar "$2" "$3/cases.txt" "$3/data.bin" >"$3/scalar.txt" || { cat "$3/scalar.txt"; exit 1; }
echo "PTERA_ISA=scalar: $(tail -n 1 "$3/scalar.txt")"
PTERA_ISA_EXT=none "$2" "$3/cases.txt" "$3/data.bin" >"$3/noext.txt" || { cat "$3/noext.txt"; exit 1; }
echo "PTERA_ISA_EXT=none: $(tail -n 1 "$3/noext.txt")"
exec "$2" "$3/cases.txt" "$3/data.bin"
