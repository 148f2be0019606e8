"""The reference side of the network benchmarks: LiteRT's interpreter (XNNPACK delegate) on a bundled
model, fed the same seeded random input and warmed up the same way by every script that times it.

`force_isa("avx2")` holds XNNPACK to its AVX2/FMA3 microkernels on a machine with AVX-512, so that
Visage's forced AVX2 set (`VISAGE_KERNELS=avx2_fma`) can be timed against an AVX2 XNNPACK on the same
core. LiteRT has no switch for it: XNNPACK builds its hardware config once, from cpuinfo's
`cpuinfo_isa` table (a local symbol of ai_edge_litert's libpywrap_litert_common.so), the first time
an interpreter with the delegate is made. So the table is found through the library's ELF symbol
table and its load address in /proc/self/maps, cpuinfo is initialised through its own
`cpuinfo_initialize`, and the AVX-512, AVX10, AMX and AVX-VNNI entries are cleared, before the first
Interpreter. The AVX2, FMA3 and F16C entries stay. `force_isa` then makes one interpreter and reads
XNNPACK's `hardware_config.arch_flags` back to check that no AVX-512 flag is set (and raises if one
is), so a LiteRT build where this does not take hold fails loudly instead of timing AVX-512.
"""
import ctypes
import os
import struct
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Models")
LIBRARY = "libpywrap_litert_common.so"

# struct cpuinfo_x86_isa on x86-64 (pytorch/cpuinfo include/cpuinfo.h): one bool per feature.
# Offsets of the entries cleared for "avx2": avxvnni (0x17), avx512f .. avx512_4fmaps (0x1d-0x2e),
# avx10_1, avx10_2 (0x2f, 0x30), amx_bf16 .. amx_fp16 (0x31-0x34), avx_vnni_int8/int16 (0x35, 0x36).
# fma3 (0x18), f16c (0x1b) and avx2 (0x1c) are kept and checked to be set.
CLEARED_FOR_AVX2 = [0x17] + list(range(0x1D, 0x37))
KEPT_FOR_AVX2 = {"fma3": 0x18, "f16c": 0x1B, "avx2": 0x1C}
# XNNPACK's arch flags at hardware_config + 8 (uint64): bit 9 is AVX-512F, 10-20 the other AVX-512
# and AMX levels it derives from it; bit 7 is AVX2 (as this build's init_hardware_config sets them).
ARCH_FLAGS_OFFSET = 8
AVX512_FLAG_BITS = 0x1FFE00
AVX2_FLAG_BIT = 1 << 7


def _symbols(path, names):
    """Values of the named symbols in an ELF64 file's .symtab (local symbols included)."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise RuntimeError(f"{path} is not a 64-bit ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + index * shentsize) for index in range(shnum)]
    found = {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for start in range(offset, offset + size, entsize):
            name_offset, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, start)
            end = data.index(b"\0", strings + name_offset)
            name = data[strings + name_offset:end].decode()
            if name in names:
                found[name] = value
    missing = set(names) - set(found)
    if missing:
        raise RuntimeError(f"{path} has no symbol {sorted(missing)} (stripped, or another LiteRT build)")
    return found


def _load_base(path):
    """Where the loaded library's first (file offset 0) mapping starts in this process."""
    real = os.path.realpath(path)
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and os.path.realpath(fields[5]) == real and int(fields[2], 16) == 0:
                return int(fields[0].split("-")[0], 16)
    raise RuntimeError(f"{path} is not loaded")


def force_isa(isa):
    """Hold XNNPACK to `isa` ("native": leave it; "avx2": AVX2 + FMA3, no AVX-512) for this process.
    Call before the first Interpreter. Returns a line describing what XNNPACK was left with."""
    if isa == "native":
        return "XNNPACK: the kernels it selects for this CPU"
    if isa != "avx2":
        raise ValueError(f"unknown reference ISA {isa!r} (native, avx2)")
    import ai_edge_litert
    path = os.path.join(os.path.dirname(ai_edge_litert.__file__), LIBRARY)
    symbols = _symbols(path, {"cpuinfo_initialize", "cpuinfo_isa", "hardware_config"})
    base = _load_base(path)
    if not ctypes.CFUNCTYPE(ctypes.c_bool)(base + symbols["cpuinfo_initialize"])():
        raise RuntimeError("cpuinfo_initialize failed")
    table = base + symbols["cpuinfo_isa"]
    for name, offset in KEPT_FOR_AVX2.items():
        if not ctypes.c_bool.from_address(table + offset).value:
            raise RuntimeError(f"this CPU has no {name} (per cpuinfo): cannot hold XNNPACK to AVX2")
    for offset in CLEARED_FOR_AVX2:
        ctypes.c_bool.from_address(table + offset).value = False
    # The hardware config is built with the first XNNPACK delegate; make one and read it back.
    warmed_interpreter("face_blendshapes.tflite", 1, warmups=1)
    flags = ctypes.c_uint64.from_address(base + symbols["hardware_config"] + ARCH_FLAGS_OFFSET).value
    if flags & AVX512_FLAG_BITS or not flags & AVX2_FLAG_BIT:
        raise RuntimeError(f"XNNPACK arch flags {flags:#x} after clearing AVX-512: not held to AVX2")
    return f"XNNPACK: held to AVX2/FMA3 (cpuinfo AVX-512 entries cleared; its arch flags {flags:#x}, no AVX-512 bit)"


def warmed_interpreter(model, threads, warmups=10):
    """An interpreter for `model` (a file name in Models/) at `threads`, its inputs filled from a fixed
    seed, after `warmups` (10) warm-up invocations."""
    interpreter = Interpreter(model_path=os.path.join(MODELS, model), num_threads=threads)
    interpreter.allocate_tensors()
    rng = np.random.default_rng(12345)
    for detail in interpreter.get_input_details():
        interpreter.set_tensor(detail["index"], rng.random(detail["shape"], dtype=np.float32))
    for _ in range(warmups):
        interpreter.invoke()
    return interpreter


def invoke_times(interpreter, runs, clock=time.perf_counter_ns):
    """Milliseconds of each of `runs` invocations, by `clock` (nanoseconds; wall time by default)."""
    times = []
    for _ in range(runs):
        start = clock()
        interpreter.invoke()
        times.append((clock() - start) / 1e6)
    return times


def invoke_cpu_times(interpreter, runs):
    """Milliseconds of the calling thread's CPU time in each of `runs` invocations: at 1 thread (where
    XNNPACK runs on the caller) the run's compute without the time other work took the core away."""
    return invoke_times(interpreter, runs, clock=time.thread_time_ns)
