#!/usr/bin/env python3
"""MediaPipe FaceLandmarker reference results for Visage's gaze stage (Tests/VisageTests/Fixtures/gaze).

Real photos, and the same photos with the irises moved by a known number of pixels (a local warp of
each eye: labelled synthetic in the fixture). For each picture this records what MediaPipe tasks
FaceLandmarker 0.10.21 gives in image mode: the 478 normalized landmarks, the eight eyeLook
blendshapes and the two eyeBlink ones, and the 4×4 facial transformation matrix. Visage's tests run
its gaze method on MediaPipe's own landmarks (no network in the test), then check

  * that the gaze's signs agree with MediaPipe's eyeLookIn/Out/Up/Down coefficients, and
  * that moving an iris by `shift` pixels turns the gaze by the angle that shift implies for an
    eyeball of 12 mm radius seen at the face's scale (the measurable angular error).

Pictures (all from the public-domain Samples):
  astronaut   Samples/astronaut.png, the face cropped and scaled 2.5× to 640×640 (looks at the camera)
  camera      Samples/camera.png, the cameraman cropped and scaled 2× (looks down into his camera)
  astronaut-iris-{left,right,up,down}-{small,large}
              astronaut with both irises moved in the picture by 0.35 or 0.7 iris radii; "left" is
              the picture's left, "up" towards the top of the picture.

    .venv/bin/pip install mediapipe==0.10.21 numpy Pillow opencv-python
    .venv/bin/python Scripts/make-gaze-fixtures.py [--task face_landmarker.task] [--images DIR]

Without --task the landmarker bundle is fetched from PyPI as Scripts/make-landmark-fixtures.py does.
--images also writes the pictures as PNGs there (not committed: the fixture is the landmarks).
"""
import argparse
import json
import os

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from PIL import Image
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "Samples")
OUT = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "gaze")
BLENDSHAPES = ["eyeBlinkLeft", "eyeBlinkRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft",
               "eyeLookOutRight", "eyeLookUpLeft", "eyeLookUpRight", "eyeLookDownLeft", "eyeLookDownRight"]
# Iris centre and the four points on its rim, for the subject's right eye (first) and left eye.
IRISES = [(468, [469, 470, 471, 472]), (473, [474, 475, 476, 477])]


def base_pictures():
    astronaut = Image.open(os.path.join(SAMPLES, "astronaut.png")).convert("RGB")
    astronaut = astronaut.crop((140, 20, 396, 276)).resize((640, 640), Image.LANCZOS)
    camera = Image.open(os.path.join(SAMPLES, "camera.png")).convert("RGB")
    camera = camera.crop((120, 30, 440, 270)).resize((640, 480), Image.LANCZOS)
    return np.array(astronaut), np.array(camera)


def detect(landmarker, rgb):
    result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
    if not result.face_landmarks:
        return None
    points = result.face_landmarks[0]
    shapes = {c.category_name: c.score for c in result.face_blendshapes[0]}
    return {
        "landmarks": [round(v, 6) for p in points for v in (p.x, p.y, p.z)],
        "blendshapes": {name: round(shapes[name], 6) for name in BLENDSHAPES},
        "matrix": [round(float(v), 6) for v in np.asarray(result.facial_transformation_matrixes[0]).reshape(-1)],
    }


def move_irises(rgb, landmarks, shift_radii, direction):
    """Both irises moved by `shift_radii` of their own radius along `direction` (picture pixels, y
    down): a displacement that is whole inside the iris and fades to nothing by 2.2 radii, applied by
    backward mapping (each output pixel reads from where the moved iris came from)."""
    h, w = rgb.shape[:2]
    pts = np.array(landmarks).reshape(-1, 3)[:, :2] * [w, h]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    map_x, map_y = xs.copy(), ys.copy()
    shifts = []
    for centre_index, rim in IRISES:
        centre = pts[centre_index]
        radius = float(np.mean([np.linalg.norm(pts[i] - centre) for i in rim]))
        shift = np.array(direction, dtype=np.float32) * shift_radii * radius
        # Distance from where the iris ends up, so the whole moved iris reads the whole original one.
        d = np.hypot(xs - (centre[0] + shift[0]), ys - (centre[1] + shift[1])) / radius
        weight = np.clip((2.2 - d) / 1.2, 0, 1)
        weight = weight * weight * (3 - 2 * weight)
        map_x -= weight * shift[0]
        map_y -= weight * shift[1]
        shifts.append([round(float(shift[0]), 4), round(float(shift[1]), 4)])
    warped = cv2.remap(rgb, map_x, map_y, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    return warped, shifts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task")
    parser.add_argument("--images")
    args = parser.parse_args()
    task = args.task or fetch_landmarker_task()
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=task), num_faces=1,
        output_face_blendshapes=True, output_facial_transformation_matrixes=True))
    astronaut, camera = base_pictures()
    frames = []

    def record(name, rgb, synthetic, shifts=None, of=None):
        found = detect(landmarker, rgb)
        if found is None:
            raise SystemExit(f"{name}: MediaPipe finds no face")
        entry = {"name": name, "width": rgb.shape[1], "height": rgb.shape[0], "synthetic": synthetic}
        if shifts is not None:
            entry.update({"of": of, "irisShift": shifts})
        entry.update(found)
        frames.append(entry)
        if args.images:
            Image.fromarray(rgb).save(os.path.join(args.images, name + ".png"))
        return found

    base = record("astronaut", astronaut, False)
    record("camera", camera, False)
    directions = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
    for label, direction in directions.items():
        for size, radii in (("small", 0.35), ("large", 0.7)):
            warped, shifts = move_irises(astronaut, base["landmarks"], radii, direction)
            record(f"astronaut-iris-{label}-{size}", warped, True, shifts, "astronaut")

    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "gaze.json"), "w") as f:
        json.dump({"mediapipe": mp.__version__, "frames": frames}, f, separators=(",", ":"))
    for frame in frames:
        b = frame["blendshapes"]
        print(f"{frame['name']:28s} in L/R {b['eyeLookInLeft']:.2f}/{b['eyeLookInRight']:.2f} "
              f"out {b['eyeLookOutLeft']:.2f}/{b['eyeLookOutRight']:.2f} up {b['eyeLookUpLeft']:.2f}/{b['eyeLookUpRight']:.2f} "
              f"down {b['eyeLookDownLeft']:.2f}/{b['eyeLookDownRight']:.2f}")


if __name__ == "__main__":
    main()
