//===- EmuKernels.cu - Kernels of the emulation tests, real CUDA ----------===//
//
// Written in the CUDA subset generated code uses (layout_rt/cuda.h), so the
// same file builds with nvcc and, as host C++, against the emulation.
//
//===----------------------------------------------------------------------===//

#include "EmuKernels.h"

#include <stdint.h>

// CUDA's vector type layouts (vector_types.h); nvcc checks these against the
// real definitions, the host build against the emulation's.
#define CHECK_LAYOUT(T, SIZE, ALIGN)                                           \
  static_assert(sizeof(T) == SIZE && alignof(T) == ALIGN,                      \
                #T " has the wrong layout");
CHECK_LAYOUT(char2, 2, 2)
CHECK_LAYOUT(char4, 4, 4)
CHECK_LAYOUT(uchar2, 2, 2)
CHECK_LAYOUT(uchar4, 4, 4)
CHECK_LAYOUT(short2, 4, 4)
CHECK_LAYOUT(short4, 8, 8)
CHECK_LAYOUT(ushort2, 4, 4)
CHECK_LAYOUT(ushort4, 8, 8)
CHECK_LAYOUT(int2, 8, 8)
CHECK_LAYOUT(int4, 16, 16)
CHECK_LAYOUT(uint2, 8, 8)
CHECK_LAYOUT(uint4, 16, 16)
CHECK_LAYOUT(float2, 8, 8)
CHECK_LAYOUT(float4, 16, 16)
CHECK_LAYOUT(double2, 16, 16)
CHECK_LAYOUT(longlong2, 16, 16)
CHECK_LAYOUT(ulonglong2, 16, 16)
CHECK_LAYOUT(__half, 2, 2)
CHECK_LAYOUT(__nv_bfloat16, 2, 2)
CHECK_LAYOUT(dim3, 12, 4)
#undef CHECK_LAYOUT

namespace emu_test {
namespace {

constexpr int kTile = 32;
constexpr int kTileRows = 8;
static_assert(kTile * kTileRows == 256, "__launch_bounds__ below");

template <bool Sync>
__global__ void __launch_bounds__(256)
    transposeKernel(const float *__restrict__ In, float *__restrict__ Out,
                    int Rows, int Cols) {
  // One column of padding: a warp reading a tile column touches 32 banks.
  __shared__ float Tile[kTile][kTile + 1];
  int X = blockIdx.x * kTile + threadIdx.x;
  int Y = blockIdx.y * kTile + threadIdx.y;
  for (int J = 0; J < kTile; J += kTileRows)
    if (X < Cols && Y + J < Rows)
      Tile[threadIdx.y + J][threadIdx.x] = __ldg(&In[(Y + J) * Cols + X]);
  if (Sync)
    __syncthreads();
  X = blockIdx.y * kTile + threadIdx.x;
  Y = blockIdx.x * kTile + threadIdx.y;
  for (int J = 0; J < kTile; J += kTileRows)
    if (X < Rows && Y + J < Cols)
      Out[(Y + J) * Rows + X] = Tile[threadIdx.x][threadIdx.y + J];
}

__global__ void blockSumKernel(const float *In, float *Out) {
  __shared__ float Partial[256];
  unsigned T = threadIdx.x;
  Partial[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
  for (unsigned Half = 128; Half > 0; Half /= 2) {
    if (T < Half)
      Partial[T] += Partial[T + Half];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Partial[0];
}

template <bool Sync>
__global__ void shiftSharedKernel(const int *In, int *Out) {
  __shared__ int Slots[1024];
  unsigned T = threadIdx.x, N = blockDim.x;
  unsigned Base = blockIdx.x * N;
  Slots[T] = In[Base + T];
  if (Sync)
    __syncthreads();
  Out[Base + T] = T == 0 ? -1 : Slots[T - 1];
}

template <bool Sync> __global__ void rotateWarpKernel(const int *In, int *Out) {
  __shared__ int Slots[64];
  unsigned T = threadIdx.x, Warp = T / 32, Lane = T % 32;
  Slots[T] = In[T];
  if (Sync)
    __syncwarp();
  Out[T] = Slots[Warp * 32 + (Lane + 1) % 32];
}

__global__ void exitBeforeBarrierKernel(const int *In, int *Out, int Live) {
  __shared__ int Slots[1024];
  int T = threadIdx.x;
  if (T >= Live)
    return;
  Slots[T] = In[T];
  __syncthreads();
  Out[T] = Slots[(T + 1) % Live];
}

__global__ void shuffleProbesKernel(const int *In, int *Out) {
  const unsigned Full = 0xffffffffu;
  unsigned T = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned Lane = T % 32;
  int V = In[T];
  int R[kShuffleProbes];
  R[0] = __shfl_sync(Full, V, 5);
  R[1] = __shfl_sync(Full, V, Lane + 1); // lane 31 asks for 32: wraps to 0
  R[2] = __shfl_up_sync(Full, V, 3);
  R[3] = __shfl_down_sync(Full, V, 5);
  R[4] = __shfl_xor_sync(Full, V, 6);
  R[5] = __shfl_sync(Full, V, 3, 8);
  R[6] = __shfl_up_sync(Full, V, 2, 8);
  R[7] = __shfl_down_sync(Full, V, 2, 16);
  R[8] = __shfl_xor_sync(Full, V, 1, 4);
  // Lanes 16..31 may read the earlier group; lanes 0..15 keep their value.
  R[9] = __shfl_xor_sync(Full, V, 16, 16);
  // Two disjoint half-warp groups in divergent branches.
  if (Lane < 16)
    R[10] = __shfl_sync(0x0000ffffu, V, 15 - Lane, 16);
  else
    R[10] = __shfl_down_sync(0xffff0000u, V, 1, 16);
  R[11] = __shfl_sync(Full, V, 37); // only the low 5 bits count: lane 5
  for (int P = 0; P < kShuffleProbes; ++P)
    Out[P * 64 + T] = R[P];
}

template <typename T>
__global__ void warpReduceKernel(const T *In, T *DownSum, T *XorSum, T *Scan) {
  const unsigned Full = 0xffffffffu;
  unsigned I = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned Lane = I % 32;
  T V = In[I];
  T Down = V;
  for (int Offset = 16; Offset > 0; Offset /= 2)
    Down += __shfl_down_sync(Full, Down, Offset);
  if (Lane == 0)
    DownSum[I / 32] = Down;
  T Xor = V;
  for (int Mask = 16; Mask > 0; Mask /= 2)
    Xor += __shfl_xor_sync(Full, Xor, Mask);
  XorSum[I] = Xor;
  T Prefix = V;
  for (unsigned Delta = 1; Delta < 32; Delta *= 2) {
    T Up = __shfl_up_sync(Full, Prefix, Delta);
    if (Lane >= Delta)
      Prefix += Up;
  }
  Scan[I] = Prefix;
}

__global__ void saxpyKernel(float A, const float *X, float *Y, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    Y[I] = A * X[I] + Y[I];
}

template <typename T>
__global__ void copyVectorKernel(const T *__restrict__ In, T *__restrict__ Out,
                                 int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = __ldg(&In[I]);
}

__global__ void copyChar4Short2Kernel(const char4 *InC, char4 *OutC,
                                      const short2 *InS, short2 *OutS, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    char4 C = __ldg(&InC[I]);
    OutC[I] = make_char4(C.w, C.z, C.y, C.x);
    short2 S = __ldg(&InS[I]);
    OutS[I] = make_short2(S.y, S.x);
  }
}

__global__ void barrierLoopKernel(int *Out, int Barriers) {
  int Count = 0;
  for (int B = 0; B < Barriers; ++B) {
    __syncthreads();
    ++Count;
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Count;
}

__global__ void recordIndicesKernel(unsigned *Out) {
  unsigned Threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned Block =
      (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned Tid =
      (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned *P = Out + 12 * (Block * Threads + Tid);
  P[0] = threadIdx.x;
  P[1] = threadIdx.y;
  P[2] = threadIdx.z;
  P[3] = blockIdx.x;
  P[4] = blockIdx.y;
  P[5] = blockIdx.z;
  P[6] = blockDim.x;
  P[7] = blockDim.y;
  P[8] = blockDim.z;
  P[9] = gridDim.x;
  P[10] = gridDim.y;
  P[11] = gridDim.z;
}

// The <cmath> functions the contract allows in device code.
__global__ void mathKernel(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float X = __ldg(&In[I]);
  float *O = Out + 6 * I;
  O[0] = isnan(X) ? 1.0f : 0.0f;
  O[1] = fmaxf(X, 0.5f);
  O[2] = fminf(X, 0.5f);
  O[3] = static_cast<float>(fmax(static_cast<double>(X), -1.0));
  O[4] = static_cast<float>(fmin(static_cast<double>(X), -1.0));
  O[5] = ::signbit(X) ? 1.0f : 0.0f;
}

// Emulation only: the unsynchronized counter is a data race on a GPU.
__global__ void blockOrderKernel(int *Counter, int *Order) {
  if (threadIdx.x == 0)
    Order[(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x] =
        (*Counter)++;
}

__global__ void touchKernel(int *Flag) {
  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 &&
      threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    *Flag = 1;
}

__global__ void partialWarpShuffleKernel(int *Out) {
  Out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, int(threadIdx.x), 1);
}

__global__ void shuffleAfterExitKernel(int *Out) {
  if (threadIdx.x == 5)
    return;
  Out[threadIdx.x] = __shfl_down_sync(0xffffffffu, int(threadIdx.x), 1);
}

__global__ void syncwarpVsSyncthreadsKernel() {
  if (threadIdx.x == 0)
    __syncthreads();
  else
    __syncwarp();
}

__global__ void laneNotInMaskKernel(int *Out) {
  Out[threadIdx.x] = __shfl_sync(0x1u, int(threadIdx.x), 0);
}

__global__ void readOutsideMaskKernel(int *Out) {
  if (threadIdx.x < 16)
    Out[threadIdx.x] = __shfl_sync(0x0000ffffu, int(threadIdx.x), 20);
}

__global__ void badShuffleWidthKernel(int *Out) {
  Out[threadIdx.x] = __shfl_sync(0xffffffffu, int(threadIdx.x), 0, 12);
}

__global__ void ldgKernel(const float *In, float *Out) { *Out = __ldg(In); }

__global__ void ldgFloat4Kernel(const float *In, float4 *Out) {
  *Out = __ldg(reinterpret_cast<const float4 *>(In));
}

int ceilDiv(int A, int B) { return (A + B - 1) / B; }

} // namespace

cudaError_t transpose(const float *In, float *Out, int Rows, int Cols,
                      cudaStream_t Stream) {
  dim3 Grid(ceilDiv(Cols, kTile), ceilDiv(Rows, kTile));
  dim3 Block(kTile, kTileRows);
  LRT_LAUNCH(transposeKernel<true>, Grid, Block, Stream, In, Out, Rows, Cols);
  return cudaGetLastError();
}

cudaError_t transposeNoSync(const float *In, float *Out, int Rows, int Cols,
                            cudaStream_t Stream) {
  dim3 Grid(ceilDiv(Cols, kTile), ceilDiv(Rows, kTile));
  dim3 Block(kTile, kTileRows);
  LRT_LAUNCH(transposeKernel<false>, Grid, Block, Stream, In, Out, Rows, Cols);
  return cudaGetLastError();
}

cudaError_t blockSum(const float *In, float *Out, int Blocks) {
  LRT_LAUNCH(blockSumKernel, Blocks, 256, 0, In, Out);
  return cudaGetLastError();
}

cudaError_t shiftShared(const int *In, int *Out, int Threads, int Blocks,
                        bool Sync) {
  if (Sync)
    LRT_LAUNCH(shiftSharedKernel<true>, Blocks, Threads, 0, In, Out);
  else
    LRT_LAUNCH(shiftSharedKernel<false>, Blocks, Threads, 0, In, Out);
  return cudaGetLastError();
}

cudaError_t rotateWarp(const int *In, int *Out, bool Sync) {
  if (Sync)
    LRT_LAUNCH(rotateWarpKernel<true>, 1, 64, 0, In, Out);
  else
    LRT_LAUNCH(rotateWarpKernel<false>, 1, 64, 0, In, Out);
  return cudaGetLastError();
}

cudaError_t exitBeforeBarrier(const int *In, int *Out, int Threads, int Live) {
  LRT_LAUNCH(exitBeforeBarrierKernel, 1, Threads, 0, In, Out, Live);
  return cudaGetLastError();
}

cudaError_t shuffleProbes(const int *In, int *Out) {
  LRT_LAUNCH(shuffleProbesKernel, 1, dim3(16, 4), 0, In, Out);
  return cudaGetLastError();
}

template <typename T>
cudaError_t warpReduce(const T *In, T *DownSum, T *XorSum, T *Scan) {
  LRT_LAUNCH(warpReduceKernel<T>, 1, dim3(16, 4), 0, In, DownSum, XorSum, Scan);
  return cudaGetLastError();
}
template cudaError_t warpReduce<int>(const int *, int *, int *, int *);
template cudaError_t warpReduce<unsigned>(const unsigned *, unsigned *,
                                          unsigned *, unsigned *);
template cudaError_t warpReduce<long long>(const long long *, long long *,
                                           long long *, long long *);
template cudaError_t warpReduce<float>(const float *, float *, float *,
                                       float *);
template cudaError_t warpReduce<double>(const double *, double *, double *,
                                        double *);

cudaError_t saxpyGridStride(float A, const float *X, float *Y, int N,
                            int Blocks, int Threads) {
  LRT_LAUNCH(saxpyKernel, Blocks, Threads, 0, A, X, Y, N);
  return cudaGetLastError();
}

cudaError_t copyFloat4(const float4 *In, float4 *Out, int N) {
  LRT_LAUNCH(copyVectorKernel<float4>, ceilDiv(N, 128), 128, 0, In, Out, N);
  return cudaGetLastError();
}

cudaError_t copyUint4(const uint4 *In, uint4 *Out, int N) {
  LRT_LAUNCH(copyVectorKernel<uint4>, ceilDiv(N, 128), 128, 0, In, Out, N);
  return cudaGetLastError();
}

cudaError_t copyChar4Short2(const char4 *InC, char4 *OutC, const short2 *InS,
                            short2 *OutS, int N) {
  LRT_LAUNCH(copyChar4Short2Kernel, ceilDiv(N, 64), 64, 0, InC, OutC, InS, OutS,
             N);
  return cudaGetLastError();
}

cudaError_t copyFloats(const float *In, float *Out, int N, int Threads) {
  LRT_LAUNCH(copyVectorKernel<float>, ceilDiv(N, Threads), Threads, 0, In, Out,
             N);
  return cudaGetLastError();
}

cudaError_t barrierLoop(int *Out, int Blocks, int Threads, int Barriers) {
  LRT_LAUNCH(barrierLoopKernel, Blocks, Threads, 0, Out, Barriers);
  return cudaGetLastError();
}

cudaError_t recordIndices(unsigned *Out, dim3 Grid, dim3 Block) {
  LRT_LAUNCH(recordIndicesKernel, Grid, Block, 0, Out);
  return cudaGetLastError();
}

cudaError_t deviceMath(const float *In, float *Out, int N) {
  LRT_LAUNCH(mathKernel, ceilDiv(N, 64), 64, 0, In, Out, N);
  return cudaGetLastError();
}

cudaError_t blockOrder(int *Counter, int *Order, dim3 Grid) {
  LRT_LAUNCH(blockOrderKernel, Grid, 32, 0, Counter, Order);
  return cudaGetLastError();
}

cudaError_t touch(int *Flag, dim3 Grid, dim3 Block, cudaStream_t Stream) {
  LRT_LAUNCH(touchKernel, Grid, Block, Stream, Flag);
  return cudaGetLastError();
}

cudaError_t partialWarpShuffle(int *Out) {
  LRT_LAUNCH(partialWarpShuffleKernel, 1, 48, 0, Out);
  return cudaGetLastError();
}

cudaError_t shuffleAfterExit(int *Out) {
  LRT_LAUNCH(shuffleAfterExitKernel, 1, 32, 0, Out);
  return cudaGetLastError();
}

cudaError_t syncwarpVsSyncthreads() {
  LRT_LAUNCH(syncwarpVsSyncthreadsKernel, 1, 32, 0);
  return cudaGetLastError();
}

cudaError_t laneNotInMask(int *Out) {
  LRT_LAUNCH(laneNotInMaskKernel, 1, 32, 0, Out);
  return cudaGetLastError();
}

cudaError_t readOutsideMask(int *Out) {
  LRT_LAUNCH(readOutsideMaskKernel, 1, 32, 0, Out);
  return cudaGetLastError();
}

cudaError_t badShuffleWidth(int *Out) {
  LRT_LAUNCH(badShuffleWidthKernel, 1, 32, 0, Out);
  return cudaGetLastError();
}

cudaError_t ldgFrom(const float *In, float *Out) {
  LRT_LAUNCH(ldgKernel, 1, 1, 0, In, Out);
  return cudaGetLastError();
}

cudaError_t ldgFloat4At(const float *In, float4 *Out) {
  LRT_LAUNCH(ldgFloat4Kernel, 1, 1, 0, In, Out);
  return cudaGetLastError();
}

} // namespace emu_test
