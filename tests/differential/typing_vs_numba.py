#!/usr/bin/env python3
"""typing_vs_numba: pyk's type inference against numba's own, for the CUDA target.

numba types each SSA version of a variable on its own (`x = 1` then `x = 2.5` gives an int64 and
a float64 version); for every variable the set of its versions' types must be numba's.

Each kernel of the corpus is also compiled to PTX through NVRTC when pykc has it: the code
pyk generates for it must compile.

For each (file, kernel, signature) of a corpus, runs numba's CUDA type inference (Debian's
numba 0.56: its typing stage needs neither a GPU nor NVVM) and `pykc emit --emit=typed`, and
compares the type of every local variable. Rules where the compiled numba-cuda of today differs
from 0.56 (../shared/NUMBA_SEMANTICS.md wins) are listed in KNOWN_DIFFERENCES, each with its
reason; any other difference fails.

usage: typing_vs_numba.py PYKC CORPUS   (CORPUS: lines `file.pyk kernel signature`)
"""
import ast
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys

os.environ.setdefault("NUMBA_DISABLE_CUDA", "0")

import numba  # noqa: E402
from numba.core import compiler, sigutils  # noqa: E402
from numba.core.compiler_machinery import FunctionPass, PassManager, register_pass  # noqa: E402
from numba.core.typed_passes import NopythonTypeInference  # noqa: E402
from numba.cuda.compiler import CUDAFlags  # noqa: E402
from numba.cuda.descriptor import cuda_target  # noqa: E402


@register_pass(mutates_CFG=False, analysis_only=True)
class _StopAfterTyping(FunctionPass):
    """Ends numba's pipeline once types are inferred (no lowering: no libNVVM needed)."""
    _name = "pyk_stop_after_typing"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        state.cr = True  # a result, so the pipeline counts as finished
        return False


class _TypingPipeline(compiler.CompilerBase):
    """numba's CUDA pipeline up to type inference: the untyped passes (SSA reconstruction, dead
    branch pruning, literal propagation...) exactly as CUDACompiler runs them, then typing."""

    def define_pipelines(self):
        pm = PassManager("pyk_typing")
        pm.passes.extend(compiler.DefaultPassBuilder.define_untyped_pipeline(self.state).passes)
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(_StopAfterTyping, "stop")
        pm.finalize()
        return [pm]


def _unliteral(t):
    """numba's type of a variable bound to a constant is Literal[int](3); its value type int64."""
    return str(numba.core.types.unliteral(t))

# Where numba 0.56 and today's numba-cuda differ, for names assigned straight from a call:
# {called attribute: (numba 0.56's type, pyk's type, why pyk's is right)}.
KNOWN_DIFFERENCES = {
    "grid": ("int32", "int64", "cuda.grid returns int64 in numba-cuda (NUMBA_SEMANTICS.md)"),
    "gridsize": ("int32", "int64", "cuda.gridsize returns int64 in numba-cuda (NUMBA_SEMANTICS.md)"),
}


def names_assigned_from(path, kernel):
    """{local name: called attribute} for `x = cuda.grid(1)` and `x, y = cuda.grid(2)`."""
    tree = ast.parse(open(path).read())
    out = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.FunctionDef) and node.name == kernel):
            continue
        for stmt in ast.walk(node):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)):
                continue
            func = stmt.value.func
            if not (isinstance(func, ast.Attribute) and func.attr in KNOWN_DIFFERENCES):
                continue
            for target in stmt.targets:
                elts = target.elts if isinstance(target, ast.Tuple) else [target]
                for e in elts:
                    if isinstance(e, ast.Name):
                        out[e.id] = func.attr
    return out


