#!/usr/bin/env bash
# Runs every shell command of README.md and of the DocC articles (Sources/*/*.docc), as a user following
# them would, against Samples/. Each must exit 0 within its time limit; a README that drifts from the
# CLI fails here.
#
# Rules for writing shell blocks (ARCHITECTURE.md, "Documentation is tested"):
# - Blocks fenced ```sh, ```bash or ```shell are run line by line (a trailing \ joins lines; # comments
#   are ignored); in ```console blocks only the `$ ` lines are. Unlabelled fences (``` alone) are output
#   and are not run.
# - Commands run with bash in a scratch folder holding `Samples/` (the repository's) and the stand-ins a
#   README names for the user's own files: `photos/` (copies of Samples/*.png), `frames/` (six frames of
#   one size: astronaut.png), `big.jpg`, `photo.jpg`, `photo.heic` (the astronaut as an iPhone-style
#   HEIC), `clip.y4m` (Scripts/make-sample-clip.py: 1.2 s without a face, then the astronaut).
#   Files a command writes stay in that folder.
# - `swift run [-c release] visage ARGS` runs the CLI built once by this script (debug; --release for a
#   release build), and `visage` is on PATH. `swift test` and `swift build` lines are not run: CI runs
#   those as steps of their own.
# - Lines that need a camera (/dev/video…, avfoundation, dshow) are never run here, and lines that need
#   ffmpeg are skipped when it is absent; each skip prints its reason.
# - A block that cannot run here (a server that does not exit, a benchmark that takes minutes, packages
#   from PyPI) is skipped with a reason, printed on every run, by a comment right above its fence:
#     <!-- readme-check: skip: starts a server that runs until stopped -->
#
# Usage: Scripts/smoke-readme.sh [--release]   (each command: at most $SMOKE_TIMEOUT seconds, default 300)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
configuration=debug
[[ "${1:-}" == "--release" ]] && configuration=release
limit="${SMOKE_TIMEOUT:-300}"

swift build --package-path "$root" -c "$configuration" --product visage > /dev/null
bin="$(swift build --package-path "$root" -c "$configuration" --show-bin-path)"

work="$(mktemp -d "${TMPDIR:-/tmp}/visage-readme-smoke.XXXXXX")"
trap 'rm -rf "$work"' EXIT
ln -s "$root/Samples" "$work/Samples"
mkdir "$work/photos" "$work/frames"
cp "$root"/Samples/*.png "$work/photos/"
for i in 0 1 2 3 4 5; do cp "$root/Samples/astronaut.png" "$work/frames/frame$i.png"; done
cp "$root/Tests/VisageTests/Fixtures/landmarks/astronaut.jpg" "$work/big.jpg"
cp "$root/Tests/VisageTests/Fixtures/landmarks/astronaut.jpg" "$work/photo.jpg"
cp "$root/Tests/VisageTests/Fixtures/formats/astronaut.heic" "$work/photo.heic"
python3 "$root/Scripts/make-sample-clip.py" "$root/Samples/astronaut.png" "$work/clip.y4m"

# `swift run [-c CONFIG] visage` → the binary built above.
mkdir "$work/.bin"
ln -s "$bin/visage" "$work/.bin/visage"
cat > "$work/.bin/swift" <<'EOF'
#!/usr/bin/env bash
if [[ "$1" == run ]]; then
    shift
    while [[ "$1" == -* ]]; do [[ "$1" == -c || "$1" == --configuration ]] && shift; shift; done
    [[ "$1" == visage ]] || { echo "smoke-readme: only 'swift run visage' is supported, not 'swift run $1'" >&2; exit 2; }
    shift
    exec visage "$@"
fi
echo "smoke-readme: unexpected 'swift $*'" >&2
exit 2
EOF
chmod +x "$work/.bin/swift"

have_ffmpeg=0
command -v ffmpeg > /dev/null && have_ffmpeg=1
ran=0 skipped=0 failed=0
while IFS=$'\t' read -r file line skip command; do
    where="$file:$line"
    reason=""
    if [[ "$skip" != - ]]; then
        reason="$skip"
    elif [[ "$command" =~ ^swift\ (test|build)([[:space:]]|$) ]]; then
        reason="CI runs 'swift ${BASH_REMATCH[1]}' as a step of its own"
    elif [[ "$command" =~ /dev/video|avfoundation|dshow ]]; then
        reason="needs a camera"
    elif [[ "$command" =~ ffmpeg ]] && (( ! have_ffmpeg )); then
        reason="needs ffmpeg, which is not installed"
    fi
    if [[ -n "$reason" ]]; then
        echo "skip  $where: $command  ($reason)"
        skipped=$((skipped + 1))
        continue
    fi
    echo "run   $where: $command"
    start=$SECONDS
    if (cd "$work" && PATH="$work/.bin:$PATH" timeout "$limit" bash -o pipefail -c "$command") < /dev/null > "$work/.out" 2>&1; then
        ran=$((ran + 1))
        echo "      ok in $((SECONDS - start)) s"
    else
        status=$?
        failed=$((failed + 1))
        echo "      FAILED (exit $status$( ((status == 124)) && echo ", over ${limit} s")); its output:"
        sed 's/^/      | /' "$work/.out" | tail -40
    fi
done < <(python3 "$root/Scripts/readme_blocks.py" shell "$root")

echo "smoke-readme: $ran commands ran, $skipped skipped, $failed failed ($configuration build)"
(( failed == 0 ))
