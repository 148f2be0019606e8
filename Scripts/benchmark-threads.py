#!/usr/bin/env python3
"""Latency within one image on 1 and 2 cores (issue 20), release build, same run.

1. Every network at 1 and 2 threads against LiteRT/XNNPACK at 1 and 2 threads (Scripts/benchmark-reference.py),
   once with the kernels this machine selects and once with VISAGE_KERNELS=avx2_fma (XNNPACK keeps its own
   choice, AVX-512 where the core has it, so the forced-AVX2 ratio is the conservative one).
2. Accurate mode (faces down to 5 % of the width, so it tiles) on a 4000×3000 JPEG with several faces (a collage of the bundled samples' faces, made
   here with Pillow), its windows, turned views and faces run side by side: `taskset -c 0` against
   `taskset -c 0,1`, with the two runs' JSON compared for identity.

    swift build -c release --product visage
    python3 Scripts/benchmark-threads.py [--runs 5] [--scratch-path .build]

Needs a quiet machine: the 2-core figures mean nothing while other work shares the cores (the script
prints the load average beside them).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def collage(path):
    """A 4000×3000 JPEG: a textured background and five faces from the samples, 1000-1500 px wide."""
    background = Image.open(os.path.join(ROOT, "Samples", "coins.png")).convert("RGB").resize((4000, 3000))
    faces = [
        (os.path.join(ROOT, "Samples", "astronaut.png"), (150, 20, 330, 240)),
        (os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "one-face.jpg"), None),
        (os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "two-faces.png"), None),
    ]
    spots = [(100, 100, 1200), (1500, 150, 1000), (2700, 200, 1200), (300, 1600, 1500), (2200, 1700, 1500)]
    for index, (x, y, width) in enumerate(spots):
        source, box = faces[index % len(faces)]
        picture = Image.open(source).convert("RGB")
        if box:
            picture = picture.crop(box)
        height = round(width * picture.height / picture.width)
        background.paste(picture.resize((width, height), Image.LANCZOS), (x, y))
    background.save(path, quality=90)


def load():
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def accurate(binary, image, cores, runs):
    command = ["taskset", "-c", cores, str(binary), "detect", "--mode", "accurate", "--min-face-size", "0.05", "--mesh"]
    report = json.loads(subprocess.run(command + ["--benchmark", str(runs), "--json", image],
                                       check=True, capture_output=True, text=True).stdout)
    result = subprocess.run(command + ["--json", image], check=True, capture_output=True, text=True).stdout
    return report, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--network-runs", type=int, default=100)
    parser.add_argument("--scratch-path", default=".build")
    parser.add_argument("--skip-networks", action="store_true")
    args = parser.parse_args()
    binary = os.path.join(ROOT, args.scratch_path, "release", "visage")
    if not os.path.exists(binary):
        sys.exit(f"{binary} is missing: run `swift build -c release --product visage` first")

    if not args.skip_networks:
        for kernels in (None, "avx2_fma"):
            env = dict(os.environ)
            if kernels:
                env["VISAGE_KERNELS"] = kernels
            print(f"## networks, Visage kernels {kernels or 'as selected'} ({load()})", flush=True)
            subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "benchmark-reference.py"),
                            "--runs", str(args.network_runs), "--threads", "1", "2",
                            "--scratch-path", args.scratch_path], check=True, env=env)

    with tempfile.TemporaryDirectory() as folder:
        image = os.path.join(folder, "collage-4000x3000.jpg")
        collage(image)
        print(f"## accurate mode with the mesh on a 4000×3000 JPEG, median of {args.runs} ({load()})", flush=True)
        one, one_json = accurate(binary, image, "0", args.runs)
        two, two_json = accurate(binary, image, "0,1", args.runs)
        identical = one_json == two_json
        faces = len(json.loads(one_json.splitlines()[0])["faces"])
        print(f"faces {faces}; 1 core {one['detectMilliseconds']:.1f} ms, 2 cores {two['detectMilliseconds']:.1f} ms, "
              f"speed-up {one['detectMilliseconds'] / two['detectMilliseconds']:.2f}x; output identical: {identical} ({load()})")
        if not identical:
            sys.exit("the 1-core and 2-core outputs differ")


if __name__ == "__main__":
    main()
