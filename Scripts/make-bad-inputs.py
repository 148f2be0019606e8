#!/usr/bin/env python3
"""The bad-input corpus: files an attacker or a broken producer might hand Visage, each with the
stable error code (Visage's ErrorCode) it must give, or "ok" when it must decode.

Written byte by byte (struct, zlib) or by Pillow, so each file shows exactly what is wrong with it.
The manifest records, per file, how it is read (image, model, y4m, raw) and what it must give;
Tests/VisageTests/BadInputCorpusTests.swift and Tests/VisageCLITests/BadInputCorpusCLITests.swift
run every entry through the library and the CLI within the bounds the manifest states.

    pip install Pillow numpy flatbuffers ai-edge-litert
    python3 Scripts/make-bad-inputs.py          # writes Tests/Corpus/
"""
import importlib.util
import io
import json
import pathlib
import random
import struct
import zlib

import numpy as np
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/Corpus"
entries = []


def add(name, data, kind, expect, why, **extra):
    (OUT / name).write_bytes(data)
    entries.append({"file": name, "kind": kind, "expect": expect, "why": why, **extra})


# --------------------------------------------------------------------------------------------------
# Images

def chunk(kind, data, length=None):
    size = len(data) if length is None else length
    return struct.pack(">I", size) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


SIGNATURE = b"\x89PNG\r\n\x1a\n"


def ihdr(width, height, bit_depth=8, color_type=2, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace))


def rgb_idat(width, height, value=128):
    return chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + bytes([value]) * (3 * width) for _ in range(height))))


def small_png(extra_before=b"", extra_after=b""):
    return SIGNATURE + ihdr(16, 16) + extra_before + rgb_idat(16, 16) + extra_after + chunk(b"IEND", b"")


def bomb(size):
    """zlib data that inflates to `size` zero bytes (about 1000:1)."""
    compressor = zlib.compressobj(9)
    block = b"\x00" * (1 << 20)
    out = b""
    for _ in range(size >> 20):
        out += compressor.compress(block)
    return out + compressor.flush()


def exif_ifd(order, entries_bytes, count, next_offset):
    return struct.pack(order + "H", count) + entries_bytes + struct.pack(order + "I", next_offset)


def tiff_loop():
    """IFD0 at 8 whose next-IFD offset points back at itself, holding an orientation of 6."""
    body = b"II" + struct.pack("<HI", 42, 8)
    body += exif_ifd("<", struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0), 1, 8)
    return body


def tiff_bad_offset():
    """IFD0 at an offset far beyond the data."""
    return b"II" + struct.pack("<HI", 42, 0x7FFFFFF0) + b"\x00" * 8


def tiff_huge_count():
    """IFD0 claiming 65535 entries in a few bytes."""
    return b"MM" + struct.pack(">HI", 42, 8) + struct.pack(">H", 65535) + b"\x00" * 12


def tiff_exif_pointer_loop():
    """IFD0 with an Exif sub-IFD pointer (0x8769) to IFD0 itself, then orientation."""
    entries_bytes = struct.pack("<HHII", 0x8769, 4, 1, 8) + struct.pack("<HHIHH", 0x0112, 3, 1, 3, 0)
    return b"II" + struct.pack("<HI", 42, 8) + exif_ifd("<", entries_bytes, 2, 8)


def jpeg_with_app1(base, payload):
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return base[:2] + segment + base[2:]


def jpeg_segments(data):
    """(marker, start, end) of each segment up to SOS; the scan data follows the last SOS."""
    at, out = 2, []
    while at < len(data):
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        out.append((marker, at, at + 2 + length))
        at += 2 + length
        if marker == 0xDA:
            break
    return out


def jpeg_huffman_table(data, table, edit):
    """`data` with its DHT segment for `table` (class << 4 | slot; libjpeg writes one table a segment) replaced by
    `edit(counts, symbols)`'s."""
    for marker, start, end in jpeg_segments(data):
        if marker == 0xC4 and data[start + 4] == table:
            counts, symbols = edit(list(data[start + 5:start + 21]), list(data[start + 21:end]))
            body = bytes([table]) + bytes(counts) + bytes(symbols)
            return data[:start] + b"\xff\xc4" + struct.pack(">H", len(body) + 2) + body + data[end:]
    raise ValueError(f"no Huffman table {table:#x}")


