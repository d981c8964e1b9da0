//===- LayoutOps.cpp - layout dialect ops ---------------------------------===//
//
// Result-type inference for every op delegates to the layout algebra, so the
// ops, the passes and the backends share one statement of PyTorch's rules.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "SymbolicRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::layout;
using rules::i64;

#include "layout/Dialect/Layout/IR/LayoutEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

MemoryFormat mlir::layout::toMemoryFormat(FormatKind kind) {
  switch (kind) {
  case FormatKind::contiguous:
    return MemoryFormat::Contiguous;
  case FormatKind::channels_last:
    return MemoryFormat::ChannelsLast;
  case FormatKind::channels_last_3d:
    return MemoryFormat::ChannelsLast3d;
  case FormatKind::preserve:
    return MemoryFormat::Preserve;
  }
  llvm_unreachable("unknown format kind");
}

namespace {
/// Reports inference errors at the op's location, prefixed like verifier
/// messages ("'layout.view' op ...").
struct InferContext {
  std::optional<Location> loc;
  StringRef opName;

  LogicalResult error(const Twine &message) const {
    if (loc)
      mlir::emitError(*loc) << "'" << opName << "' op " << message;
    return failure();
  }

  template <typename T> FailureOr<T> unwrap(const Fallible<T> &f) const {
    if (!f) {
      (void)error(f.message());
      return failure();
    }
    return *f;
  }

  /// Appends the result type of `layout` over `element`, or reports why it
  /// is no type: a view the algebra accepts can still need more bytes than
  /// int64_t counts (2^62 elements of f32 through a stride 0, a dtype
  /// conversion that widens, a reduction to i64). StridedTensorType::get
  /// would assert, or in a release build make a type that breaks its own
  /// invariants.
  LogicalResult push(SmallVectorImpl<Type> &types, const StridedLayout &layout,
                     Type element) const {
    auto emit = [&]() -> InFlightDiagnostic {
      if (!loc)
        return InFlightDiagnostic();
      return mlir::emitError(*loc) << "'" << opName << "' op result type: ";
    };
    StridedTensorType type =
        StridedTensorType::getChecked(emit, layout, element);
    if (!type)
      return failure();
    types.push_back(type);
    return success();
  }

  /// The operand's layout, which may be dynamic.
  FailureOr<StridedLayout> operandLayout(Value v) const {
    auto type = dyn_cast<StridedTensorType>(v.getType());
    if (!type) {
      (void)error(Twine("expected a !layout.tensor operand, got ") +
                  dtypeName(v.getType()));
      return failure();
    }
    return type.getStridedLayout();
  }
};
} // namespace

template <typename OpTy>
static InferContext inferContext(std::optional<Location> loc) {
  return InferContext{loc, OpTy::getOperationName()};
}

/// The element type of a !layout.tensor or !layout.storage, else null.
static Type elementTypeOf(Value v) {
  if (auto t = dyn_cast<StridedTensorType>(v.getType()))
    return t.getElementType();
  auto s = dyn_cast<StorageType>(v.getType());
  return s ? s.getElementType() : Type();
}

/// Common tail of view-op inference: wraps the algebra's answer in a type.
static LogicalResult inferView(const InferContext &ctx, Value input,
                               const Fallible<StridedLayout> &result,
                               SmallVectorImpl<Type> &types) {
  FailureOr<StridedLayout> l = ctx.unwrap(result);
  if (failed(l))
    return failure();
  return ctx.push(types, *l, elementTypeOf(input));
}

//===----------------------------------------------------------------------===//
// Symbolic layouts of dynamic values
//===----------------------------------------------------------------------===//

