#!/usr/bin/env python3
"""Where one request's time goes in a running `visage serve`: the pipeline stages it reports in `timings`
(decode, detect, ...) against the time the client waits, one request at a time on one keep-alive
connection. The difference is the service's own cost per request: HTTP parsing, gathering the body,
admission, hand-off to the inference thread and back, JSON encoding and writing the answer.

    swift build -c release --product visage
    .build/release/visage serve --port 18290 &
    python3 Scripts/profile-serve-request.py --port 18290 [--requests 300] [--image PATH]

Medians are printed (the machine may be shared: say the load average beside any figure).
"""
import argparse
import http.client
import json
import os
import statistics
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTO = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks", "astronaut.jpg")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--image", default=PHOTO)
    args = parser.parse_args()
    body = open(args.image, "rb").read()
    connection = http.client.HTTPConnection("127.0.0.1", args.port)
    client, stages, totals = [], {}, []
    for index in range(args.requests + 20):
        start = time.perf_counter()
        connection.request("POST", "/v1/faces", body=body, headers={"Content-Type": "image/jpeg"})
        response = connection.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - start) * 1e3
        if response.status != 200:
            raise SystemExit(f"status {response.status}: {data[:200]!r}")
        if index < 20:  # warm-up
            continue
        record = json.loads(data)
        client.append(elapsed)
        total = 0.0
        for timing in record.get("timings", []):
            stages.setdefault(timing["stage"], []).append(timing["milliseconds"])
            total += timing["milliseconds"]
        totals.append(total)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"{args.requests} requests, one keep-alive connection, {len(body)} bytes each; load average {load}")
    for name, values in stages.items():
        print(f"  stage {name:14} median {statistics.median(values):7.3f} ms")
    overhead = [c - t for c, t in zip(client, totals)]
    print(f"  stages together    median {statistics.median(totals):7.3f} ms")
    print(f"  client waited      median {statistics.median(client):7.3f} ms  (p90 {sorted(client)[int(0.9 * len(client))]:.3f} ms)")
    print(f"  service overhead   median {statistics.median(overhead):7.3f} ms  (client time minus the stages)")


if __name__ == "__main__":
    main()
