//===- CUDATarget.cpp - Generated CUDA source to an object with nvcc ------===//
//
// The one step of the CUDA backend that needs an external tool: nvcc
// compiles the generated source into a relocatable object with SASS for
// every requested architecture and PTX for the highest (so that newer GPUs
// JIT it).
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Target/CUDA/CUDABackend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

std::string mlir::layout::defaultNVCCPath() {
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CUDACXX"))
    if (!env->empty())
      return *env;
  return "/usr/local/cuda/bin/nvcc";
}

/// "sm_80" -> 80, "sm_90a" -> 90; nullopt for anything else.
static std::optional<unsigned> archNumber(StringRef arch) {
  if (!arch.consume_front("sm_"))
    return std::nullopt;
  // Architecture-specific (sm_90a) and family (sm_100f) variants.
  if (arch.ends_with("a") || arch.ends_with("f"))
    arch = arch.drop_back();
  unsigned number;
  if (arch.size() < 2 || arch.getAsInteger(10, number) || number < 50 ||
      number > 999)
    return std::nullopt;
  return number;
}

LogicalResult mlir::layout::parseCUDAArchs(StringRef list,
                                           std::vector<std::string> &archs,
                                           std::string &error) {
  archs.clear();
  SmallVector<StringRef> items;
  list.split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    if (!archNumber(item)) {
      error = "--cuda-arch: '" + item.str() +
              "' is not a real CUDA architecture (expected sm_<major><minor> "
              "such as sm_80 or sm_90a, comma-separated)";
      return failure();
    }
    if (!llvm::is_contained(archs, item.str()))
      archs.push_back(item.str());
  }
  return success();
}

LogicalResult mlir::layout::compileCUDASource(StringRef source,
                                              StringRef objectPath,
                                              const NVCCOptions &options,
                                              std::string &error) {
  if (options.archs.empty()) {
    error = "no CUDA architecture to compile for";
    return failure();
  }
  if (!llvm::sys::fs::can_execute(options.nvcc)) {
    error = "nvcc not found at '" + options.nvcc +
            "' (pass --nvcc=<path> or set CUDACXX)";
    return failure();
  }
  SmallString<128> cuPath, logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("layoutc", "cu", cuPath)) {
    error = "cannot create a temporary file: " + ec.message();
    return failure();
  }
  llvm::FileRemover removeCu(cuPath);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("layoutc-nvcc", "log", logPath)) {
    error = "cannot create a temporary file: " + ec.message();
    return failure();
  }
  llvm::FileRemover removeLog(logPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(cuPath, ec);
    if (ec) {
      error = "cannot write " + cuPath.str().str() + ": " + ec.message();
      return failure();
    }
    os << source;
  }

  std::vector<std::string> args = {options.nvcc, "-c",  "-x",         "cu",
                                   "-std=c++17", "-O3", "-Xcompiler", "-fPIC"};
  for (const std::string &dir : options.includeDirs)
    args.push_back("-I" + dir);
  std::string highest;
  unsigned highestNumber = 0;
  for (const std::string &arch : options.archs) {
    unsigned number = *archNumber(arch);
    std::string digits = arch.substr(3);
    args.push_back("-gencode=arch=compute_" + digits + ",code=" + arch);
    if (number >= highestNumber) {
      highestNumber = number;
      highest = digits;
    }
  }
  args.push_back("-gencode=arch=compute_" + highest + ",code=compute_" +
                 highest);
  args.push_back("-o");
  args.push_back(objectPath.str());
  args.push_back(cuPath.str().str());

  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(options.nvcc, argRefs,
                                     /*Env=*/std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  if (rc == 0)
    return success();
  std::string log;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(logPath))
    log = (*text)->getBuffer().rtrim().str();
  error = "nvcc failed";
  if (!execError.empty())
    error += " (" + execError + ")";
  else
    error += " with exit code " + std::to_string(rc);
  error += ": " + llvm::join(args, " ");
  if (!log.empty())
    error += "\n" + log;
  return failure();
}
