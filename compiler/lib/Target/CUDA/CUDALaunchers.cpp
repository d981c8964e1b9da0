//===- CUDALaunchers.cpp - Functions and modules as CUDA C++ --------------===//
//
// Assembles the CUDA source of a planned module: a prelude (the includes and
// f16/bf16 helpers), then per function the kernels of CUDAKernels.cpp, the
// raw launcher that enqueues them on a stream with scratch from
// cudaMallocAsync, and the DLPack launcher that validates its tensors
// (layout_rt's binding for kDLCUDA, then cudaPointerGetAttributes) before
// calling the raw one. Also prints the matching header.
//
//===----------------------------------------------------------------------===//

#include "CUDAKernels.h"

#include "layout/Compiler/Target/CUDA/CUDABackend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::cuda;

TargetInfo mlir::layout::cudaTargetInfo() {
  return lookupTarget("sm_80").value();
}

namespace {

/// "1, -2, 3" as int64_t initializers (INT64_MIN has no literal).
std::string joinInts(ArrayRef<int64_t> values) {
  return llvm::join(llvm::map_range(values,
                                    [](int64_t v) {
                                      return v == INT64_MIN
                                                 ? std::string("INT64_MIN")
                                                 : std::to_string(v);
                                    }),
                    ", ");
}

/// A C string literal of `text` (NULs included): printable ASCII but '"'
/// and '\\' as is, other bytes as three-digit octal escapes, which no
/// following digit can extend.
std::string cString(StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
      out += static_cast<char>(c);
      continue;
    }
    out += '\\';
    out += static_cast<char>('0' + (c >> 6));
    out += static_cast<char>('0' + ((c >> 3) & 7));
    out += static_cast<char>('0' + (c & 7));
  }
  return out + "\"";
}

//===----------------------------------------------------------------------===//
// Functions: kernels and launchers
//===----------------------------------------------------------------------===//

class FunctionPrinter {
public:
  FunctionPrinter(const FunctionABI &abi) : abi(abi) {}

  LogicalResult prepare() {
    for (const Buffer &b : abi.buffers)
      if (!celemOf(b.elementType))
        return emitError(UnknownLoc::get(b.elementType.getContext()),
                         "CUDA code generation: unsupported element type ")
               << b.elementType << " in function " << abi.name;
    for (auto [i, k] : llvm::enumerate(abi.kernels)) {
      std::optional<CElem> s = celemOf(k.srcType), d = celemOf(k.dstType);
      if (!s || !d)
        return emitError(k.loc, "CUDA code generation: unsupported element "
                                "type");
      std::string name = abi.name + "__k" + std::to_string(i);
      kernels.push_back(abi.dynamic
                            ? createDynamicKernelPrinter(
                                  k, name, *s, *d, abi.dynamic->kernels[i])
                            : createKernelPrinter(k, name, *s, *d));
      if (failed(kernels.back()->prepare()))
        return failure();
    }
    return success();
  }

  void print(Printer &p) {
    p.line("//===" + std::string(70, '-') + "===//");
    p.line("// " + abi.name);
    p.line("//===" + std::string(70, '-') + "===//");
    p.line();
    for (auto &kp : kernels)
      kp->printKernels(p);
    if (abi.dynamic)
      printRawDynamic(p);
    else
      printRaw(p);
    printDLPack(p);
    if (abi.dynamic)
      printLayouts(p);
  }

private:
  /// A dynamic function's symbol program and its messages (both
  /// launchers'), and the binder's table of input symbols and checks.
  void printProgram(Printer &p) {
    const DynamicABI &d = *abi.dynamic;
    std::string n = abi.name;
    p.line("static const int64_t " + n + "__program[] = {" +
           joinInts(d.program.words) + "};");
    p.line("static const char " + n +
           "__messages[] = " + cString(d.program.messages) + ";");
    p.line("static const int64_t " + n + "__dynamic[] = {" +
           joinInts(d.bindTable()) + "};");
  }

