#!/usr/bin/env python3
"""Throughput over many images: `visage detect --jobs N` against MediaPipe's FaceDetector in a Python
multiprocessing pool of N workers, same machine, same run, decoding included for both (cv2.imread there).

Makes two collections with Pillow (not committed): COUNT_SMALL JPEGs of 640×480 (quality 90) and
COUNT_LARGE JPEGs of 4000×3000 (12 MP), from the samples and face fixtures; the 12 MP ones are upscaled
with sensor-like noise added and saved at quality 92 (about 3 MB each, as a phone's photo, where a bare
upscale would give 1 MB of smooth picture that is cheaper to decode than any camera's). For each
collection and N in 1, 2 it reports images/s (wall clock, from process start to the last result, model
loading included), images per CPU-second (user + system time of every process: what a busy shared machine
does not inflate), and the peak RSS of the process (visage: its one process; MediaPipe: the largest worker
and the pool's sum). Then, for one 12 MP photo with noise and the same source upscaled smooth, each saved
without and with restart markers, `visage detect --benchmark`'s decode plus fast detection against a full
decode alone (the issue's quarter), on all cores and pinned to one (`taskset -c 0`).

    python3 -m venv .venv && .venv/bin/pip install mediapipe==0.10.21 opencv-python-headless Pillow
    swift build -c release --product visage
    .venv/bin/python Scripts/benchmark-batch.py [--small 1000] [--large 100] [--rounds 1] [--latency-runs 20]
"""
import argparse
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "Models", "face_detection_short_range.tflite")
SOURCES = [os.path.join(ROOT, "Samples", "astronaut.png"),
           os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "one-face.jpg"),
           os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "two-faces.png"),
           os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "no-face.png")]


