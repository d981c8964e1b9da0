//===- TestUtil.h - Device buffers for the emulation tests ----------------===//

#ifndef LAYOUT_RT_CUDA_TEST_TESTUTIL_H
#define LAYOUT_RT_CUDA_TEST_TESTUTIL_H

#include "layout_rt/cuda.h"

#include <gtest/gtest.h>

#include <vector>

/// A cudaMalloc'ed array, filled and read back with cudaMemcpy as a real
/// launcher's caller would.
template <typename T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t N) : Size(N) {
    EXPECT_EQ(cudaMalloc(&Ptr, N * sizeof(T)), cudaSuccess);
  }
  explicit DeviceBuffer(const std::vector<T> &Host)
      : DeviceBuffer(Host.size()) {
    EXPECT_EQ(
        cudaMemcpy(Ptr, Host.data(), Size * sizeof(T), cudaMemcpyHostToDevice),
        cudaSuccess);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { EXPECT_EQ(cudaFree(Ptr), cudaSuccess); }

  T *get() const { return Ptr; }
  std::vector<T> toHost() const {
    std::vector<T> Host(Size);
    EXPECT_EQ(
        cudaMemcpy(Host.data(), Ptr, Size * sizeof(T), cudaMemcpyDeviceToHost),
        cudaSuccess);
    return Host;
  }

private:
  T *Ptr = nullptr;
  size_t Size;
};

#endif // LAYOUT_RT_CUDA_TEST_TESTUTIL_H
