#!/usr/bin/env bash
# Installs what ptera needs on Debian 12 (run as root, or with sudo available).
#   scripts/deps.sh demo   building ptera and running a shipped model: a C
#                          toolchain, CMake and Ninja (scripts/demo.sh)
#   scripts/deps.sh        (or `test`) everything the test suite needs: also
#                          clang/compiler-rt (ASan+UBSan, fuzzing), valgrind,
#                          pkg-config, Python with numpy, torch, torchvision,
#                          scikit-learn and pytest, flatc and libflatbuffers,
#                          the AArch64 cross gcc and qemu-user (NEON tests),
#                          arm-none-eabi gcc, newlib and qemu-system-arm
#                          (the Cortex-M firmware, scripts/test_mcu.sh)
set -euo pipefail
demo=(build-essential cmake ninja-build)
full=("${demo[@]}" clang llvm libclang-rt-14-dev valgrind pkg-config python3 python3-numpy python3-torch
  python3-torchvision python3-sklearn python3-pytest python3-setuptools python3-pip flatbuffers-compiler
  libflatbuffers-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)
case "${1:-test}" in
  demo) pkgs=("${demo[@]}") ;;
  test) pkgs=("${full[@]}") ;;
  *) echo "usage: scripts/deps.sh [demo|test]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
