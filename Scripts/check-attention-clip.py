#!/usr/bin/env python3
"""Runs `visage track` on a clip made of real photos and checks the attention events' timing.

There is no real footage in the repository of a face looking at the camera and then away (Samples/
holds stills; the page's clip is an ffmpeg test pattern), so the clip is built, at 10 fps, from the
landmark fixtures' 640×480 photos, and says what is synthetic:

   0– 3 s  the astronaut, looking into the camera (real photo)
   3– 6 s  the same with both irises moved down by 1.2 iris radii (synthetic: a local warp of the
           eyes, as Scripts/make-gaze-fixtures.py does), looking down
   6– 9 s  the astronaut again
   9–12 s  the cameraman, who looks down into his own camera, head turned (real photo; a cut, so the
           tracker sees another face, while presence stays)
  12–15 s  the astronaut again

Checks: anyone's attentionLost within the attention duration + 0.3 s of 3 s and 9 s, attentionGained
within it of 6 s and 12 s, no other attention change and no noFaceDetected after the first
faceDetected, no nod or shake. Prints the events and the verdict; exits 1 when a check fails.

    Scripts/check-attention-clip.py [--visage .build/release/visage] [--keep DIR]

Needs numpy, OpenCV and Pillow (for the warp); the iris positions come from the landmark fixtures
(MediaPipe 0.10.21's landmarks of the same photo).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks")
FPS = 10
DURATION = 0.5
SLACK = 0.3
IRISES = [(468, [469, 470, 471, 472]), (473, [474, 475, 476, 477])]


def eyes_down(rgb, landmarks, radii=1.2):
    h, w = rgb.shape[:2]
    pts = np.array(landmarks).reshape(-1, 3)[:, :2] * [w, h]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    map_x, map_y = xs.copy(), ys.copy()
    for centre_index, rim in IRISES:
        centre = pts[centre_index]
        radius = float(np.mean([np.linalg.norm(pts[i] - centre) for i in rim]))
        shift = radii * radius
        d = np.hypot(xs - centre[0], ys - (centre[1] + shift)) / radius
        weight = np.clip((2.2 - d) / 1.2, 0, 1)
        map_y -= weight * weight * (3 - 2 * weight) * shift
    return cv2.remap(rgb, map_x, map_y, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--keep")
    args = parser.parse_args()
    fixtures = json.load(open(os.path.join(PHOTOS, "landmarks.json")))
    astronaut_landmarks = next(p for p in fixtures["photos"] if p["image"] == "astronaut.jpg")["landmarks"]
    astronaut = np.array(Image.open(os.path.join(PHOTOS, "astronaut.jpg")).convert("RGB"))
    camera = np.array(Image.open(os.path.join(PHOTOS, "camera.jpg")).convert("RGB"))
    down = eyes_down(astronaut, astronaut_landmarks)
    segments = [astronaut, down, astronaut, camera, astronaut]
    folder = args.keep or tempfile.mkdtemp()
    os.makedirs(folder, exist_ok=True)
    index = 0
    for picture in segments:
        for _ in range(3 * FPS):
            Image.fromarray(picture).save(os.path.join(folder, f"frame-{index:04d}.png"))
            index += 1
    run = subprocess.run(
        [args.visage, "track", folder, "--fps", str(FPS), "--json", "--events-only", "--debounce", "0.5",
         "--attention-duration", str(DURATION)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"visage track failed ({run.returncode}): {run.stderr}")
    events = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    for event in events:
        print(json.dumps(event))
    print(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "")
    anyone = [(e["event"], e["time"]) for e in events if e["event"].startswith("attention") and "trackingID" not in e]
    failures = []
    if not anyone or anyone[0][0] != "attentionGained":
        failures.append(f"the first attention event is {anyone[:1]}, expected attentionGained with presence")
    # Each change of the clip must bring its event within the attention duration + 0.3 s.
    for change, name, what in [(3.0, "attentionLost", "eyes down (synthetic warp)"), (6.0, "attentionGained", "back"),
                               (9.0, "attentionLost", "cut to the cameraman (real photo)"), (12.0, "attentionGained", "back")]:
        found = [t for n, t in anyone if n == name and change <= t <= change + DURATION + SLACK + 1e-9]
        verdict = f"{name} at {found[0]:.3f} s, {found[0] - change:.3f} s after" if found else f"no {name} within {DURATION + SLACK:.1f} s"
        print(f"{change:4.1f} s {what}: {verdict}")
        if not found:
            failures.append(f"{what} at {change} s: {verdict}")
    extra = [(n, t) for n, t in anyone[1:] if not any(c <= t <= c + DURATION + SLACK + 1e-9 for c in (3.0, 6.0, 9.0, 12.0))]
    if extra:
        failures.append(f"attention events at no change: {extra}")
    presence = [e["event"] for e in events if e["event"] in ("faceDetected", "noFaceDetected")]
    if presence != ["faceDetected"]:
        failures.append(f"presence events {presence}, expected one faceDetected")
    gestures = [e for e in events if e["event"] in ("nod", "shake")]
    if gestures:
        failures.append(f"gestures on a clip without any: {gestures}")
    for failure in failures:
        print("FAIL:", failure)
    print("attention clip: " + ("all checks passed" if not failures else f"{len(failures)} checks failed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
