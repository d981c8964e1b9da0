//===- LayoutDialect.cpp - The layout dialect -----------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutAttrs.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypes.h"

#include "mlir/IR/DialectImplementation.h"
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
