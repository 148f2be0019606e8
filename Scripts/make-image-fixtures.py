#!/usr/bin/env python3
"""Builds the VisageImage decode corpus and its references under Tests/VisageImageTests/Fixtures.

Every encoded file comes with the pixels a reference decoder produced, stored raw (8 bits per channel,
rows top to bottom, tightly packed) as NAME.raw, and an entry in manifest.json:
  PNG and PNM: the exact arrays the files were written from (numpy), so the match must be exact;
  JPEG: Pillow's decode (libjpeg-turbo, accurate IDCT), matched within ±1 per channel, also scaled (draft);
  EXIF orientation: Pillow's ImageOps.exif_transpose of its decode;
  resize: OpenCV cv2.resize (INTER_AREA shrinking, INTER_LINEAR), matched within ±1;
  gray conversion: Pillow's convert("L").
Also the bad inputs (empty, truncated, mislabelled, huge headers, a decompression bomb).

    python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install Pillow numpy opencv-python-headless
    Scripts/.venv/bin/python Scripts/make-image-fixtures.py
"""
import io
import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

OUT = Path(__file__).resolve().parent.parent / "Tests" / "VisageImageTests" / "Fixtures"
WIDTH, HEIGHT = 37, 23  # odd sizes, no multiple of the 8×8 or 16×16 JPEG blocks
rng = np.random.default_rng()  # reseeded per corpus, so adding to one leaves the others unchanged
manifest = {"decode": [], "scaledJPEG": [], "orientation": [], "resize": [], "conversion": []}

FORMATS = {1: "gray8", 3: "rgb8", 4: "rgba8"}


def reseed(name):
    global rng
    rng = np.random.default_rng(zlib.crc32(name.encode()))


def picture(channels, depth=8):
    """A smooth gradient with a bright disc and mild noise: edges and flat areas for every codec."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float64)
    planes = [x / (WIDTH - 1), y / (HEIGHT - 1), (x + y) / (WIDTH + HEIGHT - 2), 1 - x / (WIDTH - 1)]
    disc = ((x - 25) ** 2 + (y - 9) ** 2) < 36
    image = np.stack(planes[:channels], axis=-1)
    image[disc] = 1 - image[disc]
    image += rng.normal(0, 0.02, image.shape)
    top = (1 << depth) - 1
    dtype = np.uint16 if depth == 16 else np.uint8
    return np.clip(np.rint(image * top), 0, top).astype(dtype)


def write_raw(name, pixels):
    pixels = np.ascontiguousarray(pixels, dtype=np.uint8)
    (OUT / f"{name}.raw").write_bytes(pixels.tobytes())
    channels = 1 if pixels.ndim == 2 else pixels.shape[2]
    return {"reference": f"{name}.raw", "width": int(pixels.shape[1]), "height": int(pixels.shape[0]),
            "pixelFormat": FORMATS[channels]}


def add_decode(file, reference, tolerance):
    manifest["decode"].append({"file": file, "tolerance": tolerance, **write_raw(Path(file).stem, reference)})


def pillow_pixels(path):
    image = Image.open(path)
    if image.mode == "CMYK":
        image = image.convert("RGB")
    return np.asarray(image)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, bit_depth, color_type, idat, interlace=0, extra=b""):
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def filtered_rows(samples):
    """IDAT for samples shaped (rows, …): filter type 0 on every row, one zlib stream."""
    rows = samples.reshape(samples.shape[0], -1)
    return zlib.compress(b"".join(b"\x00" + row.tobytes() for row in rows))


def adam7_png(pixels):
    """Pillow cannot write interlaced PNG: Adam7 passes, filter type 0, one zlib stream."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for x0, y0, dx, dy in passes:
        sub = pixels[y0::dy, x0::dx]
        if sub.size:
            raw += b"".join(b"\x00" + row.tobytes() for row in sub)
    return png_bytes(pixels.shape[1], pixels.shape[0], 8, 2, zlib.compress(raw, 9), interlace=1)


