#!/usr/bin/env python3
"""Seeds for the `jpeg-shrink` fuzz target (Fuzz/Seeds/jpeg-shrink): baseline JPEGs whose size takes fast
detection's shrink-on-load paths in `visage detect` and `POST /v1/faces` (a longer side of 1024 or more is
shrunk to 1/4, 2048 or more to 1/8: JPEGSparseDecoder's exact letterbox), kept to a few kilobytes each by
smooth content at low quality: 4:2:0, 4:2:2, 4:4:4 and gray, restart markers in blocks and in rows (cjpeg),
EXIF orientation 6 (the letterbox's transposed warp), a 4:4:0 file and a progressive one (both left to
libjpeg), and a 2048x16 strip (the 1/8 size rule at few blocks). The harness also runs the sparse and DC
readers on pictures of any size, so the small jpeg-sparse fixtures are copied beside them.

    python3 Scripts/make-jpeg-shrink-seeds.py
"""
import os
import shutil
import subprocess
import tempfile

import numpy
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "Seeds", "jpeg-shrink")


def picture(width, height, seed):
    """Astronaut.png scaled up (smooth, so it compresses well) with a little fixed-seed noise (0.6 levels)."""
    source = Image.open(os.path.join(ROOT, "Samples", "astronaut.png")).convert("RGB").resize((width, height), Image.BILINEAR)
    noise = numpy.random.default_rng(seed).normal(0, 0.6, (height, width, 3))
    return Image.fromarray(numpy.clip(numpy.asarray(source, dtype=numpy.float64) + noise + 0.5, 0, 255).astype(numpy.uint8))


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def main():
    os.makedirs(OUT, exist_ok=True)
    picture(1024, 768, 1).save(os.path.join(OUT, "1024x768-420.jpg"), quality=20, subsampling=2)
    picture(1024, 600, 2).save(os.path.join(OUT, "1024x600-422-restart.jpg"), quality=15, subsampling=1, restart_marker_blocks=7)
    picture(640, 1024, 3).save(os.path.join(OUT, "640x1024-444.jpg"), quality=10, subsampling=0)
    picture(1100, 800, 4).convert("L").save(os.path.join(OUT, "1100x800-gray-restart.jpg"), quality=20, restart_marker_blocks=9)
    picture(1024, 768, 5).save(os.path.join(OUT, "1024x768-420-exif6.jpg"), quality=15, subsampling=2, exif=exif_orientation(6))
    picture(1024, 768, 6).save(os.path.join(OUT, "1024x768-progressive.jpg"), quality=15, subsampling=2, progressive=True)
    picture(2048, 16, 7).save(os.path.join(OUT, "2048x16-420.jpg"), quality=30, subsampling=2)
    with tempfile.TemporaryDirectory() as folder:
        ppm = os.path.join(folder, "in.ppm")
        picture(1024, 768, 8).save(ppm)
        for name, extra in (
            ("1024x768-420-cjpeg-restart-rows.jpg", ["-restart", "1"]),
            ("1024x768-440-cjpeg.jpg", ["-sample", "1x2"]),
        ):
            subprocess.run(["cjpeg", "-quality", "15", "-baseline", *extra, "-outfile", os.path.join(OUT, name), ppm], check=True)
    sparse = os.path.join(ROOT, "Tests", "VisageImageTests", "Fixtures", "jpeg-sparse")
    for name in sorted(os.listdir(sparse)):
        shutil.copy(os.path.join(sparse, name), os.path.join(OUT, "small-" + name))


if __name__ == "__main__":
    main()
