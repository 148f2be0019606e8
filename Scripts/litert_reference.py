"""The reference side of the network benchmarks: LiteRT's interpreter (XNNPACK delegate) on a bundled
model, fed the same seeded random input and warmed up the same way by every script that times it."""
import os
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Models")


def warmed_interpreter(model, threads):
    """An interpreter for `model` (a file name in Models/) at `threads`, its inputs filled from a fixed
    seed, after 10 warm-up invocations."""
    interpreter = Interpreter(model_path=os.path.join(MODELS, model), num_threads=threads)
    interpreter.allocate_tensors()
    rng = np.random.default_rng(12345)
    for detail in interpreter.get_input_details():
        interpreter.set_tensor(detail["index"], rng.random(detail["shape"], dtype=np.float32))
    for _ in range(10):
        interpreter.invoke()
    return interpreter


def invoke_times(interpreter, runs):
    """Milliseconds of each of `runs` invocations."""
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        interpreter.invoke()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times
