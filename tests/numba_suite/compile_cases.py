"""compile_cases: the compile-only cases (compile_only.py) compiled by pyk, and their table.

Each case is one function numba's tests compile for one signature without launching it under
the simulator. pyk compiles it for the CPU backend (`pykc emit --emit=so`: the C++ compiled by
the host compiler into the shared object a launch loads) and, where pykc has NVRTC, for CUDA
(`nvrtc_targets.TARGETS`: CUBIN sm_80, sm_90, sm_90 index32, PTX). Outcomes:

- compiled: both backends compiled it;
- compiled for CUDA, GPU code refused on the CPU: the function links PTX, a CUBIN... (numba's
  link=), which NVRTC and nvJitLink compile and link; the CPU backend, which cannot run GPU
  code, stops with its located error saying so (counted as compiled as numba does: numba
  compiles for CUDA only);
- refused as numba does: the test expects numba to refuse it (a numba error in `assertRaises`)
  and pyk stops with a located error;
- accepted what numba refuses: listed one by one, each to be looked at;
- error (located): pyk stops with a located error (a feature not supported yet), by cause;
- crash, timeout, internal compiler error: pyk's bugs.
"""

import collections
import json
import os
import subprocess
import tempfile
import time

import nvrtc_targets
from suite_text import by_cause, cause_of, first_error

TIMEOUT_S = 120
# pykc's error for GPU code (PTX, a CUBIN...) linked with a kernel compiled for the CPU.
GPU_CODE_ON_CPU = "GPU code, which the CPU backend cannot run"


def _pykc(cmd, case_dir, env):
    """(status, message) of one pykc command: ok, error (exit 1, located), ice (an internal
    compiler error), crash, timeout."""
    try:
        p = subprocess.run(cmd, cwd=case_dir, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "timeout", "pykc took over %d s" % TIMEOUT_S
    text = (p.stdout + p.stderr).strip()
    if "internal compiler error" in text:
        return "ice", first_error(text)
    if p.returncode < 0 or p.returncode > 1:
        return "crash", "pykc exited with %d: %s" % (p.returncode, text[-300:])
    if p.returncode == 1:
        return "error", first_error(text)
    return "ok", ""


def run_compile_case(pykc, case_dir, cuda, env):
    with open(os.path.join(case_dir, "case.json")) as f:
        meta = json.load(f)
    result = {"case": os.path.basename(case_dir), "kernel": meta["kernel"],
              "test": meta["test"], "numba_refuses": meta.get("numba_refuses")}
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="pyk-compile-") as work:
        status, message = _pykc([pykc, "emit", "kernel.pyk", "--kernel", meta["kernel"],
                                 "--sig", meta["signature"], "--emit=so",
                                 "-o", os.path.join(work, "k.so")], case_dir, env)
    gpu_only = status == "error" and GPU_CODE_ON_CPU in message
    if (status == "ok" or gpu_only) and cuda:
        failures = nvrtc_targets.compile_for_targets(
            pykc, "kernel.pyk", meta["kernel"], meta["signature"], cwd=case_dir, env=env,
            timeout=TIMEOUT_S)
        if failures:
            target, why = failures[0]
            status, message = "cuda", "%s: %s" % (target, first_error(why))
        elif gpu_only:
            status = "gpu_only"
    result["seconds"] = round(time.time() - start, 2)
    if meta.get("numba_refuses"):
        if status == "error":
            status = "refused"
        elif status == "ok":
            status = "accepted"
            message = "the test expects numba to raise %s" % meta["numba_refuses"]
    result.update(status=status, message=message)
    return result


ROWS = [
    ("ok", "compiled (CPU backend{cuda})"),
    ("gpu_only", "compiled by NVRTC and nvJitLink; links GPU code, refused on the CPU (located)"),
    ("refused", "refused with a located error, as numba refuses it"),
    ("accepted", "compiled where numba refuses it (listed)"),
    ("error", "located error: not supported yet (by cause below)"),
    ("cuda", "compiled for the CPU, not by NVRTC"),
    ("ice", "internal compiler error"),
    ("crash", "crash"),
    ("timeout", "timeout"),
]


def _short_test(test_id):
    """`module.test_method` of a unittest id."""
    parts = test_id.split(" ")[0].split(".")
    return ".".join(parts[-3:-2] + parts[-1:]) if len(parts) > 2 else test_id


def compile_table(entries, results, cuda):
    """Markdown: the compiles asked for, the distinct cases and what pyk made of them."""
    asked = len(entries)
    kept_entries = [e for e in entries if e.get("kept")]
    not_kept = collections.Counter(cause_of(e.get("reason", "?")) for e in entries
                                   if not e.get("kept"))
    cases = len(results)
    by_status = collections.Counter(r["status"] for r in results.values())
    pct = lambda n, d: "%.1f%%" % (100.0 * n / d) if d else "-"
    as_numba = sum(by_status.get(s, 0) for s in ("ok", "gpu_only", "refused"))
    lines = ["## Compile-only cases (tests skipped on the simulator)", "",
             "| | cases | share |", "| --- | ---: | ---: |",
             "| compiles asked for by the tests | %d | |" % asked,
             "| written as cases (the rest: not kept, below) | %d | |" % len(kept_entries),
             "| distinct cases (function, source, signature) | %d | 100%% |" % cases,
             "| **compiled as numba does (compiled, or refused where numba refuses)** | **%d** "
             "| **%s** |" % (as_numba, pct(as_numba, cases))]
    for status, label in ROWS:
        lines.append("| %s | %d | %s |" % (label.format(
            cuda=" and NVRTC: CUBIN sm_80, sm_90, sm_90 index32, PTX" if cuda else
            "; NVRTC not checked"), by_status.get(status, 0), pct(by_status.get(status, 0),
                                                                  cases)))
    out = lines + [""]
    if not_kept:
        out += ["### Compiles not written as cases (%d)" % (asked - len(kept_entries)), "",
                "| compiles | why |", "| ---: | --- |"]
        out += ["| %d | %s |" % (n, why.replace("|", "\\|")) for why, n in not_kept.most_common()]
        out.append("")
    failures, examples = by_cause(
        results.values(),
        lambda r: (r["status"], cause_of(r["message"]))
        if r["status"] in ("error", "cuda", "ice", "crash", "timeout") else None)
    if failures:
        out += ["### Not compiled, by cause", "", "| cases | outcome | cause | e.g. |",
                "| ---: | --- | --- | --- |"]
        for key, n in failures.most_common():
            e = examples[key]
            out.append("| %d | %s | %s | %s `%s` (%s) |" % (
                n, key[0], key[1].replace("|", "\\|")[:200], e["case"], e["kernel"],
                _short_test(e["test"])))
        out.append("")
    accepted = [r for r in results.values() if r["status"] == "accepted"]
    if accepted:
        out += ["### Compiled where numba refuses, one by one", "", "| case | test | function "
                "| numba raises |", "| --- | --- | --- | --- |"]
        for r in sorted(accepted, key=lambda r: r["case"]):
            out.append("| %s | %s | `%s` | %s |" % (r["case"], r["test"], r["kernel"],
                                                   r["numba_refuses"]))
        out.append("")
    return "\n".join(out), as_numba
