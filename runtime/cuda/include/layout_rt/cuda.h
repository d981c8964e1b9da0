/* The one CUDA include of generated layoutc kernels.
 *
 * Under nvcc this is the real CUDA toolkit; under any other C++17 compiler it
 * is the host emulation of layout_rt/cuda_emu.h, which runs the same source on
 * the CPU with CUDA's execution model (see runtime/cuda/README.md). Kernels
 * launch only through LRT_LAUNCH so that both builds share one spelling:
 *
 *   LRT_LAUNCH(copyKernel, grid, block, stream, dst, src, n);
 *
 * Launch errors (bad configuration, bad stream) are reported, as by CUDA,
 * through cudaGetLastError / cudaPeekAtLastError, never by the macro itself.
 */
#ifndef LAYOUT_RT_CUDA_H
#define LAYOUT_RT_CUDA_H

#if defined(__CUDACC__)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define LRT_CUDA_EMULATED 0
#define LRT_LAUNCH(kernel, grid, block, stream, ...)                           \
  kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)

#else

#include "layout_rt/cuda_emu.h"

#define LRT_CUDA_EMULATED 1
/* The grid runs to completion on the calling thread before this returns;
 * #kernel names the kernel in the emulator's diagnostics. */
#define LRT_LAUNCH(kernel, grid, block, stream, ...)                           \
  ::lrt_cuda_emu::launch(#kernel, kernel, (grid), (block), (stream),           \
                         ##__VA_ARGS__)

#endif

#endif /* LAYOUT_RT_CUDA_H */
