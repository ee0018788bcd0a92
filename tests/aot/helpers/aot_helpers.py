# Imported by aot_kernels.pyk, found through pyk_add_kernels' INCLUDE_DIRS; embedded in the built
# module, so that loading it reads no file.
from numba import cuda

OFFSET = 100


@cuda.jit(device=True)
def shifted(x):
    return x + OFFSET
