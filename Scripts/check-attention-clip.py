#!/usr/bin/env python3
"""Runs `visage track` on Samples/clips/attention.mp4 (real footage) and checks the attention events' timing.

The clip cuts between real clips of faces looking into the lens and faces looking away (head turned,
or eyes up); Samples/clips/attention.json lists its segments with the labels given by looking at their
frames. Checks, for anyone's attention (events without trackingID):

  * the first attention event is attentionGained, within the presence debounce plus the attention
    duration plus 0.3 s of the start;
  * at every change of label, attentionLost (watching → away) or attentionGained (away → watching)
    within the attention duration plus 0.3 s; no other attention event;
  * one faceDetected and no noFaceDetected (a face is present throughout, looking or not);
  * no nod or shake.

Prints the events, each change's delay and the verdict, and for an attention event at no change of
label the head and gaze angles and the eyes' openness of the frames that led to it; exits 1 when a
check fails. `--eye-openness` passes visage track's flag (0 turns the lid condition off; left out,
its default).

    Scripts/check-attention-clip.py [--visage .build/release/visage] [--eye-openness RATIO]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIP = os.path.join(ROOT, "Samples", "clips", "attention.mp4")
LABELS = os.path.join(ROOT, "Samples", "clips", "attention.json")
DEBOUNCE = 0.5
DURATION = 0.5
SLACK = 0.3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--visage", default=os.path.join(ROOT, ".build", "release", "visage"))
    parser.add_argument("--eye-openness", help="visage track's --eye-openness (0 ignores the lids)")
    args = parser.parse_args()
    labels = json.load(open(LABELS))
    changes, start, previous = [], 0.0, None
    for segment in labels["segments"]:
        if previous is not None and segment["watching"] != previous:
            changes.append((round(start, 6), "attentionGained" if segment["watching"] else "attentionLost", segment["what"]))
        previous = segment["watching"]
        start += segment["to"] - segment["from"]
    run = subprocess.run(
        [args.visage, "track", CLIP, "--json", "--debounce", str(DEBOUNCE),
         "--attention-duration", str(DURATION)] + (["--eye-openness", args.eye_openness] if args.eye_openness else []),
        capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"visage track failed ({run.returncode}): {run.stderr}")
    records = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    events = [r for r in records if "event" in r]
    frames = [r for r in records if "faces" in r]
    for event in events:
        print(json.dumps(event))
    print(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "")
    anyone = [(e["event"], e["time"]) for e in events if e["event"].startswith("attention") and "trackingID" not in e]
    failures = []
    first_limit = DEBOUNCE + DURATION + SLACK
    if not anyone or anyone[0][0] != "attentionGained" or anyone[0][1] > first_limit + 1e-9:
        failures.append(f"the first attention event is {anyone[:1]}, expected attentionGained by {first_limit:.1f} s")
    matched = {0} if anyone and anyone[0][0] == "attentionGained" else set()
    for change, name, what in changes:
        found = [(i, t) for i, (n, t) in enumerate(anyone) if n == name and change - 1e-9 <= t <= change + DURATION + SLACK + 1e-9]
        verdict = f"{name} at {found[0][1]:.3f} s, {found[0][1] - change:.3f} s after" if found else f"no {name} within {DURATION + SLACK:.1f} s"
        print(f"{change:5.2f} s {what}: {verdict}")
        if found:
            matched.add(found[0][0])
        else:
            failures.append(f"{change} s: {verdict}")
    extra = [anyone[i] for i in range(len(anyone)) if i not in matched]
    if extra:
        failures.append(f"attention events at no change of label: {extra}")
        # What the frames before each extra event read: the run of frames that made it.
        for name, time in extra:
            print(f"frames up to the extra {name} at {time:.2f} s (time: head and gaze degrees from the camera; eyes' pitch in the head; "
                  "eyes' openness in iris diameters):")
            for frame in frames:
                if time - DURATION - 0.3 <= frame["time"] <= time and frame["faces"]:
                    gaze = frame["faces"][0].get("gaze") or {}
                    eyes = [gaze.get(e, {}).get("pitch") for e in ("leftEye", "rightEye")]
                    openness = frame["faces"][0].get("eyeOpenness") or {}
                    print(f"    {frame['time']:.2f} s: head {gaze.get('headAngleFromCamera')}, gaze {gaze.get('angleFromCamera')}, eyes' pitch {eyes}, "
                          f"openness {[openness.get('left'), openness.get('right')]}")
    presence = [e["event"] for e in events if e["event"] in ("faceDetected", "noFaceDetected")]
    if presence != ["faceDetected"]:
        failures.append(f"presence events {presence}, expected one faceDetected")
    gestures = [e for e in events if e["event"] in ("nod", "shake")]
    if gestures:
        failures.append(f"gestures on a clip without any: {gestures}")
    for failure in failures:
        print("FAIL:", failure)
    print("attention clip: " + ("all checks passed" if not failures else f"{len(failures)} checks failed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