def picture(width, height, channels):
    rng = np.random.default_rng(20261123)
    ys, xs = np.mgrid[0:height, 0:width]
    base = ((xs * 7 + ys * 5) % 256).astype(np.uint8)
    planes = [base, (base // 2 + 60).astype(np.uint8), (255 - base).astype(np.uint8), np.full_like(base, 200)][:channels]
    noise = rng.integers(0, 16, size=(height, width, channels), dtype=np.uint8)
    return np.dstack(planes) + noise


def save(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, **options)
    return buffer.getvalue()


def image_corpus():
    rgb = Image.fromarray(picture(48, 32, 3))
    jpeg = save(rgb, format="JPEG", quality=85)
    progressive = save(rgb, format="JPEG", quality=85, progressive=True)
    png = save(rgb, format="PNG")

    add("empty.bin", b"", "image", "empty_image", "no bytes at all")
    add("text.png", b"This is a text file, not an image.\n", "image", "unsupported_format", "text named .png")
    add("zeros.jpg", b"\x00" * 64, "image", "unsupported_format", "64 zero bytes named .jpg")

    # JPEG: truncations at several offsets.
    sos = jpeg.index(b"\xff\xda")
    add("jpeg-soi-only.jpg", jpeg[:2], "image", "unsupported_format", "2 bytes (FF D8): too few to tell a format")
    for name, cut in [("app0", 10), ("dqt", jpeg.index(b"\xff\xdb") + 30), ("sof", jpeg.index(b"\xff\xc0") + 8),
                      ("sos", sos + 6), ("scan-10", sos + (len(jpeg) - sos) // 10), ("scan-90", len(jpeg) - (len(jpeg) - sos) // 10),
                      ("no-eoi", len(jpeg) - 2)]:
        add(f"jpeg-truncated-{name}.jpg", jpeg[:cut], "image", "truncated_image", f"baseline JPEG cut at byte {cut} of {len(jpeg)}")
    psos = progressive.index(b"\xff\xda")
    add("jpeg-progressive-truncated.jpg", progressive[:psos + (len(progressive) - psos) // 2], "image", "truncated_image",
        "progressive JPEG cut halfway through its scans")

    # JPEG: sizes and structure.
    huge = bytearray(jpeg)
    sof = huge.index(b"\xff\xc0")
    huge[sof + 5:sof + 9] = struct.pack(">HH", 65_500, 65_500)
    add("jpeg-huge-size.jpg", bytes(huge), "image", "image_too_large", "SOF declares 65500×65500 (4.3 gigapixels)")
    wide = bytearray(jpeg)
    wide[sof + 5:sof + 9] = struct.pack(">HH", 1, 65_500)
    add("jpeg-one-row-wide.jpg", bytes(wide), "image", "truncated_image",
        "SOF declares 65500×1, within the pixel limit, over data for 48×32: EOI comes early, decoding stops")
    claim = bytearray(jpeg)
    claim[sof + 5:sof + 9] = struct.pack(">HH", 10_000, 10_000)
    add("jpeg-100mp-tiny-data.jpg", bytes(claim), "image", "truncated_image",
        "SOF declares 10000×10000 (at the pixel limit) over data for 48×32: decoding stops at the early EOI")
    zero = bytearray(jpeg)
    zero[sof + 5:sof + 9] = struct.pack(">HH", 32, 0)
    add("jpeg-zero-width.jpg", bytes(zero), "image", "corrupt_image", "SOF declares a width of 0")
    precision = bytearray(jpeg)
    precision[sof + 4] = 12
    add("jpeg-12-bit.jpg", bytes(precision), "image", "corrupt_image", "SOF declares 12-bit samples")
    components = bytearray(jpeg)
    components[sof + 9] = 0
    add("jpeg-no-components.jpg", bytes(components[:sof + 10]) + jpeg[sof + 10:], "image", "corrupt_image",
        "SOF declares 0 components")
    no_sof = b"\xff\xd8" + jpeg[2:sof] + b"\xff\xd9"
    add("jpeg-no-frame.jpg", no_sof, "image", "corrupt_image", "tables, then EOI: no frame at all")
    random.seed(20261123)
    add("jpeg-garbage.jpg", b"\xff\xd8\xff" + bytes(random.randrange(256) for _ in range(400)), "image", "truncated_image",
        "SOI, then random bytes: the first segment's length runs past the end")

    # JPEG: Huffman tables libjpeg refuses ("Bogus Huffman table definition") though the scan never reads the
    # bad code, in a flat 1024×64 picture: fast detection reads it with JPEGSparseDecoder, without libjpeg, and
    # answered no faces where a full decode gives corrupt_image (the jpeg-shrink fuzz target, FUZZING.md 18).
    flat = save(Image.new("RGB", (1024, 64), (120, 130, 140)), format="JPEG", quality=75)
    add("jpeg-dc-table-symbol-over-15.jpg", jpeg_huffman_table(flat, 0x01, lambda counts, symbols: (counts, symbols[:-1] + [42])),
        "image", "corrupt_image", "1024×64 baseline whose chroma DC table lists size 42 (libjpeg allows 0-15), never read by the scan")
    add("jpeg-huffman-all-ones-code.jpg",
        jpeg_huffman_table(flat, 0x00, lambda counts, symbols: (counts[:8] + [counts[8] + 1] + counts[9:], symbols + [0])),
        "image", "corrupt_image", "1024×64 baseline whose luma DC table gains a 9-bit code of all ones, never read by the scan")

    # A progressive JPEG repeating its first (DC) scan 1000 times: every scan is a full pass over the
    # coefficients; Visage stops at 500 scans.
    segments = jpeg_segments(progressive)
    header = progressive[:segments[-1][1]]
    first_scan_start = segments[-1][1]
    next_marker = first_scan_start + 2
    while True:
        next_marker = progressive.index(b"\xff", next_marker + 1)
        if progressive[next_marker + 1] not in (0x00,) and not 0xD0 <= progressive[next_marker + 1] <= 0xD7:
            break
    dc_scan = progressive[first_scan_start:next_marker]
    add("jpeg-scan-bomb.jpg", header + dc_scan * 1000 + b"\xff\xd9", "image", "corrupt_image",
        f"progressive JPEG with its DC scan repeated 1000 times ({len(dc_scan)} bytes each); the cap is 500 scans")

    # JPEG: EXIF that loops or points nowhere; the image itself is fine and decodes upright.
    add("jpeg-exif-ifd-loop.jpg", jpeg_with_app1(jpeg, b"Exif\x00\x00" + tiff_loop()), "image", "ok",
        "EXIF IFD0's next-IFD offset points at itself", width=32, height=48)
    add("jpeg-exif-subifd-loop.jpg", jpeg_with_app1(jpeg, b"Exif\x00\x00" + tiff_exif_pointer_loop()), "image", "ok",
        "EXIF IFD0 points to itself as its Exif sub-IFD", width=48, height=32)
    add("jpeg-exif-bad-offset.jpg", jpeg_with_app1(jpeg, b"Exif\x00\x00" + tiff_bad_offset()), "image", "ok",
        "EXIF IFD0 offset 0x7FFFFFF0 in a 20-byte TIFF", width=48, height=32)
    add("jpeg-exif-huge-count.jpg", jpeg_with_app1(jpeg, b"Exif\x00\x00" + tiff_huge_count()), "image", "ok",
        "EXIF IFD0 claims 65535 entries", width=48, height=32)
    add("jpeg-exif-truncated.jpg", jpeg_with_app1(jpeg, b"Exif\x00\x00II*\x00"), "image", "ok",
        "EXIF that stops inside the TIFF header", width=48, height=32)

    # JPEG: valid but unusual colour.
    cmyk = Image.frombytes("CMYK", (48, 32), picture(48, 32, 4).tobytes())
    add("jpeg-cmyk.jpg", save(cmyk, format="JPEG", quality=90), "image", "ok", "Adobe CMYK JPEG (decodes to RGB)", width=48, height=32)
    add("jpeg-gray.jpg", save(rgb.convert("L"), format="JPEG"), "image", "ok", "gray JPEG", width=48, height=32)

    # PNG: truncations.
    for name, cut in [("signature", 8), ("ihdr", 20), ("idat", len(png) // 2), ("no-iend", len(png) - 12)]:
        add(f"png-truncated-{name}.png", png[:cut], "image", "truncated_image", f"PNG cut at byte {cut} of {len(png)}")

    # PNG: chunks that declare or inflate to huge sizes.
    add("png-itxt-2gb.png", SIGNATURE + ihdr(64, 64) + chunk(b"iTXt", b"k\x00\x00\x00\x00\x00" + b"x" * 4000, length=2**31 - 1),
        "image", "truncated_image", "iTXt declares 2^31-1 bytes in a 4 KB file (libpng once allocated and zeroed 2 GB)")
    add("png-text-after-idat-2gb.png", SIGNATURE + ihdr(16, 16) + rgb_idat(16, 16) + chunk(b"tEXt", b"k\x00" + b"x" * 100, length=2**31 - 1),
        "image", "truncated_image", "tEXt after the image data declares 2^31-1 bytes")
    add("png-unknown-chunk-2gb.png", SIGNATURE + ihdr(16, 16) + chunk(b"vsGe", b"x" * 100, length=2**31 - 1), "image", "truncated_image",
        "a private chunk declares 2^31-1 bytes")
    add("png-ztxt-bomb.png", small_png(chunk(b"zTXt", b"Comment\x00\x00" + bomb(64 << 20))), "image", "ok",
        "zTXt inflating to 64 MB (skipped unread)", width=16, height=16)
    add("png-itxt-bomb.png", small_png(chunk(b"iTXt", b"Comment\x00\x01\x00\x00\x00" + bomb(64 << 20))), "image", "ok",
        "compressed iTXt inflating to 64 MB (skipped unread)", width=16, height=16)
    add("png-iccp-bomb.png", small_png(chunk(b"iCCP", b"icc\x00\x00" + bomb(64 << 20))), "image", "ok",
        "iCCP profile inflating to 64 MB (skipped unread)", width=16, height=16)
    excess = zlib.compress(b"".join(b"\x00" + b"\x80" * 48 for _ in range(16)) + b"\x00" * (64 << 20), 9)
    add("png-idat-excess.png", SIGNATURE + ihdr(16, 16) + chunk(b"IDAT", excess) + chunk(b"IEND", b""), "image", "ok",
        "IDAT inflating to 64 MB for a 16×16 image (libpng inflates only the rows)", width=16, height=16)
    add("png-idat-bomb.png", SIGNATURE + ihdr(30_000, 30_000, 1, 0) + chunk(b"IDAT", bomb(16 << 20)) + chunk(b"IEND", b""),
        "image", "image_too_large", "1-bit 30000×30000: 900 megapixels from a few KB")
    add("png-huge-size.png", SIGNATURE + ihdr(100_000, 100_000) + rgb_idat(1, 1) + chunk(b"IEND", b""), "image", "image_too_large",
        "IHDR declares 100000×100000")
    add("png-one-row-wide.png", SIGNATURE + ihdr(50_000_000, 1) + rgb_idat(1, 1) + chunk(b"IEND", b""), "image", "corrupt_image",
        "IHDR declares 50000000×1 (within the pixel limit) over 4 bytes of rows: refused before the pixels are allocated")
    add("png-many-text-chunks.png", small_png(b"".join(chunk(b"tEXt", b"k%d\x00v" % i) for i in range(4_000))), "image", "ok",
        "4000 tEXt chunks before the image data", width=16, height=16)

    # PNG: invalid headers and data.
    add("png-zero-width.png", SIGNATURE + ihdr(0, 16) + rgb_idat(1, 1) + chunk(b"IEND", b""), "image", "corrupt_image", "IHDR width 0")
    add("png-bad-color-type.png", SIGNATURE + ihdr(16, 16, 8, 5) + rgb_idat(16, 16) + chunk(b"IEND", b""), "image", "corrupt_image",
        "colour type 5 does not exist")
    add("png-bad-bit-depth.png", SIGNATURE + ihdr(16, 16, 4, 2) + rgb_idat(16, 16) + chunk(b"IEND", b""), "image", "corrupt_image",
        "RGB at 4 bits a sample is not allowed")
    add("png-palette-missing.png", SIGNATURE + ihdr(16, 16, 8, 3) + chunk(b"IDAT", zlib.compress(b"\x00" * 17 * 16)) + chunk(b"IEND", b""),
        "image", "corrupt_image", "palette image without PLTE")
    bad_crc = bytearray(png)
    bad_crc[29] ^= 0xFF
    add("png-ihdr-crc.png", bytes(bad_crc), "image", "corrupt_image", "IHDR's CRC does not match")
    add("png-idat-garbage.png", SIGNATURE + ihdr(16, 16) + chunk(b"IDAT", b"\x78\x9c" + bytes(range(200))) + chunk(b"IEND", b""),
        "image", "corrupt_image", "IDAT is not a valid zlib stream")
    add("png-first-chunk-not-ihdr.png", SIGNATURE + chunk(b"tEXt", b"k\x00v" + b"\x00" * 13) + ihdr(16, 16) + rgb_idat(16, 16)
        + chunk(b"IEND", b""), "image", "corrupt_image", "the first chunk is not IHDR")
    add("png-exif-loop.png", small_png(chunk(b"eXIf", tiff_loop())), "image", "ok",
        "eXIf IFD0 whose next-IFD offset points at itself (orientation 6)", width=16, height=16)
    add("png-exif-huge-count.png", small_png(chunk(b"eXIf", tiff_huge_count())), "image", "ok", "eXIf claims 65535 entries",
        width=16, height=16)

    # PNG: valid but unusual.
    gray16 = b"".join(b"\x00" + row.tobytes() for row in picture(24, 16, 1)[..., 0].astype(">u2") * 257)
    add("png-gray16.png", SIGNATURE + ihdr(24, 16, 16, 0) + chunk(b"IDAT", zlib.compress(gray16)) + chunk(b"IEND", b""), "image", "ok",
        "16-bit gray", width=24, height=16)
    rgb16 = np.dstack([picture(24, 16, 3).astype(">u2") * 257])
    raw16 = b"".join(b"\x00" + row.tobytes() for row in rgb16)
    add("png-rgb16.png", SIGNATURE + ihdr(24, 16, 16, 2) + chunk(b"IDAT", zlib.compress(raw16)) + chunk(b"IEND", b""), "image", "ok",
        "16-bit RGB", width=24, height=16)
    frames = [Image.fromarray(picture(20, 12, 3) // (i + 1)) for i in range(3)]
    apng = io.BytesIO()
    frames[0].save(apng, format="PNG", save_all=True, append_images=frames[1:], duration=100, loop=0)
    add("png-animated.png", apng.getvalue(), "image", "ok", "APNG with 3 frames: the default image decodes", width=20, height=12)

    # PNM.
    add("pnm-huge-size.ppm", b"P6 100000 100000 255\n" + b"\x00" * 30, "image", "image_too_large", "P6 declares 100000×100000")
    add("pnm-truncated.ppm", b"P6 16 16 255\n" + b"\x80" * 100, "image", "truncated_image", "P6 16×16 with 100 of 768 bytes")
    add("pnm-maxval-zero.pgm", b"P5 4 4 0\n" + b"\x00" * 16, "image", "corrupt_image", "maxval 0")
    add("pnm-negative-size.ppm", b"P6 -4 4 255\n" + b"\x00" * 48, "image", "corrupt_image", "a negative width")
    add("pnm-ascii-overflow.pgm", b"P2 2 1 255\n99999999999999999999999 1\n", "image", "corrupt_image", "an ASCII sample beyond Int")
    add("pnm-16bit.pgm", b"P5 4 2 65535\n" + bytes(range(16)), "image", "ok", "16-bit PGM", width=4, height=2)


# --------------------------------------------------------------------------------------------------
# Video streams

def y4m(header, frames=b""):
    return header.encode() + b"\n" + frames


def video_corpus():
    add("y4m-huge-frame-no-data.y4m", y4m("YUV4MPEG2 W16384 H4096 F30:1", b"FRAME\n"), "y4m", "corrupt_video",
        "a 44-byte stream whose header declares 16384×4096 frames (once allocated 132 MB before any frame data)")
    add("y4m-too-large.y4m", y4m("YUV4MPEG2 W20000 H20000 F30:1", b"FRAME\n"), "y4m", "invalid_parameter",
        "20000×20000 exceeds the frame limits")
    add("y4m-zero-width.y4m", y4m("YUV4MPEG2 W0 H16 F30:1"), "y4m", "invalid_parameter", "width 0")
    add("y4m-unknown-tag.y4m", y4m("YUV4MPEG2 W16 H16 F30:1 Z9"), "y4m", "corrupt_video", "an unknown header tag Z")
    add("y4m-no-frame-rate.y4m", y4m("YUV4MPEG2 W16 H16"), "y4m", "corrupt_video", "no F tag")
    add("y4m-bad-frame-rate.y4m", y4m("YUV4MPEG2 W16 H16 F30:0"), "y4m", "corrupt_video", "a frame rate of 30/0")
    add("y4m-10-bit.y4m", y4m("YUV4MPEG2 W16 H16 F30:1 C420p10"), "y4m", "unsupported_video", "10-bit chroma layout")
    add("y4m-not-y4m.y4m", b"RIFF\x00\x00\x00\x00WAVEfmt \n", "y4m", "corrupt_video", "a WAV header named .y4m")
    add("y4m-long-header.y4m", b"YUV4MPEG2 W16 H16 F30:1 X" + b"a" * 4000 + b"\n", "y4m", "corrupt_video", "a 4 KB header line")
    frame = b"FRAME\n" + b"\x80" * (16 * 16 * 3 // 2)
    add("y4m-truncated-frame.y4m", y4m("YUV4MPEG2 W16 H16 F30:1", frame + frame[:200]), "y4m", "corrupt_video",
        "the second frame stops after 194 of 384 bytes")
    add("y4m-bad-frame-marker.y4m", y4m("YUV4MPEG2 W16 H16 F30:1", b"FRAMX\n" + b"\x80" * 384), "y4m", "corrupt_video",
        "a frame marker that is not FRAME")
    add("y4m-size-change.y4m", y4m("YUV4MPEG2 W16 H16 F30:1", frame) + b"YUV4MPEG2 W32 H16 F30:1\n" + b"FRAME\n" + b"\x80" * 768,
        "y4m", "corrupt_video", "a second stream header with another size")
    add("y4m-tiny-frames.y4m", y4m("YUV4MPEG2 W2 H2 F30:1 C420jpeg", (b"FRAME\n" + b"\x80" * 6) * 2000), "y4m", "ok",
        "2000 frames of 2×2 pixels (12 bytes a frame): no detector run for frames too small to hold a face",
        frames=2000)
    add("raw-huge-frame-no-data.rgb", b"\x00" * 10, "raw", "corrupt_video",
        "10 bytes for a declared 16384×4096 RGB frame (memory follows the bytes that arrive)", width=16384, height=4096)
    add("raw-truncated.rgb", b"\x80" * (16 * 16 * 3 + 100), "raw", "corrupt_video", "one 16×16 frame and 100 bytes of the next",
        width=16, height=16)


# --------------------------------------------------------------------------------------------------
# TFLite models, through Scripts/make-nn-fixtures.py's FlatBuffers writer.

def nn_writer():
    spec = importlib.util.spec_from_file_location("make_nn_fixtures", ROOT / "Scripts/make-nn-fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.OPS["HARD_SWISH"] = 117
    return module.Graph


def model_corpus():
    Graph = nn_writer()

    def relu_model(shape=(1, 4)):
        g = Graph()
        x = g.tensor(shape)
        y = g.op("RELU", [x], shape)
        return g.serialize([x], [y])

    good = relu_model()
    add("model-empty.tflite", b"", "model", "model_invalid", "0 bytes")
    add("model-not-tflite.tflite", b"PK\x03\x04" + b"\x00" * 60, "model", "model_invalid", "a zip header")
    add("model-truncated.tflite", good[:len(good) // 2], "model", "model_invalid", "a valid model cut in half")
    root = bytearray(good)
    root[0:4] = struct.pack("<I", 0x7FFFFFF0)
    add("model-root-offset-out-of-range.tflite", bytes(root), "model", "model_invalid", "the root table offset points past the end")
    # Every 4-byte word that reads as a small offset, pushed past the end, one file each would be many;
    # two representative ones: a vtable offset and a vector length.
    vtable = bytearray(good)
    table = struct.unpack("<I", vtable[0:4])[0]
    vtable[table:table + 4] = struct.pack("<i", -0x7FFFFFF0)
    add("model-vtable-out-of-range.tflite", bytes(vtable), "model", "model_invalid", "the root table's vtable offset points outside the file")

    g = Graph()
    x, a, b = g.tensor((1, 4)), g.tensor((1, 4)), g.tensor((1, 4))
    g.operators = [("ADD", [x, a], [b], {}), ("RELU", [b], [a], {})]
    add("model-cyclic-graph.tflite", g.serialize([x], [b]), "model", "model_invalid",
        "ADD reads the output of the RELU that reads the ADD's output")

    g = Graph()
    x = g.tensor((1, 4))
    y = g.tensor((1, 5))
    z = g.op("ADD", [x, y], (1, 4))
    add("model-wrong-shapes.tflite", g.serialize([x, y], [z]), "model", "model_invalid", "ADD of [1,4] and [1,5]")

    g = Graph()
    x = g.tensor((1, 4, 4, 1))
    w = g.constant(np.full((1, 3, 3, 1), np.nan, dtype=np.float32))
    bias = g.constant(np.zeros(1, dtype=np.float32))
    y = g.op("CONV_2D", [x, w, bias], (1, 4, 4, 1), padding=0, stride_w=1, stride_h=1)
    add("model-nan-weights.tflite", g.serialize([x], [y]), "model", "ok",
        "a convolution whose weights are all NaN: loads and runs, every output NaN (as TFLite)", outputs="nan")

    g = Graph()
    x = g.tensor((1, 1 << 20, 1 << 20, 3))
    y = g.op("RELU", [x], (1, 1 << 20, 1 << 20, 3))
    add("model-huge-tensor.tflite", g.serialize([x], [y]), "model", "model_invalid", "a 2^40×3-element activation")

    g = Graph()
    x = g.tensor((1, 3 << 20))
    y = g.op("ADD", [x, x], (1, 3 << 20))
    add("model-arena-over-limit.tflite", g.serialize([x], [y]), "model", "model_invalid",
        "two 12 MiB activations alive together: each under the activation limit for its size, the arena over it")

    g = Graph()
    x = g.tensor((1, -4))
    y = g.op("RELU", [x], (1, -4))
    add("model-negative-shape.tflite", g.serialize([x], [y]), "model", "model_invalid", "a shape of [1, -4]")

    g = Graph()
    x = g.tensor((1, 4))
    y = g.op("RELU", [x, 99], (1, 4))
    add("model-tensor-index-out-of-range.tflite", g.serialize([x], [y]), "model", "model_invalid",
        "an operator input index past the tensor list")

    # Fuzzing finding (FUZZING.md): a model whose subgraph lists no inputs loads and runs.
    add("model-no-inputs.tflite", (ROOT / "Fuzz/Seeds/tflite/finding-no-inputs.tflite").read_bytes(), "model", "ok",
        "found by Scripts/fuzz.sh tflite: a subgraph with an empty input list (the harness trapped on withInput(0))")
    # Fuzzing finding 2: 380 bytes declaring a 264 MB input, over the activation limit for its size.
    add("model-huge-activations.tflite", (ROOT / "Fuzz/Seeds/tflite/finding-timeout-arena.tflite").read_bytes(), "model",
        "model_invalid", "found by Scripts/fuzz.sh tflite: 380 bytes whose [524289,7,6,3] input needs 264 MB, "
        "over the 16 MiB + 64 B/byte activation limit (it used to be allocated and zeroed)")

    g = Graph()
    x = g.tensor((1, 4))
    y = g.op("HARD_SWISH", [x], (1, 4))
    add("model-unsupported-operator.tflite", g.serialize([x], [y]), "model", "model_unsupported",
        "HARD_SWISH (builtin 117), which Visage does not run")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    image_corpus()
    video_corpus()
    model_corpus()
    (OUT / "manifest.json").write_text(json.dumps({"entries": entries}, indent=1) + "\n")
    total = sum(path.stat().st_size for path in OUT.iterdir())
    print(f"{len(entries)} files, {total} bytes in {OUT}")
