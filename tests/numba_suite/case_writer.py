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

import numba
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


def is_device_array(arg):
    """Whether the argument is a (simulator) device array: passed twice, the kernel sees one
    memory; a host array passed twice is copied to the device once per argument."""
    return isinstance(arg, FakeCUDAArray)


def scalar_spelling(value):
    """`dtype:value` as `pykc run` takes a scalar, typed as numba's typeof types it."""
    if isinstance(value, enum.Enum):
        # numba types it as a member of its class (`a is b` tells classes apart even where the
        # values are equal): `pykc run`'s enum:CLASS.MEMBER, the class written into the module
        # (module_source.module_for_kernel's enum_arguments).
        return "enum:%s.%s" % (type(value).__name__, value.name)
    if isinstance(value, (bool, np.bool_)):
        return "bool:" + ("true" if value else "false")
    if isinstance(value, (np.datetime64, np.timedelta64)):
        # `pykc run`'s datetime64[D]:COUNT (the count of units since 1970), or NaT.
        return "%s:%s" % (value.dtype.name,
                          "NaT" if np.isnat(value) else str(int(value.astype(np.int64))))
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


def datetime_spelling(dtype):
    """numba.types' constructor of a datetime64 / timedelta64 dtype (`NPDatetime('D')`) or of
    an 'S' / 'U' one (`CharSeq(12)`, `UnicodeCharSeq(12)`)."""
    if dtype.kind == "S":
        return "CharSeq(%d)" % dtype.itemsize
    if dtype.kind == "U":
        return "UnicodeCharSeq(%d)" % (dtype.itemsize // 4)
    unit = np.datetime_data(dtype)[0]
    unit = "" if unit == "generic" else unit
    return "%s('%s')" % ("NPDatetime" if dtype.kind == "M" else "NPTimedelta", unit)


def numba_type_spelling(value):
    """The argument's numba type in signature syntax (for `pykc emit --sig`; a record as
    numba's repr, which pyk reads back); None where the syntax has none (named tuples)."""
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return datetime_spelling(value.dtype)
    if isinstance(value, np.void):
        return str(numba.typeof(value))
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return None
        parts = [numba_type_spelling(v) for v in value]
        if None in parts:
            return None
        if parts and all(p == parts[0] for p in parts):
            return "UniTuple(%s, %d)" % (parts[0], len(parts))
        return "Tuple((%s%s))" % (", ".join(parts), "," if len(parts) == 1 else "")
    array = host_array(value)
    if array is not None:
        if array.dtype.subdtype is not None:
            return None  # an array of sub-arrays: numba sees a record-less nested array
        if array.ndim == 0:
            return "Array(%s, 0, 'C')" % (str(numba.from_dtype(array.dtype))
                                          if array.dtype.fields is not None else
                                          "boolean" if array.dtype == np.bool_
                                          else datetime_spelling(array.dtype)
                                          if array.dtype.kind in "mMSU"
                                          else array.dtype.name)
        dims = [":"] * array.ndim
        if array.ndim and array.flags.c_contiguous:
            dims[-1] = "::1"
        elif array.ndim and array.flags.f_contiguous:
            dims[0] = "::1"
        if array.dtype.fields is not None:
            name = str(numba.from_dtype(array.dtype))
        elif array.dtype.kind in "mMSU":
            name = datetime_spelling(array.dtype)
        else:
            name = "boolean" if array.dtype == np.bool_ else array.dtype.name
        return "%s[%s]" % (name, ", ".join(dims))
    if isinstance(value, enum.Enum):
        return None  # no signature string names an Enum class's members
    spelt = scalar_spelling(value)
    name = spelt.split(":")[0]
    return "boolean" if name == "bool" else name


def enum_arguments(args):
    """The Enum and IntEnum members among the arguments (in tuples too)."""
    out = []
    for a in args:
        if isinstance(a, enum.Enum):
            out.append(a)
        elif isinstance(a, tuple):
            out.extend(enum_arguments(a))
    return out


class Case:
    def __init__(self, folder, inputs, compared, sources):
        self.folder = folder
        self.inputs = inputs  # array key -> a copy of the array (or record) before the launch
        self.compared = compared  # the keys whose contents come back from a launch
        self.sources = sources  # array key -> the argument object the launch was given
        self.outputs = {}  # array key -> a copy of the array after the launch


def _after(source):
    """What an argument object holds after a launch, as an array (a record as a 0-d array)."""
    if isinstance(source, np.void):
        return np.array(source)
    return host_array(source)


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
            if 0 in tuple(kernel.grid_dim) + tuple(kernel.block_dim):
                # numba's forall(0) returns before launching; a direct launch of an empty grid
                # or block is a CUDA error in compiled numba (pyk's too). The simulator runs
                # nothing either way: there is nothing to compare.
                raise NotKept("a grid or block of 0 (numba launches nothing, or CUDA refuses it)")
            if kernel.extensions:
                raise NotKept("the kernel prepares its arguments through numba's host-side "
                              "extension API")
            spellings, arrays, signature = self._arguments(args)
            # numba copies a `cuda.In` array to the device and never back.
            compared = [k for k in arrays if not isinstance(self._sources[k], cuda_args.In)
                        and k not in self._not_compared]
            source, name = module_source.module_for_kernel(kernel, enum_arguments(args))
            os.makedirs(os.path.join(folder, "in"), exist_ok=True)
            for k, a in arrays.items():
                np.save(os.path.join(folder, "in", "arg%s.npy" % k), a, allow_pickle=False)
            with open(os.path.join(folder, "kernel.pyk"), "w") as f:
                f.write(source)
            meta = {
                "kernel": name,
                "grid": list(kernel.grid_dim),
                "block": list(kernel.block_dim),
                "shared": int(kernel.dynshared_size or 0),
                "args": spellings,
                "signature": signature,
                # numba compiles a kernel with a declared signature for that signature (and
                # converts the launch's arguments to it); the CUBIN is built for it.
                "declared_signature": getattr(kernel, "_pyk_signature", None) is not None,
                "compared": compared,
            }
            with open(os.path.join(folder, "case.json"), "w") as f:
                json.dump(meta, f, indent=1)
            return Case(folder, arrays, compared, dict(self._sources))
        except (NotKept, module_source.NotExtractable) as e:
            shutil.rmtree(folder, ignore_errors=True)
            return e

    def _arguments(self, args):
        """Each argument's `pykc run` spelling, the arrays it carries (by key: the argument's
        position, `i_j` for element j of tuple argument i, and so on; records as 0-d arrays),
        and the signature."""
        self._arrays = {}
        self._sources = {}  # key -> the argument object (array, device array, record)
        self._not_compared = set()
        spellings = []
        types = []
        for i, a in enumerate(args):
            spellings.append(self._spell(a, str(i), top=i))
            types.append(numba_type_spelling(a))
        signature = None if None in types else "void(%s)" % ", ".join(types)
        arrays = {k: (v.copy(order="K") if v.ndim else np.array(v)) for k, v in
                  self._arrays.items()}
        return spellings, arrays, signature

    def _spell(self, a, key, top):
        array = host_array(a)
        if array is not None:
            if array.dtype.hasobject:
                raise NotKept("an array of Python objects as an argument")
            if array.dtype.kind == "V" and array.dtype.fields is None:
                raise NotKept("an array of dtype %s as an argument" % array.dtype)
            for k, other in self._arrays.items():
                if not np.shares_memory(array, other):
                    continue
                same = (array.__array_interface__["data"][0] ==
                        other.__array_interface__["data"][0] and array.shape == other.shape
                        and array.strides == other.strides and array.dtype == other.dtype)
                if not same:
                    raise NotKept("arguments %s and %s share memory" % (k, key))
                if is_device_array(self._sources[k]) and is_device_array(a) and "_" not in k:
                    # One device array passed twice: the kernel sees one memory.
                    return "@" + k
                # A host array passed twice: numba copies it to the device once per argument
                # and copies each back in turn, so the last copy is what the host array holds.
                self._not_compared.add(k)
            self._arrays[key] = array
            self._sources[key] = a
            return "in/arg%s.npy" % key
        if isinstance(a, np.void):
            # numba passes a record by reference to a copy on the device, copied back after.
            holder = np.array(a)
            self._arrays[key] = holder
            self._sources[key] = a
            return "record:in/arg%s.npy" % key
        if isinstance(a, tuple):
            parts = [self._spell(v, "%s_%d" % (key, j), top) for j, v in enumerate(a)]
            if hasattr(a, "_fields"):
                return "%s(%s)" % (type(a).__name__, ", ".join(
                    "%s=%s" % (f, p) for f, p in zip(a._fields, parts)))
            return "(%s%s)" % (", ".join(parts), "," if len(parts) == 1 else "")
        return scalar_spelling(a)

    def discard(self, case):
        if isinstance(case, Case):
            shutil.rmtree(case.folder, ignore_errors=True)

    def finish(self, case, args):
        """After the launch: the arrays as the simulator left them."""
        if not isinstance(case, Case):
            return {"kept": False, "reason": str(case)}
        os.makedirs(os.path.join(case.folder, "expected"), exist_ok=True)
        for k in case.compared:
            after = _after(case.sources[k])
            case.outputs[k] = after.copy(order="K")
            np.save(os.path.join(case.folder, "expected", "arg%s.npy" % k), after,
                    allow_pickle=False)
        return {"kept": True, "case": os.path.basename(case.folder)}

    @staticmethod
    def fresh_arguments(case, args):
        """The launch's arguments with every array (and record) replaced by a copy of its input,
        and `case.sources` pointing at the copies."""
        def fresh(a, key):
            if key in case.inputs and isinstance(a, np.void):
                copy = case.inputs[key].copy()
                case.sources[key] = copy[()]
                return case.sources[key]
            if key in case.inputs:
                copy = case.inputs[key].copy(order="K")
                case.sources[key] = copy
                return copy
            if isinstance(a, tuple):
                items = [fresh(v, "%s_%d" % (key, j)) for j, v in enumerate(a)]
                return type(a)(*items) if hasattr(a, "_fields") else tuple(items)
            return a
        return [fresh(a, str(i)) for i, a in enumerate(args)]

    @staticmethod
    def same_outputs(case, args):
        for k in case.compared:
            a, b = case.outputs[k], _after(case.sources[k])
            if not _same_contents(a, b):
                return False
        return True


def _same_contents(a, b):
    """Equal bytes; for a structured dtype, field by field (the simulator does not copy padding
    bytes, so they hold whatever the copy's memory held)."""
    if a.dtype.fields is None or a.dtype != b.dtype or a.shape != b.shape:
        return a.tobytes() == b.tobytes()
    return all(_same_contents(a[name], b[name]) for name in a.dtype.names)
