"""The conformance cases: the single source of truth for what run_conformance.py launches.
(Longer than 600 lines: it is one table, a case per entry, kept whole so that a name is unique.)

A case names a kernel in kernels/*.pyk, the launch (grid, block, dynamic shared bytes) and its
arguments:
  Arr(dtype, shape, fill, ...)  an array, built with numpy from a per-case seed, passed to pykc as
                                an .npy file; order="F" stores it Fortran-ordered (pyk must keep
                                that layout); compare="exact"|"sorted"|"skip" says how the value
                                after the run is checked ("auto": exact for ints/bools, tolerance
                                for floats; "sorted": sorted along axis 0 first, for results whose
                                order depends on the order of atomics; "skip": only shape/dtype).
  Scalar(dtype, value)          a typed scalar, passed to pykc as "dtype:value".
Tolerance: float32/complex64 rtol=1e-5 atol=1e-6; float64/complex128 rtol=1e-12 atol=1e-13; a
case may loosen it (rtol/atol, a number or {dtype name: number}) and says why in a comment.
`expect`, where given, recomputes some outputs with numpy from the inputs and checks the
simulator against them, so the reference itself is checked ({arg index: expected array}).
"""

import os
import zlib

import numpy as np

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")

_INT_DEFAULT = {"i": (-100, 100), "u": (0, 200)}


class Arr:
    def __init__(self, dtype, shape, fill="random", lo=None, hi=None, value=None, order="C",
                 compare="auto"):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        self.fill = fill
        self.lo = lo
        self.hi = hi
        self.value = value
        self.order = order
        self.compare = compare

    def build(self, rng):
        dt, shape = self.dtype, self.shape
        if callable(self.fill):
            a = np.asarray(self.fill(rng, shape)).astype(dt).reshape(shape)
        elif self.fill == "zeros":
            a = np.zeros(shape, dt)
        elif self.fill == "full":
            a = np.full(shape, self.value, dt)
        elif self.fill == "arange":
            lo = 0 if self.lo is None else self.lo
            a = (np.arange(int(np.prod(shape))) + lo).astype(dt).reshape(shape)
        elif self.fill == "values":
            a = np.array(self.value, dtype=dt).reshape(shape)
        elif self.fill == "random":
            if dt.kind in "iu":
                lo, hi = _INT_DEFAULT[dt.kind]
                info = np.iinfo(dt)
                lo = lo if self.lo is None else self.lo
                hi = hi if self.hi is None else self.hi
                if self.lo == "min":
                    lo = info.min
                if self.hi == "max":
                    hi = info.max
                a = rng.integers(lo, hi, size=shape, dtype=dt, endpoint=(self.hi == "max"))
            elif dt.kind == "f":
                lo = -1.0 if self.lo is None else self.lo
                hi = 1.0 if self.hi is None else self.hi
                a = rng.uniform(lo, hi, size=shape).astype(dt)
            elif dt.kind == "c":
                lo = -1.0 if self.lo is None else self.lo
                hi = 1.0 if self.hi is None else self.hi
                a = (rng.uniform(lo, hi, size=shape) + 1j * rng.uniform(lo, hi, size=shape)).astype(dt)
            elif dt.kind == "b":
                a = rng.random(size=shape) < 0.5
            else:
                raise ValueError("no random fill for %s" % dt)
        else:
            raise ValueError("unknown fill %r" % (self.fill,))
        if self.order == "F":
            a = np.asfortranarray(a)
        else:
            a = np.ascontiguousarray(a)
        return a


class Scalar:
    def __init__(self, dtype, value):
        self.dtype = "bool" if dtype == "bool" else np.dtype(dtype).name
        self.value = value

    def sim_value(self):
        if self.dtype == "bool":
            return bool(self.value)
        return np.dtype(self.dtype).type(self.value)

    def cli(self):
        if self.dtype == "bool":
            return "bool:%s" % ("true" if self.value else "false")
        v = self.sim_value()
        if np.dtype(self.dtype).kind == "f":
            return "%s:%r" % (self.dtype, float(v))
        return "%s:%d" % (self.dtype, int(v))


class Rec:
    """One record (numba's np.void argument): `fill(rng)` gives a 0-d structured array; the
    simulator gets the np.void of it (written in place), pyk `record:x.npy`."""

    def __init__(self, fill):
        self.fill = fill

    def build(self, rng):
        return np.asarray(self.fill(rng))


class Tup:
    """A tuple of arguments (arrays, records, scalars, tuples); with `fields` and `cls`, a
    named tuple of that class."""

    def __init__(self, *elements, cls=None, fields=None):
        self.elements = elements
        self.cls = cls
        self.fields = fields


class Alias:
    """Argument `index` (an array) again: one device array passed twice, `@index` for pyk."""

    def __init__(self, index):
        self.index = index


def build_value(spec, rng_for):
    """The value of an argument spec: an array, a 0-d record array, a scalar, a tuple of values,
    or the Alias itself. `rng_for()` gives a fresh generator for each array."""
    if isinstance(spec, Arr):
        return spec.build(rng_for())
    if isinstance(spec, Rec):
        return spec.build(rng_for())
    if isinstance(spec, Tup):
        return tuple(build_value(e, rng_for) for e in spec.elements)
    if isinstance(spec, Alias):
        return spec
    return spec.sim_value()


class Case:
    def __init__(self, name, file, kernel, grid, block, args, shared=0, rtol=None, atol=None,
                 kind="kernel", expect=None, known_gap=None, compiled_math=False,
                 compiled_float16=False, backends=None, backends_reason=""):
        self.name = name
        # The backends (`pykc run --backend`) the case holds for, with the reason (None: all).
        self.backends = backends
        self.backends_reason = backends_reason
        # The simulator computes numba.cuda.random's normals as compiled numba does (float32
        # libm calls; run_conformance.compiled_float32_math) rather than in double precision.
        self.compiled_math = compiled_math
        # The simulator's float16 casts to integers and cuda.fp16 functions behave as compiled
        # numba 0.56's (run_conformance.compiled_float16).
        self.compiled_float16 = compiled_float16
        # A feature pyk does not have yet, said in words: the case is expected to fail on the
        # pyk side (XFAIL), and passing is reported (XPASS) so the mark is removed.
        self.known_gap = known_gap
        self.path = os.path.join(KERNELS, file)
        self.kernel = kernel
        self.grid = grid
        self.block = block
        self.args = args
        self.shared = shared
        self.rtol = rtol
        self.atol = atol
        self.kind = kind
        self.expect = expect

    def build_inputs(self):
        seed = zlib.crc32(self.name.encode())
        out = []
        for i, spec in enumerate(self.args):
            count = [0]

            def rng_for(i=i, count=count):
                count[0] += 1
                return np.random.default_rng([seed, i] + ([count[0]] if count[0] > 1 else []))
            out.append(build_value(spec, rng_for))
        return out

    def compare_mode(self, i):
        return getattr(self.args[i], "compare", "auto")


# ---------------------------------------------------------------------------------------------
# Fill helpers
# ---------------------------------------------------------------------------------------------

def nonzero_ints(lo, hi):
    def f(rng, shape):
        a = rng.integers(lo, hi, size=shape)
        a[a == 0] = 1
        return a
    return f


def signed_magnitudes(lo, hi):
    def f(rng, shape):
        return rng.uniform(lo, hi, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    return f


def choice(values):
    return lambda rng, shape: rng.choice(np.array(values), size=shape)


def quarters(lo, hi):
    return lambda rng, shape: rng.integers(lo, hi, size=shape) / 4.0


def with_specials(specials, lo, hi):
    """Uniform floats with the special values placed at the front."""
    def f(rng, shape):
        a = rng.uniform(lo, hi, size=shape).ravel()
        a[:len(specials)] = specials
        return a.reshape(shape)
    return f


def uint_specials(specials, bits):
    def f(rng, shape):
        a = rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).ravel()
        a[:len(specials)] = specials
        return a.reshape(shape)
    return f


