#!/usr/bin/env python3
"""Soak `visage serve` at 70 % of its measured capacity, on loopback, for a bounded time (issue 18).

Measures the capacity R (200s/s with wrk at inferences + queue connections, 10 s), then offers 0.7 × R from
Python clients on Poisson schedules (open loop), each request on a fresh connection and accounted for.
There are four clients per admission place: with one per place, a client waiting on its answer could not
send its next request on time whenever latency rose above places ÷ rate (5 ms at 800 req/s), and on a
shared CI machine the rate held fell short of the target through the clients alone.
The server's RSS is sampled every 10 s.

Passes when: the server never exits; every request was answered 200 or 503 (none lost to a socket error
or a timeout) and the server's log holds exactly as many answers as the clients received; the rate held
is within 15 % of the target; RSS after warm-up (the first fifth of the run, at least 30 s) stays within
10 % of its value at the end of warm-up; SIGTERM at the end exits 0. Exits 1 otherwise.

    apt-get install wrk
    swift build -c release --product visage      # or Scripts/package.sh, whose build this reuses
    nice -n 10 python3 Scripts/soak-serve.py --minutes 30 [--csv soak.csv]
    python3 Scripts/soak-serve.py --minutes 2      # the CI step
"""
import argparse
import os
import random
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import PHOTO, ROOT, Sampler, Server, load_average, percentile, post_image, wrk


class Load:
    """`rate` requests/s of POST /v1/faces over `threads` clients, each on its own Poisson schedule (open
    loop: a slow answer does not slow the offered rate unless every client is waiting). Every request is
    accounted for: its status, or the exception that lost it."""

    def __init__(self, port, photo, rate, threads):
        self.port, self.photo, self.rate = port, photo, rate
        self.lock = threading.Lock()
        self.statuses, self.errors, self.latencies = {}, [], []
        self.running = True
        self.threads = [threading.Thread(target=self._run, daemon=True) for _ in range(threads)]
        self.each = rate / threads
        for thread in self.threads:
            thread.start()

    def _run(self):
        due = time.monotonic() + random.expovariate(self.each)
        while self.running:
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, 0.5))
                continue
            due += random.expovariate(self.each)
            try:
                status, _, seconds = post_image(self.port, self.photo, timeout=30)
                with self.lock:
                    self.statuses[str(status)] = self.statuses.get(str(status), 0) + 1
                    self.latencies.append(seconds)
            except OSError as error:
                with self.lock:
                    self.errors.append(repr(error))

    def snapshot(self):
        with self.lock:
            return dict(self.statuses), len(self.errors), list(self.latencies)

    def stop(self):
        """Stops sending and waits for every request in flight to finish."""
        self.running = False
        for thread in self.threads:
            thread.join(timeout=60)


# RefusalLog logs the first 503 of a quiet second as an "answered" line and the ones after it as one
# "refused" line per route with their count when the second ends; a count can come up to two windows late.
REFUSAL_FLUSH_SECONDS = 2.5


