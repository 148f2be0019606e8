#!/usr/bin/env python3
"""Fixtures for CustomModelRequest and `visage run-model`: third-party TFLite models and LiteRT's outputs.

Copies two small Apache-2.0 models out of the pip-installed mediapipe==0.10.21 wheel into
Tests/VisageTests/Fixtures/custom-models/ (NOTICE there names them):
  hand_recrop.tflite          124 KB, operators Visage runs (CONV_2D, DEPTHWISE_CONV_2D, PRELU, …)
  selfie_segmentation.tflite  250 KB, uses HARD_SWISH, AVERAGE_POOL_2D and the custom
                              Convolution2DTransposeBias: the unsupported-model error
and writes, for hand_recrop on a 256×256 crop of Samples/astronaut.png (the model's own size, so the
input is the pixels / 255 untouched) and on the 200×150 stretch of it (OpenCV's float bilinear resize,
pixel centres aligned, which is what Visage's warp computes), LiteRT's outputs as JSON.

Needs: pip install mediapipe==0.10.21 ai-edge-litert pillow numpy opencv-python-headless
"""
import json, os, shutil

import cv2
import mediapipe
import numpy as np
from ai_edge_litert.interpreter import Interpreter
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/VisageTests/Fixtures/custom-models")
MODULES = os.path.join(os.path.dirname(mediapipe.__file__), "modules")


def run(model, rgb):
    interpreter = Interpreter(model_path=model)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], rgb[None].astype(np.float32))
    interpreter.invoke()
    return [{"name": d["name"], "shape": [int(s) for s in d["shape"]],
             "values": [float(v) for v in interpreter.get_tensor(d["index"]).reshape(-1)]}
            for d in interpreter.get_output_details()]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, folder in [("hand_recrop.tflite", "holistic_landmark"), ("selfie_segmentation.tflite", "selfie_segmentation")]:
        shutil.copyfile(os.path.join(MODULES, folder, name), os.path.join(OUT, name))
    picture = Image.open(os.path.join(ROOT, "Samples/astronaut.png")).convert("RGB")
    crop = picture.crop((100, 20, 356, 276))  # the face and helmet, 256×256
    crop.save(os.path.join(OUT, "astronaut-256.png"))
    pixels = np.asarray(crop).astype(np.float32)
    model = os.path.join(OUT, "hand_recrop.tflite")
    exact = run(model, pixels / 255)
    # A 200×150 picture stretched to 256×256, as `visage run-model` does with a picture of another size.
    small = crop.resize((200, 150), Image.BICUBIC)
    small.save(os.path.join(OUT, "astronaut-200x150.png"))
    stretched = cv2.resize(np.asarray(small).astype(np.float32) / 255, (256, 256), interpolation=cv2.INTER_LINEAR)
    stretch = run(model, stretched)
    # LiteRT's own operator census of the unsupported model, to check Visage's error against.
    segmentation = Interpreter(model_path=os.path.join(OUT, "selfie_segmentation.tflite"))
    counts = {}
    for detail in segmentation._get_ops_details():
        counts[detail["op_name"]] = counts.get(detail["op_name"], 0) + 1
    with open(os.path.join(OUT, "selfie_segmentation.operators.json"), "w") as f:
        json.dump(counts, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(OUT, "hand_recrop.litert.json"), "w") as f:
        json.dump({"astronaut-256.png": exact, "astronaut-200x150.png": stretch}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