/// Infers the result of a one-operand op: through the static algebra when the
/// operand's layout is static, else through its symbolic rule, the result
/// type saying what is known statically.
template <typename OpTy, typename A, typename StaticFn>
static LogicalResult inferEither(std::optional<Location> loc, A adaptor,
                                 SmallVectorImpl<Type> &types,
                                 StaticFn staticFn, Type element = {},
                                 unsigned results = 1) {
  InferContext ctx = inferContext<OpTy>(loc);
  Value input = adaptor.getInput();
  FailureOr<StridedLayout> in = ctx.operandLayout(input);
  if (failed(in))
    return failure();
  if (!element)
    element = elementTypeOf(input);
  if (in->isStatic())
    return staticFn(ctx, *in);
  SymbolicLayouts layouts;
  Fallible<SymLayout> sym = layouts.get(input);
  if (!sym)
    return ctx.error(sym.message());
  for (unsigned i = 0; i < results; ++i) {
    Fallible<SymLayout> r =
        rules::symbolicRule<OpTy>(adaptor, layouts.table(), *sym, i);
    if (!r)
      return ctx.error(r.message());
    if (failed(ctx.push(types, r->project(), element)))
      return failure();
  }
  return success();
}

LogicalResult mlir::layout::verifyDeclaredResultTypes(Operation *op) {
  auto declared = op->getAttrOfType<ArrayAttr>("declared_types");
  if (!declared)
    return success();
  SmallVector<Type> types;
  for (Attribute a : declared)
    types.push_back(cast<TypeAttr>(a).getValue());
  if (TypeRange(types) == op->getResultTypes())
    return success();
  InFlightDiagnostic diag = op->emitOpError("declared result type");
  diag << (types.size() == 1 ? " " : "s ");
  llvm::interleaveComma(types, diag);
  diag << " does not match the inferred type";
  diag << (op->getNumResults() == 1 ? " " : "s ");
  llvm::interleaveComma(op->getResultTypes(), diag);
  return diag;
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `-> type, ...` (optional when parsing; always printed).
static ParseResult parseDeclaredTypes(OpAsmParser &parser,
                                      ArrayAttr &declared) {
  if (failed(parser.parseOptionalArrow()))
    return success();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  SmallVector<Attribute> attrs;
  for (Type t : types)
    attrs.push_back(TypeAttr::get(t));
  declared = parser.getBuilder().getArrayAttr(attrs);
  return success();
}

static void printDeclaredTypes(OpAsmPrinter &printer, Operation *op,
                               ArrayAttr) {
  if (op->getNumResults() == 0)
    return;
  printer << " -> ";
  llvm::interleaveComma(op->getResultTypes(), printer);
}

/// parseDynamicIndexList, refusing the literal INT64_MIN: it is the value
/// that marks an SSA entry, so `strides [-9223372036854775808]` would read as
/// a '?' stride with no value.
static ParseResult
parseLayoutIndexList(OpAsmParser &parser,
                     SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
                     DenseI64ArrayAttr &integers) {
  SMLoc loc = parser.getCurrentLocation();
  if (parseDynamicIndexList(parser, values, integers))
    return failure();
  if (static_cast<size_t>(llvm::count(integers.asArrayRef(),
                                      ShapedType::kDynamic)) != values.size())
    return parser.emitError(loc)
           << "-9223372036854775808 is out of range: that value marks an "
              "entry given as an SSA value";
  return success();
}

static void printLayoutIndexList(OpAsmPrinter &printer, Operation *op,
                                 OperandRange values,
                                 DenseI64ArrayAttr integers) {
  printDynamicIndexList(printer, op, values, integers.asArrayRef());
}

/// An integer or an `index` SSA value (as_strided's offset).
static ParseResult
parseDynamicOffset(OpAsmParser &parser,
                   std::optional<OpAsmParser::UnresolvedOperand> &operand,
                   IntegerAttr &value) {
  OpAsmParser::UnresolvedOperand v;
  OptionalParseResult r = parser.parseOptionalOperand(v);
  if (r.has_value()) {
    if (failed(*r))
      return failure();
    operand = v;
    value = parser.getBuilder().getI64IntegerAttr(ShapedType::kDynamic);
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  int64_t offset;
  if (parser.parseInteger(offset))
    return failure();
  if (offset == ShapedType::kDynamic)
    return parser.emitError(loc)
           << "-9223372036854775808 is out of range: that value marks an "
              "offset given as an SSA value";
  value = parser.getBuilder().getI64IntegerAttr(offset);
  return success();
}

static void printDynamicOffset(OpAsmPrinter &printer, Operation *,
                               Value operand, IntegerAttr value) {
  if (operand)
    printer << operand;
  else
    printer << value.getInt();
}

/// `[start : end : step]` with every part optional.
static ParseResult parseSliceBounds(OpAsmParser &parser, IntegerAttr &start,
                                    IntegerAttr &end, IntegerAttr &step) {
  Builder &b = parser.getBuilder();
  auto optionalInt = [&](IntegerAttr &attr) -> ParseResult {
    int64_t v;
    OptionalParseResult r = parser.parseOptionalInteger(v);
    if (r.has_value()) {
      if (failed(*r))
        return failure();
      attr = b.getI64IntegerAttr(v);
    }
    return success();
  };
  if (parser.parseLSquare() || optionalInt(start) || parser.parseColon() ||
      optionalInt(end))
    return failure();
  if (succeeded(parser.parseOptionalColon())) {
    SMLoc loc = parser.getCurrentLocation();
    if (optionalInt(step))
      return failure();
    if (!step)
      return parser.emitError(loc, "expected a slice step after ':'");
  }
  // Always materialize the step so inference never sees a missing value.
  if (!step)
    step = b.getI64IntegerAttr(1);
  return parser.parseRSquare();
}

static void printSliceBounds(OpAsmPrinter &printer, Operation *,
                             IntegerAttr start, IntegerAttr end,
                             IntegerAttr step) {
  printer << "[";
  if (start)
    printer << start.getInt() << " ";
  printer << ":";
  if (end)
    printer << " " << end.getInt();
  if (step && step.getInt() != 1)
    printer << " : " << step.getInt();
  printer << "]";
}

/// An optional memory-format keyword.
static ParseResult parseOptionalFormat(OpAsmParser &parser,
                                       FormatKindAttr &format) {
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(
          &keyword,
          {"contiguous", "channels_last", "channels_last_3d", "preserve"})))
    return success();
  format =
      FormatKindAttr::get(parser.getContext(), *symbolizeFormatKind(keyword));
  return success();
}

