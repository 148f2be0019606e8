#!/bin/sh
# Builds CVisageKernels and its cross-check for AArch64 and runs it under qemu, comparing the
# NEON kernel set with the portable one on random shapes. Needs (Debian/Ubuntu):
#   apt-get install qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
# and clang with lld (the Swift toolchain has both).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
src="$here/Sources/CVisageKernels"
out=$(mktemp -d)
gcc_dir=$(ls -d /usr/lib/gcc-cross/aarch64-linux-gnu/* | sort -V | tail -1)
clang --target=aarch64-linux-gnu --sysroot=/usr/aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include \
    -fuse-ld=lld -B"$gcc_dir" -L"$gcc_dir" -static -O2 -Wall -Wextra -I"$src/include" \
    "$src"/*.c "$src/crosscheck/crosscheck.c" -lm -o "$out/crosscheck"
qemu-aarch64 "$out/crosscheck"
# The x86-64 build then checks the best set the host has (AVX-512 or AVX2+FMA; VISAGE_KERNELS picks another) against portable the same way.
clang -O2 -Wall -Wextra -I"$src/include" "$src"/*.c "$src/crosscheck/crosscheck.c" -lm -o "$out/crosscheck-host"
"$out/crosscheck-host"
rm -rf "$out"
