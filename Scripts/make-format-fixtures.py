#!/usr/bin/env python3
"""Writes the HEIC, AVIF, WebP, TIFF, GIF and BMP fixtures and Pillow's decodes of them.

    pip install Pillow pillow-heif
    python3 Scripts/make-format-fixtures.py

Tests/VisageImageTests/Fixtures/formats/: small crops of Samples/astronaut.png in every format and
variant Visage reads (alpha, orientation, animation, several images, bit depths), each with Pillow's
decode as raw RGB/RGBA (`.raw`) and an entry in formats.json. Tolerances start at 0 for lossless
formats; lossy formats' are set by the test's measured maximum (recorded there).
Tests/VisageTests/Fixtures/formats/: the 256-px astronaut in every format, for the face test.
"""
import io
import json
import os
import struct
import sys

from PIL import Image, ImageOps
import pillow_heif

pillow_heif.register_heif_opener()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/VisageImageTests/Fixtures/formats")
FACES = os.path.join(ROOT, "Tests/VisageTests/Fixtures/formats")
os.makedirs(OUT, exist_ok=True)
os.makedirs(FACES, exist_ok=True)

astronaut = Image.open(os.path.join(ROOT, "Samples/astronaut.png")).convert("RGB")
crop = astronaut.crop((180, 80, 180 + 128, 80 + 96)).resize((64, 48), Image.LANCZOS)
alpha = crop.convert("RGBA")
alpha.putalpha(Image.linear_gradient("L").resize((64, 48)))

entries = []


def reference(name, image, lossy, frames=1, orientation=1, upright=False):
    """Pillow's decode of `name` as raw bytes (RGB or RGBA), recorded in the manifest."""
    decoded = image
    mode = "RGBA" if decoded.mode in ("RGBA", "LA", "PA") or (decoded.mode == "P" and "transparency" in decoded.info) else "RGB"
    if decoded.mode in ("L", "I;16", "1") and not lossy:
        mode = "L"
    decoded = decoded.convert(mode)
    raw = name.rsplit(".", 1)[0] + ".raw"
    with open(os.path.join(OUT, raw), "wb") as f:
        f.write(decoded.tobytes())
    entries.append({
        "file": name, "reference": raw, "width": decoded.width, "height": decoded.height,
        "pixelFormat": {"RGB": "rgb8", "RGBA": "rgba8", "L": "gray8"}[mode],
        "lossy": lossy, "frames": frames, "orientation": orientation, "upright": upright,
    })


def save(name, image, **options):
    path = os.path.join(OUT, name)
    image.save(path, **options)
    return path


def exif_with_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


# HEIF: libheif through pillow-heif on both sides (encode with x265, decode with libde265).
path = save("heic-rgb.heic", crop, quality=80)
reference("heic-rgb.heic", Image.open(path), lossy=True)
path = save("heic-alpha.heic", alpha, quality=80)
reference("heic-alpha.heic", Image.open(path), lossy=True)
# 10-bit HEVC (HDR phones): decoded to 8 bits by libheif on both sides.
deep = pillow_heif.from_bytes(mode="RGB;16", size=crop.size, data=bytes(b for v in crop.tobytes() for b in ((v * 257) & 255, (v * 257) >> 8)))
deep.save(os.path.join(OUT, "heic-10bit.heic"), quality=80)
reference("heic-10bit.heic", Image.open(os.path.join(OUT, "heic-10bit.heic")), lossy=True)
path = save("heic-two-images.heic", crop, quality=80, save_all=True, append_images=[ImageOps.mirror(crop)])
reference("heic-two-images.heic", Image.open(path), lossy=True, frames=2)