static void printOptionalFormat(OpAsmPrinter &printer, Operation *,
                                FormatKindAttr format) {
  if (format)
    printer << " " << stringifyFormatKind(format.getValue());
}

//===----------------------------------------------------------------------===//
// Aliasing
//===----------------------------------------------------------------------===//

/// Whether a may-copy op with a static operand layout copies; nullopt when
/// the op is invalid.
static std::optional<bool> staticCopies(Operation *op,
                                        const StridedLayout &in) {
  Fallible<MaybeCopy> r =
      llvm::TypeSwitch<Operation *, Fallible<MaybeCopy>>(op)
          .Case([&](ReshapeOp reshape) {
            return layout::reshape(in, reshape.getShape());
          })
          .Case([&](FlattenOp flatten) {
            return layout::flatten(in,
                                   static_cast<int64_t>(flatten.getStartDim()),
                                   static_cast<int64_t>(flatten.getEndDim()));
          })
          .Case([&](ContiguousOp contiguous) {
            return layout::contiguous(in,
                                      toMemoryFormat(contiguous.getFormat()));
          });
  if (!r)
    return std::nullopt;
  return r->copies;
}

Value mlir::layout::getAliasedOperand(Value result) {
  Operation *op = result.getDefiningOp();
  if (!op)
    return {};
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    return view.getViewSource();
  auto layoutOf = [](Value v) -> std::optional<StridedLayout> {
    auto t = dyn_cast<StridedTensorType>(v.getType());
    if (!t || !t.hasStaticLayout())
      return std::nullopt;
    return t.getStridedLayout();
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](SplitOp split) { return split.getInput(); })
      .Case<ReshapeOp, FlattenOp, ContiguousOp>([&](auto op) -> Value {
        std::optional<StridedLayout> in = layoutOf(op.getInput());
        if (!in) {
          // Dynamic: a view where the algebra proves it one for every size.
          SymbolicLayouts layouts;
          const SymMaybeCopy *r = layouts.mayCopy(op.getResult());
          return r && layouts.table().decide(r->copies) == false ? op.getInput()
                                                                 : Value();
        }
        return staticCopies(op, *in) == false ? op.getInput() : Value();
      })
      .Case([&](ToOp to) -> Value {
        return elementTypeOf(to.getInput()) == to.getDtype() ? to.getInput()
                                                             : Value();
      })
      .Default([](Operation *) { return Value(); });
}

