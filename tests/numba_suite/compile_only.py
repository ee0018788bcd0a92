"""compile_only: the kernels numba's tests compile without the simulator running them.

A test marked `@skip_on_cudasim` (it inspects PTX or SASS, asks for register counts, links CUDA
C++, uses what the simulator lacks) is skipped by the normal collection, so its kernels were not
measured. Collected with `--compile-only`, those tests run with the mark kept but not skipping,
and every compile they ask numba for is recorded instead of done:

- a launch (`f[grid, block](args)`): the kernel for the arguments' numba types (or its declared
  signature); the simulator does not run it;
- `cuda.jit(signature)(f)`: an eager compile, for each declared signature;
- `cuda.compile_ptx`, `compile_ptx_for_current_device`, `compile`, `compile_for_current_device`,
  `compile_all` of a function for a signature (`device=True`: a device function);
- a dispatcher's `inspect_asm / inspect_llvm / inspect_sass / ...(signature)`, `compile(sig)`,
  `compile_device(args)`, `get_regs_per_thread(signature)` and the like.

Each distinct (function source, name, signature, device) is one compile-only case
(`OUT_DIR/compiles/NNNNN/`: `kernel.pyk` and `case.json`), which run_numba_suite.py compiles with
pyk for the CPU backend (`pykc emit --emit=so`) and with NVRTC (CUBIN, PTX). A compile made
inside `assertRaises(...)` (whatever exception the test expects) is recorded as one numba
refuses: pyk must refuse it too, with a located error. What the recorder cannot hand back (PTX text, register
counts) ends the test's step by raising `CompileRecorded`; the test's own later assertions then
fail, which is expected and not counted.
"""

import hashlib
import json
import os
import shutil
import threading
import unittest

import numba
from numba.cuda.simulator import kernel as sim_kernel

import case_writer
import module_source

# The attribute the kept `skip_on_cudasim` mark sets on a test method or class.
MARK = "_pyk_skipped_on_simulator"

# Test modules that exercise the driver, processes or threads, not the compiler: no compile in
# them is a kernel's, and some wait on child processes or on each other.
DRIVER_ONLY_MODULES = ("test_ipc", "test_multiprocessing", "test_multithreads", "test_multigpu",
                       "test_caching", "test_stream_api", "test_serialize", "test_gufunc_scheduling")

# A dispatcher's methods that compile for a signature (their first argument, or `signature=`).
COMPILING_METHODS = ("inspect_llvm", "inspect_asm", "inspect_sass", "inspect_sass_cfg",
                     "inspect_lto_ptx", "inspect_types", "inspect_cfg", "inspect_disasm_cfg",
                     "get_regs_per_thread", "get_const_mem_size", "get_shared_mem_per_block",
                     "get_max_threads_per_block", "get_local_mem_per_thread", "get_metadata",
                     "compile", "compile_device", "get_compile_result")

# numba's compile functions, by the name tests import them under.
COMPILE_FUNCTIONS = ("compile", "compile_for_current_device", "compile_ptx",
                     "compile_ptx_for_current_device", "compile_all")

# Decorator options that change what numba compiles, carried into the case's decorator.
CARRIED_OPTIONS = module_source.CARRIED_OPTIONS


class CompileRecorded(Exception):
    """Raised where a test wants what only a real compile returns (PTX, a register count)."""


# numba.cuda's names the simulator sets to None (it has no cache-hint loads and stores, and its
# `void` is no type); the tests bind them at import, into tuples and closures.
SIMULATOR_NONES = ("ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt")


def _stand_in(name):
    def intrinsic(*args, **kwargs):
        raise RuntimeError("numba.cuda.%s runs only in compiled kernels" % name)
    intrinsic.__name__ = name
    return intrinsic


