#!/usr/bin/env python3
"""Parity fixtures for VisageNN: every bundled network run by the reference runtime (LiteRT).

For each bundled model, two fixed inputs — a seeded random one and a real face (Samples/astronaut.png) —
and the reference outputs. Image inputs are stored as 8-bit pixels plus the affine map to the
model's float range (value = byte * scale + offset, evaluated in float32 on both sides), which
keeps the fixtures small; outputs and the blendshape points are little-endian float32.

Then tiny models for single operators and options the bundled models do not use (written with
the FlatBuffers builder, run by TFLite's reference kernels), and one unsupported model.

    pip install ai-edge-litert numpy Pillow
    python3 Scripts/make-nn-fixtures.py      # writes Tests/VisageNNTests/Fixtures/{parity,operators}/
"""
import json
import pathlib

import flatbuffers
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
# MediaPipe's Python full-range detector: sparse float16 weights (DENSIFY, DEQUANTIZE, DEPTH_TO_SPACE).
# Drawn from a random stream of its own, so adding it left every other fixture's bytes as they were.
SPARSE_IMAGE_MODELS = [("face_detection_full_range_sparse.tflite", 192, (-1.0, 1.0))]
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
        model_cases, face_outputs = image_cases(model, side, low, high, rng, photo)
        cases += model_cases
        if side == 256:
            mesh_points = next(v for n, s, v in face_outputs if v.size == 1434).reshape(478, 3)[:, :2]
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
    sparse_rng = np.random.default_rng(SEED + 1)
    for model, side, (low, high) in SPARSE_IMAGE_MODELS:
        cases += image_cases(model, side, low, high, sparse_rng, photo)[0]
    (OUT / "manifest.json").write_text(json.dumps({"seed": SEED, "cases": cases}, indent=1) + "\n")
    total = sum(f.stat().st_size for f in OUT.glob("*"))
    print(f"wrote {len(cases)} cases, {total} bytes, to {OUT.relative_to(ROOT)}")
    write_operator_cases(rng)


def image_cases(model, side, low, high, rng, photo):
    """A seeded random input and the astronaut for one image model, run by LiteRT (XNNPACK):
    the manifest entries and the face's outputs."""
    cases = []
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
        cases.append({
            "model": model, "input": kind,
            "pixels": f"{stem}.input.u8", "shape": [1, side, side, 3],
            "scale": float(scale), "offset": float(offset),
            "outputs": write_outputs(stem, outputs),
            "xnnpackVersusReferenceKernels": spread(model, feed, outputs),
        })
    return cases, outputs


# ---------------------------------------------------------------------------------------------
# Operator cases: tiny one- or few-operator models written here with the FlatBuffers builder
# (schema field numbers as in tensorflow/lite/schema/schema.fbs), run by TFLite's reference
# kernels. They cover options and shapes the bundled models do not use.

OPS = {"ADD": 0, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4, "DEPTH_TO_SPACE": 5, "DEQUANTIZE": 6, "FLOOR": 8, "LOGISTIC": 14,
       "MAX_POOL_2D": 17, "MUL": 18, "RELU": 19, "RESIZE_BILINEAR": 23, "PAD": 34, "TRANSPOSE": 39, "MEAN": 40,
       "SUB": 41, "DIV": 42, "STRIDED_SLICE": 45, "NEG": 59, "SUM": 74, "SQRT": 75, "RSQRT": 76,
       "SQUARED_DIFFERENCE": 99, "DENSIFY": 124}
# Builtin options union tags and the (slot, kind) of each field Visage reads.
OPTIONS = {
    "CONV_2D": (1, ["padding:b", "stride_w:i", "stride_h:i", "activation:b"]),
    "DEPTHWISE_CONV_2D": (2, ["padding:b", "stride_w:i", "stride_h:i", "depth_multiplier:i", "activation:b"]),
    "MAX_POOL_2D": (5, ["padding:b", "stride_w:i", "stride_h:i", "filter_width:i", "filter_height:i", "activation:b"]),
    "CONCATENATION": (10, ["axis:i", "activation:b"]),
    "ADD": (11, ["activation:b"]), "MUL": (21, ["activation:b"]), "SUB": (28, ["activation:b"]), "DIV": (29, ["activation:b"]),
    "RESIZE_BILINEAR": (15, ["new_height:i", "new_width:i", "align_corners:b", "half_pixel_centers:b"]),
    "MEAN": (27, ["keep_dims:b"]), "SUM": (27, ["keep_dims:b"]),
    "STRIDED_SLICE": (32, ["begin_mask:i", "end_mask:i", "ellipsis_mask:i", "new_axis_mask:i", "shrink_axis_mask:i"]),
    "DEPTH_TO_SPACE": (94, ["block_size:i"]),
}
TYPES = {"f32": (0, "<f4"), "f16": (1, "<f2"), "i32": (2, "<i4")}
DENSE, CSR = 0, 1


