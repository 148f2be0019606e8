#!/usr/bin/env python3
"""`visage serve` under load, beside MediaPipe's FaceDetector behind a minimal Python HTTP service, same
machine, same run.

Both services answer POST /v1/faces with a 640×480 JPEG as the raw body (fast mode: the short-range
detector). wrk (Debian) drives each at 1, 2, 8 and 64 connections for a fixed time; the script reports
requests/s, p50 and p99 latency, the statuses seen and each server's peak RSS, and the throughput ratio
visage / MediaPipe. Then it overloads visage as issue 12 states it, against the unloaded p99 of the same
run, taken twice: one connection, and at capacity without overload (inferences + queue places
connections, closed loop: every place used, nothing refused), whose 200s/s are R.

- open loop: 128 clients (wrk + a Lua delay()) each sending on a Poisson schedule, 4 × R in all; a 503
  is not resent, so the offered rate is the pacing's, not the server's;
- Retry-After: the same clients, but each 503's Retry-After is waited out first, as a real client does;
- closed-loop storm: wrk at 4 × (inferences + queue) connections resending each answer's request at once,
  503s included (about 12 × R offered), for comparison with earlier figures.

For each: answers/s and 200s/s, the accepted requests' p99 from the server and from the client (and its
ratio to the unloaded p99s), the 503s within 5 ms, peak RSS, and every status seen. The server's figures
are each answer's own `Server-Timing` header, which the Lua scripts keep per answer (total from the
request head's arrival to the answer, to the microsecond; the duration histogram's millisecond buckets are
printed beside as a check), split into the wait for an inference slot (queue), the pipeline's stages
(inference) and receiving the body. Every run also reports the CPU the server and wrk each used (cores:
CPU seconds per second, from /proc and the children's rusage), since wrk shares the cores it measures,
and the runs with 503s what each cost: the server's CPU beyond that of its 200s at capacity, per 503, and
wrk's per answer. `--connections ''` runs the overload part alone.

The MediaPipe service is Flask under gunicorn with 2 sync workers (one per core here), each holding one
FaceDetector; it decodes with Pillow. Both servers get the same cores; wrk runs on the same machine.

    apt-get install wrk
    python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install mediapipe==0.10.21 flask gunicorn numpy Pillow
    Scripts/.venv/bin/python Scripts/benchmark-serve.py [--duration 10] [--skip-mediapipe] [--overload-factor 4]
"""
import argparse
import atexit
import json
import os
import re
import resource
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
local f = io.open("%(photo)s", "rb"); wrk.body = f:read("*a"); f:close()
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {}; timings = {} end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  %(keep_timing)s
end
function done(summary, latency, requests)
  local merged = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do merged[tostring(status)] = (merged[tostring(status)] or 0) + n end
  end
  %(write_timings)s
  local parts = {}
  for status, n in pairs(merged) do table.insert(parts, string.format('"%%s": %%d', status, n)) end
  local e = summary.errors
  io.write(string.format('RESULT {"requests": %%d, "seconds": %%f, "p50": %%f, "p99": %%f, "errors": %%d, "connect": %%d, "read": %%d, "write": %%d, "timeout": %%d, "statuses": {%%s}}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout, table.concat(parts, ", ")))
end
"""

# Open loop: each connection sends on its own Poisson schedule instead of when its last answer came, so
# the offered rate is the pacing's, not the server's (a 503 is not resent at once). `delay()` is asked
# just before each send; `rate` and `connections` are this thread's share. With `honour`, a 503's
# Retry-After is waited out before that client's next request, as a real client does (wrk tells
# delay() not which connection it is for, so the wait goes to the next connection to send: the same
# number of clients wait, each for Retry-After). Without it, the mean gap is corrected towards the target
# rate from the thread's own count (LuaJIT's ffi reads the monotonic clock), so slow answers do not lower
# the offered rate. Statuses are counted per thread and merged, with the latency quantiles done() needs.
PACED_SCRIPT = """
local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } visage_timespec; int clock_gettime(int, visage_timespec *); ]]
local clock = ffi.new("visage_timespec")
local function now() ffi.C.clock_gettime(1, clock); return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) * 1e-9 end
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"
local f = io.open("%(photo)s", "rb"); wrk.body = f:read("*a"); f:close()
local threads = {}
local seed = 1
function setup(thread) thread:set("seed", seed); seed = seed + 1; table.insert(threads, thread) end
function init(args)
  statuses = {}; timings = {}; sent = 0; backoffs = 0; waits = {}; start = nil
  rate = %(rate)f; connections = %(connections)d; honour = %(honour)s
  math.randomseed(seed * 7919)
