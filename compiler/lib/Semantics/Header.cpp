//===- Header.cpp - Entry-point headers of generated code -----------------===//
//
// The parts of the generated-code ABI every backend shares: DLPack type
// codes, parameter names, raw element types, the binding descriptor, the C
// parameters of entry points, and the C header of entry points (the CPU's and
// the CUDA launchers' differ only in the HeaderStyle).
//
//===----------------------------------------------------------------------===//

#include "layout/Compiler/Semantics/FunctionABI.h"
#include "layout/Dialect/Layout/Utils/LayoutAlgebra.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

std::pair<int64_t, int64_t> mlir::layout::dlpackType(Type t) {
  int64_t bits = t.getIntOrFloatBitWidth();
  if (t.isInteger(1))
    return {6 /*LRT_DL_BOOL*/, 8};
  if (t.isBF16())
    return {4 /*kDLBfloat*/, 16};
  if (isa<FloatType>(t))
    return {2 /*kDLFloat*/, bits};
  if (t.isUnsignedInteger())
    return {1 /*kDLUInt*/, bits};
  return {0 /*kDLInt*/, bits};
}

std::string mlir::layout::positionalName(const Param &p) {
  return (p.role == ParamRole::Output ? "result" : "arg") +
         std::to_string(p.number);
}

std::string mlir::layout::paramName(const Param &p) {
  return p.name.empty() ? positionalName(p) : p.name;
}

std::string mlir::layout::bindNames(const FunctionABI &abi) {
  std::string names;
  for (const Param &p : abi.params)
    names += paramName(p) + '\0';
  return names + '\0';
}

std::string mlir::layout::rawElementCType(Type t) {
  if (t.isInteger(1))
    return "bool";
  if (t.isF16() || t.isBF16())
    return "uint16_t";
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  std::string c = t.isUnsignedInteger() ? "uint" : "int";
  return c + std::to_string(t.getIntOrFloatBitWidth()) + "_t";
}

std::vector<int64_t> mlir::layout::bindDescriptor(const FunctionABI &abi) {
  std::vector<int64_t> desc = {1, static_cast<int64_t>(abi.params.size())};
  for (const Param &p : abi.params) {
    auto [code, bits] = dlpackType(p.elementType);
    // The runtime proves distinct elements only when strides nest; the
    // compiler's exact check covers the other layouts it accepts.
    int64_t role = static_cast<int64_t>(p.role);
    // A dynamic function's sizes may be LRT_ANY_SIZE (-1): no static proof.
    StridedLayout layout(p.sizes, p.strides);
    bool known = layout.isStatic() &&
                 llvm::all_of(p.sizes, [](int64_t s) { return s >= 0; });
    if (p.role != ParamRole::Input && known && !stridesNest(layout) &&
        internalOverlap(layout) == Overlap::No)
      role |= kRoleDistinct;
    desc.insert(desc.end(), {role, p.number, code, bits,
                             static_cast<int64_t>(p.sizes.size())});
    desc.insert(desc.end(), p.sizes.begin(), p.sizes.end());
    desc.insert(desc.end(), p.strides.begin(), p.strides.end());
  }
  return desc;
}

std::string mlir::layout::entryParamType(const Param &p, EntryKind kind) {
  return std::string(p.role == ParamRole::Input ? "const " : "") +
         (kind == EntryKind::DLPack ? "DLTensor"
                                    : rawElementCType(p.elementType)) +
         " *";
}

std::string mlir::layout::entryParams(const FunctionABI &abi, EntryKind kind,
                                      bool positional) {
  std::string s;
  for (const Param &p : abi.params)
    s += entryParamType(p, kind) +
         (positional ? positionalName(p) : paramName(p)) + ", ";
  return s;
}

static std::string list(ArrayRef<int64_t> v) {
  return "[" +
         llvm::join(
             llvm::map_range(v, [](int64_t x) { return std::to_string(x); }),
             ", ") +
         "]";
}

static void printArray(raw_ostream &os, StringRef name, ArrayRef<int64_t> v) {
  if (v.empty())
    return;
  os << "static const int64_t " << name << "[" << v.size()
     << "] LAYOUTC_UNUSED = {";
  llvm::interleaveComma(v, os);
  os << "};\n";
}

/// `where s<k> = <definition>` for each derived value the header's layouts
/// and conditions name, as explain defines them.
static void printDerivedValues(raw_ostream &os, const DynamicABI &dynamic) {
  for (const auto &[name, definition] : dynamic.definitions)
    os << " *   where " << name << " = " << definition << "\n";
}

