#!/usr/bin/env bash
# Builds the release tarball visage-linux-<arch>.tar.gz: a release `visage` with the Swift standard
# library and Foundation linked in (--static-swift-stdlib), its models, and the licence notices.
#
#   bin/visage                   the command-line tool
#   share/visage/                the five model files and their NOTICE (origin, licence, SHA-256)
#   share/visage/service/        visage serve's page, openapi.yaml and docs.html
#   share/doc/visage/            NOTICE (what is inside and under which licence) and the licence texts,
#                                packages/<name>/ for each dependency package linked in (Scripts/linked-packages.py)
#
# Unpacked under any prefix it runs as is: `visage` finds its models in <bin>/../share/visage
# (ModelLocation), so `tar -xzf visage-linux-x86_64.tar.gz -C /usr/local` installs it, and so does
# unpacking anywhere else. The system libraries it still loads are libjpeg, libpng, zlib and libstdc++
# (present on Debian and Ubuntu, also without the Swift toolchain); video files also need ffmpeg.
#
# Usage: Scripts/package.sh [OUTPUT_DIR]   (default .build/package; prints the tarball's path)
# A release build takes several minutes on two cores. Scripts/check-package.sh tests the result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build/package}"
arch="$(uname -m)"
name="visage-linux-$arch"

build=(swift build --package-path "$root" -c release --static-swift-stdlib --product visage)
"${build[@]}" >&2
bin="$("${build[@]}" --show-bin-path)"

stage="$(mktemp -d "${TMPDIR:-/tmp}/visage-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/share/visage" "$stage/share/doc/visage"
install -m 755 "$bin/visage" "$stage/bin/visage"
# Symbols only help a debugger; the binary is a download. Keep them when strip is not installed.
if command -v strip > /dev/null; then strip "$stage/bin/visage"; fi

# The model files (Models/ holds exactly those VisageModels bundles), and their provenance.
for model in "$root"/Models/*.tflite "$root"/Models/*.binarypb; do
    install -m 644 "$model" "$stage/share/visage/$(basename "$model")"
done
install -m 644 "$root/Models/NOTICE" "$stage/share/visage/NOTICE"
# visage serve's bundled files (the page, openapi.yaml, docs.html): ServiceResources finds them in
# <bin>/../share/visage/service.
mkdir -p "$stage/share/visage/service"
cp -R "$root/Sources/VisageService/Resources/." "$stage/share/visage/service/"

# Licences of what the binary contains.
doc="$stage/share/doc/visage"
own="Visage's own code"
if [[ -f "$root/LICENSE" ]]; then install -m 644 "$root/LICENSE" "$doc/LICENSE"; own="$own (LICENSE)"; fi
install -m 644 "$root/Models/NOTICE" "$doc/NOTICE.models"
# Every dependency package whose code bin/visage links (the CLI's argument parser, visage serve's
# Hummingbird, SwiftNIO and the packages under them): its LICENSE and NOTICE files in packages/<name>/.
packages=()
while IFS= read -r package; do
    mkdir -p "$doc/packages/$package"
    for file in "$root/.build/checkouts/$package"/{LICENSE,LICENCE,NOTICE,COPYING}*; do
        if [[ -f "$file" ]]; then install -m 644 "$file" "$doc/packages/$package/"; fi
    done
    if [[ -z "$(ls "$doc/packages/$package")" ]]; then echo "package.sh: $package has no LICENSE file" >&2; exit 1; fi
    packages+=("$package")
done < <(python3 "$root/Scripts/linked-packages.py" "$bin" visage)
if (( ${#packages[@]} == 0 )); then echo "package.sh: no linked package found" >&2; exit 1; fi
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
runtime="$toolchain/share/swift/LICENSE.txt"
[[ -f "$runtime" ]] && install -m 644 "$runtime" "$doc/LICENSE.swift"
# Foundation's internationalisation carries ICU (swift-foundation-icu), whose licence the toolchain does not
# ship: ICU's own LICENSE file (Unicode-3.0 and its third-party notices), kept in Scripts/licenses/.
install -m 644 "$root/Scripts/licenses/ICU.txt" "$doc/LICENSE.icu"
cat > "$doc/NOTICE" <<NOTICE
Visage $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown), built $(date -u +%Y-%m-%d) for Linux $arch.

bin/visage contains:
- $own;
- the Swift standard library, Foundation and Dispatch, linked statically (Apache-2.0 with the Runtime
  Library Exception; LICENSE.swift), Foundation with ICU's code and data (swift-foundation-icu; ICU is
  under the Unicode License V3 with the third-party notices in LICENSE.icu);
- code from these packages, each under the licence (and NOTICE, where it has one) in packages/<name>/:
  $(printf '%s\n' "${packages[@]}" | paste -sd ',' | sed 's/,/, /g' | fold -s -w 98 | sed 's/ *$//; 2,$s/^/  /').
share/visage holds Google's MediaPipe face models (Apache-2.0); NOTICE.models and share/visage/NOTICE
give their origin, size and SHA-256.
At run time it loads the system's libjpeg (libjpeg-turbo), libpng, zlib and C++ runtime (libstdc++),
and runs ffmpeg for video files; none of these are in this archive.
NOTICE

mkdir -p "$out"
tarball="$out/$name.tar.gz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -czf "$tarball" bin share
echo "$tarball"
