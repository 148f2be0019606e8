#!/usr/bin/env python3
"""What-ifs for attention and per-eye gaze that were measured and not adopted (docs/benchmarks/gaze.md; the README's "Gaze" sums them up): a
measurement, no Swift code follows from it.

Part 1 (Visage's own release build): `visage track --json --debounce 0` on every labelled clip
(Samples/clips/attention.mp4 and the clips of Scripts/real_clips.py), replayed through the cones, the
lids (with AttentionOptions.blinkTolerance) and the 0.5 s duration as FaceEventGenerator does, for
anyone, with presence debounced 0.5 s (this reproduces `visage track`'s own events). For the default
rule and for each extra condition it prints the fraction of labelled frames classed as labelled
(labels of Scripts/measure-attention-frames.py), the attention clip's events against its labelled
changes (within the duration plus 0.3 s) and the other clips' events:
  narrow   the gaze cone narrows as the head turns: gaze ≤ 22° − k·max(0, head − h0)
  agree    the two eyes' pitch in the head agree within X° (eyes move together vertically)
  vor      the line of sight holds while the head moves: over the last W s, when the head's pose moves
           by at least m° (rms), the slope of the gaze's camera-frame yaw/pitch on the head's ≤ s

Part 2 (--mediapipe; pip install mediapipe==0.10.21): MediaPipe FaceLandmarker on the same decoded
frames of the clips compare-gaze-mediapipe.py uses (all but title-man), its eyeLook blendshapes against Visage's per-eye angles with each eye's pitch replaced by the
two eyes' mean, and both angles so (sign agreement where |coefficient| ≥ 0.15, as
compare-gaze-mediapipe.py); then session 10's gaze method re-done in Python on MediaPipe's own mesh and pose,
with each eyeball centre fixed in the canonical face (Visage's until session 11 placed the two eyes by their own openings) or moved sideways to the middle of the
mesh's own eye opening (where the camera's ray through it meets the canonical opening's plane): per-eye
agreement, frames classed by the cones alone, and events.

    swift build -c release --product visage
    python3 Scripts/probe-attention-rules.py [--visage .build/release/visage] [--mediapipe]
"""
import argparse
import collections
import importlib.util
import json
import os
import subprocess
import sys

from real_clips import clip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
CLIPS = ["attention", "carphone", "wolfgang", "man", "title-man"]
BLINK_TOLERANCE = 0.25


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


frames_module = load("measure_attention_frames", "measure-attention-frames.py")
SEGMENTS = json.load(open(os.path.join(ROOT, "Samples", "clips", "attention.json")))["segments"]
CHANGES = [(3.0, "L"), (6.0, "G"), (9.0, "L"), (11.7, "G")]


def path_of(name):
    return os.path.join(ROOT, "Samples", "clips", "attention.mp4") if name == "attention" else clip(name)


class Debouncer:
    """PresenceDebouncer."""

    def __init__(self, duration):
        self.duration, self.state, self.pending = duration, None, None

    def update(self, value, time):
        if value == self.state:
            self.pending = None
            return
        if self.pending is None or self.pending[0] != value:
            self.pending = (value, time)
        if time - self.pending[1] >= self.duration - 1e-9:
            self.state, self.pending = value, None


def features(face):
    nan = float("nan")
    gaze = face.get("gaze") or {}
    eyes = face.get("eyeOpenness") or {}
    left, right = gaze.get("leftEye") or {}, gaze.get("rightEye") or {}
    return {"id": face["trackingID"], "head": gaze.get("headAngleFromCamera", nan), "gaze": gaze.get("angleFromCamera", nan),
            "leftPitch": left.get("pitch", nan), "rightPitch": right.get("pitch", nan),
            "gazeYaw": gaze.get("yaw", nan), "gazePitch": gaze.get("pitch", nan),
            "headYaw": face.get("yaw", nan), "headPitch": face.get("pitch", nan),
            "open": max(eyes.get("left", nan), eyes.get("right", nan)) if eyes else nan}


