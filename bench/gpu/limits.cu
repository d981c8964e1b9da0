// The bandwidth limits the GPU runner compares layoutc's kernels with
// (shared/bench/CASES.md), and the device-memory helpers it needs when the
// library is built against the host emulation instead of CUDA.
//
//  - copy limit: the better of cudaMemcpyAsync device-to-device and
//    gpub_copy_u4, a grid-stride copy of 16-byte vectors;
//  - read limit: the better of gpub_read_sum, a grid-stride sum of 16-byte
//    vectors, and gpub_read_sum_rows, the same sum with each warp reading
//    whole 4 KiB blocks.
//
// Every entry point takes the caller's stream, enqueues its work there and
// returns a cudaError_t as an int (0 = success), so that Python reads it
// without CUDA's headers. Only layout_rt/cuda.h's CUDA subset is used, so
// this file also builds as host C++ against the emulation.
#include "layout_rt/cuda.h"

#include <stddef.h>
#include <stdint.h>

namespace {

// Enough 256-thread blocks to keep every SM's memory pipeline busy; the
// grid-stride loops make the result independent of the exact count.
constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSM = 8;
// Each thread keeps this many 16-byte loads in flight per iteration.
constexpr unsigned kUnroll = 4;

unsigned gridFor(size_t vectors) {
  unsigned sms = 16;
#if !LRT_CUDA_EMULATED
  int device = 0, count = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) ==
          cudaSuccess &&
      count > 0)
    sms = static_cast<unsigned>(count);
  else
    (void)cudaGetLastError();
#endif
  const size_t needed =
      (vectors + kThreads * kUnroll - 1) / (kThreads * kUnroll);
  size_t grid = static_cast<size_t>(sms) * kBlocksPerSM;
  if (needed < grid)
    grid = needed;
  return grid == 0 ? 1u : static_cast<unsigned>(grid);
}

__global__ void __launch_bounds__(256)
    copyU4(uint4 *__restrict__ dst, const uint4 *__restrict__ src,
           size_t vectors) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Unrolled body: kUnroll independent loads before the first store.
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 v[kUnroll];
    for (unsigned u = 0; u < kUnroll; ++u)
      v[u] = __ldg(src + i + u * stride);
    for (unsigned u = 0; u < kUnroll; ++u)
      dst[i + u * stride] = v[u];
  }
  for (; i < vectors; i += stride)
    dst[i] = __ldg(src + i);
}

__global__ void __launch_bounds__(256)
    copyTail(unsigned char *__restrict__ dst,
             const unsigned char *__restrict__ src, size_t bytes) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < bytes)
    dst[i] = src[i];
}

__device__ __forceinline__ float blockSum(float v, float *shared) {
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffffu, v, d);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    shared[warp] = v;
  __syncthreads();
  v = 0.0f;
  if (warp == 0) {
    if (lane < blockDim.x / 32)
      v = shared[lane];
    for (int d = 16; d > 0; d /= 2)
      v += __shfl_down_sync(0xffffffffu, v, d);
  }
  return v;
}

// Partial sums of floats[0, count): one per block into partials[blockIdx.x].
__global__ void __launch_bounds__(256)
    readSum(const float *__restrict__ floats, size_t count,
            float *__restrict__ partials) {
  __shared__ float shared[32];
  const size_t vectors = count / 4;
  const float4 *src = reinterpret_cast<const float4 *>(floats);
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc[kUnroll] = {};
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    float4 v[kUnroll];
    for (unsigned u = 0; u < kUnroll; ++u)
      v[u] = __ldg(src + i + u * stride);
    for (unsigned u = 0; u < kUnroll; ++u)
      acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < vectors; i += stride) {
    const float4 v = __ldg(src + i);
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  float sum = 0.0f;
  for (unsigned u = 0; u < kUnroll; ++u)
    sum += acc[u];
  // The last count % 4 floats.
  if (blockIdx.x == 0 && threadIdx.x < count % 4)
    sum += floats[vectors * 4 + threadIdx.x];
  sum = blockSum(sum, shared);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = sum;
}

// The same partial sums, each warp reading whole 4 KiB blocks (256
// vectors, kRowUnroll loads per lane, all in flight before the first add):
// the access pattern of a warp-per-row reduction, which on some GPUs reads
// faster than the grid-wide stride above. The vectors past the last whole
// block and the last count % 4 floats go to block 0.
constexpr unsigned kRowUnroll = 8;
constexpr size_t kRowVectors = 32 * kRowUnroll;

