#!/usr/bin/env python3
"""Fixtures for VisageNN's graph-level fusions: tiny models holding the operator patterns the
planner rewrites (and near misses it must leave alone), run unfused by TFLite's reference kernels.

Models are written with make-nn-fixtures.py's FlatBuffers graph builder.

    pip install ai-edge-litert numpy flatbuffers
    python3 Scripts/make-fusion-fixtures.py   # writes Tests/VisageNNTests/Fixtures/fusions/
"""
import importlib.util
import json
import pathlib

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/VisageNNTests/Fixtures/fusions"
SEED = 20261122

spec = importlib.util.spec_from_file_location("nn_fixtures", ROOT / "Scripts/make-nn-fixtures.py")
nn_fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nn_fixtures)
Graph, RELU = nn_fixtures.Graph, nn_fixtures.RELU


def layer_norm(g, x, shape, gamma, epsilon=1e-6, gamma_shape=None, final_activation=0):
    """The MLP-Mixer layer normalisation as the blendshape model spells it (ten operators)."""
    rows = shape[:-1] + [1]
    axis = g.constant([len(shape) - 1], "i32")
    mean = g.op("MEAN", [x, axis], rows, keep_dims=1)
    negated = g.op("NEG", [mean], rows)
    squares = g.op("SQUARED_DIFFERENCE", [x, mean], shape)
    variance = g.op("MEAN", [squares, axis], rows, keep_dims=1)
    shifted = g.op("ADD", [variance, g.constant(np.float32(epsilon))], rows)
    root = g.op("RSQRT", [shifted], rows)
    gamma = g.constant(gamma.reshape(gamma_shape or [gamma.size]))
    scale_shape = rows if gamma_shape else shape
    scale = g.op("MUL", [root, gamma], scale_shape)
    scaled = g.op("MUL", [x, scale], shape)
    shift = g.op("MUL", [negated, scale], scale_shape)
    return g.op("ADD", [scaled, shift], shape, activation=final_activation), scale


