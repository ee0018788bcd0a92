#!/usr/bin/env python3
# npy_numpy_crosscheck: numpy writes arrays of every dtype pyk reads, in both byte orders, C and
# Fortran order and format versions 1.0, 2.0 and 3.0, and structured dtypes (sub-array fields, nested
# records, character fields); pyk_npy_roundtrip reads and rewrites them;
# numpy checks that what comes back equals what went in and is exactly what np.save writes.
# Also checks pyk's messages for dtypes it refuses. Usage: npy_numpy_crosscheck.py PYK_NPY_ROUNDTRIP
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 4), (2, 0, 3), (1,) * 30 + (2, 3)]
SUPPORTED = ("(pyk reads bool, int8..int64, uint8..uint64, float16, float32, float64, complex64, "
             "complex128, datetime64 and timedelta64 of any unit, bytes 'S<n>' and unicode 'U<n>')")
# numpy's datetime64 / timedelta64 (several units, NaT among the values) and its fixed-width bytes
# and unicode, both byte orders where they have one (big-endian unicode is refused).
TIME_AND_TEXT = {"datetime64[D]": ["<", ">"], "timedelta64[ns]": ["<", ">"],
                 "datetime64[Y]": ["<"], "timedelta64": ["<"], "S5": ["|"], "U3": ["<"]}


