#!/usr/bin/env python3
"""Small JPEGs for JPEGSparseDecoderTests (Tests/VisageImageTests/Fixtures/jpeg-sparse), beside jpeg-dc's
(203×157, quality 90): crops of Samples/astronaut.png with fixed-seed noise at odd sizes (partial MCUs on
both edges), quality 50-95, saved by Pillow (libjpeg) as 4:2:0, 4:2:2, 4:4:4 and gray, some with restart
markers, and two by libjpeg-turbo's cjpeg (-restart in rows and in blocks). The tests hold the sparse
decoder's pixels against libjpeg's full decode of the same files.

    python3 Scripts/make-jpeg-sparse-fixtures.py
"""
import os
import subprocess
import tempfile

import numpy
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "VisageImageTests", "Fixtures", "jpeg-sparse")


def picture(width, height, seed, sigma):
    source = Image.open(os.path.join(ROOT, "Samples", "astronaut.png")).convert("RGB")
    crop = source.crop((30 + seed, 20, 30 + seed + 2 * width, 20 + 2 * height)).resize((width, height), Image.BICUBIC)
    noise = numpy.random.default_rng(seed).normal(0, sigma, (height, width, 3))
    return Image.fromarray(numpy.clip(numpy.asarray(crop, dtype=numpy.float64) + noise + 0.5, 0, 255).astype(numpy.uint8))


def main():
    os.makedirs(OUT, exist_ok=True)
    picture(97, 61, 1, 8).save(os.path.join(OUT, "420-q50.jpg"), quality=50, subsampling=2)
    picture(131, 47, 2, 4).save(os.path.join(OUT, "422-q75-restart.jpg"), quality=75, subsampling=1, restart_marker_blocks=4)
    picture(61, 93, 3, 2).save(os.path.join(OUT, "444-q95.jpg"), quality=95, subsampling=0)
    picture(77, 45, 4, 6).convert("L").save(os.path.join(OUT, "gray-q60-restart.jpg"), quality=60, restart_marker_blocks=6)
    picture(5, 9, 5, 10).save(os.path.join(OUT, "420-tiny.jpg"), quality=80, subsampling=2)
    with tempfile.TemporaryDirectory() as folder:
        ppm = os.path.join(folder, "in.ppm")
        picture(150, 101, 6, 5).save(ppm)
        for name, extra in (("420-cjpeg-restart-rows.jpg", ["-restart", "1"]), ("422-cjpeg-restart-blocks.jpg", ["-restart", "5B", "-sample", "2x1"])):
            subprocess.run(["cjpeg", "-quality", "85", *extra, "-outfile", os.path.join(OUT, name), ppm], check=True)


if __name__ == "__main__":
    main()
