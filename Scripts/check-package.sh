#!/usr/bin/env bash
# Checks a tarball from Scripts/package.sh as a user who downloads it would: unpacked into an empty
# folder and run with an empty environment (`env -i`), `visage detect` finds the face in a sample; the
# binary copied alone, without its models, exits 1 with the typed error that lists where it looked,
# and finds them again through VISAGE_MODELS; every linked package's licence is inside. Every run is
# bounded (timeout).
#
# Usage: Scripts/check-package.sh [TARBALL]   (default .build/package/visage-linux-<arch>.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tarball="$(readlink -f "${1:-$root/.build/package/visage-linux-$(uname -m).tar.gz}")"
sample="$root/Samples/astronaut.png"
work="$(mktemp -d "${TMPDIR:-/tmp}/visage-package-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "check-package: FAILED: $*" >&2; failures=$((failures + 1)); }

mkdir "$work/install"
tar -xzf "$tarball" -C "$work/install"
cp "$sample" "$work/install/sample.png"
(cd "$work/install" && ls -R bin share | head -30)

# The Swift runtime is inside the binary: no libswift*.so may be needed.
if ldd "$work/install/bin/visage" | grep -q 'libswift\|libFoundation\|libdispatch'; then
    fail "bin/visage loads Swift runtime libraries: $(ldd "$work/install/bin/visage" | grep 'libswift\|libFoundation\|libdispatch' | tr -s ' \t' ' ')"
fi

# Installed layout, empty environment.
if (cd "$work/install" && timeout 120 env -i ./bin/visage detect sample.png > "$work/out" 2> "$work/err"); then
    grep -q "sample.png (512×512): 1 face found" "$work/out" || fail "detect printed: $(cat "$work/out")"
else
    fail "env -i ./bin/visage detect sample.png exited $?: $(cat "$work/err")"
fi
(cd "$work/install" && timeout 120 env -i ./bin/visage detect --json sample.png > "$work/json") || fail "detect --json exited $?"
grep -q '"faces":\[{' "$work/json" || fail "detect --json printed: $(cat "$work/json")"
# Every model: the mesh, the blendshapes and the canonical face geometry.
(cd "$work/install" && timeout 120 env -i ./bin/visage detect --json --mesh --classify sample.png > "$work/json") \
    || fail "detect --mesh --classify exited $?"
grep -q '"smilingProbability"' "$work/json" || fail "detect --mesh --classify printed: $(head -c 300 "$work/json")"

# The binary alone: exit status 1 and the places searched, no trap.
mkdir "$work/bare"
cp "$work/install/bin/visage" "$work/bare/visage"
status=0
(cd "$work/bare" && timeout 120 env -i ./visage detect "$work/install/sample.png" > "$work/out" 2> "$work/err") || status=$?
(( status == 1 )) || fail "the binary without models exited $status, not 1: $(cat "$work/err")"
expected="model file face_detection_short_range.tflite was not found in $work/bare/Visage_VisageModels.resources (beside the executable), $work/share/visage (install prefix)"
grep -qF "$expected" "$work/err" || fail "the binary without models said: $(cat "$work/err")"
if grep -q "Fatal error" "$work/err"; then fail "the binary without models trapped"; fi

# ... and finds them through VISAGE_MODELS.
(cd "$work/bare" && timeout 120 env -i VISAGE_MODELS="$work/install/share/visage" ./visage detect "$work/install/sample.png" > "$work/out" 2> "$work/err") \
    || fail "VISAGE_MODELS=… ./visage detect exited $?: $(cat "$work/err")"
grep -q "1 face found" "$work/out" || fail "with VISAGE_MODELS, detect printed: $(cat "$work/out")"

# Licences: each dependency package bin/visage links (Scripts/linked-packages.py, from the release build's
# link list when it is there) has its licence under share/doc/visage/packages/ and is named in the NOTICE;
# the CLI's argument parser and visage serve's SwiftNIO and Hummingbird always are.
doc="$work/install/share/doc/visage"
linked=(swift-argument-parser swift-nio hummingbird)
if [[ -f "$root/.build/release/visage.product/Objects.LinkFileList" ]]; then
    mapfile -t -O 3 linked < <(python3 "$root/Scripts/linked-packages.py" "$root/.build/release" visage)
else
    echo "check-package: no release build here: the licences checked are those of ${linked[*]} only"
fi
[[ -s "$doc/LICENSE.icu" ]] || fail "no ICU licence (share/doc/visage/LICENSE.icu) for the ICU inside the static Foundation"
grep -q "LICENSE.icu" "$doc/NOTICE" || fail "share/doc/visage/NOTICE does not name ICU's licence"
for package in "${linked[@]}"; do
    compgen -G "$doc/packages/$package/LICENSE*" > /dev/null || fail "no licence for $package in share/doc/visage/packages/$package"
    grep -qE "(^|[ ,])$package([,.]|\$)" "$doc/NOTICE" || fail "share/doc/visage/NOTICE does not name $package"
done

size=$(du -h "$tarball" | cut -f1)
if (( failures )); then
    echo "check-package: $failures check(s) failed for $tarball" >&2
    exit 1
fi
echo "check-package: $tarball ($size) runs under env -i from an empty folder; without models it exits 1 with the typed error"
