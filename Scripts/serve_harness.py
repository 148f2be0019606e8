"""Shared by Scripts/service-faults.py and Scripts/soak-serve.py: a `visage serve` process on loopback, its
memory, CPU time and metrics, raw HTTP and WebSocket clients, and wrk runs. Python standard library only
(plus Debian's wrk). Every wait here has a time limit."""
import base64
import http.client
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# 640×480 JPEG with one face, as Scripts/benchmark-serve.py posts.
PHOTO = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "landmarks", "astronaut.jpg")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Server:
    """`visage serve` on 127.0.0.1 with `arguments`, its log in a temporary file."""

    def __init__(self, binary, arguments=(), ready_seconds=180):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="visage-serve-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), *arguments],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.pid = self.process.pid
        end = time.monotonic() + ready_seconds
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise SystemExit(f"visage serve exited with {self.process.returncode} before it was ready; log {self.log.name}")
            try:
                if request(self.port, "GET", "/readyz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.process.kill()
        raise SystemExit(f"visage serve was not ready within {ready_seconds} s; log {self.log.name}")

    def rss_mib(self):
        try:
            with open(f"/proc/{self.pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024
        except (OSError, AttributeError):
            return 0.0

    def cpu_seconds(self):
        """User + system CPU time of the whole process so far."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def metrics(self):
        """/metrics as {'name{labels}': value}."""
        status, body, _ = request(self.port, "GET", "/metrics", timeout=10)
        values = {}
        for line in body.decode().splitlines():
            if line and not line.startswith("#"):
                key, _, value = line.rpartition(" ")
                values[key] = float(value)
        return values

    def metric(self, name, **labels):
        """Sum of the series of `name` whose labels include `labels`."""
        total = 0.0
        for key, value in self.metrics().items():
            base, _, rest = key.partition("{")
            if base != name:
                continue
            found = dict(re.findall(r'(\w+)="([^"]*)"', rest))
            if all(found.get(k) == v for k, v in labels.items()):
                total += value
        return total

    def alive(self):
        return self.process.poll() is None

    def stop(self, timeout=60):
        """SIGTERM, then the exit status (SIGKILL and None after `timeout`)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
            return None


class Sampler:
    """The server's RSS every `interval` seconds, with times, on a thread of its own."""

    def __init__(self, server, interval=0.25):
        self.server, self.interval = server, interval
        self.samples = []   # (seconds since start, MiB)
        self.running = True
        self.start = time.monotonic()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self):
        while self.running:
            self.samples.append((time.monotonic() - self.start, self.server.rss_mib()))
            time.sleep(self.interval)

    def stop(self):
        self.running = False
        self.thread.join(timeout=5)
        return self

    @property
    def peak(self):
        return max((mib for _, mib in self.samples), default=0.0)


def request(port, method, path, body=None, headers=None, timeout=30):
    """One request on a new connection: (status, body bytes, seconds)."""
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, time.monotonic() - start
    finally:
        connection.close()


def post_image(port, data, path="/v1/faces", content_type="image/jpeg", timeout=30):
    return request(port, "POST", path, body=data, headers={"Content-Type": content_type}, timeout=timeout)


def error_code(body):
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def read_response_head(sock, timeout):
    """Reads until the end of a response's head (or EOF, reset, timeout): (status or None, bytes read)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionError):
        pass
    match = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return (int(match.group(1)) if match else None), data


# wrk: a POST of one file, statuses counted per thread and merged; `delay()` spaces each connection's
# requests so that the offered rate is set by the script, not by how fast answers come back.
WRK_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"
local f = io.open("%(photo)s", "rb"); wrk.body = f:read("*a"); f:close()
local delay_ms = %(delay_ms)f
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function delay() if delay_ms > 0 then return math.floor(delay_ms * (0.5 + math.random())) end return 0 end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local merged = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do merged[tostring(status)] = (merged[tostring(status)] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(merged) do table.insert(parts, string.format('"%%s": %%d', status, n)) end
  io.write(string.format('RESULT {"requests": %%d, "seconds": %%f, "p50": %%f, "p99": %%f, "max": %%f, "connect": %%d, "read": %%d, "write": %%d, "timeout": %%d, "statuses": {%%s}}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, table.concat(parts, ", ")))
end
"""


def wrk(port, connections, seconds, delay_ms=0.0, path="/v1/faces", photo=PHOTO, timeout_s=30):
    """wrk POSTing `photo` for `seconds` over `connections`, each waiting about `delay_ms` between requests."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT % {"photo": photo, "delay_ms": delay_ms})
        script = f.name
    try:
        out = subprocess.run(
            ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", f"{seconds}s", "--timeout", f"{timeout_s}s",
             "-s", script, f"http://127.0.0.1:{port}{path}"],
            check=True, capture_output=True, text=True, timeout=seconds + timeout_s + 30).stdout
    finally:
        os.unlink(script)
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["socket_errors"] = result["connect"] + result["read"] + result["write"] + result["timeout"]
    result["rps"] = result["requests"] / result["seconds"]
    result["ok_rps"] = result["statuses"].get("200", 0) / result["seconds"]
    return result


class WebSocket:
    """A minimal RFC 6455 client over a plain socket: enough to flood /v1/track and read its answers."""

    def __init__(self, port, path="/v1/track", timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.status, head = read_response_head(self.sock, timeout)
        self.buffer = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""
        self.closed = False

    def send(self, payload, opcode):
        self.sock.sendall(masked_frame(payload, opcode))

    def send_binary(self, data):
        self.send(data, 0x2)

    def send_text(self, text):
        self.send(text.encode(), 0x1)

    def close(self):
        try:
            self.send(struct.pack(">H", 1000), 0x8)
        except OSError:
            pass

    def receive(self, timeout):
        """The next message: ('text', str), ('close', code) or None on timeout/EOF."""
        self.sock.settimeout(timeout)
        try:
            while True:
                frame = self._parse()
                if frame:
                    return frame
                chunk = self.sock.recv(65536)
                if not chunk:
                    self.closed = True
                    return None
                self.buffer += chunk
        except (socket.timeout, ConnectionError):
            return None

    def _parse(self):
        b = self.buffer
        if len(b) < 2:
            return None
        opcode, n, offset = b[0] & 0x0F, b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            n, offset = struct.unpack(">H", b[2:4])[0], 4
        elif n == 127:
            if len(b) < 10:
                return None
            n, offset = struct.unpack(">Q", b[2:10])[0], 10
        if len(b) < offset + n:
            return None
        payload, self.buffer = b[offset:offset + n], b[offset + n:]
        if opcode == 0x1:
            return ("text", payload.decode(errors="replace"))
        if opcode == 0x8:
            self.closed = True
            return ("close", struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005)
        if opcode == 0x9:   # ping: answer, read on
            self.send(payload, 0xA)
        return self._parse() if self.buffer else ("other", opcode)


def _mask(payload, mask):
    """XOR with the 4-byte mask, fast for large payloads."""
    n = len(payload)
    key = int.from_bytes(mask * ((n + 3) // 4), "big") >> (8 * ((4 - n % 4) % 4))
    return (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")


# A client in a process of its own, so that the fault's own threads (and their share of the GIL) do not
# slow the measurement: requests one after another on fresh connections for `seconds`.
_PROBE = r'''
import http.client, json, sys, time
port, path, seconds, pause, body_file = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
body = open(body_file, "rb").read() if body_file != "-" else None
out, end = [], time.monotonic() + seconds
while time.monotonic() < end:
    start = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        if body is None:
            c.request("GET", path)
        else:
            c.request("POST", path, body=body, headers={"Content-Type": "image/jpeg"})
        r = c.getresponse(); r.read(); status = r.status; c.close()
    except OSError:
        status = None
    out.append([time.monotonic() - start, status])
    time.sleep(pause)
print(json.dumps(out))
'''


class Probe:
    """GET `path` (or POST the file `body_path`) one request after another for `seconds`, in a subprocess."""

    def __init__(self, port, path, seconds, pause=0.05, body_path=None):
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PROBE, str(port), path, str(seconds), str(pause), body_path or "-"],
            stdout=subprocess.PIPE, text=True)
        self.seconds = seconds
        self.results = None

    def wait(self):
        out, _ = self.process.communicate(timeout=self.seconds + 60)
        self.results = json.loads(out)
        return self

    def latencies(self, status=200):
        return [s for s, st in self.results if st == status]

    def statuses(self):
        counts = {}
        for _, status in self.results:
            counts[str(status)] = counts.get(str(status), 0) + 1
        return counts


def masked_frame(payload, opcode=0x2):
    """One masked client frame, built once (the server does not check that masks vary)."""
    mask = os.urandom(4)
    n = len(payload)
    header = bytes([0x80 | opcode])
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return header + mask + _mask(payload, mask)
