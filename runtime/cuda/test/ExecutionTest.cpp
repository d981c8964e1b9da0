//===- ExecutionTest.cpp - Kernels of EmuKernels.cu under the emulation ---===//
//
// Results are checked against host loops; kernels with a missing barrier
// must give wrong results, which proves the scheduling interleaves threads.
//
//===----------------------------------------------------------------------===//

#include "EmuKernels.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

using namespace emu_test;

namespace {

std::vector<float> iotaFloats(size_t N, float Start = 1.0f) {
  std::vector<float> V(N);
  std::iota(V.begin(), V.end(), Start);
  return V;
}

std::vector<float> hostTranspose(const std::vector<float> &In, int Rows,
                                 int Cols) {
  std::vector<float> Out(In.size());
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C)
      Out[size_t(C) * Rows + R] = In[size_t(R) * Cols + C];
  return Out;
}

TEST(Execution, TiledTransposeMatchesHostLoopOnOddSizes) {
  const int Sizes[][2] = {{1, 1},   {1, 70},   {33, 1},  {31, 33},
                          {65, 97}, {100, 37}, {128, 64}};
  for (auto &S : Sizes) {
    int Rows = S[0], Cols = S[1];
    std::vector<float> In = iotaFloats(size_t(Rows) * Cols);
    DeviceBuffer<float> DIn(In), DOut(In.size());
    ASSERT_EQ(transpose(DIn.get(), DOut.get(), Rows, Cols, 0), cudaSuccess);
    EXPECT_EQ(DOut.toHost(), hostTranspose(In, Rows, Cols))
        << Rows << "x" << Cols;
  }
}

TEST(Execution, TransposeOnACreatedStream) {
  cudaStream_t Stream;
  ASSERT_EQ(cudaStreamCreate(&Stream), cudaSuccess);
  std::vector<float> In = iotaFloats(45 * 71);
  DeviceBuffer<float> DIn(In), DOut(In.size());
  ASSERT_EQ(transpose(DIn.get(), DOut.get(), 45, 71, Stream), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(Stream), cudaSuccess);
  EXPECT_EQ(DOut.toHost(), hostTranspose(In, 45, 71));
  EXPECT_EQ(cudaStreamDestroy(Stream), cudaSuccess);
}

TEST(Execution, TransposeWithoutSyncthreadsIsWrong) {
  const int Rows = 64, Cols = 96;
  std::vector<float> In = iotaFloats(size_t(Rows) * Cols);
  DeviceBuffer<float> DIn(In), DOut(In.size());
  ASSERT_EQ(transposeNoSync(DIn.get(), DOut.get(), Rows, Cols, 0), cudaSuccess);
  std::vector<float> Want = hostTranspose(In, Rows, Cols);
  std::vector<float> Got = DOut.toHost();
  size_t Wrong = 0;
  for (size_t I = 0; I < Got.size(); ++I)
    Wrong += Got[I] != Want[I];
  // A tile row is written by 8 threads in a random order and read by 32
  // others: most reads happen before the write.
  EXPECT_GT(Wrong, Got.size() / 4);
}

TEST(Execution, MissingSyncthreadsGivesWrongResultsUnderShuffledOrder) {
  for (int Threads : {33, 256, 1024}) {
    const int Blocks = 3;
    std::vector<int> In(size_t(Threads) * Blocks);
    std::iota(In.begin(), In.end(), 1000);
    std::vector<int> Want(In.size());
    for (int B = 0; B < Blocks; ++B)
      for (int T = 0; T < Threads; ++T)
        Want[size_t(B) * Threads + T] =
            T == 0 ? -1 : In[size_t(B) * Threads + T - 1];
    DeviceBuffer<int> DIn(In), DOut(In.size());
    ASSERT_EQ(shiftShared(DIn.get(), DOut.get(), Threads, Blocks, true),
              cudaSuccess);
    EXPECT_EQ(DOut.toHost(), Want) << Threads;
    // Every thread runs to its end in one go, so in index order each would
    // find its neighbour's value already written. Shuffled, about half don't.
    ASSERT_EQ(shiftShared(DIn.get(), DOut.get(), Threads, Blocks, false),
              cudaSuccess);
    std::vector<int> Got = DOut.toHost();
    size_t Wrong = 0;
    for (size_t I = 0; I < Got.size(); ++I)
      Wrong += Got[I] != Want[I];
    EXPECT_GE(Wrong, Got.size() / 4) << Threads;
  }
}