def sparse_encoding(dense, traversal, block_map, block_sizes, formats, index_types):
    """TFLite's sparse encoding of `dense` (SparsityParameters): the stored values in visiting order
    and the per-level metadata. Level i walks dimension traversal[i] (r + j for block j, which cuts
    dimension block_map[j] into block_sizes[j]); a CSR level keeps the indices whose sub-tensor is not
    all zero. index_types per level: 1 int32, 2 uint16, 3 uint8."""
    rank = dense.ndim
    blocked = list(dense.shape)
    for dimension, size in zip(block_map, block_sizes):
        blocked[dimension] //= size
    # Split each blocked dimension d into (outer, inner) and move the inner ones to the end.
    split_shape, order_outer, order_inner = [], [], []
    for dimension in range(rank):
        if dimension in block_map:
            order_outer.append(len(split_shape))
            order_inner.append((block_map.index(dimension), len(split_shape) + 1))
            split_shape += [blocked[dimension], block_sizes[block_map.index(dimension)]]
        else:
            order_outer.append(len(split_shape))
            split_shape.append(dense.shape[dimension])
    expanded = dense.reshape(split_shape).transpose(order_outer + [axis for _, axis in sorted(order_inner)])
    tree = expanded.transpose(traversal)
    frontier, levels = [tree], []
    for level, form in enumerate(formats):
        size = tree.shape[level]
        if form == DENSE:
            levels.append({"format": DENSE, "dense_size": size})
            frontier = [sub[i] for sub in frontier for i in range(size)]
        else:
            segments, indices, kept = [0], [], []
            for sub in frontier:
                for i in range(size):
                    if np.any(sub[i] != 0):
                        indices.append(i)
                        kept.append(sub[i])
                segments.append(len(indices))
            levels.append({"format": CSR, "segments": segments, "indices": indices, "index_type": index_types[level]})
            frontier = kept
    return np.array([float(value) for value in frontier]), {"traversal_order": traversal, "block_map": block_map, "levels": levels}
SAME, VALID, RELU, RELU6 = 0, 1, 1, 3


