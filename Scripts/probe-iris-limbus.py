#!/usr/bin/env python3
"""Probe: can the image place a lid-covered iris better than the mesh? (issue 17, the spurious gain at 4.64 s)

For every frame of a clip, MediaPipe FaceLandmarker 0.10.21 (video mode) gives the 478-point mesh; per
eye, the iris ring (469-472, 474-477) gives the iris radius r in pixels and the mesh's iris centre (468,
473). A limbus fit then looks for the centre of a circle of radius r near the mesh's centre that best
sits on the visible iris/sclera edge (an integro-differential search, Daugman's operator restricted to
what the lids leave visible): for each candidate centre, the outward intensity step (outside minus
inside, 0.25 r either side of the circle) summed over the circle's points that lie inside the eye
opening (the 16 lid points' polygon) and divided by all the arc's points, on the lower half and the sides only (angles from -20 to 200 degrees measured
downwards from the picture's right, i.e. the upper arc, where the lid sits, left out). Candidates are a
0.1 r grid within ±0.6 r of the mesh's centre. --score mean averages the step over the visible points
alone instead of summing over the whole arc with hidden points as 0. The shift of the best centre from the mesh's, in iris
radii (up and towards the picture's right positive), is what an image-based iris would change; with an
eyeball radius of 12 mm and an iris of 5.85 mm radius it turns the eye by asin(shift × 5.85 / 12).

Also per eye, from the mesh alone: the lid aperture (159-145, 386-374) over the iris diameter, and how
far the lower lid (145, 374) sits below the bottom of the mesh's iris circle, in iris radii.

On the attention clip it then replays `visage track`'s per-frame gaze with each frame's pitch moved
by the limbus fit's change through the cones and the attention duration (an approximation, see
replay_attention), against the same replay unmoved. Scripts/compare-gaze-mediapipe.py --pitch-shift
FILE takes this script's --json to measure sign agreement with the same changes.

Prints per labelled segment of Samples/clips/attention.mp4 (and per clip for the others) the median
and 10th/90th percentile of the vertical shift and its implied pitch change, and for the frames at
4.16-4.88 s (the woman looking up under her lids) separately.

    pip install mediapipe==0.10.21 numpy
    Scripts/probe-iris-limbus.py [--clips attention carphone wolfgang man] [--json out.json]
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util

spec = importlib.util.spec_from_file_location("compare", os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare-gaze-mediapipe.py"))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)

from real_clips import clip
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTENTION = os.path.join(ROOT, "Samples", "clips", "attention.mp4")
LABELS = os.path.join(ROOT, "Samples", "clips", "attention.json")
EYES = {
    "right": ([33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246], 468, [469, 470, 471, 472]),
    "left": ([263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466], 473, [474, 475, 476, 477]),
}
IRIS_OVER_EYEBALL = 0.585 / 1.2


def bilinear(gray, x, y):
    h, w = gray.shape
    x = np.clip(x, 0, w - 1.001)
    y = np.clip(y, 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    return ((gray[y0, x0] * (1 - fx) + gray[y0, x0 + 1] * fx) * (1 - fy)
            + (gray[y0 + 1, x0] * (1 - fx) + gray[y0 + 1, x0 + 1] * fx) * fy)


def inside(polygon, x, y):
    """Even-odd rule, vectorised over points."""
    result = np.zeros(x.shape, dtype=bool)
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        crosses = (y1 > y) != (y2 > y)
        xs = x1 + (y - y1) * (x2 - x1) / np.where(y2 - y1 == 0, 1e-12, y2 - y1)
        result ^= crosses & (x < xs)
    return result


def limbus_shift(gray, points, eye, score_mode):
    opening, centre_index, ring = EYES[eye]
    centre = points[centre_index]
    r = np.mean([np.linalg.norm(points[i] - centre) for i in ring])
    if not (r > 1):
        return None
    polygon = [points[i] for i in opening]
    # Angles in picture coordinates (y down): 0 = right, 90 = down; keep -20…200 (lower half and sides).
    angles = np.radians(np.arange(-20, 201, 10))
    cos, sin = np.cos(angles), np.sin(angles)
    best = None
    grid = np.arange(-0.6, 0.61, 0.1)
    for dy in grid:
        for dx in grid:
            cx, cy = centre[0] + dx * r, centre[1] + dy * r
            px, py = cx + r * cos, cy + r * sin
            visible = inside(polygon, px, py)
            if visible.sum() < 6:
                continue
            outer = bilinear(gray, cx + 1.25 * r * cos, cy + 1.25 * r * sin)
            inner = bilinear(gray, cx + 0.75 * r * cos, cy + 0.75 * r * sin)
            steps = (outer - inner)[visible]
            # "sum": over the whole arc, hidden points counting 0 (Daugman's operator on what is visible);
            # "mean": over the visible points alone.
            score = np.sum(steps) / len(angles) if score_mode == "sum" else np.mean(steps)
            if best is None or score > best[0]:
                best = (score, dx, dy)
    if best is None:
        return None
    upper, lower = {"right": (159, 145), "left": (386, 374)}[eye]
    aperture = np.linalg.norm(points[upper] - points[lower]) / (2 * r)
    # How far below the mesh's iris circle the lower lid is, in iris radii: sclera shows below the iris
    # when positive; at 0 or below, the lower lid covers the iris's bottom and the image cannot put the
    # centre higher than the mesh's without showing sclera that is not there.
    gap = (points[lower][1] - (centre[1] + r)) / r
    return {"r": float(r), "dx": float(best[1]), "up": float(-best[2]), "aperture": float(aperture), "gap": float(gap)}


def mesh_points(task, rgb_frames, fps):
    out = []
    for result, rgb in zip(compare.landmarker_results(task, rgb_frames, fps), rgb_frames):
        if not result.face_landmarks:
            out.append(None)
            continue
        h, w = rgb.shape[:2]
        out.append(np.array([(p.x * w, p.y * h) for p in result.face_landmarks[0]]))
    return out


def pitch_change(up):
    return math.degrees(math.asin(max(-1, min(1, up * IRIS_OVER_EYEBALL))))


def summary(rows):
    if not rows:
        return "no frames"
    ups, rs, apertures, gaps = (np.array(column) for column in zip(*rows))
    q = np.percentile(ups, [10, 50, 90])
    edge = np.mean(np.abs(ups) > 0.55)
    return (f"{len(ups)} eye-frames, iris r {np.median(rs):.1f} px; limbus shift up (iris radii) p10 {q[0]:+.2f} median {q[1]:+.2f} "
            f"p90 {q[2]:+.2f} ({edge:.0%} at the search's edge), pitch change median {pitch_change(q[1]):+.1f} deg; "
            f"lid aperture / iris diameter median {np.median(apertures):.2f}; lower lid below the iris (radii) median {np.median(gaps):+.2f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clips", nargs="*", default=["attention", "carphone", "wolfgang", "man"])
    parser.add_argument("--score", choices=["sum", "mean"], default="sum",
                        help="limbus score over the arc: hidden points count 0 (sum) or are left out (mean)")
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"),
                        help="for the attention clip's replay (skipped when absent)")
    parser.add_argument("--json")
    args = parser.parse_args()
    task = fetch_landmarker_task()
    report = {}
    for name in args.clips:
        path = ATTENTION if name == "attention" else clip(name)
        rgb = compare.frames(path)
        rate = compare.subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
                                       "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout.strip()
        fps = eval(rate) if "/" in rate else float(rate)
        meshes = mesh_points(task, rgb, fps)
        per_frame = []
        for index, (frame, points) in enumerate(zip(rgb, meshes)):
            if points is None:
                per_frame.append(None)
                continue
            gray = frame.astype(np.float64) @ np.array([0.299, 0.587, 0.114])
            per_frame.append({eye: limbus_shift(gray, points, eye, args.score) for eye in EYES})
        report[name] = per_frame
        groups = {}
        if name == "attention":
            labels = json.load(open(LABELS))
            start = 0.0
            bounds = []
            for segment in labels["segments"]:
                length = segment["to"] - segment["from"]
                bounds.append((start, start + length, f"{start:.1f}-{start + length:.1f} s {segment['clip']} ({'watching' if segment['watching'] else 'away'})"))
                start += length
            bounds.append((4.16, 4.88 + 1e-6, "4.16-4.88 s woman looking up under her lids (the spurious gain)"))
        else:
            bounds = [(0, 1e9, name)]
        for index, eyes in enumerate(per_frame):
            if not eyes:
                continue
            t = index / fps
            for lo, hi, label in bounds:
                if lo <= t < hi:
                    for e in eyes.values():
                        if e:
                            groups.setdefault(label, []).append((e["up"], e["r"], e["aperture"], e["gap"]))
        for lo, hi, label in bounds:
            print(f"{label}: {summary(groups.get(label, []))}")
        if name == "attention" and os.path.exists(args.visage):
            replay_attention(args.visage, per_frame, bounds[:-1])
    if args.json:
        json.dump(report, open(args.json, "w"))


def replay_attention(visage, per_frame, segments, cone=22.0, head_cone=30.0, duration=0.5):
    """What-if on the labelled clip: `visage track`'s per-frame gaze, each frame's pitch moved by the mean
    of its two eyes' limbus pitch change, replayed through the cones and the 0.5 s attention duration.
    Approximate: the change is added to the camera-frame pitch and the camera's direction is taken as
    fixed, so angleFromCamera' = sqrt(angle² − pitch² + (pitch + change)²); the replay without the change
    reproduces visage track's own events, which is what makes the comparison fair."""
    run = subprocess.run([visage, "track", ATTENTION, "--json", "--debounce", "0"], capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in run.stdout.splitlines() if '"faces"' in line]
    for mode in ("mesh", "limbus"):
        readings, inside = [], {}
        for record in records:
            gaze = record["faces"][0].get("gaze") if record["faces"] else None
            if not gaze:
                continue
            angle, pitch, change = gaze["angleFromCamera"], gaze["pitch"], 0.0
            eyes = per_frame[record["frame"]] if mode == "limbus" and record["frame"] < len(per_frame) else None
            changes = [pitch_change(e["up"]) for e in (eyes or {}).values() if e]
            if changes:
                change = sum(changes) / len(changes)
            moved = math.sqrt(max(0.0, angle * angle - pitch * pitch + (pitch + change) ** 2))
            watching = moved < cone and gaze["headAngleFromCamera"] < head_cone
            readings.append((record["time"], watching))
            for lo, hi, label in segments:
                if lo <= record["time"] < hi:
                    inside.setdefault("watching" if "(watching)" in label else "away", []).append(watching)
        state, candidate, since, events = None, None, 0.0, []
        for time, watching in readings:
            if watching != candidate:
                candidate, since = watching, time
            if candidate != state and time - since >= duration - 1e-9:
                state = candidate
                events.append(f"{'attentionGained' if watching else 'attentionLost'} {time:.2f} s")
        shares = ", ".join(f"{k} frames inside the cones {np.mean(v):.0%} of {len(v)}" for k, v in sorted(inside.items()))
        print(f"attention replay, {mode} iris: {shares}; events: {', '.join(events)}")


if __name__ == "__main__":
    main()