def replay(name, frames, extra, duration=0.5):
    presence, anyone, reported, lowered, history = Debouncer(0.5), Debouncer(duration), None, {}, collections.defaultdict(list)
    labelled, events = [], []
    for frame in frames:
        time, watching_any, still_lowered = frame["time"], False, {}
        presence.update(bool(frame["faces"]), time)
        for index, face in enumerate(frame["faces"]):
            x = features(face)
            history[x["id"]].append((time, x))
            lids = True
            if not x["open"] >= 0.5:
                since = lowered.get(x["id"], time)
                still_lowered[x["id"]] = since
                lids = time - since < BLINK_TOLERANCE - 1e-9
            watching = x["head"] <= 30 and x["gaze"] <= 22 and lids and extra(x, history[x["id"]])
            watching_any = watching_any or watching
            if index == 0:
                labelled.append((frames_module.groups_of(name, time, SEGMENTS)[1], watching))
        lowered = still_lowered
        anyone.update(watching_any, time)
        if presence.state is not None and anyone.state is not None and anyone.state != reported:
            reported = anyone.state
            events.append(("G" if reported else "L", round(time, 2)))
    return labelled, events


def judge(series, extra, title):
    totals = {True: [0, 0], False: [0, 0]}
    everything = {}
    for name, frames in series.items():
        labelled, events = replay(name, frames, extra)
        everything[name] = events
        for label, watching in labelled:
            if label is not None:
                totals[label][0] += 1
                totals[label][1] += watching == label
    events = everything["attention"]
    matched, missed = set(), []
    if events and events[0][0] == "G" and events[0][1] <= 1.3 + 1e-9:
        matched.add(0)
    else:
        missed.append("first gain")
    for change, kind in CHANGES:
        found = [i for i, (k, t) in enumerate(events) if k == kind and change - 1e-9 <= t <= change + 0.8 + 1e-9]
        if found:
            matched.add(found[0])
        else:
            missed.append(f"{kind} at {change}")
    extra_events = [events[i] for i in range(len(events)) if i not in matched]
    print(f"{title:48} watching {totals[True][1] / totals[True][0]:6.1%}  away {totals[False][1] / totals[False][0]:6.1%}  "
          f"missed {missed or '-'}  extra {extra_events or '-'}  others "
          + "; ".join(f"{n} {everything[n]}" for n in CLIPS[1:]))


def vor(window, slope_limit, movement):
    import numpy as np

    def rule(x, history):
        points = [y for t, y in history if history[-1][0] - t <= window]
        if len(points) < 4:
            return True
        head = np.array([[y["headYaw"] for y in points], [y["headPitch"] for y in points]])
        gaze = np.array([[y["gazeYaw"] for y in points], [y["gazePitch"] for y in points]])
        head = (head - head.mean(axis=1, keepdims=True)).ravel()
        gaze = (gaze - gaze.mean(axis=1, keepdims=True)).ravel()
        if (head ** 2).sum() / len(points) < movement ** 2:
            return True
        return (head * gaze).sum() / (head * head).sum() <= slope_limit
    return rule


def part_one(visage):
    series = {}
    for name in CLIPS:
        run = subprocess.run([visage, "track", path_of(name), "--json", "--debounce", "0"], capture_output=True, text=True, check=True)
        series[name] = [r for r in map(json.loads, run.stdout.splitlines()) if "faces" in r]
    judge(series, lambda x, h: True, "default (cones and lids)")
    for h0, k in [(10, 0.5), (10, 1), (15, 1), (15, 2)]:
        judge(series, lambda x, h, h0=h0, k=k: x["gaze"] <= 22 - k * max(0, x["head"] - h0), f"narrow h0 {h0} k {k}")
    for limit in [4, 5, 8, 10, 12]:
        judge(series, lambda x, h, limit=limit: abs(x["leftPitch"] - x["rightPitch"]) <= limit, f"agree within {limit}°")
    for window in [0.5, 1.0]:
        for slope in [0.5, 0.8]:
            for movement in [1, 2]:
                judge(series, vor(window, slope, movement), f"vor W {window} s {slope} m {movement}")
    return series


