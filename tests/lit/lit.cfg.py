# lit configuration for pyk's golden-file tests: each .pyk file here is a test whose RUN lines
# call pykc and whose CHECK lines (FileCheck) say what must come out.
import os

import lit.formats

config.name = "pyk"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".pyk", ".py"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

config.substitutions.append(("%pykc", config.pykc))
# Debian's python3, with numpy: `pykc run` tests make their .npy inputs and read the outputs.
config.substitutions.append(("%python", "/usr/bin/python3"))

# `REQUIRES: nvrtc` tests compile generated CUDA to PTX; they need NVRTC (loaded at run time).
import subprocess  # noqa: E402

version = subprocess.run([config.pykc, "--version"], capture_output=True, text=True).stdout
if "NVRTC none" not in version:
    config.available_features.add("nvrtc")
# `REQUIRES: nvjitlink` tests link PTX and other GPU code with a kernel (numba's link=).
if "NVRTC none" not in version and "nvJitLink none" not in version:
    config.available_features.add("nvjitlink")
# `REQUIRES: x86_64` tests read the x86-64 instructions the host compiler made (objdump).
import platform  # noqa: E402
import shutil  # noqa: E402

if platform.machine() == "x86_64" and shutil.which("objdump"):
    config.available_features.add("x86_64")
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["NO_COLOR"] = "1"
# A cold compile's one-line notice (`pyk: compiling ...`, after 100 ms) would make the output of
# a test depend on the state of the disk cache; run/compile_message.pyk turns it on to test it.
config.environment["PYK_COMPILE_MESSAGES"] = "0"
# The sanitizers' settings reach pykc in a sanitized build (scripts/run_tests.sh).
for variable in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if variable in os.environ:
        config.environment[variable] = os.environ[variable]