def add_heif_transforms(data, rotation, mirror):
    """Adds irot (quarter turns counter-clockwise) and imir boxes to the primary item's properties."""
    def boxes(buf, start, end):
        at = start
        while at + 8 <= end:
            size, kind = struct.unpack(">I4s", buf[at:at + 8])
            yield kind.decode("latin1"), at, size
            at += size

    buf = bytearray(data)
    meta = next(b for b in boxes(buf, 0, len(buf)) if b[0] == "meta")
    children = list(boxes(buf, meta[1] + 12, meta[1] + meta[2]))
    pitm = next(b for b in children if b[0] == "pitm")
    primary = struct.unpack(">H", buf[pitm[1] + 12:pitm[1] + 14])[0]
    iprp = next(b for b in children if b[0] == "iprp")
    ipco = next(b for b in boxes(buf, iprp[1] + 8, iprp[1] + iprp[2]) if b[0] == "ipco")
    count = len(list(boxes(buf, ipco[1] + 8, ipco[1] + ipco[2])))
    added = b""
    indices = []
    if rotation is not None:
        added += struct.pack(">I4sB", 9, b"irot", rotation)
        indices.append(count + 1)
    if mirror is not None:
        added += struct.pack(">I4sB", 9, b"imir", mirror)
        indices.append(count + 1 + len(indices))
    ipma = next(b for b in boxes(buf, iprp[1] + 8, iprp[1] + iprp[2]) if b[0] == "ipma")
    version, flags = buf[ipma[1] + 8], int.from_bytes(buf[ipma[1] + 9:ipma[1] + 12], "big")
    assert version == 0 and flags & 1 == 0
    entries_count = struct.unpack(">I", buf[ipma[1] + 12:ipma[1] + 16])[0]
    at = ipma[1] + 16
    grow_ipma = 0
    for _ in range(entries_count):
        item = struct.unpack(">H", buf[at:at + 2])[0]
        n = buf[at + 2]
        if item == primary:
            buf[at + 2] = n + len(indices)
            insert_at = at + 3 + n
            buf[insert_at:insert_at] = bytes(0x80 | i for i in indices)
            grow_ipma = len(indices)
            break
        at += 3 + n
    # ipco grows by `added` (inserted at its end, before ipma), ipma by its new indices.
    ipco_end = ipco[1] + ipco[2]
    buf[ipco_end:ipco_end] = added
    growth = len(added) + grow_ipma

    def bump(offset, by):
        size = struct.unpack(">I", buf[offset:offset + 4])[0]
        buf[offset:offset + 4] = struct.pack(">I", size + by)

    bump(ipco[1], len(added))
    bump(ipma[1] + len(added), grow_ipma)
    bump(iprp[1], growth)
    bump(meta[1], growth)
    # iloc offsets of data after meta move by `growth` (mdat follows meta in pillow-heif's files).
    iloc = next(b for b in boxes(buf, meta[1] + 12, meta[1] + meta[2] + growth) if b[0] == "iloc")
    version = buf[iloc[1] + 8]
    sizes = buf[iloc[1] + 12]
    offset_size, length_size, base_size = sizes >> 4, sizes & 15, buf[iloc[1] + 13] >> 4
    index_size = buf[iloc[1] + 13] & 15 if version in (1, 2) else 0
    at = iloc[1] + 14
    items = struct.unpack(">H", buf[at:at + 2])[0] if version < 2 else struct.unpack(">I", buf[at:at + 4])[0]
    at += 2 if version < 2 else 4
    assert index_size == 0 and offset_size == 4 and version < 2
    for _ in range(items):
        at += 2  # item ID
        construction = 0
        if version == 1:
            construction = struct.unpack(">H", buf[at:at + 2])[0] & 15
            at += 2
        at += 2 + base_size  # data reference index, base offset (0 in pillow-heif's files)
        extents = struct.unpack(">H", buf[at:at + 2])[0]
        at += 2
        for _ in range(extents):
            if construction == 0:
                value = struct.unpack(">I", buf[at:at + 4])[0]
                buf[at:at + 4] = struct.pack(">I", value + growth)
            at += offset_size + length_size
    return bytes(buf)


with open(os.path.join(OUT, "heic-rgb.heic"), "rb") as f:
    plain_heic = f.read()
# The EXIF orientation each pair of transformations equals: a quarter turn counter-clockwise is EXIF 8,
# a top-bottom mirror EXIF 4, three quarter turns then a left-right mirror a transposition (EXIF 5).
for name, rotation, mirror, exif in [("heic-irot1.heic", 1, None, 8), ("heic-imir0.heic", None, 0, 4), ("heic-irot3-imir1.heic", 3, 1, 5)]:
    data = add_heif_transforms(plain_heic, rotation, mirror)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    # pillow-heif applies the transformations (libheif does); Visage reports them as an orientation.
    reference(name, Image.open(io.BytesIO(data)), lossy=True, orientation=exif, upright=True)

