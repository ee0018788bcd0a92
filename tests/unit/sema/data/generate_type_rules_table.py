#!/usr/bin/python3
# Type-rules table generator: records numba's typing of scalar operators, casts and math functions.
#
# Ground truth for compiler/sema/typing/TypeRules (checked by tests/unit/sema/TypeRulesTest.cpp). Needs
# Debian's python3-numba (0.56) for /usr/bin/python3; no GPU and no CUDA toolkit.
#
# Every case is recorded for two targets (numba.cuda's own intrinsics, category `cuda`, for the
# cuda target only):
#   cpu   a tiny function compiled with numba.njit for the argument types; the result is
#         `fn.nopython_signatures[0].return_type`, the operands are the argument types of the
#         signature numba chose for the operation (from the compiled function's calltypes).
#   cuda  the same call resolved by numba.cuda's typing context (cudadecl, cudamath, libdevice and
#         the core builtins: what a @cuda.jit kernel types the expression with); unify uses that
#         context's unify_pairs.
#
# Line format (one case per line, sorted as generated):
#   <target> <category> <name> <arg types...> -> <result> [: <operand types...>]
# <result> is a numba type name, `(t1,t2)` for a tuple, `error` when numba's typing rejects the
# case, `nolower` when typing accepted it but the CPU back end could not lower it (float16).
#
# Usage: generate_type_rules_table.py [output path]   (default: numba_type_rules.txt beside this)
import cmath
import itertools
import math
import multiprocessing
import operator
import os
import sys
import warnings

import numba
from numba.core import errors, ir, types

SCALARS = [
    types.boolean, types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint16,
    types.uint32, types.uint64, types.float16, types.float32, types.float64, types.complex64,
    types.complex128,
]
BY_NAME = {str(t): t for t in SCALARS}

BINOPS = [  # ast::BinOpKind name, Python operator, operator module function
    ("Add", "+", operator.add), ("Sub", "-", operator.sub), ("Mult", "*", operator.mul),
    ("MatMult", "@", operator.matmul), ("Div", "/", operator.truediv),
    ("Mod", "%", operator.mod), ("Pow", "**", operator.pow), ("LShift", "<<", operator.lshift),
    ("RShift", ">>", operator.rshift), ("BitOr", "|", operator.or_),
    ("BitXor", "^", operator.xor), ("BitAnd", "&", operator.and_),
    ("FloorDiv", "//", operator.floordiv),
]
UNARYOPS = [  # ast::UnaryOpKind name, Python spelling, operator module function
    ("Invert", "~", operator.invert), ("Not", "not ", operator.not_),
    ("UAdd", "+", operator.pos), ("USub", "-", operator.neg),
]
CMPOPS = [  # ast::CmpOpKind name, Python operator, operator module function (args swapped for in)
    ("Eq", "==", operator.eq), ("NotEq", "!=", operator.ne), ("Lt", "<", operator.lt),
    ("LtE", "<=", operator.le), ("Gt", ">", operator.gt), ("GtE", ">=", operator.ge),
    ("Is", "is", operator.is_), ("IsNot", "is not", operator.is_not),
    ("In", "in", operator.contains), ("NotIn", "not in", operator.contains),
]
# The math functions numba.cuda types (numba/cuda/cudamath.py, numba 0.56 and numba-cuda), by arity.
MATH_UNARY = [
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "degrees", "erf",
    "erfc", "exp", "expm1", "fabs", "floor", "gamma", "lgamma", "log", "log2", "log10", "log1p",
    "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "isinf", "isnan", "isfinite",
    "frexp", "modf",
]
MATH_BINARY = ["atan2", "hypot", "copysign", "fmod", "remainder", "pow", "ldexp"]
# Builtins: name in the table, Python source of the body, arity, callable for the typing context.
BUILTINS = [
    ("abs", "abs(a)", 1, abs), ("min", "min(a, b)", 2, min), ("max", "max(a, b)", 2, max),
    ("round1", "round(a)", 1, round), ("round2", "round(a, b)", 2, round),
    ("int", "int(a)", 1, int), ("float", "float(a)", 1, float), ("bool", "bool(a)", 1, bool),
    ("complex1", "complex(a)", 1, complex), ("complex2", "complex(a, b)", 2, complex),
    ("pow", "pow(a, b)", 2, pow), ("divmod", "divmod(a, b)", 2, divmod),
]
# cmath (numba's cmathdecl, the same for both targets), by arity.
CMATH_UNARY = [
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "log", "log10",
    "sin", "sinh", "sqrt", "tan", "tanh", "isnan", "isinf", "isfinite", "phase", "polar",
]
CMATH_BINARY = ["log", "rect"]
# numba.cuda's integer and float intrinsics (cudadecl; typed for the cuda target only).
CUDA_UNARY = ["popc", "clz", "ffs", "brev", "cbrt"]
FMA_TYPES = [types.boolean, types.int64, types.float32, types.float64]


def type_text(t):
    if isinstance(t, types.BaseTuple):
        return "(" + ",".join(type_text(e) for e in t.types) + ")"
    return str(t)


