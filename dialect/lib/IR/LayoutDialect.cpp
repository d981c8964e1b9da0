//===- LayoutDialect.cpp - The layout dialect -----------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutAttrs.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

#include "layout/Dialect/Layout/IR/LayoutOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttrs.cpp.inc"

void LayoutDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "layout/Dialect/Layout/IR/LayoutAttrs.cpp.inc"
      >();
}

void LayoutDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
      >();
}

std::string mlir::layout::closestOpName(MLIRContext *context, StringRef name) {
  StringRef typed = name;
  if (!typed.consume_front("layout."))
    return "";
  std::string best;
  unsigned bestDistance = std::max<unsigned>(1, typed.size() / 3) + 1;
  for (RegisteredOperationName op : context->getRegisteredOperations()) {
    StringRef candidate = op.getStringRef();
    if (!candidate.consume_front("layout."))
      continue;
    unsigned distance = typed.edit_distance(candidate, /*AllowReplacements=*/
                                            true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = op.getStringRef().str();
    }
  }
  return best;
}

/// The parse hook of unknown ops: MLIR's own error, plus the closest name.
static ParseResult parseUnknownOp(OpAsmParser &parser, OperationState &state) {
  StringRef name = state.name.getStringRef();
  // The parser prefixes "custom op '<name>' ", as in MLIR's own error.
  InFlightDiagnostic diag = parser.emitError(parser.getNameLoc())
                            << "is unknown";
  std::string suggestion = closestOpName(parser.getContext(), name);
  if (!suggestion.empty())
    diag.attachNote() << "did you mean '" << suggestion << "'?";
  return diag;
}

std::optional<Dialect::ParseOpHook>
LayoutDialect::getParseOperationHook(StringRef opName) const {
  // Called only for names that are not registered ops. A function, not a
  // lambda: the hook is a function_ref and must outlive this call.
  return ParseOpHook(parseUnknownOp);
}

LogicalResult LayoutDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                      unsigned argIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() == kArgNameAttr && !isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << kArgNameAttr << "' of argument #"
                           << argIndex << " must be a string, got "
                           << attr.getValue();
  return success();
}

std::string mlir::layout::formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (!isa<UnknownLoc>(inner))
        return formatLocation(inner);
  if (auto named = dyn_cast<NameLoc>(loc))
    return formatLocation(named.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee());
  return "unknown";
}