def logged_answers(log):
    """Answers to /v1/faces the server logged: one per "answered" line, plus each "refused" line's count."""
    answers = 0
    for line in log.splitlines():
        if line.endswith("answered") and "route=/v1/faces" in line:
            answers += 1
        elif line.endswith("refused") and "route=/v1/faces" in line:
            count = re.search(r"\bcount=(\d+)", line)
            answers += int(count.group(1)) if count else 0
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--load", type=float, default=0.7, help="fraction of the measured capacity to hold")
    parser.add_argument("--csv", help="write the RSS samples here (seconds, MiB)")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"no {args.binary}: swift build -c release --product visage")
    if not 0.05 <= args.minutes <= 240:
        raise SystemExit("--minutes must be in 0.05…240")
    cores = os.cpu_count()
    print(f"soak-serve: {cores} cores, load average {load_average()} at the start", flush=True)
    server = Server(args.binary)
    problems = []
    try:
        # The admission limits in force, as the service reports them (defaults: one inference and one queue
        # place per core).
        slots = int(server.metric("visage_inference_slots"))
        queue = int(server.metric("visage_inference_queue_places"))
        places = slots + queue
        ready_rss = server.rss_mib()
        capacity = wrk(server.port, places, 10)
        R = capacity["ok_rps"]
        if R <= 0:
            raise SystemExit(f"no capacity measured: {capacity}")
        target = args.load * R
        print(f"capacity R = {R:.1f} 200s/s (wrk c={places}, 10 s, p50 {capacity['p50']:.0f} ms); holding {target:.1f} req/s "
              f"for {args.minutes:g} min; RSS when ready {ready_rss:.0f} MiB", flush=True)

        # wrk leaves up to one request per connection in flight when it stops: let the server answer them
        # (in flight = the scrape itself) before counting answers.
        # The refusal log (RefusalLog) writes the count of a second's 503s up to two seconds after them.
        for _ in range(100):
            if server.metric("visage_http_requests_in_flight") <= 1:
                break
            time.sleep(0.1)
        time.sleep(REFUSAL_FLUSH_SECONDS)
        with open(server.log.name, "rb") as f:
            log_start = len(f.read())
        sampler = Sampler(server, interval=10)
        total = args.minutes * 60
        with open(PHOTO, "rb") as f:
            photo = f.read()
        start = time.monotonic()
        load = Load(server.port, photo, target, 4 * places)
        report_every = 60 if args.minutes > 5 else 30
        seen = 0
        while time.monotonic() - start < total:
            time.sleep(min(report_every, max(0.1, total - (time.monotonic() - start))))
            statuses, errors, latencies = load.snapshot()
            done = sum(statuses.values())
            recent = latencies[seen:]
            print(f"  {time.monotonic() - start:6.0f} s  {done / (time.monotonic() - start):6.1f} req/s  p99 of the last "
                  f"{len(recent)} {percentile(recent, 99) * 1000:6.0f} ms  statuses {statuses}  lost {errors}  RSS {server.rss_mib():.0f} MiB  "
                  f"load {load_average()}", flush=True)
            seen = len(latencies)
            if not server.alive():
                problems.append(f"the server exited with {server.process.returncode} during the soak")
                break
        load.stop()
        elapsed = time.monotonic() - start
        time.sleep(REFUSAL_FLUSH_SECONDS)
        sampler.stop()
        statuses, errors, latencies = load.snapshot()
        requests = sum(statuses.values()) + errors
        held = requests / elapsed
        with open(server.log.name, "rb") as f:
            log = f.read()[log_start:].decode(errors="replace")
        served = logged_answers(log)
    finally:
        status = server.stop() if server.alive() else server.process.returncode
    others = {s: n for s, n in statuses.items() if s not in ("200", "503")}
    if others or errors:
        problems.append(f"answers other than 200/503 {others or 'none'}, requests lost {errors}: {load.errors[:3]}")
    if served != sum(statuses.values()):
        problems.append(f"the server logged {served} answers, the clients received {sum(statuses.values())}")
    if abs(held - target) > 0.15 * target:
        problems.append(f"held {held:.1f} req/s against a target of {target:.1f}")
    samples = sampler.samples
    warm_until = max(30.0, total / 5)
    after = [mib for t, mib in samples if t >= warm_until]
    warm = next((mib for t, mib in samples if t >= warm_until), None)
    if warm is None or not after:
        problems.append("too few RSS samples after warm-up")
        drift = float("nan")
    else:
        drift = max(abs(mib - warm) for mib in after) / warm
        if drift > 0.10:
            problems.append(f"RSS moved {drift * 100:.1f} % from {warm:.0f} MiB after warm-up")
    if status != 0:
        problems.append(f"exit status {status} after SIGTERM")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("seconds,rss_mib\n")
            for t, mib in samples:
                f.write(f"{t:.1f},{mib:.1f}\n")

    first = samples[0][1] if samples else float("nan")
    last = samples[-1][1] if samples else float("nan")
    print("\n| soak | figure |\n|---|---|")
    print(f"| duration | {elapsed / 60:.1f} min |")
    print(f"| capacity R | {R:.1f} 200s/s ({slots} inferences, queue {queue}) |")
    print(f"| load held | {held:.1f} req/s = {held / R * 100:.0f} % of R (target {args.load * 100:.0f} %), {4 * places} clients on Poisson "
          f"schedules; latency p50 {percentile(latencies, 50) * 1000:.0f} ms, p99 {percentile(latencies, 99) * 1000:.0f} ms |")
    print(f"| answers | {requests} requests: {statuses}; lost {errors}; the server logged {served} answers |")
    print(f"| RSS | ready {ready_rss:.0f} MiB; soak start {first:.0f}, end of warm-up ({warm_until:.0f} s) {warm if warm else float('nan'):.0f}, "
          f"end {last:.0f}, peak {max((m for _, m in samples), default=float('nan')):.0f} MiB; largest move after warm-up {drift * 100:.1f} % "
          f"({len(samples)} samples, every 10 s) |")
    print(f"| exit | status {status} after SIGTERM |")
    print(f"\nload average at the end {load_average()} (shared machine)")
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}", file=sys.stderr)
        print(f"server log {server.log.name}", file=sys.stderr)
        sys.exit(1)
    os.unlink(server.log.name)  # kept only when the soak fails
    print("soak passed")


if __name__ == "__main__":
    main()
