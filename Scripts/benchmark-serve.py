#!/usr/bin/env python3
"""`visage serve` under load, beside MediaPipe's FaceDetector behind a minimal Python HTTP service, same
machine, same run.

Both services answer POST /v1/faces with a 640×480 JPEG as the raw body (fast mode: the short-range
detector). wrk (Debian) drives each at 1, 2, 8 and 64 connections for a fixed time; the script reports
requests/s, p50 and p99 latency, the statuses seen and each server's peak RSS, and the throughput ratio
visage / MediaPipe. Then it overloads visage at 4× its capacity (inferences + queue places) and reads
its own duration histogram: the accepted requests' p99 against the unloaded p99, how many 503s came
within 5 ms, and that nothing but 200 and 503 was answered.

The MediaPipe service is Flask under gunicorn with 2 sync workers (one per core here), each holding one
FaceDetector; it decodes with Pillow. Both servers get the same cores; wrk runs on the same machine.

    apt-get install wrk
    python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install mediapipe==0.10.21 flask gunicorn numpy Pillow
    Scripts/.venv/bin/python Scripts/benchmark-serve.py [--duration 10] [--skip-mediapipe]
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTO = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks", "astronaut.jpg")
SHORT = os.path.join(ROOT, "Models", "face_detection_short_range.tflite")
CONNECTIONS = [1, 2, 8, 64]

WRK_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"
local f = io.open("%s", "rb"); wrk.body = f:read("*a"); f:close()
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local merged = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do merged[tostring(status)] = (merged[tostring(status)] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(merged) do table.insert(parts, string.format('"%%s": %%d', status, n)) end
  local e = summary.errors
  io.write(string.format('RESULT {"requests": %%d, "seconds": %%f, "p50": %%f, "p99": %%f, "errors": %%d, "connect": %%d, "read": %%d, "write": %%d, "timeout": %%d, "statuses": {%%s}}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout, table.concat(parts, ", ")))
end
"""

MEDIAPIPE_APP = """
import io, json, threading
import numpy as np
import mediapipe as mp
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision
from flask import Flask, request, Response
from PIL import Image

app = Flask(__name__)
detector = vision.FaceDetector.create_from_options(
    vision.FaceDetectorOptions(base_options=mp_tasks.BaseOptions(model_asset_path=%r)))

@app.post("/v1/faces")
def faces():
    pixels = np.asarray(Image.open(io.BytesIO(request.get_data())).convert("RGB"))
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=pixels)
    found = detector.detect(image).detections
    faces = [{"frame": {"x": d.bounding_box.origin_x, "y": d.bounding_box.origin_y,
                        "width": d.bounding_box.width, "height": d.bounding_box.height},
              "confidence": d.categories[0].score} for d in found]
    return Response(json.dumps({"width": image.width, "height": image.height, "faces": faces}), mimetype="application/json")

@app.get("/readyz")
def ready():
    return "ok"
"""


def wait_ready(url, seconds=120):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"{url} never became ready")


def rss_kib(pids):
    """Resident memory of the processes and their children, KiB."""
    total = 0
    for pid in pids:
        for candidate in [pid] + children(pid):
            try:
                with open(f"/proc/{candidate}/status") as status:
                    total += int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))
            except (OSError, AttributeError):
                pass
    return total


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


class PeakRSS:
    def __init__(self, pids):
        self.pids, self.peak, self.running = pids, 0, True
        self.thread = threading.Thread(target=self.poll, daemon=True)
        self.thread.start()

    def poll(self):
        while self.running:
            self.peak = max(self.peak, rss_kib(self.pids))
            time.sleep(0.1)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak / 1024


def wrk(url, connections, duration, script):
    threads = min(connections, 2)
    out = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--timeout", "30s", "-s", script, url],
        check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["rps"] = result["requests"] / result["seconds"]
    # Answered with faces: 503s are cheap and would inflate the rate.
    result["ok_rps"] = result["statuses"].get("200", 0) / result["seconds"]
    return result


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run_load(name, url, pids, duration, script, metrics_port=None):
    rows = []
    for connections in CONNECTIONS:
        monitor = PeakRSS(pids)
        before = metrics(metrics_port) if metrics_port else None
        result = wrk(url, connections, duration, script)
        result["rss_mib"] = monitor.stop()
        result["connections"] = connections
        result["load"] = load_average()
        served = ""
        if metrics_port:
            # The 200s alone, as the server timed them (bucket bound): wrk's p99 mixes in the 503s.
            accepted = difference(histogram(metrics(metrics_port), 200), histogram(before, 200))
            result["p99_200_server"] = quantile(accepted, 0.99) * 1e3
            served = f"  p99 of 200s (server) ≤ {result['p99_200_server']:.1f} ms"
        rows.append(result)
        print(f"{name:9} c={connections:<3} {result['ok_rps']:8.1f} 200s/s ({result['rps']:.1f} answers/s)  p50 {result['p50']:8.2f} ms  p99 {result['p99']:8.2f} ms{served}  "
              f"statuses {result['statuses']}  socket errors {result['errors']}  peak RSS {result['rss_mib']:.0f} MiB  load {result['load']}", flush=True)
    return rows


def histogram(metrics_text, status):
    """Cumulative bucket counts of /v1/faces durations answered with `status`: [(le seconds, count)]."""
    pattern = re.compile(r'visage_http_request_duration_seconds_bucket\{([^}]*)\} (\S+)')
    buckets = []
    for labels, value in pattern.findall(metrics_text):
        fields = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if fields.get("route") == "/v1/faces" and fields.get("status") == str(status):
            buckets.append((float("inf") if fields["le"] == "+Inf" else float(fields["le"]), float(value)))
    return sorted(buckets)


