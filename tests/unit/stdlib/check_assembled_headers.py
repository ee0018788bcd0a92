#!/usr/bin/env python3
"""check_assembled_headers: the support headers the build assembles (cmake/AssembleHeader.cmake)
are self-contained and say what stdlib/'s umbrella headers say.

For cuda/pyk_support.h and cpu/pyk_cpu_support.h, assembled in the build tree:
  - no project-local `#include "..."` is left in the text;
  - preprocessed, the assembled text gives the same tokens as the umbrella in the source tree
    (whose parts the preprocessor finds beside it): as host code, and for pyk_support.h also as
    device code (__CUDACC_RTC__ defined, as NVRTC compiles it);
  - the assembled text compiles as host code alone in a folder of its own, with no stdlib/ on the
    include path (pyk_cpu_support.h thus needs no pyk_support.h beside it).
And every part under stdlib/common, stdlib/cuda and stdlib/cpu compiles as host code on its own
(it includes what it uses), which is what makes the assembly's order a valid one.

Usage: check_assembled_headers.py CXX SOURCE_STDLIB ASSEMBLED_STDLIB WORK_DIR
"""
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys

HEADERS = ["cuda/pyk_support.h", "cpu/pyk_cpu_support.h"]
# (header, extra preprocessor flags, view name); pyk_cpu_support.h is host code only (#error).
VIEWS = [
    ("cuda/pyk_support.h", [], "host"),
    ("cuda/pyk_support.h", ["-D__CUDACC_RTC__"], "device"),
    ("cpu/pyk_cpu_support.h", [], "host"),
]
PART_FOLDERS = ["common", "cuda", "cpu"]
LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s*"', re.MULTILINE)


def run(command, stdin_text):
    return subprocess.run(command, input=stdin_text, capture_output=True, text=True)


def preprocessed(cxx, path, flags):
    """The tokens of a translation unit that includes `path`, one line of them per output line."""
    result = run([cxx, "-std=c++20", "-E", "-P", *flags, "-x", "c++", "-"],
                 f'#include "{path}"\n')
    if result.returncode != 0:
        raise RuntimeError(f"preprocessing {path} failed:\n{result.stderr}")
    lines = (line.strip() for line in result.stdout.splitlines())
    return [line for line in lines if line]


def compile_errors(cxx, include, include_dirs):
    """The compiler's messages when `#include "include"` does not compile as host code, or None."""
    command = [cxx, "-std=c++20", "-fsyntax-only", "-x", "c++", "-"]
    for folder in include_dirs:
        command += ["-I", folder]
    result = run(command, f'#include "{include}"\nint main() {{ return 0; }}\n')
    return None if result.returncode == 0 else result.stderr


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    cxx, source, assembled, work = sys.argv[1:]
    failures = []

    for header in HEADERS:
        with open(os.path.join(assembled, header)) as f:
            text = f.read()
        left = [line for line in text.splitlines() if LOCAL_INCLUDE.match(line)]
        if left:
            failures.append(f"assembled {header} still includes project-local headers: {left}")

    for header, flags, view in VIEWS:
        try:
            expected = preprocessed(cxx, os.path.join(source, header), flags)
            actual = preprocessed(cxx, os.path.join(assembled, header), flags)
        except RuntimeError as error:
            failures.append(str(error))
            continue
        if not any(line.startswith("namespace pyk") for line in expected):
            failures.append(f"{header} ({view}): preprocessing gave no pyk code")
        if actual != expected:
            diff = difflib.unified_diff(expected, actual, f"stdlib/{header} ({view})",
                                        f"assembled {header} ({view})", lineterm="", n=2)
            failures.append(f"assembled {header} differs from stdlib/{header} as {view} code:\n" +
                            "\n".join(list(diff)[:60]))

    for header in HEADERS:
        alone = os.path.join(work, header.replace("/", "_").replace(".h", ""))
        shutil.rmtree(alone, ignore_errors=True)
        os.makedirs(alone)
        name = os.path.basename(header)
        shutil.copyfile(os.path.join(assembled, header), os.path.join(alone, name))
        errors = compile_errors(cxx, name, [alone])
        if errors is not None:
            failures.append(f"assembled {header} does not compile on its own:\n{errors}")

    parts = sorted(os.path.join(source, folder, name) for folder in PART_FOLDERS
                   for name in os.listdir(os.path.join(source, folder)) if name.endswith(".h"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for part, errors in zip(parts, pool.map(lambda p: compile_errors(cxx, p, []), parts)):
            if errors is not None:
                failures.append(f"{os.path.relpath(part, source)} does not compile on its own:\n"
                                f"{errors}")

    for failure in failures:
        print(f"FAIL: {failure}\n")
    if failures:
        return 1
    print(f"ok: {len(HEADERS)} assembled headers ({len(VIEWS)} views) and {len(parts)} parts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