__global__ void __launch_bounds__(256)
    readSumRows(const float *__restrict__ floats, size_t count,
                float *__restrict__ partials) {
  __shared__ float shared[32];
  const size_t vectors = count / 4, rows = vectors / kRowVectors;
  const float4 *src = reinterpret_cast<const float4 *>(floats);
  const unsigned lane = threadIdx.x % 32;
  const size_t warps = static_cast<size_t>(gridDim.x) * (blockDim.x / 32);
  float acc = 0.0f;
  for (size_t row = static_cast<size_t>(blockIdx.x) * (blockDim.x / 32) +
                    threadIdx.x / 32;
       row < rows; row += warps) {
    float4 v[kRowUnroll];
    for (unsigned u = 0; u < kRowUnroll; ++u)
      v[u] = __ldg(src + row * kRowVectors + u * 32 + lane);
    for (unsigned u = 0; u < kRowUnroll; ++u)
      acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  if (blockIdx.x == 0) {
    for (size_t i = rows * kRowVectors + threadIdx.x; i < vectors;
         i += blockDim.x) {
      const float4 v = __ldg(src + i);
      acc += (v.x + v.y) + (v.z + v.w);
    }
    if (threadIdx.x < count % 4)
      acc += floats[vectors * 4 + threadIdx.x];
  }
  acc = blockSum(acc, shared);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = acc;
}

__global__ void __launch_bounds__(256)
    sumPartials(const float *__restrict__ partials, unsigned count,
                float *__restrict__ result) {
  __shared__ float shared[32];
  float sum = 0.0f;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    sum += partials[i];
  sum = blockSum(sum, shared);
  if (threadIdx.x == 0)
    *result = sum;
}

int launchStatus() { return static_cast<int>(cudaGetLastError()); }

} // namespace

/// The number of floats gpub_read_sum's scratch needs.
extern "C" size_t gpub_read_sum_scratch_floats(void) {
  return 1 + static_cast<size_t>(gridFor(SIZE_MAX / 2));
}

/// Copies `bytes` from `src` to `dst` (device memory, 16-byte aligned, not
/// overlapping) with 16-byte vector loads and stores.
extern "C" int gpub_copy_u4(void *dst, const void *src, size_t bytes,
                            cudaStream_t stream) {
  if ((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) %
          16 !=
      0)
    return static_cast<int>(cudaErrorInvalidValue);
  const size_t vectors = bytes / 16, tail = bytes % 16;
  if (vectors > 0) {
    LRT_LAUNCH(copyU4, dim3(gridFor(vectors)), dim3(kThreads), stream,
               static_cast<uint4 *>(dst), static_cast<const uint4 *>(src),
               vectors);
    if (int err = launchStatus())
      return err;
  }
  if (tail > 0) {
    LRT_LAUNCH(copyTail, dim3(1), dim3(kThreads), stream,
               static_cast<unsigned char *>(dst) + vectors * 16,
               static_cast<const unsigned char *>(src) + vectors * 16, tail);
    return launchStatus();
  }
  return 0;
}

/// cudaMemcpyAsync device-to-device: the other half of the copy limit.
extern "C" int gpub_memcpy_d2d(void *dst, const void *src, size_t bytes,
                               cudaStream_t stream) {
  return static_cast<int>(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
}

namespace {

/// The read sums' launcher: readSumRows or readSum, then the partials.
int readSumWith(bool rows, const void *src, size_t bytes, float *scratch,
                cudaStream_t stream) {
  if (reinterpret_cast<uintptr_t>(src) % 16 != 0)
    return static_cast<int>(cudaErrorInvalidValue);
  const size_t count = bytes / 4;
  const unsigned grid = gridFor(count / 4);
  const float *floats = static_cast<const float *>(src);
  if (rows)
    LRT_LAUNCH(readSumRows, dim3(grid), dim3(kThreads), stream, floats, count,
               scratch + 1);
  else
    LRT_LAUNCH(readSum, dim3(grid), dim3(kThreads), stream, floats, count,
               scratch + 1);
  if (int err = launchStatus())
    return err;
  LRT_LAUNCH(sumPartials, dim3(1), dim3(kThreads), stream,
             static_cast<const float *>(scratch + 1), grid, scratch);
  return launchStatus();
}

} // namespace

/// Sums the floor(bytes / 4) floats at `src` (16-byte aligned) into
/// scratch[0]; `scratch` holds gpub_read_sum_scratch_floats() floats.
extern "C" int gpub_read_sum(const void *src, size_t bytes, float *scratch,
                             cudaStream_t stream) {
  return readSumWith(false, src, bytes, scratch, stream);
}

/// gpub_read_sum with readSumRows: warps read whole 4 KiB blocks.
extern "C" int gpub_read_sum_rows(const void *src, size_t bytes, float *scratch,
                                  cudaStream_t stream) {
  return readSumWith(true, src, bytes, scratch, stream);
}

extern "C" const char *gpub_error_string(int error) {
  return cudaGetErrorString(static_cast<cudaError_t>(error));
}

/// 1 when this library runs on the host emulation of layout_rt/cuda.h.
extern "C" int gpub_emulated(void) { return LRT_CUDA_EMULATED; }

// Device memory for callers without their own allocator (the runner under
// the emulation, where torch tensors are host memory the launchers reject).
extern "C" int gpub_malloc(void **pointer, size_t bytes) {
  return static_cast<int>(cudaMalloc(pointer, bytes));
}

extern "C" int gpub_free(void *pointer) {
  return static_cast<int>(cudaFree(pointer));
}

extern "C" int gpub_memcpy(void *dst, const void *src, size_t bytes,
                           int to_device) {
  return static_cast<int>(
      cudaMemcpy(dst, src, bytes,
                 to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
}

extern "C" int gpub_synchronize(void) {
  return static_cast<int>(cudaDeviceSynchronize());
}
