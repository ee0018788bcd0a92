# Imported by sema-errors/user_module_errors.pyk.
from numba import cuda

N = 4
rows = [i for i in range(N)]  # computed: no constant


@cuda.jit(device=True)
def twice(x):
    return 2 * x


def plain(x):
    return x