TEST(Execution, SyncwarpOrdersSharedMemoryWithinAWarp) {
  std::vector<int> In(64);
  std::iota(In.begin(), In.end(), 7);
  std::vector<int> Want(64);
  for (int T = 0; T < 64; ++T)
    Want[T] = In[(T / 32) * 32 + (T % 32 + 1) % 32];
  DeviceBuffer<int> DIn(In), DOut(64);
  ASSERT_EQ(rotateWarp(DIn.get(), DOut.get(), true), cudaSuccess);
  EXPECT_EQ(DOut.toHost(), Want);
  ASSERT_EQ(rotateWarp(DIn.get(), DOut.get(), false), cudaSuccess);
  EXPECT_NE(DOut.toHost(), Want);
}

TEST(Execution, ExitedThreadsCountAsArrivedAtSyncthreads) {
  std::vector<int> In(256);
  std::iota(In.begin(), In.end(), 1);
  DeviceBuffer<int> DIn(In), DOut(256);
  ASSERT_EQ(cudaMemset(DOut.get(), 0, 256 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(exitBeforeBarrier(DIn.get(), DOut.get(), 256, 100), cudaSuccess);
  std::vector<int> Got = DOut.toHost();
  for (int T = 0; T < 256; ++T)
    EXPECT_EQ(Got[T], T < 100 ? In[(T + 1) % 100] : 0) << T;
}

TEST(Execution, BlockReductionWithSyncthreads) {
  const int Blocks = 7;
  std::vector<float> In(size_t(Blocks) * 256);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(int(I % 97) - 40); // small integers: every sum is exact
  DeviceBuffer<float> DIn(In), DOut(Blocks);
  ASSERT_EQ(blockSum(DIn.get(), DOut.get(), Blocks), cudaSuccess);
  std::vector<float> Got = DOut.toHost();
  for (int B = 0; B < Blocks; ++B) {
    float Want = 0;
    for (int T = 0; T < 256; ++T)
      Want += In[size_t(B) * 256 + T];
    EXPECT_EQ(Got[B], Want) << B;
  }
}

TEST(Execution, ShuffleFormsFollowPTXLaneArithmetic) {
  std::vector<int> In(64);
  for (int T = 0; T < 64; ++T)
    In[T] = 100 * T + 3;
  DeviceBuffer<int> DIn(In), DOut(kShuffleProbes * 64);
  ASSERT_EQ(shuffleProbes(DIn.get(), DOut.get()), cudaSuccess);
  std::vector<int> Got = DOut.toHost();
  for (int T = 0; T < 64; ++T) {
    int Base = T / 32 * 32, L = T % 32;
    auto At = [&](int Lane) { return In[Base + Lane]; };
    int Want[kShuffleProbes] = {
        At(5),
        At((L + 1) % 32),
        L >= 3 ? At(L - 3) : At(L),
        L + 5 < 32 ? At(L + 5) : At(L),
        At(L ^ 6),
        At((L & ~7) + 3),
        (L & 7) >= 2 ? At(L - 2) : At(L),
        (L & 15) + 2 < 16 ? At(L + 2) : At(L),
        At(L ^ 1),
        L >= 16 ? At(L - 16) : At(L),
        L < 16 ? At(15 - L) : ((L & 15) + 1 < 16 ? At(L + 1) : At(L)),
        At(5),
    };
    for (int P = 0; P < kShuffleProbes; ++P)
      EXPECT_EQ(Got[P * 64 + T], Want[P]) << "probe " << P << " thread " << T;
  }
}

template <typename T> void checkWarpReduce(T Scale) {
  std::vector<T> In(64);
  for (int I = 0; I < 64; ++I)
    In[I] = T(I % 13 + 1) * Scale;
  DeviceBuffer<T> DIn(In), DDown(2), DXor(64), DScan(64);
  ASSERT_EQ(warpReduce<T>(DIn.get(), DDown.get(), DXor.get(), DScan.get()),
            cudaSuccess);
  std::vector<T> Down = DDown.toHost(), Xor = DXor.toHost(),
                 Scan = DScan.toHost();
  for (int W = 0; W < 2; ++W) {
    T Sum = 0;
    for (int L = 0; L < 32; ++L)
      Sum += In[W * 32 + L];
    EXPECT_EQ(Down[W], Sum) << "warp " << W;
    T Prefix = 0;
    for (int L = 0; L < 32; ++L) {
      Prefix += In[W * 32 + L];
      EXPECT_EQ(Xor[W * 32 + L], Sum) << "lane " << L;
      EXPECT_EQ(Scan[W * 32 + L], Prefix) << "lane " << L;
    }
  }
}

TEST(Execution, WarpReductionsAndScanForEveryShuffleType) {
  checkWarpReduce<int>(-3);
  checkWarpReduce<unsigned>(7u);
  checkWarpReduce<long long>(1ll << 40);
  checkWarpReduce<float>(0.5f);
  checkWarpReduce<double>(0.25);
}

TEST(Execution, GridStrideLoopCoversEveryElement) {
  const int N = 10007;
  std::vector<float> X = iotaFloats(N), Y(N, 2.0f);
  DeviceBuffer<float> DX(X), DY(Y);
  ASSERT_EQ(saxpyGridStride(3.0f, DX.get(), DY.get(), N, 5, 96), cudaSuccess);
  std::vector<float> Got = DY.toHost();
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], 3.0f * X[I] + 2.0f) << I;
}

