#!/usr/bin/env bash
# Remakes the page's bundled media (Sources/VisageService/Resources/Web): JPEG copies of the samples and
# the player's clip, a 40 s ffmpeg test pattern with a running counter (no audio, 67 KB), so nothing
# on the page is fetched from outside. Needs ffmpeg and Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
web=Sources/VisageService/Resources/Web
python3 - "$web/samples" <<'PY'
import sys
from PIL import Image
for name in ["astronaut", "camera", "coins"]:
    Image.open(f"Samples/{name}.png").convert("RGB").save(f"{sys.argv[1]}/{name}.jpg", quality=85)
PY
cp Samples/horse.png "$web/samples/horse.png"
ffmpeg -v error -f lavfi -i "testsrc=size=240x136:rate=5:duration=40" -c:v libvpx -crf 40 -b:v 20k -g 50 -an -y "$web/clip.webm"
