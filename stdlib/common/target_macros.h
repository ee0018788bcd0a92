// target_macros.h: which compiler sees the support code. PYK_CUDA is 1 under NVRTC or nvcc (device
// code: no standard headers, only the builtins NVRTC provides without includes) and 0 under a host
// C++ compiler; PYK_HD and PYK_SHARED spell __host__ __device__ and __shared__ there, nothing here.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PYK_CUDA 1
#define PYK_HD __host__ __device__
#define PYK_SHARED __shared__
#else
#define PYK_CUDA 0
#define PYK_HD
#define PYK_SHARED
#endif
