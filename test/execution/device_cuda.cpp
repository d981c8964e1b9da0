// Device hooks of the execution driver for the CUDA launchers: buffers live
// in CUDA device memory (under the host emulation of runtime/cuda/, memory
// the emulator's allocation table knows as device memory), and every run is
// synchronized before its buffers are copied back. Compiles as host C++
// against the emulation or with nvcc on a GPU machine.
#include "driver.h"

#include "layout_rt/cuda.h"

#include <cstdio>
#include <cstdlib>

namespace {

void check(cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return;
  std::fprintf(stderr, "driver: %s: %s\n", what, cudaGetErrorString(error));
  std::exit(2);
}

void *deviceAlloc(size_t bytes) {
  void *pointer = nullptr;
  check(cudaMalloc(&pointer, bytes ? bytes : 1), "cudaMalloc");
  return pointer;
}

void deviceRelease(void *pointer) { check(cudaFree(pointer), "cudaFree"); }

void toDevice(void *dst, const void *src, size_t bytes) {
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice),
        "cudaMemcpy to the device");
}

void toHost(void *dst, const void *src, size_t bytes) {
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy to the host");
}

void sync() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

const exec_device_t cudaDevice = {kDLCUDA,  deviceAlloc, deviceRelease,
                                  toDevice, toHost,      sync};

} // namespace

extern "C" const exec_device_t *exec_device = &cudaDevice;
