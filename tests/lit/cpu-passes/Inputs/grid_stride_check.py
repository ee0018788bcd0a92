"""Checks grid_stride_loops.pyk's launches against numpy, thread by thread as CUDA runs them."""
import sys

import numpy as np

out_dir = sys.argv[1]
a = np.load(out_dir + "/a.npy")
threads, n = 5 * 48, a.size

want = np.zeros(threads, np.float32)
for g in range(threads):
    acc, seen, stopped = np.float32(0.0), np.float32(0.0), False
    for i in range(g, n, threads):
        if a[i] < 0 and i > 900:
            want[g], stopped = -1000.0, True
            break
        acc += a[i]
        seen = np.float32(1.0)
    if not stopped:
        want[g] = acc + seen * np.float32(0.5)
split = np.load(out_dir + "/split/arg1.npy")
fiber = np.load(out_dir + "/fiber/arg1.npy")
print("gather", bool(np.array_equal(split, want)))
print("fibers", bool(np.array_equal(fiber, want)))
print("copy", bool(np.array_equal(np.load(out_dir + "/copy/arg1.npy"), a * np.float32(2.0))))
last = np.array([g + threads * ((n - 1 - g) // threads) for g in range(threads)], np.int64)
print("last", bool(np.array_equal(np.load(out_dir + "/last/arg1.npy"), last)))
m = np.load(out_dir + "/m.npy")
i, j = np.indices(m.shape)
print("nested", bool(np.array_equal(np.load(out_dir + "/nested/arg1.npy"), m * 2 + i - j)))
skip = np.zeros(threads, np.float32)
for g in range(threads):
    acc = np.float32(0.0)
    for i in range(g, n, threads):
        if a[i] < 0:
            continue
        for j in range(3):
            if j == 1:
                continue
            acc += a[i] * np.float32(j)
    skip[g] = acc
print("skip", bool(np.array_equal(np.load(out_dir + "/skip/arg1.npy"), skip)))
find = np.zeros(threads, np.float32)
for g in range(threads):
    acc = np.float32(0.0)
    for i in range(g, n, threads):
        if a[i] == 5:
            acc += np.float32(1000.0)
            break
        acc += a[i]
    find[g] = acc
print("find", bool(np.array_equal(np.load(out_dir + "/find/arg2.npy"), find)))
