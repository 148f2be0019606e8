#!/usr/bin/env python3
"""Regenerates Tests/VisageContoursTests/Fixtures from the reference implementations.

- findcontours.json: binary images and what OpenCV's findContours (RETR_TREE,
  CHAIN_APPROX_NONE) returns for them: every contour's points (x, y) in OpenCV's order and
  the hierarchy rows [next, previous, first child, parent] (-1 for none).
  Each image row is hex, 4 pixels per digit, most significant bit first, zero-padded.
- rdp.json: random polylines (open and closed) and the indices a plain recursive
  Ramer-Douglas-Peucker keeps for several epsilons.

OpenCV is only a test oracle: `pip install opencv-python-headless numpy`, then
`python3 Scripts/make-contour-fixtures.py`.
"""
import json
import math
import os

import cv2
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "VisageContoursTests", "Fixtures")


def nested_squares(size, step):
    img = np.zeros((size, size), np.uint8)
    value, lo = 1, 1
    while lo < size - lo:
        img[lo:size - lo, lo:size - lo] = value
        value ^= 1
        lo += step
    return img


def rings(size, cx, cy, radii):
    yy, xx = np.mgrid[0:size, 0:size]
    d = np.hypot(xx - cx, yy - cy)
    img = np.zeros((size, size), np.uint8)
    for i, r in enumerate(sorted(radii, reverse=True)):
        img[d <= r] = 1 - (i % 2)
    return img


def lines():
    img = np.zeros((40, 48), np.uint8)
    img[3, 2:30] = 1                      # horizontal
    img[5:35, 40] = 1                     # vertical
    for i in range(20):                   # diagonal and anti-diagonal
        img[8 + i, 3 + i] = 1
        img[8 + i, 36 - i] = 1
    img[30:38, 5] = 1                     # an L
    img[37, 5:15] = 1
    img[33, 20:23] = 1                    # short pieces
    img[35, 25] = 1
    return img


def single_pixels():
    img = np.zeros((16, 20), np.uint8)
    for y, x in [(0, 0), (0, 19), (15, 0), (15, 19), (5, 5), (5, 7), (7, 5), (10, 12), (2, 10), (13, 3)]:
        img[y, x] = 1
    return img


def diagonal_chains():
    img = np.zeros((24, 24), np.uint8)
    for i in range(10):                   # a staircase of diagonal-only neighbours
        img[2 + i, 2 + i] = 1
        img[2 + i, 4 + i] = 1
    for i in range(6):                    # a diamond outline, 8-connected only
        img[12 + i, 18 - i] = img[12 + i, 18 + i if 18 + i < 24 else 23] = 1
        img[23 - i, 18 - i] = 1
    img[14:22:2, 2:10:2] = 1              # diagonal lattice
    img[15:22:2, 3:10:2] = 1
    return img


def checkerboard(h, w):
    return ((np.add.outer(np.arange(h), np.arange(w)) % 2) == 0).astype(np.uint8)


def spiral(size):
    """A 1-pixel square spiral walking inwards, two pixels between turns."""
    img = np.zeros((size, size), np.uint8)
    x, y, dx, dy = 1, 1, 1, 0
    length, turns = size - 3, 0
    while length > 0:
        for _ in range(length):
            img[y, x] = 1
            x, y = x + dx, y + dy
        dx, dy = -dy, dx
        turns += 1
        if turns >= 2 and turns % 2 == 0:
            length -= 2
    img[y, x] = 1
    return img


def blobs(rng, h, w, density, smooth):
    noise = rng.random((h, w))
    if smooth:
        k = np.ones((3, 3)) / 9.0
        padded = np.pad(noise, 1, mode="edge")
        noise = sum(padded[dy:dy + h, dx:dx + w] * k[dy, dx] for dy in range(3) for dx in range(3))
    return (noise < density).astype(np.uint8)