  /// A dynamic function's <name>_layouts: as the CPU backend's, on the
  /// sizes of device tensors (their data is not read).
  void printLayouts(Printer &p) {
    std::string n = abi.name, params;
    std::vector<std::string> tensors, names;
    for (const Param &param : abi.params) {
      names.push_back("\"" + paramName(param) + "\\0\"");
      bool output = param.role == ParamRole::Output;
      tensors.push_back(output ? "nullptr" : positionalName(param));
      if (!output)
        params += entryParamType(param, EntryKind::DLPack) +
                  positionalName(param) + ", ";
    }
    p.line("static const int64_t " + n + "__results[] = {" +
           joinInts(abi.dynamic->resultTable()) + "};");
    p.line("extern \"C\" lrt_status_t " + n + "_layouts(" + params +
           "lrt_layout_t *layouts) {");
    p.line("const DLTensor *tensors[" + std::to_string(abi.params.size()) +
           "] = {" + llvm::join(tensors, ", ") + "};");
    p.line("return lrt_dynamic_layouts(\"" + n + "\", " + n + "__descriptor, " +
           llvm::join(names, " ") + ", kDLCUDA, tensors, " + n + "__dynamic, " +
           n + "__program, " + n + "__messages, " + n + "__results, layouts);");
    p.line("}");
  }

  /// A dynamic function's intermediate new tensors, device scratch of their
  /// run-time size: declared before the launcher's do-while, allocated at
  /// its start (a failure sets `status` and breaks out); returns their
  /// buffers.
  std::vector<unsigned> printScratchAlloc(Printer &p) {
    const DynamicABI &d = *abi.dynamic;
    std::vector<unsigned> scratch;
    for (auto [i, b] : llvm::enumerate(abi.buffers))
      if (!b.param && i < d.scratchElements.size() &&
          d.scratchElements[i] >= 0) {
        scratch.push_back(i);
        p.line("char *scratch" + std::to_string(i) + " = nullptr;");
      }
    p.line("do {");
    for (unsigned i : scratch) {
      int64_t each = elementBytes(abi.buffers[i].elementType);
      std::string at = "scratch" + std::to_string(i);
      std::string cap = std::to_string(DynamicABI::kScratchCapBytes / each);
      std::string n = "outputs[" + std::to_string(d.scratchElements[i]) + "]";
      p.line("{");
      p.line("const int64_t n = " + n + " < " + cap + " ? " + n + " : " + cap +
             ";");
      p.line("err = cudaMallocAsync((void **)&" + at +
             ", n > 0 ? (size_t)n * " + std::to_string(each) +
             " : 1, stream);");
      p.line("if (err != cudaSuccess) {");
      p.line(at + " = nullptr;");
      p.line("status = lrt_status_make(LRT_STATUS_RESOURCE_EXHAUSTED, \"%s: "
             "cannot allocate device scratch memory for %lld elements: %s\", "
             "function, (long long)n, cudaGetErrorString(err));");
      p.line("break;");
      p.line("}");
      p.line("}");
    }
    return scratch;
  }

