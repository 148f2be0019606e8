#!/usr/bin/env python3
"""Times the bundled networks on LiteRT/XNNPACK and on Visage in the same run, and prints the
Visage/XNNPACK latency ratio per model at 1 and 2 threads.

The machine this runs on is shared and noisy, so absolute figures move between runs; the ratio
of two measurements taken back to back is what to compare.

    pip install ai-edge-litert numpy
    python3 Scripts/benchmark-reference.py [--runs 200] [--threads 1 2] [--scratch-path .build-release]
"""
import argparse
import json
import pathlib
import subprocess

from litert_reference import invoke_times, warmed_interpreter

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = [
    "face_detection_short_range.tflite",
    "face_detection_full_range.tflite",
    "face_landmarks_detector.tflite",
    "face_blendshapes.tflite",
]


def time_litert(model, threads, runs):
    """Median and p90 milliseconds of `runs` invocations after 10 warm-up runs (XNNPACK delegate)."""
    times = sorted(invoke_times(warmed_interpreter(model, threads), runs))
    return times[len(times) // 2], times[min(len(times) - 1, len(times) * 9 // 10)]


def visage_binary(scratch_path):
    """Builds the release CLI and returns its path."""
    command = ["swift", "build", "-c", "release", "--product", "visage"]
    if scratch_path:
        command += ["--scratch-path", scratch_path]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return pathlib.Path(subprocess.run(command + ["--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                                       text=True).stdout.strip()) / "visage"


def time_visage(binary, threads, runs):
    command = [str(binary), "benchmark", "--json", "--threads", str(threads), "--runs", str(runs)]
    report = json.loads(subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    return {r["model"]: (r["medianMilliseconds"], r["p90Milliseconds"]) for r in report["results"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--scratch-path", help="SwiftPM scratch path for the release build")
    args = parser.parse_args()

    binary = visage_binary(args.scratch_path)
    rows = []
    for threads in args.threads:
        reference = {model: time_litert(model, threads, args.runs) for model in MODELS}
        visage = time_visage(binary, threads, args.runs)
        for model in MODELS:
            rows.append((model, threads, *reference[model], *visage[model], visage[model][0] / reference[model][0]))

    print(f"median and p90 of {args.runs} runs, ms; ratio = Visage median / XNNPACK median")
    print(f"{'model':36}{'threads':>8}{'XNNPACK':>10}{'p90':>8}{'Visage':>10}{'p90':>8}{'ratio':>8}")
    for model, threads, xm, xp, vm, vp, ratio in rows:
        print(f"{model:36}{threads:>8}{xm:>10.3f}{xp:>8.3f}{vm:>10.3f}{vp:>8.3f}{ratio:>8.2f}")


if __name__ == "__main__":
    main()
