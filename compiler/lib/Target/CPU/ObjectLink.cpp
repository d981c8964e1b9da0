//===- ObjectLink.cpp - Several ELF objects into one relocatable object ---===//
//
// Parallel code generation compiles a module's functions in shards, each to
// its own object; `ld.lld -r` (lld's ELF driver, linked into layoutc) joins
// them into the one object users link. In-process, so no linker needs to be
// installed, and for every ELF target LLVM generates code for.
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Target/CPU/CPUBackend.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace mlir::layout;

namespace {
/// A scratch directory and the files written into it, removed on
/// destruction whatever happens in between.
class ScratchDir {
public:
  ~ScratchDir() {
    for (const std::string &file : files)
      llvm::sys::fs::remove(file);
    if (!dir.empty())
      llvm::sys::fs::remove(dir);
  }

  LogicalResult create(std::string &error) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("layoutc-link", dir)) {
      error = "cannot create a scratch directory for linking: " + ec.message();
      return failure();
    }
    return success();
  }

  /// The path of a new file `name` in the directory, removed later.
  std::string path(StringRef name) {
    llvm::SmallString<128> file(dir);
    llvm::sys::path::append(file, name);
    files.push_back(file.str().str());
    return files.back();
  }

private:
  llvm::SmallString<128> dir;
  std::vector<std::string> files;
};
} // namespace

LogicalResult mlir::layout::linkRelocatable(ArrayRef<std::string> objects,
                                            llvm::raw_ostream &os,
                                            std::string &error) {
  if (objects.size() == 1) {
    os << objects.front();
    return success();
  }
  ScratchDir scratch;
  if (failed(scratch.create(error)))
    return failure();
  // lld reads its inputs from files; the names play no part in the output.
  std::vector<std::string> inputs;
  for (auto [i, object] : llvm::enumerate(objects)) {
    inputs.push_back(scratch.path("shard" + std::to_string(i) + ".o"));
    std::error_code ec;
    llvm::raw_fd_ostream file(inputs.back(), ec);
    if (!ec) {
      file << object;
      file.close();
      ec = file.error();
    }
    if (ec) {
      error = "cannot write '" + inputs.back() + "': " + ec.message();
      return failure();
    }
  }
  std::string output = scratch.path("linked.o");
  std::vector<const char *> args = {"ld.lld", "-r", "-o", output.c_str()};
  for (const std::string &input : inputs)
    args.push_back(input.c_str());
  std::string messages;
  llvm::raw_string_ostream out(messages), err(messages);
  lld::Result result =
      lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0) {
    error = "linking the shards' objects failed (ld.lld -r): " + messages;
    return failure();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked =
      llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!linked) {
    error = "cannot read '" + output + "': " + linked.getError().message();
    return failure();
  }
  os << (*linked)->getBuffer();
  return success();
}