def per_block(fills, block):
    """Block b's elements come from fills[b] (each a function rng, n -> array)."""
    def f(rng, shape):
        return np.concatenate([fl(rng, block) for fl in fills]).reshape(shape)
    return f


def nan_sprinkled(lo, hi, frac):
    def f(rng, shape):
        a = rng.uniform(lo, hi, size=shape)
        a[rng.random(size=shape) < frac] = np.nan
        return a
    return f


def random_records(dtype):
    """Structured arrays of `dtype`, every field (sub-arrays and nested records too) random small
    numbers; padding zero."""
    def fill_fields(a, rng):
        for name in a.dtype.names:
            part = a[name]
            if part.dtype.names:
                fill_fields(part, rng)
            elif part.dtype.kind == "f":
                part[...] = rng.uniform(-10.0, 10.0, size=part.shape)
            else:
                part[...] = rng.integers(0, 50, size=part.shape)

    def f(rng, shape):
        a = np.zeros(shape, dtype)
        fill_fields(a, rng)
        return a
    return f


def cmath_special_arguments():
    """x + yj for x, y among signed zeros, +-1, 1.5, -3.5, +-pi, +-inf and NaN, where none of
    cmath's functions raises in CPython (numba's tests filter their values the same way)."""
    import cmath
    import itertools
    import math
    reals = [-0.0, 0.0, 1.0, -1.0, 1.5, -3.5, -math.pi, math.pi, -math.inf, math.inf, math.nan]
    names = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "log",
             "log10", "sin", "sinh", "sqrt", "tan", "tanh", "polar", "phase"]
    out = []
    for x, y in itertools.product(reals, reals):
        try:
            for name in names:
                getattr(cmath, name)(complex(x, y))
        except (ValueError, OverflowError):
            continue
        out.append(complex(x, y))
    return out


def complex_right_half(rng, shape):
    return rng.uniform(0.2, 2.0, size=shape) + 1j * rng.uniform(-1.5, 1.5, size=shape)


# ---------------------------------------------------------------------------------------------
# numpy expectations for the reference
# ---------------------------------------------------------------------------------------------

def _wrap(x, dt):
    return np.asarray(x).astype(np.int64).astype(dt) if np.dtype(dt).kind in "iu" else x


