#!/usr/bin/env python3
"""No nod or shake on real clips of people talking, crying, laughing and turning their heads.

Runs `visage track --json --events-only` on each clip of Scripts/real_clips.py (fetched from PyPI) and on
Samples/clips/attention.mp4, prints the gesture events and the frames with a face, and exits 1 when any
clip gives a nod or a shake: none of these people nods or shakes their head (checked by looking at
their frames; the carphone man talks and rolls his head, the woman of "wolfgang" cries, laughs,
looks up and turns aside, the man of "man" smiles and talks).

    Scripts/check-gestures-clips.py [--visage .build/release/visage] [--clips carphone wolfgang ...]
"""
import argparse
import json
import os
import subprocess
import sys

from real_clips import CLIPS, clip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTENTION = os.path.join(ROOT, "Samples", "clips", "attention.mp4")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--clips", nargs="*", default=[*CLIPS, "attention"])
    args = parser.parse_args()
    total = 0
    for name in args.clips:
        path = ATTENTION if name == "attention" else clip(name)
        run = subprocess.run([args.visage, "track", path, "--json", "--debounce", "0"], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"visage track {path} failed ({run.returncode}): {run.stderr}")
        lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        frames = [l for l in lines if "faces" in l]
        gestures = [l for l in lines if l.get("event") in ("nod", "shake")]
        total += len(gestures)
        with_face = sum(1 for f in frames if f["faces"])
        print(f"{name}: {len(frames)} frames, {with_face} with a face, {len(gestures)} nod/shake events")
        for g in gestures:
            print("   ", json.dumps(g))
    print("gestures on real clips: " + ("none, as labelled" if total == 0 else f"{total} events where there are none"))
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
