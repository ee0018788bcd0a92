#!/usr/bin/env python3
"""`pykc report`'s page in a real browser: headless Chromium (Debian's) loads the page pykc
writes for examples/diffusion.pyk, runs its script, and dumps the DOM it ends with; the DOM must
link every generated line to the Python line it came from and back, carry each line's numba types,
the CPU mode and the index32 section, and the script must have found no broken link. A
screenshot is saved beside the page. A program of two files (tests/lit/codegen/
user_module_imports.pyk and the helpers.py it imports) gets the module's lines in the Python pane,
linked both ways as the file's. Exits 77 (skipped) when no Chromium is installed.

usage: check_report_page.py PYKC SOURCE_DIR OUT_DIR
"""
import html.parser
import os
import shutil
import subprocess
import sys

SIGNATURE = "void(float32[:,::1], float32[:,::1], float32[:,::1])"


class Dom(html.parser.HTMLParser):
    """Elements by id, and each `.line` with its data-py and its links."""

    def __init__(self):
        super().__init__()
        self.by_id = {}
        self.lines = []  # (id, data-py, [(class, href)], types text)
        self.body = {}
        self.cpu_mode = ""
        self.stack = []
        self.current_line = None
        self.in_types = False
        self.in_cpu_mode = False
        self.index32 = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = a.get("class", "").split()
        if tag == "body":
            self.body = a
        if "id" in a:
            self.by_id[a["id"]] = a
        if tag == "div" and "line" in classes:
            self.current_line = [a.get("id"), a.get("data-py"), [], ""]
            self.lines.append(self.current_line)
        if tag == "a" and self.current_line is not None and "href" in a:
            self.current_line[2].append((a.get("class"), a["href"]))
        if tag == "div" and "types" in classes:
            self.in_types = True
        if tag == "dd" and "cpu-mode" in classes:
            self.in_cpu_mode = True
        if tag == "details" and "index32" in classes:
            self.index32 = True
        if tag == "div":
            self.stack.append(classes)

    def handle_endtag(self, tag):
        if tag == "div" and self.stack:
            classes = self.stack.pop()
            if "types" in classes:
                self.in_types = False
            elif "line" in classes:
                self.current_line = None
        if tag == "dd":
            self.in_cpu_mode = False

    def handle_data(self, data):
        if self.in_types and self.current_line is not None:
            self.current_line[3] += data
        if self.in_cpu_mode:
            self.cpu_mode += data


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check_links(browser, page):
    """Loads `page`, runs its script and checks its links both ways in the DOM it ends with;
    returns the DOM, its lines by id and (links, from Python lines, back to them)."""
    url = "file://" + os.path.abspath(page)
    dumped = subprocess.run(browser + ["--dump-dom", url], check=True, capture_output=True,
                            text=True, timeout=120).stdout
    dom = Dom()
    dom.feed(dumped)
    name = os.path.basename(page)
    if dom.body.get("data-ready") != "1":
        fail("%s: the page's script did not run in the browser: <body %s>" % (name, dom.body))
    links = [link for line in dom.lines for link in line[2]]
    if dom.body.get("data-links") != str(len(links)) or len(links) < 20:
        fail("%s: the script counted %s links, the DOM has %d"
             % (name, dom.body.get("data-links"), len(links)))
    if dom.body.get("data-broken-links") != "0":
        fail("%s: %s links lead nowhere" % (name, dom.body.get("data-broken-links")))
    lines = {line[0]: line for line in dom.lines}
    forward = backward = 0
    for line_id, py, anchors, _ in dom.lines:
        for cls, href in anchors:
            target = lines.get(href[1:])
            if target is None:
                fail("%s: %s links to %s, which is no line" % (name, line_id, href))
            if cls in ("to-cuda", "to-cpu"):  # Python line -> its first generated line, and back
                forward += 1
                if target[1] != py or ("to-py", "#" + line_id) not in target[2]:
                    fail("%s: %s -> %s does not lead back" % (name, line_id, href))
            elif cls == "to-py":  # generated line -> its Python line, which links into that pane
                backward += 1
                pane = line_id.split("-")[1]  # s0-cuda-12 -> cuda
                if target[1] != py or not any(c == "to-" + pane for c, _ in target[2]):
                    fail("%s: %s -> %s has no link back into the %s pane"
                         % (name, line_id, href, pane))
    if forward < 4 or backward < 20:
        fail("%s: too few links: %d from Python lines, %d to them" % (name, forward, backward))
    return dom, lines, (len(links), forward, backward)


def main():
    pykc, source_dir, out_dir = sys.argv[1:4]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("SKIPPED: no Chromium installed (scripts/setup.sh installs Debian's `chromium`)")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    page = os.path.join(out_dir, "diffusion.html")
    shot = os.path.join(out_dir, "diffusion.png")
    for stale in (page, shot):
        if os.path.exists(stale):
            os.remove(stale)
    subprocess.run([pykc, "report", os.path.join(source_dir, "examples", "diffusion.pyk"),
                    "--sig", SIGNATURE, "-o", page], check=True)
    browser = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--hide-scrollbars", "--user-data-dir=" + os.path.join(out_dir, "chromium-profile"),
               "--virtual-time-budget=5000"]
    url = "file://" + os.path.abspath(page)
    subprocess.run(browser + ["--window-size=1500,1100", "--screenshot=" + shot, url],
                   check=True, capture_output=True, timeout=120)
    dom, lines, counts = check_links(browser, page)
    grid_line = lines.get("s0-py-13")
    if grid_line is None or "x :: int64" not in grid_line[3] or \
            "cuda.grid(2) :: UniTuple(int64 x 2)" not in grid_line[3]:
        fail("line 13's types are missing: %r" % (grid_line,))
    if not dom.cpu_mode.startswith("split ("):
        fail("the CPU mode says %r" % dom.cpu_mode)
    if not dom.index32:
        fail("no index32 section")

    # Two files: the imported module's lines are linked as the file's.
    two = os.path.join(out_dir, "user_module_imports.html")
    lit = os.path.join(source_dir, "tests", "lit")
    subprocess.run([pykc, "report", os.path.join(lit, "codegen", "user_module_imports.pyk"),
                    "--include-dir", os.path.join(lit, "run", "Inputs", "user_modules"),
                    "-o", two], check=True)
    _, module_lines, module_counts = check_links(browser, two)
    clamp = module_lines.get("s0-py1-14")  # helpers.py:14, `return min(max(x, lo), hi)`
    if clamp is None or "min(max(x, lo), hi) :: float64" not in clamp[3] or \
            not any(c == "to-cuda" for c, _ in clamp[2]):
        fail("helpers.py's line 14 is not linked or typed: %r" % (clamp,))
    with open(shot, "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(shot) < 20000:
        fail("no screenshot at " + shot)
    print("ok: diffusion.pyk %d links checked both ways (%d from Python lines, %d back); "
          "user_module_imports.pyk with helpers.py %d (%d, %d); screenshot %s"
          % (counts + module_counts + (shot,)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