def make_collection(folder, count, size, noise=0.0):
    """`count` JPEGs of `size`, cycling through the sources, each a little different (a shifted crop).

    With `noise`, sensor-like noise of that many levels (luma, plus a third of it per channel, a fixed
    seed) is added after the upscale, at quality 92: a camera's 12-megapixel photo carries fine detail and
    noise that an upscale of a small picture lacks, and its JPEG is 2-5 MB, which is what the entropy
    decoding (the part no DCT scale avoids) costs by. The upscale alone gives about 1 MB."""
    from PIL import Image
    os.makedirs(folder, exist_ok=True)
    bases = [Image.open(p).convert("RGB") for p in SOURCES]
    grain = None
    if noise:
        import numpy
        random = numpy.random.default_rng(15)
        grain = (random.normal(0, noise, (size[1], size[0], 1)) + random.normal(0, noise / 3, (size[1], size[0], 3))).astype(numpy.float32)
    paths = []
    for i in range(count):
        base = bases[i % len(bases)]
        shift = (i // len(bases)) % 16
        w, h = base.size
        crop = base.crop((shift, shift, w - 16 + shift, h - 16 + shift)).resize(size, Image.BICUBIC if noise else Image.BILINEAR)
        path = os.path.join(folder, f"img-{i:05d}.jpg")
        if grain is None:
            crop.save(path, quality=90)
        else:
            import numpy
            pixels = numpy.asarray(crop, dtype=numpy.float32) + numpy.roll(grain, 97 * i, axis=(0, 1))
            Image.fromarray(numpy.clip(pixels + 0.5, 0, 255).astype(numpy.uint8)).save(path, quality=92)
        paths.append(path)
    return paths


def latency_photos(path, folder):
    """The picture of `path` (with noise) and the same source upscaled without noise (smooth, about 1 MB),
    each saved at quality 92 without and with a restart marker every MCU row (which many camera and phone
    encoders write, and which lets the decode use both cores)."""
    from PIL import Image
    w, h = Image.open(SOURCES[0]).size
    smooth = Image.open(SOURCES[0]).convert("RGB").crop((0, 0, w - 16, h - 16)).resize((4000, 3000), Image.BILINEAR)
    photos = []
    for label, picture in (("noisy", Image.open(path).convert("RGB")), ("smooth", smooth)):
        for name, extra in (("plain.jpg", {}), ("restart-markers.jpg", {"restart_marker_rows": 1})):
            target = os.path.join(folder, name if label == "noisy" else f"smooth-{name}")
            picture.save(target, quality=92, **extra)
            photos.append(target)
    return photos


def run_latency(visage, path, runs, one_core=False):
    """`visage detect --benchmark`: medians of decode plus fast detection, and of a full decode alone; with
    `one_core`, pinned to CPU 0 (`taskset`)."""
    command = (["taskset", "-c", "0"] if one_core else []) + [visage, "detect", "--json", "--benchmark", str(runs), path]
    child = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(child.stdout)


# Runs a command and reports its wall time, its output's records, the first error record among them, and
# its peak RSS alone: RUSAGE_CHILDREN of a fresh process covers only that command, not the other runs of
# this script.
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
out = subprocess.run(sys.argv[1:], check=True, capture_output=True).stdout
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
records = [json.loads(line) for line in out.splitlines()]
errors = [r for r in records if "error" in r]
print(json.dumps({"seconds": seconds, "records": len(records), "errors": len(errors), "firstError": errors[0] if errors else None,
                  "peak": usage.ru_maxrss / 1024, "cpu": usage.ru_utime + usage.ru_stime}))
"""


def run_visage(visage, listing, jobs):
    """(seconds, records, peak RSS in MB, CPU seconds) of one `visage detect` process over the list. An
    error record (a model not found, say) fails the benchmark: it would be counted as a fast image."""
    child = subprocess.run([sys.executable, "-c", _MEASURE, visage, "detect", "--json", "--files-from", listing,
                            "--jobs", str(jobs)], check=True, capture_output=True, text=True)
    result = json.loads(child.stdout)
    if result["errors"]:
        raise SystemExit(f"visage gave {result['errors']} error records of {result['records']}, the first {result['firstError']}")
    return result["seconds"], result["records"], result["peak"], result["cpu"]


_detector = None


def _init_worker():
    global _detector
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision
    _detector = vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp_tasks.BaseOptions(model_asset_path=MODEL)))


def _detect(path):
    import cv2
    import mediapipe as mp
    bgr = cv2.imread(path)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    faces = _detector.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)).detections
    return len(faces), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def mediapipe_main(listing, jobs):
    """Runs in a process of its own, so its rusage covers only this pool."""
    paths = open(listing).read().splitlines()
    start = time.perf_counter()
    pool = multiprocessing.Pool(jobs, initializer=_init_worker)
    results = pool.map(_detect, paths, chunksize=4)
    pool.close()
    pool.join()  # workers reaped, so their CPU time is in RUSAGE_CHILDREN
    seconds = time.perf_counter() - start
    cpu = sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))
    print(json.dumps({"seconds": seconds, "records": len(results), "workerPeak": max(r[1] for r in results), "cpu": cpu}))


def run_mediapipe(listing, jobs):
    child = subprocess.run([sys.executable, os.path.abspath(__file__), "--mediapipe", listing, "--jobs", str(jobs)],
                           check=True, capture_output=True, text=True)
    result = json.loads(child.stdout.strip().splitlines()[-1])
    return result["seconds"], result["records"], result["workerPeak"], result["cpu"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=1000, help="640×480 JPEGs")
    parser.add_argument("--large", type=int, default=100, help="12 MP JPEGs")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each configuration; the fastest is kept")
    parser.add_argument("--latency-runs", type=int, default=20,
                        help="`visage detect --benchmark` runs on two 12 MP photos (noisy, smooth), with and without restart markers (0: skip)")
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--work", help="folder for the collections (default: a temporary one)")
    parser.add_argument("--mediapipe", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mediapipe:
        mediapipe_main(args.mediapipe, args.jobs)
        return
    work = args.work or tempfile.mkdtemp(prefix="visage-bench-")
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f} (a shared machine inflates wall time)")
    for label, count, size in (("640×480", args.small, (640, 480)), ("12 MP", args.large, (4000, 3000))):
        if count == 0:
            continue
        folder = os.path.join(work, f"{size[0]}x{size[1]}")
        listing = folder + ".txt"
        if not os.path.exists(listing) or len(open(listing).read().splitlines()) != count:
            paths = make_collection(folder, count, size, noise=4.0 if size == (4000, 3000) else 0.0)
            with open(listing, "w") as f:
                f.write("".join(p + "\n" for p in paths))
        rates, cpu_rates = {}, {}
        for jobs in (1, 2):
            for name, runner in (("visage", lambda: run_visage(args.visage, listing, jobs)),
                                 ("MediaPipe", lambda: run_mediapipe(listing, jobs))):
                best = None
                for _ in range(args.rounds):
                    seconds, records, peak, cpu = runner()
                    assert records == count, f"{name}: {records} of {count} records"
                    best = (seconds, peak, cpu) if best is None or seconds < best[0] else best
                rates[name, jobs] = count / best[0]
                cpu_rates[name, jobs] = count / best[2]
                print(f"{label} ×{count}, {jobs} job{'s' if jobs > 1 else ''}: {name:9} {rates[name, jobs]:7.1f} images/s, "
                      f"{cpu_rates[name, jobs]:7.1f} images per CPU-second, "
                      f"peak RSS {best[1]:.0f} MB{' per worker' if name == 'MediaPipe' else ''}")
        for jobs in (1, 2):
            print(f"{label}, {jobs} jobs: visage / MediaPipe = {rates['visage', jobs] / rates['MediaPipe', jobs]:.2f}× "
                  f"(per CPU-second {cpu_rates['visage', jobs] / cpu_rates['MediaPipe', jobs]:.2f}×)")
        print(f"{label}: visage 1 → 2 jobs = {rates['visage', 2] / rates['visage', 1]:.2f}×, "
              f"MediaPipe {rates['MediaPipe', 2] / rates['MediaPipe', 1]:.2f}×")
        if size == (4000, 3000) and args.latency_runs:
            cores = [False, True] if shutil.which("taskset") and (os.cpu_count() or 1) > 1 else [False]
            for path in latency_photos(open(listing).readline().strip(), work):
                for one_core in cores:
                    t = run_latency(args.visage, path, args.latency_runs, one_core)
                    print(f"12 MP, one image ({os.path.basename(path)}, {os.path.getsize(path) / 1e6:.1f} MB, "
                          f"{'1 core' if one_core else f'{os.cpu_count()} cores'}): decode + fast detection "
                          f"{t['decodeAndDetectMilliseconds']:.1f} ms (CPU {t['decodeAndDetectCPUMilliseconds']:.1f}), full decode alone "
                          f"{t['fullDecodeMilliseconds']:.1f} ms (CPU {t['fullDecodeCPUMilliseconds']:.1f}): "
                          f"{t['decodeAndDetectMilliseconds'] / t['fullDecodeMilliseconds']:.2f} of it "
                          f"(CPU {t['decodeAndDetectCPUMilliseconds'] / t['fullDecodeCPUMilliseconds']:.2f}); medians of {args.latency_runs}")


if __name__ == "__main__":
    main()