Value mlir::layout::getStorageRoot(Value v) {
  while (Value source = getAliasedOperand(v))
    v = source;
  return v;
}

std::optional<int64_t> mlir::layout::getStorageSize(Value root) {
  if (auto storage = dyn_cast<StorageType>(root.getType())) {
    if (!storage.hasStaticSize())
      return std::nullopt;
    return storage.getSize();
  }
  auto tensor = dyn_cast<StridedTensorType>(root.getType());
  if (!tensor || !tensor.hasStaticLayout())
    return std::nullopt;
  Fallible<int64_t> size = requiredStorageSize(tensor.getStridedLayout());
  if (!size)
    return std::nullopt;
  return *size;
}

//===----------------------------------------------------------------------===//
// View ops
//===----------------------------------------------------------------------===//

LogicalResult AsStridedOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  InferContext ctx = inferContext<AsStridedOp>(loc);
  // Inference runs before the operand constraints are verified: the parser
  // resolves `%v : T` (a forward reference included) to any type T.
  Type inputType = adaptor.getInput().getType();
  if (!isa<StorageType, StridedTensorType>(inputType))
    return ctx.error("expected a !layout.storage or !layout.tensor operand, "
                     "got " +
                     dtypeName(inputType));
  ArrayRef<int64_t> sizes = adaptor.getStaticSizes();
  ArrayRef<int64_t> strides = adaptor.getStaticStrides();
  int64_t offset = static_cast<int64_t>(adaptor.getStaticOffset());
  StridedLayout l(sizes, strides, offset);
  if (sizes.size() != strides.size())
    return ctx.error(
        "mismatch in length of strides and shape: " + Twine(sizes.size()) +
        " sizes but " + Twine(strides.size()) + " strides");
  for (int64_t s : sizes)
    if (s != kDynamic && s < 0)
      return ctx.error("Trying to create tensor with negative dimension " +
                       Twine(s) + ": " + formatDims(sizes));
  if (offset != kDynamic && offset < 0)
    return ctx.error("Tensor: invalid storage offset " + Twine(offset));
  if (l.isStatic()) {
    Fallible<StridedLayout> checkedLayout = asStrided(sizes, strides, offset);
    if (failed(ctx.unwrap(checkedLayout)))
      return failure();
    Value root = getStorageRoot(adaptor.getInput());
    if (std::optional<int64_t> size = getStorageSize(root)) {
      int64_t itemBytes =
          std::max<int64_t>(1, elementTypeOf(root).getIntOrFloatBitWidth() / 8);
      if (failed(ctx.unwrap(checkInBounds(l, *size, itemBytes, "as_strided"))))
        return failure();
    }
  }
  return ctx.push(types, l, elementTypeOf(adaptor.getInput()));
}

void AsStridedOp::build(OpBuilder &b, OperationState &state, Value input,
                        const StridedLayout &layout) {
  build(b, state, input, ValueRange(), ValueRange(), Value(),
        b.getDenseI64ArrayAttr(layout.sizes),
        b.getDenseI64ArrayAttr(layout.strides),
        b.getI64IntegerAttr(layout.offset), ArrayAttr());
}