def cases():
    """(category, name, arg type names, python body, operator-module callable or None)."""
    pairs = list(itertools.product(SCALARS, SCALARS))
    for name, spelling, fn in BINOPS:
        for a, b in pairs:
            yield ("binop", name, (a, b), f"a {spelling} b", fn)
    for name, spelling, fn in UNARYOPS:
        for a in SCALARS:
            yield ("unary", name, (a,), f"{spelling}a", fn)
    for name, spelling, fn in CMPOPS:
        for a, b in pairs:
            yield ("cmp", name, (a, b), f"a {spelling} b", fn)
    for a, b in pairs:
        yield ("unify", "unify", (a, b), None, None)
    for name in MATH_UNARY:
        for a in SCALARS:
            yield ("math", name, (a,), f"math.{name}(a)", getattr(math, name))
    for name in MATH_BINARY:
        for a, b in pairs:
            yield ("math", name, (a, b), f"math.{name}(a, b)", getattr(math, name))
    for name, body, arity, fn in BUILTINS:
        for args in (pairs if arity == 2 else [(a,) for a in SCALARS]):
            yield ("builtin", name, args, body, fn)
    for name in CMATH_UNARY:
        for a in SCALARS:
            yield ("cmath", name, (a,), f"cmath.{name}(a)", getattr(cmath, name))
    for name in CMATH_BINARY:
        for a, b in pairs:
            yield ("cmath", name, (a, b), f"cmath.{name}(a, b)", getattr(cmath, name))
    from numba import cuda
    for name in CUDA_UNARY:
        for a in SCALARS:
            yield ("cuda", name, (a,), None, getattr(cuda, name))
    for args in itertools.product(FMA_TYPES, repeat=3):
        yield ("cuda", "fma", args, None, cuda.fma)
    for a, b in pairs:
        yield ("cuda", "selp", (types.boolean, a, b), None, cuda.selp)


def case_key(case):
    category, name, args = case[0], case[1], case[2]
    return f"{category} {name} {' '.join(str(a) for a in args)}"


def operand_types(cres, category):
    """The argument types of the signature numba chose for the operation itself."""
    wanted = {"binop": "binop", "cmp": "binop", "unary": "unary"}.get(category)
    for expr, sig in cres.type_annotation.calltypes.items():
        if not isinstance(expr, ir.Expr):
            continue
        if category in ("math", "builtin", "cmath") and expr.op == "call":
            return sig.args
        if expr.op == wanted:
            return sig.args
    return None


def run_cpu(case):
    category, name, args, body, _ = case
    if category == "unify":
        src = "def f(c, a, b):\n    x = a\n    if c:\n        x = b\n    return x\n"
        sig_args = (types.boolean,) + tuple(args)
    else:
        params = ", ".join("ab"[: len(args)])
        src = f"import cmath\nimport math\ndef f({params}):\n    return {body}\n"
        sig_args = tuple(args)
    ns = {}
    exec(src, ns)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn = numba.njit(sig_args)(ns["f"])
    except errors.TypingError:
        return f"cpu {case_key(case)} -> error"
    except Exception:  # typing succeeded, lowering did not (float16 on the CPU)
        return f"cpu {case_key(case)} -> nolower"
    sig = fn.nopython_signatures[0]
    line = f"cpu {case_key(case)} -> {type_text(sig.return_type)}"
    if category != "unify":
        ops = operand_types(fn.overloads[sig.args], category)
        if ops:
            line += " : " + " ".join(type_text(t) for t in ops)
    return line


def run_cuda(context, case):
    category, name, args, _, fn = case
    if category == "unify":
        t = context.unify_pairs(args[0], args[1])
        return f"cuda {case_key(case)} -> {type_text(t) if t is not None else 'error'}"
    call_args = tuple(args)
    if name in ("In", "NotIn"):  # `a in b` is operator.contains(b, a)
        call_args = call_args[::-1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sig = context.resolve_function_type(fn, call_args, {})
    except errors.TypingError:
        sig = None
    if sig is None:
        return f"cuda {case_key(case)} -> error"
    ops = sig.args[::-1] if name in ("In", "NotIn") else sig.args
    return (f"cuda {case_key(case)} -> {type_text(sig.return_type)} : "
            + " ".join(type_text(t) for t in ops))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "numba_type_rules.txt")
    all_cases = list(cases())
    from numba.cuda.descriptor import cuda_target
    context = cuda_target.typing_context
    context.refresh()
    cuda_lines = [run_cuda(context, c) for c in all_cases]
    with multiprocessing.Pool(2) as pool:  # numba.cuda's intrinsics have no CPU typing
        cpu_lines = pool.map(run_cpu, [c for c in all_cases if c[0] != "cuda"], chunksize=32)
    with open(out, "w") as f:
        f.write(f"# numba {numba.__version__} typing of scalar operations; generated by "
                "generate_type_rules_table.py, do not edit.\n")
        for line in cpu_lines + cuda_lines:
            f.write(line + "\n")
    print(f"{len(all_cases)} cases, {len(cpu_lines) + len(cuda_lines)} lines -> {out}")


if __name__ == "__main__":
    main()
