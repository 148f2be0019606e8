#!/usr/bin/env python3
"""Small JPEGs for JPEGDCDecoderTests (Tests/VisageImageTests/Fixtures/jpeg-dc): a crop of
Samples/astronaut.png at an odd size (203×157, not a multiple of any MCU) with a little fixed-seed noise,
saved by Pillow (libjpeg) as 4:2:0, 4:2:2, 4:4:4 and gray, each without and with restart markers (every
5, 3, 7 and 11 MCUs: intervals that end inside MCU rows), and one progressive file (which the DC decoder
leaves to libjpeg). The tests compare the DC decoder against libjpeg's own 1/8 decode of the same files.

    python3 Scripts/make-jpeg-dc-fixtures.py
"""
import os

import numpy
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "VisageImageTests", "Fixtures", "jpeg-dc")


def main():
    os.makedirs(OUT, exist_ok=True)
    source = Image.open(os.path.join(ROOT, "Samples", "astronaut.png")).convert("RGB")
    picture = source.crop((40, 10, 40 + 406, 10 + 314)).resize((203, 157), Image.BICUBIC)
    noise = numpy.random.default_rng(4).normal(0, 3, (157, 203, 3))
    picture = Image.fromarray(numpy.clip(numpy.asarray(picture, dtype=numpy.float64) + noise + 0.5, 0, 255).astype(numpy.uint8))
    gray = picture.convert("L")
    for name, image, extra, blocks in (("420", picture, {"subsampling": 2}, 5), ("422", picture, {"subsampling": 1}, 3),
                                       ("444", picture, {"subsampling": 0}, 7), ("gray", gray, {}, 11)):
        image.save(os.path.join(OUT, f"{name}.jpg"), quality=90, **extra)
        image.save(os.path.join(OUT, f"{name}-restart.jpg"), quality=90, restart_marker_blocks=blocks, **extra)
    picture.save(os.path.join(OUT, "progressive.jpg"), quality=90, progressive=True)


if __name__ == "__main__":
    main()
