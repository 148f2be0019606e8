#!/usr/bin/env python3
"""Frame by frame on real clips: the signs of Visage's eye angles against MediaPipe's eyeLook blendshapes.

For every frame of each clip, `visage track --json` gives each eye's line of sight in the head
(`gaze.leftEye`/`rightEye`: yaw positive towards the subject's own left, pitch up) and MediaPipe
FaceLandmarker 0.10.21 (video mode, the same frames decoded by the same ffmpeg) gives eyeLookIn/Out/Up/
Down for each eye. MediaPipe's horizontal coefficient of an eye, signed as Visage's yaw, is
out − in for the left eye and in − out for the right; its vertical one is up − down. Where MediaPipe's
coefficient is clear (|h| or |v| ≥ --clear, 0.15 by default, as GazeFixtureTests), the signs must agree;
the script prints the agreement rate per clip, eye and axis, and for both eyes together (the mean of
the two coefficients against the mean of the two angles), the correlation over all frames, the per-eye
rate by how clear the coefficient is (every frame, 0.05, 0.15, 0.3) and with Visage's angles near 0 left
out (dead zones of 2° and 4°), MediaPipe's mean vertical coefficient, and exits 1 when the overall per-eye
rate is below --minimum.

Clips: Samples/clips/attention.mp4 and the real clips of Scripts/real_clips.py (fetched from PyPI).

    pip install mediapipe==0.10.21 numpy
    Scripts/compare-gaze-mediapipe.py [--visage .build/release/visage] [--clips carphone wolfgang ...] [--json out.json]
        [--pitch-shift limbus.json]   # what-if: eyes' pitch moved as Scripts/probe-iris-limbus.py measured
"""
import argparse
import json
import os
import subprocess
import sys

import mediapipe as mp
import numpy as np
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision

from real_clips import CLIPS, clip
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTENTION = os.path.join(ROOT, "Samples", "clips", "attention.mp4")


