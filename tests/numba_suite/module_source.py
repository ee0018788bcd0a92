"""module_source: a launched kernel as a standalone .pyk module.

The kernel's own source, then, found through its free variables (globals and closure cells), the
device functions and @njit functions it calls, the modules and numba/numpy/math names it uses,
and the values numba freezes into it (scalars, tuples, numpy arrays, dtypes, enums, named
tuples), each written at module level under the name the kernel uses. A kernel defined inside a
function (numba's tests do this all the time) becomes a module-level kernel whose free variables
are module constants: what numba does with them, as it freezes closure variables at compile time.
"""

import ast
import builtins
import cmath
import collections
import enum
import importlib
import inspect
import math
import operator
import textwrap
import types

import numpy as np

import numba
from numba import cuda
from numba.core import types as nbtypes
from numba.cuda.simulator import kernel as sim_kernel

try:
    from numba.core.dispatcher import Dispatcher as CpuDispatcher
except ImportError:  # pragma: no cover
    CpuDispatcher = ()



# The decorator options a case carries (the rest change nothing pyk compiles).
CARRIED_OPTIONS = ("debug", "fastmath", "inline", "opt", "lineinfo", "max_registers",
                   "launch_bounds", "link")


def decorator_options(options):
    """`key=value` source of the carried decorator options that are set."""
    out = []
    for key in CARRIED_OPTIONS:
        value = options.get(key)
        if value is None or (key == "link" and not value):
            continue
        if callable(value):  # inline=cost_model: Python that numba calls to decide
            raise NotExtractable("`%s=` is a Python function" % key)
        out.append("link=%s" % link_source(value) if key == "link" else "%s=%r" % (key, value))
    return out


def link_source(link):
    """numba's link= (a file name, a LinkableCode such as cuda.CUSource, or a list of them) as
    Python source: a list of file names and `numba.cuda.CUSource(...)` calls."""
    items = list(link) if isinstance(link, (list, tuple, set)) else [link]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(repr(item))
            continue
        kind = type(item).__name__  # numba-cuda's CUSource, PTXSource, Cubin, ...
        data = item.data.decode() if isinstance(item.data, bytes) and kind in (
            "CUSource", "PTXSource") else item.data
        named = ", name=%r" % item._name if getattr(item, "_name", None) else ""
        out.append("numba.cuda.%s(%r%s)" % (kind, data, named))
    return "[%s]" % ", ".join(out)

class NotExtractable(Exception):
    pass


# Modules a kernel may name, and how a .pyk file imports them.
def _module_imports():
    table = {id(math): "math", id(cmath): "cmath", id(np): "numpy", id(numba): "numba",
             id(cuda): "numba.cuda", id(operator): "operator"}
    # numba.cuda's submodules kernels name (numba-cuda's suite names `types` and `bf16` from
    # it too): where one is missing from a numba, it is simply not in the table.
    for name in ("random", "libdevice", "fp16", "bf16", "types"):
        try:
            module = importlib.import_module("numba.cuda." + name)
        except ImportError:  # pragma: no cover
            continue
        table[id(module)] = "numba.cuda." + name
    return table


MODULES = _module_imports()

# Where named values (functions, types, constants) come from, searched in this order.
SOURCE_MODULES = ["math", "cmath", "numpy", "numba", "numba.types", "numba.cuda",
                  "numba.cuda.random", "operator"]


def _import_line(alias, qualified):
    if "." in qualified:
        parent, leaf = qualified.rsplit(".", 1)
        if leaf == alias:
            return "from %s import %s" % (parent, leaf)
        return "from %s import %s as %s" % (parent, leaf, alias)
    if qualified == alias:
        return "import %s" % qualified
    return "import %s as %s" % (qualified, alias)


def _find_named(value):
    """`(module, name)` of a module-level function, type or object `value`, or None."""
    for module_name in SOURCE_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # pragma: no cover
            continue
        preferred = getattr(value, "__name__", None)
        if preferred and getattr(module, preferred, None) is value:
            return module_name, preferred
        for name, v in vars(module).items():
            if v is value and not name.startswith("_"):
                return module_name, name
    return None


def _float_literal(x):
    x = float(x)
    if math.isnan(x):
        return "float('nan')"
    if math.isinf(x):
        return "float('inf')" if x > 0 else "-float('inf')"
    return repr(x)


