//===- ProgramFuzzer.cpp - Layout programs from fuzzer input --------------===//

#include "ProgramFuzzer.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace layoutc::fuzz;

namespace {
/// Inputs planned in one context before it is replaced: few enough that the
/// attributes and types it interns stay in the tens of megabytes, many
/// enough that creating contexts costs nothing next to the inputs.
constexpr unsigned kInputsPerContext = 4096;
/// fail() prints at most this much of the diagnostics.
constexpr size_t kMaxDiagnosticBytes = 16384;
} // namespace

ProgramFuzzer::ProgramFuzzer() { resetContext(); }

ProgramFuzzer::~ProgramFuzzer() = default;

void ProgramFuzzer::resetContext() {
  DialectRegistry registry;
  layout::registerLayoutDialects(registry);
  // libFuzzer runs one input at a time on one thread: a thread pool would
  // only cost start-up time and memory.
  context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->printOpOnDiagnostic(false);
  context->loadAllAvailableDialects();
  // Swallows every diagnostic (rejections are the common case and printing
  // them would drown libFuzzer's output), keeping the text for fail().
  context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    if (diagnostics.size() < kMaxDiagnosticBytes) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
      for (const Diagnostic &note : diag.getNotes())
        os << "  " << note.getLocation() << ": note: " << note << "\n";
    }
    return success();
  });
  inputsInContext = 0;
}

void ProgramFuzzer::fail(llvm::StringRef what) const {
  llvm::errs() << "layoutc fuzz target: " << what << "\n";
  if (!diagnostics.empty())
    llvm::errs() << "diagnostics:\n" << diagnostics;
  llvm::errs().flush();
  __builtin_trap();
}

/// Elements whose storage offsets layout-plan-copies enumerates to decide
/// overlap (LayoutAlgebra's exact fallback, up to 2^22 elements a view):
/// the destination of every copy whose strides do not nest, and both views
/// of a copy within one storage.
static int64_t overlapEnumeration(ModuleOp module) {
  constexpr int64_t kEnumerationLimit = int64_t(1) << 22;
  auto elements = [&](Value v) -> int64_t {
    auto type = dyn_cast<layout::StridedTensorType>(v.getType());
    if (!type || !type.hasStaticLayout())
      return 0;
    layout::Fallible<int64_t> n = layout::numel(type.getShape());
    return n && *n <= kEnumerationLimit ? *n : 0;
  };
  int64_t total = 0;
  module.walk([&](layout::CopyOp copy) {
    auto dst = dyn_cast<layout::StridedTensorType>(copy.getDst().getType());
    if (dst && dst.hasStaticLayout() &&
        !layout::stridesNest(dst.getStridedLayout()))
      total += elements(copy.getDst());
    if (layout::getStorageRoot(copy.getSrc()) ==
        layout::getStorageRoot(copy.getDst()))
      total += elements(copy.getSrc()) + elements(copy.getDst());
  });
  return total;
}

/// The form `layoutc --emit=mlir` writes.
static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Parses `sourceMgr`'s main buffer as layoutc does.
static OwningOpRef<ModuleOp> parse(llvm::SourceMgr &sourceMgr,
                                   MLIRContext &context) {
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

OwningOpRef<ModuleOp> ProgramFuzzer::plan(llvm::StringRef source) {
  if (inputsInContext++ == kInputsPerContext)
    resetContext();
  numErrors = 0;
  diagnostics.clear();

  // A copy: the lexer reads the terminating NUL that MemoryBuffer guarantees
  // and libFuzzer's buffer does not have.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "fuzz-input.mlir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parse(sourceMgr, *context);
  if (!module) {
    if (numErrors == 0)
      fail("the parser rejected the program without an error");
    return nullptr;
  }
  // MLIR 22's parser can report an error and still return the module: a
  // dialect type followed by a stray '.' (`: !layout.tensor<4xf32>.`) lexes
  // the '.' as a bad ellipsis inside the type's nested parser, and the outer
  // parser goes on (mlir-opt prints the error and exits 0 too). An error
  // means the program is rejected, whatever the parser returned.
  if (numErrors != 0)
    return nullptr;

  // What the printer writes must read back as the same program, before and
  // after the pipeline (`layoutc --no-opt` and `layoutc` print both).
  auto checkRoundTrip = [&](ModuleOp m, llvm::StringRef stage) {
    std::string printed = printModule(m);
    llvm::SourceMgr reprintedMgr;
    reprintedMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(printed, "printed.mlir"),
        llvm::SMLoc());
    OwningOpRef<ModuleOp> reparsed = parse(reprintedMgr, *context);
    if (!reparsed)
      fail(("the " + stage + " program, printed, does not parse:\n" + printed)
               .str());
    std::string reprinted = printModule(*reparsed);
    if (reprinted != printed)
      fail(("the " + stage + " program prints differently once reparsed:\n" +
            printed + "\nthen:\n" + reprinted)
               .str());
  };
  checkRoundTrip(*module, "parsed");

  // Each enumerated element costs a few nanoseconds in layoutc and over a
  // hundred in this sanitized build: a 4 KiB program of forty copies of
  // four million elements would take half a minute to plan here, a timeout
  // that says nothing about correctness. Smaller programs cover the same
  // code.
  constexpr int64_t kMaxEnumeratedElements = int64_t(16) << 20;
  if (overlapEnumeration(*module) > kMaxEnumeratedElements)
    return nullptr;

  PassManager pm(context.get());
  layout::buildLayoutPipeline(pm);
  if (failed(pm.run(*module))) {
    if (numErrors == 0)
      fail("the pipeline failed without an error");
    return nullptr;
  }
  // layoutc would print the error and still exit 0.
  if (numErrors != 0)
    fail("the pipeline succeeded but emitted an error");
  checkRoundTrip(*module, "planned");
  return module;
}