def cases(rng):
    """(name, graph, input shape, output tensor); the single input is tensor 0."""
    result = []

    def case(name, shape, build):
        graph = Graph()
        x = graph.tensor(shape)
        result.append((name, graph, shape, build(graph, x)))

    gamma = rng.uniform(0.5, 1.5, size=24).astype(np.float32)
    case("layer_norm", [1, 1, 7, 24], lambda g, x: layer_norm(g, x, [1, 1, 7, 24], gamma)[0])
    case("layer_norm_odd_channels", [3, 5, 11], lambda g, x: layer_norm(g, x, [3, 5, 11], gamma[:11], epsilon=1e-3)[0])
    # Near misses: a clamp on the last ADD, γ per row instead of per channel, an intermediate read elsewhere.
    case("layer_norm_relu", [1, 1, 7, 24], lambda g, x: layer_norm(g, x, [1, 1, 7, 24], gamma, final_activation=RELU)[0])
    case("layer_norm_gamma_per_row", [1, 1, 7, 24],
         lambda g, x: layer_norm(g, x, [1, 1, 7, 24], gamma[:7], gamma_shape=[1, 1, 7, 1])[0])

    def shared_scale(g, x):
        y, scale = layer_norm(g, x, [1, 1, 7, 24], gamma)
        return g.op("ADD", [y, scale], [1, 1, 7, 24])
    case("layer_norm_scale_read_twice", [1, 1, 7, 24], shared_scale)

    # Row narrowing: a 1×1 convolution with a residual, centred by a mean, of which a slice keeps rows 1 and 2.
    own = np.random.default_rng(SEED + 1)  # leaves the layer-norm cases' inputs as they were
    weights, bias = own.normal(size=(8, 1, 1, 8)).astype(np.float32), own.normal(size=8).astype(np.float32)

    def sliced_rows(begin, mean_axis=3):
        def build(g, x):
            convolved = g.op("CONV_2D", [x, g.constant(weights), g.constant(bias)], [1, 1, 6, 8], padding=nn_fixtures.VALID, stride_w=1, stride_h=1)
            summed = g.op("ADD", [convolved, x], [1, 1, 6, 8])
            mean = g.op("MEAN", [summed, g.constant([mean_axis], "i32")], [1, 1, 1, 8] if mean_axis == 2 else [1, 1, 6, 1], keep_dims=1)
            centred = g.op("SUB", [summed, mean], [1, 1, 6, 8])
            return g.op("STRIDED_SLICE", [centred, g.constant([0, 0, begin, 0], "i32"), g.constant([0, 0, 3, 0], "i32"),
                                          g.constant([1, 1, 1, 1], "i32")], [1, 1, 2, 8], begin_mask=0b1011, end_mask=0b1011)
        return build
    case("rows_sliced", [1, 1, 6, 8], sliced_rows(1))
    case("rows_sliced_from_negative_index", [1, 1, 6, 8], sliced_rows(-5))
    case("rows_sliced_after_mean_over_rows", [1, 1, 6, 8], sliced_rows(1, mean_axis=2))

    # Rows of a TRANSPOSE are the channels of the convolution before it: the slice needs 2 of 5.
    filters, shifts = own.normal(size=(5, 1, 1, 8)).astype(np.float32), own.normal(size=5).astype(np.float32)

    def transposed_rows(read_twice):
        def build(g, x):
            convolved = g.op("CONV_2D", [x, g.constant(filters), g.constant(shifts)], [1, 1, 6, 5], padding=nn_fixtures.VALID, stride_w=1, stride_h=1)
            def sliced():
                swapped = g.op("TRANSPOSE", [convolved, g.constant([0, 1, 3, 2], "i32")], [1, 1, 5, 6])
                return g.op("STRIDED_SLICE", [swapped, g.constant([0, 0, 0, 0], "i32"), g.constant([0, 0, 2, 0], "i32"),
                                              g.constant([1, 1, 1, 1], "i32")], [1, 1, 2, 6], begin_mask=0b1011, end_mask=0b1011)
            first = sliced()
            return g.op("ADD", [first, sliced()], [1, 1, 2, 6]) if read_twice else first
        return build
    case("transposed_rows_sliced", [1, 1, 6, 8], transposed_rows(False))
    case("transposed_rows_sliced_convolution_read_twice", [1, 1, 6, 8], transposed_rows(True))

    # A feature-pyramid step: pooled, upsampled and added back; the fallback reads the upsampled map twice.
    def pyramid(read_twice):
        def build(g, x):
            pooled = g.op("MAX_POOL_2D", [x], [1, 3, 4, 4], padding=nn_fixtures.VALID, stride_w=2, stride_h=2, filter_width=2, filter_height=2)
            upsampled = g.op("RESIZE_BILINEAR", [pooled, g.constant([6, 8], "i32")], [1, 6, 8, 4], half_pixel_centers=1)
            summed = g.op("ADD", [x, upsampled], [1, 6, 8, 4])
            return g.op("MUL", [summed, upsampled], [1, 6, 8, 4]) if read_twice else summed
        return build
    case("resize_then_add", [1, 6, 8, 4], pyramid(False))
    case("resize_then_add_resized_read_twice", [1, 6, 8, 4], pyramid(True))

    # TRANSPOSE of the last two axes runs in 4×4 blocks: sizes with every remainder.
    case("transpose_blocks_and_edges", [2, 9, 7], lambda g, x: g.op("TRANSPOSE", [x, g.constant([0, 2, 1], "i32")], [2, 7, 9]))
    # A tensor read whole by one operator (which would absorb the RELU after the ADD) and through a
    # narrowed view by another: the view's reader counts, so the ADD must still write the tensor.
    offsets = np.random.default_rng(SEED + 2).normal(size=(1, 1, 6, 8)).astype(np.float32)

    def read_whole_and_through_view(g, x):
        summed = g.op("ADD", [x, g.constant(offsets)], [1, 1, 6, 8])
        rectified = g.op("RELU", [summed], [1, 1, 6, 8])
        negated = g.op("NEG", [summed], [1, 1, 6, 8])
        first_rows = g.op("STRIDED_SLICE", [negated, g.constant([0, 0, 0, 0], "i32"), g.constant([0, 0, 2, 0], "i32"),
                                             g.constant([1, 1, 1, 1], "i32")], [1, 1, 2, 8], begin_mask=0b1011, end_mask=0b1011)
        column_means = g.op("MEAN", [rectified, g.constant([2], "i32")], [1, 1, 1, 8], keep_dims=1)
        return g.op("ADD", [first_rows, column_means], [1, 1, 2, 8])
    case("rows_read_whole_and_through_a_view", [1, 1, 6, 8], read_whole_and_through_view)

    return result


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in OUT.glob("*"):
        stale.unlink()
    rng = np.random.default_rng(SEED)
    entries = []
    for name, graph, shape, output in cases(rng):
        model = graph.serialize([0], [output])
        (OUT / f"{name}.tflite").write_bytes(model)
        values = (rng.normal(size=shape) * 3 + 1).astype("<f4")
        interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        interpreter.allocate_tensors()
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], values)
        interpreter.invoke()
        result = interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).astype("<f4")
        assert list(result.shape) == graph.tensors[output][0], (name, result.shape)
        (OUT / f"{name}.input.f32").write_bytes(values.tobytes())
        (OUT / f"{name}.output.f32").write_bytes(result.tobytes())
        entries.append({"name": name, "inputShape": shape, "outputShape": list(result.shape)})
    (OUT / "manifest.json").write_text(json.dumps({"seed": SEED, "cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} fusion cases to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