  /// The raw launcher of a dynamic function: runs the symbol program on
  /// the dynamic sizes (its checks fail with PyTorch's messages before
  /// anything is enqueued), then launches each kernel with the extents it
  /// gives, skipping the copies whose result is reported as a view.
  void printRawDynamic(Printer &p) {
    const DynamicABI &d = *abi.dynamic;
    std::string n = abi.name;
    printProgram(p);
    std::string params = entryParams(abi, EntryKind::Raw, /*positional=*/true);
    for (size_t i = 0; i < d.inputs.size(); ++i)
      params += "int64_t in" + std::to_string(i) + ", ";
    for (size_t i = 0; i < d.conditionals.size(); ++i)
      params += "int32_t *view" + std::to_string(i) + ", ";
    p.line("extern \"C\" lrt_status_t " + n + "_raw(" + params +
           "cudaStream_t stream) {");
    for (const Param &param : abi.params)
      p.line("(void)" + positionalName(param) + ";");
    p.line("const char *const function = \"" + n + "\";");
    std::string inputs = "0";
    if (!d.inputs.empty()) {
      inputs.clear();
      for (size_t i = 0; i < d.inputs.size(); ++i)
        inputs += (i ? ", in" : "in") + std::to_string(i);
    }
    const std::vector<int64_t> &words = d.program.words;
    p.line("const int64_t inputs[] = {" + inputs + "};");
    p.line("int64_t values[" +
           std::to_string(std::max<int64_t>(1, words.empty() ? 0 : words[3])) +
           "], outputs[" +
           std::to_string(std::max<int64_t>(1, words.empty() ? 0 : words[4])) +
           "];");
    p.line("lrt_status_t status = lrt_symbolic_run(function, " + n +
           "__program, " + n + "__messages, inputs, values, outputs);");
    p.line("if (status)");
    p.line("  return status;");
    if (kernels.empty()) {
      // Only views: the checks were all there is to run.
      p.line("(void)stream;");
      p.line("return LRT_OK;");
      p.line("}").line();
      return;
    }
    p.line("cudaError_t err = cudaSuccess;");
    p.line("auto fail = [&](const char *kernel, cudaError_t e) {");
    p.line("status = lrt_status_make(LRT_STATUS_INTERNAL, \"%s: launching %s "
           "failed: %s\", function, kernel, cudaGetErrorString(e));");
    p.line("};");
    std::vector<unsigned> scratch = printScratchAlloc(p);
    for (auto [i, kp] : llvm::enumerate(kernels)) {
      const Kernel &k = abi.kernels[i];
      const DynamicABI::KernelExtents &x = d.kernels[i];
      // Views start at offsets from their buffers' first elements, known
      // at run time; a run-time view's buffer is chosen at run time.
      std::function<std::string(unsigned, const std::string &,
                                const std::string &)>
          in = [&](unsigned buffer, const std::string &at,
                   const std::string &type) -> std::string {
        const Buffer &b = abi.buffers[buffer];
        if (b.runtimeView)
          return "(outputs[" + std::to_string(b.runtimeView->copies) + "] ? " +
                 in(b.runtimeView->own, at, type) + " : " +
                 in(b.runtimeView->viewOf, at, type) + ")";
        if (!b.param)
          return type + "scratch" + std::to_string(buffer) + " + " + at;
        std::string origin =
            b.pointerOffsetOutput >= 0
                ? "outputs[" + std::to_string(b.pointerOffsetOutput) + "]"
                : lit(b.pointerOffset, "int64_t");
        return type + positionalName(abi.params[*b.param]) + " + (" + at +
               " - " + origin + ")";
      };
      auto view = [&](unsigned buffer, int64_t offset, Type elem,
                      bool isConst) {
        return in(buffer, "outputs[" + std::to_string(offset) + "]",
                  "(" + std::string(isConst ? "const " : "") +
                      celemOf(elem)->c + " *)");
      };
      p.line("// kernel " + std::to_string(i) + ": " + kp->describe());
      p.line("{");
      auto c =
          llvm::find_if(d.conditionals, [&](const DynamicABI::Conditional &c) {
            return c.kernel == i;
          });
      if (c != d.conditionals.end()) {
        // A result that is its operand's view for these sizes, reported
        // where the caller asks: not written.
        std::string report =
            "view" + std::to_string(c - d.conditionals.begin());
        p.line("const bool isView = " + report + " && outputs[" +
               std::to_string(c->copies) + "] == 0;");
        p.line("if (" + report + ")");
        p.line("  *" + report + " = isView ? " +
               std::to_string(abi.params[c->argument].number) + " : -1;");
        p.line("if (!isView) {");
      }
      if (x.runIf)
        p.line("if (outputs[" + std::to_string(*x.runIf) + "]) {");
      kp->printLaunch(p, view(k.srcBuffer, x.srcOffset, k.srcType, true),
                      view(k.dstBuffer, x.dstOffset, k.dstType, false), "");
      if (c != d.conditionals.end() || x.runIf)
        p.line("}");
      p.line("}");
    }
    p.line("} while (0);");
    for (unsigned i : scratch) {
      std::string at = "scratch" + std::to_string(i);
      p.line("if (" + at + " && (err = cudaFreeAsync(" + at +
             ", stream)) != cudaSuccess && !status)");
      p.line("  status = lrt_status_make(LRT_STATUS_INTERNAL, \"%s: freeing "
             "device scratch memory failed: %s\", function, "
             "cudaGetErrorString(err));");
    }
    p.line("return status;");
    p.line("}").line();
  }