def frames(path):
    """RGB frames as ffmpeg decodes them for visage track: pixels made square as it makes them (the
    width scaled by the sample aspect ratio, kept even)."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height,sample_aspect_ratio", "-of", "csv=p=0", path],
                           capture_output=True, text=True, check=True)
    fields = probe.stdout.strip().split(",")
    w, h = int(fields[0]), int(fields[1])
    num, _, den = (fields[2] if len(fields) > 2 else "1:1").partition(":")
    try:
        ratio = float(num) / float(den)
    except (ValueError, ZeroDivisionError):
        ratio = 1.0
    filters = []
    if ratio > 0 and ratio != 1 and 0.25 <= ratio <= 4 and round(w * ratio / 2) * 2 != w:
        w = int(round(w * ratio / 2)) * 2
        filters = ["-vf", f"scale={w}:{h},setsar=1"]
    raw = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", path, "-map", "0:v:0", *filters, "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    count = len(raw) // (w * h * 3)
    return np.frombuffer(raw[: count * w * h * 3], dtype=np.uint8).reshape(count, h, w, 3)


def landmarker_results(task, rgb_frames, fps, blendshapes=False):
    """MediaPipe's FaceLandmarker in video mode over the frames (one face): each frame's result, in order."""
    options = vision.FaceLandmarkerOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.VIDEO,
        num_faces=1, output_face_blendshapes=blendshapes)
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        for index, rgb in enumerate(rgb_frames):
            yield landmarker.detect_for_video(
                mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)), int(round(index * 1000 / fps)))


def mediapipe_coefficients(task, rgb_frames, fps):
    out = []
    for result in landmarker_results(task, rgb_frames, fps, blendshapes=True):
        if not result.face_blendshapes:
            out.append(None)
            continue
        b = {c.category_name: c.score for c in result.face_blendshapes[0]}
        out.append({
            "left": (b["eyeLookOutLeft"] - b["eyeLookInLeft"], b["eyeLookUpLeft"] - b["eyeLookDownLeft"]),
            "right": (b["eyeLookInRight"] - b["eyeLookOutRight"], b["eyeLookUpRight"] - b["eyeLookDownRight"]),
        })
    return out


def visage_angles(visage, path):
    run = subprocess.run([visage, "track", path, "--json", "--debounce", "0"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"visage track {path} failed ({run.returncode}): {run.stderr}")
    by_frame = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        if "faces" not in record or not record["faces"]:
            continue
        gaze = record["faces"][0].get("gaze")
        if gaze and "leftEye" in gaze:
            by_frame[record["frame"]] = {
                "left": (gaze["leftEye"]["yaw"], gaze["leftEye"]["pitch"]),
                "right": (gaze["rightEye"]["yaw"], gaze["rightEye"]["pitch"])}
    return by_frame


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--clips", nargs="*", default=["attention", "carphone", "wolfgang", "man"])
    parser.add_argument("--clear", type=float, default=0.15)
    parser.add_argument("--minimum", type=float, default=0.8)
    parser.add_argument("--json")
    parser.add_argument("--pitch-shift", metavar="PROBE_JSON",
                        help="what-if: add to each eye's pitch the change Scripts/probe-iris-limbus.py --json measured "
                             "(its limbus fit's shift, asin(shift × 5.85 / 12)) before comparing")
    parser.add_argument("--swap-eyes", action="store_true", help="compare each eye with MediaPipe's other eye's coefficients")
    args = parser.parse_args()
    task = fetch_landmarker_task()
    totals = {"agree": 0, "compared": 0}
    report = {}
    pairs = {("h",): [], ("v",): []}
    for name in args.clips:
        path = ATTENTION if name == "attention" else clip(name)
        rate = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
                               "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout.strip()
        fps = eval(rate) if "/" in rate else float(rate)
        rgb = frames(path)
        reference = mediapipe_coefficients(task, rgb, fps)
        ours = visage_angles(args.visage, path)
        if args.pitch_shift:
            shifts = json.load(open(args.pitch_shift)).get(name, [])
            for index, eyes in ours.items():
                probe = shifts[index] if index < len(shifts) else None
                for eye in ("left", "right"):
                    if probe and probe.get(eye):
                        change = np.degrees(np.arcsin(np.clip(probe[eye]["up"] * 0.585 / 1.2, -1, 1)))
                        eyes[eye] = (eyes[eye][0], eyes[eye][1] + change)
        counts = {}
        both = 0
        for index, mine in ours.items():
            if index >= len(reference) or reference[index] is None:
                continue
            both += 1
            ref, own = dict(reference[index]), dict(mine)
            if args.swap_eyes:
                ref["left"], ref["right"] = ref["right"], ref["left"]
            # Both eyes together: the mean of MediaPipe's two coefficients against the mean of the two angles.
            ref["both"] = tuple((ref["left"][k] + ref["right"][k]) / 2 for k in (0, 1))
            own["both"] = tuple((own["left"][k] + own["right"][k]) / 2 for k in (0, 1))
            for eye in ("left", "right", "both"):
                for axis, label in ((0, "yaw"), (1, "pitch")):
                    coefficient, angle = ref[eye][axis], own[eye][axis]
                    if eye != "both":
                        pairs[("h",) if axis == 0 else ("v",)].append((coefficient, angle))
                    if abs(coefficient) < args.clear:
                        continue
                    key = f"{eye} {label}"
                    agree, compared = counts.get(key, (0, 0))
                    counts[key] = (agree + ((angle > 0) == (coefficient > 0)), compared + 1)
        agree = sum(a for k, (a, _) in counts.items() if not k.startswith("both"))
        compared = sum(c for k, (_, c) in counts.items() if not k.startswith("both"))
        for key in ("both yaw", "both pitch"):
            a, c = counts.get(key, (0, 0))
            totals[key] = tuple(x + y for x, y in zip(totals.get(key, (0, 0)), (a, c)))
        totals["agree"] += agree
        totals["compared"] += compared
        report[name] = {"frames": len(rgb), "bothFound": both, "agree": agree, "compared": compared,
                        "byEye": {k: {"agree": a, "compared": c} for k, (a, c) in counts.items()}}
        detail = ", ".join(f"{k} {a}/{c}" for k, (a, c) in sorted(counts.items()))
        print(f"{name}: {len(rgb)} frames, {both} with both faces; clear signs agree {agree}/{compared}"
              + (f" ({agree / compared:.1%})" if compared else "") + f" [{detail}]")
    for axis, label in ((("h",), "horizontal (yaw)"), (("v",), "vertical (pitch)")):
        values = np.array(pairs[axis])
        if len(values) > 2:
            print(f"correlation, {label}: {np.corrcoef(values[:, 0], values[:, 1])[0, 1]:.3f} over {len(values)} eye-frames")
    for key in ("both yaw", "both pitch"):
        a, c = totals.get(key, (0, 0))
        print(f"both eyes together, {key[5:]}: clear signs agree {a}/{c}" + (f" ({a / c:.1%})" if c else ""))
    # Per eye, by how clear MediaPipe's coefficient is (0: every frame where it is not exactly 0) and with
    # Visage's angles inside a dead zone left out; and MediaPipe's mean vertical coefficient, which is
    # its bias on clips where people mostly look into the lens.
    every = np.array([(c, a, 0) for c, a in pairs[("h",)]] + [(c, a, 1) for c, a in pairs[("v",)]])
    if len(every):
        for axis, label in ((None, "both axes"), (0, "yaw"), (1, "pitch")):
            rows = every if axis is None else every[every[:, 2] == axis]
            cells = []
            for clear in (0.0, 0.05, 0.15, 0.3):
                for dead in (0.0, 2.0, 4.0):
                    kept = rows[(np.abs(rows[:, 0]) > clear if clear == 0 else np.abs(rows[:, 0]) >= clear) & (np.abs(rows[:, 1]) >= dead)]
                    if len(kept):
                        rate = np.mean((kept[:, 1] > 0) == (kept[:, 0] > 0))
                        cells.append(f"|c|{'>' if clear == 0 else '≥'}{clear:g}, |angle|≥{dead:g}°: {rate:.1%} of {len(kept)}")
            print(f"per eye, {label}: " + "; ".join(cells))
        vertical = every[every[:, 2] == 1]
        print(f"MediaPipe's mean vertical coefficient (up − down): {vertical[:, 0].mean():+.2f} over {len(vertical)} eye-frames")
    overall = totals["agree"] / totals["compared"] if totals["compared"] else 0
    print(f"overall: clear signs agree {totals['agree']}/{totals['compared']} ({overall:.1%}); minimum {args.minimum:.0%}")
    if args.json:
        json.dump({"clear": args.clear, "overall": overall, "clips": report}, open(args.json, "w"), indent=1)
    sys.exit(0 if totals["compared"] and overall >= args.minimum else 1)


if __name__ == "__main__":
    main()
