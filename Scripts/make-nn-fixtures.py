#!/usr/bin/env python3
"""Parity fixtures for VisageNN: every bundled network run by the reference runtime (LiteRT).

For each model, two fixed inputs — a seeded random one and a real face (Samples/astronaut.png) —
and the reference outputs. Image inputs are stored as 8-bit pixels plus the affine map to the
model's float range (value = byte * scale + offset, evaluated in float32 on both sides), which
keeps the fixtures small; outputs and the blendshape points are little-endian float32.

    pip install ai-edge-litert numpy Pillow
    python3 Scripts/make-nn-fixtures.py      # writes Tests/VisageNNTests/Fixtures/parity/
"""
import json
import pathlib

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/VisageNNTests/Fixtures/parity"
SEED = 20261121

# Image models: file, input side, float range of the input.
IMAGE_MODELS = [
    ("face_detection_short_range.tflite", 128, (-1.0, 1.0)),
    ("face_detection_full_range.tflite", 192, (-1.0, 1.0)),
    ("face_landmarks_detector.tflite", 256, (0.0, 1.0)),
]
# The astronaut's face: the whole 512×512 photo for the detectors, a square around the face for the mesh.
FACE_BOX = (130, 5, 330, 205)


def run(model, feed, resolver=OpResolverType.AUTO):
    """Outputs of `model` on `feed`: XNNPACK by default, TFLite's reference kernels with BUILTIN_REF."""
    interpreter = Interpreter(model_path=str(ROOT / "Models" / model), experimental_op_resolver_type=resolver)
    interpreter.allocate_tensors()
    (detail,) = interpreter.get_input_details()
    interpreter.set_tensor(detail["index"], feed.reshape(detail["shape"]))
    interpreter.invoke()
    return [(d["name"], d["shape"].tolist(), interpreter.get_tensor(d["index"]).astype("<f4"))
            for d in interpreter.get_output_details()]


def spread(model, feed, outputs):
    """How far XNNPACK's outputs are from TFLite's reference kernels under the parity rule
    (1e-4 relative or 1e-5 absolute per value): float32 sums in another order miss it on a few
    values that are small next to the terms they sum, which bounds what any engine can meet."""
    result = []
    for (_, _, fast), (_, _, reference) in zip(outputs, run(model, feed, OpResolverType.BUILTIN_REF)):
        error = np.abs(fast - reference)
        outside = (error > 1e-5) & (error > 1e-4 * np.abs(reference))
        result.append({"outside": int(outside.sum()), "maxAbsolute": float(error.max())})
    return result


def write_outputs(stem, outputs):
    entries = []
    for position, (name, shape, values) in enumerate(outputs):
        file = f"{stem}.output{position}.f32"
        (OUT / file).write_bytes(values.tobytes())
        entries.append({"name": name, "shape": shape, "file": file})
    return entries


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in OUT.glob("*"):
        stale.unlink()
    rng = np.random.default_rng(SEED)
    photo = Image.open(ROOT / "Samples/astronaut.png").convert("RGB")
    cases = []
    mesh_points = None
    for model, side, (low, high) in IMAGE_MODELS:
        scale = np.float32((high - low) / 255.0)
        offset = np.float32(low)
        face = photo.crop(FACE_BOX) if side == 256 else photo
        inputs = {
            "random": rng.integers(0, 256, size=(side, side, 3), dtype=np.uint8),
            "face": np.asarray(face.resize((side, side), Image.BILINEAR), dtype=np.uint8),
        }
        for kind, pixels in inputs.items():
            stem = f"{model.removesuffix('.tflite')}.{kind}"
            (OUT / f"{stem}.input.u8").write_bytes(pixels.tobytes())
            feed = pixels.astype(np.float32) * scale + offset
            outputs = run(model, feed)
            if side == 256 and kind == "face":
                mesh_points = next(v for n, s, v in outputs if v.size == 1434).reshape(478, 3)[:, :2]
            cases.append({
                "model": model, "input": kind,
                "pixels": f"{stem}.input.u8", "shape": [1, side, side, 3],
                "scale": float(scale), "offset": float(offset),
                "outputs": write_outputs(stem, outputs),
                "xnnpackVersusReferenceKernels": spread(model, feed, outputs),
            })
    # Blendshapes take 146 (x, y) mesh points in pixels: here every third point of the face's mesh,
    # and random points spread over the 256-pixel crop.
    model = "face_blendshapes.tflite"
    points = {
        "random": rng.uniform(0, 256, size=(146, 2)).astype("<f4"),
        "face": np.ascontiguousarray(mesh_points[::3][:146]).astype("<f4"),
    }
    for kind, values in points.items():
        stem = f"{model.removesuffix('.tflite')}.{kind}"
        (OUT / f"{stem}.input.f32").write_bytes(values.tobytes())
        outputs = run(model, values)
        cases.append({
            "model": model, "input": kind, "values": f"{stem}.input.f32", "shape": [1, 146, 2],
            "outputs": write_outputs(stem, outputs),
            "xnnpackVersusReferenceKernels": spread(model, values, outputs),
        })
    (OUT / "manifest.json").write_text(json.dumps({"seed": SEED, "cases": cases}, indent=1) + "\n")
    total = sum(f.stat().st_size for f in OUT.glob("*"))
    print(f"wrote {len(cases)} cases, {total} bytes, to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
