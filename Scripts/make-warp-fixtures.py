#!/usr/bin/env python3
"""Writes Tests/VisageImageTests/Fixtures/warp-fixed-point.json: OpenCV's 8-bit INTER_LINEAR warps, the
reference for Image.warpAffineFixedPoint (MediaPipe's CPU ImageToTensorCalculator warps this way).

A 29x21 RGB source (a smooth pattern plus noise, seeded) and cases, each an affine map from output pixel
to source pixel [a b tx; c d ty], an output size, a border (zero = BORDER_CONSTANT 0, replicate) and the
8-bit output of cv2.warpPerspective(..., INTER_LINEAR | WARP_INVERSE_MAP) with [a b tx; c d ty; 0 0 1]
(MediaPipe's own call, without the inverse flag on a matrix from getPerspectiveTransform, is the same
warp: OpenCV inverts the matrix first). Bytes are base64, rows top to bottom, RGB interleaved.

    pip install opencv-python-headless numpy   # made with opencv-python 4.11.0 (MediaPipe 0.10.21 bundles 4.10.0,
    python3 Scripts/make-warp-fixtures.py      # whose warpPerspective is the same fixed-point code)
"""
import base64
import json
from pathlib import Path

import cv2
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "Tests" / "VisageImageTests" / "Fixtures" / "warp-fixed-point.json"
rng = np.random.default_rng(0x5EED)
W, H = 29, 21
ys, xs = np.mgrid[0:H, 0:W]
pattern = np.stack([128 + 100 * np.sin(xs / 3.1 + ys / 5.3), 128 + 90 * np.cos(ys / 2.7 - xs / 7.1), 6 * xs + 4 * ys], -1)
source = np.clip(pattern + rng.normal(0, 18, pattern.shape), 0, 255).astype(np.uint8)

cases = []
for trial in range(16):
    width, height = int(rng.integers(5, 25)), int(rng.integers(5, 21))
    angle = rng.uniform(-np.pi, np.pi)
    sx, sy = rng.uniform(0.3, 2.2), rng.uniform(0.3, 2.2)
    shear = rng.uniform(-0.3, 0.3)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    linear = rotation @ np.diag([sx, sy]) @ np.array([[1, shear], [0, 1]])
    centre = np.array([rng.uniform(-4, W + 3), rng.uniform(-4, H + 3)])
    offset = centre - linear @ np.array([width / 2, height / 2])
    matrix = np.array([[linear[0, 0], linear[0, 1], offset[0]], [linear[1, 0], linear[1, 1], offset[1]], [0, 0, 1]])
    border = "zero" if trial % 2 == 0 else "replicate"
    out = cv2.warpPerspective(source, matrix, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT if border == "zero" else cv2.BORDER_REPLICATE, borderValue=0)
    cases.append(dict(transform=[matrix[0, 0], matrix[0, 1], matrix[1, 0], matrix[1, 1], matrix[0, 2], matrix[1, 2]],
                      width=width, height=height, border=border, levels=base64.b64encode(out.tobytes()).decode()))

OUT.write_text(json.dumps(dict(width=W, height=H, pixels=base64.b64encode(source.tobytes()).decode(), cases=cases), indent=1) + "\n")
print(f"wrote {OUT} ({len(cases)} cases)")
