//===- FunctionABI.h - How a planned function is called ---------*- C++ -*-===//
//
// The calling convention of a planned layout function, shared by the CPU
// backend, the header writer and `layoutc --run`: which parameters the entry
// points take (arguments, then one output per result that is new storage),
// where every buffer's storage starts relative to the pointer the caller
// passes, which results are views of arguments, and the ordered list of
// kernels (copies, conversions, reductions) with their source and
// destination views.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_COMPILER_SEMANTICS_FUNCTIONABI_H
#define LAYOUT_COMPILER_SEMANTICS_FUNCTIONABI_H

#include "layout/Compiler/Plan/KernelPlan.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace layout {

enum class ParamRole { Input, Written, Output };
/// Added to a written or output parameter's role in the descriptor when its
/// declared layout's elements are proven distinct although its strides do
/// not nest, so that layout_rt skips the nesting check it would fail
/// (layout_rt/entry.h's LRT_ROLE_DISTINCT).
constexpr int64_t kRoleDistinct = 16;

/// A storage the function touches: an argument's, an output's or a scratch
/// buffer the function allocates for an intermediate result.
struct Buffer {
  Type elementType;
  /// Elements in the storage.
  int64_t size = 0;
  /// Storage position of the element the caller's pointer points at: the
  /// view offset of a tensor argument or output, 0 for storage arguments and
  /// scratch.
  int64_t pointerOffset = 0;
  /// A dynamic function's argument whose type has a dynamic offset: the
  /// program output of that offset, which takes pointerOffset's place at
  /// run time (pointerOffset is then 0); -1 otherwise.
  int64_t pointerOffsetOutput = -1;
  /// Entry-point parameter index, or nullopt for scratch.
  std::optional<unsigned> param;
  /// A dynamic function's tensor that PyTorch returns as a view of its
  /// operand for some sizes only (DynamicABI): where program output
  /// `copies` is 0 this buffer is buffer `viewOf`'s storage, else buffer
  /// `own`'s (which a copy kernel writes). Nothing writes it; readers take
  /// it at the op's symbolic layout, valid in either.
  struct RuntimeView {
    unsigned viewOf = 0, own = 0;
    int64_t copies = 0;
  };
  std::optional<RuntimeView> runtimeView;
};

struct Param {
  ParamRole role = ParamRole::Input;
  /// Argument or result number.
  unsigned number = 0;
  unsigned buffer = 0;
  Type elementType;
  /// The layout the caller passes: offset 0, relative to its pointer.
  Dims sizes, strides;
  /// The name in the header and in layout_rt's messages: an argument's
  /// `layout.name` when isUsableArgName accepts it; empty for the
  /// positional name (paramName).
  std::string name;
};

/// A function result that is a view of an argument: it moves no data.
struct ViewResult {
  unsigned result = 0;
  unsigned argument = 0;
  Type elementType;
  Dims sizes, strides;
  /// Elements from the argument's first element to the view's.
  int64_t offset = 0;
};

enum class KernelKind { Copy, Reduce };

/// One kernel: reads `src` (a view of buffer srcBuffer) and writes `dst` (a
/// view of dstBuffer). Layout offsets are storage positions in each buffer.
struct Kernel {
  KernelKind kind = KernelKind::Copy;
  Location loc;
  unsigned srcBuffer = 0, dstBuffer = 0;
  StridedLayout src, dst;
  Type srcType, dstType;
  /// Reductions: kind and normalized reduced dims of `src` (all dims when
  /// the op's list is empty).
  ReductionKind reduction = ReductionKind::Sum;
  Dims reducedDims;
  KernelPlan plan;
};