class Graph:
    """A subgraph under construction: tensors (activations or constants) and operators."""

    def __init__(self):
        self.tensors, self.operators = [], []

    def tensor(self, shape, values=None, kind="f32", sparsity=None):
        self.tensors.append((list(shape), None if values is None else np.asarray(values, dtype=TYPES[kind][1]), kind, sparsity))
        return len(self.tensors) - 1

    def sparse_constant(self, dense, kind="f32", traversal=None, block_map=(), block_sizes=(), formats=None, index_types=None):
        """A constant stored sparse, with the dense shape of `dense`; its value is DENSIFY's output."""
        total = dense.ndim + len(block_map)
        traversal = list(traversal or range(total))
        formats = formats or [DENSE] * (dense.ndim - 1) + [CSR] + [DENSE] * len(block_map)
        stored, sparsity = sparse_encoding(dense, traversal, list(block_map), list(block_sizes), formats, index_types or [1] * total)
        return self.tensor(dense.shape, stored, kind, sparsity)

    def constant(self, values, kind="f32"):
        values = np.asarray(values)
        return self.tensor(values.shape, values, kind)

    def op(self, name, inputs, output_shape, kind="f32", **options):
        output = self.tensor(output_shape, kind=kind)
        self.operators.append((name, inputs, [output], options))
        return output

    def serialize(self, inputs, outputs):
        b = flatbuffers.Builder(1024)
        b.ForceDefaults(True)

        def ints(values):
            b.StartVector(4, len(values), 4)
            for value in reversed(values):
                b.PrependInt32(int(value))
            return b.EndVector()

        def offsets(values):
            b.StartVector(4, len(values), 4)
            for value in reversed(values):
                b.PrependUOffsetTRelative(value)
            return b.EndVector()

        def table(fields):
            """fields: (slot, kind, value) with kind b (byte), i (int32) or o (offset)."""
            b.StartObject(max((slot for slot, _, _ in fields), default=-1) + 1)
            for slot, kind, value in fields:
                {"b": b.PrependUint8Slot, "i": b.PrependInt32Slot, "o": b.PrependUOffsetTRelativeSlot}[kind](slot, value, 0)
            return b.EndObject()

        def index_vector(values, tag):
            width, prepend = {2: (2, b.PrependUint16), 3: (1, b.PrependUint8)}.get(tag, (4, b.PrependInt32))
            b.StartVector(width, len(values), width)
            for value in reversed(values):
                prepend(int(value))
            return table([(0, "o", b.EndVector())])

        def sparsity_table(sparsity):
            levels = []
            for level in sparsity["levels"]:
                if level["format"] == DENSE:
                    levels.append(table([(0, "b", DENSE), (1, "i", level["dense_size"])]))
                else:
                    segments = index_vector(level["segments"], level["index_type"])
                    indices = index_vector(level["indices"], level["index_type"])
                    levels.append(table([(0, "b", level["format"]), (2, "b", level["index_type"]), (3, "o", segments),
                                         (4, "b", level["index_type"]), (5, "o", indices)]))
            fields = [(0, "o", ints(sparsity["traversal_order"])), (2, "o", offsets(levels))]
            if sparsity["block_map"]:
                fields.append((1, "o", ints(sparsity["block_map"])))
            return table(fields)

        buffers = [table([])]
        tensors = []
        for index, (shape, values, kind, sparsity) in enumerate(self.tensors):
            buffer = 0
            if values is not None:
                data = values.tobytes()
                b.StartVector(1, len(data), 16)
                for byte in reversed(data):
                    b.PrependUint8(byte)
                buffers.append(table([(0, "o", b.EndVector())]))
                buffer = len(buffers) - 1
            name = b.CreateString(f"t{index}")
            shape_vector = ints(shape)
            fields = [(0, "o", shape_vector), (1, "b", TYPES[kind][0]), (2, "i", buffer), (3, "o", name)]
            if sparsity is not None:
                fields.append((6, "o", sparsity_table(sparsity)))
            tensors.append(table(fields))
        names = sorted({name for name, _, _, _ in self.operators})
        codes = [table([(0, "b", min(OPS[name], 127)), (2, "i", 1), (3, "i", OPS[name])]) for name in names]
        operators = []
        for name, op_inputs, op_outputs, options in self.operators:
            fields = [(0, "i", names.index(name))]
            if name in OPTIONS:
                tag, layout = OPTIONS[name]
                values = []
                for slot, field in enumerate(layout):
                    key, kind = field.split(":")
                    if key in options:
                        values.append((slot, kind, int(options[key])))
                fields += [(3, "b", tag), (4, "o", table(values))]
            input_vector, output_vector = ints(op_inputs), ints(op_outputs)
            operators.append(table(fields + [(1, "o", input_vector), (2, "o", output_vector)]))
        subgraph_fields = [(0, "o", offsets(tensors)), (1, "o", ints(inputs)), (2, "o", ints(outputs)), (3, "o", offsets(operators))]
        subgraph = table(subgraph_fields)
        model = table([(0, "i", 3), (1, "o", offsets(codes)), (2, "o", offsets([subgraph])), (4, "o", offsets(buffers))])
        b.Finish(model, file_identifier=b"TFL3")
        return bytes(b.Output())


