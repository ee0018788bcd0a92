#!/usr/bin/python3
"""run_numba_suite: numba's own CUDA test suite, launch by launch, through pyk.

Collects the launches (collect_launches.py, under numba's CUDA simulator), then runs every kept
one through `pykc run --backend cpu` and compares each array argument with what the simulator
left in it (integers and bools exactly; floats within a tolerance for their width; NaN where
NaN). Each case's kernel is also compiled for CUDA by NVRTC (`pykc emit`: CUBIN for sm_80 and
sm_90, and PTX) for the launch's argument types, once per distinct kernel and signature, when
pykc has NVRTC; an NVRTC warning fails it as an error does.

Prints a table (launches seen, kept and why not, compiled, matched), the failures grouped by
cause and every wrong result one by one; `--markdown FILE` writes the same as markdown.
`--min-matched N` exits 1 when fewer than N launches match (CI's floor).

usage: run_numba_suite.py PYKC WORK_DIR [--tests PATTERN] [-j N] [--no-cuda] [--markdown FILE]
                          [--min-matched N | --min-matched-file FILE] [--reuse]
                          [--collect-only] [--backend cpu|cuda] [--time-limit SECONDS]
                          [--sample N] [--python PYTHON] [--differs-file FILE]
                          [--compile-only]

`--compile-only` measures instead the kernels the tests compile without the simulator running
them (the tests marked skip_on_cudasim; compile_only.py, compile_cases.py): each distinct one
compiled for the CPU backend and by NVRTC; `--min-matched` is then the floor of those compiled
as numba does.

On a GPU machine without numba: collect here (`--collect-only`), carry WORK_DIR, run there with
`--reuse --backend cuda --no-cuda` (scripts/build_gpu.sh and run_gpu_tests.sh do so).
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nvrtc"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvrtc_targets import compile_for_targets  # noqa: E402
import compile_cases  # noqa: E402
from suite_text import by_cause, cause_of, first_error  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT_S = 120

# Relative tolerance by float width: the simulator computes float32 math in double (Python's
# floats) where compiled numba rounds each float32 operation.
RTOL = {2: 1e-2, 4: 1e-5, 8: 1e-10}


def compare_arrays(expected, actual, path="array"):
    """None when equal within tolerance, else a short description of the first difference."""
    if expected.shape != actual.shape:
        return "%s: shape %s, expected %s" % (path, actual.shape, expected.shape)
    if expected.dtype != actual.dtype:
        return "%s: dtype %s, expected %s" % (path, actual.dtype, expected.dtype)
    if expected.dtype.fields is not None:
        for name in expected.dtype.names:
            d = compare_arrays(expected[name], actual[name], "%s.%s" % (path, name))
            if d:
                return d
        return None
    kind = expected.dtype.kind
    if kind == "c":
        # As numba's own assertPreciseEqual (cmath.isnan on both): complex numbers that each have
        # a NaN part are equal. numba's cmath (cpython/cmathimpl.py) puts its NaNs in other parts
        # than CPython's cmath, which the simulator runs (acos(nanj) is nan+nanj in compiled numba,
        # pi/2+nanj in CPython).
        both_nan = ((np.isnan(expected.real) | np.isnan(expected.imag)) &
                    (np.isnan(actual.real) | np.isnan(actual.imag)))
        expected = np.where(both_nan, np.nan, expected).astype(expected.dtype)
        actual = np.where(both_nan, np.nan, actual).astype(actual.dtype)
        return (compare_arrays(expected.real, actual.real, path + ".real") or
                compare_arrays(expected.imag, actual.imag, path + ".imag"))
    if kind == "f":
        rtol = RTOL[expected.dtype.itemsize]
        e = expected.astype(np.float64)
        a = actual.astype(np.float64)
        both_nan = np.isnan(e) & np.isnan(a)
        finite = np.isfinite(e) & np.isfinite(a)
        close = np.zeros(e.shape, dtype=bool)
        tiny = np.finfo(expected.dtype).tiny
        close[finite] = np.abs(e[finite] - a[finite]) <= rtol * np.abs(e[finite]) + tiny * 16
        same_inf = ~finite & ~both_nan & (e == a)
        ok = both_nan | close | same_inf
    elif kind in "mM":
        # datetime64 / timedelta64: the counts (NaT, which compares unequal to itself, is one).
        ok = expected.view(np.int64) == actual.view(np.int64)
    else:
        ok = expected == actual
    if np.all(ok):
        return None
    bad = np.argwhere(~np.asarray(ok))
    first = tuple(int(x) for x in bad[0]) if bad.size else ()
    where = first if expected.ndim else ()
    return "%s[%s]: %r, expected %r (%d element(s) differ)" % (
        path, ", ".join(map(str, where)), actual[where] if expected.ndim else actual[()],
        expected[where] if expected.ndim else expected[()], len(bad))


def run_case(pykc, case_dir, cuda, env, backend):
    with open(os.path.join(case_dir, "case.json")) as f:
        meta = json.load(f)
    out_dir = os.path.join(case_dir, "pyk_out")
    shutil.rmtree(out_dir, ignore_errors=True)
    cmd = [pykc, "run", "kernel.pyk", meta["kernel"],
           "--grid", ",".join(map(str, meta["grid"])),
           "--block", ",".join(map(str, meta["block"])),
           "--shared", str(meta["shared"]), "--backend", backend, "--out", "pyk_out"] + meta["args"]
    result = {"case": os.path.basename(case_dir), "kernel": meta["kernel"]}
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=case_dir, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        result.update(status="timeout", message="pykc run took over %d s" % TIMEOUT_S)
        return result
    result["seconds"] = round(time.time() - start, 2)
    output = p.stdout + p.stderr
    if p.returncode < 0 or p.returncode > 1:
        result.update(status="crash", message="pykc run exited with %d: %s" % (
            p.returncode, output.strip()[-400:]))
        return result
    if p.returncode == 1:
        result.update(status="error", message=first_error(output))
    else:
        diffs = []
        for name in ["arg%s.npy" % k for k in meta["compared"]]:
            expected = np.load(os.path.join(case_dir, "expected", name), allow_pickle=False)
            actual_path = os.path.join(out_dir, name)
            if not os.path.exists(actual_path):
                diffs.append("%s was not written" % name)
                continue
            actual = np.load(actual_path, allow_pickle=False)
            d = compare_arrays(expected, actual, name[:-4])
            if d:
                diffs.append(d)
        if diffs:
            result.update(status="wrong", message="; ".join(diffs))
        else:
            result["status"] = "match"
    if backend == "cpu" and (meta.get("signature") or meta.get("declared_signature")):
        result["cpu_mode"], result["cpu_mode_reason"] = cpu_mode(pykc, case_dir, meta, env)
    if cuda and (meta.get("signature") or meta.get("declared_signature")):
        ok, message = cuda_check(pykc, case_dir, meta, env)
        result["cubin"] = ok
        if not ok:
            result["cubin_message"] = message
    return result


_cpu_modes = {}  # (source digest, kernel, signature) -> (mode, reason)
_cpu_modes_lock = threading.Lock()


def cpu_mode(pykc, case_dir, meta, env):
    """(mode, reason) of the CPU backend's plan for the case's kernel and signature, as
    `pykc emit --emit=cpu` states it on its first line (`// mode: fiber (each thread a fiber:
    ...)`); ("?", why) where emission failed. Each distinct kernel and signature once."""
    with open(os.path.join(case_dir, "kernel.pyk"), "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()
    signature = None if meta.get("declared_signature") else meta["signature"]
    key = (digest, meta["kernel"], signature)
    with _cpu_modes_lock:
        if key in _cpu_modes:
            return _cpu_modes[key]
    cmd = [pykc, "emit", "kernel.pyk", "--emit=cpu", "--kernel", meta["kernel"]]
    if signature:
        cmd += ["--sig", signature]
    try:
        p = subprocess.run(cmd, cwd=case_dir, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
        first = p.stdout.splitlines()[0] if p.returncode == 0 and p.stdout else ""
    except subprocess.TimeoutExpired:
        first = ""
    m = re.match(r"// mode: (\w+) \((.*)\)$", first)
    found = (m.group(1), m.group(2)) if m else ("?", first_error(first or "no mode line"))
    with _cpu_modes_lock:
        _cpu_modes[key] = found
    return found


_cuda_checks = {}  # (source digest, kernel, signature) -> {"done": Event, "result": (ok, msg)}
_cuda_checks_lock = threading.Lock()


def cuda_check(pykc, case_dir, meta, env):
    """(ok, first error) of compiling the case's kernel for its signature with NVRTC for every
    target of nvrtc_targets.TARGETS; anything pykc prints (an NVRTC warning) but warnings about
    the source fails it. Many launches share a kernel and a signature: each distinct one is
    compiled once."""
    with open(os.path.join(case_dir, "kernel.pyk"), "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()
    signature = None if meta.get("declared_signature") else meta["signature"]
    key = (digest, meta["kernel"], signature)
    with _cuda_checks_lock:
        entry = _cuda_checks.get(key)
        owner = entry is None
        if owner:
            entry = _cuda_checks[key] = {"done": threading.Event(), "result": None}
    if not owner:
        entry["done"].wait()
        return entry["result"]
    result = (True, "")
    try:
        failures = compile_for_targets(pykc, "kernel.pyk", meta["kernel"], signature,
                                       cwd=case_dir, env=env, timeout=TIMEOUT_S)
        if failures:
            target, why = failures[0]
            result = (False, "%s: %s" % (target, first_error(why)))
    finally:
        entry["result"] = result
        entry["done"].set()
    return result


def read_divergences(path):
    """{(test id, kernel): reason} of compiled_numba_differs.txt: launches where compiled numba
    (and pyk with it) computes another result than the simulator, each with the reason."""
    listed = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                key, reason = line.split("|", 1)
                test, kernel = key.split()
                listed[(test, kernel)] = reason.strip()
    return listed


def mark_divergences(launches, results, listed):
    """A wrong result of a listed launch becomes `differs`, with the listed reason."""
    test_of = {e.get("case"): e["test"] for e in launches if e.get("kept")}
    for r in results.values():
        reason = listed.get((test_of.get(r["case"]), r["kernel"]))
        if r["status"] == "wrong" and reason:
            r.update(status="differs", reason=reason)


def has_nvrtc(pykc):
    probe = "from numba import cuda\n\n@cuda.jit\ndef k(a):\n    a[0] = 1\n"
    path = os.path.join("/tmp", "pyk_nvrtc_probe_%d.pyk" % os.getpid())
    with open(path, "w") as f:
        f.write(probe)
    try:
        p = subprocess.run([pykc, "emit", path, "--sig", "void(int64[::1])", "--emit=ptx"],
                           capture_output=True, text=True, timeout=60)
        return p.returncode == 0
    finally:
        os.unlink(path)


def fiber_cause(reason):
    """A fiber reason grouped: its particulars blanked, positions (`12:5`) too."""
    return cause_of(re.sub(r"\b\d+:\d+\b", "L:C", reason.replace("each thread a fiber: ", "")))


def table(launches, results, cuda, backend="cpu"):
    seen = len(launches)
    kept = [e for e in launches if e.get("kept")]
    not_kept = collections.Counter(cause_of(e.get("reason", "?")) for e in launches
                                   if not e.get("kept"))
    by_status = collections.Counter(r["status"] for r in results.values())
    compiled = sum(1 for r in results.values() if r["status"] in ("match", "wrong", "differs"))
    matched = by_status.get("match", 0)
    lines = []
    pct = lambda n, d: "%.1f%%" % (100.0 * n / d) if d else "-"
    lines.append("| | launches | share of kept |")
    lines.append("| --- | ---: | ---: |")
    lines.append("| seen | %d | |" % seen)
    lines.append("| kept | %d | 100%% |" % len(kept))
    lines.append("| compiled and ran (%s backend) | %d | %s |"
                 % (backend.upper(), compiled, pct(compiled, len(kept))))
    lines.append("| **matched the simulator** | **%d** | **%s** |" % (matched, pct(matched, len(kept))))
    lines.append("| wrong result | %d | %s |" % (by_status.get("wrong", 0),
                                                pct(by_status.get("wrong", 0), len(kept))))
    lines.append("| differs from the simulator as compiled numba does (listed) | %d | |"
                 % by_status.get("differs", 0))
    lines.append("| error (located) | %d | |" % by_status.get("error", 0))
    lines.append("| crash | %d | |" % by_status.get("crash", 0))
    lines.append("| timeout | %d | |" % by_status.get("timeout", 0))
    if len(results) < len(kept):
        lines.append("| not run (the run's --time-limit or --sample) | %d | %s |"
                     % (len(kept) - len(results), pct(len(kept) - len(results), len(kept))))
    if cuda:
        with_sig = [r for r in results.values() if "cubin" in r]
        cubins = sum(1 for r in with_sig if r["cubin"])
        both = sum(1 for r in with_sig if r["cubin"] and r["status"] == "match")
        lines.append("| compiled by NVRTC (CUBIN sm_80, sm_90 and sm_90 index32, PTX) | %d of %d | %s |"
                     % (cubins, len(with_sig), pct(cubins, len(kept))))
        lines.append("| matched and compiled by NVRTC | %d | %s |" % (both, pct(both, len(kept))))
    out = ["## Launches", ""] + lines + [""]
    if not_kept:
        out += ["## Not kept (%d)" % (seen - len(kept)), "", "| launches | why |",
                "| ---: | --- |"]
        out += ["| %d | %s |" % (n, why) for why, n in not_kept.most_common()]
        out.append("")
    failures, examples = by_cause(
        results.values(),
        lambda r: cause_of(r["message"]) if r["status"] in ("error", "crash", "timeout") else None)
    if failures:
        out += ["## Not compiled or not run, by cause", "", "| launches | cause | e.g. |",
                "| ---: | --- | --- |"]
        for key, n in failures.most_common():
            e = examples[key]
            out.append("| %d | %s | %s `%s`: %s |" % (n, key.replace("|", "\\|"), e["case"],
                                                    e["kernel"],
                                                    e["message"].replace("|", "\\|")[:160]))
        out.append("")
    if cuda:
        cubin_fail, cubin_examples = by_cause(
            results.values(),
            lambda r: cause_of(r["cubin_message"]) if r.get("cubin") is False else None)
        if cubin_fail:
            out += ["## Not compiled by NVRTC, by cause", "", "| launches | cause | e.g. |",
                    "| ---: | --- | --- |"]
            for key, n in cubin_fail.most_common():
                e = cubin_examples[key]
                out.append("| %d | %s | %s `%s` |" % (n, key.replace("|", "\\|")[:200],
                                                     e["case"], e["kernel"]))
            out.append("")
    modes = collections.Counter(r["cpu_mode"] for r in results.values() if "cpu_mode" in r)
    if modes:
        out += ["## How the CPU backend runs each launch's block (census)", "",
                "| launches | mode |", "| ---: | --- |"]
        out += ["| %d | %s |" % (n, mode) for mode, n in modes.most_common()]
        out.append("")
        fibers, fiber_examples = by_cause(
            results.values(),
            lambda r: fiber_cause(r["cpu_mode_reason"]) if r.get("cpu_mode") == "fiber" else None)
        if fibers:
            out += ["Fibers, by reason:", "", "| launches | reason | e.g. |", "| ---: | --- | --- |"]
            for key, n in fibers.most_common():
                e = fiber_examples[key]
                out.append("| %d | %s | %s `%s`: %s |" % (
                    n, key.replace("|", "\\|"), e["case"], e["kernel"],
                    e["cpu_mode_reason"].replace("|", "\\|")[:200]))
            out.append("")
    wrong = [r for r in results.values() if r["status"] == "wrong"]
    if wrong:
        test_of = {e.get("case"): e["test"] for e in launches if e.get("kept")}
        out += ["## Wrong results, one by one", "", "| case | test | kernel | difference |",
                "| --- | --- | --- | --- |"]
        for r in sorted(wrong, key=lambda r: r["case"]):
            out.append("| %s | %s | `%s` | %s |" % (r["case"], test_of.get(r["case"], "?"),
                                                   r["kernel"],
                                                   r["message"].replace("|", "\\|")[:300]))
        out.append("")
    differs = [r for r in results.values() if r["status"] == "differs"]
    if differs:
        test_of = {e.get("case"): e["test"] for e in launches if e.get("kept")}
        out += ["## Where compiled numba differs from the simulator (compiled_numba_differs.txt)",
                "", "| case | test | kernel | difference | why |", "| --- | --- | --- | --- | --- |"]
        for r in sorted(differs, key=lambda r: r["case"]):
            out.append("| %s | %s | `%s` | %s | %s |" % (
                r["case"], test_of.get(r["case"], "?"), r["kernel"],
                r["message"].replace("|", "\\|")[:200], r["reason"].replace("|", "\\|")))
        out.append("")
    return "\n".join(out), matched


def run_compile_only(args, pykc, work, env, cuda):
    """The compile-only cases collected in WORK_DIR/compiles, compiled, tabulated."""
    with open(os.path.join(work, "compiles.json")) as f:
        entries = json.load(f)
    folder = os.path.join(work, "compiles")
    cases = [os.path.join(folder, c) for c in sorted(os.listdir(folder))][::max(1, args.sample)]
    start = time.time()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(lambda c: compile_cases.run_compile_case(pykc, c, cuda, env), cases):
            results[r["case"]] = r
    with open(os.path.join(work, "compile_results.json"), "w") as f:
        json.dump(results, f, indent=1)
    text, as_numba = compile_cases.compile_table(entries, results, cuda)
    return report(args, text, "(%d cases compiled in %.0f s)" % (len(cases), time.time() - start),
                  as_numba, "cases compiled as numba does")


def report(args, text, timing, count, what):
    """Prints the table and how long it took, writes it to --markdown, and returns 1 when `count`
    (of `what`) is under the --min-matched floor, else 0."""
    print(text)
    print(timing)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.min_matched is not None and count < args.min_matched:
        print("FAIL: %d %s, fewer than the committed %d" % (count, what, args.min_matched))
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pykc")
    parser.add_argument("work_dir")
    parser.add_argument("--tests", default="*")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--no-cuda", action="store_true", help="skip the CUBIN compile check")
    parser.add_argument("--markdown")
    parser.add_argument("--min-matched", type=int)
    parser.add_argument("--min-matched-file",
                        help="a file holding the floor (the committed figure) for --min-matched")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the launches already collected in WORK_DIR")
    parser.add_argument("--collect-only", action="store_true",
                        help="collect the launches into WORK_DIR and stop (to run them elsewhere "
                        "with --reuse, e.g. on a GPU machine without numba)")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="start no launch after this many seconds; the table counts the "
                        "launches not run (a partial run, e.g. in a GPU lease)")
    parser.add_argument("--sample", type=int, default=1, metavar="N",
                        help="run every Nth kept launch only, in the order collected: a fixed "
                        "subset (CI's for numba-cuda's suite); the table counts the rest as not run")
    parser.add_argument("--backend", choices=["cpu", "cuda"], default="cpu",
                        help="the backend `pykc run` launches on (default cpu)")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the Python whose numba's tests are collected (default Debian's, "
                        "numba 0.56; tests/numba_cuda_suite passes the venv's, numba-cuda)")
    parser.add_argument("--differs-file", default=os.path.join(HERE, "compiled_numba_differs.txt"),
                        help="launches where compiled numba differs from the simulator, each "
                        "with the reason (default: this folder's compiled_numba_differs.txt)")
    parser.add_argument("--compile-only", action="store_true",
                        help="measure the compiles of the tests skipped on the simulator instead "
                        "of the launches (compile_only.py)")
    args = parser.parse_args()
    if args.min_matched_file:
        with open(args.min_matched_file) as f:
            args.min_matched = int(f.read().split()[0])
    pykc = os.path.abspath(args.pykc)
    work = os.path.abspath(args.work_dir)
    if not args.reuse and not os.access(args.python, os.X_OK):
        print("SKIP: %s is missing; scripts/setup_numba_cuda.sh installs numba-cuda's venv"
              % args.python)
        return 77

    if not args.reuse:
        shutil.rmtree(work, ignore_errors=True)
        collect = subprocess.run([args.python, os.path.join(HERE, "collect_launches.py"),
                                  work, "--tests", args.tests] +
                                 (["--compile-only"] if args.compile_only else []),
                                 capture_output=True, text=True)
        if collect.returncode != 0:
            sys.stderr.write(collect.stdout + collect.stderr)
            return 2
        print(collect.stdout.strip().splitlines()[-1])
        if args.collect_only:
            return 0
    env = dict(os.environ)
    env["PYK_CACHE_DIR"] = os.path.join(work, "cache")
    env.pop("PYK_BACKEND", None)
    cuda = not args.no_cuda and has_nvrtc(pykc)
    if args.compile_only:
        return run_compile_only(args, pykc, work, env, cuda)
    with open(os.path.join(work, "launches.json")) as f:
        launches = json.load(f)
    cases = [os.path.join(work, "cases", e["case"]) for e in launches if e.get("kept")]
    cases = cases[::max(1, args.sample)]
    results = {}
    start = time.time()
    if args.time_limit:
        # A partial run samples the whole suite rather than its first test files: a fixed order
        # by digest of the case's name, the same on every run.
        cases.sort(key=lambda c: hashlib.sha256(os.path.basename(c).encode()).hexdigest())
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    futures = {pool.submit(run_case, pykc, c, cuda, env, args.backend): c for c in cases}
    try:
        for done, f in enumerate(concurrent.futures.as_completed(futures, args.time_limit), 1):
            r = f.result()
            results[r["case"]] = r
            if done % 200 == 0:
                sys.stderr.write("%d of %d launches run (%.0f s)\n" % (
                    done, len(cases), time.time() - start))
    except concurrent.futures.TimeoutError:
        # Launches not started are dropped; those running finish and count.
        pool.shutdown(wait=True, cancel_futures=True)
        for f in futures:
            if f.done() and not f.cancelled():
                r = f.result()
                results[r["case"]] = r
        sys.stderr.write("time limit of %d s: %d of %d launches run, the rest not\n" % (
            args.time_limit, len(results), len(cases)))
    pool.shutdown(wait=True)
    mark_divergences(launches, results, read_divergences(args.differs_file))
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    text, matched = table(launches, results, cuda, args.backend)
    return report(args, text, "(%d launches run in %.0f s)" % (len(cases), time.time() - start),
                  matched, "launches matched")


if __name__ == "__main__":
    sys.exit(main())
