#!/usr/bin/python3
"""Writes the C++ pykc generates for every kernel pyk has into a folder, one file a unit, so that
two builds can be compared with `diff -r`: a refactoring of the compiler that changes no
behaviour leaves every file as it was.

usage: dump_generated_code.py PYKC ROOT OUT_DIR [--numba-cases DIR] [--logs FILE_OR_FOLDER...]
                              [--kinds cuda,cpu,cpu-block,ir] [-j N]

The kernels (as tests/nvrtc/compile_every_kernel.py finds them):
  - every function with declared signatures in the .pyk files under ROOT's examples/, bench/,
    stdlib/, tests/conformance/kernels/ and tests/lit/ (lit inputs that expect an error skipped);
  - every specialization in the PYK_SPECIALIZATION_LOG files given with --logs;
  - every case of numba's suite in the folder given with --numba-cases (a run_numba_suite.py
    WORK_DIR/cases: each case's kernel for its launch's signature, and on the CPU also for its
    block shape).
For each, per kind: `cuda` (--emit=cuda), `cpu` (--emit=cpu, any block shape), `cpu-block`
(--emit=cpu --block for the case's block, or 256 and 16,16 for kernels launched by no case) and
`ir` (--emit=ir). A file holds pykc's output, or its exit status and messages when it failed.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nvrtc"))
from compile_every_kernel import pyk_files, read_logs, signed_functions  # noqa: E402

TIMEOUT_S = 300
KINDS = ["cuda", "cpu", "cpu-block", "ir"]


def numba_cases(folder):
    """(path, kernel, signature, block) of each case of numba's suite, distinct."""
    jobs = set()
    for name in sorted(os.listdir(folder)):
        meta_path = os.path.join(folder, name, "case.json")
        if not os.path.exists(meta_path):
            continue
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
        signature = None if meta.get("declared_signature") else meta.get("signature")
        if not signature and not meta.get("declared_signature"):
            continue
        block = ",".join(str(b) for b in meta.get("block", [])) or None
        jobs.add((os.path.join(folder, name, "kernel.pyk"), meta["kernel"], signature, block))
    return sorted(jobs, key=lambda j: (j[0], j[1], j[2] or "", j[3] or ""))


def file_name(root, job, kind, block):
    path, kernel, signature, _ = job
    where = os.path.relpath(path, root) if path.startswith(root) else path
    if "/cases/" in where:  # a numba suite case: its source's digest names it, not its number
        with open(path, "rb") as f:
            where = "numba-suite/" + hashlib.sha1(f.read()).hexdigest()[:16]
    digest = hashlib.sha1((signature or "declared").encode()).hexdigest()[:10]
    name = "%s__%s__%s.%s" % (where.replace("/", "__"), kernel, digest, kind)
    return name + ("-" + block.replace(",", "x") if block else "") + ".txt"


def run_one(pykc, root, out_dir, job, kind, block):
    path, kernel, signature, _ = job
    cmd = [pykc, "emit", path, "--kernel", kernel] + (["--sig", signature] if signature else [])
    if kind == "cuda":
        cmd += ["--emit=cuda"]
    elif kind == "ir":
        cmd += ["--emit=ir"]
    else:
        cmd += ["--emit=cpu"] + (["--block", block] if block else [])
    env = dict(os.environ, NO_COLOR="1", PYK_COMPILE_MESSAGES="0")
    try:
        p = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True,
                           timeout=TIMEOUT_S, env=env)
        text = p.stdout if p.returncode == 0 else "exit %d\n%s%s" % (p.returncode, p.stdout,
                                                                     p.stderr)
    except subprocess.TimeoutExpired:
        text = "timed out after %d s\n" % TIMEOUT_S
    # The case folders' absolute paths differ between runs: only the file's own name is kept.
    text = text.replace(os.path.dirname(path) + os.sep, "")
    with open(os.path.join(out_dir, file_name(root, job, kind, block)), "w",
              encoding="utf-8") as f:
        f.write(text)
    return text.startswith("exit ") or text.startswith("timed out")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pykc")
    parser.add_argument("root")
    parser.add_argument("out_dir")
    parser.add_argument("--numba-cases")
    parser.add_argument("--logs", nargs="*", default=[])
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    opts = parser.parse_args()
    pykc, root = os.path.abspath(opts.pykc), os.path.abspath(opts.root)
    kinds = opts.kinds.split(",")
    os.makedirs(opts.out_dir, exist_ok=True)

    jobs = []
    with concurrent.futures.ThreadPoolExecutor(opts.j) as pool:
        listed = list(pool.map(lambda f: (f, signed_functions(pykc, f)), pyk_files(root)))
    for path, (names, _) in listed:
        jobs += [(path, name, None, None) for name in names or []]
    specs, _ = read_logs(opts.logs)
    jobs += [(os.path.join(root, source) if not os.path.isabs(source) else source, kernel,
              signature, None) for source, kernel, signature in specs]
    if opts.numba_cases:
        jobs += numba_cases(os.path.abspath(opts.numba_cases))

    work = []
    for job in jobs:
        for kind in kinds:
            if kind != "cpu-block":
                work.append((job, kind, None))
            else:
                for block in ([job[3]] if job[3] else ["256", "16,16"]):
                    work.append((job, kind, block))
    with concurrent.futures.ThreadPoolExecutor(opts.j) as pool:
        failed = sum(pool.map(lambda w: run_one(pykc, root, opts.out_dir, *w), work))
    print("%d kernels, %d units written to %s (%d of them failures, kept as such)"
          % (len(jobs), len(work), opts.out_dir, failed))


if __name__ == "__main__":
    main()
