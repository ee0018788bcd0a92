"""case_writer: one simulator launch written out as a standalone pyk case.

A case is a folder: `kernel.pyk` (the kernel and everything it uses, see module_source.py),
`case.json` (kernel name, grid, block, dynamic shared bytes, the arguments as `pykc run` takes
them), `in/arg<i>.npy` (the array arguments before the launch) and `expected/arg<i>.npy` (after
it, as the simulator left them).
"""

import enum
import json
import os
import shutil

import numpy as np

from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray
from numba.cuda import args as cuda_args

import module_source


class NotKept(Exception):
    """A launch that cannot be written as a pyk case; the message says why."""


def host_array(arg):
    """The numpy array behind an array argument (host, simulator device array, In/Out hint), or
    None when the argument is not an array."""
    if isinstance(arg, cuda_args.ArgHint):
        arg = arg.value
    if isinstance(arg, FakeCUDAArray):
        arg = arg._ary
    if isinstance(arg, np.ndarray):
        return arg
    return None


def scalar_spelling(value):
    """`dtype:value` as `pykc run` takes a scalar, typed as numba's typeof types it."""
    if isinstance(value, enum.Enum):
        if isinstance(value, enum.IntEnum):
            value = int(value)
        else:
            raise NotKept("an Enum member as an argument")
    if isinstance(value, (bool, np.bool_)):
        return "bool:" + ("true" if value else "false")
    if isinstance(value, np.generic):
        dtype = value.dtype
        if dtype.kind in "iu":
            return "%s:%d" % (dtype.name, int(value))
        if dtype.kind == "f":
            # A float16's value is exact as a float64 and rounds back to itself.
            return "%s:%s" % (dtype.name, repr(float(value)))
        if dtype.kind == "c":
            return "%s:%s,%s" % (dtype.name, repr(float(value.real)), repr(float(value.imag)))
        raise NotKept("a numpy scalar of dtype %s as an argument" % dtype)
    if isinstance(value, int):
        if -2**63 <= value < 2**63:
            return "int64:%d" % value
        if 0 <= value < 2**64:
            return "uint64:%d" % value
        raise NotKept("an integer argument beyond 64 bits")
    if isinstance(value, float):
        return "float64:" + repr(value)
    if isinstance(value, complex):
        return "complex128:%s,%s" % (repr(value.real), repr(value.imag))
    raise NotKept("an argument of type %s" % type(value).__name__)


def numba_type_spelling(value):
    """The argument's numba type in signature syntax (for `pykc emit --sig`)."""
    array = host_array(value)
    if array is not None:
        if array.dtype.fields is not None or array.dtype.subdtype is not None:
            return None  # records: the runner types them through pykc run only
        dims = [":"] * array.ndim
        if array.ndim and array.flags.c_contiguous:
            dims[-1] = "::1"
        elif array.ndim and array.flags.f_contiguous:
            dims[0] = "::1"
        name = "boolean" if array.dtype == np.bool_ else array.dtype.name
        return "%s[%s]" % (name, ", ".join(dims))
    spelt = scalar_spelling(value)
    name = spelt.split(":")[0]
    return "boolean" if name == "bool" else name


class Case:
    def __init__(self, folder, inputs, compared):
        self.folder = folder
        self.inputs = inputs  # argument index -> a copy of the array before the launch
        self.compared = compared  # the array arguments whose contents come back from a launch
        self.outputs = {}  # argument index -> a copy of the array after the launch


class CaseWriter:
    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)

    def begin(self, index, kernel, args):
        """Writes the source and the inputs before the launch; returns the case, or a NotKept."""
        folder = os.path.join(self.root, "%05d" % index)
        try:
            if kernel.grid_dim is None:
                raise NotKept("launched without a grid")
            if kernel.extensions:
                raise NotKept("the kernel prepares its arguments through numba's host-side "
                              "extension API")
            spellings, arrays, signature = self._arguments(args)
            # numba copies a `cuda.In` array to the device and never back.
            compared = [i for i in arrays if not isinstance(args[i], cuda_args.In)]
            source, name = module_source.module_for_kernel(kernel)
            os.makedirs(os.path.join(folder, "in"), exist_ok=True)
            for i, a in arrays.items():
                np.save(os.path.join(folder, "in", "arg%d.npy" % i), a, allow_pickle=False)
            with open(os.path.join(folder, "kernel.pyk"), "w") as f:
                f.write(source)
            meta = {
                "kernel": name,
                "grid": list(kernel.grid_dim),
                "block": list(kernel.block_dim),
                "shared": int(kernel.dynshared_size or 0),
                "args": spellings,
                "signature": signature,
                "compared": compared,
            }
            with open(os.path.join(folder, "case.json"), "w") as f:
                json.dump(meta, f, indent=1)
            return Case(folder, arrays, compared)
        except (NotKept, module_source.NotExtractable) as e:
            shutil.rmtree(folder, ignore_errors=True)
            return e

    def _arguments(self, args):
        spellings = []
        arrays = {}
        types = []
        for i, a in enumerate(args):
            array = host_array(a)
            if array is not None:
                if array.dtype.hasobject:
                    raise NotKept("an array of Python objects as an argument")
                if array.dtype.kind in "MmUSV" and array.dtype.fields is None:
                    raise NotKept("an array of dtype %s as an argument" % array.dtype)
                if array.dtype == np.float16:
                    pass  # float16 arrays are numba types; pyk must take them
                for j, other in arrays.items():
                    if np.shares_memory(array, other):
                        raise NotKept("arguments %d and %d share memory" % (j, i))
                arrays[i] = array
                spellings.append("in/arg%d.npy" % i)
            elif isinstance(a, np.void):
                raise NotKept("a record (np.void) as a scalar argument")
            elif isinstance(a, tuple):
                raise NotKept("a tuple as an argument")
            else:
                spellings.append(scalar_spelling(a))
            types.append(numba_type_spelling(a))
        signature = None if None in types else "void(%s)" % ", ".join(types)
        return spellings, {i: a.copy(order="K") for i, a in arrays.items()}, signature

    def discard(self, case):
        if isinstance(case, Case):
            shutil.rmtree(case.folder, ignore_errors=True)

    def finish(self, case, args):
        """After the launch: the arrays as the simulator left them."""
        if not isinstance(case, Case):
            return {"kept": False, "reason": str(case)}
        os.makedirs(os.path.join(case.folder, "expected"), exist_ok=True)
        for i in case.compared:
            after = host_array(args[i])
            case.outputs[i] = after.copy(order="K")
            np.save(os.path.join(case.folder, "expected", "arg%d.npy" % i), after,
                    allow_pickle=False)
        return {"kept": True, "case": os.path.basename(case.folder)}

    @staticmethod
    def fresh_arguments(case, args):
        """The launch's arguments with every array replaced by a copy of its input."""
        return [case.inputs[i].copy(order="K") if i in case.inputs else a
                for i, a in enumerate(args)]

    @staticmethod
    def same_outputs(case, args):
        for i in case.compared:
            a, b = case.outputs[i], host_array(args[i])
            if a.tobytes() != b.tobytes():
                return False
        return True
