//===- RuntimeApiTest.cpp - Launch checks and the runtime API subset ------===//
//
// The error codes are CUDA's for the same calls: launchers written against
// the emulation must see the failures they would see on a GPU.
//
//===----------------------------------------------------------------------===//

#include "EmuKernels.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace emu_test;

namespace {

__global__ void nopKernel(int *) {}

class RuntimeApi : public ::testing::Test {
protected:
  void SetUp() override { (void)cudaGetLastError(); }
};

/// Launches touch() and returns {launcher's error, whether a thread ran}.
std::pair<cudaError_t, bool> tryLaunch(dim3 Grid, dim3 Block,
                                       cudaStream_t Stream = 0) {
  DeviceBuffer<int> Flag(1);
  EXPECT_EQ(cudaMemset(Flag.get(), 0, sizeof(int)), cudaSuccess);
  cudaError_t Err = touch(Flag.get(), Grid, Block, Stream);
  return {Err, Flag.toHost()[0] == 1};
}

TEST_F(RuntimeApi, InvalidLaunchConfigurationsAreRejectedLikeCUDA) {
  const struct {
    dim3 Grid, Block;
  } Bad[] = {
      {dim3(1), dim3(1025)},
      {dim3(1), dim3(32, 33)},
      {dim3(1), dim3(1, 1, 65)},
      {dim3(1), dim3(2, 2, 257)},
      {dim3(1), dim3(0)},
      {dim3(1), dim3(4, 0)},
      {dim3(0), dim3(32)},
      {dim3(1, 0), dim3(32)},
      {dim3(1, 1, 0), dim3(32)},
      {dim3(1, 65536), dim3(32)},
      {dim3(1, 1, 65536), dim3(32)},
      {dim3(0x80000000u), dim3(32)},
      {dim3(1), dim3(2048)},
      {dim3(1), dim3(1, 1025)},
  };
  for (auto &C : Bad) {
    auto [Err, Ran] = tryLaunch(C.Grid, C.Block);
    EXPECT_EQ(Err, cudaErrorInvalidConfiguration)
        << "grid (" << C.Grid.x << "," << C.Grid.y << "," << C.Grid.z
        << ") block (" << C.Block.x << "," << C.Block.y << "," << C.Block.z
        << ")";
    EXPECT_FALSE(Ran);
    // cudaGetLastError reset the error.
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
}

TEST_F(RuntimeApi, LimitLaunchConfigurationsRun) {
  const struct {
    dim3 Grid, Block;
  } Good[] = {
      {dim3(1), dim3(1024)},          {dim3(1), dim3(1, 1024)},
      {dim3(1), dim3(16, 1, 64)},     {dim3(1), dim3(1, 1, 64)},
      {dim3(1, 65535), dim3(1)},      {dim3(1, 1, 65535), dim3(1)},
      {dim3(3, 5, 7), dim3(8, 4, 2)},
  };
  for (auto &C : Good) {
    auto [Err, Ran] = tryLaunch(C.Grid, C.Block);
    EXPECT_EQ(Err, cudaSuccess);
    EXPECT_TRUE(Ran);
  }
}

TEST_F(RuntimeApi, LastErrorIsPeekedAndResetLikeCUDA) {
  DeviceBuffer<int> Flag(1);
  LRT_LAUNCH(nopKernel, 1, 2000, 0, Flag.get());
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  // Failing API calls set it too; the last error is per host thread.
  EXPECT_EQ(cudaFree(reinterpret_cast<void *>(0x1000)), cudaErrorInvalidValue);
  std::thread Other([] { EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess); });
  Other.join();
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST_F(RuntimeApi, ErrorNamesAndStrings) {
  EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(cudaGetErrorString(cudaSuccess), "no error");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidConfiguration),
               "cudaErrorInvalidConfiguration");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration),
               "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(12345)),
               "unrecognized error code");
  EXPECT_EQ(int(cudaErrorInvalidValue), 1);
  EXPECT_EQ(int(cudaErrorMemoryAllocation), 2);
  EXPECT_EQ(int(cudaErrorInvalidConfiguration), 9);
}

