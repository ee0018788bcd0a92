#!/usr/bin/python3
"""collect_launches: numba's own CUDA tests, run under numba's CUDA simulator, launch by launch.

Every `@cuda.jit` kernel a test launches is written out as a standalone case: the kernel's source
with the device functions, @njit functions, module constants, arrays, enums and imports it uses
(`kernel.pyk`), the launch (grid, block, dynamic shared memory), its inputs (`in/arg<i>.npy` or a
typed scalar) and what the simulator left in every array argument afterwards (`expected/`). A
launch that cannot be written out (its source is not available, an argument has no `pykc run`
spelling, the simulator raised, ...) is recorded as not kept, with the reason.

usage: collect_launches.py OUT_DIR [--tests PATTERN] [--compile-only] [-v]

Writes OUT_DIR/cases/NNNNN/ and OUT_DIR/launches.json (every launch seen, kept or not). Run with
Debian's python3 (numba 0.56 and its tests come from python3-numba).

`--compile-only` runs instead the tests marked `skip_on_cudasim` and records the compiles they
ask for (compile_only.py): OUT_DIR/compiles/cNNNNN/ and OUT_DIR/compiles.json.
"""

import os
import sys

# The simulator must be selected before numba is imported.
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import argparse  # noqa: E402
import fnmatch  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import signal  # noqa: E402
import unittest  # noqa: E402

import numba  # noqa: E402
from numba import cuda  # noqa: E402
from numba.cuda.simulator import kernel as sim_kernel  # noqa: E402
from numba.cuda.simulator import kernelapi as sim_kernelapi  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import case_writer  # noqa: E402
import compile_only  # noqa: E402
import module_source  # noqa: E402

# numba's test folders that launch kernels; `cudadrv`, `cudasim` and `nocuda` test the driver and
# the simulator themselves.
TEST_PACKAGES = ["numba.cuda.tests.cudapy", "numba.cuda.tests.doc_examples"]


class Recorder:
    """Receives every kernel launch the simulator runs."""

    def __init__(self, out_dir, verbose):
        self.out_dir = out_dir
        self.verbose = verbose
        self.launches = []
        self.current_test = "?"
        self.writer = case_writer.CaseWriter(os.path.join(out_dir, "cases"))

    def launch(self, kernel, args, run, rerun):
        entry = {"index": len(self.launches), "test": self.current_test,
                 "kernel": getattr(kernel.fn, "__name__", "?")}
        self.launches.append(entry)
        case = self.writer.begin(entry["index"], kernel, args)
        try:
            with uninitialized_memory_filled_with(0xA5):
                result = run()
        except BaseException as e:  # the test may expect it; it is re-raised unchanged
            entry["kept"] = False
            entry["reason"] = "the simulator raised " + type(e).__name__
            self.writer.discard(case)
            raise
        entry.update(self.writer.finish(case, args))
        if entry["kept"]:
            # The same launch again on fresh copies of the inputs, with shared and local
            # arrays holding other garbage: a result that changes depends on memory the kernel
            # never wrote (or on the order the simulator ran its threads), which CUDA leaves
            # undefined, so there is nothing to compare.
            again = self.writer.fresh_arguments(case, args)
            try:
                with uninitialized_memory_filled_with(0x5A):
                    rerun(again)
                same = self.writer.same_outputs(case, again)
            except Exception:
                same = False
            if not same:
                entry.update(kept=False, reason="the result depends on uninitialized shared or "
                                                "local memory, or on thread order")
                self.writer.discard(case)
        if self.verbose:
            print("launch %d %s %s: %s" % (entry["index"], entry["test"], entry["kernel"],
                                           "kept" if entry["kept"] else entry["reason"]),
                  file=sys.stderr)
        return result


class _FillingNumpy:
    """numpy as the simulator's kernel API sees it, with `empty` and `zeros` (its shared, local
    and dynamic shared arrays) filled with a byte pattern instead."""

    fill = None

    def __getattr__(self, name):
        return getattr(np, name)

    def _filled(self, make, shape, dtype=float, *args, **kwargs):
        a = make(shape, dtype, *args, **kwargs)
        if _FillingNumpy.fill is not None and a.size:
            a.view(np.uint8).fill(_FillingNumpy.fill)
        return a

    def empty(self, *args, **kwargs):
        return self._filled(np.empty, *args, **kwargs)

    def zeros(self, *args, **kwargs):
        return self._filled(np.zeros, *args, **kwargs)


class uninitialized_memory_filled_with:
    def __init__(self, byte):
        self.byte = byte

    def __enter__(self):
        _FillingNumpy.fill = self.byte

    def __exit__(self, *exc):
        _FillingNumpy.fill = None


