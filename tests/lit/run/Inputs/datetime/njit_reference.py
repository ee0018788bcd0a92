"""The reference for run/datetime_*.pyk: the kernel's body compiled by numba's njit (numba's
npdatetime lowering is the CUDA target's too), over every index at once, on the inputs `pykc run`
was given; then each output pyk wrote compared with numba's, count by count (NaT included).

usage: njit_reference.py KERNEL.pyk NAME IN_DIR PYK_OUT_DIR ARG...  (ARG: a .npy in IN_DIR, or
TYPE:VALUE as `pykc run` takes it). The kernel loops `for i in range(cuda.grid(1), n,
cuda.gridsize(1))`: one thread of numba does every i."""
import sys

import numpy as np
from numba import njit

path, name, in_dir, out_dir, *specs = sys.argv[1:]
source = open(path).read()
source = source.replace("from numba import cuda\n", "")
source = source.replace("@cuda.jit(device=True)\n", "@njit\n").replace("@cuda.jit\n", "")
source = source.replace("cuda.grid(1)", "0").replace("cuda.gridsize(1)", "1")
namespace = {"njit": njit, "np": np}
exec(compile(source, path, "exec"), namespace)
args = []
for spec in specs:
    if spec.endswith(".npy"):
        args.append(np.load("%s/%s" % (in_dir, spec)))
    else:
        dtype, value = spec.split(":")
        args.append(np.array("NaT" if value == "NaT" else int(value), dtype="i8").astype(dtype)[()]
                    if value != "NaT" else np.array(value, dtype=dtype)[()])
njit(namespace[name])(*args)
differ = 0
for i, (spec, ref) in enumerate(zip(specs, args)):
    if not spec.endswith(".npy"):
        continue
    mine = np.load("%s/arg%d.npy" % (out_dir, i))
    same = mine.dtype == ref.dtype and (
        (mine.view("i8") == ref.view("i8")).all() if ref.dtype.kind in "mM" else
        ((mine == ref) | (np.isnan(mine) & np.isnan(ref))).all() if ref.dtype.kind == "f" else
        (mine == ref).all())
    if not same:
        differ += 1
        print("argument %d differs: pyk %s %s, numba %s %s" % (i, mine.dtype, mine.ravel()[:8],
                                                                ref.dtype, ref.ravel()[:8]))
print("%d arrays as numba's njit computes them, %d differ" % (len(specs), differ))