TEST(Execution, VectorLoads) {
  const int N = 333;
  std::vector<float4> F(N);
  std::vector<uint4> U(N);
  std::vector<char4> C(N);
  std::vector<short2> S(N);
  for (int I = 0; I < N; ++I) {
    F[I] = make_float4(I, -I, 0.5f * I, 1e6f + I);
    U[I] = make_uint4(I, 0xffffffffu - I, 3 * I, 7);
    C[I] = make_char4(I % 128, -(I % 100), 3, -128);
    S[I] = make_short2(I, -2 * I);
  }
  DeviceBuffer<float4> DF(F), DF2(N);
  DeviceBuffer<uint4> DU(U), DU2(N);
  DeviceBuffer<char4> DC(C), DC2(N);
  DeviceBuffer<short2> DS(S), DS2(N);
  ASSERT_EQ(copyFloat4(DF.get(), DF2.get(), N), cudaSuccess);
  ASSERT_EQ(copyUint4(DU.get(), DU2.get(), N), cudaSuccess);
  ASSERT_EQ(copyChar4Short2(DC.get(), DC2.get(), DS.get(), DS2.get(), N),
            cudaSuccess);
  std::vector<float4> F2 = DF2.toHost();
  std::vector<uint4> U2 = DU2.toHost();
  std::vector<char4> C2 = DC2.toHost();
  std::vector<short2> S2 = DS2.toHost();
  for (int I = 0; I < N; ++I) {
    EXPECT_TRUE(F2[I].x == F[I].x && F2[I].y == F[I].y && F2[I].z == F[I].z &&
                F2[I].w == F[I].w)
        << I;
    EXPECT_TRUE(U2[I].x == U[I].x && U2[I].y == U[I].y && U2[I].z == U[I].z &&
                U2[I].w == U[I].w)
        << I;
    EXPECT_TRUE(C2[I].x == C[I].w && C2[I].y == C[I].z && C2[I].z == C[I].y &&
                C2[I].w == C[I].x)
        << I;
    EXPECT_TRUE(S2[I].x == S[I].y && S2[I].y == S[I].x) << I;
  }
}

TEST(Execution, BuiltinIndicesOfEveryThread) {
  const dim3 Grid(3, 2, 2), Block(4, 3, 2);
  const unsigned Threads = 4 * 3 * 2, Blocks = 3 * 2 * 2;
  DeviceBuffer<unsigned> Out(size_t(12) * Threads * Blocks);
  ASSERT_EQ(recordIndices(Out.get(), Grid, Block), cudaSuccess);
  std::vector<unsigned> Got = Out.toHost();
  size_t I = 0;
  for (unsigned BZ = 0; BZ < 2; ++BZ)
    for (unsigned BY = 0; BY < 2; ++BY)
      for (unsigned BX = 0; BX < 3; ++BX)
        for (unsigned TZ = 0; TZ < 2; ++TZ)
          for (unsigned TY = 0; TY < 3; ++TY)
            for (unsigned TX = 0; TX < 4; ++TX, I += 12) {
              std::vector<unsigned> Want = {TX, TY, TZ, BX, BY, BZ,
                                            4,  3,  2,  3,  2,  2};
              ASSERT_EQ(
                  std::vector<unsigned>(Got.begin() + I, Got.begin() + I + 12),
                  Want)
                  << "block (" << BX << "," << BY << "," << BZ << ") thread ("
                  << TX << "," << TY << "," << TZ << ")";
            }
  // Outside a launch the built-ins are reset.
  EXPECT_EQ(threadIdx.x + blockIdx.x + blockDim.x + gridDim.x, 0u);
}

