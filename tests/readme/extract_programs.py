#!/usr/bin/env python3
"""Writes the C++ programs README.md shows, so that the tests build and run them as written.

A program is a ```cpp block right after a line
    <!-- tested as NAME; its output matches REGEX -->
It is written to OUT_DIR/NAME.cpp (unchanged when the text is the same, so builds stay
incremental), and OUT_DIR/programs.cmake lists `NAME` and `REGEX` pairs for tests/CMakeLists.txt.
A marker without a block after it, or a name used twice, is an error (exit 1).

usage: extract_programs.py README.md OUT_DIR
"""
import pathlib
import re
import sys

MARKER = re.compile(r"<!-- tested as (\w+); its output matches (.+?) -->\s*$")


def main():
    readme, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    lines = readme.read_text(encoding="utf-8").splitlines()
    out.mkdir(parents=True, exist_ok=True)
    programs = []
    for n, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        name, expect = m.group(1), m.group(2)
        if n + 1 >= len(lines) or lines[n + 1].strip() != "```cpp":
            sys.exit(f"{readme}:{n + 1}: the marker for `{name}` is not followed by a ```cpp block")
        try:
            end = next(i for i in range(n + 2, len(lines)) if lines[i].strip() == "```")
        except StopIteration:
            sys.exit(f"{readme}:{n + 2}: the ```cpp block of `{name}` does not end")
        if any(p == name for p, _ in programs):
            sys.exit(f"{readme}:{n + 1}: a second program named `{name}`")
        text = f'#line {n + 3} "{readme}"\n' + "\n".join(lines[n + 2:end]) + "\n"
        target = out / f"{name}.cpp"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        programs.append((name, expect))
    listing = "".join(f'list(APPEND PYK_README_PROGRAMS "{name}")\n'
                      f'set(PYK_README_EXPECT_{name} [=[{expect}]=])\n' for name, expect in programs)
    listing = "set(PYK_README_PROGRAMS)\n" + listing
    target = out / "programs.cmake"
    if not target.exists() or target.read_text(encoding="utf-8") != listing:
        target.write_text(listing, encoding="utf-8")


if __name__ == "__main__":
    main()