end
function request()
  if start == nil then start = now() end
  sent = sent + 1
  return wrk.format()
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  %(keep_timing)s
  if honour and status == 503 then
    table.insert(waits, tonumber(headers["Retry-After"] or headers["retry-after"] or "1") or 1)
  end
end
%(delay_start)s
  if #waits > 0 then backoffs = backoffs + 1; return math.floor(table.remove(waits, 1) * 1000) end
  local gap = connections / rate
  if start ~= nil and not honour then
    local behind = rate * (now() - start) / math.max(sent, 1)
    gap = gap / math.min(math.max(behind, 0.5), 4)
  end
  return math.floor(-math.log(1 - math.random()) * gap * 1000 + 0.5)
%(delay_end)s
function done(summary, latency, requests)
  local merged, waited = {}, 0
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do merged[tostring(status)] = (merged[tostring(status)] or 0) + n end
    waited = waited + t:get("backoffs")
  end
  %(write_timings)s
  local parts = {}
  for status, n in pairs(merged) do table.insert(parts, string.format('"%%s": %%d', status, n)) end
  local ok, all = merged["200"] or 0, summary.requests
  local q = {}
  -- Quantiles over all answers at the points where the 200s' p50/p99 (the slowest `ok` answers) and the
  -- 503s' p99 (the fastest) fall, if every 503 is faster than every 200; the server's histogram checks that.
  for _, p in ipairs({50, 99, 99.9}) do
    if all > 0 and ok > 0 then table.insert(q, string.format('"ok%%s": %%f', p, latency:percentile(100 - (100 - p) * ok / all) / 1e3)) end
    if all > ok then table.insert(q, string.format('"refused%%s": %%f', p, latency:percentile(p * (all - ok) / all) / 1e3)) end
  end
  local e = summary.errors
  io.write(string.format('RESULT {"requests": %%d, "seconds": %%f, "p50": %%f, "p99": %%f, "max": %%f, "errors": %%d, "connect": %%d, "read": %%d, "write": %%d, "timeout": %%d, "backoffs": %%d, "statuses": {%%s}, "split": {%%s}}\\n',
    all, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout, waited, table.concat(parts, ", "), table.concat(q, ", ")))
end
"""

# Each answer's Server-Timing header (the service's own durations, to the microsecond: ServerTiming.swift),
# kept per thread with its status and written out by done(), one answer a line, for timing_stats().
KEEP_TIMING = '''local timing = headers["Server-Timing"] or headers["server-timing"]
  if timing then timings[#timings + 1] = status .. " " .. timing end'''
WRITE_TIMINGS = '''local out = io.open("%s", "w")
  for _, t in ipairs(threads) do
    for _, line in ipairs(t:get("timings")) do out:write(line, "\\n") end
  end
  out:close()'''


def lua_fragments(timings_path):
    return {"keep_timing": KEEP_TIMING, "write_timings": WRITE_TIMINGS % timings_path}


def read_timings(path):
    """The answers' Server-Timing entries written by a wrk run: {status: [{name: ms}]}."""
    answers = {}
    try:
        with open(path) as f:
            for line in f:
                status, _, header = line.strip().partition(" ")
                entries = {}
                for part in header.split(","):
                    name, _, params = part.strip().partition(";")
                    duration = re.search(r"dur=([0-9.]+)", params)
                    if duration:
                        entries[name] = float(duration.group(1))
                answers.setdefault(status, []).append(entries)
        os.remove(path)
    except OSError:
        pass
    return answers