/// What a function with dynamic sizes computes when it is called
/// (analyzeDynamicFunction): its symbols, checks and the extents of its
/// kernels, as one program for layout_rt's lrt_symbolic_run.
struct DynamicABI {
  SymbolProgram program;
  /// The input symbols in program order: parameter, dim, kind (0 a size,
  /// 1 a stride), and the raw entry point's name for each ("x_size0").
  std::vector<std::array<int64_t, 3>> inputs;
  std::vector<std::string> inputNames;
  /// Sizes and strides the DLPack entry point checks at run time: parameter,
  /// dim, kind, program output.
  std::vector<std::array<int64_t, 4>> fills;
  /// `inputs` and `fills` as lrt_bind_dynamic's `dynamic` array
  /// (layout_rt/entry.h).
  std::vector<int64_t> bindTable() const;
  /// Per kernel, the program outputs of each plan loop's size, source and
  /// destination stride, and of the source and destination views' offsets
  /// from their buffers' first elements.
  /// Reductions also take their result and per-result element counts, and
  /// argmax/argmin the source's logical sizes and strides.
  struct KernelExtents {
    llvm::SmallVector<int64_t, 6> sizes, srcStrides, dstStrides;
    int64_t srcOffset = 0, dstOffset = 0;
    std::optional<int64_t> outputs, perOutput;
    llvm::SmallVector<int64_t, 6> srcDimSizes, srcDimStrides;
    /// The program output that must be non-zero for the kernel to run (the
    /// copy of a Buffer::RuntimeView), or nullopt: it always runs; and that
    /// condition as an expression (the header).
    std::optional<int64_t> runIf;
    std::string runIfText;
    /// Each plan loop's size, source and destination stride as
    /// expressions (explain).
    std::vector<std::array<std::string, 3>> loopText;
    /// Each plan loop's size and destination stride where they are the
    /// same for every size, else nullopt: what the run-time kernels may
    /// specialize on.
    llvm::SmallVector<std::optional<int64_t>, 6> staticSizes, staticDstStrides;
  };
  std::vector<KernelExtents> kernels;
  /// A returned copy that PyTorch makes for some sizes only (contiguous of
  /// a view contiguous when some size is 1), of a view of an argument: the
  /// entry points take `<output>_view` (int32_t *, before the options), and
  /// where it is not NULL and the program output `copies` is 0, skip the
  /// kernel and store the argument's number (the result is its view, of
  /// layout `viewLayout`, as PyTorch returns it); else they write the
  /// output and store -1 there.
  struct Conditional {
    unsigned kernel = 0, output = 0, argument = 0;
    int64_t copies = 0;
    std::string viewLayout, when;
  };
  std::vector<Conditional> conditionals;
  /// Per function result, what <f>_layouts reports (layout_rt's
  /// lrt_dynamic_layouts): program outputs of its sizes, of its output's
  /// strides where it has an output, and of its strides and offset as a
  /// view of `argument` (an argument number, or -1) where PyTorch returns
  /// one: always, or where program output `copies` (else -1) is 0.
  struct ResultLayout {
    bool hasOutput = false;
    int64_t argument = -1, copies = -1, viewOffset = -1;
    llvm::SmallVector<int64_t, 6> sizes, outputStrides, viewStrides;
  };
  std::vector<ResultLayout> results;
  /// `results` as lrt_dynamic_layouts' `results` array (layout_rt/entry.h).
  std::vector<int64_t> resultTable() const;
  /// Per parameter and per view result: sizes, strides (and offset) as
  /// expressions, for the header.
  std::vector<std::string> paramLayouts, viewLayouts;
  /// The derived symbols the header's layouts and conditions name, in
  /// order: name and definition ("s0", "min(5, x[1])").
  std::vector<std::pair<std::string, std::string>> definitions;
  /// Per buffer: for scratch (an intermediate new tensor, allocated by the
  /// entry point for the call), the program output of its element count;
  /// -1 for the others. Counts above kScratchCapBytes' worth are capped
  /// there, where no allocation can succeed, so that byte sums cannot wrap.
  std::vector<int64_t> scratchElements;
  static constexpr int64_t kScratchCapBytes = int64_t(1) << 56;
};

struct FunctionABI {
  std::string name;
  std::vector<Buffer> buffers;
  std::vector<Param> params;
  std::vector<ViewResult> views;
  std::vector<Kernel> kernels;
  /// The raw entry point exists (the CUDA backend: only for static
  /// signatures). A dynamic function's takes the input symbols too.
  bool hasRawEntry = true;
  /// Set for a function with dynamic layouts: its parameters' dynamic sizes
  /// and strides are LRT_ANY_SIZE / LRT_ANY_STRIDE (kDynamic), its kernels
  /// run with run-time extents from `dynamic`'s program, and its buffers
  /// and views hold no static size.
  std::shared_ptr<const DynamicABI> dynamic;
};

/// Sizes as layout_rt's descriptors take them: a dynamic one is
/// LRT_ANY_SIZE (-1); a dynamic stride, kDynamic, is already LRT_ANY_STRIDE.
Dims descriptorSizes(ArrayRef<int64_t> sizes);
/// Whether `func` has a dynamic size, stride or offset anywhere.
bool hasDynamicLayouts(func::FuncOp func);
/// The ABI of a function with dynamic layouts, its copies planned for
/// `target` once for every size (planDynamicCopy). Errors at the op on what
/// dynamic code generation cannot do yet: storage arguments, copies into
/// destinations it cannot prove distinct, view-or-copy decisions it cannot
/// make.
FailureOr<FunctionABI> analyzeDynamicFunction(func::FuncOp func,
                                              const TargetInfo &target);

/// Can `name` name an extern "C" function (and prefix its kernels)?
bool isCIdentifier(llvm::StringRef name);

/// Fails with an error at `func` ("<context>: function name 'x' is not a C
/// identifier ...; <because>") unless its name is a C identifier.
LogicalResult verifyEntryName(func::FuncOp func, llvm::StringRef context,
                              llvm::StringRef because);