def _scalar_literal(v):
    """Python source for a scalar constant, or None."""
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, enum.Enum):
        return None
    if isinstance(v, np.generic):
        kind = v.dtype.kind
        if kind in "iu":
            return "numpy.%s(%d)" % (v.dtype.name, int(v))
        if kind == "f":
            return "numpy.%s(%s)" % (v.dtype.name, _float_literal(v))
        if kind == "c":
            return "numpy.%s(complex(%s, %s))" % (v.dtype.name, _float_literal(v.real),
                                                   _float_literal(v.imag))
        return None
    if isinstance(v, int):
        return repr(v)
    if isinstance(v, float):
        return _float_literal(v)
    if isinstance(v, complex):
        return "complex(%s, %s)" % (_float_literal(v.real), _float_literal(v.imag))
    if v is None or isinstance(v, (str, bytes)):
        return repr(v)
    return None


def _value_literal(v):
    """Python source for a scalar constant or a (plain) tuple of them, or None."""
    if isinstance(v, tuple) and not hasattr(v, "_fields"):
        parts = [_value_literal(e) for e in v]
        if None in parts:
            return None
        return "(%s%s)" % (", ".join(parts), "," if len(parts) == 1 else "")
    return _scalar_literal(v)


def _dtype_literal(dt):
    """Python source that makes numpy dtype `dt`."""
    if dt.fields is None and dt.subdtype is None:
        return "numpy.dtype(%r)" % dt.str if dt.byteorder == ">" else "numpy.%s" % (
            "bool_" if dt == np.bool_ else dt.name)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return "(%s, %r)" % (_dtype_literal(base), shape)
    spec = {"names": list(dt.names),
            "formats": [], "offsets": [], "itemsize": dt.itemsize}
    formats = []
    for name in dt.names:
        field = dt.fields[name]
        formats.append(_dtype_literal(field[0]))
        spec["offsets"].append(field[1])
    return ("numpy.dtype({'names': %r, 'formats': [%s], 'offsets': %r, 'itemsize': %d}%s)"
            % (spec["names"], ", ".join(formats), spec["offsets"], dt.itemsize,
               ", align=True" if dt.isalignedstruct else ""))


MAX_ARRAY_ELEMENTS = 1 << 16


def _array_literal(a):
    if a.dtype.hasobject:
        raise NotExtractable("a module array of Python objects")
    if a.size > MAX_ARRAY_ELEMENTS:
        raise NotExtractable("a module array of %d elements" % a.size)
    if a.dtype.fields is not None:
        items = [tuple(_plain(x) for x in rec) for rec in a.reshape(-1).tolist()]
        return "numpy.array(%r, dtype=%s).reshape(%r)" % (items, _dtype_literal(a.dtype),
                                                           a.shape)
    values = a.tolist()
    text = repr(values)
    if a.dtype.kind == "f" or a.dtype.kind == "c":
        text = _nested_literal(values)
    return "numpy.array(%s, dtype=%s)" % (text, _dtype_literal(a.dtype))


def _plain(x):
    return x


def _nested_literal(v):
    if isinstance(v, list):
        return "[" + ", ".join(_nested_literal(x) for x in v) + "]"
    if isinstance(v, complex):
        return "complex(%s, %s)" % (_float_literal(v.real), _float_literal(v.imag))
    if isinstance(v, float):
        return _float_literal(v)
    return repr(v)