def exact_quantile(values, q):
    """The nearest-rank quantile: the smallest value with at least q of them at or under it."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 1)) - 1))]


def timing_stats(answers, status="200"):
    """Quantiles of each Server-Timing entry over the answers with `status` (ms), and `inference`: the
    pipeline's stages summed (every entry but body, queue and total)."""
    rows = answers.get(status, [])
    names = {}
    for entries in rows:
        for name in entries:
            names.setdefault(name, None)
    stats = {"count": len(rows)}
    series = {name: [e[name] for e in rows if name in e] for name in names}
    series["inference"] = [sum(v for k, v in e.items() if k not in ("body", "queue", "total")) for e in rows]
    for name, values in series.items():
        stats[name] = {"p50": exact_quantile(values, 0.5), "p99": exact_quantile(values, 0.99),
                       "max": max(values) if values else float("nan"), "n": len(values)}
    return stats


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


def cpu_seconds(pids):
    """User + system CPU seconds of the processes and their children so far (/proc/PID/stat)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        for candidate in [pid] + children(pid):
            try:
                with open(f"/proc/{candidate}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / ticks
            except (OSError, IndexError, ValueError):
                pass
    return total


def wrk(url, connections, duration, script):
    threads = min(connections, 2)
    # wrk's own CPU (it shares the cores with the server): the children's rusage across the run.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--timeout", "30s", "-s", script, url],
        check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result["client_cpu"] = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / result["seconds"]
    result["rps"] = result["requests"] / result["seconds"]
    result["timings"] = read_timings(script + ".timings")
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
        server_cpu = cpu_seconds(pids)
        result = wrk(url, connections, duration, script)
        result["server_cpu"] = (cpu_seconds(pids) - server_cpu) / result["seconds"]
        result["rss_mib"] = monitor.stop()
        result["connections"] = connections
        result["load"] = load_average()
        served = ""
        if metrics_port:
            # The 200s alone, as the server timed each (Server-Timing total): wrk's p99 mixes in the 503s.
            # The histogram's bucket bound beside it, as a check of the header against the metric.
            accepted = difference(histogram(metrics(metrics_port), 200), histogram(before, 200))
            result["p99_200_server"] = timing_stats(result["timings"])["total"]["p99"] if "200" in result["timings"] else float("nan")
            served = f"  p99 of 200s (server) {result['p99_200_server']:.2f} ms (histogram ≤ {quantile(accepted, 0.99) * 1e3:.0f})"
        rows.append(result)
        print(f"{name:9} c={connections:<3} {result['ok_rps']:8.1f} 200s/s ({result['rps']:.1f} answers/s)  p50 {result['p50']:8.2f} ms  p99 {result['p99']:8.2f} ms{served}  "
              f"statuses {result['statuses']}  socket errors {result['errors']}  peak RSS {result['rss_mib']:.0f} MiB  "
              f"CPU: server {result['server_cpu']:.2f}, wrk {result['client_cpu']:.2f} cores  load {result['load']}", flush=True)
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


def bucket_share(buckets, bound):
    """The share of a histogram's count at or under `bound` seconds (a bucket bound)."""
    total = buckets[-1][1] if buckets else 0
    return dict(buckets).get(bound, 0) / total if total else float("nan")


