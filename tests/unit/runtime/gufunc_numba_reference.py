#!/usr/bin/env python3
# gufunc_numba_reference: numba's own results for the gufuncs of gufuncs.pyk, for GufuncCallTest
# to compare pyk's with. numba (Debian's python3-numba, CPU targets: target='cuda' is compiled as
# target='cpu', the semantics being the same) runs each case; its inputs and outputs are written
# as CASE_in<k>.npy and CASE_out<k>.npy, and `cases.txt` lists "CASE FUNCTION INPUTS OUTPUTS".
# Usage: gufunc_numba_reference.py GUFUNCS_PYK OUT_DIR
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
source_path, out_dir = sys.argv[1], sys.argv[2]
with open(source_path) as f:
    source = f.read().replace('target="cuda"', 'target="cpu"')
functions = {}
exec(compile(source, source_path, "exec"), functions)

rng = np.random.default_rng(20260606)


def floats(*shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


def ints(*shape):
    return rng.integers(-50, 50, size=shape, dtype=np.int64)


CASES = [
    ("dot_rows", "dot", [floats(4, 3), floats(3)]),
    ("dot_vectors", "dot", [floats(7), floats(7)]),
    ("dot_ints_broadcast", "dot", [ints(3, 1, 5), ints(2, 5)]),
    ("matmul_batched", "matmul", [floats(2, 3, 4), floats(4, 5)]),
    ("matmul_broadcast_both", "matmul", [floats(3, 1, 2, 3), floats(4, 3, 2)]),
    ("scale_rows", "scale", [floats(3, 4, dtype=np.float32), floats(3, dtype=np.float32)]),
    ("min_max", "min_max", [ints(2, 3, 6)]),
    ("cumsum", "cumsum", [floats(3, 2, 5)]),
    # Each (3, 4) core in F order, as the parameter `float64[::1, :]` declares: numba reads a
    # C-ordered one through it without a copy (its result is then that memory reinterpreted),
    # where pyk copies it into F order first.
    ("transpose_f", "transpose_f", [np.swapaxes(np.ascontiguousarray(np.swapaxes(floats(2, 3, 4), 1, 2)), 1, 2)]),
]

lines = []
for case, name, inputs in CASES:
    outputs = functions[name](*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    for k, a in enumerate(inputs):
        np.save(os.path.join(out_dir, f"{case}_in{k}.npy"), np.asarray(a))
    for k, a in enumerate(outputs):
        np.save(os.path.join(out_dir, f"{case}_out{k}.npy"), np.asarray(a))
    lines.append(f"{case} {name} {len(inputs)} {len(outputs)}\n")
with open(os.path.join(out_dir, "cases.txt"), "w") as f:
    f.writelines(lines)