LogicalResult AsStridedOp::verify() {
  auto countDynamic = [](ArrayRef<int64_t> v) {
    return llvm::count(v, ShapedType::kDynamic);
  };
  if (countDynamic(getStaticSizes()) != static_cast<int64_t>(getSizes().size()))
    return emitOpError("expected ")
           << countDynamic(getStaticSizes()) << " dynamic size values, got "
           << getSizes().size();
  if (countDynamic(getStaticStrides()) !=
      static_cast<int64_t>(getStrides().size()))
    return emitOpError("expected ")
           << countDynamic(getStaticStrides()) << " dynamic stride values, got "
           << getStrides().size();
  bool dynamicOffset =
      static_cast<int64_t>(getStaticOffset()) == ShapedType::kDynamic;
  if (dynamicOffset != static_cast<bool>(getOffset()))
    return emitOpError("dynamic offset marker and offset operand disagree");
  return success();
}

#define LAYOUT_INFER(OP)                                                       \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &types)

/// Infers a view op whose result is `fn(operandLayout)` for a static
/// operand, else its symbolic rule's.
template <typename OpTy, typename A, typename Fn>
static LogicalResult inferUnary(std::optional<Location> loc, A adaptor,
                                SmallVectorImpl<Type> &types, Fn fn) {
  return inferEither<OpTy>(
      loc, adaptor, types,
      [&](const InferContext &ctx, const StridedLayout &in) {
        return inferView(ctx, adaptor.getInput(), fn(in), types);
      });
}

LAYOUT_INFER(ViewShapeOp) {
  return inferUnary<ViewShapeOp>(
      loc, adaptor, types,
      [&](const StridedLayout &in) { return view(in, adaptor.getShape()); });
}

LAYOUT_INFER(PermuteOp) {
  return inferUnary<PermuteOp>(
      loc, adaptor, types,
      [&](const StridedLayout &in) { return permute(in, adaptor.getDims()); });
}

LAYOUT_INFER(TransposeOp) {
  return inferUnary<TransposeOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return transpose(in, i64(adaptor.getDim0()), i64(adaptor.getDim1()));
      });
}

LAYOUT_INFER(MovedimOp) {
  return inferUnary<MovedimOp>(loc, adaptor, types,
                               [&](const StridedLayout &in) {
                                 return movedim(in, i64(adaptor.getSource()),
                                                i64(adaptor.getDestination()));
                               });
}

LAYOUT_INFER(SliceOp) {
  auto opt = [](std::optional<uint64_t> v) -> std::optional<int64_t> {
    if (!v)
      return std::nullopt;
    return i64(*v);
  };
  return inferUnary<SliceOp>(loc, adaptor, types, [&](const StridedLayout &in) {
    return slice(in, i64(adaptor.getDim()), opt(adaptor.getStart()),
                 opt(adaptor.getEnd()),
                 adaptor.getStepAttr() ? i64(adaptor.getStep()) : 1);
  });
}

LAYOUT_INFER(SelectOp) {
  return inferUnary<SelectOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return select(in, i64(adaptor.getDim()), i64(adaptor.getIndex()));
      });
}

LAYOUT_INFER(NarrowOp) {
  return inferUnary<NarrowOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return narrow(in, i64(adaptor.getDim()), i64(adaptor.getStart()),
                      i64(adaptor.getLength()));
      });
}

LAYOUT_INFER(ExpandOp) {
  return inferUnary<ExpandOp>(
      loc, adaptor, types,
      [&](const StridedLayout &in) { return expand(in, adaptor.getSizes()); });
}

LAYOUT_INFER(SqueezeOp) {
  return inferUnary<SqueezeOp>(
      loc, adaptor, types,
      [&](const StridedLayout &in) { return squeeze(in, adaptor.getDims()); });
}

LAYOUT_INFER(UnsqueezeOp) {
  return inferUnary<UnsqueezeOp>(loc, adaptor, types,
                                 [&](const StridedLayout &in) {
                                   return unsqueeze(in, i64(adaptor.getDim()));
                                 });
}

LAYOUT_INFER(UnflattenOp) {
  return inferUnary<UnflattenOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return unflatten(in, i64(adaptor.getDim()), adaptor.getSizes());
      });
}

LAYOUT_INFER(DiagonalOp) {
  return inferUnary<DiagonalOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return diagonal(in, i64(adaptor.getOffset()), i64(adaptor.getDim1()),
                        i64(adaptor.getDim2()));
      });
}

