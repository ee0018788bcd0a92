#!/usr/bin/python3
"""Every kernel pyk has, through the real NVRTC: CUBIN for sm_80 and sm_90 (and the sm_90 CUBIN of
the 32-bit index variant), and PTX.

usage: compile_every_kernel.py PYKC ROOT [--logs FILE_OR_FOLDER...] [--targets sm_80,sm_90,ptx]
                               [-j N] [--report FILE] [--keep-logs]

What is compiled, each for every target:
  - every function with declared signatures (`@cuda.jit("void(...)")`, `@vectorize([...])`) in
    the .pyk files under ROOT's examples/, bench/, stdlib/, tests/conformance/kernels/ and
    tests/lit/ (a lit input that expects an error, `RUN: not`, or does not pass `pykc check`,
    is an error test, and is skipped);
  - every specialization listed in the PYK_SPECIALIZATION_LOG files given with --logs (a folder:
    its *.log files): the signatures the examples and the conformance cases launch (ctest runs
    them first, with the log set). The logs are removed after reading unless --keep-logs, so the next run starts clean.
A target fails when `pykc emit --emit=cubin|ptx` exits non-zero or prints anything: NVRTC's
errors and its warnings about generated code are pyk's bugs. Exits 1 on any failure, and
prints the count of functions and specializations compiled.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

from nvrtc_targets import TARGETS, compile_for_targets

SIGNED_ROOTS = ["examples", "bench", "stdlib", "tests/conformance/kernels", "tests/lit"]
TIMEOUT_S = 300


def pyk_files(root):
    for top in SIGNED_ROOTS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".pyk"):
                    yield os.path.join(folder, name)


def signed_functions(pykc, path):
    """The functions of `path` that declare signatures, from `pykc emit --emit=symbols`; None
    (and why) where `pykc check` reports an error."""
    with open(path, encoding="utf-8", errors="replace") as f:
        if "RUN: not " in f.read():
            return None, "a lit test of an error"
    for command in (["check", path], ["emit", path, "--emit=symbols"]):
        p = subprocess.run([pykc] + command, capture_output=True, text=True, timeout=TIMEOUT_S)
        if p.returncode != 0:
            return None, p.stdout + p.stderr
    names, current = [], None
    for line in p.stdout.splitlines():
        if line and not line.startswith(" ") and "(" in line:
            # `kernel NAME(params)`, `vectorize NAME(params)`, `device NAME(params)`...
            head = line.split("(", 1)[0].split()
            current = head[-1] if len(head) == 2 else None
        elif current and line.strip().startswith("signatures:"):
            if "none" not in line.split(":", 1)[1].split("(")[0]:
                names.append(current)
            current = None
    return names, ""


def log_files(paths):
    """The files given, and the *.log files in the folders given."""
    for path in paths:
        if os.path.isdir(path):
            yield from (os.path.join(path, n) for n in sorted(os.listdir(path))
                        if n.endswith(".log"))
        elif os.path.exists(path):
            yield path


def read_logs(paths):
    """(source, kernel, signature) lines of PYK_SPECIALIZATION_LOG files, deduplicated."""
    specs, unspellable = set(), set()
    for path in log_files(paths):
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if line.startswith("#"):  # a named tuple: no signature string spells it
                    unspellable.add(line)
                elif len(parts) == 3:
                    specs.add(tuple(parts))
    return sorted(specs), len(unspellable)


def compile_one(pykc, job):
    """Compiles one job for every target; returns (job, [failure messages])."""
    path, kernel, signature, targets = job
    failures = compile_for_targets(pykc, path, kernel, signature, targets, timeout=TIMEOUT_S)
    return job, ["%s: %s" % failure for failure in failures]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pykc")
    parser.add_argument("root")
    parser.add_argument("--logs", nargs="*", default=[])
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--report", help="write the counts and every failure to this file")
    parser.add_argument("--keep-logs", action="store_true")
    opts = parser.parse_args()
    pykc, root = os.path.abspath(opts.pykc), os.path.abspath(opts.root)
    targets = opts.targets.split(",")

    jobs, problems, skipped_lit = [], [], 0
    files = list(pyk_files(root))
    with concurrent.futures.ThreadPoolExecutor(opts.j) as pool:
        listed = list(pool.map(lambda f: (f, signed_functions(pykc, f)), files))
    for path, (names, error) in listed:
        if names is None:
            if os.sep + os.path.join("tests", "lit") + os.sep in path:
                skipped_lit += 1  # an error test: its diagnostics are what it checks
            else:
                problems.append("%s: `pykc check` failed:\n%s" % (path, error))
            continue
        jobs += [(path, name, None, targets) for name in names]
    declared = len(jobs)
    gone = 0
    logged_specs, unspellable = read_logs(opts.logs)
    for source, kernel, signature in logged_specs:
        if not os.path.exists(source):
            gone += 1
            continue
        jobs.append((source, kernel, signature, targets))
    logged = len(jobs) - declared

    with concurrent.futures.ThreadPoolExecutor(opts.j) as pool:
        results = list(pool.map(lambda j: compile_one(pykc, j), jobs))
    for (path, kernel, signature, _), failures in results:
        for f in failures:
            problems.append("%s `%s`%s %s" % (os.path.relpath(path, root), kernel,
                                               " " + signature if signature else "", f))
    if not opts.keep_logs:
        for path in list(log_files(opts.logs)):
            os.remove(path)

    summary = ("NVRTC (%s): %d functions with declared signatures in %d files and %d logged "
               "specializations, %d compiles, %d failed; %d lit error tests skipped, %d logged "
               "sources gone, %d logged with named tuples (no signature spelling)"
               % (", ".join(targets), declared, len(files) - skipped_lit, logged,
                  len(jobs) * len(targets), len(problems), skipped_lit, gone, unspellable))
    for p in problems:
        print("FAIL " + p)
    print(summary)
    if opts.report:
        with open(opts.report, "w", encoding="utf-8") as f:
            f.write(summary + "\n" + "".join("FAIL %s\n" % p for p in problems))
    if not jobs:
        print("compile_every_kernel: nothing to compile", file=sys.stderr)
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
