//===- MisuseTest.cpp - Bugs a GPU exposes abort under the emulation ------===//
//
// A GPU hangs or returns garbage for these kernels; the emulation must stop
// with a message that names the kernel, the block and what went wrong.
//
//===----------------------------------------------------------------------===//

#include "EmuKernels.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

using namespace emu_test;

namespace {

// Death tests fork: the child runs the kernel and must abort with the
// message; the parent's emulator state is untouched.
using Misuse = ::testing::Test;

TEST_F(Misuse, FullMaskShuffleInAPartialWarpDeadlocks) {
  DeviceBuffer<int> Out(48);
  EXPECT_DEATH(partialWarpShuffle(Out.get()),
               "deadlock in kernel 'partialWarpShuffleKernel', block \\(0, 0, "
               "0\\).*thread \\(32, 0, 0\\) \\(warp 1, lane 0\\) waits in "
               "__shfl_xor_sync with mask 0xffffffff, but lane 16 does not "
               "exist \\(warp 1 has 16 threads");
}

TEST_F(Misuse, ShuffleAfterALaneExitedDeadlocks) {
  DeviceBuffer<int> Out(32);
  EXPECT_DEATH(shuffleAfterExit(Out.get()),
               "deadlock in kernel 'shuffleAfterExitKernel'.*waits in "
               "__shfl_down_sync with mask 0xffffffff, but lane 5 has exited");
}

TEST_F(Misuse, SyncwarpWaitingForALaneInSyncthreadsDeadlocks) {
  EXPECT_DEATH(syncwarpVsSyncthreads(),
               "deadlock in kernel 'syncwarpVsSyncthreadsKernel'.*thread \\(0, "
               "0, 0\\) \\(warp 0, lane 0\\) waits in __syncthreads.*waits in "
               "__syncwarp with mask 0xffffffff, but lane 0 waits in "
               "__syncthreads");
}

TEST_F(Misuse, LaneOutsideItsOwnMask) {
  DeviceBuffer<int> Out(32);
  EXPECT_DEATH(laneNotInMask(Out.get()),
               "kernel 'laneNotInMaskKernel', block \\(0, 0, 0\\), thread "
               "\\([0-9]+, 0, 0\\): __shfl_sync\\(mask=0x00000001\\) is called "
               "by lane [1-9][0-9]*, which is not in the mask");
}

TEST_F(Misuse, ShuffleReadingALaneOutsideTheMask) {
  DeviceBuffer<int> Out(32);
  EXPECT_DEATH(readOutsideMask(Out.get()),
               "kernel 'readOutsideMaskKernel'.*reads lane 20, which is not in "
               "the mask");
}

TEST_F(Misuse, ShuffleWidthMustBeAPowerOfTwo) {
  DeviceBuffer<int> Out(32);
  EXPECT_DEATH(badShuffleWidth(Out.get()),
               "__shfl_sync width 12 is not a power of two in \\[1, 32\\]");
}

TEST_F(Misuse, LdgFromHostMemory) {
  float Host = 1.0f;
  DeviceBuffer<float> Out(1);
  EXPECT_DEATH(ldgFrom(&Host, Out.get()),
               "kernel 'ldgKernel', block \\(0, 0, 0\\), thread \\(0, 0, 0\\): "
               "__ldg of 4 bytes at 0x[0-9a-f]+, which is not inside a live "
               "cudaMalloc allocation");
}

TEST_F(Misuse, LdgPastTheEndOfAnAllocation) {
  DeviceBuffer<float> In(4), Out(1);
  EXPECT_DEATH(ldgFrom(In.get() + 4, Out.get()),
               "not inside a live cudaMalloc allocation");
}

TEST_F(Misuse, MisalignedVectorLdg) {
  DeviceBuffer<float> In(8);
  DeviceBuffer<float4> Out(1);
  EXPECT_DEATH(ldgFloat4At(In.get() + 1, Out.get()),
               "__ldg of a 16-byte value from 0x[0-9a-f]+, which is not "
               "16-byte aligned");
  // The aligned load is fine.
  EXPECT_EQ(ldgFloat4At(In.get() + 4, Out.get()), cudaSuccess);
}

TEST_F(Misuse, DeviceFunctionsOutsideAKernel) {
  EXPECT_DEATH(__syncthreads(), "__syncthreads called outside a kernel");
  EXPECT_DEATH(__shfl_sync(0xffffffffu, 1, 0),
               "__shfl_sync called outside a kernel");
}

} // namespace