def expect_floordiv(a, b, q, r, lit):
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    cols = [a64 // 7, a64 % 7, a64 // -7, a64 % -7, -a64 // 3, (a64 - 50) % 16, -17 // b64,
            17 % b64]
    return {2: a64 // b64, 3: a64 % b64, 4: np.stack(cols, axis=1)}


def expect_div_zero(a, b, iq, ir, fq):
    with np.errstate(all="ignore"):
        return {2: np.floor_divide(a, b), 3: np.remainder(a, b), 4: a / b}


def expect_int_wrap(i32, u8, i8, i16, u16, *outs):
    w = lambda x, dt: np.asarray(x, dtype=np.int64).astype(dt)  # noqa: E731
    a, u, s8, s16, v16 = (x.astype(np.int64) for x in (i32, u8, i8, i16, u16))
    return {
        0: w(a + 2000000000, np.int32),
        5: np.stack([w(a * 65537 + 12345, np.int32), w(a * a, np.int32)], axis=1),
        6: np.stack([w(u + 200, np.uint8), w(u * u, np.uint8), w(u - 100, np.uint8)], axis=1),
        7: np.stack([w(s8 * 3 - 7, np.int8), w(-s8 * 2, np.int8)], axis=1),
        8: w(s16 * s16, np.int16),
        9: w(v16 - 1000, np.uint16),
    }


def expect_splitmix(seeds, out):
    with np.errstate(all="ignore"):
        z = seeds + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return {1: z ^ (z >> np.uint64(31))}


def expect_block_sums(x, f, isum, fsum):
    n = isum.size * 128
    xi = np.zeros(n, np.int64)
    xi[:x.size] = x
    return {2: xi.reshape(-1, 128).sum(axis=1)}


def expect_scan(x, out):
    return {1: np.cumsum(x.reshape(-1, 128).astype(np.int64), axis=1).reshape(-1)}


def expect_matmul(A, B, C):
    return {2: A.astype(np.float64) @ B.astype(np.float64)}


def expect_transpose(a, out):
    return {1: a.T}


def expect_sorted_rows(x, m, s, mv):
    mat = m.reshape(-1, 3, 3)
    return {2: np.sort(x, axis=1), 3: (mat * np.array([1, 2, 3])).sum(axis=2)}


def expect_hist(vals, bins, sub):
    b = np.bincount(vals % bins.size, minlength=bins.size).astype(np.int64)
    s = np.bincount(vals % sub.size, weights=vals, minlength=sub.size).astype(np.int64)
    return {1: bins.astype(np.int64) + b, 2: sub.astype(np.int64) - s}


def expect_float_add(x, acc, neg):
    i = np.arange(x.size)
    return {1: np.bincount(i % acc.size, weights=x, minlength=acc.size),
            2: -np.bincount((i * 7) % neg.size, weights=x, minlength=neg.size)}


def expect_minmax(x, mx, mn):
    i = np.arange(x.size)
    emx, emn = mx.copy(), mn.copy()
    np.maximum.at(emx, i % mx.size, x)
    np.minimum.at(emn, (i // 3) % mn.size, x)
    return {1: emx, 2: emn}


def expect_bitwise(x, masks, acc_and, acc_or, acc_xor):
    k = np.arange(x.size) % acc_or.size
    a, o, e = acc_and.copy(), acc_or.copy(), acc_xor.copy()
    np.bitwise_and.at(a, k, masks)
    np.bitwise_or.at(o, k, x)
    np.bitwise_xor.at(e, k, x)
    return {2: a, 3: o, 4: e}


def expect_inc_dec(limit):
    def f(counters, olds, lim):
        n, L = olds.shape[0], int(limit)
        c0, c1 = int(counters[0]), int(counters[1])
        inc = [(c0 + k) % (L + 1) for k in range(n)]
        dec = [(c1 - k) % (L + 1) for k in range(n)]
        return {0: np.array([(c0 + n) % (L + 1), (c1 - n) % (L + 1)]),
                1: np.stack([np.sort(inc), np.sort(dec)], axis=1)}
    return f


def expect_tickets(counter, tickets):
    return {0: np.array([tickets.size]), 1: np.arange(tickets.size)}


def expect_shared_hist(vals, hist, per_block_):
    blocks = per_block_.shape[0]
    pb = np.zeros_like(per_block_)
    padded = np.full(blocks * 128, -1)
    padded[:vals.size] = vals
    for b in range(blocks):
        v = padded[b * 128:(b + 1) * 128]
        v = v[v >= 0]
        pb[b, :16] = np.bincount(v % 16, minlength=16)
        pb[b, 16] = pb[b, :16].max()
    return {1: np.bincount(vals % 16, minlength=16), 2: pb}


def expect_shuffle(x, out, red):
    n = x.size
    t = np.arange(n)
    lane = t % 32
    base = t - lane
    cols = [x[base + 3], x[base + (lane + 5) % 32],
            np.where(lane >= 4, x[np.maximum(t - 4, 0)], x),
            np.where(lane + 7 <= 31, x[np.minimum(t + 7, n - 1)], x),
            x[base + (lane ^ 21)]]
    return {1: np.stack(cols, axis=1)}


def expect_popc_etc(u, s, w, out, wout):
    def popc(v):
        return np.array([bin(int(t)).count("1") for t in v])

    def clz32(v):
        return np.array([32 - int(t).bit_length() for t in v])

    def ffs(v):
        return np.array([(int(t) & -int(t)).bit_length() for t in v])

    def brev(v):
        return np.array([int("{:032b}".format(int(t))[::-1], 2) for t in v])

    return {3: np.stack([popc(u), clz32(u), ffs(u), brev(u), popc(s), clz32(s)], axis=1),
            4: popc(w)}


# ---------------------------------------------------------------------------------------------
# The cases. Keep grids small: the simulator runs every thread as a Python thread.
# ---------------------------------------------------------------------------------------------

def _cases():
    c = []
    add = c.append

    # --- launch geometry -------------------------------------------------------------------
    add(Case("index_1d", "index_1d.pyk", "index_1d", 3, 64,
             [Arr("int32", (180, 7), "full", value=-1)]))
    add(Case("index_2d", "index_2d.pyk", "index_2d", (3, 2), (8, 8),
             [Arr("int64", (21, 13, 5), "full", value=-1)]))
    add(Case("index_3d", "index_3d.pyk", "index_3d", (2, 2, 2), (4, 4, 2),
             [Arr("int32", (7, 8, 3, 6), "full", value=-1)]))
    add(Case("thread_ids", "thread_ids.pyk", "thread_ids", (2, 3), (32, 2, 2),
             [Arr("int32", (768, 14), "full", value=-1)]))
    add(Case("grid_stride_saxpy", "grid_stride.pyk", "saxpy_stride", 2, 64,
             [Scalar("float32", 1.75), Arr("float32", 1000), Arr("float32", 1000),
              Arr("float32", 1000, "zeros")]))
    add(Case("grid_stride_2d", "grid_stride.pyk", "scale_2d_stride", (2, 2), (8, 8),
             [Arr("float64", (37, 45)), Arr("float64", (37, 45), "zeros"), Scalar("int64", 3)]))

    # --- integer and float arithmetic -------------------------------------------------------
    for dt in ("int64", "int32"):
        add(Case("int_floordiv_mod_" + dt, "int_floordiv_mod.pyk", "int_floordiv_mod", 5, 64,
                 [Arr(dt, 300, lo=-1000, hi=1000), Arr(dt, 300, nonzero_ints(-9, 10)),
                  Arr(dt, 300, "zeros"), Arr(dt, 300, "zeros"), Arr(dt, (300, 8), "zeros")],
                 expect=expect_floordiv))
    add(Case("int_div_zero", "int_div_zero.pyk", "int_div_zero", 2, 64,
             [Arr("int64", 128, lo=-20, hi=20), Arr("int64", 128, lo=-3, hi=4),
              Arr("int64", 128, "zeros"), Arr("int64", 128, "zeros"),
              Arr("float64", 128, "zeros")],
             expect=expect_div_zero))
    for dt in ("float64", "float32"):
        add(Case("float_floordiv_mod_" + dt, "float_floordiv_mod.pyk", "float_floordiv_mod", 4,
                 64, [Arr(dt, 250, lo=-10.0, hi=10.0), Arr(dt, 250, signed_magnitudes(0.3, 4.0)),
                      Arr(dt, (250, 5), "zeros")]))
    add(Case("true_division", "true_division.pyk", "true_division", 4, 64,
             [Arr("int32", 256, lo=-50, hi=50), Arr("int32", 256, nonzero_ints(-20, 20)),
              Arr("float32", 256, lo=-4.0, hi=4.0), Arr("float32", 256, signed_magnitudes(0.5, 3.0)),
              Arr("float64", (256, 5), "zeros"), Arr("float32", 256, "zeros")]))
    add(Case("power", "power.pyk", "power", 4, 64,
             [Arr("int32", 256, lo=-9, hi=10), Arr("int64", 256, lo=0, hi=7),
              Arr("float64", 256, lo=0.5, hi=3.0), Arr("float64", 256, lo=-2.0, hi=2.0),
              Arr("float32", 256, lo=-2.0, hi=2.0), Arr("int64", (256, 4), "zeros"),
              Arr("float64", (256, 4), "zeros"), Arr("float32", (256, 2), "zeros")]))
    add(Case("int_wrap", "int_wrap.pyk", "int_wrap", 4, 64,
             [Arr("int32", 256, lo="min", hi="max"), Arr("uint8", 256, lo=0, hi=256),
              Arr("int8", 256, lo=-128, hi=128), Arr("int16", 256, lo="min", hi="max"),
              Arr("uint16", 256, lo=0, hi=2000), Arr("int32", (256, 2), "zeros"),
              Arr("uint8", (256, 3), "zeros"), Arr("int8", (256, 2), "zeros"),
              Arr("int16", 256, "zeros"), Arr("uint16", 256, "zeros")],
             expect=expect_int_wrap))
    add(Case("shifts_bitwise", "shifts_bitwise.pyk", "shifts_bitwise", 4, 64,
             [Arr("int32", 256, lo="min", hi="max"), Arr("int32", 256, lo="min", hi="max"),
              Arr("int32", 256, lo=0, hi=32), Arr("uint32", 256, lo=0, hi="max"),
              Arr("uint64", 256, lo=0, hi="max"), Arr("uint64", 256, lo=0, hi=64),
              Arr("int32", (256, 7), "zeros"), Arr("uint32", (256, 5), "zeros"),
              Arr("uint64", (256, 5), "zeros")]))
    add(Case("compare_chain_int", "compare_chain.pyk", "compare_chain", 4, 64,
             [Arr("int32", 256, lo=-4, hi=5), Arr("int32", 256, lo=-4, hi=5),
              Arr("int32", 256, lo=-4, hi=5), Arr("bool", (256, 8), "zeros"),
              Arr("int32", 256, "zeros")]))
    nanvals = [-4.0, -2.5, -1.0, 0.0, 1.0, 2.5, 3.0, np.nan]
    add(Case("compare_chain_float_nan", "compare_chain.pyk", "compare_chain", 4, 64,
             [Arr("float64", 256, choice(nanvals)), Arr("float64", 256, choice(nanvals)),
              Arr("float64", 256, choice(nanvals)), Arr("bool", (256, 8), "zeros"),
              Arr("int64", 256, "zeros")]))
    add(Case("bool_arrays", "bool_arrays.pyk", "bool_arrays", 3, 64,
             [Arr("bool", 190), Arr("bool", 190), Arr("int32", 190, lo=-2, hi=3),
              Arr("bool", (190, 7), "zeros"), Arr("int32", 190, "zeros")]))
    add(Case("mixed_promotion", "mixed_promotion.pyk", "mixed_promotion", 4, 64,
             [Arr("int32", 256, lo=-1000, hi=1000), Arr("int16", 256, nonzero_ints(-300, 300)),
              Arr("int8", 256, lo=-100, hi=100), Arr("uint8", 256, lo=0, hi=256),
              Arr("uint32", 256, lo=0, hi="max"), Arr("float32", 256, lo=-10.0, hi=10.0),
              Arr("float64", 256, lo=-10.0, hi=10.0), Arr("float64", (256, 8), "zeros"),
              Arr("int64", (256, 4), "zeros")]))
    add(Case("splitmix64_uint64", "splitmix64.pyk", "splitmix64", 2, 64,
             [Arr("uint64", 100, lo=0, hi="max"), Arr("uint64", 100, "zeros")],
             expect=expect_splitmix))

    add(Case("lcg64_int64_wrap", "lcg64.pyk", "lcg64", 2, 64,
             [Arr("int64", 128, lo="min", hi="max"), Arr("int64", (128, 3), "zeros"),
              Scalar("int64", 7)]))

    # --- casts and math ---------------------------------------------------------------------
    add(Case("casts", "casts.pyk", "casts", 4, 64,
             [Arr("float64", 256, lo=-300.0, hi=300.0), Arr("int32", 256, lo=-300, hi=300),
              Arr("float64", (256, 5), "zeros"), Arr("int64", (256, 8), "zeros")]))
    add(Case("math_funcs_float64", "math_funcs.pyk", "math_funcs", 2, 64,
             [Arr("float64", 128, lo=0.1, hi=3.0), Arr("float64", 128, lo=-0.95, hi=0.95),
              Arr("float64", 128, lo=1.1, hi=4.0), Arr("float64", (128, 31), "zeros")]))
    # float32: numba evaluates the float32 variants (sinf, tgammaf, ...), the simulator the double
    # functions rounded once; single-precision libm/libdevice results are within a few ulp, and
    # rtol 1e-5 is ~80 ulp. atol covers results near zero (lgamma near 1 and 2, sin, log near 1).
    add(Case("math_funcs_float32", "math_funcs.pyk", "math_funcs", 2, 64,
             [Arr("float32", 128, lo=0.1, hi=3.0), Arr("float32", 128, lo=-0.95, hi=0.95),
              Arr("float32", 128, lo=1.1, hi=4.0), Arr("float32", (128, 31), "zeros")],
             rtol=1e-5, atol=2e-6))
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.5, -2.5, 0.5, -0.5, 1e-300, 7.0]
    for dt in ("float64", "float32"):
        sp = specials if dt == "float64" else specials[:9] + [1e-30, 7.0]
        add(Case("math_rounding_" + dt, "math_rounding.pyk", "math_rounding", 2, 64,
                 [Arr(dt, 128, with_specials(sp, -20.0, 20.0)), Arr(dt, (128, 9), "zeros"),
                  Arr("int32", 128, "zeros"), Arr("bool", (128, 2), "zeros")]))
        add(Case("math_predicates_" + dt, "math_predicates.pyk", "math_predicates", 2, 64,
                 [Arr(dt, 128, with_specials(sp, -20.0, 20.0)), Arr("bool", (128, 5), "zeros")]))
    add(Case("math_trunc_float64", "math_rounding.pyk", "math_trunc", 2, 64,
             [Arr("float64", 128, with_specials(specials, -20.0, 20.0)),
              Arr("float64", (128, 2), "zeros")]))
    add(Case("min_max_abs_round", "min_max_abs_round.pyk", "min_max_abs_round", 2, 64,
             [Arr("int32", 128, lo=-50, hi=50), Arr("int32", 128, lo=-50, hi=50),
              Arr("float64", 128, lo=-5.0, hi=5.0), Arr("float64", 128, lo=-5.0, hi=5.0),
              Arr("float64", 128, choice([-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 1.25,
                                          -0.75, 2.0])),
              Arr("int64", (128, 6), "zeros"), Arr("float64", (128, 6), "zeros")]))
    add(Case("minmax_varargs", "min_max_abs_round.pyk", "minmax_varargs", 2, 64,
             [Arr("int32", 128, lo=-50, hi=50), Arr("int32", 128, lo=-50, hi=50),
              Arr("float64", 128, lo=-5.0, hi=5.0), Arr("float64", 128, lo=-5.0, hi=5.0),
              Arr("int64", (128, 2), "zeros"), Arr("float64", (128, 2), "zeros")]))
    for dt in ("float32", "float64"):
        add(Case("cuda_float_intrinsics_" + dt, "cuda_float_intrinsics.pyk",
                 "cuda_float_intrinsics", 2, 64,
                 [Arr(dt, 128, lo=-2.0, hi=2.0), Arr(dt, 128, lo=-2.0, hi=2.0),
                  Arr(dt, 128, lo=0.1, hi=3.0), Arr(dt, (128, 4), "zeros")]))

    # --- complex ---------------------------------------------------------------------------
    for dt, rdt in (("complex128", "float64"), ("complex64", "float32")):
        add(Case("complex_arith_" + dt, "complex_arith.pyk", "complex_arith", 2, 64,
                 [Arr(dt, 128, lo=-2.0, hi=2.0), Arr(dt, 128, complex_right_half),
                  Arr(dt, (128, 8), "zeros"), Arr(rdt, (128, 5), "zeros")]))
        add(Case("complex_construct_" + dt, "complex_arith.pyk", "complex_construct", 2, 64,
                 [Arr(rdt, 128, lo=-2.0, hi=2.0), Arr(rdt, 128, lo=-2.0, hi=2.0),
                  Arr(dt, (128, 3), "zeros")]))
        add(Case("complex_conjugate_" + dt, "complex_arith.pyk", "complex_conjugate", 2, 64,
                 [Arr(dt, 128, lo=-2.0, hi=2.0), Arr(dt, (128, 2), "zeros"),
                  Arr(rdt, 128, "zeros")]))
        cspecial = [complex(np.nan, 0.0), complex(np.inf, 1.0), complex(1.0, -np.inf),
                    complex(np.nan, np.inf), complex(0.0, np.nan), 0j, complex(-1.5, 2.0)]
        add(Case("cmath_extra_" + dt, "cmath_extra.pyk", "cmath_extra", 1, 64,
                 [Arr(dt, 64, lambda rng, shape, sp=cspecial: np.concatenate(
                     [sp, complex_right_half(rng, (shape[0] - len(sp),))])),
                  Arr(dt, (64, 2), "zeros"), Arr("bool", (64, 3), "zeros")]))
    # cmath's special values: every pair of these parts for which CPython's cmath (the
    # simulator) raises for none of the functions.
    for dt, rdt in (("complex128", "float64"), ("complex64", "float32")):
        specials = cmath_special_arguments()
        n = len(specials)
        add(Case("cmath_special_values_" + dt, "cmath_special_values.pyk",
                 "cmath_special_values", 1, 128,
                 [Arr(dt, n, "values", value=specials), Arr(dt, (n, 17), "zeros"),
                  Arr(rdt, (n, 2), "zeros"), Arr("bool", (n, 3), "zeros")]))
        add(Case("cmath_log_base_" + dt, "cmath_special_values.pyk", "cmath_log_base", 2, 64,
                 [Arr(dt, 128, complex_right_half), Arr(dt, 128, complex_right_half),
                  Arr(dt, 128, "zeros")]))
    add(Case("cmath_funcs_complex128", "cmath_funcs.pyk", "cmath_funcs", 2, 64,
             [Arr("complex128", 128, complex_right_half), Arr("complex128", (128, 10), "zeros"),
              Arr("float64", (128, 4), "zeros")]))
    # complex64 cmath functions are compositions of single-precision real functions (asin, atan
    # and log10 go through log/sqrt/atan2), accumulating a few float32 roundings.
    add(Case("cmath_funcs_complex64", "cmath_funcs.pyk", "cmath_funcs", 2, 64,
             [Arr("complex64", 128, complex_right_half), Arr("complex64", (128, 10), "zeros"),
              Arr("float32", (128, 4), "zeros")],
             rtol=5e-5, atol=1e-5))

    # --- tuples and control flow -------------------------------------------------------------
    add(Case("tuples", "tuples.pyk", "tuples", 2, 64,
             [Arr("int64", (120, 3), lo=-20, hi=20), Arr("int64", (120, 8), "zeros"),
              Arr("float64", 120, "zeros")]))
    add(Case("loops", "loops.pyk", "loops", 3, 64,
             [Arr("int64", 150, lo=0, hi=61), Arr("int64", (150, 7), "full", value=-7)]))
    add(Case("enumerate_zip", "loops.pyk", "enumerate_zip", 2, 64,
             [Arr("int64", 100, lo=-20, hi=20), Arr("int64", (100, 2), "zeros")]))
    add(Case("array_iteration", "array_iteration.pyk", "array_iteration", 2, 64,
             [Arr("float64", (100, 7)), Arr("float64", (100, 2), "zeros")]))
    add(Case("branches", "branches.pyk", "branches", 2, 64,
             [Arr("int32", 120, lo=-100, hi=100), Arr("float64", 120, lo=0.0, hi=1.0),
              Arr("int32", (120, 4), "zeros")]))

    # --- device functions, local and constant arrays ----------------------------------------
    add(Case("device_chain", "device_chain.pyk", "device_chain", 2, 64,
             [Arr("float64", 120, lo=-10.0, hi=10.0), Arr("int64", 120, lo=-100, hi=100),
              Arr("float64", 120, "zeros"), Arr("int64", 120, "zeros")]))
    add(Case("local_arrays", "local_arrays.pyk", "local_arrays", 2, 64,
             [Arr("float32", (96, 8)), Arr("int64", (96, 9), lo=-10, hi=10),
              Arr("float32", (96, 8), "zeros"), Arr("int64", (96, 3), "zeros")],
             expect=expect_sorted_rows))
    add(Case("const_arrays", "const_arrays.pyk", "const_arrays", 8, 64,
             [Arr("float32", 500, lo=-4.0, hi=4.0), Arr("float32", 500, "zeros")]))
    for dt, rdt in (("complex128", "float64"), ("complex64", "float32")):
        add(Case("complex_array_parts_" + dt, "complex_array_parts.pyk", "complex_array_parts",
                 2, 64,
                 [Arr(dt, 100, lo=-3.0, hi=3.0), Arr(dt, 100, "zeros"),
                  Arr(dt, (3, 4), lo=-1.0, hi=1.0), Arr(rdt, 100), Arr(rdt, (100, 4), "zeros"),
                  Arr("int64", 100, lo=-9, hi=9)]))
    add(Case("operator_functions", "operator_functions.pyk", "operator_functions", 2, 64,
             [Arr("int64", 100, lo=-50, hi=50), Arr("int32", 100, nonzero_ints(-9, 9)),
              Arr("float64", 100, lo=-4.0, hi=4.0), Arr("int64", (100, 9), "zeros"),
              Arr("float64", (100, 3), "zeros"), Arr("bool", (100, 4), "zeros")]))
    add(Case("builtins_numeric", "builtins_numeric.pyk", "builtins_numeric", 2, 64,
             [Arr("int64", 100, lo=-50, hi=50), Arr("float64", 100, lo=-20.0, hi=20.0),
              Arr("complex128", 100, lo=-3.0, hi=3.0), Arr("uint64", 100, lo=0, hi=100),
              Arr("int64", (100, 9), "zeros"), Arr("float64", (100, 11), "zeros"),
              Arr("complex128", (100, 4), "zeros"), Arr("bool", (100, 3), "zeros")]))
    add(Case("const_array_dtypes", "const_array_dtypes.pyk", "const_array_dtypes", 1, 32,
             [Arr("complex128", (2, 3), "zeros"), Arr("complex64", 4, "zeros"),
              Arr("float64", 6, "zeros"), Arr("float32", 5, "zeros"), Arr("bool", 3, "zeros"),
              Arr("int64", (4, 3), "zeros"), Arr("uint64", (4, 3), "zeros"),
              Arr("int64", 2, "zeros")]))

    # --- records, tuples, aliases ---------------------------------------------------------------
    point = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
    inner = np.dtype([("a", np.int16), ("b", np.float64)], align=True)
    outer = np.dtype([("x", np.int8), ("r", inner), ("h", np.uint8, (5,))], align=True)
    add(Case("record_sub_arrays", "records_nested.pyk", "sub_arrays", 2, 16,
             [Arr(point, 20, fill=random_records(point)), Arr("float32", (20, 3), "zeros")]))
    add(Case("record_nested", "records_nested.pyk", "nested_records", 1, 16,
             [Arr(outer, 12, fill=random_records(outer)), Arr("float64", (12, 2), "zeros")]))
    add(Case("record_argument", "records_nested.pyk", "record_argument", 1, 1,
             [Rec(lambda rng: random_records(point)(rng, ())),
              Arr("float32", (3, 2), lo=-2.0, hi=2.0), Arr("float32", 2, "zeros")]))
    add(Case("record_field_views", "records_nested.pyk", "field_views", 1, 32,
             [Arr(point, 9, fill=random_records(point)), Arr("float32", 9, "zeros")]))
    add(Case("record_copies", "records_nested.pyk", "copy_records", 1, 16,
             [Arr(outer, 11, fill=random_records(outer)), Arr(outer, 11, "zeros")]))
    add(Case("record_constants", "records_nested.pyk", "constant_records", 1, 4,
             [Arr("float64", (2, 3), "zeros")]))
    add(Case("record_shared", "records_nested.pyk", "shared_records", 3, 8,
             [Arr(point, 24, fill=random_records(point)), Arr("float32", 24, "zeros")]))
    add(Case("tuple_of_scalars", "argument_kinds.pyk", "tuple_of_scalars", 1, 1,
             [Arr("float64", 4, "zeros"),
              Tup(Scalar("int32", 7), Scalar("float64", 2.5),
                  Tup(Scalar("int64", 3), Scalar("int64", -4)))]))
    add(Case("tuple_of_arrays", "argument_kinds.pyk", "tuple_of_arrays", 2, 32,
             [Tup(Arr("float64", 50, "zeros"), Arr("float64", 50), Arr("float64", 50)),
              Scalar("float64", 0.5)]))
    add(Case("named_tuple", "argument_kinds.pyk", "named_tuple", 1, 16,
             [Arr("float64", 16, "zeros"),
              Tup(Scalar("int64", 3), Scalar("float64", 0.25), cls="Point", fields=("x", "y"))]))
    add(Case("aliased_arrays", "argument_kinds.pyk", "aliased", 2, 32,
             [Arr("float64", 40), Alias(0)]))

    # --- shared memory and barriers -----------------------------------------------------------
    add(Case("shared_reduce", "shared_reduce.pyk", "shared_reduce", 4, 128,
             [Arr("int64", 500, lo=-1000, hi=1000), Arr("float64", 500),
              Arr("int64", 4, "zeros"), Arr("float64", 4, "zeros")],
             expect=expect_block_sums))
    # float32 tiles: summation order is the same on both sides, but fused multiply-adds may be
    # contracted by pyk's C++/CUDA compiler and not by the simulator.
    add(Case("shared_matmul", "shared_matmul.pyk", "shared_matmul", (3, 3), (8, 8),
             [Arr("float32", (20, 12)), Arr("float32", (12, 17)), Arr("float32", (20, 17), "zeros")],
             expect=expect_matmul))
    add(Case("shared_stencil", "shared_stencil.pyk", "shared_stencil", 5, 64,
             [Arr("float64", 300), Arr("float64", 300, "zeros")]))
    add(Case("halo_regions", "halo_regions.pyk", "halo_regions", (3, 4), (8, 4),
             [Arr("float32", (13, 21)), Arr("float32", (13, 21), "zeros"),
              Arr("int32", (13, 21), "zeros")]))
    add(Case("grid_sync_one_block", "grid_sync_one_block.pyk", "grid_sync_one_block", 1, 96,
             [Arr("float64", 90), Arr("float64", 90, "zeros"), Scalar("int64", 7)]))
    for k in (-3, 0, 5, 16, 40):
        add(Case(f"narrowed_regions_k{k}", "narrowed_regions.pyk", "narrowed_regions", 2, (16, 8),
                 [Arr("int32", (2, 8, 16), "zeros"), Scalar("int64", k)]))
    add(Case("shared_scan", "shared_scan.pyk", "shared_scan", 4, 128,
             [Arr("int32", 512, lo=-100, hi=100), Arr("int32", 512, "zeros")],
             expect=expect_scan))
    add(Case("shared_transpose", "shared_transpose.pyk", "shared_transpose", (2, 3), (16, 16),
             [Arr("float32", (40, 23)), Arr("float32", (23, 40), "zeros")],
             expect=expect_transpose))
    add(Case("barrier_early_exit", "barrier_early_exit.pyk", "barrier_early_exit", 4, 64,
             [Arr("float32", 256), Arr("float32", 256, "full", value=-1.0)]))
    add(Case("jacobi_while", "jacobi_while.pyk", "jacobi_while", 2, 64,
             [Arr("float64", 128), Arr("float64", 128, "zeros"), Scalar("int64", 5)]))
    add(Case("shared_flag_loop", "shared_flag_loop.pyk", "shared_flag_loop", 3, 64,
             [Arr("int32", 384, lo=-1000, hi=1000), Arr("int32", 384, "zeros"),
              Arr("int32", 3, "zeros")],
             expect=lambda x, out, rounds: {1: np.sort(x.reshape(3, 128), axis=1).ravel()}))
    add(Case("barrier_uniform_branch", "barrier_uniform_branch.pyk", "barrier_uniform_branch",
             4, 64, [Arr("float32", 256), Arr("float64", (256, 2), "zeros"), Scalar("int64", 1)]))
    add(Case("barrier_lockstep_loops", "barrier_lockstep_loops.pyk", "barrier_lockstep_loops",
             (3, 3), (8, 8), [Arr("float32", (20, 20)), Arr("float32", (20, 20)),
                              Arr("float32", (20, 20, 2), "zeros"), Scalar("int64", 20),
                              Scalar("int64", 5)]))
    add(Case("device_shared", "device_shared.pyk", "device_shared", 3, 64,
             [Arr("float64", 192), Arr("float64", (192, 2), "zeros")],
             expect=lambda x, out: {1: np.stack([np.repeat(x.reshape(3, 64).sum(axis=1), 64),
                                                 np.repeat((x * x).reshape(3, 64).sum(axis=1), 64)],
                                                axis=1)}))
    add(Case("dynamic_shared", "dynamic_shared.pyk", "dynamic_shared", 2, 64,
             [Arr("float32", 128), Arr("float32", (128, 3), "zeros")], shared=2 * 64 * 4))
    add(Case("dynamic_shared_mixed", "dynamic_shared_mixed.pyk", "dynamic_shared_mixed", 2, 64,
             [Arr("int32", 128, lambda rng, shape: rng.uniform(-100, 100, size=shape).astype(
                 np.float32).view(np.int32)), Arr("float32", 128, "zeros")], shared=64 * 4,
             expect=lambda bits, out: {1: bits.view(np.float32).reshape(2, 64)[:, ::-1].ravel()}))
    ints = lambda lo, hi: (lambda rng, n: rng.integers(lo, hi, size=n))  # noqa: E731
    add(Case("syncthreads_votes", "syncthreads_votes.pyk", "syncthreads_votes", 4, 128,
             [Arr("int32", 512, per_block([ints(-100, 100), ints(0, 100), ints(-89, 96),
                                           ints(-100, -90)], 128)),
              Arr("int32", (4, 3), "full", value=-1)]))

    # --- atomics -----------------------------------------------------------------------------
    for dt in ("int32", "int64", "uint32"):
        add(Case("atomic_add_sub_" + dt, "atomic_hist.pyk", "atomic_hist", 16, 64,
                 [Arr("int32", 1000, lo=0, hi=1000), Arr(dt, 13, "zeros"),
                  Arr(dt, 5, "full", value=100000)],
                 expect=expect_hist))
    for dt in ("float32", "float64"):
        add(Case("atomic_add_sub_" + dt, "atomic_float_add.pyk", "atomic_float_add", 16, 64,
                 [Arr(dt, 1000, quarters(-32, 33)), Arr(dt, 8, "zeros"), Arr(dt, 5, "zeros")],
                 expect=expect_float_add))
    for dt in ("int32", "int64", "uint32", "float32", "float64"):
        kind = np.dtype(dt).kind
        lo_init = {"i": -(2 ** 30), "u": 0, "f": -1e30}[kind]
        hi_init = {"i": 2 ** 30, "u": 4000000000, "f": 1e30}[kind]
        x = (Arr(dt, 700, lo=-100000, hi=100000) if kind == "i" else
             Arr(dt, 700, lo=0, hi="max") if kind == "u" else Arr(dt, 700, lo=-50.0, hi=50.0))
        add(Case("atomic_max_min_" + dt, "atomic_minmax.pyk", "atomic_minmax", 11, 64,
                 [x, Arr(dt, 11, "full", value=lo_init), Arr(dt, 7, "full", value=hi_init)],
                 expect=expect_minmax))
    for dt in ("float64", "float32"):
        init = [0.0, np.nan, -1.0, 5.0]
        add(Case("atomic_max_min_nan_" + dt, "atomic_minmax_nan.pyk", "atomic_minmax_nan", 1, 64,
                 [Arr(dt, 60, nan_sprinkled(-3.0, 3.0, 0.25))] +
                 [Arr(dt, 4, "values", value=init) for _ in range(4)]))
    for dt in ("int32", "uint32", "int64"):
        kind = np.dtype(dt).kind
        bits = np.dtype(dt).itemsize * 8 - (1 if kind == "i" else 0)
        add(Case("atomic_and_or_xor_" + dt, "atomic_bitwise.pyk", "atomic_bitwise", 10, 64,
                 [Arr(dt, 600, lambda rng, shape, b=bits: (
                      np.int64(1) << rng.integers(0, b, size=shape)) | (
                      np.int64(1) << rng.integers(0, b, size=shape))),
                  Arr(dt, 600, lambda rng, shape, b=bits: ~(
                      np.int64(1) << rng.integers(0, b, size=shape))),
                  Arr(dt, 6, "full", value=-1 if kind == "i" else np.iinfo(dt).max),
                  Arr(dt, 6, "zeros"), Arr(dt, 6, "full", value=5)],
                 expect=expect_bitwise))
    for dt in ("uint32", "uint64"):
        add(Case("atomic_inc_dec_" + dt, "atomic_inc_dec.pyk", "atomic_inc_dec", 8, 64,
                 [Arr(dt, 2, "values", value=[3, 5]), Arr(dt, (500, 2), "zeros", compare="sorted"),
                  Scalar(dt, 37)],
                 expect=expect_inc_dec(37)))
    for dt in ("int32", "uint64"):
        add(Case("atomic_exch_" + dt, "atomic_exch.pyk", "atomic_exch", 1, 64,
                 [Arr(dt, 1, "full", value=7, compare="skip"),
                  Arr(dt, 65, "zeros", compare="sorted")]))
    for dt in ("int32", "int64", "uint32"):
        add(Case("atomic_compare_and_swap_" + dt, "atomic_cas.pyk", "atomic_cas", 5, 64,
                 [Arr(dt, 1, "zeros"), Arr(dt, 300, "zeros", compare="sorted")],
                 expect=expect_tickets))
    add(Case("atomic_cas_index", "atomic_cas_index.pyk", "atomic_cas_index", 4, 64,
             [Arr("int32", (3, 4), "zeros"), Arr("int32", 256, "zeros", compare="sorted")]))
    add(Case("atomic_compaction", "atomic_compaction.pyk", "atomic_compaction", 6, 64,
             [Arr("int32", 380, lo=-50, hi=50), Arr("int32", 1, "zeros"),
              Arr("int32", 380, "full", value=-1, compare="sorted")],
             expect=lambda x, count, out: {1: [np.count_nonzero(x > 0)]}))
    add(Case("atomic_shared_hist", "atomic_shared_hist.pyk", "atomic_shared_hist", 4, 128,
             [Arr("int32", 400, lo=0, hi=1000), Arr("int32", 16, "zeros"),
              Arr("int32", (4, 17), "zeros")],
             expect=expect_shared_hist))

    # --- warps and bit intrinsics -------------------------------------------------------------
    for dt in ("int32", "int64", "float32", "float64"):
        add(Case("warp_shuffle_" + dt, "warp_shuffle.pyk", "warp_shuffle", 2, 64,
                 [Arr(dt, 128, lo=-1000, hi=1000) if dt.startswith("int") else
                  Arr(dt, 128, lo=-10.0, hi=10.0),
                  Arr(dt, (128, 5), "zeros"), Arr(dt, (128, 2), "zeros")],
                 expect=expect_shuffle))
    add(Case("warp_vote", "warp_vote.pyk", "warp_vote", 2, 64,
             [Arr("int32", 128, per_block([ints(-100, 100), ints(0, 100), ints(-49, 91),
                                           lambda rng, n: np.full(n, -7)], 32)),
              Arr("uint32", (128, 10), "zeros")]))
    add(Case("warp_lanemask", "warp_vote.pyk", "warp_lanemask", 2, 64,
             [Arr("int64", (128, 2), "full", value=-1)],
             expect=lambda out: {0: np.stack([(1 << (np.arange(128) % 32)) - 1,
                                              np.zeros(128, np.int64)], axis=1)}))
    add(Case("bit_intrinsics", "bit_intrinsics.pyk", "bit_intrinsics", 4, 64,
             [Arr("uint32", 200, uint_specials([0, 1, 2, 3, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF,
                                                0x00010000, 0x00F00000], 32)),
              Arr("int32", 200, uint_specials([0, 1, 0x7FFFFFFF, 0x40000000, 12], 31)),
              Arr("uint64", 200, uint_specials([0, 2 ** 64 - 1, 2 ** 63], 64)),
              Arr("int64", (200, 6), "zeros"), Arr("int64", 200, "zeros")],
             expect=expect_popc_etc))

    # --- array kinds and layouts --------------------------------------------------------------
    add(Case("arrays_nd", "arrays_nd.pyk", "arrays_nd", (2, 2, 2), (4, 4, 4),
             [Arr("float64", (5, 6, 7)), Arr("float64", 9), Arr("float64", (5, 6, 7), "zeros"),
              Arr("int64", 8, "zeros")]))
    add(Case("forder", "forder.pyk", "forder", (2, 2), (8, 8),
             [Arr("float32", (12, 9), order="F"), Arr("int32", (5, 4, 3), lo=-50, hi=50, order="F"),
              Arr("float32", (12, 9)), Arr("float32", (12, 9), "zeros", order="F"),
              Arr("int32", (5, 4, 3), "zeros", order="F")]))
    add(Case("strided_views", "strided_views.pyk", "strided_views", 1, 32,
             [Arr("float64", (16, 12)), Arr("int32", 40, "arange", lo=-10),
              Arr("float64", (16, 4), "zeros"), Arr("int32", (20, 2), "zeros")]))
    add(Case("transpose_view", "strided_views.pyk", "transpose_view", (2, 2), (8, 8),
             [Arr("float64", (16, 12)), Arr("float64", (12, 16), "zeros")],
             expect=lambda m, out: {1: m.T + 12000}))
    add(Case("scalar_args", "scalar_args.pyk", "scalar_args", 1, 64,
             [Arr("float64", 64, "zeros"), Arr("int64", 12, "zeros"), Arr("uint64", 3, "zeros"),
              Scalar("int8", -5), Scalar("int16", 1234), Scalar("int32", -70000),
              Scalar("int64", 2 ** 40 + 3), Scalar("uint8", 200), Scalar("uint16", 60000),
              Scalar("uint32", 4000000000), Scalar("uint64", 2 ** 63 + 12345),
              Scalar("float32", -0.375), Scalar("float64", 2.718281828459045),
              Scalar("bool", True)]))
    add(Case("misc_intrinsics", "misc_intrinsics.pyk", "misc_intrinsics", 2, 64,
             [Arr("int32", 128), Arr("int32", 128, "zeros")]))

    # --- float16 (numba 0.56's: stored as binary16, operators in float32, cuda.fp16 in float16)
    # The float16 results are compared bit for bit (rtol and atol 0; NaN matches NaN).
    half_specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 65504.0, -65504.0, 6e-8, 1.0, 1.0,
                     2.5, -2.5, 0.5, 300.0, 1e-3]
    add(Case("float16_fp16_functions", "float16.pyk", "fp16_functions", 2, 64,
             [Arr("float16", 120, with_specials(half_specials, -8.0, 8.0)),
              Arr("float16", 120, with_specials([1.0, np.nan, 3.0, 0.0, 0.0, 2.0, -1.0, 1.0, 2.5,
                                                 2.5, 0.5, 300.0, -2e-3, 7.0, 65504.0], -8.0,
                                                8.0)),
              Arr("float16", 120, with_specials([0.0, 1.0, 2.0, -0.0, 5.0, 1e-4], -30.0, 30.0)),
              Arr("float16", (120, 11), "zeros"), Arr("bool", (120, 6), "zeros")],
             rtol=0, atol=0, compiled_float16=True))
    # Quarters: every float16 sum, difference and product here is exact, so numba's float32
    # arithmetic and the simulator's float16 arithmetic agree; a quotient stored as float16 is
    # rounded once either way.
    add(Case("float16_promotion", "float16.pyk", "fp16_promotion", 2, 64,
             [Arr("float16", 128, quarters(-40, 40)), Arr("float16", 128, quarters(-40, 40)),
              Scalar("float16", 1.25), Arr("float32", (128, 7), "zeros"),
              Arr("float16", (128, 4), "zeros"), Arr("bool", (128, 6), "zeros")],
             rtol={"float16": 0, "float32": 1e-6}, atol={"float16": 0, "float32": 1e-6},
             compiled_float16=True))
    add(Case("float16_casts", "float16.pyk", "fp16_casts", 2, 64,
             [Arr("float16", 128, with_specials([np.nan, np.inf, -np.inf, 65504.0, -65504.0, 2.5,
                                                  3.5, -2.5, -0.5, 0.5, 300.0, -300.0, 1e-7,
                                                  255.5, 127.5, -128.5], -300.0, 300.0)),
              Arr("int32", 128, with_specials([2049, 2051, 4097, 65519, 65520, -70000, 0, -1,
                                                 70000, 127], -100000, 100000)),
              Arr("float64", 128, with_specials([np.nan, -np.inf, 1e-8, 2.0 ** -24, 2.0 ** -25,
                                                 2.0 ** -25 * 1.0000001, 65519.99, 65520.0,
                                                 0.1, -0.0, 1.0009765625, 1.00048828125,
                                                 1.0014648437500002], -70000.0, 70000.0)),
              Arr("float16", (128, 7), "zeros"), Arr("int64", (128, 8), "zeros"),
              Arr("float64", (128, 2), "zeros")],
             rtol=0, atol=0, compiled_float16=True))
    add(Case("float16_shared_local", "float16.pyk", "fp16_arrays", 3, 64,
             [Arr("float16", 192, lo=-100.0, hi=100.0), Arr("float16", 192, "zeros")],
             rtol=0, atol=0))

    # --- numba.cuda's vector types --------------------------------------------------------------
    add(Case("vector_types_construction", "vector_types.pyk", "vector_construction", 2, 64,
             [Arr("float64", (100, 4), "zeros"), Arr("int64", (100, 5), "zeros")]))
    add(Case("vector_types_in_tuples", "vector_types.pyk", "vector_tuples", 2, 64,
             [Arr("float64", (100, 3), "zeros")]))

    # --- ufuncs --------------------------------------------------------------------------------
    # @vectorize(target='cuda') launched through `pykc run` as an elementwise kernel whose last
    # argument is the output (the simulator cannot build CUDA ufuncs; the harness applies the
    # Python function element by element with the signature's types).
    for dt in ("float32", "float64"):
        add(Case("ufunc_vectorize_" + dt, "ufunc_vectorize.pyk", "ufunc_vectorize", 5, 64,
                 [Arr(dt, 300, lo=0.0, hi=4.0), Arr(dt, 300, lo=0.0, hi=4.0),
                  Arr(dt, 300, "zeros")], kind="ufunc"))
    return c


def xoroshiro128p_states(seed, subsequence_start):
    """A fill for Arr: numba's own host initialisation of the RNG states."""
    def fill(rng, shape):
        from numba.cuda.random import init_xoroshiro128p_states_cpu, xoroshiro128p_dtype
        states = np.empty(shape, dtype=xoroshiro128p_dtype)
        init_xoroshiro128p_states_cpu(states, seed, subsequence_start)
        return states
    return fill


def _random_cases(add):
    # numba.cuda.random (stdlib/numba/cuda/random.pyk). The states come from numba's own
    # initialisation and are compared exactly after the draws; the uniforms bit for bit (rtol and
    # atol 0: integer steps and one exact conversion, the same in the simulator and compiled
    # numba). The normals are float32 Box-Muller in compiled numba (logf, sqrtf, cosf; and logf
    # widened for normal_float64), where the simulator calls Python's double-precision math: they
    # agree to float32's precision only, hence the float64 tolerance of 1e-6.
    state = np.dtype([("s0", "<u8"), ("s1", "<u8")], align=True)
    add(Case("random_uniform", "random_xoroshiro.pyk", "draw_uniform", 2, 32,
             [Arr(state, 64, fill=xoroshiro128p_states(1234, 0)), Arr("float32", (64, 5), "zeros"),
              Arr("float64", (64, 5), "zeros"), Arr("uint64", 64, "zeros")], rtol=0, atol=0))
    add(Case("random_uniform_subsequence", "random_xoroshiro.pyk", "draw_uniform", 1, 16,
             [Arr(state, 16, fill=xoroshiro128p_states(7, 5)), Arr("float32", (16, 3), "zeros"),
              Arr("float64", (16, 3), "zeros"), Arr("uint64", 16, "zeros")], rtol=0, atol=0))
    add(Case("random_normal", "random_xoroshiro.pyk", "draw_normal", 2, 32,
             [Arr(state, 64, fill=xoroshiro128p_states(99, 2)), Arr("float32", (64, 4), "zeros"),
              Arr("float64", (64, 4), "zeros")], rtol={"float64": 1e-6}, atol={"float64": 1e-7}))
    # The same draws against numba's algorithm computed in float32 as compiled numba computes it
    # (the C library's logf, sqrtf, cosf, as pyk's CPU backend calls them): bit for bit.
    add(Case("random_normal_compiled_math", "random_xoroshiro.pyk", "draw_normal", 2, 32,
             [Arr(state, 64, fill=xoroshiro128p_states(99, 2)), Arr("float32", (64, 4), "zeros"),
              Arr("float64", (64, 4), "zeros")], rtol=0, atol=0, compiled_math=True,
             backends=("cpu",),
             backends_reason="the C library's float32 logf and cosf are the CPU backend's; "
             "CUDA's differ by an ulp (seen on an H200), and random_normal checks that backend "
             "within float32's tolerance"))


def _rebinding_cases(add):
    # numba types each SSA version of a variable on its own (rebinding.pyk): parameters assigned
    # to, names re-assigned with another type, unification at joins, loop-carried accumulators.
    f = "rebinding.pyk"
    out = Arr("float64", 4, "zeros")
    add(Case("rebind_straight_line", f, "straight_line", 1, 1, [out, Scalar("int32", 7)]))
    add(Case("rebind_parameter", f, "parameter_assigned", 1, 1,
             [out, Scalar("int32", 9), Scalar("float32", 3.5)]))
    add(Case("rebind_parameter_kept", f, "parameter_assigned", 1, 1,
             [out, Scalar("int32", 2), Scalar("float32", 3.5)]))
    for c in (0, 1, 5):
        add(Case("rebind_branches_%d" % c, f, "branches", 1, 1, [out, Scalar("int64", c)]))
    add(Case("rebind_accumulators", f, "accumulators", 1, 1,
             [out, Arr("float32", 37, lo=-4, hi=4)]))
    for n in (1, 5, 16):  # n = 0 leaves `i` unbound (Python raises, numba reads garbage)
        add(Case("rebind_loop_exits_%d" % n, f, "loop_exits", 1, 1,
                 [out, Arr("float64", 16, lo=0, hi=0.6), Scalar("int64", n)]))
    add(Case("rebind_nested_loops", f, "nested_loops", 1, 1, [out, Scalar("int32", 6)]))
    for small in (-3, 4):
        add(Case("rebind_mixed_widths_%d" % (small + 3), f, "mixed_widths", 1, 1,
                 [out, Scalar("int16", small), Scalar("int64", 1 << 40),
                  Scalar("uint64", (1 << 63) + 5)]))
    add(Case("rebind_tuples_and_arrays", f, "tuples_and_arrays", 1, 1,
             [out, Arr("float32", 5), Arr("float32", 3)]))
    add(Case("rebind_loop_variable_reuse", f, "loop_variable_reuse", 1, 1,
             [out, Scalar("int64", 3)]))


def _value_cases(add):
    # Functions and type objects passed as values (numba's atomics tests do this), and the
    # constants of math, cmath and numpy as values.
    add(Case("functions_as_values", "functions_as_values.pyk", "both", 1, 32,
             [Arr("uint32", 32, "zeros")]))
    add(Case("constants_in_kernels", "constants_in_kernels.pyk", "reduce", 1, 1,
             [Arr("float32", 17, lo=-5, hi=5), Arr("float64", 4, "zeros")]))
    add(Case("redefined_kernel_and_njit_calls", "python_rules.pyk", "redefined", 2, 16,
             [Arr("int64", 30)]))
    for x in (300, 450, 550):
        add(Case("enums_is_recursion_%d" % x, "python_values.pyk", "values", 1, 1,
                 [Scalar("int64", x), Arr("int64", 8, "zeros")]))
    add(Case("module_arrays_numpy", "module_arrays_numpy.pyk", "read_module_arrays", 1, 16,
             [Arr("float64", 10, "zeros"), Arr("complex64", 10, "zeros")]))
    # The five everyday kernels of issue 16.
    f = "everyday_numba.pyk"
    add(Case("everyday_histogram", f, "histogram", 4, 64,
             [Arr("int32", 250, lo=0, hi=1000), Arr("int32", 16, "zeros")]))
    add(Case("everyday_softmax", f, "softmax", 2, 32,
             [Arr("float32", (40, 7), lo=-3, hi=3), Arr("float32", (40, 7), "zeros")]))
    add(Case("everyday_jacobi", f, "jacobi", (3, 3), (8, 8),
             [Arr("float64", (20, 17)), Arr("float64", (20, 17)), Arr("float64", (20, 17), "zeros"),
              Scalar("float64", 0.1)]))
    for dt in ("float32", "float64"):
        add(Case("everyday_clip_" + dt, "everyday_clip_ufunc.pyk", "clip", 2, 64,
                 [Arr(dt, 100, lo=-5, hi=5), Arr(dt, 100, lo=0, hi=3), Arr(dt, 100, "zeros")],
                 kind="ufunc"))
    add(Case("everyday_min_max_reduce", f, "min_max_reduce", 1, 1,
             [Arr("float64", 33, lo=-100, hi=100), Arr("float64", 2, "zeros")]))


CASES = _cases()
_random_cases(lambda case: CASES.append(case))
_value_cases(lambda case: CASES.append(case))
_rebinding_cases(lambda case: CASES.append(case))
_names = [c.name for c in CASES]
assert len(_names) == len(set(_names)), "duplicate case names"
