#!/usr/bin/python3
"""check_libdevice: every numba.cuda.libdevice function through pykc, against its reference.

numba's simulator has no libdevice, so the conformance suite cannot check these. Instead this
writes one kernel that calls every function numba 0.56 lists (numba/cuda/libdevicefuncs.py) on
arrays of special and ordinary values, runs it with `pykc run --backend cpu`, and compares each
result with libdevice_reference.py (exactly, or within the function's tolerance in units in the
last place). With NVRTC it also compiles the kernel to a CUBIN for sm_90, as numba's own
test_libdevice compiles each function.

usage: check_libdevice.py PYKC [WORK_DIR]   (needs Debian's python3-numba, numpy, scipy)
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from numba.cuda.libdevicefuncs import functions
from numba.types import float32, float64, int16, int32, int64, void

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libdevice_reference  # noqa: E402

CODES = {float32: "f", float64: "d", int32: "i", int64: "l", int16: "h", void: "v"}
DTYPES = {"f": np.float32, "d": np.float64, "i": np.int32, "l": np.int64, "h": np.int16}
N = 48
STRIDES = [(1, 0), (7, 3), (13, 5)]  # argument j reads element (k * a + b) % N

DOUBLES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5, 3.7, -3.7, 0.3, 0.7, 0.9,
           -0.9, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1e10, -1e10, 123456.789, 2.0 ** 53 + 2,
           4.5, 0.25, 1 / 3, 2 / 3, 7.0, -7.0, 100.5, 1e-5, 0.99, 0.01, 1.7976931348623157e308,
           2.2250738585072014e-308, math.inf, -math.inf, math.nan, 3.0, 10.0, 0.1, 6.28, -0.25,
           1e-7, 0.5 + 2.0 ** -30, 2.0 ** 31 + 0.5]
FLOATS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5, 3.7, -3.7, 0.3, 0.7, 0.9, -0.9,
          1e-40, -1e-40, 1e-45, 3e38, -3e38, 1e10, -1e10, 12345.678, 2.0 ** 24 + 2, 4.5, 0.25,
          1 / 3, 2 / 3, 7.0, -7.0, 100.5, 1e-5, 0.99, 0.01, 3.4028234663852886e38,
          1.1754943508222875e-38, math.inf, -math.inf, math.nan, 3.0, 10.0, 0.1, 6.28, -0.25,
          1e-7, 0.5 + 2.0 ** -20, 2.0 ** 31 + 256]
INTS = [0, 1, -1, 2, -2, 7, -7, 255, 256, 0x12345678, -0x12345678, 2 ** 31 - 1, -2 ** 31, 0x7FFF,
        0x8000, 0xFFFF, 123456, -123456, 0x0F0F0F0F, 0x55AA, 1 << 24, -(1 << 24), 3, 5,
        0x7FFFFF, -0x800000, 0x1000000, 1000, -1000, 0x3210, 0x7654, 0x1, 0x4321, -3, 64, 31,
        32, 33, -32, 0x40000000, -0x40000000, 0x55555555, -0x55555556, 99, 1023, 12, 6, 11]
LONGS = [0, 1, -1, 2, -2, 7, -7, 2 ** 63 - 1, -2 ** 63, 2 ** 32, -2 ** 32, 2 ** 53 + 1,
         -(2 ** 53 + 1), 0x123456789ABCDEF, -0x123456789ABCDEF, 2 ** 62, -2 ** 62, 2 ** 24 + 1,
         2 ** 31 - 1, -2 ** 31, 123456789012, -123456789012, 0x5555555555555555, 1 << 40, 3, 5,
         2 ** 64 // 3, -(2 ** 62) - 1, 2 ** 54 - 1, 1000, -1000, 0xFF, 0x100, 2 ** 63 - 2 ** 10,
         -(2 ** 63) + 2 ** 11, 9, 10, 11, 2 ** 25 + 3, 2 ** 60 + 2 ** 7 + 1, 64, 63, -64, 12, 13,
         14, 15, 16]
SMALL = [0, 1, -1, 2, -2, 3, -3, 5, -5, 7, 10, -10, 20, -20, 30, -30, 4, -4, 6, -6, 8, -8, 9,
         -9, 11, -11, 12, -12, 15, -15, 16, -16, 25, -25, 0, 1, 2, 3, 1, 2, 0, 1, 13, -13, 17,
         -17, 29, -29]
HALVES = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x03FF, 0x0400,
          0x7BFF, 0x3555, 0x4248, 0xC248, 0x5640, 0x1234, 0x0200, 0x8001, 0x7C01, 0xFE00, 0x3800,
          0x3E00, 0x4000, 0x4400] * 2


def inputs():
    arrays = {"d": np.array(DOUBLES, np.float64), "f": np.array(FLOATS, np.float32),
              "i": np.array(INTS, np.int32), "l": np.array(LONGS, np.int64),
              "n": np.array(SMALL, np.int32),
              "h": np.array(HALVES, np.uint16).view(np.int16)}
    assert all(a.size == N for a in arrays.values())
    return arrays


def signatures():
    out = {}
    for full in sorted(functions):
        ret, args = functions[full]
        out[full[len("__nv_"):]] = (CODES[ret], "".join(CODES[a.ty] for a in args if not a.is_ptr),
                                    "".join(CODES[a.ty] for a in args if a.is_ptr))
    return out


def operand_arrays(values):
    """The input array each argument reads: integers that go with floats are small (orders,
    exponents, powers); other integers range over the whole type."""
    mixed = any(c in "fd" for c in values)
    return ["n" if (c == "i" and mixed) else c for c in values]


def kernel_source(sigs):
    """The kernel, and for each function the output rows (code, row) its results go to."""
    rows = {c: 0 for c in DTYPES}
    placement = {}
    body = []
    for idx, (name, (result, values, outputs)) in enumerate(sorted(sigs.items())):
        args = ", ".join("%s[(k * %d + %d) %% %d]" % (a, STRIDES[j][0], STRIDES[j][1], N)
                         for j, a in enumerate(operand_arrays(values)))
        results = ([result] if result != "v" else []) + list(outputs)
        slots = []
        for code in results:
            slots.append((code, rows[code]))
            rows[code] += 1
        placement[name] = slots
        if len(results) == 1:
            body.append("        out_%s[%d, k] = libdevice.%s(%s)" % (slots[0] + (name, args)))
        else:
            names = ["t%d_%d" % (idx, j) for j in range(len(results))]
            body.append("        %s = libdevice.%s(%s)" % (", ".join(names), name, args))
            for n, (code, row) in zip(names, slots):
                body.append("        out_%s[%d, k] = %s" % (code, row, n))
    source = ("# Generated by tests/libdevice/check_libdevice.py: every numba.cuda.libdevice "
              "function.\nfrom numba import cuda\nfrom numba.cuda import libdevice\n\n\n"
              "@cuda.jit\ndef every_function(d, f, i, l, n, h, out_f, out_d, out_i, out_l, out_h):\n"
              "    k = cuda.grid(1)\n    if k < %d:\n" % N + "\n".join(body) + "\n")
    return source, placement, rows


def ulps_apart(got, want, dtype, exact):
    """How many units in the last place `got` is from `want`; an exact function must also give
    the sign of a zero (the approximations' zeros have no sign worth checking)."""
    if np.isnan(want) or np.isnan(got):
        return 0 if (np.isnan(want) and np.isnan(got)) else math.inf
    if got == want:
        return 0 if not exact or np.signbit(got) == np.signbit(want) else math.inf
    if np.isinf(got) or np.isinf(want):
        return math.inf
    spacing = np.spacing(dtype(abs(want))) if want != 0 else np.finfo(dtype).smallest_subnormal
    return abs(float(got) - float(want)) / float(spacing)


def main():
    pykc = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="pyk-libdevice-")
    os.makedirs(work, exist_ok=True)
    sigs = signatures()
    source, placement, rows = kernel_source(sigs)
    path = os.path.join(work, "every_function.pyk")
    with open(path, "w") as f:
        f.write(source)
    arrays = inputs()
    order = ["d", "f", "i", "l", "n", "h"]
    cli = []
    for name in order:
        np.save(os.path.join(work, name + ".npy"), arrays[name])
        cli.append(name + ".npy")
    for code in ["f", "d", "i", "l", "h"]:
        np.save(os.path.join(work, "out_" + code + ".npy"),
                np.zeros((max(rows[code], 1), N), DTYPES[code]))
        cli.append("out_" + code + ".npy")
    run = subprocess.run([pykc, "run", "every_function.pyk", "every_function", "--grid", "1",
                          "--block", str(N), "--backend", "cpu", "--out", "pyk_out"] + cli,
                         cwd=work, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print("FAIL: pykc run of every libdevice function failed")
        return 1
    outputs = {c: np.load(os.path.join(work, "pyk_out", "arg%d.npy" % (6 + j)))
               for j, c in enumerate(["f", "d", "i", "l", "h"])}
    failures = 0
    np.seterr(all="ignore")  # the references overflow and divide by zero as IEEE says
    for name, sig in sorted(sigs.items()):
        ref, ulps = libdevice_reference.reference(name, sig)
        arg_arrays = [arrays[a] for a in operand_arrays(sig[1])]
        bad = []
        for k in range(N):
            args = [a[(k * STRIDES[j][0] + STRIDES[j][1]) % N].item() if a.dtype.kind in "iu"
                    else a.dtype.type(a[(k * STRIDES[j][0] + STRIDES[j][1]) % N])
                    for j, a in enumerate(arg_arrays)]
            want = ref(*args)
            want = want if isinstance(want, tuple) else (want,)
            for (code, row), w in zip(placement[name], want):
                got = outputs[code][row, k]
                if code in "fd":
                    distance = ulps_apart(got, DTYPES[code](w), DTYPES[code], ulps == 0)
                    ok = distance <= ulps
                else:
                    ok = int(got) == int(w)
                if not ok:
                    bad.append("%s(%s) = %r, expected %r" % (
                        name, ", ".join(repr(a) for a in args), got.item(), w))
        if bad:
            failures += 1
            print("FAIL %s: %d of %d differ, e.g. %s" % (name, len(bad), N, bad[0]))
    print("%d of %d libdevice functions match their reference on the CPU backend"
          % (len(sigs) - failures, len(sigs)))
    version = subprocess.run([pykc, "--version"], capture_output=True, text=True).stdout
    if "NVRTC none" not in version:
        sig = ("void(float64[::1], float32[::1], int32[::1], int64[::1], int32[::1], int16[::1], "
               "float32[:, ::1], float64[:, ::1], int32[:, ::1], int64[:, ::1], int16[:, ::1])")
        cubin = subprocess.run([pykc, "emit", path, "--sig", sig, "--emit=cubin", "--arch",
                                "sm_90", "-o", os.path.join(work, "every_function.cubin")],
                               capture_output=True, text=True)
        if cubin.returncode != 0:
            print(cubin.stdout + cubin.stderr)
            print("FAIL: NVRTC did not compile every libdevice function")
            failures += 1
        else:
            print("NVRTC compiled every libdevice function to a CUBIN for sm_90")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
