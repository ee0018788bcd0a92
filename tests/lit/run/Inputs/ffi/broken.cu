extern "C" __device__ int broken(int* ret, int x) {
  *ret = x + ;
  return 0;
}
