//===- LayoutTypes.td - layout dialect types ---------------*- tablegen -*-===//

#ifndef LAYOUT_TYPES
#define LAYOUT_TYPES

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Layout_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Layout_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Layout_StorageType : Layout_Type<"Storage", "storage"> {
  let summary = "typed 1-D storage";
  let description = [{
    A typed, contiguous 1-D block of `size` elements (`?` when unknown).

    ```mlir
    !layout.storage<24xf32>
    !layout.storage<?xf16>
    ```
  }];
  let parameters = (ins "int64_t":$size, "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasStaticSize() const { return getSize() != ::mlir::ShapedType::kDynamic; }
  }];
}

def Layout_StridedTensorType : Layout_Type<"StridedTensor", "tensor"> {
  let summary = "a strided view over a typed storage";
  let description = [{
    PyTorch's view metadata: sizes, strides and a storage offset, counted in
    elements, as a builtin `strided<[...], offset: ...>` layout. The type *is*
    its (sizes, strides, offset, element type): the layout is always stored,
    and the printer omits it when it is row-major (PyTorch's contiguous
    strides, size-0 dims counting as 1) with offset 0. `?` marks a dynamic
    size, stride or offset.

    ```mlir
    !layout.tensor<2x3x4xf32>
    !layout.tensor<4x2x3xf32, strided<[1, 12, 4], offset: 0>>
    !layout.tensor<?x3xf32, strided<[?, 1], offset: ?>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::StridedLayoutAttr":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        "::mlir::StridedLayoutAttr":$layout), [{
      return $_get(elementType.getContext(), shape, elementType, layout);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Row-major view of a fresh storage (PyTorch's contiguous strides).
    static StridedTensorType getContiguous(::llvm::ArrayRef<int64_t> shape,
                                           ::mlir::Type elementType);
    /// The type of a view with this layout.
    static StridedTensorType get(const StridedLayout &layout,
                                 ::mlir::Type elementType);
    static StridedTensorType getChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        const StridedLayout &layout, ::mlir::Type elementType);
    int64_t getRank() const { return getShape().size(); }
    ::llvm::ArrayRef<int64_t> getStrides() const {
      return getLayout().getStrides();
    }
    int64_t getOffset() const { return getLayout().getOffset(); }
    /// (sizes, strides, offset) for the layout algebra.
    StridedLayout getStridedLayout() const;
    bool hasStaticLayout() const { return getStridedLayout().isStatic(); }
    /// Bytes per element (i1 counts as 1 byte, as in PyTorch's bool).
    int64_t getElementBytes() const;
  }];
}

#endif // LAYOUT_TYPES