class ModuleBuilder:
    """The text of one .pyk module, built from the kernel outwards."""

    def __init__(self):
        self.imports = []      # import lines, in order
        self.constants = []    # `NAME = value` lines
        self.functions = []    # function and class sources, callees first
        self.bound = {}        # name -> identity of what it is bound to
        self.in_progress = set()

    def _bind(self, name, identity):
        """True when `name` is new; False when it is bound to the same thing already."""
        known = self.bound.get(name)
        if known is None:
            self.bound[name] = identity
            return True
        if known == identity:
            return False
        raise NotExtractable("the name `%s` means two different things in the functions a "
                             "kernel uses" % name)

    def require_import(self, alias, qualified):
        if self._bind(alias, ("import", qualified)):
            self.imports.append(_import_line(alias, qualified))

    def value(self, name, v):
        """Makes `name` mean `v` at module level."""
        if name in dir(builtins) and getattr(builtins, name) is v:
            return
        if isinstance(v, types.ModuleType):
            qualified = MODULES.get(id(v))
            if qualified is None:
                raise NotExtractable("the module `%s` (%s)" % (name, v.__name__))
            self.require_import(name, qualified)
            return
        if isinstance(v, sim_kernel.FakeCUDAKernel):
            self.jitted_function(name, v.fn, self._cuda_decorator(v), id(v))
            return
        if CpuDispatcher and isinstance(v, CpuDispatcher):
            self.require_import("numba", "numba")
            self.jitted_function(name, v.py_func, "@numba.njit", id(v))
            return
        literal = _scalar_literal(v)
        if literal is not None:
            if "numpy." in literal:
                self.require_import("numpy", "numpy")
            self._constant(name, literal, ("const", repr(literal)))
            return
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            parts = []
            for x in v:
                lit = _scalar_literal(x)
                if lit is None:
                    raise NotExtractable("the tuple `%s` holds a %s" % (name, type(x).__name__))
                parts.append(lit)
            if any("numpy." in p for p in parts):
                self.require_import("numpy", "numpy")
            text = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            self._constant(name, text, ("const", text))
            return
        if isinstance(v, np.ndarray):
            self.require_import("numpy", "numpy")
            self._constant(name, _array_literal(v), ("array", id(v)))
            return
        if isinstance(v, np.dtype):
            self.require_import("numpy", "numpy")
            self._constant(name, _dtype_literal(v), ("dtype", str(v)))
            return
        if isinstance(v, enum.Enum):
            cls = type(v)
            self.enum_class(cls.__name__, cls)
            self._constant(name, "%s.%s" % (cls.__name__, v.name), ("enum", id(v)))
            return
        if isinstance(v, type) and issubclass(v, enum.Enum):
            self.enum_class(name, v)
            return
        if isinstance(v, type) and issubclass(v, tuple) and hasattr(v, "_fields"):
            if self._bind(name, ("namedtuple", id(v))):
                self.require_import("namedtuple", "collections.namedtuple")
                self.constants.append("%s = namedtuple(%r, %r)" % (name, v.__name__,
                                                                   list(v._fields)))
            return
        if isinstance(v, nbtypes.Record):
            self.require_import("numpy", "numpy")
            self.require_import("numba", "numba")
            self._constant(name, "numba.from_dtype(%s)" % _dtype_literal(v.dtype),
                           ("record", str(v)))
            return
        if type(v).__name__ == "FFI" and type(v).__module__.startswith("cffi"):
            self.require_import("cffi", "cffi")
            self._constant(name, "cffi.FFI()", ("ffi", id(v)))
            return
        if callable(getattr(v, "pyk_source", None)):
            # A value a harness keeps in a form it can write back (compile_only.DeclaredDevice:
            # a cuda.declare_device call).
            text, imports = v.pyk_source()
            for alias, qualified in imports:
                self.require_import(alias, qualified)
            self._constant(name, text, ("source", id(v)))
            return
        found = _find_named(v)
        if found is not None:
            module, attr = found
            self.require_import(name, module + "." + attr)
            return
        if isinstance(v, types.FunctionType):
            raise NotExtractable("`%s` is a plain Python function (not jitted)" % name)
        raise NotExtractable("`%s` is a %s, which has no .pyk spelling"
                             % (name, type(v).__name__))

    def _constant(self, name, text, identity):
        if self._bind(name, identity):
            self.constants.append("%s = %s" % (name, text))

    def _cuda_decorator(self, k):
        self.require_import("numba", "numba")
        sig = getattr(k, "_pyk_signature", None)
        options = dict(getattr(k, "_pyk_options", {}) or {})
        args = []
        if sig is not None:
            args.append(self._signature_source(sig))
        if k._device:
            args.append("device=True")
        args += decorator_options(options)
        return "@numba.cuda.jit(%s)" % ", ".join(args)

    def _signature_source(self, sig):
        """The decorator's signature: numba's string syntax, or, where it names record types
        (which the string syntax cannot spell), a type expression whose records are module
        constants made by numba.from_dtype. A list of signatures is a list of those."""
        if isinstance(sig, list):
            return "[%s]" % ", ".join(self._signature_source(s) for s in sig)
        types_in = list(sig) if isinstance(sig, tuple) else list(getattr(sig, "args", ()) or ())
        if not any(_mentions_record(t) for t in types_in):
            return repr(signature_text(sig))
        if not isinstance(sig, tuple) and getattr(sig, "return_type", nbtypes.void) not in (
                nbtypes.void, nbtypes.none):
            raise NotExtractable("a record signature with a return type")
        self.require_import("numpy", "numpy")
        return "numba.void(%s)" % ", ".join(self._type_expression(t) for t in types_in)

    def _type_expression(self, t):
        if isinstance(t, nbtypes.Record):
            name = "record_type_%d" % (len(self.constants) + 1)
            for line in self.constants:  # one constant per record type
                if line.endswith(" = numba.from_dtype(%s)" % _dtype_literal(t.dtype)):
                    return line.split(" = ")[0]
            self._constant(name, "numba.from_dtype(%s)" % _dtype_literal(t.dtype),
                           ("record", str(t)))
            return name
        if isinstance(t, nbtypes.Array):
            if t.ndim == 0 or (t.ndim == 1 and t.layout == "F"):
                # No subscript spells these (numba's float64[()] raises; [::1] is C).
                return "numba.types.Array(%s, %d, %r)" % (self._type_expression(t.dtype),
                                                          t.ndim, t.layout)
            dims = [":"] * t.ndim
            if t.layout == "C":
                dims[-1] = "::1"
            elif t.layout == "F":
                dims[0] = "::1"
            return "%s[%s]" % (self._type_expression(t.dtype), ", ".join(dims))
        if isinstance(t, (nbtypes.Integer, nbtypes.Float, nbtypes.Complex, nbtypes.Boolean)):
            return "numba.%s" % ("boolean" if isinstance(t, nbtypes.Boolean) else str(t))
        raise NotExtractable("a record signature with the type %s" % t)

    def enum_class(self, name, cls):
        if not self._bind(name, ("class", id(cls))):
            return
        base = "IntEnum" if issubclass(cls, enum.IntEnum) else "Enum"
        self.require_import(base, "enum." + base)
        lines = ["class %s(%s):" % (name, base)]
        for member in cls:
            literal = _value_literal(member.value)
            if literal is None:
                raise NotExtractable("the enum `%s` has a member of type %s"
                                     % (name, type(member.value).__name__))
            lines.append("    %s = %s" % (member.name, literal))
        self.functions.append("\n".join(lines) + "\n")

    def jitted_function(self, name, fn, decorator, identity):
        if not self._bind(name, ("function", identity)):
            return
        if name in self.in_progress:
            return
        self.in_progress.add(name)
        source = function_source(fn, name)
        closure = inspect.getclosurevars(fn)
        for var, v in list(closure.nonlocals.items()) + list(closure.globals.items()):
            self.value(var, v)
        # The globals of the functions defined inside it (numba's closures), which
        # getclosurevars does not look into.
        for code in list(_code_objects(fn.__code__))[1:]:
            for var in code.co_names:
                if var in fn.__globals__ and var not in closure.globals:
                    self.value(var, fn.__globals__[var])
        self.functions.append(decorator + "\n" + source)

    def text(self):
        parts = ["# Extracted from numba's CUDA test suite by tests/numba_suite.",
                 "\n".join(self.imports)]
        if self.constants:
            parts.append("\n".join(self.constants))
        parts.extend(self.functions)
        return "\n\n".join(p for p in parts if p) + "\n"