# AVIF: Pillow's own AVIF support (libavif) on both sides.
path = save("avif-rgb.avif", crop, quality=80)
reference("avif-rgb.avif", Image.open(path), lossy=True)
path = save("avif-alpha.avif", alpha, quality=80)
reference("avif-alpha.avif", Image.open(path), lossy=True)

path = save("avif-sequence.avif", crop, quality=80, save_all=True, append_images=[ImageOps.mirror(crop), ImageOps.flip(crop)], duration=100)
reference("avif-sequence.avif", Image.open(path), lossy=True, frames=3)

# WebP: lossy, lossless, lossy with alpha, EXIF orientation, animation.
path = save("webp-lossy.webp", crop, quality=80)
reference("webp-lossy.webp", Image.open(path), lossy=True)
path = save("webp-lossless.webp", crop, lossless=True)
reference("webp-lossless.webp", Image.open(path), lossy=False)
path = save("webp-alpha.webp", alpha, quality=80)
reference("webp-alpha.webp", Image.open(path), lossy=True)
path = save("webp-exif6.webp", crop, lossless=True, exif=exif_with_orientation(6))
reference("webp-exif6.webp", Image.open(path), lossy=False, orientation=6)
frames = [crop, ImageOps.mirror(crop), ImageOps.flip(crop)]
path = save("webp-animated.webp", frames[0], lossless=True, save_all=True, append_images=frames[1:], duration=100)
reference("webp-animated.webp", Image.open(path), lossy=False, frames=3)