def exif_tiff(orientation, big_endian):
    order = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8)
    tiff += struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(order + "I", 0)
    return b"Exif\x00\x00" + tiff


def decode_corpus():
    reseed("decode_corpus")
    rgb, gray, rgba = picture(3), picture(1)[..., 0], picture(4)

    for name, options in [("jpeg-baseline", {}), ("jpeg-progressive", {"progressive": True}),
                          ("jpeg-444", {"subsampling": 0})]:
        Image.fromarray(rgb).save(OUT / f"{name}.jpg", quality=90, **options)
        add_decode(f"{name}.jpg", pillow_pixels(OUT / f"{name}.jpg"), 1)
    Image.fromarray(gray).save(OUT / "jpeg-gray.jpg", quality=90)
    add_decode("jpeg-gray.jpg", pillow_pixels(OUT / "jpeg-gray.jpg"), 1)
    Image.fromarray(picture(4), "CMYK").save(OUT / "jpeg-cmyk.jpg", quality=90)  # Adobe APP14, inverted
    add_decode("jpeg-cmyk.jpg", pillow_pixels(OUT / "jpeg-cmyk.jpg"), 1)

    Image.fromarray(rgb).save(OUT / "png-rgb8.png")
    add_decode("png-rgb8.png", rgb, 0)
    Image.fromarray(rgba).save(OUT / "png-rgba8.png")
    add_decode("png-rgba8.png", rgba, 0)
    Image.fromarray(gray).save(OUT / "png-gray8.png")
    add_decode("png-gray8.png", gray, 0)
    gray_alpha = np.stack([gray, picture(1)[..., 0][::-1]], axis=-1)
    Image.fromarray(gray_alpha, "LA").save(OUT / "png-gray-alpha.png")
    add_decode("png-gray-alpha.png", np.stack([gray_alpha[..., 0]] * 3 + [gray_alpha[..., 1]], axis=-1), 0)
    bits = (gray > 127)
    Image.fromarray(bits).save(OUT / "png-gray1.png")  # mode "1": a 1-bit PNG
    add_decode("png-gray1.png", bits.astype(np.uint8) * 255, 0)

    # 16 bits: libpng scales to 8 as round(v × 255 / 65535).
    for name, channels in [("png-rgb16", 3), ("png-gray16", 1)]:
        wide = picture(channels, depth=16)
        height, width = wide.shape[:2]
        idat = filtered_rows(wide.astype(">u2"))
        (OUT / f"{name}.png").write_bytes(png_bytes(width, height, 16, 2 if channels == 3 else 0, idat))
        narrow = (wide.astype(np.int64) * 255 + 32767) // 65535
        add_decode(f"{name}.png", narrow[..., 0] if channels == 1 else narrow, 0)

    # 16-bit with alpha: libpng must neither premultiply nor gamma-convert.
    for name, channels, color_type in [("png-rgba16", 4, 6), ("png-gray-alpha16", 2, 4)]:
        wide = picture(4, depth=16)[..., :channels] if channels == 4 else picture(4, depth=16)[..., [0, 3]]
        (OUT / f"{name}.png").write_bytes(png_bytes(WIDTH, HEIGHT, 16, color_type, filtered_rows(wide.astype(">u2"))))
        narrow = (wide.astype(np.int64) * 255 + 32767) // 65535
        add_decode(f"{name}.png", narrow if channels == 4 else narrow[..., [0, 0, 0, 1]], 0)

    # 4-bit gray scales by 17; an RGB colour key in tRNS becomes alpha 0 for that colour only.
    nibbles = (gray >> 4).astype(np.uint8)
    padded = np.pad(nibbles, ((0, 0), (0, WIDTH % 2)))
    packed = (padded[:, 0::2] << 4) | padded[:, 1::2]
    (OUT / "png-gray4.png").write_bytes(png_bytes(WIDTH, HEIGHT, 4, 0, filtered_rows(packed)))
    add_decode("png-gray4.png", nibbles * 17, 0)
    keyed = rgb.copy()
    keyed[5:9, 3:20] = (10, 20, 30)
    key = chunk(b"tRNS", struct.pack(">HHH", 10, 20, 30))
    (OUT / "png-rgb-trns.png").write_bytes(png_bytes(WIDTH, HEIGHT, 8, 2, filtered_rows(keyed), extra=key))
    alpha = np.where(np.all(keyed == (10, 20, 30), axis=-1), 0, 255).astype(np.uint8)
    add_decode("png-rgb-trns.png", np.concatenate([keyed, alpha[..., None]], axis=-1), 0)

    palette = rng.integers(0, 256, (16, 3), dtype=np.uint8)
    indices = (picture(1)[..., 0] // 16).astype(np.uint8)
    paletted = Image.fromarray(indices, "P")
    paletted.putpalette(palette.tobytes())
    paletted.save(OUT / "png-palette.png")
    add_decode("png-palette.png", palette[indices], 0)
    alphas = np.linspace(0, 255, 16).astype(np.uint8)
    paletted.save(OUT / "png-palette-trns.png", transparency=alphas.tobytes())
    add_decode("png-palette-trns.png", np.concatenate([palette[indices], alphas[indices][..., None]], axis=-1), 0)

    (OUT / "png-interlaced.png").write_bytes(adam7_png(rgb))
    add_decode("png-interlaced.png", rgb, 0)

    (OUT / "pnm-p6.ppm").write_bytes(b"P6\n# a comment\n%d %d\n255\n" % (WIDTH, HEIGHT) + rgb.tobytes())
    add_decode("pnm-p6.ppm", rgb, 0)
    (OUT / "pnm-p5.pgm").write_bytes(b"P5 %d %d 255\n" % (WIDTH, HEIGHT) + gray.tobytes())
    add_decode("pnm-p5.pgm", gray, 0)
    wide = picture(1, depth=16)[..., 0]
    (OUT / "pnm-p5-16bit.pgm").write_bytes(b"P5\n%d %d\n65535\n" % (WIDTH, HEIGHT) + wide.astype(">u2").tobytes())
    add_decode("pnm-p5-16bit.pgm", (wide.astype(np.int64) * 255 + 32767) // 65535, 0)
    small = (picture(3).astype(np.int64) * 100 // 255)
    text = "P3\n%d %d\n100\n" % (WIDTH, HEIGHT) + "\n".join(" ".join(map(str, row)) for row in small.reshape(HEIGHT, -1))
    (OUT / "pnm-p3.ppm").write_text(text + "\n")
    add_decode("pnm-p3.ppm", (small * 255 + 50) // 100, 0)
    (OUT / "pnm-p2.pgm").write_text("P2 %d %d 255\n" % (WIDTH, HEIGHT) + " ".join(map(str, gray.ravel())) + "\n")
    add_decode("pnm-p2.pgm", gray, 0)


def scaled_jpeg_corpus():
    """libjpeg's scaled IDCT through Pillow's draft(): 1/2, 1/4 and 1/8 of jpeg-baseline.jpg (37×23)."""
    reseed("scaled_jpeg_corpus")
    for maximum, request in [(19, (18, 11)), (10, (9, 5)), (5, (4, 2))]:
        image = Image.open(OUT / "jpeg-baseline.jpg")
        image.draft("RGB", request)
        reference = np.asarray(image.convert("RGB"))
        assert max(reference.shape[:2]) == maximum, reference.shape
        manifest["scaledJPEG"].append({"file": "jpeg-baseline.jpg", "maximumDimension": maximum, "tolerance": 1,
                                       **write_raw(f"jpeg-scaled-{maximum}", reference)})


def orientation_corpus():
    """One upright picture stored in each EXIF orientation; odd orientations use big-endian TIFF."""
    reseed("orientation_corpus")
    upright = Image.fromarray(picture(3))
    inverse = {1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
               4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90,
               7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_270}
    for orientation, method in inverse.items():
        stored = upright if method is None else upright.transpose(method)
        name = f"exif-{orientation}"
        stored.save(OUT / f"{name}.jpg", quality=95, exif=exif_tiff(orientation, orientation % 2 == 1))
        reference = np.asarray(ImageOps.exif_transpose(Image.open(OUT / f"{name}.jpg")))
        assert reference.shape[:2] == (HEIGHT, WIDTH)
        manifest["orientation"].append({"file": f"{name}.jpg", "orientation": orientation, "tolerance": 1,
                                        "storedWidth": stored.width, "storedHeight": stored.height,
                                        **write_raw(name, reference)})
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    stored.save(OUT / "exif-6.png", exif=exif_tiff(6, False))
    reference = np.asarray(ImageOps.exif_transpose(Image.open(OUT / "exif-6.png")))
    manifest["orientation"].append({"file": "exif-6.png", "orientation": 6, "tolerance": 0,
                                    "storedWidth": stored.width, "storedHeight": stored.height,
                                    **write_raw("exif-6-png", reference)})


def resize_corpus():
    reseed("resize_corpus")
    source = picture(3)
    write_raw("resize-source", source)
    for method, flag, sizes in [("area", cv2.INTER_AREA, [(13, 9), (20, 11), (36, 22)]),
                                ("bilinear", cv2.INTER_LINEAR, [(13, 9), (50, 31), (37, 40)])]:
        for width, height in sizes:
            name = f"resize-{method}-{width}x{height}"
            manifest["resize"].append({"method": method, "source": "resize-source.raw", "tolerance": 1,
                                       **write_raw(name, cv2.resize(source, (width, height), interpolation=flag))})


def conversion_corpus():
    reseed("conversion_corpus")
    source = np.frombuffer((OUT / "resize-source.raw").read_bytes(), np.uint8).reshape(HEIGHT, WIDTH, 3)
    manifest["conversion"].append({"source": "resize-source.raw", "to": "gray8",
                                   **write_raw("convert-gray", np.asarray(Image.fromarray(source).convert("L")))})


def bad_inputs():
    reseed("bad_inputs")
    (OUT / "bad-empty.png").write_bytes(b"")
    jpeg = (OUT / "jpeg-baseline.jpg").read_bytes()
    (OUT / "bad-truncated.jpg").write_bytes(jpeg[: len(jpeg) * 2 // 3])
    png = (OUT / "png-rgb8.png").read_bytes()
    (OUT / "bad-truncated.png").write_bytes(png[: len(png) // 2])
    (OUT / "bad-png-named.jpg").write_bytes(png)
    (OUT / "bad-text.png").write_text("This is a text file, not an image.\n")
    (OUT / "bad-huge-header.png").write_bytes(png_bytes(100_000, 100_000, 8, 2, zlib.compress(b"\x00" * 1000)))
    # JPEG sizes are 16-bit and libjpeg stops at 65500: the largest header a JPEG can claim.
    huge = bytearray(jpeg)
    at = huge.index(b"\xff\xc0")
    huge[at + 5:at + 9] = struct.pack(">HH", 65_500, 65_500)
    (OUT / "bad-huge-header.jpg").write_bytes(bytes(huge))
    # 30000×30000 1-bit gray (900 MP): a few KB that would inflate to 112 MB of rows and 900 MB of pixels.
    rows = zlib.compress(b"\x00" * (1 + 30_000 // 8) * 4_000, 9)
    (OUT / "bad-bomb.png").write_bytes(png_bytes(30_000, 30_000, 1, 0, rows))


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if old.name != ".gitkeep":
            old.unlink()
    decode_corpus()
    scaled_jpeg_corpus()
    orientation_corpus()
    resize_corpus()
    conversion_corpus()
    bad_inputs()
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(path.stat().st_size for path in OUT.iterdir())
    print(f"{len(list(OUT.iterdir()))} files, {total} bytes in {OUT}")
