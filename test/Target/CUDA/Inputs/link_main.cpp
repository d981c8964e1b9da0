// Calls the launchers of Inputs/strategies.mlir so that linking needs the
// object's symbols, layout_rt and the CUDA runtime. Compiled only (no GPU):
// it stops at the first error.
#include "strategies.h"

#include <cstdio>

int main() {
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc((void **)&x, 1001 * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&y, 1001 * sizeof(float)) != cudaSuccess) {
    std::printf("no CUDA device\n");
    return 0;
  }
  lrt_status_t status = memcpy_f32_raw(x, y, 0);
  if (status) {
    std::printf("%s\n", lrt_status_message(status));
    lrt_status_free(status);
  }
  cudaFree(x);
  cudaFree(y);
  return 0;
}
