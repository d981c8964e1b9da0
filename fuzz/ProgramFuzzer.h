//===- ProgramFuzzer.h - Layout programs from fuzzer input -------*- C++
//-*-===//
//
// The front half that the layout-program fuzz targets share: parse the input
// as a layout program exactly as layoutc does, run the layoutc pipeline, and
// check what must hold for every input, valid or not. Rejections are
// diagnostics and are expected; an invariant that does not hold traps, which
// libFuzzer reports as a crash with the input that broke it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTC_FUZZ_PROGRAMFUZZER_H
#define LAYOUTC_FUZZ_PROGRAMFUZZER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <memory>
#include <string>

namespace layoutc {
namespace fuzz {

/// Inputs longer than this are refused (LLVMFuzzerTestOneInput returns -1,
/// so libFuzzer does not keep them). Every seed is smaller; programs this
/// long already chain dozens of ops, and longer ones only make each
/// execution slower without reaching new code.
constexpr size_t kMaxProgramBytes = 4096;

/// Parses and plans layout programs in one MLIRContext that lives across
/// inputs (creating the context and loading the dialects costs more than
/// most inputs). The context interns every attribute and type it sees, so it
/// is replaced after a fixed number of inputs to keep the memory of a long
/// campaign bounded; nothing else carries over from one input to the next.
class ProgramFuzzer {
public:
  ProgramFuzzer();
  ~ProgramFuzzer();

  /// Parses `source` and runs `layout::buildLayoutPipeline` on it. Returns the
  /// planned module, or null where layoutc rejects the program (always with
  /// an error diagnostic; a rejection without one traps) and where planning
  /// would enumerate more than 16M elements to decide overlaps (seconds in a
  /// sanitized build). The parsed and the planned module must print in a
  /// form (`layoutc --emit=mlir`) that parses back and prints identically;
  /// otherwise this traps.
  mlir::OwningOpRef<mlir::ModuleOp> plan(llvm::StringRef source);

  /// The context of the module plan() returned last; valid until the next
  /// call of plan().
  mlir::MLIRContext &getContext() { return *context; }

  /// How many error diagnostics have been emitted since plan() started.
  unsigned getNumErrors() const { return numErrors; }

  /// Prints `what` and the diagnostics emitted since plan() started, then
  /// traps, so that libFuzzer reports the input as a crash.
  [[noreturn]] void fail(llvm::StringRef what) const;

private:
  void resetContext();

  std::unique_ptr<mlir::MLIRContext> context;
  unsigned inputsInContext = 0;
  unsigned numErrors = 0;
  /// The diagnostics of the current input, printed only by fail().
  std::string diagnostics;
};

} // namespace fuzz
} // namespace layoutc

#endif // LAYOUTC_FUZZ_PROGRAMFUZZER_H