# TIFF: uncompressed, LZW, Deflate with alpha, 16-bit gray, orientation tag, two pages, JPEG-compressed.
path = save("tiff-rgb.tiff", crop)
reference("tiff-rgb.tiff", Image.open(path), lossy=False)
path = save("tiff-lzw.tiff", crop, compression="tiff_lzw")
reference("tiff-lzw.tiff", Image.open(path), lossy=False)
# libtiff's RGBA interface premultiplies unassociated alpha, which Visage undoes; alpha of at least 128
# keeps that round trip within 1.
half_alpha = crop.convert("RGBA")
half_alpha.putalpha(Image.linear_gradient("L").resize((64, 48)).point(lambda v: 128 + v // 2))
path = save("tiff-rgba-deflate.tiff", half_alpha, compression="tiff_adobe_deflate")
reference("tiff-rgba-deflate.tiff", Image.open(path), lossy=False)
path = save("tiff-gray8.tiff", crop.convert("L"), compression="packbits")
reference("tiff-gray8.tiff", Image.open(path), lossy=False)
path = save("tiff-orientation6.tiff", crop, tiffinfo={274: 6})
# Pillow's TIFF reader applies the Orientation tag.
reference("tiff-orientation6.tiff", Image.open(path), lossy=False, orientation=6, upright=True)
path = save("tiff-two-pages.tiff", crop, save_all=True, append_images=[ImageOps.flip(crop)])
reference("tiff-two-pages.tiff", Image.open(path), lossy=False, frames=2)
path = save("tiff-jpeg.tiff", crop, compression="jpeg", quality=85)
reference("tiff-jpeg.tiff", Image.open(path), lossy=True)

# GIF: palette, interlaced, transparent, animated (first frame).
quantized = crop.quantize(64)
path = save("gif-palette.gif", quantized, interlace=False)
reference("gif-palette.gif", Image.open(path), lossy=False)
path = save("gif-interlaced.gif", quantized, interlace=True)
reference("gif-interlaced.gif", Image.open(path), lossy=False)
transparent = quantized.copy()
transparent.info["transparency"] = 0
path = save("gif-transparent.gif", transparent, transparency=0)
reference("gif-transparent.gif", Image.open(path), lossy=False)
gif_frames = [f.quantize(64) for f in frames]
path = save("gif-animated.gif", gif_frames[0], save_all=True, append_images=gif_frames[1:], duration=100, disposal=1)
reference("gif-animated.gif", Image.open(path), lossy=False, frames=3)

# BMP: what Pillow writes (24-bit, 8-bit palette, 1-bit, 32-bit with alpha) and what it reads (hand-made
# 4-bit, 16-bit 5-6-5 bit fields, top-down rows).
path = save("bmp-24.bmp", crop)
reference("bmp-24.bmp", Image.open(path), lossy=False)
path = save("bmp-8.bmp", quantized)
reference("bmp-8.bmp", Image.open(path), lossy=False)
path = save("bmp-1.bmp", crop.convert("1"))
reference("bmp-1.bmp", Image.open(path), lossy=False)
path = save("bmp-32-alpha.bmp", alpha)
reference("bmp-32-alpha.bmp", Image.open(path), lossy=False)


def bmp_file(width, height, bits, rows, palette=b"", compression=0, masks=b"", top_down=False):
    header_size = 40
    offset = 14 + header_size + len(masks) + len(palette)
    data = b"".join(rows)
    info = struct.pack("<IiiHHIIiiII", header_size, width, -height if top_down else height, 1, bits, compression,
                       len(data), 2835, 2835, len(palette) // 4, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + masks + palette + data


def padded(row):
    return row + b"\0" * (-len(row) % 4)


four = crop.quantize(16)
pal = four.getpalette()[:48]
palette = b"".join(bytes([pal[3 * i + 2], pal[3 * i + 1], pal[3 * i], 0]) for i in range(16))
px = four.load()
rows = []
for y in reversed(range(48)):
    row = bytearray()
    for x in range(0, 64, 2):
        row.append(px[x, y] << 4 | px[x + 1, y])
    rows.append(padded(bytes(row)))
with open(os.path.join(OUT, "bmp-4.bmp"), "wb") as f:
    f.write(bmp_file(64, 48, 4, rows, palette))
reference("bmp-4.bmp", Image.open(os.path.join(OUT, "bmp-4.bmp")), lossy=False)

rgb = crop.load()
rows = []
for y in reversed(range(48)):
    row = b""
    for x in range(64):
        r, g, b = rgb[x, y]
        row += struct.pack("<H", (r >> 3) << 11 | (g >> 2) << 5 | (b >> 3))
    rows.append(padded(row))
with open(os.path.join(OUT, "bmp-565.bmp"), "wb") as f:
    f.write(bmp_file(64, 48, 16, rows, compression=3, masks=struct.pack("<III", 0xF800, 0x07E0, 0x001F)))
reference("bmp-565.bmp", Image.open(os.path.join(OUT, "bmp-565.bmp")), lossy=False)

rows = [padded(b"".join(bytes([rgb[x, y][2], rgb[x, y][1], rgb[x, y][0]]) for x in range(64))) for y in range(48)]
with open(os.path.join(OUT, "bmp-top-down.bmp"), "wb") as f:
    f.write(bmp_file(64, 48, 24, rows, top_down=True))
reference("bmp-top-down.bmp", Image.open(os.path.join(OUT, "bmp-top-down.bmp")), lossy=False)

with open(os.path.join(OUT, "formats.json"), "w") as f:
    json.dump({"decode": entries}, f, indent=1)
    f.write("\n")

# The face test: the 256-px astronaut as a PNG and in each format, at JPEG-like quality.
face = astronaut.resize((256, 256), Image.LANCZOS)
face.save(os.path.join(FACES, "astronaut.png"))
face.save(os.path.join(FACES, "astronaut.heic"), quality=60)
face.save(os.path.join(FACES, "astronaut.avif"), quality=60)
face.save(os.path.join(FACES, "astronaut.webp"), quality=75)
face.save(os.path.join(FACES, "astronaut.tiff"), compression="jpeg", quality=75)
face.quantize(256).save(os.path.join(FACES, "astronaut.gif"))
face.quantize(256).save(os.path.join(FACES, "astronaut.bmp"))
print(f"{len(entries)} fixtures in {OUT}; face photos in {FACES}")
