//===- LayoutOps.td - layout dialect ops -------------------*- tablegen -*-===//
//
// Every op of the language contract (shared/design/LANGUAGE.md). View ops
// infer their result type with PyTorch's rules (LayoutAlgebra.h); an explicit
// `-> type` may follow the operand type and must equal the inferred one.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_OPS
#define LAYOUT_OPS

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "layout/Dialect/Layout/IR/LayoutAttrs.td"
include "layout/Dialect/Layout/IR/LayoutTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

//===----------------------------------------------------------------------===//
// Enums and type constraints
//===----------------------------------------------------------------------===//

def Layout_FormatKind : I32EnumAttr<"FormatKind", "memory format", [
    I32EnumAttrCase<"contiguous", 0>,
    I32EnumAttrCase<"channels_last", 1>,
    I32EnumAttrCase<"channels_last_3d", 2>,
    I32EnumAttrCase<"preserve", 3>]> {
  let cppNamespace = "::mlir::layout";
}

def Layout_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"mean", 1>,
    I32EnumAttrCase<"prod", 2>,
    I32EnumAttrCase<"amax", 3>,
    I32EnumAttrCase<"amin", 4>,
    I32EnumAttrCase<"argmax", 5>,
    I32EnumAttrCase<"argmin", 6>]> {
  let cppNamespace = "::mlir::layout";
}

def Layout_Tensor : Type<CPred<"::llvm::isa<::mlir::layout::StridedTensorType>($_self)">,
                         "layout tensor", "::mlir::layout::StridedTensorType">;
def Layout_Storage : Type<CPred<"::llvm::isa<::mlir::layout::StorageType>($_self)">,
                          "layout storage", "::mlir::layout::StorageType">;
def Layout_TensorOrStorage : AnyTypeOf<[Layout_Tensor, Layout_Storage]>;

/// Checks an explicit `-> type` against the inferred result types.
def Layout_DeclaredResultTypes : NativeOpTrait<"DeclaredResultTypes"> {
  let cppNamespace = "::mlir::layout";
}

/// Ops that may allocate a new storage and read their operand's elements:
/// not Pure, so CSE never merges two fresh storages into one.
defvar Layout_NewStorage = MemoryEffects<[MemAlloc, MemRead]>;

class Layout_Op<string mnemonic, list<Trait> traits = []>
    : Op<Layout_Dialect, mnemonic, traits>;

/// Ops whose result type is inferred and may be restated after `->`.
class Layout_InferredOp<string mnemonic, list<Trait> traits = []>
    : Layout_Op<mnemonic, !listconcat(traits,
          [InferTypeOpAdaptor, Layout_DeclaredResultTypes])>;

/// View ops: no data movement, a new (sizes, strides, offset) over the
/// operand's storage.
class Layout_ViewOp<string mnemonic, list<Trait> traits = []>
    : Layout_InferredOp<mnemonic, !listconcat(traits,
          [Pure, ViewLikeOpInterface])> {
  let results = (outs Layout_Tensor:$result);
  let extraClassDeclaration = [{
    ::mlir::Value getViewSource() { return getInput(); }
  }];
}

//===----------------------------------------------------------------------===//
// View ops
//===----------------------------------------------------------------------===//

def Layout_AsStridedOp : Layout_ViewOp<"as_strided", [AttrSizedOperandSegments]> {
  let summary = "view with explicit sizes, strides and storage offset";
  let description = [{
    PyTorch's `as_strided`. The base is a storage or a tensor; the offset is
    absolute in the base's storage. Every element must lie inside the
    storage (a tensor argument's storage is exactly what its view reaches).
    Sizes, strides and the offset may be `index` values known at run time.
    Negative strides are accepted (ext): they are how a folded `flip` reads.

    ```mlir
    %v = layout.as_strided %s [2, 2] strides [4, 2] offset 1 : !layout.storage<12xf32>
    ```
  }];
  let arguments = (ins Layout_TensorOrStorage:$input,
                       Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       Optional<Index>:$offset,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides,
                       I64Attr:$static_offset,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input custom<LayoutIndexList>($sizes, $static_sizes)
    `strides` custom<LayoutIndexList>($strides, $static_strides)
    `offset` custom<DynamicOffset>($offset, $static_offset)
    attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input,
                   "const ::mlir::layout::StridedLayout &":$layout)>
  ];
  let hasVerifier = 1;
}

