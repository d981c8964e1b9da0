//===- FunctionABI.cpp - How a planned function is called -----------------===//

#include "layout/Compiler/Semantics/FunctionABI.h"
#include "layout/Compiler/Plan/Passes.h"
#include "layout/Compiler/Plan/PlanAttr.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::layout;

bool mlir::layout::isCIdentifier(StringRef name) {
  // C11/C23 and C++20 keywords and C++'s alternative tokens: the header is
  // compiled as both.
  static const char *const keywords[] = {"_Alignas",
                                         "_Alignof",
                                         "_Atomic",
                                         "_Bool",
                                         "_Complex",
                                         "_Generic",
                                         "_Imaginary",
                                         "_Noreturn",
                                         "_Static_assert",
                                         "_Thread_local",
                                         "and",
                                         "and_eq",
                                         "bitand",
                                         "bitor",
                                         "char8_t",
                                         "char16_t",
                                         "char32_t",
                                         "co_await",
                                         "co_return",
                                         "co_yield",
                                         "compl",
                                         "concept",
                                         "consteval",
                                         "constinit",
                                         "const_cast",
                                         "decltype",
                                         "dynamic_cast",
                                         "not",
                                         "not_eq",
                                         "or",
                                         "or_eq",
                                         "reinterpret_cast",
                                         "requires",
                                         "restrict",
                                         "static_assert",
                                         "static_cast",
                                         "thread_local",
                                         "typeof",
                                         "typeof_unqual",
                                         "wchar_t",
                                         "xor",
                                         "xor_eq",
                                         "alignas",
                                         "alignof",
                                         "asm",
                                         "auto",
                                         "bool",
                                         "break",
                                         "case",
                                         "catch",
                                         "char",
                                         "class",
                                         "const",
                                         "constexpr",
                                         "continue",
                                         "default",
                                         "delete",
                                         "do",
                                         "double",
                                         "else",
                                         "enum",
                                         "explicit",
                                         "export",
                                         "extern",
                                         "false",
                                         "float",
                                         "for",
                                         "friend",
                                         "goto",
                                         "if",
                                         "inline",
                                         "int",
                                         "long",
                                         "main",
                                         "mutable",
                                         "namespace",
                                         "new",
                                         "noexcept",
                                         "nullptr",
                                         "operator",
                                         "private",
                                         "protected",
                                         "public",
                                         "register",
                                         "return",
                                         "short",
                                         "signed",
                                         "sizeof",
                                         "static",
                                         "struct",
                                         "switch",
                                         "template",
                                         "this",
                                         "throw",
                                         "true",
                                         "try",
                                         "typedef",
                                         "typeid",
                                         "typename",
                                         "union",
                                         "unsigned",
                                         "using",
                                         "virtual",
                                         "void",
                                         "volatile",
                                         "while"};
  if (name.empty() || llvm::isDigit(name[0]) ||
      llvm::is_contained(keywords, name))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The C standard library's functions and objects (C17's headers, and
/// POSIX's that layout_rt links), which a definition in the generated object
/// would replace in the whole program.
static const char *const kCLibraryNames[] = {
    // <ctype.h>, <locale.h>, <setjmp.h>, <signal.h>
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower",
    "isprint", "ispunct", "isspace", "isupper", "isxdigit", "tolower",
    "toupper", "setlocale", "localeconv", "longjmp", "setjmp", "signal",
    "raise",
    // <stdio.h>
    "remove", "rename", "tmpfile", "tmpnam", "fclose", "fflush", "fopen",
    "freopen", "setbuf", "setvbuf", "fprintf", "fscanf", "printf", "scanf",
    "snprintf", "sprintf", "sscanf", "vfprintf", "vfscanf", "vprintf", "vscanf",
    "vsnprintf", "vsprintf", "vsscanf", "fgetc", "fgets", "fputc", "fputs",
    "getc", "getchar", "putc", "putchar", "puts", "ungetc", "fread", "fwrite",
    "fgetpos", "fseek", "fsetpos", "ftell", "rewind", "clearerr", "feof",
    "ferror", "perror", "gets", "stdin", "stdout", "stderr",
    // <stdlib.h>
    "atof", "atoi", "atol", "atoll", "strtod", "strtof", "strtold", "strtol",
    "strtoll", "strtoul", "strtoull", "rand", "srand", "aligned_alloc",
    "calloc", "free", "malloc", "realloc", "abort", "atexit", "at_quick_exit",
    "exit", "getenv", "quick_exit", "system", "bsearch", "qsort", "abs", "labs",
    "llabs", "div", "ldiv", "lldiv", "mblen", "mbtowc", "wctomb", "mbstowcs",
    "wcstombs", "posix_memalign", "memalign",
    // <string.h>
    "memcpy", "memmove", "memset", "memcmp", "memchr", "memccpy", "strcpy",
    "strncpy", "strcat", "strncat", "strcmp", "strcoll", "strncmp", "strxfrm",
    "strchr", "strcspn", "strpbrk", "strrchr", "strspn", "strstr", "strtok",
    "strerror", "strlen", "strdup", "strndup",
    // <time.h>, <errno.h>, POSIX threads and memory
    "clock", "difftime", "mktime", "time", "asctime", "ctime", "gmtime",
    "localtime", "strftime", "timespec_get", "errno", "environ", "sysconf",
    "sched_yield", "nanosleep", "mmap", "munmap", "read", "write", "open",
    "close",
    // glibc's <sched.h> with _GNU_SOURCE (which g++ defines), that <pthread.h>
    // includes: a C++ program including both headers would not compile.
    "clone", "unshare", "setns", "sched_getcpu"};

/// <math.h>'s functions, which also stand for their `f` and `l` variants.
static const char *const kMathNames[] = {
    "acos",   "asin",     "atan",      "atan2",     "cos",        "sin",
    "tan",    "acosh",    "asinh",     "atanh",     "cosh",       "sinh",
    "tanh",   "exp",      "exp2",      "expm1",     "frexp",      "ilogb",
    "ldexp",  "log",      "log10",     "log1p",     "log2",       "logb",
    "modf",   "scalbn",   "scalbln",   "cbrt",      "fabs",       "hypot",
    "pow",    "sqrt",     "erf",       "erfc",      "lgamma",     "tgamma",
    "ceil",   "floor",    "nearbyint", "rint",      "lrint",      "llrint",
    "round",  "lround",   "llround",   "trunc",     "fmod",       "remainder",
    "remquo", "copysign", "nan",       "nextafter", "nexttoward", "fdim",
    "fmax",   "fmin",     "fma"};

/// CUDA's built-in variables and vector types, which generated CUDA code
/// uses by name.
static const char *const kCUDANames[] = {
    "threadIdx",  "blockIdx",   "blockDim", "gridDim",   "warpSize",
    "dim3",       "char1",      "char2",    "char3",     "char4",
    "uchar1",     "uchar2",     "uchar3",   "uchar4",    "short1",
    "short2",     "short3",     "short4",   "ushort1",   "ushort2",
    "ushort3",    "ushort4",    "int1",     "int2",      "int3",
    "int4",       "uint1",      "uint2",    "uint3",     "uint4",
    "long1",      "long2",      "long3",    "long4",     "ulong1",
    "ulong2",     "ulong3",     "ulong4",   "longlong1", "longlong2",
    "ulonglong1", "ulonglong2", "float1",   "float2",    "float3",
    "float4",     "double1",    "double2"};

/// Why `name` cannot name an entry point's symbols, or "".
static std::string reservedNameReason(StringRef name, bool cuda) {
  if (name.starts_with("_"))
    return "names starting with '_' are reserved to the C implementation";
  if (name.contains("__"))
    return "names containing \"__\" are reserved in C++ (generated CUDA "
           "kernels are named <function>__k<n>)";
  if (name.starts_with("lrt_") || name.starts_with("LRT_"))
    return "the 'lrt_' prefix is layout_rt's";
  // <math.h>'s float and long double variants: sinf, sinl, ...
  bool suffixed = name.ends_with("f") || name.ends_with("l");
  if (llvm::is_contained(kCLibraryNames, name) ||
      llvm::is_contained(kMathNames, name) ||
      (suffixed && llvm::is_contained(kMathNames, name.drop_back())))
    return "it is a C library name (standard or POSIX), which the generated "
           "object would replace in the whole linked program";
  if (cuda &&
      (llvm::is_contained(kCUDANames, name) ||
       (name.starts_with("cuda") &&
        (name.size() == 4 || llvm::isUpper(name[4]) || name[4] == '_'))))
    return "it is a CUDA built-in or runtime name that the generated CUDA "
           "uses";
  return "";
}

bool mlir::layout::isUsableArgName(StringRef name, unsigned number) {
  if (!isCIdentifier(name) || !reservedNameReason(name, /*cuda=*/true).empty())
    return false;
  auto startsWithUpper = [&](StringRef prefix) {
    return name.starts_with(prefix) &&
           (name.size() == prefix.size() ||
            llvm::isUpper(name[prefix.size()]) || name[prefix.size()] == '_');
  };
  // Object-like macros are upper case by convention (<stdint.h>'s limits,
  // M_PI, ...); the rest would be types or names of the prototypes.
  bool macroCase = name.contains('_') &&
                   llvm::none_of(name, [](char c) { return llvm::isLower(c); });
  if (macroCase || name.ends_with("_t") || startsWithUpper("DL") ||
      name.starts_with("LAYOUTC_") ||
      llvm::is_contained(
          {"NULL", "EOF", "NAN", "INFINITY", "options", "stream"}, name))
    return false;
  // Positional names stay unambiguous: arg<M> only for argument M.
  for (StringRef prefix : {"arg", "result"}) {
    StringRef digits = name;
    if (digits.consume_front(prefix) && !digits.empty() &&
        llvm::all_of(digits, llvm::isDigit))
      return prefix == "arg" && digits == std::to_string(number);
  }
  return true;
}

LogicalResult mlir::layout::verifyEntrySymbols(ModuleOp module,
                                               StringRef context, bool cuda) {
  llvm::StringMap<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      functions[func.getSymName()] = func;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    StringRef name = func.getSymName();
    std::string reason = reservedNameReason(name, cuda);
    if (!reason.empty())
      return func.emitError(context)
             << ": function name '" << name << "' is reserved: " << reason;
    // Another function's generated names: <f>_raw, a dynamic function's
    // <f>_layouts, and the header's <f>_result<N>_{sizes,strides,offset}.
    for (size_t at = name.find('_'); at != StringRef::npos;
         at = name.find('_', at + 1)) {
      StringRef owner = name.take_front(at), rest = name.drop_front(at + 1);
      auto it = functions.find(owner);
      if (it == functions.end())
        continue;
      bool generated = rest == "raw" || rest == "layouts";
      if (rest.consume_front("result")) {
        size_t digits = rest.find_first_not_of("0123456789");
        generated |=
            digits != 0 && digits != StringRef::npos &&
            llvm::is_contained({StringRef("_sizes"), StringRef("_strides"),
                                StringRef("_offset")},
                               rest.drop_front(digits));
      }
      if (generated) {
        InFlightDiagnostic diag = func.emitError(context)
                                  << ": function name '" << name
                                  << "' is a name generated for function '"
                                  << owner << "'";
        diag.attachNote(it->second.getLoc()) << "'" << owner << "' is here";
        return diag;
      }
    }
  }
  return success();
}

