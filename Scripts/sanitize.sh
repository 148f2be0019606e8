#!/usr/bin/env bash
# Sanitizer runs: Scripts/sanitize.sh [address|undefined|thread|all] [extra swift test arguments…]
#
#   address    the whole test suite under AddressSanitizer (leaks included), debug build
#   undefined  the C kernels' and decoders' tests under UndefinedBehaviorSanitizer (CVisageKernels' SIMD
#              kernels, the warp kernels, the JPEG/PNG shims through the image tests)
#   thread     the service's tests under ThreadSanitizer (once Sources/VisageService exists)
#   all        the three in turn (default)
#
# Each sanitizer builds into its own scratch path (.build-asan, .build-ubsan, .build-tsan) so the normal
# build is untouched. Run it after any change to Sources/CVisageKernels, Sources/CJPEG, Sources/CPNG,
# Sources/CImageCodecs or a decoder; record findings in FUZZING.md. Expect 10–30 minutes per
# sanitizer on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
shift || true

run_address() {
    # Leaks that are not Visage's are suppressed one by one (Scripts/lsan-suppressions.txt). Exported, so the
    # `visage` processes the CLI and service tests spawn use them too. (Before, a comment line between the
    # two assignments ended the command: LSAN_OPTIONS was never passed on.)
    export LSAN_OPTIONS=suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0
    # A 16 MB quarantine of freed memory (default 256 MB): the CLI tests bound a `visage` child's peak RSS at
    # 128 MiB, which the default quarantine alone exceeds (FUZZING.md, finding 12); 16 MB still catches reuse
    # soon after a free.
    export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:quarantine_size_mb=16
    swift test --sanitize=address --scratch-path .build-asan "$@"
}
run_undefined() {
    # Swift on Linux has no `-sanitize=undefined` ("unsupported option"), and UBSan's checks are C's: the C
    # targets are compiled with clang's -fsanitize=undefined and the final links made by clang with its runtime.
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} swift test --scratch-path .build-ubsan \
        -Xcc -fsanitize=undefined -Xcc -fno-omit-frame-pointer -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined \
        --filter 'KernelTests|WarpAffineTests|DecodingTests|BadInputTests|MutationTests|OperatorTests|FusionTests' "$@"
}
run_thread() {
    if [[ ! -d Sources/VisageService ]]; then
        echo "sanitize.sh: no Sources/VisageService yet; skipping ThreadSanitizer" >&2
        return 0
    fi
    TSAN_OPTIONS=halt_on_error=1 swift test --sanitize=thread --scratch-path .build-tsan --filter 'VisageServiceTests' "$@"
}

case $which in
    address) run_address "$@" ;;
    undefined) run_undefined "$@" ;;
    thread) run_thread "$@" ;;
    all) run_address "$@"; run_undefined "$@"; run_thread "$@" ;;
    *) echo "usage: Scripts/sanitize.sh [address|undefined|thread|all] [swift test arguments]" >&2; exit 2 ;;
esac
