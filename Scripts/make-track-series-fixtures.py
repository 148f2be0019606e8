#!/usr/bin/env python3
"""What `visage track` measured on real clips, frame by frame, for the debug suite's attention and gesture
tests (Tests/VisageTests/Fixtures/track-series/series.json): each frame's time and, per face, its
tracking ID, head pitch and yaw, head and gaze angles from the camera, and each eye's openness (lid
aperture in iris diameters, the subject's left then right). The tests replay these
through the event logic without running any model.

Clips: Samples/clips/attention.mp4 (with its labelled changes from attention.json) and the real clips
of Scripts/real_clips.py (fetched from PyPI with pip). Only derived angles are written, no pictures.

    swift build -c release --product visage
    python3 Scripts/make-track-series-fixtures.py [--visage .build/release/visage]
"""
import argparse
import json
import os
import subprocess
import sys

from real_clips import clip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "track-series", "series.json")
CLIPS = {"attention": os.path.join(ROOT, "Samples", "clips", "attention.mp4")}


def series(visage, path):
    run = subprocess.run([visage, "track", path, "--json", "--debounce", "0"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"visage track {path} failed ({run.returncode}): {run.stderr}")
    frames = []
    for line in run.stdout.splitlines():
        record = json.loads(line)
        if "faces" not in record:
            continue
        faces = []
        for face in record["faces"]:
            gaze = face.get("gaze") or {}
            eyes = face.get("eyeOpenness") or {}
            faces.append([face["trackingID"], face.get("pitch"), face.get("yaw"),
                          gaze.get("headAngleFromCamera"), gaze.get("angleFromCamera"), eyes.get("left"), eyes.get("right")])
        frames.append({"time": record["time"], "faces": faces})
    return frames


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    args = parser.parse_args()
    labels = json.load(open(os.path.join(ROOT, "Samples", "clips", "attention.json")))
    changes, start, previous = [], 0.0, None
    for segment in labels["segments"]:
        if previous is not None and segment["watching"] != previous:
            changes.append({"time": round(start, 6), "watching": segment["watching"]})
        previous = segment["watching"]
        start += segment["to"] - segment["from"]
    out = {"about": "visage track --json --debounce 0 on real clips: per frame, [trackingID, pitch, yaw, "
                    "headAngleFromCamera, gaze angleFromCamera, eyeOpenness left, right] per face "
                    "(Scripts/make-track-series-fixtures.py)",
           "attentionChanges": changes, "clips": {}}
    for name in ["attention", "carphone", "wolfgang", "man", "title-man"]:
        out["clips"][name] = series(args.visage, CLIPS.get(name) or clip(name))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{OUT}: {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
