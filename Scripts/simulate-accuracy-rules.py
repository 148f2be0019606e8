#!/usr/bin/env python3
"""Accurate-mode rules tried offline on Scripts/evaluate.py's images, before any Swift is written.

    python3 Scripts/evaluate.py --reuse-mediapipe --faces /tmp/labels.json      # images, labels, MediaPipe's results
    python3 Scripts/simulate-accuracy-rules.py --faces /tmp/labels.json [--out /tmp/visage-eval] [--visage .build/release/visage]

Runs `visage detect --json --mesh` over evaluate.py's image folder (--out/images, as the last evaluate.py run
left it) in fast mode, accurate mode and accurate mode with --no-rotations (the full 478-point meshes, which
evaluate.py's --faces file does not keep), rewrites accurate mode's faces by each rule, and prints
evaluate.py's figures (recall at IoU >= 0.4, precision on fully labelled photos, NME beside FaceLandmarker on
the faces both find, the superset count) per set, beside MediaPipe's from --out/mediapipe.json. Rules:

- base: accurate mode as it is (must reproduce evaluate.py's table);
- mesh-box: a face fast mode did not find takes the box of its own mesh where the mesh found a face (presence
  above 0.5): the square around all mesh points, centred, as wide as their box's longer side, the box
  MediaPipe's tracking treats as the detection's (it cuts the region 1.5x around either);
- mesh-box-all: every face with a mesh takes it, a face fast mode found moved toward fast mode's box only as
  far as IoU 0.5 needs (as FastFaceCoverage moves boxes);
- drop-meshless: a face fast mode did not find is dropped when the mesh found no face in it;
- drop-meshless-turned: the same, only for faces rotation search added (none of the --no-rotations run's
  faces overlaps them by more than 0.3);
- dense-crop: a face fast mode did not find is checked by the dense full-range model
  (Models/face_detection_full_range.tflite, ai-edge-litert) on a 192x192 crop of the picture turned upright by
  its eye line (keypoints 0 and 1), centred on its box and scaled so the box's longer side is
  DENSE_CROP_FRACTION of the crop; its score is the best sigmoid score of any of the 2304 anchors whose
  decoded box overlaps the expected one (the centred square) at IoU >= 0.3, no threshold, no NMS. It is
  dropped under DENSE_SMALL_SCORE when its box is under DENSE_SMALL_PIXELS wide in the picture, under
  DENSE_LARGE_SCORE otherwise.

Session 17's figures from it are in docs/benchmarks/accuracy.md, and so is session 18's check of dense-crop on
Scripts/heldout-accuracy-set.py's pictures (--out and --faces pointed at that set; --candidates lists each
candidate's dense-crop score).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("evaluate", os.path.join(HERE, "evaluate.py"))
ev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ev)

RULES = ["base", "mesh-box", "mesh-box-all", "drop-meshless", "drop-meshless-turned", "dense-crop"]
DENSE_CROP_FRACTION, DENSE_SMALL_PIXELS, DENSE_SMALL_SCORE, DENSE_LARGE_SCORE = 0.3, 16, 0.6, 0.1


def run(binary, folder, *flags):
    """{file: [dict(box, mesh (478x2 pixels or None), score)]} from `visage detect --json --mesh`."""
    out = subprocess.run([binary, "detect", "--json", "--mesh", "--min-face-size", "0.02", *flags, folder],
                         capture_output=True, text=True, check=True).stdout
    results = {}
    for line in out.splitlines():
        record = json.loads(line)
        faces = []
        for face in record.get("faces", []):
            f, mesh = face["frame"], face.get("mesh")
            eyes = [face["keypoints"][name] for name in ("rightEye", "leftEye")]
            faces.append(dict(box=np.array([f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]]),
                              eyes=np.array([[p["x"], p["y"]] for p in eyes]),
                              mesh=np.array([[p["x"], p["y"]] for p in mesh]) if mesh else None))
        results[os.path.basename(record["image"])] = faces
    return results


def mesh_box(points):
    low, high = points.min(0), points.max(0)
    centre, side = (low + high) / 2, max(high - low)
    return np.array([centre[0] - side / 2, centre[1] - side / 2, centre[0] + side / 2, centre[1] + side / 2])


def moved(box, toward, target=0.501):
    """`box` moved corner by corner toward `toward` until IoU >= target (bisection), as FastFaceCoverage."""
    low, high = 0.0, 1.0
    for _ in range(40):
        middle = (low + high) / 2
        if ev.iou(box + middle * (toward - box), toward) >= target:
            high = middle
        else:
            low = middle
    return box + high * (toward - box)


class DenseCrop:
    """The dense full-range model's score of a face on a crop around it (the dense-crop rule)."""

    def __init__(self):
        from ai_edge_litert.interpreter import Interpreter
        self.interpreter = Interpreter(model_path=os.path.join(ev.REPO, "Models", "face_detection_full_range.tflite"))
        self.interpreter.allocate_tensors()
        self.input = self.interpreter.get_input_details()[0]["index"]
        outputs = sorted(self.interpreter.get_output_details(), key=lambda d: -d["shape"][-1])
        self.regressors, self.classifiers = outputs[0]["index"], outputs[1]["index"]
        cells = (np.arange(48) + 0.5) / 48  # one anchor per cell of the 48x48 grid (stride 4)
        self.anchors = np.stack(np.meshgrid(cells, cells), -1).reshape(-1, 2) * 192

    def score(self, image, face):
        import cv2
        box, (right, left) = face["box"], face["eyes"]
        centre = (box[:2] + box[2:]) / 2
        angle = np.degrees(np.arctan2(*(left - right)[::-1]))
        matrix = cv2.getRotationMatrix2D(tuple(centre), angle, DENSE_CROP_FRACTION * 192 / max(box[2:] - box[:2]))
        matrix[:, 2] += 96 - centre
        crop = cv2.warpAffine(image, matrix, (192, 192), flags=cv2.INTER_LINEAR, borderValue=0)
        self.interpreter.set_tensor(self.input, (crop.astype(np.float32) / 127.5 - 1)[None])
        self.interpreter.invoke()
        raw = self.interpreter.get_tensor(self.regressors)[0]
        logits = np.clip(self.interpreter.get_tensor(self.classifiers)[0, :, 0], -100, 100)
        centres, sizes = raw[:, :2] + self.anchors, raw[:, 2:4]
        boxes = np.concatenate([centres - sizes / 2, centres + sizes / 2], 1)
        half = DENSE_CROP_FRACTION * 96
        expected = np.array([96 - half, 96 - half, 96 + half, 96 + half])
        near = [ev.iou(b, expected) >= 0.3 for b in boxes]
        return float((1 / (1 + np.exp(-logits[near]))).max()) if any(near) else 0.0