LAYOUT_INFER(UnfoldOp) {
  return inferUnary<UnfoldOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return unfold(in, i64(adaptor.getDim()), i64(adaptor.getSize()),
                      i64(adaptor.getStep()));
      });
}

LAYOUT_INFER(FlipOp) {
  return inferUnary<FlipOp>(loc, adaptor, types, [&](const StridedLayout &in) {
    return flip(in, adaptor.getDims());
  });
}

LAYOUT_INFER(SplitOp) {
  Type element = elementTypeOf(adaptor.getInput());
  return inferEither<SplitOp>(
      loc, adaptor, types,
      [&](const InferContext &ctx, const StridedLayout &in) -> LogicalResult {
        auto parts =
            ctx.unwrap(split(in, i64(adaptor.getDim()), adaptor.getSizes()));
        if (failed(parts))
          return failure();
        for (const StridedLayout &part : *parts)
          if (failed(ctx.push(types, part, element)))
            return failure();
        return success();
      },
      element, adaptor.getSizes().size());
}

//===----------------------------------------------------------------------===//
// Ops that may copy
//===----------------------------------------------------------------------===//

/// The layout a may-copy op produces, whether it copies or not.
static Fallible<StridedLayout> resultLayout(const Fallible<MaybeCopy> &r) {
  if (!r)
    return fail(r.message());
  return r->layout;
}

LAYOUT_INFER(ReshapeOp) {
  return inferUnary<ReshapeOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return resultLayout(reshape(in, adaptor.getShape()));
      });
}

LAYOUT_INFER(FlattenOp) {
  return inferUnary<FlattenOp>(
      loc, adaptor, types, [&](const StridedLayout &in) {
        return resultLayout(
            flatten(in, i64(adaptor.getStartDim()), i64(adaptor.getEndDim())));
      });
}

static FormatKind formatOr(std::optional<FormatKind> kind,
                           FormatKind fallback) {
  return kind.value_or(fallback);
}

LAYOUT_INFER(ContiguousOp) {
  MemoryFormat format = toMemoryFormat(
      formatOr(adaptor.getMemoryFormat(), FormatKind::contiguous));
  if (format == MemoryFormat::Preserve)
    return inferContext<ContiguousOp>(loc).error(
        "preserve is not a valid format for contiguous; use contiguous, "
        "channels_last or channels_last_3d");
  return inferUnary<ContiguousOp>(loc, adaptor, types,
                                  [&](const StridedLayout &in) {
                                    return resultLayout(contiguous(in, format));
                                  });
}

LAYOUT_INFER(CloneOp) {
  MemoryFormat format =
      toMemoryFormat(formatOr(adaptor.getMemoryFormat(), FormatKind::preserve));
  return inferUnary<CloneOp>(loc, adaptor, types, [&](const StridedLayout &in) {
    return cloneLayout(in, format);
  });
}

LAYOUT_INFER(ToOp) {
  InferContext ctx = inferContext<ToOp>(loc);
  Type dtype = adaptor.getDtype();
  if (!isSupportedElementType(dtype))
    return ctx.error("unsupported dtype " + dtypeName(dtype) +
                     "; expected one of i1, i8, i16, i32, i64, ui8, f16, "
                     "bf16, f32, f64");
  // Same dtype: PyTorch returns the operand itself.
  if (dtype == elementTypeOf(adaptor.getInput())) {
    if (failed(ctx.operandLayout(adaptor.getInput())))
      return failure();
    types.push_back(adaptor.getInput().getType());
    return success();
  }
  return inferEither<ToOp>(
      loc, adaptor, types,
      [&](const InferContext &ctx, const StridedLayout &in) -> LogicalResult {
        FailureOr<StridedLayout> out = ctx.unwrap(toLayout(in));
        if (failed(out))
          return failure();
        return ctx.push(types, *out, dtype);
      },
      dtype);
}