def Layout_ViewShapeOp : Layout_ViewOp<"view"> {
  let summary = "view with a new shape (torch.Tensor.view)";
  let description = [{
    One `-1` is inferred. An error when PyTorch's `view` fails: the new shape
    must tile the operand's contiguous chunks (use `layout.reshape`).

    ```mlir
    %v = layout.view %t [6, -1] : !layout.tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$shape,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $shape attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_PermuteOp : Layout_ViewOp<"permute"> {
  let summary = "reorder dims (torch.Tensor.permute)";
  let description = [{
    ```mlir
    %p = layout.permute %t [2, 0, 1] : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$dims,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $dims attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_TransposeOp : Layout_ViewOp<"transpose"> {
  let summary = "swap two dims (torch.Tensor.transpose)";
  let description = [{
    Negative dims wrap.

    ```mlir
    %t2 = layout.transpose %t 0, 2 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim0, I64Attr:$dim1,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $dim0 `,` $dim1 attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_MovedimOp : Layout_ViewOp<"movedim"> {
  let summary = "move one dim (torch.movedim)";
  let description = [{
    ```mlir
    %m = layout.movedim %t 0 to 2 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$source,
                       I64Attr:$destination,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $source `to` $destination attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_SliceOp : Layout_ViewOp<"slice"> {
  let summary = "Python slicing start:end:step along one dim";
  let description = [{
    `t[..., start:end:step]`: any bound may be omitted, negatives wrap, bounds
    clamp; the step must be positive.

    ```mlir
    %s = layout.slice %t dim 1 [1 : 100 : 2] : !layout.tensor<4x8xf32>
    %h = layout.slice %t dim 0 [: 2] : !layout.tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim,
                       OptionalAttr<I64Attr>:$start, OptionalAttr<I64Attr>:$end,
                       DefaultValuedAttr<I64Attr, "1">:$step,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim custom<SliceBounds>($start, $end, $step)
    attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_SelectOp : Layout_ViewOp<"select"> {
  let summary = "index one dim and drop it (torch.select)";
  let description = [{
    ```mlir
    %r = layout.select %t dim 1 index -1 : !layout.tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim, I64Attr:$index,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim `index` $index attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_NarrowOp : Layout_ViewOp<"narrow"> {
  let summary = "a contiguous range of one dim (torch.narrow)";
  let description = [{
    ```mlir
    %n = layout.narrow %t dim 2 start 1 length 2 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim, I64Attr:$start,
                       I64Attr:$length,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim `start` $start `length` $length attr-dict `:`
    qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_ExpandOp : Layout_ViewOp<"expand"> {
  let summary = "broadcast with stride 0 (torch.Tensor.expand)";
  let description = [{
    `-1` keeps a dim; new leading dims may be added.

    ```mlir
    %e = layout.expand %t [5, -1, -1, -1] : !layout.tensor<1x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$sizes,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $sizes attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_SqueezeOp : Layout_ViewOp<"squeeze"> {
  let summary = "drop size-1 dims (torch.squeeze)";
  let description = [{
    `[]` drops every size-1 dim; `[d, ...]` drops the listed dims that have
    size 1 (listed dims of another size stay, as in PyTorch).

    ```mlir
    %q = layout.squeeze %t [] : !layout.tensor<1x3x1xf32>
    %r = layout.squeeze %t [2] : !layout.tensor<1x3x1xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$dims,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $dims attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_UnsqueezeOp : Layout_ViewOp<"unsqueeze"> {
  let summary = "insert a size-1 dim (torch.unsqueeze)";
  let description = [{
    ```mlir
    %u = layout.unsqueeze %t dim 1 : !layout.tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_UnflattenOp : Layout_ViewOp<"unflatten"> {
  let summary = "split one dim into several (torch.unflatten)";
  let description = [{
    ```mlir
    %u = layout.unflatten %t dim 2 [2, 2] : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim,
                       DenseI64ArrayAttr:$sizes,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim $sizes attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_DiagonalOp : Layout_ViewOp<"diagonal"> {
  let summary = "a diagonal as the last dim (torch.diagonal)";
  let description = [{
    ```mlir
    %d = layout.diagonal %t offset 1 dims 1, 2 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$offset, I64Attr:$dim1,
                       I64Attr:$dim2,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `offset` $offset `dims` $dim1 `,` $dim2 attr-dict `:`
    qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_UnfoldOp : Layout_ViewOp<"unfold"> {
  let summary = "sliding windows along one dim (torch.Tensor.unfold)";
  let description = [{
    ```mlir
    %w = layout.unfold %t dim 2 size 2 step 1 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim, I64Attr:$size,
                       I64Attr:$step,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input `dim` $dim `size` $size `step` $step attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_FlipOp : Layout_ViewOp<"flip"> {
  let summary = "(ext) reverse dims as a negative-stride view";
  let description = [{
    NumPy's `flip`: a view with negated strides whose offset points at the
    last element along each flipped dim. Its values equal `torch.flip`, which
    copies.

    ```mlir
    %f = layout.flip %t [0] : !layout.tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$dims,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let assemblyFormat = [{
    $input $dims attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_SplitOp : Layout_InferredOp<"split", [Pure]> {
  let summary = "split one dim into consecutive views (torch.split)";
  let description = [{
    One result per size; the sizes must sum to the dim's size.

    ```mlir
    %a, %b = layout.split %t dim 0 [1, 1] : !layout.tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$dim,
                       DenseI64ArrayAttr:$sizes,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Variadic<Layout_Tensor>:$results);
  let assemblyFormat = [{
    $input `dim` $dim $sizes attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

//===----------------------------------------------------------------------===//
// Ops that may copy
//===----------------------------------------------------------------------===//

def Layout_ReshapeOp : Layout_InferredOp<"reshape", [Layout_NewStorage]> {
  let summary = "view when possible, else a contiguous copy (torch.reshape)";
  let description = [{
    ```mlir
    %r = layout.reshape %t [6, 4] : !layout.tensor<4x6xf32, strided<[1, 4]>>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, DenseI64ArrayAttr:$shape,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input $shape attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_FlattenOp : Layout_InferredOp<"flatten", [Layout_NewStorage]> {
  let summary = "merge dims start..end (torch.flatten)";
  let description = [{
    A view when possible, else a contiguous copy.

    ```mlir
    %f = layout.flatten %t dims 1 to 2 : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, I64Attr:$start_dim,
                       I64Attr:$end_dim,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input `dims` $start_dim `to` $end_dim attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_ContiguousOp : Layout_InferredOp<"contiguous", [Layout_NewStorage]> {
  let summary = "the operand if already in the format, else a copy";
  let description = [{
    `torch.Tensor.contiguous(memory_format)`; the format is `contiguous`
    (default), `channels_last` (rank 4) or `channels_last_3d` (rank 5).
    Size-1 dims are ignored when checking the format, as in PyTorch.

    ```mlir
    %c = layout.contiguous %p : !layout.tensor<4x3xf32, strided<[1, 4]>>
    %n = layout.contiguous %x channels_last : !layout.tensor<2x3x4x5xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input,
                       OptionalAttr<Layout_FormatKind>:$memory_format,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input `` custom<OptionalFormat>($memory_format) attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
  let extraClassDeclaration = [{
    FormatKind getFormat() {
      return getMemoryFormat().value_or(FormatKind::contiguous);
    }
  }];
}

def Layout_CloneOp : Layout_InferredOp<"clone", [Layout_NewStorage]> {
  let summary = "always a copy into new storage (torch.clone)";
  let description = [{
    `preserve` (default) keeps the strides of a non-overlapping and dense
    operand and otherwise picks dense strides in the operand's dim order;
    `contiguous`, `channels_last`, `channels_last_3d` force a format.

    ```mlir
    %c = layout.clone %t : !layout.tensor<3x4xf32>
    %d = layout.clone %t contiguous : !layout.tensor<4x3xf32, strided<[1, 4]>>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input,
                       OptionalAttr<Layout_FormatKind>:$memory_format,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input `` custom<OptionalFormat>($memory_format) attr-dict `:` qualified(type($input))
    `` custom<DeclaredTypes>($declared_types)
  }];
  let extraClassDeclaration = [{
    FormatKind getFormat() {
      return getMemoryFormat().value_or(FormatKind::preserve);
    }
  }];
}

def Layout_ToOp : Layout_InferredOp<"to", [Layout_NewStorage]> {
  let summary = "dtype conversion (torch.Tensor.to(dtype))";
  let description = [{
    The operand itself when the dtype is unchanged; otherwise a new storage
    whose strides follow `memory_format=preserve`. Fused with any layout
    change it is combined with.

    ```mlir
    %h = layout.to %t f16 : !layout.tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, TypeAttr:$dtype,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input $dtype attr-dict `:` qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

def Layout_CopyOp : Layout_Op<"copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "dst.copy_(src): write src into dst's elements";
  let description = [{
    `src` is broadcast to `dst`'s shape and converted to its dtype. Writing
    into a `dst` that overlaps itself, or that partially overlaps `src`, is
    an error (PyTorch's messages); `layout-plan-copies` checks it.

    ```mlir
    layout.copy %src, %dst : !layout.tensor<4xf32>, !layout.tensor<3x4xf16>
    ```
  }];
  let arguments = (ins Layout_Tensor:$src, Layout_Tensor:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` qualified(type($src)) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Layout_ReduceOp : Layout_InferredOp<"reduce", [Layout_NewStorage]> {
  let summary = "reduction over dims of any strided view";
  let description = [{
    Kinds `sum, mean, prod, amax, amin` over a list of dims (`[]` = all), and
    `argmax, argmin` over one dim (or `[]`: the flattened tensor; i64
    result). The result is a new row-major tensor. Integer `sum`/`prod` give
    i64, f16/bf16 `sum` gives f16/bf16 (f32 accumulation); `mean` of
    integers is an error.

    ```mlir
    %r = layout.reduce sum %t dims [1, 2] keepdim : !layout.tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Layout_ReduceKind:$kind, Layout_Tensor:$input,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keepdim,
                       OptionalAttr<TypeArrayAttr>:$declared_types);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `dims` $dims (`keepdim` $keepdim^)? attr-dict `:`
    qualified(type($input)) `` custom<DeclaredTypes>($declared_types)
  }];
}

//===----------------------------------------------------------------------===//
// Planned copies
//===----------------------------------------------------------------------===//

def Layout_MaterializeOp : Layout_Op<"materialize", [Layout_NewStorage]> {
  let summary = "a copy that layout-plan-copies decided must run";
  let description = [{
    Reads every element of `input` (any strided view) and writes it, converted
    to the result's dtype, into a new storage with the result's layout (non-
    overlapping and dense, offset 0). `origin` names the op that asked for
    the copy and `reason` says why data has to move. `fused` lists the
    locations of earlier copies folded into this one.

    ```mlir
    %c = layout.materialize %v {origin = "layout.contiguous",
           reason = "operand strides [1, 4] are not row-major"}
         : !layout.tensor<4x3xf32, strided<[1, 4]>> -> !layout.tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Layout_Tensor:$input, StrAttr:$origin, StrAttr:$reason);
  let results = (outs Layout_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // LAYOUT_OPS