def dense_threshold(face):
    """The dense-crop score a face must reach: DENSE_SMALL_SCORE under DENSE_SMALL_PIXELS wide, else DENSE_LARGE_SCORE."""
    return DENSE_SMALL_SCORE if max(face["box"][2:] - face["box"][:2]) < DENSE_SMALL_PIXELS else DENSE_LARGE_SCORE


def dense_kept(face, dense, image):
    return dense.score(image, face) >= dense_threshold(face)


def nearest_fast(face, fast):
    """Fast mode's face nearest `face` by IoU, and whether it covers it (IoU >= 0.5, the superset line's)."""
    nearest = max(fast, key=lambda g: ev.iou(g["box"], face["box"]), default=None)
    return nearest, nearest is not None and ev.iou(nearest["box"], face["box"]) >= 0.5


def apply(rule, faces, fast, unturned, dense=None, image=None):
    out = []
    for face in faces:
        nearest, covered = nearest_fast(face, fast)
        box, mesh = face["box"], face["mesh"]
        if rule == "drop-meshless" and mesh is None and not covered:
            continue
        if rule == "drop-meshless-turned" and mesh is None and not covered \
                and not any(ev.iou(box, g["box"]) > 0.3 for g in unturned):
            continue
        if mesh is not None and (rule == "mesh-box" and not covered or rule == "mesh-box-all"):
            box = mesh_box(mesh)
            if covered and ev.iou(box, nearest["box"]) < 0.5:
                box = moved(box, nearest["box"])
        if rule == "dense-crop" and not covered and not dense_kept(face, dense, image()):
            continue
        out.append((box, None if mesh is None else mesh[ev.MESH8]))
    return out


