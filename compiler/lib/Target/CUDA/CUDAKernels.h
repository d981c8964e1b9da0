//===- CUDAKernels.h - The CUDA kernels of one kernel plan ------*- C++ -*-===//
//
// Internal to the CUDA backend: how element types appear in generated CUDA
// C++ (CUDAElements.cpp), launch-shape arithmetic, an indenting printer, and
// the printer of one Kernel of a function's ABI (its __global__ kernels and
// the statements of the raw launcher that run them; CUDAKernels.cpp and the
// strategy files, see PlanKernelPrinter.h). CUDALaunchers.cpp assembles
// functions and modules from them.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_TARGET_CUDA_CUDAKERNELS_H
#define LAYOUT_COMPILER_TARGET_CUDA_CUDAKERNELS_H

#include "layout/Compiler/Semantics/Elements.h"
#include "layout/Compiler/Semantics/FunctionABI.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace layout {
namespace cuda {

/// An element type's traits and its C spelling in the generated code.
struct CElem : ElementTraits {
  /// The C type in memory and in kernel parameters: f16/bf16 live as
  /// uint16_t bits, i1 as a uint8_t (so that a bool holding any byte copies
  /// and converts as the CPU backend's i8 does).
  std::string c;
};

/// The generated code's view of `t`, or nullopt for a type it cannot hold.
std::optional<CElem> celemOf(Type t);
/// Register types reductions accumulate and shuffle in (the types
/// __shfl_*_sync takes): "float", "double", "int", "unsigned", and
/// "long long" for any other `kind`.
CElem computeElem(StringRef kind);
/// `x` of type `from` as a value of type `to`: the steps of
/// conversionSteps, as C casts and the f16/bf16 helpers, halves through
/// the register "float". f16 -> ui8 is
/// "(uint8_t)(int32_t)(lrt_f16_to_f32(x))".
std::string convertExpr(const CElem &from, const CElem &to,
                        const std::string &x);
/// A C++ literal of `v` cast to `type`: lit(-3, "int64_t") is
/// "(int64_t)(-3)", lit(3, "int64_t") "(int64_t)3".
std::string lit(int64_t v, StringRef type);
/// The product of `sizes` (the caller knows it does not overflow).
int64_t product(ArrayRef<int64_t> sizes);
/// ceil(n / d) for n >= 0 and d > 0.
inline int64_t ceilDiv(int64_t n, int64_t d) { return n / d + (n % d != 0); }
/// Blocks of a grid-stride launch of `work` items, `perBlock` per block:
/// ceil(work / perBlock) clamped to [1, kMaxBlocks].
int64_t blocksFor(int64_t work, int64_t perBlock, int64_t maxBlocks);

/// Prints C++ with indentation.
class Printer {
public:
  explicit Printer(llvm::raw_ostream &os) : os(os) {}
  Printer &line(const llvm::Twine &text = "") {
    std::string s = text.str();
    if (!s.empty() && s[0] == '}')
      depth = std::max(0, depth - 1);
    if (!s.empty())
      os.indent(2 * depth) << s;
    os << "\n";
    if (!s.empty() && s.back() == '{')
      ++depth;
    else if (!s.empty() && s.back() == '}' && s[0] != '}' &&
             s.find('{') == std::string::npos)
      depth = std::max(0, depth - 1);
    return *this;
  }
  llvm::raw_ostream &os;
  int depth = 0;
};

/// Prints one Kernel of an ABI.
class KernelPrinter {
public:
  virtual ~KernelPrinter() = default;
  /// Decides what to print; fails with a diagnostic on what it cannot.
  virtual LogicalResult prepare() = 0;
  /// Whether the kernel has elements to write, so that the launcher
  /// launches something.
  virtual bool launchesKernels() const = 0;
  /// Bytes of scratch the kernel needs for reduction partials.
  virtual int64_t scratchBytes() const = 0;
  /// The __global__ kernels and their device helpers.
  virtual void printKernels(Printer &p) = 0;
  /// Statements of the raw launcher: `srcView`/`dstView` are expressions
  /// for the views' first elements, `scratch` the kernel's partials (or
  /// "nullptr"). A failed launch calls `fail` and breaks out of the
  /// launcher's do-while.
  virtual void printLaunch(Printer &p, const std::string &srcView,
                           const std::string &dstView,
                           const std::string &scratch) = 0;
  /// "transpose, f32 -> bf16, 32-bit indices", for comments.
  virtual std::string describe() const = 0;
};

/// The printer of kernel `k`; its kernels' names start with `name`.
std::unique_ptr<KernelPrinter>
createKernelPrinter(const Kernel &k, std::string name, CElem src, CElem dst);
/// The printer of kernel `k` of a dynamic function, whose loops' sizes and
/// strides are the symbol program's outputs `extents` (DynamicKernels.cpp).
/// Its launch statements read the launcher's `outputs` array and `function`
/// name, and may set `status` and break out of the do-while.
/// The host helpers (lrt_dyn_*) that the dynamic launchers in `text`
/// call, as C++ definitions.
std::string dynamicHostHelpers(StringRef text);

std::unique_ptr<KernelPrinter>
createDynamicKernelPrinter(const Kernel &k, std::string name, CElem src,
                           CElem dst, const DynamicABI::KernelExtents &extents);

} // namespace cuda
} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_TARGET_CUDA_CUDAKERNELS_H
