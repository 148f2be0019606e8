#!/usr/bin/env python3
"""The web page in a real browser: Debian's chromium driven by selenium, against `visage serve` on loopback.

    python3 Scripts/test-page.py [--binary .build/debug/visage] [--screenshots DIR]

Needs chromium, chromium-driver (Debian) and selenium (PyPI); `.ci/run` installs them when missing.
Starts the service on a free loopback port, then checks each view as a user would use it:
- Photo: uploads Samples/astronaut.png, waits for the overlay, and compares the face count, one
  blendshape bar and the JSON view with the API's own answer for the same file.
- Contour art: picks a sample, moves a slider, and sees the SVG's path count change.
- Live camera: Chromium's fake camera plays a y4m clip (a face, then an empty frame, looping); the event
  log shows faceDetected, then noFaceDetected, and the player's paused state follows.
- Narrow screens: at 360 px the page does not scroll sideways.
Screenshots go to --screenshots. Every wait is bounded; the server is stopped at the end.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_clip(path, face_seconds=4, empty_seconds=4, fps=10):
    """A YUV4MPEG2 clip: the astronaut's face, then a plain gray frame; Chromium loops it."""
    import numpy as np
    from PIL import Image

    width, height = 320, 240
    face = Image.open(os.path.join(ROOT, "Samples", "astronaut.png")).convert("RGB").resize((320, 320))
    face = np.asarray(face.crop((0, 20, 320, 260)), dtype=np.float32)
    empty = np.full((height, width, 3), 128, dtype=np.float32)

    def yuv420(rgb):
        r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        y = 0.299 * r + 0.587 * g + 0.114 * b
        u = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
        v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
        sub = lambda plane: plane.reshape(height // 2, 2, width // 2, 2).mean(axis=(1, 3))
        return b"".join(np.clip(np.rint(p), 0, 255).astype(np.uint8).tobytes() for p in (y, sub(u), sub(v)))

    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in [yuv420(face)] * (face_seconds * fps) + [yuv420(empty)] * (empty_seconds * fps):
            out.write(b"FRAME\n" + frame)


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the page may still be loading
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def api_faces(base, path):
    with open(path, "rb") as f:
        body = f.read()
    request = urllib.request.Request(
        base + "/v1/faces?features=landmarks,contours,classify,quality,mesh&mode=fast&minFaceSize=0.10&maxFaces=20",
        data=body, headers={"Content-Type": "image/png"}, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def browser(extra_arguments=(), width=1280, height=1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--autoplay-policy=no-user-gesture-required",
                     *extra_arguments]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def check_photo(base, shots):
    from selenium.webdriver.common.by import By

    driver = browser()
    try:
        driver.get(base + "/")
        driver.find_element(By.ID, "photo-file").send_keys(os.path.join(ROOT, "Samples", "astronaut.png"))
        faces = wait_until(lambda: driver.find_element(By.ID, "photo-canvas").get_attribute("data-faces"), 180,
                           "the photo overlay")
        expected = api_faces(base, os.path.join(ROOT, "Samples", "astronaut.png"))
        assert int(faces) == len(expected["faces"]) == 1, f"page shows {faces} faces, the API {len(expected['faces'])}"
        bar = driver.find_element(By.CSS_SELECTOR, '#photo-faces li[data-blendshape="mouthSmileLeft"]')
        shown = float(bar.get_attribute("data-value"))
        assert abs(shown - expected["faces"][0]["blendshapes"]["mouthSmileLeft"]) < 1e-6, "blendshape bar differs"
        page_json = json.loads(driver.find_element(By.ID, "photo-json").get_attribute("textContent"))
        page_json.pop("timings", None)
        expected.pop("timings", None)
        page_json["image"] = expected["image"] = "-"
        assert page_json == expected, "the JSON view differs from the API's answer"
        driver.save_screenshot(os.path.join(shots, "photo.png"))
    finally:
        driver.quit()


def check_contours(base, shots):
    from selenium.webdriver.common.by import By

    driver = browser()
    try:
        driver.get(base + "/#contours")
        driver.find_element(By.CSS_SELECTOR, '#art-samples button[data-sample="samples/coins.jpg"]').click()
        first = wait_until(lambda: driver.find_element(By.ID, "art-svg").get_attribute("data-paths"), 120, "the SVG")
        # Move the epsilon slider to its maximum as a user would drag it: the value, then an input event.
        driver.execute_script(
            "const s = document.getElementById('art-epsilon'); s.value = s.max;"
            "s.dispatchEvent(new Event('input', {bubbles: true}));"
            "const a = document.getElementById('art-pivot-max'); a.value = 0.4;"
            "a.dispatchEvent(new Event('input', {bubbles: true}));")
        changed = wait_until(
            lambda: (lambda n: n if n and n != first else None)(
                driver.find_element(By.ID, "art-svg").get_attribute("data-paths")), 120, "a changed SVG")
        assert int(changed) != int(first)
        driver.save_screenshot(os.path.join(shots, "contours.png"))
    finally:
        driver.quit()


def check_camera(base, shots, clip):
    from selenium.webdriver.common.by import By

    driver = browser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                      f"--use-file-for-fake-video-capture={clip}"])
    try:
        driver.get(base + "/#camera")
        driver.find_element(By.ID, "camera-start").click()
        log = lambda kind: driver.find_elements(By.CSS_SELECTOR, f'#camera-log li[data-event="{kind}"]')
        wait_until(lambda: log("faceDetected"), 180, "faceDetected in the event log")
        assert driver.execute_script("return !document.getElementById('player').paused"), "player not playing on a face"
        driver.save_screenshot(os.path.join(shots, "camera-face.png"))
        wait_until(lambda: log("noFaceDetected"), 180, "noFaceDetected in the event log")
        assert driver.execute_script("return document.getElementById('player').paused"), "player not paused without a face"
        driver.save_screenshot(os.path.join(shots, "camera-empty.png"))
    finally:
        driver.quit()


