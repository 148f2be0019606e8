#!/usr/bin/env bash
# Compiles every Swift block of README.md and of the DocC articles (Sources/*/*.docc) in a fresh client
# package that depends on this checkout by path, as a user's package would. A README that drifts from
# the code fails here.
#
# Rules for writing Swift blocks (ARCHITECTURE.md, "Documentation is tested"):
# - A user writes only `import Visage`: a block compiles with that alone. A block that writes imports of
#   its own (an iOS port: `#if canImport(Vision) … #else import VisageVision #endif`) is compiled in a
#   file of its own with exactly those imports (every library product is a dependency), so its names
#   cannot clash with Visage's.
# - The blocks of one document are read in order, as a reader reads them: each block is compiled inside
#   the scope of the ones above it, so it may use their names (`image`, `faces`) and may shadow them.
#   They sit in one `async throws` function, so `try` and `await` need no ceremony. Nothing is run.
# - Names a fragment assumes (`url`, a `player`) come from a hidden comment right above the fence:
#     <!-- readme-check: setup: let url = URL(fileURLWithPath: "Samples/astronaut.png") -->
#   Declarations that cannot live in a function (extensions) go at file scope with
#     <!-- readme-check: file-scope -->
# - A block that cannot compile here is skipped with a reason, printed on every run:
#     <!-- readme-check: skip: needs UIKit -->
#
# Usage: Scripts/check-readme-swift.sh   (scratch path: .build/readme-client, kept between runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${VISAGE_README_SCRATCH:-$root/.build/readme-client}"
client="$(mktemp -d "${TMPDIR:-/tmp}/visage-readme-client.XXXXXX")"
trap 'rm -rf "$client"' EXIT

# The package's identity is its folder's name, as SwiftPM derives it for a path dependency.
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"
products="$(grep -o '\.library(name: "[A-Za-z0-9_]*"' "$root/Package.swift" | sed 's/.*"\(.*\)"/\1/')"
dependencies="$(for p in $products; do printf '.product(name: "%s", package: "%s"), ' "$p" "$identity"; done)"

mkdir -p "$client/Sources/ReadmeExamples"
cat > "$client/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VisageReadmeClient",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "ReadmeExamples", dependencies: [$dependencies])]
)
EOF
python3 "$root/Scripts/readme_blocks.py" swift "$root" "$client/Sources/ReadmeExamples" | sed 's/^/check-readme-swift: /'

if ! swift build --package-path "$client" --scratch-path "$scratch" --target ReadmeExamples 2> "$client/errors.txt" > "$client/build.txt"; then
    cat "$client/build.txt" "$client/errors.txt" >&2
    echo "check-readme-swift: FAILED. Each error names the generated file; its '// FILE:LINE' comments name the block." >&2
    for file in "$client"/Sources/ReadmeExamples/*.swift; do
        echo "--- $(basename "$file")" >&2
        cat -n "$file" >&2
    done
    exit 1
fi
echo "check-readme-swift: every block compiles"