class DeclaredDevice:
    """What `cuda.declare_device(name, sig, link=..., abi=...)` declares, kept (the simulator's
    stub returns None) to be written back into the extracted module as the same call."""

    def __init__(self, name, sig, link=None, use_cooperative=False, abi="numba"):
        self.name, self.sig, self.abi = name, sig, abi
        self.link = [] if link is None else (list(link) if isinstance(link, (list, tuple, set))
                                             else [link])

    def __call__(self, *args):
        raise RuntimeError("%s is CUDA C++, which only compiled kernels call" % self.name)

    def pyk_source(self):
        """(Python source of the declaration, the imports it needs)."""
        sig = self.sig if isinstance(self.sig, str) else module_source.signature_text(self.sig)
        text = "numba.cuda.declare_device(%r, %r%s%s)" % (
            self.name, sig, ", link=%s" % module_source.link_source(self.link) if self.link
            else "",
            ", abi=%r" % self.abi if self.abi != "numba" else "")
        return text, [("numba", "numba")]


def keep_skipped_tests():
    """Makes `skip_on_cudasim` mark a test instead of skipping it, keeps what
    `cuda.declare_device` declares (DeclaredDevice), and gives the names the simulator leaves
    None a value of their own (a stand-in function for each cache-hint intrinsic, which
    module_source writes back as `from numba.cuda import ldca`; numba's `void` type): call before
    the test modules are imported (they import these by name)."""
    import numba.cuda.testing as testing

    def marking(reason):
        def mark(obj):
            setattr(obj, MARK, reason)
            return obj
        return mark

    testing.skip_on_cudasim = marking
    modules = (numba.cuda, numba.cuda.simulator, numba.cuda.simulator.api)
    for module in modules:
        module.declare_device = DeclaredDevice
    for name in SIMULATOR_NONES:
        stand_in = _stand_in(name)
        for module in modules:
            if getattr(module, name, None) is None:
                setattr(module, name, stand_in)
    void = getattr(numba.types, "void", None)
    for module in modules:
        if getattr(module, "void", 0) is None and void is not None:
            module.void = void


def skipped_on_simulator(test):
    """The reason a test is marked `skip_on_cudasim` (on its method or its class), or None."""
    method = getattr(test, getattr(test, "_testMethodName", ""), None)
    return getattr(method, MARK, None) or getattr(type(test), MARK, None)


def driver_only(test):
    return any(".%s." % m in test.id() + "." for m in DRIVER_ONLY_MODULES)