def measured(port, pids, run):
    """Runs `run()` (a wrk result) and adds the server's view: the /v1/faces duration histograms of its
    200s and 503s over the run, and the peak RSS."""
    before = metrics(port)
    monitor = PeakRSS(pids)
    server_cpu = cpu_seconds(pids)
    result = run()
    result["server_cpu"] = (cpu_seconds(pids) - server_cpu) / result["seconds"]
    result["rss_mib"] = monitor.stop()
    after = metrics(port)
    result["load"] = load_average()
    result["accepted"] = difference(histogram(after, 200), histogram(before, 200))
    result["refused"] = difference(histogram(after, 503), histogram(before, 503))
    return result


def overload(port, pids, script, work, sweep, places, args):
    """The issue's overload: 4 × R offered, R the 200s/s at capacity; the accepted requests' p99 against
    the unloaded p99 of the same run, the refusals' latency, RSS and statuses. Three kinds of client:
    open loop (Poisson, 503s not resent), clients that wait out Retry-After, and wrk's closed-loop storm."""
    url = f"http://127.0.0.1:{port}/v1/faces"
    # Unloaded, twice: one connection (nothing waits), and at capacity without overload: inferences +
    # queue places connections, closed loop, so every place is used and nothing is ever refused.
    quiet = measured(port, pids, lambda: wrk(url, 1, args.duration, script))
    full = measured(port, pids, lambda: wrk(url, places, args.duration, script))
    rate = args.overload_factor * full["ok_rps"]
    # The unloaded p99s the overload runs are held against: the server's (each 200's Server-Timing total,
    # exact) and the client's (wrk's, over 200s only here: nothing is refused at one connection or at capacity).
    base = {name: timing_stats(r["timings"])["total"]["p99"] for name, r in [("quiet", quiet), ("full", full)]}
    for label, c, r, key in [("unloaded", 1, quiet, "quiet"), ("capacity", places, full, "full")]:
        stats = timing_stats(r["timings"])
        print(("\n" if key == "quiet" else "") +
              f"{label:9} c={c:<3} {r['ok_rps']:8.1f} 200s/s{' = R' if key == 'full' else ''}  p99 {r['p99']:.2f} ms (client), {base[key]:.2f} ms (server; "
              f"histogram ≤ {quantile(r['accepted'], 0.99) * 1e3:.0f} ms), p50 {stats['total']['p50']:.2f} ms (server); "
              f"server p99s of queue {stats.get('queue', {}).get('p99', 0):.2f}, inference {stats['inference']['p99']:.2f}, body {stats.get('body', {}).get('p99', 0):.2f} ms  "
              f"statuses {r['statuses']}  CPU: server {r['server_cpu']:.2f}, wrk {r['client_cpu']:.2f} cores  peak RSS {r['rss_mib']:.0f} MiB  load {r['load']}", flush=True)
    # A 200's server CPU at capacity, to tell what the 503s of a run cost beside its 200s.
    cpu_per_ok = full["server_cpu"] * full["seconds"] / max(1, full["statuses"].get("200", 0))
    threads = 2
    connections = args.overload_connections
    runs = []
    for label, honour in [("open loop", False), ("Retry-After", True)]:
        paced = os.path.join(work, f"paced-{honour}.lua")
        with open(paced, "w") as f:
            f.write(PACED_SCRIPT % {"photo": PHOTO, "rate": rate / threads, "connections": connections // threads,
                                    "honour": "true" if honour else "false", "delay_start": "function delay()", "delay_end": "end",
                                    **lua_fragments(paced + ".timings")})
        runs.append((label, connections, measured(port, pids, lambda: wrk(url, connections, args.duration, paced))))
    storm = 4 * places
    closed = os.path.join(work, "storm.lua")
    with open(closed, "w") as f:
        # No delay(): each answer's connection sends again at once, a 503's too.
        f.write(PACED_SCRIPT % {"photo": PHOTO, "rate": 1.0, "connections": 1, "honour": "false", "delay_start": "local function unused()", "delay_end": "end",
                                **lua_fragments(closed + ".timings")})
    runs.append(("closed-loop storm", storm, measured(port, pids, lambda: wrk(url, storm, args.duration, closed))))
    print(f"overload: {args.overload_factor:g} × R = {rate:.0f} requests/s offered by {connections} Poisson clients "
          f"(open loop, then waiting out Retry-After), and wrk's closed loop at 4 × {places} places = {storm} connections, "
          f"resending each 503 at once", flush=True)
    for label, c, r in runs:
        split = r.get("split", {})
        others = {s: n for s, n in r["statuses"].items() if s not in ("200", "503")}
        stats = timing_stats(r["timings"])
        refused = r["timings"].get("503", [])
        accepted = stats["total"]["p99"]
        refused_totals = [e["total"] for e in refused if "total" in e]
        within = sum(1 for t in refused_totals if t <= 5.0) / len(refused_totals) if refused_totals else float("nan")
        # The 503s refused after their body was read (a place was free at the head, taken by the time the body
        # was in): their Server-Timing has `body`, and their time includes receiving it.
        late = [e["total"] for e in refused if "body" in e and "total" in e]
        late_note = (f" ({len(late)} after their body: {sum(1 for t in late if t > 5.0)} over 5 ms, p99 {exact_quantile(late, 0.99):.2f} ms; "
                     f"{sum(1 for e in refused if 'body' not in e and e.get('total', 0) > 5.0)} of the others over 5 ms)") if late else ""
        client = f"client ≈ {split['ok99']:.2f} ms ({split['ok99'] / quiet['p99']:.2f}× the unloaded client p99)" if "ok99" in split else "client n/a"
        refusal_client = f", client p99 ≈ {split['refused99']:.2f} ms" if "refused99" in split else ""
        ok, no = r["statuses"].get("200", 0), r["statuses"].get("503", 0)
        server_seconds, client_seconds = r["server_cpu"] * r["seconds"], r["client_cpu"] * r["seconds"]
        per_refusal = (f"; CPU per 503 ≈ {(server_seconds - ok * cpu_per_ok) / no * 1e6:.0f} µs server (beyond the 200s at capacity's "
                       f"{cpu_per_ok * 1e3:.2f} ms each), {client_seconds / max(1, ok + no) * 1e6:.0f} µs wrk per answer") if no >= 10 * ok else ""
        # (only where 503s outnumber 200s tenfold: with fewer, a 200's own cost moving a few % swamps theirs)
        print(f"  {label:17} c={c:<3} {r['rps']:7.0f} answers/s, {r['ok_rps']:6.0f} 200s/s  accepted p99: server {accepted:.2f} ms "
              f"= {accepted / base['quiet']:.2f}× the unloaded {base['quiet']:.2f} ms ({'within' if accepted <= 2 * base['quiet'] else 'OVER'} 2×; "
              f"{accepted / base['full']:.2f}× capacity's), {client}; server p99s of queue {stats.get('queue', {}).get('p99', 0):.2f}, "
              f"inference {stats['inference']['p99']:.2f}, body {stats.get('body', {}).get('p99', 0):.2f} ms, p50 total {stats['total']['p50']:.2f} ms"
              f"  503s: {no}, {within * 100:.2f} % within 5 ms (server), server p99 {exact_quantile(refused_totals, 0.99):.3f} ms, "
              f"max {max(refused_totals, default=float('nan')):.2f} ms{late_note}{refusal_client}"
              + (f", {r['backoffs']} waits of Retry-After" if r.get("backoffs") else "")
              + f"  other statuses {others or 'none'}  socket errors {r['errors']}  CPU: server {r['server_cpu']:.2f}, wrk {r['client_cpu']:.2f} cores{per_refusal}"
              + f"  peak RSS {r['rss_mib']:.0f} MiB "
              f"({'under' if r['rss_mib'] <= args.rss_bound else 'OVER'} the {args.rss_bound} MiB bound)  load {r['load']}", flush=True)
    print("  (server figures are each answer's Server-Timing header, exact to the microsecond: total from the head's arrival on the "
          "event loop to the answer ready to write; queue is the wait for an inference slot, inference the pipeline's stages; the "
          "client's accepted p99 takes the slowest answers as the 200s, true when every 503 is answered faster than every 200)", flush=True)
    return {"unloaded": quiet, "capacity": full, "base": base, "cpu_per_ok": cpu_per_ok, **{label: r for label, _, r in runs}}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--skip-mediapipe", action="store_true")
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--queue", type=int, help="visage serve --queue (default: the service's own, half the core count)")
    parser.add_argument("--queue-timeout", help="visage serve --queue-timeout: ms, auto or none (default: the service's own, none)")
    parser.add_argument("--overload-window", help="visage serve --overload-window: ms or none (default: the service's own, none)")
    parser.add_argument("--refusal-pause", help="visage serve --refusal-pause: ms or none (default: the service's own, 3)")
    parser.add_argument("--connections", default=",".join(map(str, CONNECTIONS)),
                        help="wrk connection counts, comma-separated (default %(default)s; empty: only the overload runs)")
    parser.add_argument("--overload-factor", type=float, default=4.0, help="offered rate in the overload runs, × R (default %(default)s)")
    parser.add_argument("--overload-connections", type=int, default=128,
                        help="Poisson clients offering it (default %(default)s: enough that pacing, not answers, sets the rate)")
    parser.add_argument("--rss-bound", type=int, default=160,
                        help="MiB the overload runs' peak RSS must stay under (default %(default)s: about 1.5 × the 104 MiB measured)")
    parser.add_argument("--binary", help="a visage built before (say, a copy of an earlier commit's, to compare two in one window); "
                        "default: build the release product")
    args = parser.parse_args()
    CONNECTIONS[:] = [int(c) for c in args.connections.split(",") if c.strip()]
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk: apt-get install wrk")

    binary = args.binary
    if binary is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "visage", "--scratch-path", args.scratch_path],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(args.scratch_path, "release", "visage")
    cores = os.cpu_count()
    work = tempfile.mkdtemp(prefix="visage-benchmark-serve-")
    atexit.register(shutil.rmtree, work, True)  # the wrk script and the reference's app
    script = os.path.join(work, "post.lua")
    with open(script, "w") as f:
        f.write(WRK_SCRIPT % dict(photo=PHOTO, **lua_fragments(script + ".timings")))
    print(f"machine: {cores} cores, load average {load_average()} (shared with other work while this runs: compare only the ratios of one run); "
          f"image {os.path.basename(PHOTO)} 640×480 JPEG, {os.path.getsize(PHOTO)} bytes; {args.duration} s per run", flush=True)

    port = 18280
    # The service's defaults (ServiceConfiguration): an inference per core, a queue place per two cores.
    queue = max(1, (cores + 1) // 2) if args.queue is None else args.queue
    command = [binary, "serve", "--port", str(port)] + ([] if args.queue is None else ["--queue", str(args.queue)])
    command += [] if args.queue_timeout is None else ["--queue-timeout", args.queue_timeout]
    command += [] if args.overload_window is None else ["--overload-window", args.overload_window]
    command += [] if args.refusal_pause is None else ["--refusal-pause", args.refusal_pause]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(f"http://127.0.0.1:{port}/readyz")
        idle = rss_kib([server.pid]) / 1024
        timeout = (f", queue timeout {args.queue_timeout or 'none'}, overload window {args.overload_window or 'none'}, "
                   f"refusal pause {args.refusal_pause or 3} ms")
        print(f"visage serve: {cores} inferences, queue {queue}{timeout}; RSS when ready {idle:.0f} MiB", flush=True)
        visage = run_load("visage", f"http://127.0.0.1:{port}/v1/faces", [server.pid], args.duration, script, metrics_port=port)

        overload(port, [server.pid], script, work, visage, cores + queue, args)
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