def check_narrow(base, shots):
    driver = browser(width=360, height=800)
    try:
        driver.get(base + "/")
        wait_until(lambda: driver.execute_script("return document.readyState") == "complete", 30, "the page")
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the page scrolls {overflow} px sideways at 360 px"
        driver.save_screenshot(os.path.join(shots, "narrow.png"))
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=None, help="the visage binary (default: release if built, else debug)")
    parser.add_argument("--screenshots", default=os.path.join(ROOT, ".build", "page-screenshots"))
    arguments = parser.parse_args()
    binary = arguments.binary or next(
        (p for p in (os.path.join(ROOT, ".build", c, "visage") for c in ("release", "debug")) if os.path.exists(p)), None)
    if binary is None:
        sys.exit("no visage binary: run swift build first")
    os.makedirs(arguments.screenshots, exist_ok=True)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    passed = failed = 0
    try:
        wait_until(lambda: urllib.request.urlopen(base + "/readyz", timeout=2).status == 200, 180, "/readyz")
        with tempfile.TemporaryDirectory() as scratch:
            # Chromium makes a folder of its own in the temporary directory for each browser (its
            # singleton socket's) and leaves it there: in the scratch folder, it goes with it.
            os.environ["TMPDIR"] = scratch
            clip = os.path.join(scratch, "face-then-empty.y4m")
            make_clip(clip)
            for name, check in [("photo", lambda: check_photo(base, arguments.screenshots)),
                                ("contour art", lambda: check_contours(base, arguments.screenshots)),
                                ("live camera", lambda: check_camera(base, arguments.screenshots, clip)),
                                ("360 px", lambda: check_narrow(base, arguments.screenshots))]:
                started = time.monotonic()
                try:
                    check()
                    passed += 1
                    print(f"ok   {name} ({time.monotonic() - started:.1f} s)", flush=True)
                except Exception:
                    failed += 1
                    print(f"FAIL {name}", flush=True)
                    traceback.print_exc()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"screenshots in {arguments.screenshots}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