/// Fails with an error at the first function of `module` whose symbols
/// would bind to or clash with others in a linked program: names starting
/// with '_' or containing "__" (reserved in C and C++; generated CUDA kernels
/// are `<f>__k<n>`), layout_rt's `lrt_` / `LRT_` prefix, C library functions
/// and objects (standard, and POSIX's that layout_rt uses), another
/// function's generated names (`<f>_raw`, `<f>_result<N>_sizes`, `_strides`,
/// `_offset`), and with `cuda` CUDA's built-in variables and types and its
/// runtime's `cuda<Upper>` names. `context` starts the message ("code
/// generation", "CUDA code generation").
LogicalResult verifyEntrySymbols(ModuleOp module, llvm::StringRef context,
                                 bool cuda);

/// Analyzes a planned function (after layout-fold-views,
/// layout-plan-copies and layout-plan-kernels, whose plans its kernels
/// take). Emits a diagnostic at the offending op and fails on what code
/// generation cannot do (dynamic layouts, results that view part of a new
/// buffer, an op without a plan).
FailureOr<FunctionABI> analyzeFunction(func::FuncOp func);

/// The kind of target a backend's kernels must have been planned for: each
/// backend reads its own target parameters from the plans.
enum class PlanKind { CPU, GPU };

/// Appends to `abis` the ABI of every defined function of `planned`, in
/// order, once `check` (if given) accepts the function; fails at the first
/// error, which includes a kernel not planned for a `kind` target.
/// Functions with dynamic layouts go to analyzeDynamicFunction with
/// `dynamicTarget`, or fail when it is null.
LogicalResult
analyzeFunctions(ModuleOp planned, PlanKind kind,
                 std::vector<FunctionABI> &abis,
                 llvm::function_ref<LogicalResult(func::FuncOp)> check = {},
                 const TargetInfo *dynamicTarget = nullptr);

/// "f32", "i1", ... as the language spells element types.
std::string elementName(Type type);
/// Bytes per element in memory (i1 takes a byte).
int64_t elementBytes(Type type);

/// DLPack type code and bits of an element type (i1: LRT_DL_BOOL, 8 bits).
std::pair<int64_t, int64_t> dlpackType(Type type);
/// "arg<N>" or "result<N>": a parameter's positional name, which the CUDA
/// launchers' definitions use (their bodies declare names of their own).
std::string positionalName(const Param &param);
/// A parameter's name in the header and in layout_rt's messages:
/// Param::name, else its positional name.
std::string paramName(const Param &param);
/// Can `name` name argument `number` in a header's prototypes? A C
/// identifier that is no keyword and cannot be a macro, a type or another
/// parameter there: not reserved (`_x`, `x__y`), no `_t` suffix, not
/// layout_rt's, DLPack's or CUDA's (`lrt_`, `LAYOUTC_`, `DL<Upper>`,
/// `cuda<Upper>`), not a C library name, not upper case with a '_'
/// (`INT64_MAX`), not `NULL`, `EOF`, `NAN`, `INFINITY`, `options` or
/// `stream`, and not `arg<M>` or `result<M>` unless it is `arg<number>`.
bool isUsableArgName(llvm::StringRef name, unsigned number);
/// The parameters' names as lrt_bind_tensors_named takes them: each
/// paramName NUL-terminated, then an empty one.
std::string bindNames(const FunctionABI &abi);
/// The C type of an element in raw entry points (docs/abi.md): bool for i1,
/// uint16_t bits for f16/bf16.
std::string rawElementCType(Type type);
/// The descriptor layout_rt/entry.h's lrt_bind_tensors checks a function's
/// DLTensors against.
std::vector<int64_t> bindDescriptor(const FunctionABI &abi);

/// A function's two entry points: the DLPack one, which validates its
/// tensors, and the raw one, which takes pointers to the views' first
/// elements.
enum class EntryKind { DLPack, Raw };
/// A parameter's C type in entry point `kind`: "const DLTensor *" for an
/// input of the DLPack entry, "float *" for an f32 output of the raw one.
std::string entryParamType(const Param &param, EntryKind kind);
/// The C parameters of entry point `kind` before the backend's last one,
/// named by paramName or, with `positional`, by positionalName:
/// "const DLTensor *x, DLTensor *result0, ". The C header and the CUDA
/// launchers print them.
std::string entryParams(const FunctionABI &abi, EntryKind kind,
                        bool positional = false);

/// What one backend's header of entry points says beyond the ABI.
struct HeaderStyle {
  /// The opening comment, "/* ... */\n".
  std::string intro;
  /// Includes after layout_rt.h ("layout_rt/cuda.h"), if any.
  std::vector<std::string> includes;
  /// The entry points' last parameter ("cudaStream_t stream").
  std::string lastParam;
  /// Declare the raw entry point of every function, not only of those with
  /// FunctionABI::hasRawEntry.
  bool rawForAll = false;
  /// Name each kernel's chunk count.
  bool showChunks = false;
};

/// The C header declaring every function's DLPack and raw entry points and
/// its view results' layouts.
void printEntryHeader(llvm::ArrayRef<FunctionABI> abis, llvm::StringRef guard,
                      const HeaderStyle &style, llvm::raw_ostream &os);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_COMPILER_SEMANTICS_FUNCTIONABI_H
