# A module of the user's that run/user_module_imports.pyk imports: constants, a device function,
# a kernel (a device function where device code calls it) and host code pyk leaves alone.
import math

from numba import cuda

TPB = 32
SCALE = 2.5
HALF_PI = math.pi / 2


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit
def add_one(a, i):
    a[i] += 1


def host_only():
    return [1, 2, 3]