def operator_cases(rng):
    """(name, graph, input shape, output tensor) per case; the single input is tensor 0."""
    cases = []

    def case(name, shape, build):
        graph = Graph()
        x = graph.tensor(shape)
        cases.append((name, graph, shape, build(graph, x)))

    def normal(*shape):
        return rng.normal(size=shape).astype(np.float32)

    case("resize_align_corners", [1, 3, 4, 2], lambda g, x: g.op(
        "RESIZE_BILINEAR", [x, g.constant([5, 7], "i32")], [1, 5, 7, 2], align_corners=1))
    case("resize_half_pixel_centers", [1, 3, 4, 2], lambda g, x: g.op(
        "RESIZE_BILINEAR", [x, g.constant([7, 5], "i32")], [1, 7, 5, 2], half_pixel_centers=1))
    case("resize_plain_down_and_up", [1, 4, 4, 3], lambda g, x: g.op(
        "RESIZE_BILINEAR", [x, g.constant([3, 6], "i32")], [1, 3, 6, 3]))
    reference = np.zeros((2, 5, 6, 3))
    case("strided_slice_masks_negative_stride", [2, 5, 6, 3], lambda g, x: g.op(
        "STRIDED_SLICE", [x, g.constant([1, 1, -1, 2], "i32"), g.constant([2, 5, 0, 3], "i32"), g.constant([1, 2, -2, 1], "i32")],
        list(reference[0:2:1, 1:5:2, -1:0:-2, 2::1].shape), begin_mask=0b0001, end_mask=0b1000))
    case("strided_slice_shrink", [2, 5, 6, 3], lambda g, x: g.op(
        "STRIDED_SLICE", [x, g.constant([1, 0, 2, 0], "i32"), g.constant([2, 5, 3, 3], "i32"), g.constant([1, 1, 1, 1], "i32")],
        [5, 3], shrink_axis_mask=0b0101))
    case("sub_broadcast_both", [2, 1, 3, 4], lambda g, x: g.op("SUB", [x, g.constant(normal(5, 1, 4))], [2, 5, 3, 4]))
    case("sub_broadcast_first", [5, 1, 4], lambda g, x: g.op("SUB", [g.constant(normal(2, 1, 3, 4)), x], [2, 5, 3, 4]))
    case("div_broadcast", [1, 3, 1], lambda g, x: g.op("DIV", [x, g.constant(rng.uniform(0.5, 2, size=(2, 1, 4)).astype(np.float32))], [2, 3, 4]))
    case("squared_difference_rows", [3, 4], lambda g, x: g.op("SQUARED_DIFFERENCE", [x, g.constant(normal(4))], [3, 4]))
    case("mul_scalar_relu6", [2, 3, 4], lambda g, x: g.op("MUL", [x, g.constant(np.float32(3.5))], [2, 3, 4], activation=RELU6))
    case("add_channelwise_relu", [1, 4, 4, 3], lambda g, x: g.op("ADD", [x, g.constant(normal(1, 1, 1, 3))], [1, 4, 4, 3], activation=RELU))
    case("pad_every_axis", [1, 3, 4, 2], lambda g, x: g.op(
        "PAD", [x, g.constant([[0, 0], [1, 2], [0, 1], [1, 1]], "i32")], [1, 6, 5, 4]))
    case("mean_two_axes", [2, 3, 4, 5], lambda g, x: g.op("MEAN", [x, g.constant([1, 3], "i32")], [2, 4]))
    case("sum_keep_dims", [2, 3, 4, 5], lambda g, x: g.op("SUM", [x, g.constant([0, -1], "i32")], [1, 3, 4, 1], keep_dims=1))
    case("transpose_3d", [2, 3, 4], lambda g, x: g.op("TRANSPOSE", [x, g.constant([2, 0, 1], "i32")], [4, 2, 3]))
    case("concatenation_middle_axis", [2, 3, 4], lambda g, x: g.op(
        "CONCATENATION", [x, g.constant(normal(2, 1, 4)), x], [2, 7, 4], axis=1))
    case("max_pool_same_3x3_stride2_relu", [1, 7, 6, 3], lambda g, x: g.op(
        "MAX_POOL_2D", [x], [1, 4, 3, 3], padding=SAME, stride_w=2, stride_h=2, filter_width=3, filter_height=3, activation=RELU))
    case("conv_same_stride2_relu6", [1, 7, 6, 3], lambda g, x: g.op(
        "CONV_2D", [x, g.constant(normal(5, 3, 3, 3)), g.constant(normal(5))], [1, 4, 3, 5],
        padding=SAME, stride_w=2, stride_h=2, activation=RELU6))

    def padded_depthwise(g, x):
        padded = g.op("PAD", [x, g.constant([[0, 0], [1, 2], [2, 0], [0, 0]], "i32")], [1, 8, 7, 4])
        return g.op("DEPTHWISE_CONV_2D", [padded, g.constant(normal(1, 3, 3, 4)), g.constant(normal(4))], [1, 6, 5, 4],
                    padding=VALID, stride_w=1, stride_h=1, depth_multiplier=1)
    case("pad_then_depthwise_valid", [1, 5, 5, 4], padded_depthwise)

    def unary_chain(g, x):
        t = g.op("SQUARED_DIFFERENCE", [x, g.constant(normal(6))], [2, 6])
        t = g.op("SQRT", [t], [2, 6])
        t = g.op("ADD", [t, g.constant(np.float32(0.5))], [2, 6])
        t = g.op("RSQRT", [t], [2, 6])
        t = g.op("NEG", [t], [2, 6])
        return g.op("LOGISTIC", [t], [2, 6])
    case("unary_chain", [2, 6], unary_chain)
    return cases