LogicalResult mlir::layout::verifyEntryName(func::FuncOp func,
                                            StringRef context,
                                            StringRef because) {
  if (isCIdentifier(func.getSymName()))
    return success();
  return func.emitError(context)
         << ": function name '" << func.getSymName()
         << "' is not a C identifier (letters, digits and '_', not a "
            "keyword); "
         << because;
}

std::string mlir::layout::elementName(Type type) { return dtypeName(type); }

int64_t mlir::layout::elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

namespace {
/// Builds the ABI of one function; every failure has been reported at an
/// op's location.
class Analysis {
public:
  explicit Analysis(func::FuncOp func) : func(func) {}

  FailureOr<FunctionABI> run() {
    abi.name = func.getSymName().str();
    if (failed(addArguments()) || failed(addNewBuffers()) ||
        failed(addResults()) || failed(addKernels()))
      return failure();
    return std::move(abi);
  }

private:
  LogicalResult staticLayout(Operation *op, StridedTensorType type,
                             StridedLayout &layout) {
    layout = type.getStridedLayout();
    if (layout.isStatic())
      return success();
    return op->emitError("code generation needs static layouts, but ")
           << type << " has a dynamic size, stride or offset";
  }

  LogicalResult addArguments() {
    for (BlockArgument arg : func.getArguments()) {
      Buffer buffer;
      Param param;
      param.number = arg.getArgNumber();
      if (auto storage = dyn_cast<StorageType>(arg.getType())) {
        if (!storage.hasStaticSize())
          return func.emitError("code generation needs static layouts, but "
                                "argument #")
                 << arg.getArgNumber() << " has type " << storage;
        buffer.elementType = storage.getElementType();
        buffer.size = storage.getSize();
        param.sizes = {storage.getSize()};
        param.strides = {1};
      } else if (auto tensor = dyn_cast<StridedTensorType>(arg.getType())) {
        StridedLayout layout = tensor.getStridedLayout();
        if (!layout.isStatic())
          return func.emitError("code generation needs static layouts, but "
                                "argument #")
                 << arg.getArgNumber() << " has type " << tensor;
        Fallible<int64_t> size = requiredStorageSize(layout);
        if (!size)
          return func.emitError(size.message());
        buffer.elementType = tensor.getElementType();
        buffer.size = *size;
        buffer.pointerOffset = layout.offset;
        param.sizes = layout.sizes;
        param.strides = layout.strides;
      } else {
        return func.emitError("argument #")
               << arg.getArgNumber() << " has type " << arg.getType()
               << "; expected !layout.tensor or !layout.storage";
      }
      param.elementType = buffer.elementType;
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        kArgNameAttr);
          name && isUsableArgName(name, arg.getArgNumber()))
        param.name = name.str();
      param.buffer = abi.buffers.size();
      buffer.param = abi.params.size();
      bufferOf[arg] = abi.buffers.size();
      abi.buffers.push_back(buffer);
      abi.params.push_back(param);
    }
    return success();
  }

  /// Every op that allocates becomes a scratch buffer until a result claims
  /// it.
  LogicalResult addNewBuffers() {
    WalkResult walk = func.walk([&](Operation *op) {
      if (!isa<MaterializeOp, ReduceOp>(op))
        return WalkResult::advance();
      auto type = cast<StridedTensorType>(op->getResult(0).getType());
      StridedLayout layout;
      if (failed(staticLayout(op, type, layout)))
        return WalkResult::interrupt();
      Fallible<int64_t> size = requiredStorageSize(layout);
      if (!size) {
        op->emitError(size.message());
        return WalkResult::interrupt();
      }
      Buffer buffer;
      buffer.elementType = type.getElementType();
      buffer.size = *size;
      bufferOf[op->getResult(0)] = abi.buffers.size();
      abi.buffers.push_back(buffer);
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  LogicalResult addResults() {
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      Value root = getStorageRoot(value);
      auto found = bufferOf.find(root);
      if (found == bufferOf.end())
        return ret.emitError("result #")
               << index << " is not a view of an argument or a new tensor";
      Buffer &buffer = abi.buffers[found->second];
      auto tensor = dyn_cast<StridedTensorType>(value.getType());
      StridedLayout layout(Dims{buffer.size}, Dims{1});
      if (tensor && failed(staticLayout(ret, tensor, layout)))
        return failure();
      if (auto arg = dyn_cast<BlockArgument>(root)) {
        abi.views.push_back({static_cast<unsigned>(index), arg.getArgNumber(),
                             buffer.elementType, layout.sizes, layout.strides,
                             layout.offset - buffer.pointerOffset});
        continue;
      }
      if (buffer.param)
        return ret.emitError("result #")
               << index << " views the same new tensor as result #"
               << abi.params[*buffer.param].number
               << "; code generation gives each new tensor one output";
      Fallible<int64_t> elements = numel(layout.sizes);
      Fallible<std::optional<Span>> reach = span(layout);
      bool covers = elements && reach && *elements == buffer.size &&
                    (buffer.size == 0 || (*reach && (*reach)->lo == 0 &&
                                          (*reach)->hi == buffer.size - 1 &&
                                          isNonOverlappingAndDense(layout)));
      if (!covers)
        return ret.emitError("result #")
               << index << " views part of a new tensor of " << buffer.size
               << " elements (sizes " << formatDims(layout.sizes)
               << ", strides " << formatDims(layout.strides)
               << "); code generation needs outputs that cover their tensor: "
                  "return a layout.contiguous or layout.clone of it";
      buffer.pointerOffset = layout.offset;
      buffer.param = abi.params.size();
      Param param;
      param.role = ParamRole::Output;
      param.number = index;
      param.buffer = found->second;
      param.elementType = buffer.elementType;
      param.sizes = layout.sizes;
      param.strides = layout.strides;
      abi.params.push_back(param);
    }
    return success();
  }

  /// The buffer `v` views and its layout in that buffer's storage.
  std::pair<unsigned, StridedLayout> viewOf(Value v) {
    unsigned buffer = bufferOf.lookup(getStorageRoot(v));
    if (auto tensor = dyn_cast<StridedTensorType>(v.getType()))
      return {buffer, tensor.getStridedLayout()};
    return {buffer, StridedLayout(Dims{abi.buffers[buffer].size}, Dims{1}, 0)};
  }

  LogicalResult addKernel(Operation *op, Value src, Value dst,
                          StridedLayout srcLayout) {
    Kernel kernel{KernelKind::Copy, op->getLoc()};
    std::tie(kernel.srcBuffer, std::ignore) = viewOf(src);
    std::tie(kernel.dstBuffer, kernel.dst) = viewOf(dst);
    kernel.src = std::move(srcLayout);
    kernel.srcType = abi.buffers[kernel.srcBuffer].elementType;
    kernel.dstType = abi.buffers[kernel.dstBuffer].elementType;
    if (!kernel.src.isStatic() || !kernel.dst.isStatic())
      return op->emitError("code generation needs static layouts");
    FailureOr<KernelPlan> plan = decodePlan(op);
    if (failed(plan))
      return failure();
    kernel.plan = std::move(*plan);
    abi.kernels.push_back(std::move(kernel));
    return success();
  }

  LogicalResult addKernels() {
    WalkResult walk = func.walk([&](Operation *op) {
      LogicalResult result = success();
      if (auto m = dyn_cast<MaterializeOp>(op)) {
        result = addKernel(op, m.getInput(), m.getResult(),
                           viewOf(m.getInput()).second);
      } else if (auto c = dyn_cast<CopyOp>(op)) {
        Fallible<StridedLayout> read = broadcastTo(
            viewOf(c.getSrc()).second, c.getDst().getType().getShape());
        if (!read)
          result = op->emitError(read.message());
        else
          result = addKernel(op, c.getSrc(), c.getDst(), *read);
        if (auto arg = dyn_cast<BlockArgument>(getStorageRoot(c.getDst())))
          abi.params[arg.getArgNumber()].role = ParamRole::Written;
      } else if (auto r = dyn_cast<ReduceOp>(op)) {
        Kernel kernel{KernelKind::Reduce, op->getLoc()};
        std::tie(kernel.srcBuffer, kernel.src) = viewOf(r.getInput());
        std::tie(kernel.dstBuffer, kernel.dst) = viewOf(r.getResult());
        kernel.srcType = abi.buffers[kernel.srcBuffer].elementType;
        kernel.dstType = abi.buffers[kernel.dstBuffer].elementType;
        kernel.reduction = toReductionKind(r.getKind());
        if (!kernel.src.isStatic()) {
          result = op->emitError("code generation needs static layouts");
        } else {
          Fallible<Dims> dims =
              normalizeReduceDims(kernel.src.rank(), r.getDims());
          FailureOr<KernelPlan> plan =
              dims ? decodePlan(op) : FailureOr<KernelPlan>(failure());
          if (!dims) {
            result = op->emitError(dims.message());
          } else if (failed(plan)) {
            result = failure();
          } else {
            kernel.reducedDims = *dims;
            kernel.plan = std::move(*plan);
            abi.kernels.push_back(std::move(kernel));
          }
        }
      }
      return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  func::FuncOp func;
  FunctionABI abi;
  llvm::DenseMap<Value, unsigned> bufferOf;
};
} // namespace

Dims mlir::layout::descriptorSizes(ArrayRef<int64_t> sizes) {
  Dims out(sizes.begin(), sizes.end());
  for (int64_t &s : out)
    if (s == kDynamic)
      s = -1;
  return out;
}

std::vector<int64_t> DynamicABI::bindTable() const {
  std::vector<int64_t> table = {static_cast<int64_t>(inputs.size())};
  for (const std::array<int64_t, 3> &in : inputs)
    table.insert(table.end(), in.begin(), in.end());
  table.push_back(static_cast<int64_t>(fills.size()));
  for (const std::array<int64_t, 4> &f : fills)
    table.insert(table.end(), f.begin(), f.end());
  return table;
}

std::vector<int64_t> DynamicABI::resultTable() const {
  std::vector<int64_t> table = {static_cast<int64_t>(results.size())};
  for (const ResultLayout &r : results) {
    table.insert(table.end(), {static_cast<int64_t>(r.sizes.size()),
                               r.hasOutput ? 1 : 0, r.argument, r.copies});
    table.insert(table.end(), r.sizes.begin(), r.sizes.end());
    table.insert(table.end(), r.outputStrides.begin(), r.outputStrides.end());
    if (r.argument < 0)
      continue;
    table.insert(table.end(), r.viewStrides.begin(), r.viewStrides.end());
    table.push_back(r.viewOffset);
  }
  return table;
}

bool mlir::layout::hasDynamicLayouts(func::FuncOp func) {
  auto dynamic = [](Type t) {
    if (auto tensor = dyn_cast<StridedTensorType>(t))
      return !tensor.hasStaticLayout();
    if (auto storage = dyn_cast<StorageType>(t))
      return !storage.hasStaticSize();
    return false;
  };
  if (llvm::any_of(func.getArgumentTypes(), dynamic))
    return true;
  WalkResult walk = func.walk([&](Operation *op) {
    return llvm::any_of(op->getResultTypes(), dynamic) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

FailureOr<FunctionABI> mlir::layout::analyzeFunction(func::FuncOp func) {
  return Analysis(func).run();
}

LogicalResult mlir::layout::analyzeFunctions(
    ModuleOp planned, PlanKind kind, std::vector<FunctionABI> &abis,
    llvm::function_ref<LogicalResult(func::FuncOp)> check,
    const TargetInfo *dynamicTarget) {
  for (auto func : planned.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (check && failed(check(func)))
      return failure();
    FailureOr<FunctionABI> abi =
        dynamicTarget && hasDynamicLayouts(func)
            ? analyzeDynamicFunction(func, *dynamicTarget)
            : analyzeFunction(func);
    if (failed(abi))
      return failure();
    for (const Kernel &k : abi->kernels) {
      if (kind == PlanKind::CPU && !k.plan.cpu)
        return emitError(k.loc, "code generation for a CPU needs kernels "
                                "planned for a CPU target (layout-plan-kernels "
                                "target=x86-64-v3, x86-64-v4 or host)");
      if (kind == PlanKind::GPU && !k.plan.gpu)
        return emitError(k.loc, "CUDA code generation needs kernels planned "
                                "for a GPU target (layout-plan-kernels "
                                "target=sm_80 or sm_90)");
    }
    abis.push_back(std::move(*abi));
  }
  return success();
}
