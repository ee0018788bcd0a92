#!/usr/bin/env python3
"""Writes the programs README.md shows, so that the tests build and run them as written.

A program is a ```cpp or ```sh block right after a line
    <!-- tested as NAME; its output matches REGEX -->
(for a shell block `<!-- tested as NAME -->` too: it must succeed). A C++ one is written to
OUT_DIR/NAME.cpp, a shell one to OUT_DIR/NAME.sh (unchanged when the text is the same, so builds
stay incremental), and OUT_DIR/programs.cmake lists them, `NAME` and `REGEX`, for
tests/readme/CMakeLists.txt. A marker without a block after it, a C++ block without a REGEX, or a
name used twice, is an error (exit 1).

usage: extract_programs.py README.md OUT_DIR
"""
import pathlib
import re
import sys

MARKER = re.compile(r"<!-- tested as (\w+)(?:; its output matches (.+?))? -->\s*$")


def main():
    readme, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    lines = readme.read_text(encoding="utf-8").splitlines()
    out.mkdir(parents=True, exist_ok=True)
    programs = []
    for n, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        name, expect = m.group(1), m.group(2) or ""
        kind = lines[n + 1].strip()[3:] if n + 1 < len(lines) else ""
        if kind not in ("cpp", "sh"):
            sys.exit(f"{readme}:{n + 1}: the marker for `{name}` is not followed by a ```cpp or "
                     "```sh block")
        if kind == "cpp" and not expect:
            sys.exit(f"{readme}:{n + 1}: the C++ program `{name}` needs `; its output matches "
                     "REGEX`")
        try:
            end = next(i for i in range(n + 2, len(lines)) if lines[i].strip() == "```")
        except StopIteration:
            sys.exit(f"{readme}:{n + 2}: the ```{kind} block of `{name}` does not end")
        if any(p == name for p, _, _ in programs):
            sys.exit(f"{readme}:{n + 1}: a second program named `{name}`")
        body = "\n".join(lines[n + 2:end]) + "\n"
        text = (f'#line {n + 3} "{readme}"\n' + body if kind == "cpp"
                else f"# {readme}:{n + 3}\nset -e\n" + body)
        target = out / f"{name}.{kind}"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        programs.append((name, kind, expect))
    listing = "set(PYK_README_PROGRAMS)\nset(PYK_README_SCRIPTS)\n" + "".join(
        f'list(APPEND PYK_README_{"PROGRAMS" if kind == "cpp" else "SCRIPTS"} "{name}")\n'
        f'set(PYK_README_EXPECT_{name} [=[{expect}]=])\n' for name, kind, expect in programs)
    target = out / "programs.cmake"
    if not target.exists() or target.read_text(encoding="utf-8") != listing:
        target.write_text(listing, encoding="utf-8")


if __name__ == "__main__":
    main()
