#!/usr/bin/env python3
"""Builds Samples/clips/attention.mp4 from the segments Samples/clips/attention.json lists.

Each segment is cut from a real clip (Scripts/real_clips.py fetches them from their PyPI wheels), scaled
whole to square pixels of the clip's height (black bars at the sides where it is narrower) and played at
the clip's frame rate; the segments follow each other with hard cuts. Never cropped: a crop moves the
picture's centre, which the gaze method takes for the camera's axis, and can cut a face off at the edge
(README, "Attention on footage"). H.264 in MP4, no sound, a few hundred kilobytes.

    python3 Scripts/make-attention-clip.py   # needs ffmpeg
"""
import json
import os
import subprocess

from real_clips import clip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABELS = os.path.join(ROOT, "Samples", "clips", "attention.json")
# How each source becomes the clip's 512×288 square pixels: carphone's QCIF pixels are 128:117 (wider than
# tall), so it is stretched to 384×288 and centred between black bars; wolfgang (16:9) is scaled whole.
# (Until session 11 the clip was 352×288 and both were cropped to it, wolfgang at the face: see above.)
FITS = {"carphone": "scale=384:288,pad=512:288:64:0", "wolfgang": "scale=512:288"}


def main():
    labels = json.load(open(LABELS))
    w, h, fps = labels["width"], labels["height"], labels["fps"]
    inputs, filters = [], []
    for index, segment in enumerate(labels["segments"]):
        inputs += ["-ss", str(segment["from"]), "-t", str(round(segment["to"] - segment["from"], 3)), "-i", clip(segment["clip"])]
        fit = FITS[segment["clip"]]
        filters.append(f"[{index}:v]{fit},fps={fps},setsar=1,format=yuv420p[v{index}]")
    count = len(labels["segments"])
    graph = ";".join(filters) + ";" + "".join(f"[v{i}]" for i in range(count)) + f"concat=n={count}:v=1:a=0[out]"
    out = os.path.join(ROOT, "Samples", "clips", "attention.mp4")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *inputs, "-filter_complex", graph, "-map", "[out]",
                    "-c:v", "libx264", "-preset", "veryslow", "-crf", "26", "-g", "50", "-an",
                    "-map_metadata", "-1", "-fflags", "+bitexact", out], check=True)
    print(f"{out}: {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
