#!/usr/bin/env python3
"""Writes a YUV4MPEG2 clip (4:4:4, full range as Visage reads C444) made of a sample photo: first
plain gray frames without a face, then the photo. Standard library only, so CI needs nothing installed.

    make-sample-clip.py Samples/astronaut.png clip.y4m [--fps 10] [--empty 12] [--face 15]

Used by Scripts/smoke-readme.sh for the README's `clip.y4m`.
"""
import argparse
import struct
import zlib


def read_png(path):
    """(width, height, RGB bytes) of an 8-bit, non-interlaced gray, RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    offset, idat = 8, b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunk = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        offset += 12 + length
    channels = {0: 1, 2: 3, 6: 4}.get(color)
    if depth != 8 or channels is None or interlace:
        raise SystemExit(f"{path}: only 8-bit non-interlaced gray, RGB or RGBA PNGs")
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    pixels = b"".join(rows)
    if channels == 1:
        pixels = bytes(v for v in pixels for _ in range(3))
    elif channels == 4:
        pixels = bytes(v for i, v in enumerate(pixels) if i % 4 != 3)
    return width, height, pixels


def yuv444(rgb):
    """Full-range BT.601 planes, as JPEG and Visage's y4m reader use them."""
    r, g, b = rgb[0::3], rgb[1::3], rgb[2::3]
    clamp = lambda v: 0 if v < 0 else 255 if v > 255 else int(v + 0.5)
    y = bytes(clamp(0.299 * R + 0.587 * G + 0.114 * B) for R, G, B in zip(r, g, b))
    u = bytes(clamp(128 - 0.168736 * R - 0.331264 * G + 0.5 * B) for R, G, B in zip(r, g, b))
    v = bytes(clamp(128 + 0.5 * R - 0.418688 * G - 0.081312 * B) for R, G, B in zip(r, g, b))
    return y + u + v


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photo")
    parser.add_argument("output")
    parser.add_argument("--fps", type=int, default=10)
    parser.add_argument("--empty", type=int, default=12, help="gray frames first")
    parser.add_argument("--face", type=int, default=15, help="then frames of the photo")
    args = parser.parse_args()
    width, height, rgb = read_png(args.photo)
    face = yuv444(rgb)
    gray = bytes([118]) * (width * height) + bytes([128]) * (2 * width * height)
    with open(args.output, "wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{args.fps}:1 Ip A1:1 C444 XCOLORRANGE=FULL\n".encode())
        for frame in [gray] * args.empty + [face] * args.face:
            out.write(b"FRAME\n" + frame)


if __name__ == "__main__":
    main()
