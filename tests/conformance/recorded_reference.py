"""recorded_reference: the simulator's side of the conformance cases, kept in files.

The authority is numba 0.56's CUDA simulator (Debian's python3-numba, on the machine that builds
pyk). A GPU machine may have another numba, or none: there run_conformance.py compares pyk with
what was recorded here (`--record DIR` here, `--expected DIR` there) instead of running its own
simulator. One DIR/<case>.npz per case: the input arrays in the order `arrays_of` walks the
arguments (in_0, in_1, ...) and the arrays the simulator left (out_<name>, named as flat_outputs
names them). No pickles: plain .npz, so that another NumPy reads it.
"""

import os

import numpy as np


def arrays_of(value):
    """The arrays in an argument list, depth first (tuples and named tuples walked)."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in arrays_of(v)]
    return []


def with_arrays(value, arrays):
    """`value` with its arrays replaced, in arrays_of's order, by those `arrays` yields."""
    if isinstance(value, np.ndarray):
        new = next(arrays)
        if new.shape != value.shape or new.dtype != value.dtype:
            raise ValueError("recorded input %s %s does not fit the case's %s %s" % (
                new.dtype, new.shape, value.dtype, value.shape))
        return new
    if isinstance(value, list):
        return [with_arrays(v, arrays) for v in value]
    if isinstance(value, tuple):
        items = [with_arrays(v, arrays) for v in value]
        return type(value)._make(items) if hasattr(value, "_make") else tuple(items)
    return value


def save(directory, name, inputs, outputs):
    """inputs: the arguments as they were before the launch; outputs: (name, array) pairs."""
    entries = {"in_%d" % i: a for i, a in enumerate(arrays_of(inputs))}
    entries.update(("out_%s" % n, a) for n, a in outputs)
    path = os.path.join(directory, name + ".npz")
    np.savez(path + ".tmp.npz", **entries)
    os.replace(path + ".tmp.npz", path)


def load(directory, name, inputs):
    """(inputs with the recorded arrays in place, {output name: array}); raises OSError when the
    case was not recorded, ValueError when the record does not fit the case."""
    with np.load(os.path.join(directory, name + ".npz"), allow_pickle=False) as f:
        entries = {k: f[k] for k in f.files}
    count = len(arrays_of(inputs))
    if sum(k.startswith("in_") for k in entries) != count:
        raise ValueError("the record has %d input arrays, the case %d" % (
            sum(k.startswith("in_") for k in entries), count))
    recorded = iter(entries["in_%d" % i] for i in range(count))
    outputs = {k[4:]: v for k, v in entries.items() if k.startswith("out_")}
    return with_arrays(inputs, recorded), outputs
