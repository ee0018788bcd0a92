// numba's FFI convention: the result through the first pointer, 0 returned (no exception).
extern "C" __device__ int mul_f32_f32(float* return_value, float x, float y) {
  *return_value = x * y;
  return 0;
}

#include "include/mymul.cuh" // beside this file: pyk puts its directory on the include path

extern "C" __device__ int saxpy(float* ret, float a, float x, float y) {
  *ret = mymul(a, x) + y;
  return 0;
}

// abi='c': the result returned.
extern "C" __device__ double half_of(double x) {
  return x / 2;
}