  void printRaw(Printer &p) {
    std::string n = abi.name;
    // Positional names: the header's names could clash with the locals.
    p.line("extern \"C\" lrt_status_t " + n + "_raw(" +
           entryParams(abi, EntryKind::Raw, /*positional=*/true) +
           "cudaStream_t stream) {");
    for (const Param &param : abi.params)
      p.line("(void)" + positionalName(param) + ";");
    // Scratch: intermediate buffers, then partials.
    int64_t scratch = 0;
    std::vector<int64_t> bufferAt(abi.buffers.size(), -1),
        partialsAt(kernels.size(), -1);
    for (auto [i, b] : llvm::enumerate(abi.buffers))
      if (!b.param) {
        bufferAt[i] = scratch;
        scratch += llvm::alignTo(
            std::max<int64_t>(1, b.size * elementBytes(b.elementType)), 256);
      }
    for (auto [i, kp] : llvm::enumerate(kernels))
      if (int64_t bytes = kp->scratchBytes()) {
        partialsAt[i] = scratch;
        scratch += bytes;
      }
    if (llvm::none_of(kernels, [](const std::unique_ptr<KernelPrinter> &kp) {
          return kp->launchesKernels();
        })) {
      // Only views and empty tensors: nothing to launch.
      p.line("(void)stream;");
      p.line("return LRT_OK;");
      p.line("}").line();
      return;
    }
    p.line("cudaError_t err = cudaSuccess;");
    if (scratch) {
      p.line("char *scratch = nullptr;");
      p.line("err = cudaMallocAsync((void **)&scratch, " +
             std::to_string(scratch) + ", stream);");
      p.line("if (err != cudaSuccess)");
      p.line(
          "  return lrt_status_make(LRT_STATUS_RESOURCE_EXHAUSTED, \"" + n +
          ": cannot allocate " + std::to_string(scratch) +
          " bytes of device scratch memory: %s\", cudaGetErrorString(err));");
    }
    p.line("lrt_status_t status = LRT_OK;");
    // A failed launch reports the kernel and skips the rest.
    p.line("auto fail = [&](const char *kernel, cudaError_t e) {");
    p.line("status = lrt_status_make(LRT_STATUS_INTERNAL, \"" + n +
           ": launching %s failed: %s\", kernel, cudaGetErrorString(e));");
    p.line("};");
    p.line("do {");
    for (auto [i, kp] : llvm::enumerate(kernels)) {
      const Kernel &k = abi.kernels[i];
      auto view = [&](unsigned buffer, int64_t offset, Type elem,
                      bool isConst) {
        const Buffer &b = abi.buffers[buffer];
        std::string c = celemOf(elem)->c;
        std::string type = std::string(isConst ? "const " : "") + c + " *";
        if (b.param) {
          const Param &param = abi.params[*b.param];
          return "(" + type + ")" + positionalName(param) + " + " +
                 lit(offset - b.pointerOffset, "int64_t");
        }
        return "(" + type + ")(scratch + " + std::to_string(bufferAt[buffer]) +
               ") + " + lit(offset, "int64_t");
      };
      p.line("// kernel " + std::to_string(i) + ": " + kp->describe());
      p.line("{");
      std::string partials =
          partialsAt[i] >= 0
              ? "(void *)(scratch + " + std::to_string(partialsAt[i]) + ")"
              : "nullptr";
      kp->printLaunch(p, view(k.srcBuffer, k.src.offset, k.srcType, true),
                      view(k.dstBuffer, k.dst.offset, k.dstType, false),
                      partials);
      p.line("}");
    }
    p.line("} while (0);");
    if (scratch) {
      p.line("err = cudaFreeAsync(scratch, stream);");
      p.line("if (err != cudaSuccess && !status)");
      p.line("  status = lrt_status_make(LRT_STATUS_INTERNAL, \"" + n +
             ": freeing device scratch memory failed: %s\", "
             "cudaGetErrorString(err));");
    }
    p.line("return status;");
    p.line("}").line();
  }