def sparse_operator_cases(rng):
    """DENSIFY (sparse constants: CSR levels, a permuted traversal, blocks, uint8/uint16/int32 indices,
    float16 values dequantized after) and DEPTH_TO_SPACE, as in the sparse full-range detector."""
    cases = []

    def case(name, shape, build):
        graph = Graph()
        x = graph.tensor(shape)
        cases.append((name, graph, shape, build(graph, x)))

    def sparse(*shape, density=0.4):
        values = rng.normal(size=shape).astype(np.float32)
        return values * (rng.random(size=shape) < density)

    def densified(g, dense, kind="f32", **encoding):
        t = g.op("DENSIFY", [g.sparse_constant(dense, kind, **encoding)], list(dense.shape), kind=kind)
        return g.op("DEQUANTIZE", [t], list(dense.shape)) if kind == "f16" else t

    weights = sparse(4, 6)
    weights[2] = 0  # a row with no stored value: an empty segment
    case("densify_csr_rows_uint8", [4, 6], lambda g, x: g.op(
        "ADD", [x, densified(g, weights, index_types=[3, 3])], [4, 6]))
    case("densify_traversal_columns_first_uint16", [3, 5], lambda g, x: g.op(
        "ADD", [x, densified(g, sparse(3, 5), traversal=[1, 0], index_types=[2, 2])], [3, 5]))
    case("densify_both_levels_sparse_int32", [5, 7], lambda g, x: g.op(
        "ADD", [x, densified(g, sparse(5, 7, density=0.3), formats=[CSR, CSR], index_types=[1, 1])], [5, 7]))
    blocks = np.kron(sparse(4, 2, density=0.5), np.ones((1, 4), np.float32)) * rng.normal(size=(4, 8)).astype(np.float32)
    case("densify_blocks_of_4", [4, 8], lambda g, x: g.op(
        "ADD", [x, densified(g, blocks, block_map=[1], block_sizes=[4], formats=[DENSE, CSR, DENSE], index_types=[1, 2, 1])], [4, 8]))
    case("depth_to_space_2", [1, 3, 4, 8], lambda g, x: g.op("DEPTH_TO_SPACE", [x], [1, 6, 8, 2], block_size=2))
    case("depth_to_space_3_batch_2", [2, 2, 3, 18], lambda g, x: g.op("DEPTH_TO_SPACE", [x], [2, 6, 9, 2], block_size=3))

    def sparse_half_convolution(g, x):
        kernel = densified(g, sparse(8, 1, 1, 6).astype(np.float16).astype(np.float32), "f16", index_types=[1, 1, 1, 3])
        bias = g.op("DEQUANTIZE", [g.constant(rng.normal(size=8).astype(np.float16), "f16")], [8])
        y = g.op("CONV_2D", [x, kernel, bias], [1, 5, 5, 8], padding=SAME, stride_w=1, stride_h=1)
        return g.op("DEPTH_TO_SPACE", [y], [1, 10, 10, 2], block_size=2)
    case("sparse_half_convolution_then_depth_to_space", [1, 5, 5, 6], sparse_half_convolution)
    return cases


