//===- EmuKernels.h - Host launchers of the emulation's test kernels ------===//
//
// EmuKernels.cu is compiled twice: as host C++ against the emulation (linked
// into LayoutCudaEmuTests) and by nvcc for sm_80/sm_90 (test/CUDA-emu), so
// the kernels the tests run are real CUDA. Every launcher returns
// cudaGetLastError() after its launch.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_RT_CUDA_TEST_EMUKERNELS_H
#define LAYOUT_RT_CUDA_TEST_EMUKERNELS_H

#include "layout_rt/cuda.h"

namespace emu_test {

/// out (cols x rows) = transpose of in (rows x cols), both row-major, through
/// a 32x33 shared tile.
cudaError_t transpose(const float *In, float *Out, int Rows, int Cols,
                      cudaStream_t Stream);
/// The same kernel without the __syncthreads between tile writes and reads.
cudaError_t transposeNoSync(const float *In, float *Out, int Rows, int Cols,
                            cudaStream_t Stream);

/// Out[b] = sum of In[b * 256 .. b * 256 + 255] by a shared-memory tree.
cudaError_t blockSum(const float *In, float *Out, int Blocks);

/// Out[i] = In[i - 1] within each block (-1 for its thread 0), exchanged
/// through shared memory with (Sync) or without a barrier. Threads: the
/// block size. Without the barrier the result is still right if the threads
/// run in index order, so only a shuffled order exposes the missing barrier.
cudaError_t shiftShared(const int *In, int *Out, int Threads, int Blocks,
                        bool Sync);
/// Out[i] = In[next lane of i's warp] for a 64-thread block, exchanged
/// through shared memory ordered by __syncwarp (or not).
cudaError_t rotateWarp(const int *In, int *Out, bool Sync);

/// Threads >= Live return at once; the others exchange through shared memory
/// across a __syncthreads, which must not wait for the exited ones:
/// Out[i] = In[(i + 1) % Live] for i < Live.
cudaError_t exitBeforeBarrier(const int *In, int *Out, int Threads, int Live);

/// Number of shuffle probes of shuffleProbes: Out[p * 64 + t] for thread t.
constexpr int kShuffleProbes = 12;
/// One block of 16x4 threads (two warps); every probe is one shuffle form.
cudaError_t shuffleProbes(const int *In, int *Out);

/// Per warp of a 16x4 block: DownSum[w] (lane 0 of a __shfl_down_sync tree),
/// XorSum[t] (butterfly, every lane) and Scan[t] (inclusive __shfl_up_sync
/// scan) of In.
template <typename T>
cudaError_t warpReduce(const T *In, T *DownSum, T *XorSum, T *Scan);

/// Y[i] = A * X[i] + Y[i] by a grid-stride loop over a fixed small grid.
cudaError_t saxpyGridStride(float A, const float *X, float *Y, int N,
                            int Blocks, int Threads);

/// 16-byte and smaller vector copies through __ldg.
cudaError_t copyFloat4(const float4 *In, float4 *Out, int N);
cudaError_t copyUint4(const uint4 *In, uint4 *Out, int N);
cudaError_t copyChar4Short2(const char4 *InC, char4 *OutC, const short2 *InS,
                            short2 *OutS, int N);
/// Out[i] = In[i] for N floats, one thread per element (also the throughput
/// probe of the emulator).
cudaError_t copyFloats(const float *In, float *Out, int N, int Threads);
/// Every thread passes Barriers __syncthreads; Out[block] = Barriers.
cudaError_t barrierLoop(int *Out, int Blocks, int Threads, int Barriers);

/// Writes blockIdx/threadIdx/blockDim/gridDim seen by every thread:
/// 12 ints per thread at ((bz * gy + by) * gx + bx) * threads + linear tid.
cudaError_t recordIndices(unsigned *Out, dim3 Grid, dim3 Block);
/// Out[6 * i ...] = isnan, fmaxf(x, 0.5), fminf(x, 0.5), fmax(x, -1.0),
/// fmin(x, -1.0), signbit of In[i].
cudaError_t deviceMath(const float *In, float *Out, int N);
/// Order[linear block index] = the rank in which the block ran, counted in
/// *Counter. Meaningful under the emulation only (a race on a GPU).
cudaError_t blockOrder(int *Counter, int *Order, dim3 Grid);
/// A one-thread kernel that writes 1 to *Flag; for launch configuration tests.
cudaError_t touch(int *Flag, dim3 Grid, dim3 Block, cudaStream_t Stream);

// Kernels that misuse the execution model; the emulation must abort.
cudaError_t partialWarpShuffle(int *Out); // full-mask shuffle, 48 threads
cudaError_t shuffleAfterExit(int *Out);   // lane 5 exited before a shuffle
cudaError_t syncwarpVsSyncthreads();      // lane 0 at __syncthreads
cudaError_t laneNotInMask(int *Out);      // mask 0x1 called by every lane
cudaError_t readOutsideMask(int *Out);    // source lane outside the mask
cudaError_t badShuffleWidth(int *Out);    // width 12
cudaError_t ldgFrom(const float *In, float *Out);      // __ldg(In), as given
cudaError_t ldgFloat4At(const float *In, float4 *Out); // __ldg(float4 *)In

} // namespace emu_test

#endif // LAYOUT_RT_CUDA_TEST_EMUKERNELS_H