  void printDLPack(Printer &p) {
    std::string n = abi.name;
    size_t count = abi.params.size();
    std::vector<int64_t> desc = bindDescriptor(abi);
    p.line("// What " + n +
           "'s DLTensors must be (layout_rt/entry.h's descriptor).");
    p.line("static const int64_t " + n + "__descriptor[] = {" + joinInts(desc) +
           "};");
    const DynamicABI *dynamic = abi.dynamic.get();
    std::string views;
    for (size_t i = 0; dynamic && i < dynamic->conditionals.size(); ++i)
      views += "int32_t *view" + std::to_string(i) + ", ";
    p.line("extern \"C\" lrt_status_t " + n + "(" +
           entryParams(abi, EntryKind::DLPack, /*positional=*/true) + views +
           "cudaStream_t stream) {");
    size_t slots = std::max<size_t>(count, 1);
    std::string tensors, names, empty;
    // lrt_bind_tensors_named's list: "x\0" "result0\0", ended by the
    // literal's own NUL.
    std::vector<std::string> nameList;
    for (const Param &param : abi.params) {
      tensors += positionalName(param) + ", ";
      nameList.push_back("\"" + paramName(param) + "\\0\"");
      names += "\"" + paramName(param) + "\", ";
      empty += product(param.sizes) == 0 ? "true, " : "false, ";
    }
    if (!count) {
      tensors = "nullptr";
      names = "nullptr";
      empty = "true";
    }
    p.line("const DLTensor *tensors[" + std::to_string(slots) + "] = {" +
           tensors + "};");
    p.line("void *data[" + std::to_string(slots) + "] = {nullptr};");
    std::string bindNames = count ? llvm::join(nameList, " ") : "\"\"";
    size_t numInputs = dynamic ? dynamic->inputs.size() : 0;
    if (dynamic) {
      // The binder reads the input symbols from the tensors, runs the
      // checks and checks every tensor against the sizes they give.
      p.line("int64_t inputs[" +
             std::to_string(std::max<size_t>(1, numInputs)) + "] = {0};");
      p.line("lrt_status_t status = lrt_bind_dynamic(\"" + n + "\", " + n +
             "__descriptor, " + bindNames + ", kDLCUDA, tensors, data, " + n +
             "__dynamic, " + n + "__program, " + n + "__messages, inputs);");
    } else {
      p.line("lrt_status_t status = lrt_bind_tensors_named(\"" + n + "\", " +
             n + "__descriptor, " + bindNames + ", kDLCUDA, tensors, data);");
    }
    p.line("if (status)");
    p.line("  return status;");
    p.line("static const char *const names[" + std::to_string(slots) + "] = {" +
           names + "};");
    if (dynamic) {
      // Sizes are known now: an empty tensor's pointer need not be device
      // memory.
      p.line("bool empty[" + std::to_string(slots) + "] = {false};");
      p.line("for (int i = 0; i < " + std::to_string(count) + "; ++i)");
      p.line("  for (int32_t d = 0; d < tensors[i]->ndim; ++d)");
      p.line("    empty[i] = empty[i] || tensors[i]->shape[d] == 0;");
    } else {
      p.line("static const bool empty[" + std::to_string(slots) + "] = {" +
             empty + "};");
    }
    p.line("// Tensors with elements must live in device (or managed) "
           "memory: a host");
    p.line("// pointer would fault inside a kernel, long after this call "
           "returned.");
    p.line("for (int i = 0; i < " + std::to_string(count) + "; ++i) {");
    p.line("if (empty[i])");
    p.line("  continue;");
    p.line("cudaPointerAttributes attributes;");
    p.line("if (cudaPointerGetAttributes(&attributes, data[i]) != "
           "cudaSuccess) {");
    p.line("(void)cudaGetLastError(); // CUDA < 11 fails on host memory");
    p.line("attributes.type = cudaMemoryTypeUnregistered;");
    p.line("}");
    p.line("if (attributes.type != cudaMemoryTypeDevice && attributes.type != "
           "cudaMemoryTypeManaged)");
    p.line("  return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, \"" + n +
           ": argument %d (%s): data is not device memory (host pointer?)\", "
           "i, names[i]);");
    p.line("}");
    p.line("(void)names;");
    p.line("(void)empty;");
    std::string args;
    for (auto [i, param] : llvm::enumerate(abi.params))
      args += "(" + entryParamType(param, EntryKind::Raw) + ")data[" +
              std::to_string(i) + "], ";
    for (size_t i = 0; i < numInputs; ++i)
      args += "inputs[" + std::to_string(i) + "], ";
    for (size_t i = 0; dynamic && i < dynamic->conditionals.size(); ++i)
      args += "view" + std::to_string(i) + ", ";
    p.line("return " + n + "_raw(" + args + "stream);");
    p.line("}").line();
  }