TEST_F(RuntimeApi, MallocIsAlignedRecordedAndPoisoned) {
  void *P = nullptr;
  ASSERT_EQ(cudaMalloc(&P, 100), cudaSuccess);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 64, 0u);
  // Device memory starts undefined: never silently zero.
  EXPECT_EQ(static_cast<unsigned char *>(P)[99], 0xcd);
  float *F = nullptr;
  ASSERT_EQ(cudaMallocAsync(&F, 4 * sizeof(float), 0), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(F) % 64, 0u);
  EXPECT_EQ(cudaFreeAsync(F, 0), cudaSuccess);
  EXPECT_EQ(cudaFree(P), cudaSuccess);
  // Zero bytes: success and a null pointer, which cudaFree accepts.
  P = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(cudaMalloc(&P, 0), cudaSuccess);
  EXPECT_EQ(P, nullptr);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(cudaMalloc(static_cast<void **>(nullptr), 16),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMalloc(&P, ~size_t(0) / 2), cudaErrorMemoryAllocation);
  (void)cudaGetLastError();
}

TEST_F(RuntimeApi, FreeOfAnythingButALiveBaseIsInvalidValue) {
  char *P = nullptr;
  ASSERT_EQ(cudaMalloc(&P, 64), cudaSuccess);
  int HostInt = 0;
  EXPECT_EQ(cudaFree(&HostInt), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(P + 8), cudaErrorInvalidValue); // interior pointer
  EXPECT_EQ(cudaFree(P), cudaSuccess);
  EXPECT_EQ(cudaFree(P), cudaErrorInvalidValue); // double free
  EXPECT_EQ(cudaFreeAsync(&HostInt, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST_F(RuntimeApi, MemcpyChecksTheDeviceSidesOfEveryKind) {
  std::vector<int> Host(16, 5), Back(16, 0);
  int *D = nullptr, *E = nullptr;
  ASSERT_EQ(cudaMalloc(&D, 16 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&E, 16 * sizeof(int)), cudaSuccess);
  const size_t Bytes = 16 * sizeof(int);
  EXPECT_EQ(cudaMemcpy(D, Host.data(), Bytes, cudaMemcpyHostToDevice),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpy(E, D, Bytes, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(Back.data(), E, Bytes, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Back, Host);
  std::vector<int> Other(16, 9);
  EXPECT_EQ(cudaMemcpy(Back.data(), Other.data(), Bytes, cudaMemcpyHostToHost),
            cudaSuccess);
  EXPECT_EQ(Back, Other);
  // Default infers the direction from the pointers (unified addressing).
  EXPECT_EQ(cudaMemcpy(D, Other.data(), Bytes, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(Back.data(), D + 8, 8 * sizeof(int), cudaMemcpyDefault),
            cudaSuccess);
  EXPECT_EQ(Back[0], 9);

  // A host pointer on a device side, a range running past the allocation,
  // or null: cudaErrorInvalidValue, and nothing is copied.
  std::fill(Back.begin(), Back.end(), -1);
  EXPECT_EQ(cudaMemcpy(Back.data(), Host.data(), Bytes, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(Back.data(), Host.data(), Bytes, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(D, Host.data(), Bytes, cudaMemcpyDeviceToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(D + 1, Host.data(), Bytes, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(nullptr, D, Bytes, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue);
  EXPECT_EQ(Back, std::vector<int>(16, -1));
  EXPECT_EQ(cudaMemcpy(D, Host.data(), Bytes, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(D, Host.data(), 0, cudaMemcpyHostToDevice), cudaSuccess);

  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(D, Host.data(), Bytes, cudaMemcpyHostToDevice, S),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(Back.data(), Host.data(), Bytes,
                            cudaMemcpyHostToDevice, S),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemsetAsync(D, 0, Bytes, S), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(Back.data(), D, Bytes, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Back, std::vector<int>(16, 0));
  EXPECT_EQ(cudaMemset(Back.data(), 0, Bytes), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(D, 0, Bytes + 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamDestroy(S), cudaSuccess);
  EXPECT_EQ(cudaFree(D), cudaSuccess);
  EXPECT_EQ(cudaFree(E), cudaSuccess);
  (void)cudaGetLastError();
}

TEST_F(RuntimeApi, PointerAttributes) {
  char *D = nullptr;
  ASSERT_EQ(cudaMalloc(&D, 256), cudaSuccess);
  cudaPointerAttributes A;
  for (char *P : {D, D + 1, D + 255}) {
    ASSERT_EQ(cudaPointerGetAttributes(&A, P), cudaSuccess);
    EXPECT_EQ(A.type, cudaMemoryTypeDevice);
    EXPECT_EQ(A.device, 0);
    EXPECT_EQ(A.devicePointer, P);
    EXPECT_EQ(A.hostPointer, nullptr);
  }
  int Stack = 0;
  std::vector<int> Heap(4);
  for (const void *P :
       {static_cast<const void *>(D + 256), static_cast<const void *>(&Stack),
        static_cast<const void *>(Heap.data()),
        static_cast<const void *>(nullptr)}) {
    ASSERT_EQ(cudaPointerGetAttributes(&A, P), cudaSuccess);
    EXPECT_EQ(A.type, cudaMemoryTypeUnregistered);
    EXPECT_EQ(A.devicePointer, nullptr);
  }
  ASSERT_EQ(cudaFree(D), cudaSuccess);
  ASSERT_EQ(cudaPointerGetAttributes(&A, D), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeUnregistered); // freed
  EXPECT_EQ(cudaPointerGetAttributes(nullptr, &Stack), cudaErrorInvalidValue);
  EXPECT_NE(cudaMemoryTypeHost, cudaMemoryTypeManaged);
  (void)cudaGetLastError();
}

TEST_F(RuntimeApi, StreamsAreDistinctHandlesCheckedOnUse) {
  cudaStream_t A, B;
  ASSERT_EQ(cudaStreamCreate(&A), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&B), cudaSuccess);
  EXPECT_NE(A, B);
  EXPECT_NE(A, nullptr);
  for (cudaStream_t S : {A, B, cudaStream_t(0), cudaStreamLegacy,
                         cudaStreamPerThread, cudaStream_t(cudaStreamDefault)})
    EXPECT_EQ(cudaStreamSynchronize(S), cudaSuccess);
  EXPECT_EQ(tryLaunch(1, 1, A), std::make_pair(cudaSuccess, true));
  EXPECT_EQ(cudaStreamDestroy(A), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(A), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamSynchronize(A), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(tryLaunch(1, 1, A),
            std::make_pair(cudaErrorInvalidResourceHandle, false));
  void *P = nullptr;
  EXPECT_EQ(cudaMallocAsync(&P, 8, A), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamDestroy(B), cudaSuccess);
  EXPECT_EQ(cudaStreamCreate(nullptr), cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST_F(RuntimeApi, OneDevice) {
  int N = -1, D = -1;
  EXPECT_EQ(cudaGetDeviceCount(&N), cudaSuccess);
  EXPECT_EQ(N, 1);
  EXPECT_EQ(cudaGetDevice(&D), cudaSuccess);
  EXPECT_EQ(D, 0);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
}

TEST_F(RuntimeApi, HostThreadsLaunchConcurrently) {
  // Each host thread has its own scheduler, fibers and shared memory.
  auto Work = [](int Seed, bool *Ok) {
    std::vector<float> In(40 * 50);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = float(Seed * 10000 + int(I));
    DeviceBuffer<float> DIn(In), DOut(In.size());
    bool Good = true;
    for (int R = 0; R < 20; ++R) {
      Good &= transpose(DIn.get(), DOut.get(), 40, 50, 0) == cudaSuccess;
      std::vector<float> Got = DOut.toHost();
      for (int Row = 0; Row < 40; ++Row)
        for (int Col = 0; Col < 50; ++Col)
          Good &= Got[size_t(Col) * 40 + Row] == In[size_t(Row) * 50 + Col];
    }
    *Ok = Good;
  };
  bool Ok1 = false, Ok2 = false;
  std::thread T1(Work, 1, &Ok1), T2(Work, 2, &Ok2);
  T1.join();
  T2.join();
  EXPECT_TRUE(Ok1);
  EXPECT_TRUE(Ok2);
}

} // namespace
