#!/usr/bin/env python3
"""What MediaPipe's metadata reader (mediapipe 0.10.21, mediapipe.tasks.python.metadata) finds in the
input tensors' metadata of the models Visage's tests use: each input's NormalizationOptions (mean and
std), or null when there is none. Writes Tests/VisageTests/Fixtures/custom-models/metadata.json.

    .venv/bin/pip install mediapipe==0.10.21
    .venv/bin/python Scripts/make-model-metadata-fixture.py
"""
import json
import os

from mediapipe.tasks.python.metadata import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = {
    "selfie_segmentation.tflite": "Tests/VisageTests/Fixtures/custom-models/selfie_segmentation.tflite",
    "hand_recrop.tflite": "Tests/VisageTests/Fixtures/custom-models/hand_recrop.tflite",
    "face_detection_short_range.tflite": "Models/face_detection_short_range.tflite",
}


def normalizations(path):
    try:
        displayer = metadata.MetadataDisplayer.with_model_file(path)
    except ValueError:  # "The model does not have metadata."
        return None
    found = []
    for tensor in json.loads(displayer.get_metadata_json())["subgraph_metadata"][0].get("input_tensor_metadata", []):
        units = [u["options"] for u in tensor.get("process_units", []) if u.get("options_type") == "NormalizationOptions"]
        found.append({"mean": units[-1]["mean"], "std": units[-1]["std"]} if units else None)
    return found


result = {name: normalizations(os.path.join(ROOT, path)) for name, path in MODELS.items()}
with open(os.path.join(ROOT, "Tests/VisageTests/Fixtures/custom-models/metadata.json"), "w") as f:
    json.dump(result, f, indent=1)
print(json.dumps(result))