def values(dtype, shape, rng):
    """Random values of a dtype, with the special floats (inf, nan, -0.0) where they fit."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    real = dtype.type(0).real.dtype
    def floats():
        array = np.array(rng.standard_normal(size=shape) * 1000, dtype=real)
        flat = array.reshape(-1)
        for i, special in enumerate([np.inf, -np.inf, np.nan, -0.0][: flat.size]):
            flat[i] = special
        return array
    if dtype.kind == "c":
        array = np.empty(shape, dtype=dtype)
        array.real, array.imag = floats(), floats()
        return array
    return floats()


def fill(array, rng):
    """Random contents for every field of a structured array, sub-arrays, nested records and
    character fields included (padding stays zero)."""
    for field in array.dtype.names:
        part = array[field]
        if part.dtype.names:
            fill(part, rng)
        elif part.dtype.kind == "S":
            letters = rng.integers(97, 123, size=part.shape + (part.dtype.itemsize,), dtype=np.uint8)
            part[...] = np.frombuffer(letters.tobytes(), dtype=part.dtype).reshape(part.shape)
        elif part.dtype.kind == "U":
            points = rng.integers(0x41, 0x3000, size=part.shape + (part.dtype.itemsize // 4,),
                                  dtype=np.uint32)
            part[...] = np.frombuffer(points.astype("<u4").tobytes(),
                                      dtype=part.dtype).reshape(part.shape)
        else:
            part[...] = values(part.dtype, part.shape, rng)


def little_endian(dtype):
    dtype = np.dtype(dtype)
    return dtype if dtype.itemsize == 1 else dtype.newbyteorder("<")


def main():
    tool = sys.argv[1]
    rng = np.random.default_rng(20260101)
    failures = []
    with tempfile.TemporaryDirectory(prefix="pyk-npy-crosscheck-") as folder:
        cases = []  # (input path, output path, the array numpy wrote)
        for name in DTYPES:
            orders = ["|"] if np.dtype(name).itemsize == 1 else ["<", ">"]
            for byte_order in orders:
                for shape in SHAPES:
                    for layout in ["C", "F"]:
                        dtype = np.dtype(name).newbyteorder(byte_order)
                        array = values(name, shape, rng).astype(dtype)
                        if layout == "F":
                            array = np.asfortranarray(array)
                        for version in [None, (2, 0), (3, 0)] if len(shape) == 2 else [None]:
                            stem = "%s-%s-%s-%s-%s" % (
                                name, {"<": "le", ">": "be", "|": "na"}[byte_order], layout,
                                "x".join(map(str, shape)) or "0d",
                                "v%d" % version[0] if version else "auto")
                            source = os.path.join(folder, stem + ".npy")
                            with open(source, "wb") as out:
                                np.lib.format.write_array(out, array, version=version)
                            cases.append((source, source[:-4] + ".out.npy", array))
        for name, orders in TIME_AND_TEXT.items():
            for byte_order in orders:
                for shape in [(0,), (7,), (3, 4)]:
                    count = int(np.prod(shape))
                    if name[0] in "SU":
                        words = np.array(["", "a", "xyz", "héllo", "ab\u20ac"][:3] * count)[:count]
                        array = (words.astype("S5") if name == "S5" else words).reshape(shape)
                        array = array.astype(np.dtype(name).newbyteorder(byte_order))
                    else:
                        ints = rng.integers(-10**6, 10**6, count)
                        if count:
                            ints[0] = np.iinfo(np.int64).min  # NaT
                        array = ints.astype(np.int64).view(name).reshape(shape)
                        array = array.astype(np.dtype(name).newbyteorder(byte_order))
                    source = os.path.join(folder, "%s-%s-%s.npy" % (
                        name.replace("[", "_").replace("]", ""), byte_order.replace("|", "na")
                        .replace("<", "le").replace(">", "be"), "x".join(map(str, shape))))
                    np.save(source, array)
                    cases.append((source, source[:-4] + ".out.npy", array))
        # Structured dtypes: numba's RNG state, padded (aligned) and packed layouts, explicit
        # offsets with gaps; sub-array fields (numba's test_record_dtype dtypes), nested records
        # (aligned and packed, inside aligned and packed ones), character fields.
        inner = np.dtype([("a", "<i2"), ("b", "<f8")], align=True)
        records = {
            "xoroshiro128p": np.dtype([("s0", "<u8"), ("s1", "<u8")], align=True),
            "aligned": np.dtype([("a", "u1"), ("b", "<f8"), ("c", "<c8"), ("d", "?")], align=True),
            "packed": np.dtype([("a", "u1"), ("b", "<f8"), ("c", "<i2")]),
            "offsets": np.dtype({"names": ["x", "y"], "formats": ["<i4", "<f4"],
                                 "offsets": [0, 8], "itemsize": 16}),
            "subarray": np.dtype([("a", "<f8"), ("b", "<i4"), ("c", "<c8"), ("d", "u1", (5,))],
                                 align=True),
            "subarray2d": np.dtype([("i", "<i4"), ("j", "<f4", (3, 2))]),
            "nested": np.dtype([("x", "i1"), ("r", inner)], align=True),
            "nestedpacked": np.dtype([("x", "i1"), ("r", np.dtype([("a", "<i2"), ("b", "<f8")])),
                                      ("z", "<u4", (2,))]),
            "nested2": np.dtype([("n", np.dtype([("x", "i1"), ("r", inner)], align=True)),
                                 ("w", "<f4")], align=True),
            "characters": np.dtype([("x", "<f4"), ("y", "S12"), ("z", "<U3")]),
        }
        for name, dtype in records.items():
            for shape in [(0,), (5,), (2, 3)]:
                array = np.zeros(shape, dtype=dtype)
                fill(array, rng)
                source = os.path.join(folder, "record-%s-%s.npy" % (name, "x".join(map(str, shape))))
                np.save(source, array)
                cases.append((source, source[:-4] + ".out.npy", array))
        arguments = [path for source, result, _ in cases for path in (source, result)]
        run = subprocess.run([tool] + arguments, capture_output=True, text=True)
        if run.returncode != 0:
            failures.append("pyk_npy_roundtrip failed:\n" + run.stderr)
        for source, result, array in cases:
            if not os.path.exists(result):
                failures.append("%s: not written back" % source)
                continue
            back = np.load(result)
            # (astype would leave a record's padding bytes undefined; records here are written
            # little-endian and C-ordered already.)
            expected = (array if array.dtype.names
                        else array.astype(little_endian(array.dtype), order="C"))
            if back.dtype != expected.dtype or back.shape != expected.shape:
                failures.append("%s: came back as %s %s, not %s %s" % (
                    source, back.dtype.str, back.shape, expected.dtype.str, expected.shape))
            elif back.tobytes() != expected.tobytes():
                failures.append("%s: the values changed" % source)
            numpy_bytes = io.BytesIO()
            np.save(numpy_bytes, expected)
            with open(result, "rb") as written:
                if written.read() != numpy_bytes.getvalue():
                    failures.append("%s: pyk's file differs from what np.save writes" % result)

        refused = {
            "bigendianunicode.npy": (np.array(["hello"], dtype=">U5"),
                                     "unsupported dtype '>U5': big-endian unicode"),
            "object.npy": (np.array([1, "x"], dtype=object),
                           "unsupported dtype '|O' " + SUPPORTED),
            "datetimemultiple.npy": (np.array(["2024-01-01"], dtype="datetime64[2D]"),
                                     "unsupported dtype '<M8[2D]' " + SUPPORTED),
            "longdouble.npy": (np.zeros(2, dtype=np.longdouble), "unsupported dtype '%s' %s"
                               % (np.dtype(np.longdouble).str, SUPPORTED)),
            "recordsubarray.npy": (np.zeros(2, dtype=[("x", [("a", "<f4")], (2,))]),
                                   "unsupported structured dtype [('x', [('a', '<f4')], (2,))]: "
                                   "the sub-array of records 'x' (numba has no type for it)"),
            "bigendianfield.npy": (np.zeros(2, dtype=[("x", ">f4")]),
                                   "unsupported structured dtype [('x', '>f4')]: "
                                   "the big-endian field 'x'"),
        }
        for name, (array, message) in refused.items():
            source = os.path.join(folder, name)
            np.save(source, array, allow_pickle=True)
            run = subprocess.run([tool, source, source + ".out"], capture_output=True, text=True)
            expected = "%s: %s\n" % (source, message)
            if run.returncode != 1 or run.stderr != expected:
                failures.append("%s: expected exit 1 and %r, got exit %d and %r"
                                % (name, expected, run.returncode, run.stderr))
            if os.path.exists(source + ".out"):
                failures.append("%s: an output was written for a refused file" % name)

    for failure in failures:
        print("FAIL", failure)
    print("%d arrays round-tripped, %d refusals checked, %d failures"
          % (len(cases), len(refused), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
