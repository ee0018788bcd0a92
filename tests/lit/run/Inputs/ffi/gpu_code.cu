// Device functions in numba's calling convention (`int f(Ret* result, args...)`), compiled to the
// PTX beside this file that tests link as GPU code (numba's link= of a .ptx file):
//   nvcc -arch=compute_75 -rdc=true -ptx gpu_code.cu -o gpu_code.ptx
// with its `.version` lowered to 6.5 (all it uses is that old), so nvJitLink 12 reads it too.
extern "C" __device__ int triple_i32(int* result, int x) {
  *result = 3 * x;
  return 0;
}

// Writes through the CPointer it is given (from ffi.from_buffer): a[0] = a[0] + a[1].
extern "C" __device__ int accumulate_pair(void* result, int* a) {
  (void)result;
  a[0] += a[1];
  return 0;
}
