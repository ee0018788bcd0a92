# Front end: seed 001's whole 2-D diffusion script (numpy/fft set-up, the kernel, timeit timing,
# matplotlib plots) parses as is, and the kernel `diffusion` is found among the host code.
# RUN: %pykc emit %s --emit=ast | FileCheck --strict-whitespace --check-prefix=TREE %s
# RUN: %pykc check %s 2>&1 | count 0
# RUN: %pykc emit %s --emit=symbols | FileCheck --check-prefix=SYMBOLS %s
# The module constants the kernel uses are folded; the host values around them are not.
# SYMBOLS: {{^}}constant TPB = 8 : int64{{$}}
# SYMBOLS: {{^}}host value blockspergrid: `field` is not a compile-time constant{{$}}
# SYMBOLS-NEXT: {{^}}constant shasize = 10 : int64{{$}}
# SYMBOLS-NEXT: {{^}}constant coeff = 0.25 : float64{{$}}
# SYMBOLS-NEXT: {{^}}kernel diffusion{{$}}
# SYMBOLS: {{^}}host function init_numba{{$}}
# SYMBOLS-NEXT: {{^}}host function test_numba{{$}}
# SYMBOLS: {{^}}kernel diffusion(field, lapl){{$}}
# SYMBOLS-NEXT: {{^}}  decorator: cuda.jit{{$}}
# SYMBOLS-NEXT: {{^}}  signatures: none (compiled per argument types){{$}}
# SYMBOLS-NEXT: {{^}}  locals: x, y, sharedarray, tx, ty, val{{$}}
# SYMBOLS-NOT: {{^}}kernel
import numpy as np
from numpy import fft
from timeit import timeit

j, k = (2000, 2000)
r = np.random.default_rng(3966789)
field = r.random(size=(j, k), dtype=np.float32)
field = fft.fftshift(fft.fft2(field))
radius = 1 + np.sqrt((np.arange(j).reshape(-1, 1) - j // 2) ** 2 +
                     (np.arange(k).reshape(1, -1) - k // 2) ** 2)
field = field * (radius ** -1.7)
field = fft.ifft2(fft.ifftshift(field)) * (radius < 0.45 * j)
field = field.real * (field.real > np.percentile(field.real, 70))

from numba import float32
import numba.cuda as cuda

TPB = 8
threadsperblock = (TPB, TPB)
blockspergrid = (int(np.ceil(field.shape[0] / (TPB))),
                 int(np.ceil(field.shape[1] / (TPB))))
# Compile-time constants.
shasize = TPB + 2
coeff = 0.25


# TREE: {{^}}  body[18]: FunctionDef `diffusion` @[[@LINE+5]]:1-[[@LINE+41]]:35{{$}}
# TREE-NEXT: {{^}}    decorator[0]: Attribute `jit` Load @[[@LINE+3]]:2-[[@LINE+3]]:10{{$}}
# TREE-NEXT: {{^}}      value: Name `cuda` Load @[[@LINE+2]]:2-[[@LINE+2]]:6{{$}}
# TREE-NEXT: {{^}}    arg[0]: arg `field` @[[@LINE+2]]:15-[[@LINE+2]]:20{{$}}
@cuda.jit
def diffusion(field, lapl):
    x, y = cuda.grid(2)
    # Shared array has two extra rows and columns to store edge values
    sharedarray = cuda.shared.array(shape=(shasize, shasize), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    # Don't try to load edge values from outside the array
    if tx == 0 and x > 0:
        sharedarray[0, ty + 1] = field[x - 1, y]
    if ty == 0 and y > 0:
        sharedarray[tx + 1, 0] = field[x, y - 1]
    if tx == TPB - 1 and x < field.shape[0] - 1:
        sharedarray[-1, ty + 1] = field[x + 1, y]
    if ty == TPB - 1 and y < field.shape[1] - 1:
        sharedarray[tx + 1, -1] = field[x, y + 1]
    # Load all inner values into tx + 1, ty + 1.
    sharedarray[tx + 1, ty + 1] = field[x, y]

    val = 4 * sharedarray[tx + 1, ty + 1]

    # Synchronize after loading
    cuda.syncthreads()

    # Check that we are not at the very edges of the array.
    if x > 0:
        val -= sharedarray[tx, ty + 1]
    if y > 0:
        val -= sharedarray[tx + 1, ty]
    if x < field.shape[0] - 1:
        val -= sharedarray[tx + 2, ty + 1]
    if y < field.shape[1] - 1:
        val -= sharedarray[tx + 1, ty + 2]

    # Check that we are within boundaries when saving.
    if x < field.shape[0] and y < field.shape[1]:
        lapl[x, y] = val
        field[x, y] -= val * coeff


orig_field = field.copy()
field_gpu = cuda.to_device(field)
lapl = np.zeros_like(field)
lapl_gpu = cuda.to_device(lapl)
ntimes = 10000


def init_numba():
    diffusion[blockspergrid, threadsperblock](field_gpu, lapl_gpu)


def test_numba():
    for i in range(ntimes):
        diffusion[blockspergrid, threadsperblock](field_gpu, lapl_gpu)
    lapl[...] = lapl_gpu.copy_to_host()
    field[...] = field_gpu.copy_to_host()


time_gpu = timeit(test_numba, setup=init_numba, number=1)
print(f'Time per iteration: {time_gpu / ntimes}')

import matplotlib.pyplot as plt

f, ax = plt.subplots(1, 3, figsize=(12, 3.5))
im1 = ax[0].imshow(orig_field)
ax[0].set_title('Original image')
im2 = ax[1].imshow(field)
ax[1].set_title('10000 iterations')
im3 = ax[2].imshow(lapl, cmap='inferno',
                   vmin=np.percentile(lapl, 5),
                   vmax=np.percentile(lapl, 95))
ax[2].set_title('Laplacian')