def difference(after, before):
    previous = dict(before)
    return [(le, count - previous.get(le, 0)) for le, count in after]


def quantile(buckets, q):
    """The upper bound of the bucket holding quantile `q` (bucket resolution)."""
    total = buckets[-1][1] if buckets else 0
    for le, count in buckets:
        if total and count >= q * total:
            return le
    return float("nan")


def metrics(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as response:
        return response.read().decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--skip-mediapipe", action="store_true")
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--queue", type=int, help="visage serve --queue (default: the service's own, the core count)")
    parser.add_argument("--connections", default=",".join(map(str, CONNECTIONS)),
                        help="wrk connection counts, comma-separated (default %(default)s)")
    parser.add_argument("--binary", help="a visage built before (say, a copy of an earlier commit's, to compare two in one window); "
                        "default: build the release product")
    args = parser.parse_args()
    CONNECTIONS[:] = [int(c) for c in args.connections.split(",")]
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk: apt-get install wrk")

    binary = args.binary
    if binary is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "visage", "--scratch-path", args.scratch_path],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(args.scratch_path, "release", "visage")
    cores = os.cpu_count()
    work = tempfile.mkdtemp(prefix="visage-benchmark-serve-")
    script = os.path.join(work, "post.lua")
    with open(script, "w") as f:
        f.write(WRK_SCRIPT % PHOTO)
    print(f"machine: {cores} cores, load average {load_average()} (shared with other work while this runs: compare only the ratios of one run); "
          f"image {os.path.basename(PHOTO)} 640×480 JPEG, {os.path.getsize(PHOTO)} bytes; {args.duration} s per run", flush=True)

    port = 18280
    # The service's defaults (ServiceConfiguration): an inference per core, a queue place per core.
    queue = cores if args.queue is None else args.queue
    command = [binary, "serve", "--port", str(port)] + ([] if args.queue is None else ["--queue", str(args.queue)])
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}/readyz")
        idle = rss_kib([server.pid]) / 1024
        print(f"visage serve: {cores} inferences, queue {queue}; RSS when ready {idle:.0f} MiB", flush=True)
        visage = run_load("visage", f"http://127.0.0.1:{port}/v1/faces", [server.pid], args.duration, script, metrics_port=port)

        # Overload: 4 × (inferences + queue places) connections.
        capacity = cores + queue
        before = metrics(port)
        monitor = PeakRSS([server.pid])
        overload = wrk(f"http://127.0.0.1:{port}/v1/faces", 4 * capacity, args.duration, script)
        peak = monitor.stop()
        after = metrics(port)
        accepted = difference(histogram(after, 200), histogram(before, 200))
        refused = difference(histogram(after, 503), histogram(before, 503))
        # Unloaded: one connection; without a c=1 run (--connections), the fewest connections run.
        unloaded = min(visage, key=lambda row: row["connections"])
        unloaded_p99 = unloaded["p99"]
        accepted_p99 = quantile(accepted, 0.99) * 1e3
        fast_refusals = dict(refused).get(0.005, 0)
        total_refused = refused[-1][1] if refused else 0
        others = {s: n for s, n in overload["statuses"].items() if s not in ("200", "503")}
        print(f"overload  c={4 * capacity:<3} {overload['rps']:8.1f} req/s  load {load_average()}  statuses {overload['statuses']}  socket errors {overload['errors']}  "
              f"peak RSS {peak:.0f} MiB", flush=True)
        print(f"  accepted p99 (server histogram, bucket bound) ≤ {accepted_p99:.0f} ms against unloaded p99 {unloaded_p99:.1f} ms "
              f"(client, {unloaded['connections']} connection{'s' if unloaded['connections'] > 1 else ''}): {'within' if accepted_p99 <= 2 * unloaded_p99 else 'NOT within'} 2×", flush=True)
        print(f"  503s answered within 5 ms: {fast_refusals:.0f} of {total_refused:.0f}; other statuses: {others or 'none'}", flush=True)
        # A refusal closes its connection without reading the body (Connection: close); wrk reconnects
        # without an error. A reset before the 503 was read would show here as a read or write error.
        clean = not others and overload["errors"] == 0
        print(f"  nothing but 200 and 503, no socket errors: {'yes' if clean else 'NO'} (connect {overload['connect']}, "
              f"read {overload['read']}, write {overload['write']}, timeout {overload['timeout']})", flush=True)
    finally:
        server.send_signal(signal.SIGTERM)
        print(f"visage serve exited with {server.wait(timeout=60)} after SIGTERM", flush=True)

    if args.skip_mediapipe:
        return
    app = os.path.join(work, "mediapipe_service.py")
    with open(app, "w") as f:
        f.write(MEDIAPIPE_APP % SHORT)
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    mp_port = 18281
    reference = subprocess.Popen([gunicorn, "-w", str(cores), "-b", f"127.0.0.1:{mp_port}", "--chdir", work, "mediapipe_service:app"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{mp_port}/readyz")
        mediapipe = run_load("mediapipe", f"http://127.0.0.1:{mp_port}/v1/faces", [reference.pid], args.duration, script)
    finally:
        reference.send_signal(signal.SIGTERM)
        reference.wait(timeout=60)

    print("\nconnections  visage 200s/s  MediaPipe 200s/s  ratio  visage p99 ms  (of 200s, server)  MediaPipe p99 ms  "
          "(client p99s are over all answers, 503s included)")
    for v, m in zip(visage, mediapipe):
        ratio = v['ok_rps'] / m['ok_rps'] if m['ok_rps'] else float('nan')
        print(f"{v['connections']:11}  {v['ok_rps']:13.1f}  {m['ok_rps']:16.1f}  {ratio:5.2f}  {v['p99']:13.2f}  {v['p99_200_server']:16.1f}  {m['p99']:16.2f}")
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