def part_two(series):
    import numpy as np
    from mediapipe.modules.face_geometry.protos import geometry_pipeline_metadata_pb2
    compare = load("compare_gaze_mediapipe", "compare-gaze-mediapipe.py")
    import mediapipe as mp
    from mediapipe.tasks import python as mp_tasks
    from mediapipe.tasks.python import vision

    metadata = geometry_pipeline_metadata_pb2.GeometryPipelineMetadata()
    metadata.ParseFromString(open(os.path.join(ROOT, "Models", "geometry_pipeline_metadata_landmarks.binarypb"), "rb").read())
    canonical = np.array(metadata.canonical_mesh.vertex_buffer).reshape(-1, 5)[:, :3]
    openings = {"left": [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466],
                "right": [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]}
    irises = {"left": 473, "right": 468}
    radius = 1.2

    def unit(v):
        return v / np.linalg.norm(v)

    def gaze(points, matrix, width, height, sideways):
        scale = np.mean(np.linalg.norm(matrix[:3, :3], axis=0))
        rotation, translation = matrix[:3, :3] / scale, matrix[:3, 3]
        near_h = 2 * np.tan(np.radians(63) / 2)
        near_w = near_h * width / height

        def ray(u, v):
            return unit(np.array([(u - 0.5) * near_w, (0.5 - v) * near_h, -1.0]))

        eyes = {}
        for eye, opening in openings.items():
            middle = canonical[opening].mean(axis=0)
            centre = middle.copy()
            if sideways:
                direction = ray(points[opening, 0].mean(), points[opening, 1].mean())
                plane = scale * rotation @ middle + translation
                normal = rotation[:, 2]
                hit = direction * (normal @ plane) / (normal @ direction)
                centre[0] = (rotation.T @ (hit - translation) / scale)[0]
            centre = scale * rotation @ (centre - np.array([0, 0, radius])) + translation
            direction = ray(points[irises[eye], 0], points[irises[eye], 1])
            along = direction @ centre
            discriminant = along ** 2 - (centre @ centre - (radius * scale) ** 2)
            iris = direction * (along - np.sqrt(discriminant)) if discriminant >= 0 else centre + radius * scale * unit(direction * along - centre)
            sight = unit(iris - centre)
            face = rotation.T @ sight
            eyes[eye] = (centre, sight, np.degrees(np.arctan2(face[0], face[2])), np.degrees(np.arcsin(np.clip(face[1], -1, 1))))
        origin = (eyes["left"][0] + eyes["right"][0]) / 2
        combined = unit(eyes["left"][1] + eyes["right"][1])
        angle = np.degrees(np.arccos(np.clip(combined @ unit(-origin), -1, 1)))
        head = np.degrees(np.arccos(np.clip(rotation[:, 2] @ unit(-translation), -1, 1)))
        return {e: (v[2], v[3]) for e, v in eyes.items()}, angle, head

    task = compare.fetch_landmarker_task()
    agreement = collections.defaultdict(lambda: [0, 0])
    totals = {False: {True: [0, 0], False: [0, 0]}, True: {True: [0, 0], False: [0, 0]}}
    events = {False: {}, True: {}}
    # title-man left out, as compare-gaze-mediapipe.py does: the same man as "man", and its variable frame
    # rate makes ffmpeg's constant-rate decode hold more frames than `visage track` reads.
    for name in CLIPS[:-1]:
        path = path_of(name)
        rgb = compare.frames(path)
        height, width = rgb.shape[1:3]
        times = [f["time"] for f in series[name]]
        visage_eyes = {f["frame"]: f["faces"][0]["gaze"] for f in series[name] if f["faces"] and f["faces"][0].get("gaze")}
        options = vision.FaceLandmarkerOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=task), running_mode=vision.RunningMode.VIDEO, num_faces=1,
            output_face_blendshapes=True, output_facial_transformation_matrixes=True)
        state = {s: (Debouncer(0.5), Debouncer(0.5), [None], []) for s in (False, True)}
        with vision.FaceLandmarker.create_from_options(options) as landmarker:
            for index, picture in enumerate(rgb):
                time = times[index]
                result = landmarker.detect_for_video(
                    mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(picture)), int(round(time * 1000)))
                if not result.face_landmarks:
                    continue
                points = np.array([(p.x, p.y) for p in result.face_landmarks[0]])
                matrix = np.array(result.facial_transformation_matrixes[0])
                b = {c.category_name: c.score for c in result.face_blendshapes[0]}
                reference = {"left": (b["eyeLookOutLeft"] - b["eyeLookInLeft"], b["eyeLookUpLeft"] - b["eyeLookDownLeft"]),
                             "right": (b["eyeLookInRight"] - b["eyeLookOutRight"], b["eyeLookUpRight"] - b["eyeLookDownRight"])}
                label = frames_module.groups_of(name, time, SEGMENTS)[1]
                own = visage_eyes.get(index)
                if own:
                    angles = {e: (own[e + "Eye"]["yaw"], own[e + "Eye"]["pitch"]) for e in ("left", "right")}
                    pitch = (angles["left"][1] + angles["right"][1]) / 2
                    yaw = (angles["left"][0] + angles["right"][0]) / 2
                    variants = {"Visage": angles, "Visage, pitch the two eyes' mean": {e: (a[0], pitch) for e, a in angles.items()},
                                "Visage, yaw and pitch the means": {e: (yaw, pitch) for e in angles}}
                    for title, values in variants.items():
                        for eye in ("left", "right"):
                            for axis in (0, 1):
                                if abs(reference[eye][axis]) >= 0.15:
                                    agreement[title][0] += (values[eye][axis] > 0) == (reference[eye][axis] > 0)
                                    agreement[title][1] += 1
                for sideways in (False, True):
                    eyes, angle, head = gaze(points, matrix, width, height, sideways)
                    title = "MediaPipe's mesh, eyeballs " + ("moved sideways" if sideways else "canonical")
                    for eye in ("left", "right"):
                        for axis in (0, 1):
                            if abs(reference[eye][axis]) >= 0.15:
                                agreement[title][0] += (eyes[eye][axis] > 0) == (reference[eye][axis] > 0)
                                agreement[title][1] += 1
                    watching = angle <= 22 and head <= 30
                    if label is not None:
                        totals[sideways][label][0] += 1
                        totals[sideways][label][1] += watching == label
                    presence, anyone, reported, found = state[sideways]
                    presence.update(True, time)
                    anyone.update(watching, time)
                    if presence.state is not None and anyone.state is not None and anyone.state != reported[0]:
                        reported[0] = anyone.state
                        found.append(("G" if anyone.state else "L", round(time, 2)))
        for sideways in (False, True):
            events[sideways][name] = state[sideways][3]
    for title, (agree, compared) in agreement.items():
        print(f"{title:52} per eye {agree}/{compared} ({agree / compared:.1%})")
    for sideways in (False, True):
        t = totals[sideways]
        print(f"MediaPipe's mesh, eyeballs {'moved sideways' if sideways else 'canonical'}, cones alone: watching "
              f"{t[True][1] / t[True][0]:.1%} away {t[False][1] / t[False][0]:.1%}; events "
              + "; ".join(f"{n} {e}" for n, e in events[sideways].items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--mediapipe", action="store_true")
    args = parser.parse_args()
    series = part_one(args.visage)
    if args.mediapipe:
        part_two(series)


if __name__ == "__main__":
    main()