class CompileRecorder:
    def __init__(self, out_dir):
        self.root = os.path.join(out_dir, "compiles")
        os.makedirs(self.root, exist_ok=True)
        self.entries = []  # every compile asked for, kept or not
        self.cases = {}  # (digest, name, signature, device) -> case folder name
        self._lock = threading.Lock()
        self.current_test = "?"
        self.expected = []  # the exceptions of the enclosing assertRaises blocks

    def install(self):
        recorder = self

        enter = unittest.case._AssertRaisesContext.__enter__
        exit_ = unittest.case._AssertRaisesContext.__exit__

        def recording_enter(ctx):
            recorder.expected.append(ctx.expected)
            return enter(ctx)

        def recording_exit(ctx, *exc):
            if recorder.expected:
                recorder.expected.pop()
            return exit_(ctx, *exc)

        unittest.case._AssertRaisesContext.__enter__ = recording_enter
        unittest.case._AssertRaisesContext.__exit__ = recording_exit

        def compile_function(how):
            # numba's compile functions share their leading parameters; `compile`, `compile_all`
            # and `compile_for_current_device` make a device function unless told otherwise,
            # the `compile_ptx` ones a kernel.
            default_device = not how.startswith("compile_ptx")

            def compile_(pyfunc, sig=None, *args, **kwargs):
                fn = pyfunc.fn if isinstance(pyfunc, sim_kernel.FakeCUDAKernel) else pyfunc
                given = dict(zip(("debug", "lineinfo", "device", "fastmath"), args))
                given.update(kwargs)
                device = bool(given.get("device", default_device))
                options = {k: given[k] for k in CARRIED_OPTIONS if k in given}
                recorder.record(fn, sig, device, how, options)
                raise CompileRecorded(how)
            return compile_

        import numba.cuda.compiler as compiler_module
        for name in COMPILE_FUNCTIONS:
            replacement = compile_function(name)
            for module in (numba.cuda, numba.cuda.simulator, numba.cuda.simulator.api,
                           compiler_module):
                setattr(module, name, replacement)

        def compiling_method(name):
            def method(self, *args, **kwargs):
                sig = kwargs.get("signature", kwargs.get("sig", args[0] if args else None))
                if name == "compile_device":
                    sig = tuple(args[0]) if args else kwargs.get("args")
                if sig is not None:
                    recorder.record(self.fn, sig, self._device, "dispatcher." + name,
                                    getattr(self, "_pyk_options", {}) or {})
                raise CompileRecorded(name)
            return method

        for name in COMPILING_METHODS:
            setattr(sim_kernel.FakeCUDAKernel, name, compiling_method(name))

    def launch(self, kernel, args):
        """A launch in a compile-only test: the kernel compiled for the arguments' types (or for
        its declared signature), not run."""
        declared = getattr(kernel, "_pyk_signature", None)
        if declared is not None:
            self.eager(kernel)
            return
        types = [case_writer.numba_type_spelling(a) for a in args]
        if None in types:
            self._not_kept(kernel.fn, "launch", "an argument no signature string spells")
            return
        self.record(kernel.fn, "void(%s)" % ", ".join(types), False, "launch",
                    getattr(kernel, "_pyk_options", {}) or {})

    def eager(self, kernel):
        """`cuda.jit(signature)(f)`: numba compiles each declared signature at once."""
        sig = kernel._pyk_signature
        for s in (sig if isinstance(sig, list) else [sig]):
            self.record(kernel.fn, s, kernel._device, "jit(signature)",
                        getattr(kernel, "_pyk_options", {}) or {})

    def _not_kept(self, fn, how, reason):
        self.entries.append({"test": self.current_test, "function": getattr(fn, "__name__", "?"),
                             "how": how, "kept": False, "reason": reason})

    def record(self, fn, sig, device, how, options):
        # One at a time: a test may compile from several threads (test_dispatcher.test_lock),
        # and two writers of one case would remove each other's files.
        with self._lock:
            self._record(fn, sig, device, how, options)

    def _record(self, fn, sig, device, how, options):
        name = getattr(fn, "__name__", "?")
        entry = {"test": self.current_test, "function": name, "how": how}
        self.entries.append(entry)
        refused = list(self.expected)
        try:
            if not callable(fn) or not hasattr(fn, "__code__"):
                raise module_source.NotExtractable("not a Python function")
            if device and isinstance(sig, tuple):
                # Argument types only: numba infers a device function's return type.
                signature = "(%s%s)" % (", ".join(module_source.type_text(t) for t in sig),
                                        "," if len(sig) == 1 else "")
            else:
                signature = module_source.signature_text(sig)
            builder = module_source.ModuleBuilder()
            builder.require_import("numba", "numba")
            decorator_args = (["device=True"] if device else []) + \
                module_source.decorator_options(options)
            builder.jitted_function(name, fn, "@numba.cuda.jit(%s)" % ", ".join(decorator_args),
                                    id(fn))
            source = builder.text()
        except (module_source.NotExtractable, case_writer.NotKept) as e:
            entry.update(kept=False, reason=str(e))
            return
        except Exception as e:  # the source of a function numba's test built another way
            entry.update(kept=False, reason="the function's source cannot be extracted (%s: %s)"
                         % (type(e).__name__, e))
            return
        digest = hashlib.sha1(source.encode()).hexdigest()
        key = (digest, name, signature, bool(device))
        entry["kept"] = True
        if key in self.cases:
            entry["case"] = self.cases[key]
            entry["duplicate"] = True
            return
        folder_name = "c%05d" % len(self.cases)
        folder = os.path.join(self.root, folder_name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        with open(os.path.join(folder, "kernel.pyk"), "w") as f:
            f.write(source)
        meta = {"kernel": name, "signature": signature, "device": bool(device), "how": how,
                "test": self.current_test,
                "numba_refuses": ", ".join(sorted({getattr(t, "__name__", str(t)) for e in refused
                                                   for t in (e if isinstance(e, tuple)
                                                             else (e,))})) or None}
        with open(os.path.join(folder, "case.json"), "w") as f:
            json.dump(meta, f, indent=1)
        self.cases[key] = folder_name
        entry["case"] = folder_name

    def write(self):
        with open(os.path.join(os.path.dirname(self.root), "compiles.json"), "w") as f:
            json.dump(self.entries, f, indent=1)
        return len(self.entries), len(self.cases)