def figures(cases, systems):
    groups = {}
    for case in cases:
        for key in [(case["source"], case["family"]), (case["source"], "all"), ("all", "all")]:
            groups.setdefault("/".join(key), []).append(case)
    rows = {}
    for key, members in sorted(groups.items()):
        row = {}
        for system, results in systems.items():
            matched = labelled = correct = found = 0
            for case in members:
                faces = results.get(case["file"], [])
                labelled += len(case["boxes"])
                matched += len(ev.match(case["boxes"], faces))
                if case["complete"]:
                    found += len(faces)
                    correct += len(ev.match(case["boxes"], faces))
            row[system] = (matched, labelled, correct, found)
        ours, theirs, above = [], [], 0
        for case in members:
            a = ev.match(case["boxes"], systems["visage accurate"].get(case["file"], []))
            m = ev.match(case["boxes"], systems["mediapipe landmarker"].get(case["file"], []))
            for i in set(a) & set(m):
                p = systems["visage accurate"][case["file"]][a[i]][1]
                if p is None:
                    continue
                ours.append(ev.nme(p, case["points"][i]))
                theirs.append(ev.nme(systems["mediapipe landmarker"][case["file"]][m[i]][1], case["points"][i]))
                above += ours[-1] - theirs[-1] > 0.001
        row["nme"] = (np.mean(ours) if ours else float("nan"), np.mean(theirs) if theirs else float("nan"), len(ours), above)
        row["superset"] = sum(
            any(not any(ev.iou(f[0], a[0]) >= 0.5 for a in systems["visage accurate"].get(case["file"], []))
                for f in systems["visage fast"].get(case["file"], []))
            for case in members)
        rows[key] = row
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visage", default=os.path.join(ev.REPO, ".build", "release", "visage"))
    parser.add_argument("--out", default=os.path.join("/tmp", "visage-eval"), help="evaluate.py's --out of the last run")
    parser.add_argument("--faces", required=True, help="evaluate.py's --faces file of the last run (its labels)")
    parser.add_argument("--rules", nargs="*", default=RULES, choices=RULES)
    parser.add_argument("--candidates", action="store_true",
                        help="also print every candidate of the dense-crop rule (a face of accurate mode that no fast-mode "
                             "face overlaps at IoU >= 0.5): its image, width, dense-crop score, and whether it matches a "
                             "label (IoU >= 0.4), is false (on a complete image, no label) or unknown")
    args = parser.parse_args()

    labels = json.load(open(args.faces))
    cases = [dict(c, points=[np.array(p) for p in c["points"]], boxes=[np.array(b) for b in c["boxes"]])
             for c in labels["cases"]]
    folder = os.path.join(args.out, "images")
    fast, accurate = run(args.visage, folder, "--mode", "fast"), run(args.visage, folder, "--mode", "accurate")
    unturned = run(args.visage, folder, "--mode", "accurate", "--no-rotations")
    mediapipe = ev.faces_from_json(json.load(open(os.path.join(args.out, "mediapipe.json")))["systems"])
    fast_system = {k: [(f["box"], None if f["mesh"] is None else f["mesh"][ev.MESH8]) for f in v] for k, v in fast.items()}
    dense = DenseCrop() if "dense-crop" in args.rules or args.candidates else None

    def picture(name):
        import cv2
        return lambda: cv2.cvtColor(cv2.imread(os.path.join(folder, name)), cv2.COLOR_BGR2RGB)

    if args.candidates:
        print("== candidates: image | width px | dense-crop score | threshold | label")
        for case in cases:
            faces, image = accurate.get(case["file"], []), picture(case["file"])
            candidates = [i for i, f in enumerate(faces) if not nearest_fast(f, fast.get(case["file"], []))[1]]
            # Labelled as evaluate.py counts it: greedy matching of all of accurate mode's faces to the labels.
            matched = set(ev.match(case["boxes"], [(f["box"], None) for f in faces]).values())
            for i in candidates:
                face = faces[i]
                width = max(face["box"][2:] - face["box"][:2])
                label = "labelled" if i in matched else "false" if case["complete"] else "unknown"
                print(f"{case['file']} | {width:.1f} | {dense.score(image(), face):.3f} | {dense_threshold(face)} | {label}")
        sys.stdout.flush()

    for rule in args.rules:
        systems = {"visage fast": fast_system,
                   "visage accurate": {k: apply(rule, v, fast.get(k, []), unturned.get(k, []), dense, picture(k))
                                       for k, v in accurate.items()}}
        systems.update(mediapipe)
        print(f"== {rule}: recall (accurate, MP short, MP full) | precision (accurate, MP short, MP full, fast) "
              "| NME accurate (FaceLandmarker) on n faces, above it by > 0.001 | images where accurate misses a fast face")
        for key, row in figures(cases, systems).items():
            a, s, f, q = row["visage accurate"], row["mediapipe short"], row["mediapipe full"], row["visage fast"]
            nme, mp_nme, n, above = row["nme"]
            print(f"{key:26s} {a[0]}/{a[1]} {s[0]} {f[0]} | {a[2]}/{a[3]} {s[2]}/{s[3]} {f[2]}/{f[3]} fast {q[2]}/{q[3]} "
                  f"| {nme:.4f} ({mp_nme:.4f}) n={n} >0.001: {above} | {row['superset']}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
