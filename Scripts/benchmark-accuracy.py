#!/usr/bin/env python3
"""What each accuracy addition of issue 16 costs, measured in one run of a release build.

    swift build -c release --product visage
    python3 Scripts/benchmark-accuracy.py [--visage .build/release/visage] [--runs 20] [images ...]

For each image, `visage detect --benchmark N --json` times (median, decoding excluded; wall and CPU
time, which on a loaded machine moves less) fast mode, fast mode with each option, and accurate mode
with and without each of its defaults, then prints each against its baseline and against fast mode in
the same run as ratios. The short-range pass accurate mode now includes costs
what fast mode's detection costs (the same pass). The load average is printed beside the figures: on a
shared machine only the same-run ratios mean anything.
"""
import argparse
import json
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIGS = [
    ("fast", []),
    ("fast --rotations", ["--rotations"]),
    ("fast --mesh", ["--mesh"]),
    ("fast --mesh --refine-mesh", ["--mesh", "--refine-mesh"]),
    ("accurate (defaults)", ["--mode", "accurate"]),
    ("accurate --no-rotations --no-refine-mesh", ["--mode", "accurate", "--no-rotations", "--no-refine-mesh"]),
    ("accurate --no-refine-mesh (rotations on)", ["--mode", "accurate", "--no-refine-mesh"]),
    ("accurate --mesh --no-rotations --no-refine-mesh", ["--mode", "accurate", "--mesh", "--no-rotations", "--no-refine-mesh"]),
    ("accurate --mesh --no-rotations (refinement on)", ["--mode", "accurate", "--mesh", "--no-rotations"]),
]
BASELINES = {"fast --rotations": "fast", "fast --mesh --refine-mesh": "fast --mesh",
             "accurate --no-refine-mesh (rotations on)": "accurate --no-rotations --no-refine-mesh",
             "accurate --mesh --no-rotations (refinement on)": "accurate --mesh --no-rotations --no-refine-mesh"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--visage", default=os.path.join(REPO, ".build", "release", "visage"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--min-face-size", default="0.1")
    parser.add_argument("images", nargs="*", default=[os.path.join(REPO, "Samples", "astronaut.png")])
    args = parser.parse_args()
    print("load average before:", open("/proc/loadavg").read().split()[:3])
    print("| image | configuration | faces | ms (median) | CPU ms | against | wall / CPU ÷ fast |")
    print("|---|---|---|---|---|---|---|")
    for image in args.images:
        times, cpu = {}, {}
        for name, flags in CONFIGS:
            out = subprocess.run([args.visage, "detect", "--json", "--benchmark", str(args.runs), "--min-face-size",
                                  args.min_face_size, *flags, image], check=True, capture_output=True, text=True).stdout
            timing = json.loads(out.splitlines()[0])
            times[name], cpu[name] = timing["detectMilliseconds"], timing["detectCPUMilliseconds"]
            base = BASELINES.get(name)
            against = f"{times[name] / times[base]:.2f}× {base}" if base else ""
            fast = "fast --mesh" if "--mesh" in flags else "fast"
            versus = f"{times[name] / times[fast]:.1f}× / {cpu[name] / cpu[fast]:.1f}×" if name != fast else ""
            print(f"| {os.path.basename(image)} | {name} | {timing['faces']} | {times[name]:.2f} | {cpu[name]:.2f} | {against} | {versus} |",
                  flush=True)
    print("load average after:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
