//===- LayoutDialect.td - The layout dialect ---------------*- tablegen -*-===//

#ifndef LAYOUT_DIALECT
#define LAYOUT_DIALECT

include "mlir/IR/OpBase.td"

def Layout_Dialect : Dialect {
  let name = "layout";
  let cppNamespace = "::mlir::layout";
  let summary = "PyTorch-style strided views over typed storage";
  let description = [{
    A tensor is a view `(storage, sizes, strides, offset)` over a typed 1-D
    storage; strides and offsets count elements. View ops compute a new
    layout over the same storage with PyTorch 1.13's rules; materializing ops
    (`contiguous`, `clone`, `reshape` when it must, `to`, `copy`, `reduce`)
    move data.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  // `layout.name` on a function argument must be a string.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
    /// Parses the ops of the dialect's namespace that are not registered:
    /// an error, with a note naming the closest registered op's name.
    std::optional<ParseOpHook>
    getParseOperationHook(StringRef opName) const override;
  }];
}

#endif // LAYOUT_DIALECT