def numba_locals(path, kernel, signature):
    # .pyk is not a suffix importlib knows: name the loader.
    loader = importlib.machinery.SourceFileLoader("corpus_module", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    function = getattr(module, kernel)
    function = getattr(function, "py_func", function)
    args, return_type = sigutils.normalize_signature(signature)
    typing_context = cuda_target.typing_context
    target_context = cuda_target.target_context
    typing_context.refresh()
    target_context.refresh()
    flags = CUDAFlags()
    flags.no_compile = True
    flags.no_cpython_wrapper = True
    flags.no_cfunc_wrapper = True
    pipeline = _TypingPipeline(typing_context, target_context, None, args, return_type, flags, {})
    try:
        pipeline.compile_extra(function)
    except compiler.CompilerError:
        pass  # "all pipelines exhausted": raised after our stop, the types are there
    if pipeline.state.get("typemap") is None:
        raise pipeline.state.status.fail_reason or RuntimeError("numba did not type the kernel")
    types = {}
    for name, t in pipeline.state.typemap.items():
        if name.startswith("$") or name.startswith("arg.") or str(t).startswith("Function("):
            continue  # numba's temporaries, argument slots and global function objects
        base = name.split(".")[0]  # SSA versions: x, x.1, x.2
        types.setdefault(base, set()).add(_unliteral(t))
    return types


def pyk_locals(pykc, path, kernel, signature):
    out = subprocess.run([pykc, "emit", path, "--emit=typed", "--kernel", kernel, "--sig",
                          signature], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    types = {}
    header = None
    for line in out.stdout.splitlines():
        if not line.startswith(" "):
            header = line
            continue
        if header is None or not header.split(" ", 1)[-1].startswith(kernel + "("):
            continue  # callee specializations
        m = re.match(r"  (?:param|local) (\w+): (.*)$", line)
        if m:
            # The distinct types of the variable's SSA versions, `int64 | float64`.
            types[m.group(1)] = set(m.group(2).split(" | "))
    return types


def compiles_to_ptx(pykc, path, kernel, signature):
    out = subprocess.run([pykc, "emit", path, "--emit=ptx", "--kernel", kernel, "--sig",
                          signature], capture_output=True, text=True)
    if out.returncode != 0 or ".entry" not in out.stdout:
        return out.stderr.strip() or "no entry point in the PTX"
    return None


def main():
    pykc, corpus = sys.argv[1], sys.argv[2]
    version = subprocess.run([pykc, "--version"], capture_output=True, text=True).stdout
    with_nvrtc = "NVRTC none" not in version
    root = os.path.dirname(os.path.abspath(corpus))
    passed = failed = 0
    for line in open(corpus):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        path, kernel, signature = line.split(None, 2)
        path = os.path.join(root, path)
        label = f"{os.path.basename(path)}:{kernel} {signature}"
        try:
            expected = numba_locals(path, kernel, signature)
            actual = pyk_locals(pykc, path, kernel, signature)
        except Exception as e:  # a typing failure on either side is a failed case
            print(f"FAIL {label}: {e}".rstrip())
            failed += 1
            continue
        problems = []
        known = names_assigned_from(path, kernel)
        for name, numba_types in sorted(expected.items()):
            ours = actual.get(name)
            if ours is None:
                problems.append(f"`{name}`: numba {sorted(numba_types)}, pyk has no such local")
                continue
            if ours == numba_types:
                continue
            if len(numba_types) == 1 and name in known:
                theirs, expected_ours, _ = KNOWN_DIFFERENCES[known[name]]
                if next(iter(numba_types)) == theirs and ours == {expected_ours}:
                    continue
            problems.append(f"`{name}`: numba {sorted(numba_types)}, pyk {sorted(ours)}")
        if with_nvrtc:
            ptx_error = compiles_to_ptx(pykc, path, kernel, signature)
            if ptx_error:
                problems.append("PTX: " + ptx_error)
        if problems:
            print(f"FAIL {label}: " + "; ".join(problems))
            failed += 1
        else:
            print(f"ok   {label}" + (" (and PTX)" if with_nvrtc else ""))
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