  const FunctionABI &abi;
  std::vector<std::unique_ptr<KernelPrinter>> kernels;
};

const char *kPrelude =
    R"(// Generated by layoutc --target=cuda: kernels and launchers. Uses only the
// CUDA subset that layout_rt/cuda.h also emulates on the host. f16 and bf16
// data live as uint16_t bits, i1 as a byte.
#include "layout_rt/cuda.h"
#include "layout_rt/layout_rt.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

)";

/// The f16/bf16 conversions, each printed only where the kernels call it:
/// an unreferenced static function is an nvcc warning.
struct HalfHelper {
  const char *name;
  const char *definition;
};
const HalfHelper kHalfHelpers[] = {
    {"lrt_f16_to_f32",
     "static __device__ __forceinline__ float lrt_f16_to_f32(uint16_t bits) "
     "{\n  return __half2float(__ushort_as_half(bits));\n}\n"},
    {"lrt_f32_to_f16",
     "static __device__ __forceinline__ uint16_t lrt_f32_to_f16(float value) "
     "{\n  return __half_as_ushort(__float2half_rn(value));\n}\n"},
    {"lrt_bf16_to_f32",
     "static __device__ __forceinline__ float lrt_bf16_to_f32(uint16_t bits) "
     "{\n  return __bfloat162float(__ushort_as_bfloat16(bits));\n}\n"},
    {"lrt_f32_to_bf16",
     "static __device__ __forceinline__ uint16_t lrt_f32_to_bf16(float "
     "value) {\n  return __bfloat16_as_ushort(__float2bfloat16_rn(value));"
     "\n}\n"},
};

} // namespace

LogicalResult mlir::layout::printCUDASource(ModuleOp planned,
                                            std::vector<FunctionABI> &abis,
                                            const TargetInfo &target,
                                            llvm::raw_ostream &os) {
  if (failed(verifyEntrySymbols(planned, "CUDA code generation",
                                /*cuda=*/true)))
    return failure();
  auto launcherName = [](func::FuncOp func) {
    return verifyEntryName(func, "CUDA code generation",
                           "the launchers are extern \"C\" functions of "
                           "that name");
  };
  if (failed(analyzeFunctions(planned, PlanKind::GPU, abis, launcherName,
                              &target)))
    return failure();
  std::vector<std::unique_ptr<FunctionPrinter>> functions;
  for (const FunctionABI &abi : abis) {
    functions.push_back(std::make_unique<FunctionPrinter>(abi));
    if (failed(functions.back()->prepare()))
      return failure();
  }
  std::string text;
  llvm::raw_string_ostream buffer(text);
  Printer p(buffer);
  for (auto &f : functions)
    f->print(p);
  os << kPrelude;
  bool anyHelper = false;
  for (const HalfHelper &helper : kHalfHelpers)
    if (StringRef(text).contains(std::string(helper.name) + "(")) {
      os << helper.definition;
      anyHelper = true;
    }
  std::string dynamic = dynamicHostHelpers(text);
  os << dynamic;
  if (anyHelper || !dynamic.empty())
    os << "\n";
  os << text;
  return success();
}

void mlir::layout::printCUDAHeader(ArrayRef<FunctionABI> abis, StringRef guard,
                                   llvm::raw_ostream &os) {
  HeaderStyle style;
  style.intro =
      "/* Generated by layoutc --target=cuda. Launchers of the kernels in "
      "the .cu\n"
      " * (or object) of the same name; link with layout_rt and -lcudart.\n"
      " * Work is enqueued on `stream`; the caller synchronizes. DLPack\n"
      " * launchers validate every tensor (device kDLCUDA, device memory)\n"
      " * and return an error status (free it with lrt_status_free) "
      "without\n"
      " * enqueuing anything; raw launchers take device pointers to each\n"
      " * view's first element. */\n";
  style.includes = {"layout_rt/cuda.h"};
  style.lastParam = "cudaStream_t stream";
  style.rawForAll = true;
  printEntryHeader(abis, guard, style, os);
}
