"""suite_text: what run_numba_suite.py and compile_cases.py read from pykc's output and how they
group failures: the first error message, its cause with the particulars blanked, and failures
counted by cause with one example each."""

import collections
import re


def first_error(text):
    """The first `error:` line of pykc's output, without its location."""
    for line in text.splitlines():
        m = re.search(r"error: (.*)$", line)
        if m:
            return m.group(1).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no message)"


def cause_of(message):
    """A failure message with its particulars (names, types, numbers) blanked, for grouping."""
    m = re.sub(r"`[^`]*`", "`_`", message)
    m = re.sub(r"\b\d+\b", "N", m)
    return m


def by_cause(results, key):
    """(Counter of key(r) over the results it is not None for, {key: the first such result})."""
    counts = collections.Counter()
    examples = {}
    for r in results:
        k = key(r)
        if k is None:
            continue
        counts[k] += 1
        examples.setdefault(k, r)
    return counts, examples
