#!/usr/bin/env python3
"""Times Visage's contour detection against OpenCV in the same run.

1. Border following on 512×512 binary images: OpenCV's findContours (RETR_TREE,
   CHAIN_APPROX_NONE) against `visage contours --benchmark` (border following alone, on the
   same PNG read as nonzero = foreground), median of N runs each, and the ratio Visage / OpenCV.
2. The whole DetectContoursRequest (gray, downscale to 512, contrast, trace, observation) on a
   12-megapixel JPEG made by upscaling a sample photo, with decoding timed apart.

    pip install opencv-python-headless numpy
    python3 Scripts/benchmark-contours.py [--runs 50] [--scratch-path .build]

Builds `visage` in release first. OpenCV is only the reference here, never a dependency.
"""
import argparse
import json
import math
import os
import subprocess
import tempfile
import time

import cv2
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def binary_images(rng):
    size = 512
    images = {}
    for name, sigma, density in [("blobs_coarse", 8, 0.5), ("blobs_medium", 3, 0.5), ("blobs_fine", 1.2, 0.45)]:
        noise = cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), sigma)
        images[name] = (noise < np.quantile(noise, density)).astype(np.uint8) * 255
    images["noise_30pct"] = (rng.random((size, size)) < 0.3).astype(np.uint8) * 255
    squares = np.zeros((size, size), np.uint8)
    for k, lo in enumerate(range(2, size // 2, 3)):
        squares[lo:size - lo, lo:size - lo] = 255 * ((k + 1) % 2)
    images["nested_squares"] = squares
    for sample in ["astronaut", "camera", "coins", "horse"]:
        gray = cv2.imread(os.path.join(ROOT, "Samples", sample + ".png"), cv2.IMREAD_GRAYSCALE)
        gray = cv2.resize(gray, (size, size), interpolation=cv2.INTER_AREA)
        images["sample_" + sample] = np.where(gray < 128, 255, 0).astype(np.uint8)
    return images


def median_ms(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def build_visage(scratch):
    subprocess.run(["swift", "build", "-c", "release", "--product", "visage", "--scratch-path", scratch],
                   cwd=ROOT, check=True)
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                              cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, "visage")


def visage_timings(visage, paths, runs):
    out = subprocess.run([visage, "contours", "--benchmark", str(runs), "--json", *paths],
                         check=True, capture_output=True, text=True).stdout
    return {os.path.basename(r["image"]): r for r in map(json.loads, out.splitlines())}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--visage", help="a release visage binary (skips the build)")
    args = parser.parse_args()
    visage = args.visage or build_visage(args.scratch_path)
    rng = np.random.default_rng(512)

    with tempfile.TemporaryDirectory() as tmp:
        images = binary_images(rng)
        paths = []
        opencv = {}
        for name, img in images.items():
            path = os.path.join(tmp, name + ".png")
            cv2.imwrite(path, img)
            paths.append(path)
            contours, _ = cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
            ms = median_ms(lambda: cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE), args.runs)
            opencv[name + ".png"] = (ms, len(contours))
        ours = visage_timings(visage, paths, args.runs)

        print(f"Border following, 512×512 binary images, median of {args.runs} runs (OpenCV {cv2.__version__})")
        print(f"{'image':<22}{'contours':>9}{'OpenCV ms':>11}{'Visage ms':>11}{'ratio':>8}")
        ratios = []
        for name, (cv_ms, cv_count) in opencv.items():
            record = ours[name]
            ratio = record["borderFollowingMilliseconds"] / cv_ms
            ratios.append(ratio)
            same = "" if record["borderCount"] == cv_count else f"  (Visage {record['borderCount']}!)"
            print(f"{name[:-4]:<22}{cv_count:>9}{cv_ms:>11.3f}{record['borderFollowingMilliseconds']:>11.3f}{ratio:>7.2f}×{same}")
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"geometric mean ratio Visage / OpenCV: {geomean:.2f}× (goal ≤ 1.0×)")

        photo = cv2.imread(os.path.join(ROOT, "Samples", "astronaut.png"))
        photo = cv2.resize(photo, (4000, 3000), interpolation=cv2.INTER_CUBIC)
        path = os.path.join(tmp, "photo_12mp.jpg")
        cv2.imwrite(path, photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
        runs = max(3, args.runs // 10)
        record = visage_timings(visage, [path], runs)["photo_12mp.jpg"]
        print(f"Whole request on a 4000×3000 JPEG (12 MP), median of {runs} runs: "
              f"decode {record['decodeMilliseconds']:.1f} ms, request {record['requestMilliseconds']:.1f} ms "
              f"({record['contourCount']} contours at 512×384)")


if __name__ == "__main__":
    main()