/// A dynamic function's raw entry point's size parameters and its `_view`
/// reports.
static void printDynamicInputs(raw_ostream &os, const FunctionABI &abi,
                               const DynamicABI &dynamic) {
  if (!dynamic.inputNames.empty()) {
    os << " *   " << abi.name << "_raw takes the dynamic sizes after the "
       << "pointers: ";
    for (auto [i, name] : llvm::enumerate(dynamic.inputNames)) {
      const std::array<int64_t, 3> &in = dynamic.inputs[i];
      os << (i ? ", " : "") << name << " = " << paramName(abi.params[in[0]]);
      if (in[2] == 2)
        os << " offset";
      else
        os << (in[2] ? " stride " : " size ") << in[1];
    }
    os << "\n";
  }
  for (const DynamicABI::Conditional &c : dynamic.conditionals) {
    std::string out = paramName(abi.params[c.output]);
    std::string arg = paramName(abi.params[c.argument]);
    os << " *   " << out << "_view: NULL (" << out
       << " is always written), or where " << abi.name
       << " stores -1 when it wrote " << out << ", and "
       << abi.params[c.argument].number << " when " << c.when
       << ": then, as PyTorch returns it, the result is " << arg << "'s view "
       << c.viewLayout << " elements from " << arg << "'s first element, and "
       << out << " is not written\n";
  }
}

void mlir::layout::printEntryHeader(ArrayRef<FunctionABI> abis, StringRef guard,
                                    const HeaderStyle &style, raw_ostream &os) {
  os << style.intro;
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <stdbool.h>\n#include <stdint.h>\n\n"
        "#include \"layout_rt/layout_rt.h\"\n";
  for (const std::string &include : style.includes)
    os << "#include \"" << include << "\"\n";
  os << "\n";
  os << "#if defined(__GNUC__)\n#define LAYOUTC_UNUSED "
        "__attribute__((unused))\n#else\n#define LAYOUTC_UNUSED\n#endif\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  for (const FunctionABI &abi : abis) {
    os << "\n/* " << abi.name << "\n";
    const DynamicABI *dynamic = abi.dynamic.get();
    for (auto [pi, p] : llvm::enumerate(abi.params)) {
      os << " *   " << paramName(p) << ": " << elementName(p.elementType)
         << " ";
      // A dynamic function's layouts are expressions of its arguments'
      // sizes (x[0]: argument x's size in dim 0).
      if (dynamic)
        os << dynamic->paramLayouts[pi];
      else
        os << "sizes " << list(p.sizes) << " strides " << list(p.strides);
      if (p.role == ParamRole::Written)
        os << " (written)";
      if (p.role == ParamRole::Output)
        os << " (new tensor, caller-allocated)";
      os << "\n";
    }
    for (auto [vi, v] : llvm::enumerate(abi.views)) {
      std::string argument = paramName(abi.params[v.argument]);
      os << " *   result" << v.result << ": view of " << argument
         << ", no data moved: " << elementName(v.elementType) << " ";
      if (dynamic)
        os << dynamic->viewLayouts[vi];
      else
        os << "sizes " << list(v.sizes) << " strides " << list(v.strides)
           << " offset " << v.offset;
      os << " elements from " << argument << "'s first element\n";
    }
    if (dynamic)
      printDerivedValues(os, *dynamic);
    if (dynamic)
      printDynamicInputs(os, abi, *dynamic);
    for (auto [i, k] : llvm::enumerate(abi.kernels)) {
      os << " *   kernel: " << stringifyKernelStrategy(k.plan.strategy);
      if (k.plan.convert)
        os << " (converts " << elementName(k.srcType) << " to "
           << elementName(k.dstType) << ")";
      if (dynamic && dynamic->kernels[i].runIf)
        os << ", run only where " << dynamic->kernels[i].runIfText
           << " (PyTorch copies there, and views elsewhere)";
      if (style.showChunks && dynamic)
        os << ", chunks chosen at run time";
      else if (style.showChunks)
        os << ", " << (k.plan.parallelLoop ? k.plan.chunks : 1) << " chunk(s)";
      os << "\n";
    }
    if (dynamic)
      os << " *   " << abi.name << "_layouts: each result's layout for these "
         << "arguments (lrt_layout_t)\n";
    os << " */\n";
    std::string views;
    if (dynamic)
      for (const DynamicABI::Conditional &c : dynamic->conditionals)
        views += "int32_t *" + paramName(abi.params[c.output]) + "_view, ";
    os << "lrt_status_t " << abi.name << "("
       << entryParams(abi, EntryKind::DLPack) << views << style.lastParam
       << ");\n";
    if (abi.hasRawEntry || style.rawForAll) {
      os << "lrt_status_t " << abi.name << "_raw("
         << entryParams(abi, EntryKind::Raw);
      if (dynamic)
        for (const std::string &name : dynamic->inputNames)
          os << "int64_t " << name << ", ";
      os << views << style.lastParam << ");\n";
    }
    if (dynamic) {
      os << "lrt_status_t " << abi.name << "_layouts(";
      for (const Param &p : abi.params)
        if (p.role != ParamRole::Output)
          os << entryParamType(p, EntryKind::DLPack) << paramName(p) << ", ";
      os << "lrt_layout_t *layouts);\n";
    }
    // A dynamic view's layout is known at run time only (above).
    for (const ViewResult &v : abi.views) {
      if (dynamic)
        break;
      std::string prefix = abi.name + "_result" + std::to_string(v.result);
      os << "enum { " << prefix << "_rank = " << v.sizes.size() << " };\n";
      printArray(os, prefix + "_sizes", v.sizes);
      printArray(os, prefix + "_strides", v.strides);
      os << "static const int64_t " << prefix
         << "_offset LAYOUTC_UNUSED = " << v.offset << ";\n";
    }
  }
  os << "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
}