def write_operator_cases(rng):
    folder = ROOT / "Tests/VisageNNTests/Fixtures/operators"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*"):
        stale.unlink()
    entries = []
    # The sparse cases draw from a stream of their own, so every older case kept its bytes.
    sparse_rng = np.random.default_rng(SEED + 2)
    cases = [(case, rng) for case in operator_cases(rng)] + [(case, sparse_rng) for case in sparse_operator_cases(sparse_rng)]
    for (name, graph, shape, output), rng in cases:
        model = graph.serialize([0], [output])
        (folder / f"{name}.tflite").write_bytes(model)
        values = rng.normal(size=shape).astype("<f4")
        interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        interpreter.allocate_tensors()
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], values)
        interpreter.invoke()
        detail = interpreter.get_output_details()[0]
        result = interpreter.get_tensor(detail["index"]).astype("<f4")
        assert list(result.shape) == graph.tensors[output][0], (name, result.shape)
        (folder / f"{name}.input.f32").write_bytes(values.tobytes())
        (folder / f"{name}.output.f32").write_bytes(result.tobytes())
        entries.append({"name": name, "inputShape": shape, "outputShape": list(result.shape)})
    # A model Visage must refuse, naming the operator.
    graph = Graph()
    x = graph.tensor([2, 3])
    (folder / "unsupported_floor.tflite").write_bytes(graph.serialize([0], [graph.op("FLOOR", [x], [2, 3])]))
    (folder / "manifest.json").write_text(json.dumps({"cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} operator cases to {folder.relative_to(ROOT)}")
    write_malformed_sparse_models()


def write_malformed_sparse_models():
    """Sparse constants whose metadata breaks one rule each, with the words Visage's refusal must hold."""
    folder = ROOT / "Tests/VisageNNTests/Fixtures/sparse-malformed"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*"):
        stale.unlink()
    dense = np.array([[0, 1.5, 0, 0, 2, 0], [3, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 0], [0, 5, 6, 0, 0, 7]], np.float32)

    def model(change, shape=(4, 6), blocks=False):
        graph = Graph()
        x = graph.tensor(list(shape))
        if blocks:
            values = np.kron(np.array([[1, 0], [0, 2]], np.float32), np.ones((1, 4), np.float32))
            constant = graph.sparse_constant(values, block_map=[1], block_sizes=[4], formats=[DENSE, CSR, DENSE])
        else:
            constant = graph.sparse_constant(dense, index_types=[3, 3])
        shape_, stored, kind, sparsity = graph.tensors[constant]
        changed = change(shape_, stored, sparsity)
        if isinstance(changed, tuple):
            shape_, stored = changed
        graph.tensors[constant] = (shape_, stored, kind, sparsity)
        densified = graph.op("DENSIFY", [constant], shape_)
        return graph.serialize([0], [graph.op("ADD", [x, densified], list(shape))])

    def level(sparsity, index=-1):
        return [entry for entry in sparsity["levels"] if entry["format"] == CSR][index]

    def huge(shape, stored, sparsity):
        # 2^25 float32 values once dense (128 MiB), from one stored value: over the limit for this file.
        sparsity["levels"] = [{"format": CSR, "segments": [0, 1], "indices": [0], "index_type": 1},
                              {"format": CSR, "segments": [0, 1], "indices": [5], "index_type": 1}]
        return [1 << 13, 1 << 12], stored[:1]

    cases = {
        "index_out_of_range": (lambda s, v, sp: level(sp)["indices"].__setitem__(0, 6), "lie in 0..<6"),
        "indices_not_increasing": (lambda s, v, sp: level(sp)["indices"].__setitem__(1, 0), "indices increase within a segment"),
        "segments_past_indices": (lambda s, v, sp: level(sp)["segments"].__setitem__(-1, 99), "they must run 0…"),
        # A middle segment past the index count: refused before any segment is sliced.
        "segments_decrease": (lambda s, v, sp: level(sp)["segments"].__setitem__(1, 99), "segments decrease at 1"),
        "segment_count": (lambda s, v, sp: level(sp)["segments"].pop(), "parent positions need"),
        "traversal_not_permutation": (lambda s, v, sp: sp.__setitem__("traversal_order", [0, 0]), "is not a permutation"),
        "dense_size_wrong": (lambda s, v, sp: sp["levels"][0].__setitem__("dense_size", 5), "dense_size 5"),
        "format_unknown": (lambda s, v, sp: level(sp).__setitem__("format", 2), "format 2"),
        "index_type_unknown": (lambda s, v, sp: level(sp).__setitem__("index_type", 4), "index vector type 4"),
        "stored_count_wrong": (lambda s, v, sp: (s, v[:-1]), "(its sparse values)"),
        "dense_over_limit": (huge, "once dense"),
    }
    entries = []
    for name, (change, words) in cases.items():
        (folder / f"{name}.tflite").write_bytes(model(change))
        entries.append({"file": f"{name}.tflite", "words": words})

    def block_of_3(shape, stored, sparsity):
        sparsity["levels"][2]["dense_size"] = 3
    (folder / "block_not_dividing.tflite").write_bytes(model(block_of_3, shape=(2, 8), blocks=True))
    entries.append({"file": "block_not_dividing.tflite", "words": "blocks are dense and divide their dimension"})
    (folder / "manifest.json").write_text(json.dumps({"cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} malformed sparse models to {folder.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
