#!/usr/bin/env bash
# Checks CVisageKernels' kernel sets that this machine's CPU cannot run, against the Swift references:
# the NEON set (AArch64, under qemu-aarch64) and, on x86-64, the AVX-512 set (under Bochs, whose
# Skylake-X model executes AVX-512; QEMU's TCG does not). The host's own sets run too.
#
# 1. The kernel tests' cases and the Swift references' outputs (ReferenceKernels, and the warp's Swift
#    interior run) are written by the tests KernelVectorExport and WarpVectorExport
#    (VISAGE_KERNEL_VECTORS=FILE swift test --skip-build --filter ...), so the expected values come from
#    the same Swift code `swift test` compares the host's sets with.
# 2. Sources/CVisageKernels/crosscheck/vectors.c runs them through the C drivers on every set it is
#    given and compares with the Swift tests' tolerances:
#    - AArch64: built with the Swift toolchain's clang (the compiler SwiftPM uses; -O0 as in debug
#      builds, -O2 as in release) and with Debian's aarch64-linux-gnu-gcc -O2, each run under
#      qemu-aarch64 on the portable and NEON sets; then crosscheck.c (NEON against portable on 300
#      random shapes, panel splits included);
#    - the host: -O0 and -O2, every available set (AVX2's SSE and 256-bit variants both forced);
#    - AVX-512: vectors.c with bochs/bare.c (a few C library functions) booted by bochs/boot.S into
#      64-bit mode with AVX-512 state enabled, no operating system, on Bochs's corei7_skylake_x CPU:
#      the portable, AVX2 and AVX-512 sets (the AVX2 warp included; the AVX-512 warp is not: Bochs 2.7
#      raises #UD on its EVEX gathers, so it is checked only on a CPU with AVX-512, by WarpKernelTests).
# Missing tools are installed with apt-get (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
# qemu-user, bochs, bochsbios, vgabios, bochs-term).
#
# Usage: Scripts/check-kernels-cross.sh [--skip-bochs]
# Exit: 0 every check passed; 1 a check failed; 3 the tools could not be installed (nothing was checked).
# Needs the debug test build (`swift build --build-tests`, which `swift test` leaves); it builds it if missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/Sources/CVisageKernels"
skip_bochs=0
[[ "${1:-}" == "--skip-bochs" ]] && skip_bochs=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "check-kernels-cross: FAILED: $*"; status=1; }

