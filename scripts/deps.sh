#!/usr/bin/env bash
# Installs what building and testing ptera needs on Debian 12 (run as root,
# or with sudo available).
set -euo pipefail
pkgs=(build-essential cmake ninja-build clang llvm libclang-rt-14-dev valgrind python3 python3-numpy python3-torch python3-torchvision python3-sklearn python3-pytest flatbuffers-compiler libflatbuffers-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
