#!/usr/bin/env bash
# Microcontroller check: the examples/embedded firmware cross-built with
# arm-none-eabi-gcc (cmake/arm-none-eabi.cmake) for Cortex-M4F and
# Cortex-M55, each with three programs, run under qemu-system-arm (mps2-an386,
# mps3-an547) with semihosting; the printed outputs are compared with the
# host `ptera run` of the same program and input, and the int8 programs' with
# their numpy references, bit-exact: examples/embedded/int8_model.py, and the
# DS-CNN of tests/compile/cortex_m_dscnn.py (a torch.nn.Module through
# ptera.export --backend cortex_m with calibration; needs torch). The DS-CNN's
# outputs must also be identical on both targets.
#   scripts/test_mcu.sh [HOST_BUILD_DIR]   (default: build-mcu/host)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ "${PTERA_SKIP_DEPS:-0}" = 1 ] || bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
source scripts/stages.sh
py=/usr/bin/python3
work=build-mcu
mkdir -p "$work"

host=${1:-$work/host}
if [ ! -f "$host/build.ninja" ]; then
  cmake -S . -B "$host" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTERA_BUILD_TESTS=OFF
fi
cmake --build "$host" -j "$jobs" --target ptera # incremental: never a stale host binary
ptera=$host/ptera
stage "host ptera"

# The programs: name, .pte, input, float comparison with the host.
gen=$work/gen
mkdir -p "$gen"
$py examples/embedded/int8_model.py "$gen"
"$ptera" compile "$gen/int8.ptg" "$gen/int8.pte" --ops ptera >/dev/null
$py tests/compile/cortex_m_dscnn.py "$ptera" "$gen/dscnn.work" --emit "$gen" >/dev/null
models=("digits examples/digits/digits.pte examples/digits/digit_3.npy close"
        "int8 $gen/int8.pte $gen/int8_input.npy exact"
        "dscnn $gen/dscnn.pte $gen/dscnn_input.npy exact")
for m in "${models[@]}"; do
  read -r name pte input _ <<<"$m"
  "$ptera" ops --used "$pte" >"$gen/$name.ops"
  rm -rf "$gen/$name.host"
  "$ptera" run "$pte" --input "$input" --output-dir "$gen/$name.host" >/dev/null
done
stage "programs + host runs"

fail=0
for cpu in cortex-m4 cortex-m55; do
  if [ "$cpu" = cortex-m4 ]; then machine=mps2-an386; else machine=mps3-an547; fi
  # One build directory per CPU, reconfigured for each program: only the
  # embedded program, its input and the kernel table are rebuilt.
  dir=$work/$cpu
  for m in "${models[@]}"; do
    read -r name pte input mode <<<"$m"
    log=$work/$cpu-$name.log
    cmake -S examples/embedded -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi.cmake" \
      -DCMAKE_BUILD_TYPE=MinSizeRel -DPTERA_MCU_CPU=$cpu -DPTERA_EMBEDDED_PTE="$root/$pte" \
      -DPTERA_EMBEDDED_INPUT="$root/$input" -DPTERA_SELECTED_OPS="$root/$gen/$name.ops" >/dev/null
    cmake --build "$dir" -j "$jobs" >"$dir/build.log" 2>&1 || { tail -30 "$dir/build.log"; exit 1; }
    timeout 120 qemu-system-arm -M $machine -nographic -monitor none -serial none \
      -semihosting-config enable=on,target=native -kernel "$dir/firmware.elf" >"$log" 2>&1 ||
      { echo "$cpu $name: qemu failed (status $?)"; cat "$log"; fail=1; continue; }
    refs=("$gen/$name.host"/output_*.npy)
    echo "$cpu ($machine) $name vs host ptera run:"
    $py scripts/mcu_compare.py "$log" "$mode" "${refs[@]}" || fail=1
    if [ "$name" != digits ]; then
      echo "$cpu ($machine) $name vs numpy (CMSIS-NN formulas):"
      $py scripts/mcu_compare.py "$log" exact "$gen"/${name}_want_*.npy || fail=1
    fi
  done
  stage "$cpu firmware + qemu"
done
if ! cmp -s <(grep '^output ' "$work/cortex-m4-dscnn.log") \
            <(grep '^output ' "$work/cortex-m55-dscnn.log"); then
  echo "dscnn: the Cortex-M4 and Cortex-M55 outputs differ"
  fail=1
else
  echo "dscnn: identical outputs on cortex-m4 and cortex-m55"
fi
[ $fail = 0 ] && echo "test_mcu: all firmware outputs match" || echo "test_mcu: FAILED"
exit $fail