LogicalResult CopyOp::verify() {
  auto src = cast<StridedTensorType>(getSrc().getType());
  auto dst = cast<StridedTensorType>(getDst().getType());
  if (!src.hasStaticLayout() || !dst.hasStaticLayout()) {
    // Broadcasting needs the sizes only: what fails for every size is an
    // error now, the rest a run-time check.
    SymbolicLayouts layouts;
    Fallible<SymLayout> s = layouts.get(getSrc());
    Fallible<SymLayout> d = layouts.get(getDst());
    if (!s || !d)
      return emitOpError(!s ? s.message() : d.message());
    Fallible<SymLayout> b = broadcastTo(layouts.table(), *s, d->sizes);
    if (!b)
      return emitOpError(b.message());
    return success();
  }
  Fallible<StridedLayout> b =
      broadcastTo(src.getStridedLayout(), dst.getShape());
  if (!b)
    return emitOpError(b.message());
  return success();
}

LAYOUT_INFER(ReduceOp) {
  InferContext ctx = inferContext<ReduceOp>(loc);
  FailureOr<StridedLayout> operand = ctx.operandLayout(adaptor.getInput());
  if (failed(operand))
    return failure();
  ReduceKind kind = adaptor.getKind();
  StringRef name = stringifyReduceKind(kind);
  Type element = elementTypeOf(adaptor.getInput());
  bool isInt = isa<IntegerType>(element);
  ArrayRef<int64_t> dims = adaptor.getDims();
  bool keepdim = adaptor.getKeepdim();
  Builder b(element.getContext());
  Type resultElement = element;
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::prod:
    if (isInt)
      resultElement = b.getI64Type();
    break;
  case ReduceKind::mean:
    if (isInt)
      return ctx.error("mean(): could not infer output dtype. Input dtype "
                       "must be either a floating point or complex dtype. "
                       "Got: " +
                       dtypeName(element));
    break;
  case ReduceKind::amax:
  case ReduceKind::amin:
    break;
  case ReduceKind::argmax:
  case ReduceKind::argmin:
    resultElement = b.getI64Type();
    if (dims.size() > 1)
      return ctx.error(name + "() reduces one dim or all of them; got dims " +
                       formatDims(dims));
    break;
  }
  if (!operand->isStatic())
    return inferEither<ReduceOp>(
        loc, adaptor, types,
        [](const InferContext &, const StridedLayout &) { return failure(); },
        resultElement);
  const StridedLayout *in = &*operand;
  FailureOr<Dims> reduced = ctx.unwrap(normalizeReduceDims(in->rank(), dims));
  if (failed(reduced))
    return failure();
  if (kind != ReduceKind::sum && kind != ReduceKind::mean &&
      kind != ReduceKind::prod) {
    for (const EmptyReductionCheck &c :
         emptyReductionChecks(name, in->rank(), dims))
      if (llvm::any_of(c.dims, [&](int64_t d) { return !in->sizes[d]; }))
        return ctx.error(c.message);
  }
  FailureOr<Dims> sizes = ctx.unwrap(reduceSizes(in->sizes, dims, keepdim));
  if (failed(sizes))
    return failure();
  FailureOr<Dims> strides = ctx.unwrap(contiguousStrides(*sizes));
  if (failed(strides))
    return failure();
  return ctx.push(types, StridedLayout(*sizes, *strides, 0), resultElement);
}

//===----------------------------------------------------------------------===//
// MaterializeOp
//===----------------------------------------------------------------------===//

LogicalResult MaterializeOp::verify() {
  auto in = cast<StridedTensorType>(getInput().getType());
  auto out = cast<StridedTensorType>(getResult().getType());
  if (in.getShape() != out.getShape())
    return emitOpError("result sizes ")
           << formatDims(out.getShape()) << " must equal the operand sizes "
           << formatDims(in.getShape());
  if (out.hasStaticLayout()) {
    StridedLayout l = out.getStridedLayout();
    if (l.offset != 0 || !isNonOverlappingAndDense(l))
      return emitOpError("result layout ")
             << l.str()
             << " must be non-overlapping and dense with offset 0 (a new "
                "storage)";
  }
  return success();
}

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