def install_hooks(recorder, compiles=None):
    """The simulator forgets a decorator's signature and options; keep them on the kernel, and
    hand every launch of a kernel (not a device function) to the recorder; with a
    compile_only.CompileRecorder, every compile a test asks for goes to it instead and nothing
    is launched."""
    sim_jit = numba.cuda.simulator.api.jit

    def recording_jit(func_or_sig=None, device=False, **kwargs):
        # The simulator refuses link= ("Cannot link PTX in the simulator"); a compile-only run
        # compiles nothing with it, and keeps link= for the case's decorator.
        simulated = {k: v for k, v in kwargs.items() if compiles is None or k != "link"}
        made = sim_jit(func_or_sig, device=device, **simulated)

        def remember(k):
            if isinstance(k, sim_kernel.FakeCUDAKernel):
                k._pyk_signature = None if callable(func_or_sig) else func_or_sig
                k._pyk_options = dict(kwargs)
                if compiles is not None and k._pyk_signature is not None:
                    compiles.eager(k)
            return k

        if isinstance(made, sim_kernel.FakeCUDAKernel):
            return remember(made)
        return lambda fn: remember(made(fn))

    for module in (numba.cuda, numba.cuda.simulator, numba.cuda.simulator.api):
        module.jit = recording_jit
    sim_kernelapi.np = _FillingNumpy()

    original_call = sim_kernel.FakeCUDAKernel.__call__

    def hooked_call(self, *args):
        # A device function, or a kernel called from inside a kernel the simulator is running
        # (numba-cuda compiles a `@cuda.jit` function called from device code as a device
        # function): a call, not a launch.
        if self._device or getattr(sim_kernel, "_kernel_context", None) is not None:
            return original_call(self, *args)
        if compiles is not None:
            return compiles.launch(self, args)
        return recorder.launch(self, args, lambda: original_call(self, *args),
                               lambda again: original_call(self, *again))

    sim_kernel.FakeCUDAKernel.__call__ = hooked_call


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


class TestTimedOut(Exception):
    pass


def _time_out(signum, frame):
    raise TestTimedOut("the test ran over %d s" % TEST_TIME_LIMIT_S)


# A compile-only test runs what the simulator was never meant to run (a launch is recorded, not
# run, and what follows may wait on it): each is stopped after this long.
TEST_TIME_LIMIT_S = 60


class RecordingResult(unittest.TextTestResult):
    recorder = None
    compiles = None

    def startTest(self, test):
        RecordingResult.recorder.current_test = test.id()
        if RecordingResult.compiles is not None:
            RecordingResult.compiles.current_test = test.id()
            RecordingResult.compiles.expected.clear()
            signal.alarm(TEST_TIME_LIMIT_S)
        super().startTest(test)

    def stopTest(self, test):
        if RecordingResult.compiles is not None:
            signal.alarm(0)
        super().stopTest(test)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--tests", default="*",
                        help="only the tests whose id matches this pattern, e.g. "
                             "'*test_atomics*' (default: all)")
    parser.add_argument("--compile-only", action="store_true",
                        help="run the tests marked skip_on_cudasim and record the compiles they "
                             "ask for, launching nothing (compile_only.py)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    os.makedirs(args.out_dir, exist_ok=True)
    recorder = Recorder(args.out_dir, args.verbose)
    compiles = None
    if args.compile_only:
        compile_only.keep_skipped_tests()
        compiles = compile_only.CompileRecorder(args.out_dir)
        compiles.install()
        signal.signal(signal.SIGALRM, _time_out)
    install_hooks(recorder, compiles)
    RecordingResult.recorder = recorder
    RecordingResult.compiles = compiles

    module_source.record_exec_sources()
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for package in TEST_PACKAGES:
        # By module name, not by folder: numba-cuda's wheel installs `numba.cuda` under
        # `numba_cuda/` and redirects the import, so no folder under numba's own is the package.
        folder = importlib.import_module(package).__path__[0]
        for name in sorted(os.listdir(folder)):
            if not (name.startswith("test") and name.endswith(".py")):
                continue
            try:
                tests = loader.loadTestsFromName(package + "." + name[:-3])
            except BaseException as e:
                # A module that skips itself, through unittest or pytest (numba-cuda's
                # `pytest.importorskip`), is skipped as discovery skips it.
                if isinstance(e, unittest.SkipTest) or type(e).__name__ == "Skipped":
                    continue
                raise
            for test in flatten(tests):
                if not fnmatch.fnmatch(test.id(), args.tests):
                    continue
                if args.compile_only and (not compile_only.skipped_on_simulator(test)
                                          or compile_only.driver_only(test)):
                    continue
                suite.addTest(test)
    with open(os.path.join(args.out_dir, "unittest.log"), "w") as log:
        runner = unittest.TextTestRunner(stream=log, verbosity=1, resultclass=RecordingResult)
        result = runner.run(suite)

    if compiles is not None:
        seen, cases = compiles.write()
        print("numba tests run (skipped on the simulator): %d; compiles asked for: %d, "
              "distinct cases: %d" % (result.testsRun, seen, cases))
        return 0
    with open(os.path.join(args.out_dir, "launches.json"), "w") as f:
        json.dump(recorder.launches, f, indent=1)
    kept = sum(1 for e in recorder.launches if e.get("kept"))
    print("numba tests run: %d (skipped %d); launches seen: %d, kept: %d"
          % (result.testsRun, len(result.skipped), len(recorder.launches), kept))
    return 0


if __name__ == "__main__":
    sys.exit(main())
