"""The CUDA targets every kernel is compiled for in the `nvrtc` tests (CUBIN for sm_80 and sm_90,
the sm_90 CUBIN of the 32-bit index variant the runtime launches for arrays under 2**31
elements, PTX), and one kernel compiled for them with `pykc emit`: shared by
compile_every_kernel.py and tests/numba_suite/run_numba_suite.py."""
import os
import re
import subprocess
import tempfile

TARGETS = ["sm_80", "sm_90", "sm_90-index32", "ptx"]


def emit_arguments(target):
    """`pykc emit` arguments for a target of TARGETS."""
    if target == "ptx":
        return ["--emit=ptx", "--arch", "sm_90"]
    arch, _, variant = target.partition("-")
    return ["--emit=cubin", "--arch", arch] + (["--index32"] if variant == "index32" else [])


# The first line of each diagnostic pykc prints: `file:line:col: warning: ...`.
DIAGNOSTIC_HEAD = re.compile(r"^\S.*?: (warning|error|fatal error|note): ")


def only_source_warnings(text):
    """Whether pykc's output is only warnings about the user's source (a read no assignment
    reaches, which numba compiles), none about the code pyk generated (NVRTC warned)."""
    heads = [line for line in text.splitlines() if DIAGNOSTIC_HEAD.match(line)]
    return bool(heads) and all(": warning: " in h and "NVRTC warned" not in h for h in heads)


def compile_for_targets(pykc, path, kernel, signature, targets=TARGETS, cwd=None, env=None,
                        timeout=300):
    """Compiles `kernel` of `path` (for `signature`, or its declared ones when None) for each
    target; returns [(target, why)] for those that failed. Anything pykc prints but warnings
    about the user's source fails a target: an NVRTC warning about generated code is a bug in pyk
    as an error is."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="pyk-nvrtc-") as work:
        out = os.path.join(work, "image")
        for target in targets:
            cmd = [pykc, "emit", path, "--kernel", kernel, "-o", out] + \
                (["--sig", signature] if signature else []) + emit_arguments(target)
            try:
                p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                                   timeout=timeout)
            except subprocess.TimeoutExpired:
                failures.append((target, "timed out after %d s" % timeout))
                continue
            text = (p.stdout + p.stderr).strip()
            if p.returncode != 0 or (text and not only_source_warnings(text)):
                failures.append((target, "exit %d\n%s" % (p.returncode, text[-3000:])))
            elif os.path.getsize(out) == 0:
                failures.append((target, "no output"))
    return failures