# Source texts run by `exec` (numba's tests generate kernels from templates), recorded by
# record_exec_sources: a function made by exec has no file for inspect to read.
EXEC_SOURCES = []


def record_exec_sources():
    original = builtins.exec

    def recording_exec(source, *args, **kwargs):
        if isinstance(source, str):
            EXEC_SOURCES.append(source)
        return original(source, *args, **kwargs)

    builtins.exec = recording_exec


def _code_objects(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _same_code(a, b):
    return (a.co_code == b.co_code and a.co_names == b.co_names and
            a.co_varnames == b.co_varnames and
            [c for c in a.co_consts if not isinstance(c, types.CodeType)] ==
            [c for c in b.co_consts if not isinstance(c, types.CodeType)])


def _exec_source_lines(fn):
    code = fn.__code__
    for text in reversed(EXEC_SOURCES):
        try:
            compiled = compile(text, "<string>", "exec")
            tree = ast.parse(text)
        except SyntaxError:
            continue
        if not any(c.co_name == code.co_name and c.co_firstlineno == code.co_firstlineno and
                   _same_code(c, code) for c in _code_objects(compiled)):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.FunctionDef) and node.name == code.co_name):
                continue
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if code.co_firstlineno in (first, node.lineno):
                return text.splitlines(keepends=True)[first - 1:node.end_lineno]
    return None