TEST(Execution, DeviceMathFunctions) {
  const std::vector<float> In = {1.0f, -2.0f, 0.0f,  -0.0f, INFINITY, -INFINITY,
                                 NAN,  -NAN,  0.25f, -1.5f, 1e-40f};
  const int N = static_cast<int>(In.size());
  DeviceBuffer<float> DIn(In), DOut(6 * In.size());
  ASSERT_EQ(deviceMath(DIn.get(), DOut.get(), N), cudaSuccess);
  std::vector<float> Got = DOut.toHost();
  auto Same = [](float A, float B) {
    return (std::isnan(A) && std::isnan(B)) ||
           (A == B && std::signbit(A) == std::signbit(B));
  };
  for (int I = 0; I < N; ++I) {
    float X = In[I];
    // fmax/fmin return the other operand for one NaN, as CUDA's do.
    const float Want[6] = {std::isnan(X) ? 1.0f : 0.0f,
                           std::fmax(X, 0.5f),
                           std::fmin(X, 0.5f),
                           float(std::fmax(double(X), -1.0)),
                           float(std::fmin(double(X), -1.0)),
                           std::signbit(X) ? 1.0f : 0.0f};
    for (int K = 0; K < 6; ++K)
      EXPECT_TRUE(Same(Got[6 * I + K], Want[K]))
          << "input " << X << " function " << K << ": " << Got[6 * I + K];
  }
  EXPECT_EQ(Got[6 * 6 + 1], 0.5f); // fmaxf(NaN, 0.5)
}

TEST(Execution, BlocksRunInAShuffledOrder) {
  const dim3 Grid(7, 5, 3);
  const int Blocks = 7 * 5 * 3;
  DeviceBuffer<int> Counter(1), Order(Blocks);
  ASSERT_EQ(cudaMemset(Counter.get(), 0, sizeof(int)), cudaSuccess);
  ASSERT_EQ(blockOrder(Counter.get(), Order.get(), Grid), cudaSuccess);
  std::vector<int> Got = Order.toHost();
  std::vector<int> Sorted = Got, Identity(Blocks);
  std::sort(Sorted.begin(), Sorted.end());
  std::iota(Identity.begin(), Identity.end(), 0);
  EXPECT_EQ(Sorted, Identity); // every block ran exactly once
  EXPECT_NE(Got, Identity);    // but not in index order
}

// Not a correctness test: measures what a kernel costs under the emulation
// (printed in the test log; runtime/cuda/README.md quotes it). Best of five
// runs, since CI machines are shared.
TEST(Execution, CostPerThreadAndPerBarrier) {
  using Clock = std::chrono::steady_clock;
  auto BestNs = [](auto &&Run) {
    double Best = 1e300;
    for (int I = 0; I < 5; ++I) {
      auto T0 = Clock::now();
      Run();
      Best = std::min(
          Best,
          std::chrono::duration<double, std::nano>(Clock::now() - T0).count());
    }
    return Best;
  };
  const int N = 256 * 1024; // 1 MiB of floats, 1024 blocks of 256 threads
  std::vector<float> In = iotaFloats(N);
  DeviceBuffer<float> DIn(In), DOut(N);
  double CopyNs = BestNs([&] {
    ASSERT_EQ(copyFloats(DIn.get(), DOut.get(), N, 256), cudaSuccess);
  });
  EXPECT_EQ(DOut.toHost(), In);

  const int Blocks = 64, Threads = 256, Barriers = 20;
  DeviceBuffer<int> Count(Blocks);
  double NoBarrierNs = BestNs([&] {
    ASSERT_EQ(barrierLoop(Count.get(), Blocks, Threads, 0), cudaSuccess);
  });
  double BarrierNs = BestNs([&] {
    ASSERT_EQ(barrierLoop(Count.get(), Blocks, Threads, Barriers), cudaSuccess);
  });
  EXPECT_EQ(Count.toHost(), std::vector<int>(Blocks, Barriers));
  double PerThread = CopyNs / N;
  double PerBarrier =
      (BarrierNs - NoBarrierNs) / (double(Blocks) * Threads * Barriers);
  std::printf("[ cost     ] %.1f ns per thread (copy of %d floats), %.1f ns "
              "per thread per __syncthreads (%d x %d threads)\n",
              PerThread, N, PerBarrier, Blocks, Threads);
  RecordProperty("ns_per_thread", std::to_string(PerThread));
  RecordProperty("ns_per_thread_barrier", std::to_string(PerBarrier));
}

} // namespace