def corpus():
    rng = np.random.default_rng(20261121)
    images = [
        ("nested_squares_depth15", nested_squares(64, 2)),
        ("nested_squares_wide", nested_squares(48, 3)),
        ("rings", rings(64, 31.5, 30.0, [30, 25, 20, 15, 10, 5, 2])),
        ("lines", lines()),
        ("single_pixels", single_pixels()),
        ("diagonal_chains", diagonal_chains()),
        ("checkerboard", checkerboard(17, 23)),
        ("spiral", spiral(41)),
        ("all_zero", np.zeros((9, 7), np.uint8)),
        ("all_one", np.ones((9, 7), np.uint8)),
        ("one_by_one_on", np.ones((1, 1), np.uint8)),
        ("one_by_one_off", np.zeros((1, 1), np.uint8)),
        ("row_1x13", np.array([[1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1]], np.uint8)),
        ("column_11x1", np.array([[1], [1], [0], [1], [0], [1], [1], [1], [0], [0], [1]], np.uint8)),
    ]
    touching = np.zeros((30, 40), np.uint8)   # shapes touching each border, and a frame with holes
    touching[0:10, 0:15] = 1
    touching[20:30, 30:40] = 1
    touching[12:18, 0:40] = 1
    touching[14:16, 5:10] = 0
    touching[0:30, 20] = 1
    touching[25:30, 2:8] = 1
    touching[27, 4] = 0
    images.append(("touching_border", touching))
    frame = np.ones((20, 26), np.uint8)
    frame[3:17, 3:23] = 0
    frame[6:14, 6:20] = 1
    frame[8:12, 9:17] = 0
    frame[10, 12] = 1
    images.append(("frame_nested", frame))
    for i, (h, w, density, smooth) in enumerate([(64, 64, 0.5, True), (64, 64, 0.45, True), (50, 61, 0.5, False),
                                                 (64, 64, 0.3, False), (37, 64, 0.7, False), (64, 29, 0.52, True)]):
        images.append((f"random_{i}_{h}x{w}", blobs(rng, h, w, density, smooth)))
    noisy_holes = blobs(rng, 64, 64, 0.55, True)
    noisy_holes[8:56, 8:56] ^= blobs(rng, 48, 48, 0.2, False)
    images.append(("random_holes", noisy_holes))
    return images


def hex_rows(img):
    rows = []
    for row in img:
        bits = "".join("1" if v else "0" for v in row)
        bits += "0" * (-len(bits) % 4)
        rows.append("".join("%x" % int(bits[i:i + 4], 2) for i in range(0, len(bits), 4)))
    return rows


def contour_fixtures():
    out = []
    for name, img in corpus():
        contours, hierarchy = cv2.findContours(img.copy(), cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
        out.append({
            "name": name,
            "width": int(img.shape[1]),
            "height": int(img.shape[0]),
            "rows": hex_rows(img),
            "contours": [[int(v) for v in c.reshape(-1)] for c in contours],
            "hierarchy": [] if hierarchy is None else [[int(v) for v in row] for row in hierarchy[0]],
        })
    return out


def rdp(points, epsilon):
    """Plain recursive Ramer-Douglas-Peucker; indices kept, endpoints always kept.
    Distance is to the line through the endpoints, or to the endpoint when they coincide."""
    def distance(p, a, b):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.sqrt(dx * dx + dy * dy)
        if length == 0:
            return math.sqrt((p[0] - a[0]) * (p[0] - a[0]) + (p[1] - a[1]) * (p[1] - a[1]))
        return abs(dx * (a[1] - p[1]) - dy * (a[0] - p[0])) / length

    def simplify(first, last):
        best, index = -1.0, -1
        for i in range(first + 1, last):
            d = distance(points[i], points[first], points[last])
            if d > best:
                best, index = d, i
        if index >= 0 and best > epsilon:
            return simplify(first, index)[:-1] + simplify(index, last)
        return [first, last]

    return simplify(0, len(points) - 1) if len(points) > 1 else list(range(len(points)))


def rdp_fixtures():
    rng = np.random.default_rng(6)
    cases = []
    for i in range(18):
        n = int(rng.integers(2, 120))
        if i % 3 == 0:      # a random walk
            pts = np.cumsum(rng.normal(0, 0.02, (n, 2)), axis=0) + 0.5
        elif i % 3 == 1:    # uniform points
            pts = rng.random((n, 2))
        else:               # a closed noisy circle, first point repeated at the end
            t = np.sort(rng.random(n)) * 2 * math.pi
            r = 0.3 + rng.normal(0, 0.01, n)
            pts = np.stack([0.5 + r * np.cos(t), 0.5 + r * np.sin(t)], axis=1)
            pts = np.vstack([pts, pts[:1]])
        points = [[round(float(x), 5), round(float(y), 5)] for x, y in pts]
        for epsilon in (0.0, 0.001, 0.01, 0.05, 0.2):
            cases.append({"points": points if epsilon == 0.0 else None, "case": i, "epsilon": epsilon,
                          "kept": rdp(points, epsilon)})
    polylines = {c["case"]: c["points"] for c in cases if c["points"] is not None}
    return {"polylines": [polylines[i] for i in sorted(polylines)],
            "cases": [{"polyline": c["case"], "epsilon": c["epsilon"], "kept": c["kept"]} for c in cases]}


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "findcontours.json"), "w") as f:
        json.dump({"opencv": cv2.__version__, "images": contour_fixtures()}, f, separators=(",", ":"))
    with open(os.path.join(OUT, "rdp.json"), "w") as f:
        json.dump(rdp_fixtures(), f, separators=(",", ":"))


if __name__ == "__main__":
    main()