def function_source(fn, name):
    """The function's source without its decorators, named `name`, at column 0."""
    lines = _exec_source_lines(fn) if fn.__code__.co_filename == "<string>" else None
    if lines is None:
        try:
            lines, _ = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise NotExtractable("the source of `%s` is not available (%s)" % (name, e))
    text = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        raise NotExtractable("the source of `%s` does not parse on its own" % name)
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise NotExtractable("`%s` is not defined by a def statement (a lambda?)" % name)
    fdef = tree.body[0]
    body_lines = text.splitlines()[fdef.lineno - 1:fdef.end_lineno]
    first = body_lines[0]
    if fdef.name != name:
        first = first.replace("def %s(" % fdef.name, "def %s(" % name, 1)
    return "\n".join([first] + body_lines[1:]) + "\n"


def signature_text(sig):
    """A decorator's signature in numba's string syntax."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, list):
        raise NotExtractable("a list of signatures in the decorator")
    if isinstance(sig, tuple):
        return "void(%s)" % ", ".join(type_text(t) for t in sig)
    args = getattr(sig, "args", None)
    if args is not None and sig.return_type is None:  # numba's args-only signature
        return "(%s%s)" % (", ".join(type_text(t) for t in args), "," if len(args) == 1 else "")
    if args is not None:
        return "%s(%s)" % (type_text(sig.return_type), ", ".join(type_text(t) for t in args))
    raise NotExtractable("a decorator signature of type %s" % type(sig).__name__)


def _mentions_record(t):
    if isinstance(t, nbtypes.Record):
        return True
    if isinstance(t, nbtypes.Array):
        return isinstance(t.dtype, nbtypes.Record)
    return False


def type_text(t):
    if isinstance(t, str):
        return t
    if isinstance(t, nbtypes.Array):
        if t.ndim == 0 or (t.ndim == 1 and t.layout == "F"):
            return "Array(%s, %d, %r)" % (type_text(t.dtype), t.ndim, t.layout)
        dims = [":"] * t.ndim
        if t.layout == "C":
            dims[-1] = "::1"
        elif t.layout == "F":
            dims[0] = "::1"
        return "%s[%s]" % (type_text(t.dtype), ", ".join(dims))
    if isinstance(t, nbtypes.Record):
        raise NotExtractable("a record type in the decorator's signature")
    if isinstance(t, nbtypes.CPointer):
        return "CPointer(%s)" % type_text(t.dtype)
    if isinstance(t, (nbtypes.NPDatetime, nbtypes.NPTimedelta)):  # numba.types' constructors
        return "%s('%s')" % ("NPDatetime" if isinstance(t, nbtypes.NPDatetime) else "NPTimedelta",
                             t.unit)
    if isinstance(t, (nbtypes.UniTuple,)):
        return "UniTuple(%s, %d)" % (type_text(t.dtype), t.count)
    if isinstance(t, nbtypes.Tuple):
        return "Tuple((%s,))" % ", ".join(type_text(x) for x in t.types)
    if t == nbtypes.void or t == nbtypes.none:
        return "void"
    if isinstance(t, nbtypes.Boolean):
        return "boolean"  # str() gives `bool`, which numba's signature strings do not take
    return str(t)


def module_for_kernel(k, enum_arguments=()):
    """`(text, kernel name)` of a standalone module that defines the launched kernel (and the
    classes of the Enum members it is launched with, which `pykc run` finds there)."""
    builder = ModuleBuilder()
    name = getattr(k.fn, "__name__", None)
    if not name or not name.isidentifier():
        raise NotExtractable("the kernel has no usable name")
    builder.jitted_function(name, k.fn, builder._cuda_decorator(k), id(k))
    for member in enum_arguments:
        builder.enum_class(type(member).__name__, type(member))
    return builder.text(), name
