//===- TargetInfo.cpp - Target presets ------------------------------------===//

#include "layout/Compiler/Plan/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::layout;

llvm::ArrayRef<llvm::StringRef> mlir::layout::targetPresetNames() {
  static const llvm::StringRef names[] = {"x86-64-v3", "x86-64-v4", "host",
                                          "sm_80", "sm_90"};
  return names;
}

TargetInfo mlir::layout::cpuTarget(bool avx512) {
  TargetInfo target;
  target.name = avx512 ? "x86-64-v4" : "x86-64-v3";
  // AVX2 vectors on both: chunk counts and vector widths are the same for
  // every CPU target, so reductions give the same bits everywhere; only the
  // transpose tile grows with AVX-512's registers. 64 chunks keep up to 64
  // cores busy.
  target.vectorBytes = 32;
  target.vectorRegisters = avx512 ? 32 : 16;
  target.cacheBytes = int64_t(32) << 20;
  target.numThreads = 64;
  return target;
}

/// A GPU: 16-byte vectors (uint4), the L2 of an A100 (40 MiB) as the
/// streaming threshold, and chunks for up to 1024 resident blocks. sm_80 and
/// sm_90 plan alike: one CUDA source is compiled for every architecture.
static TargetInfo cudaTarget(llvm::StringRef name) {
  TargetInfo target;
  target.name = name.str();
  target.gpu = true;
  target.vectorBytes = 16;
  target.cacheBytes = int64_t(40) << 20;
  target.numThreads = 1024;
  return target;
}

/// A cache size of CPU 0 from sysfs ("48K", "1024K", "32M"), 0 if unknown.
static int64_t sysfsCache(int index, llvm::StringRef file) {
  auto buffer =
      llvm::MemoryBuffer::getFile("/sys/devices/system/cpu/cpu0/cache/index" +
                                      std::to_string(index) + "/" + file,
                                  /*IsText=*/true);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer().trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1 << 10;
  else if (text.consume_back("M"))
    scale = 1 << 20;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0)
    return 0;
  return value * scale;
}

/// This machine: its vector registers, and its caches where sysfs reports
/// them (index0: L1 data, index2: L2, index3: last level).
static TargetInfo hostTarget() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  TargetInfo target = cpuTarget(features.lookup("avx512f"));
  target.name = "host";
  if (int64_t ways = sysfsCache(0, "ways_of_associativity"))
    target.l1Ways = ways;
  if (int64_t l2 = sysfsCache(2, "size"))
    target.l2Bytes = l2;
  if (int64_t l3 = sysfsCache(3, "size"))
    target.cacheBytes = l3;
  return target;
}

Fallible<TargetInfo> mlir::layout::lookupTarget(llvm::StringRef name) {
  if (name == "x86-64-v3" || name == "x86-64-v4")
    return cpuTarget(name == "x86-64-v4");
  if (name == "host")
    return hostTarget();
  if (name == "sm_80" || name == "sm_90")
    return cudaTarget(name);
  return fail("unknown target '" + name.str() + "'; expected one of " +
              llvm::join(targetPresetNames(), ", "));
}
