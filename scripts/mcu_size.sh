#!/usr/bin/env bash
# Sizes of the Cortex-M firmware (arm-none-eabi-gcc -Os, stripped):
#   core      the runtime with no kernels at all (an empty PTERA_SELECTED_OPS),
#             split by origin: libptera, the C library, the firmware itself
#   digits    the digits CNN firmware with only its kernels
#   int8      the cortex_m:: int8 program firmware with only its kernels
#   dscnn     the keyword-spotting DS-CNN (tests/compile/cortex_m_dscnn.py, compiled
#             with --backend cortex_m) with only its kernels
# and the RAM each program needs as the memory queries report it, read from
# a run under QEMU (program + method = arena + planned + temp + packed; stack
# is the measured high-water mark).
#   scripts/mcu_size.sh [HOST_BUILD_DIR] [CPU]   (defaults: build-mcu/host, cortex-m4)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
py=/usr/bin/python3
work=build-mcu
host=${1:-$work/host}
cpu=${2:-cortex-m4}
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f "$host/build.ninja" ]; then
  cmake -S . -B "$host" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTERA_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$host" -j "$jobs" --target ptera >/dev/null # incremental: never a stale host binary
if [ "$cpu" = cortex-m4 ]; then machine=mps2-an386; else machine=mps3-an547; fi
gen=$work/gen
mkdir -p "$gen"
$py examples/embedded/int8_model.py "$gen"
"$host/ptera" compile "$gen/int8.ptg" "$gen/int8.pte" --ops ptera >/dev/null
: >"$gen/none.ops"
"$host/ptera" ops --used examples/digits/digits.pte >"$gen/digits.ops"
"$host/ptera" ops --used "$gen/int8.pte" >"$gen/int8.ops"
$py tests/compile/cortex_m_dscnn.py "$host/ptera" "$gen/dscnn.work" --emit "$gen" >/dev/null
"$host/ptera" ops --used "$gen/dscnn.pte" >"$gen/dscnn.ops"

build() { # name pte input ops
  local dir=$work/size-$cpu-$1
  cmake -S examples/embedded -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi.cmake" \
    -DCMAKE_BUILD_TYPE=MinSizeRel -DPTERA_MCU_CPU=$cpu -DPTERA_EMBEDDED_PTE="$root/$2" \
    -DPTERA_EMBEDDED_INPUT="$root/$3" -DPTERA_SELECTED_OPS="$root/$4" >/dev/null
  cmake --build "$dir" -j "$jobs" >"$dir/build.log" 2>&1 || { tail -30 "$dir/build.log"; exit 1; }
  arm-none-eabi-strip -o "$dir/firmware.stripped.elf" "$dir/firmware.elf"
}
build core "$gen/int8.pte" "$gen/int8_input.npy" "$gen/none.ops"
build digits examples/digits/digits.pte examples/digits/digit_3.npy "$gen/digits.ops"
build int8 "$gen/int8.pte" "$gen/int8_input.npy" "$gen/int8.ops"
build dscnn "$gen/dscnn.pte" "$gen/dscnn_input.npy" "$gen/dscnn.ops"

echo "== $cpu ($machine), arm-none-eabi-gcc -Os, stripped"
for name in core digits int8 dscnn; do
  dir=$work/size-$cpu-$name
  echo "-- $name: arm-none-eabi-size"
  arm-none-eabi-size "$dir/firmware.stripped.elf" | sed 's/^/   /'
  # Flash (text + rodata + data) and RAM (data + bss) by origin, from the link map.
  $py - "$dir/firmware.map" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
text = text[text.index('Linker script and memory map'):]
pat = re.compile(r'^ (\.[\w.$]+)\s*(?:\n\s+)?0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$', re.M)
sums = {}
for sec, addr, size, obj in pat.findall(text):
    size = int(size, 16)
    if not size or sec.startswith(('.debug', '.comment', '.ARM.attributes')):
        continue
    kind = 'text' if sec.startswith(('.text', '.rodata', '.ARM.exidx', '.vectors')) else \
           'data' if sec.startswith('.data') else 'bss' if sec.startswith(('.bss', 'COMMON')) else None
    if kind is None:
        continue
    who = 'libptera' if 'libptera.a(' in obj else \
          'libc+libm+libgcc' if re.search(r'lib(c|m|g|c_nano|m_nano|gcc|nosys)\.a\(', obj) else \
          'embedded program+input' if re.search(r'(model|input)\.c\.obj', obj) else 'firmware (main, startup)'
    d = sums.setdefault(who, {'text': 0, 'data': 0, 'bss': 0})
    d[kind] += size
for who in ('libptera', 'libc+libm+libgcc', 'firmware (main, startup)', 'embedded program+input'):
    d = sums.get(who, {'text': 0, 'data': 0, 'bss': 0})
    print('   %-26s text+rodata %7d  data %5d  bss %7d' % (who, d['text'], d['data'], d['bss']))
PYEOF
  if [ "$name" != core ]; then
    log=$dir/run.log
    timeout 120 qemu-system-arm -M $machine -nographic -monitor none -serial none \
      -semihosting-config enable=on,target=native -kernel "$dir/firmware.elf" >"$log" 2>&1
    echo "   RAM (queries, run under qemu): $(grep '^memory' "$log" | sed 's/^memory //')"
  fi
done
echo "(bss includes the firmware's static pool, POOL_SIZE in main.c, and a 16 KiB stack;"
echo " the program and method need only what the RAM line says.)"