# ---- tools
host=$(uname -m)
packages=()
command -v qemu-aarch64 >/dev/null || packages+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || packages+=(gcc-aarch64-linux-gnu)
[[ -f /usr/aarch64-linux-gnu/include/stdio.h ]] || packages+=(libc6-dev-arm64-cross)
if [[ $host == x86_64 && $skip_bochs == 0 ]]; then
  command -v bochs >/dev/null || packages+=(bochs)
  [[ -f /usr/share/bochs/BIOS-bochs-latest ]] || packages+=(bochsbios)
  [[ -f /usr/share/vgabios/vgabios.bin ]] || packages+=(vgabios)
  ls /usr/lib/*/bochs/plugins/libbx_term_gui.so >/dev/null 2>&1 || packages+=(bochs-term)
  command -v script >/dev/null || packages+=(bsdutils)
fi
if (( ${#packages[@]} )); then
  echo "check-kernels-cross: installing ${packages[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null; } \
    || { echo "check-kernels-cross: could not install ${packages[*]}: nothing checked"; exit 3; }
fi

# ---- the Swift references' vectors
cd "$root"
swift build --build-tests >/dev/null
VISAGE_KERNEL_VECTORS="$work/vectors.bin" swift test --skip-build --filter 'KernelVectorExport|WarpVectorExport' \
  > "$work/export.log" 2>&1 || { cat "$work/export.log"; echo "check-kernels-cross: the vector export failed"; exit 1; }
[[ -s "$work/vectors.bin" && -s "$work/vectors.bin.warp" ]] || { cat "$work/export.log"; echo "check-kernels-cross: no vectors written"; exit 1; }
tail -c +5 "$work/vectors.bin.warp" >> "$work/vectors.bin"  # one file: the warp's records after the others
echo "check-kernels-cross: $(stat -c %s "$work/vectors.bin") bytes of Swift reference vectors"

run() {  # LABEL COMMAND...: runs it with a time limit, prints its tallies, records a failure
  local label=$1; shift
  echo "== $label"
  if ! timeout 600 "$@" > "$work/out.txt" 2>&1; then
    fail "$label"
  fi
  grep -E '^(FAIL|[a-z0-9_]+: [0-9]+ cases|[0-9]+ passed|[0-9]+ checks|selected)' "$work/out.txt" | head -40 || cat "$work/out.txt"
}

# ---- AArch64: the NEON set under qemu
sources=("$src"/*.c)
if [[ $host != aarch64 ]]; then
  gcc_dir=$(ls -d /usr/lib/gcc-cross/aarch64-linux-gnu/* | sort -V | tail -1)
  clang_aarch64=(clang --target=aarch64-linux-gnu --sysroot=/usr/aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include
                 -fuse-ld=lld -B"$gcc_dir" -L"$gcc_dir" -static -Wall -I"$src/include")
  builds=()
  if command -v clang >/dev/null && command -v ld.lld >/dev/null; then
    for opt in -O0 -O2; do
      "${clang_aarch64[@]}" $opt "${sources[@]}" "$src/crosscheck/vectors.c" -lm -o "$work/vectors-clang$opt" && builds+=("clang$opt") \
        || fail "clang $opt AArch64 build"
    done
    "${clang_aarch64[@]}" -O2 "${sources[@]}" "$src/crosscheck/crosscheck.c" -lm -o "$work/crosscheck-aarch64" \
      || fail "clang AArch64 crosscheck build"
  else
    echo "check-kernels-cross: no clang with lld here: AArch64 builds with gcc only"
  fi
  aarch64-linux-gnu-gcc -O2 -static -Wall -I"$src/include" "${sources[@]}" "$src/crosscheck/vectors.c" -lm \
    -o "$work/vectors-gcc-O2" && builds+=(gcc-O2) || fail "gcc AArch64 build"
  echo "check-kernels-cross: $(qemu-aarch64 --version | head -1); $(aarch64-linux-gnu-gcc --version | head -1)"
  for build in "${builds[@]}"; do
    run "AArch64 $build (qemu-aarch64): portable and NEON against the Swift references" \
      qemu-aarch64 "$work/vectors-$build" "$work/vectors.bin" portable neon
  done
  [[ -x "$work/crosscheck-aarch64" ]] && run "AArch64 crosscheck.c (qemu-aarch64): NEON against portable, random shapes" \
    qemu-aarch64 "$work/crosscheck-aarch64"
fi

# ---- the host's sets
cc=$(command -v clang || command -v gcc)
for opt in -O0 -O2; do
  "$cc" $opt -w -I"$src/include" "${sources[@]}" "$src/crosscheck/vectors.c" -lm -o "$work/vectors-host$opt" || fail "host $opt build"
done
if [[ $host == x86_64 ]]; then
  for narrow in sse avx; do
    for opt in -O0 -O2; do
      VISAGE_AVX2_NARROW=$narrow run "$host $opt, VISAGE_AVX2_NARROW=$narrow: every available set against the Swift references" \
        "$work/vectors-host$opt" "$work/vectors.bin"
    done
  done
else
  for opt in -O0 -O2; do run "$host $opt: every available set" "$work/vectors-host$opt" "$work/vectors.bin"; done
fi

# ---- AVX-512 under Bochs (x86-64 hosts without AVX-512 only need it, but it runs everywhere)
if [[ $host == x86_64 && $skip_bochs == 0 ]]; then
  bare="$work/bare"
  mkdir -p "$bare"
  flags=(-O2 -DVECTORS_BARE -ffreestanding -fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables
         -mno-red-zone -U_FORTIFY_SOURCE -w -I"$src/include")
  for file in "${sources[@]}" "$src/crosscheck/vectors.c" "$src/crosscheck/bochs/bare.c"; do
    "$cc" -c "${flags[@]}" "$file" -o "$bare/$(basename "$file" .c).o"
  done
  ld -nostdlib -static --no-warn-rwx-segments -T "$src/crosscheck/bochs/link.ld" "$bare"/*.o "$(gcc -print-libgcc-file-name)" \
    -o "$bare/harness.elf"
  objcopy -O binary "$bare/harness.elf" "$bare/harness.bin"
  gcc -c "$src/crosscheck/bochs/boot.S" -o "$bare/boot.o"
  ld -Ttext=0x7c00 --oformat binary -e boot "$bare/boot.o" -o "$bare/boot.bin"
  # Bochs loads at most 128 KiB per optional RAM image, and four images: the harness in 128 KiB parts.
  split -b 131072 -d -a 1 "$bare/harness.bin" "$bare/harness.part"
  parts=("$bare"/harness.part*)
  (( ${#parts[@]} <= 4 )) || { fail "the Bochs harness is over 512 KiB"; exit $status; }
  python3 - "$bare" "$work/vectors.bin" <<'EOF'
import struct, sys
bare, vectors = sys.argv[1], open(sys.argv[2], 'rb').read()
boot = open(f'{bare}/boot.bin', 'rb').read()
open(f'{bare}/boot.img', 'wb').write(boot + bytes(1474560 - len(boot)))
# The disk: "VBAR", the vector file's byte count, the sets to run (portable, avx2_fma, avx512), then the file,
# padded to whole cylinders of 16 heads × 63 sectors (a flat image's geometry).
# The AVX-512 warp is skipped: Bochs 2.7 raises #UD on its EVEX gathers (vpgatherdd with an index in zmm16-31).
disk = struct.pack('<IIII', 0x52414256, len(vectors), (1 << 0) | (1 << 1) | (1 << 3), 1 << 3) + vectors
disk += bytes(-len(disk) % (16 * 63 * 512))
open(f'{bare}/vectors.img', 'wb').write(disk)
EOF
  {
    echo "megs: 1024"
    echo "cpu: model=corei7_skylake_x, count=1"
    echo "romimage: file=/usr/share/bochs/BIOS-bochs-latest"
    echo "vgaromimage: file=/usr/share/vgabios/vgabios.bin"
    echo "floppya: 1_44=$bare/boot.img, status=inserted"
    echo "boot: floppy"
    for i in "${!parts[@]}"; do printf 'optramimage%d: file=%s, address=0x%x\n' $((i + 1)) "${parts[$i]}" $((0x4000000 + i * 131072)); done
    echo "ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14"
    echo "ata0-master: type=disk, path=$bare/vectors.img, mode=flat"
    echo "com1: enabled=1, mode=file, dev=$bare/serial.txt"
    echo "display_library: term"
    echo "log: $bare/bochs.log"
    echo "speaker: enabled=0"
    echo "sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy"
  } > "$bare/bochsrc"
  printf 'c\nquit\n' > "$bare/debugger.rc"  # Debian's Bochs has the debugger: continue at its prompt
  echo "== AVX-512 (Bochs $(bochs --help 2>&1 | grep -m1 -o 'Bochs x86 Emulator [0-9.]*' | awk '{print $4}'), corei7_skylake_x, no OS): portable, AVX2 and AVX-512 against the Swift references"
  started=$SECONDS
  # The term display wants a terminal: script gives it a pseudo-terminal, whose screen goes nowhere.
  TERM=xterm timeout 600 script -qec "bochs -q -f $bare/bochsrc -rc $bare/debugger.rc" /dev/null > "$bare/bochs.out" 2>&1 < /dev/null || true
  grep -E '^(FAIL|[a-z0-9_]+: [0-9]+ cases|[0-9]+ passed|bare:)' "$bare/serial.txt" 2>/dev/null | head -40 || true
  echo "(Bochs ran $((SECONDS - started)) s)"
  if ! grep -qE '^avx512: [0-9]+ cases .*: [0-9]+ passed, 0 failed' "$bare/serial.txt" 2>/dev/null \
     || ! grep -q '^bare: exit 0' "$bare/serial.txt"; then
    tail -5 "$bare/bochs.log" 2>/dev/null || true
    fail "AVX-512 under Bochs"
  fi
fi

if (( status == 0 )); then echo "check-kernels-cross: every check passed"; fi
exit $status
