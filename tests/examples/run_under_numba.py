#!/usr/bin/env python3
"""Runs every examples/*.pyk as the numba script it also is, under numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1, Debian's python3-numba): each script's host code checks its own result
with asserts, as the example's C++ host does. Fails when any script exits non-zero.

numba 0.56's simulator cannot build a ufunc with target='cuda' (its fake kernels have no
compiled signature to take the return type from), so under it such ufuncs are built for numba's
CPU target instead: the same function body, typed by numba, on the same inputs. Its missing
warp intrinsics come from the conformance suite's shims (tests/conformance/run_conformance.py).

usage: run_under_numba.py EXAMPLES_DIR [-j N]
"""
import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys
import time


# Runs the script as __main__ after pointing numba's ufunc decorators' target='cuda' at 'cpu' and
# adding the warp intrinsics to the simulator.
PRELUDE = """
import runpy, sys
import numba
sys.path.insert(0, sys.argv[1])
from run_conformance import install_simulator_shims
install_simulator_shims()
def on_cpu(decorator):
    def patched(*args, **kwargs):
        if kwargs.get('target') == 'cuda':
            kwargs['target'] = 'cpu'
        return decorator(*args, **kwargs)
    return patched
numba.vectorize = on_cpu(numba.vectorize)
numba.guvectorize = on_cpu(numba.guvectorize)
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name='__main__')
"""


CONFORMANCE = pathlib.Path(__file__).resolve().parent.parent / "conformance"


def run(script):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONDONTWRITEBYTECODE="1")
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", PRELUDE, str(CONFORMANCE), str(script)], env=env,
                              capture_output=True,
                              text=True, timeout=600)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        code, output = "timeout", ""
    return script.name, code, output, time.monotonic() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("examples", type=pathlib.Path)
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    scripts = sorted(args.examples.glob("*.pyk"))
    if not scripts:
        print(f"run_under_numba: no .pyk files in {args.examples}")
        return 1
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for name, code, output, secs in pool.map(run, scripts):
            status = "ok" if code == 0 else f"FAILED ({code})"
            print(f"{name}: {status} in {secs:.1f} s")
            if code != 0:
                failures += 1
                print(output)
    print(f"{len(scripts) - failures} of {len(scripts)} examples ran under numba's simulator")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
