//===- LayoutTypes.cpp - layout dialect types -----------------------------===//

#include "layout/Dialect/Layout/IR/LayoutTypes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::layout;

#define GET_TYPEDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOpsTypes.cpp.inc"

void LayoutDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "layout/Dialect/Layout/IR/LayoutOpsTypes.cpp.inc"
      >();
}

bool mlir::layout::isSupportedElementType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return false;
  unsigned width = intType.getWidth();
  if (intType.isUnsigned())
    return width == 8;
  return intType.isSignless() && (width == 1 || width == 8 || width == 16 ||
                                  width == 32 || width == 64);
}

std::string mlir::layout::dtypeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

static void printShapeAndElement(AsmPrinter &printer, ArrayRef<int64_t> shape,
                                 Type elementType) {
  for (int64_t d : shape) {
    if (d == ShapedType::kDynamic)
      printer << '?';
    else
      printer << d;
    printer << 'x';
  }
  printer << elementType;
}

//===----------------------------------------------------------------------===//
// StorageType
//===----------------------------------------------------------------------===//

Type StorageType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> dims;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  if (dims.size() != 1) {
    parser.emitError(loc) << "expected one storage size (e.g. 24xf32 or ?xf32)"
                          << ", got " << dims.size() << " sizes";
    return {};
  }
  return parser.getChecked<StorageType>(loc, parser.getContext(), dims[0],
                                        elementType);
}

void StorageType::print(AsmPrinter &printer) const {
  printer << '<';
  printShapeAndElement(printer, {getSize()}, getElementType());
  printer << '>';
}

LogicalResult StorageType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t size, Type elementType) {
  if (size < 0 && size != ShapedType::kDynamic)
    return emitError() << "storage size must be >= 0 or ?, got " << size;
  if (!isSupportedElementType(elementType))
    return emitError() << "unsupported element type " << elementType
                       << "; expected one of i1, i8, i16, i32, i64, ui8, "
                          "f16, bf16, f32, f64";
  return success();
}

//===----------------------------------------------------------------------===//
// StridedTensorType
//===----------------------------------------------------------------------===//

static bool isDefaultLayout(ArrayRef<int64_t> shape, StridedLayoutAttr layout) {
  return layout.getOffset() == 0 &&
         layout.getStrides() ==
             ArrayRef<int64_t>(rowMajorStridesWhereKnown(shape));
}

StridedTensorType StridedTensorType::getContiguous(ArrayRef<int64_t> shape,
                                                   Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  return Base::get(
      ctx, shape, elementType,
      StridedLayoutAttr::get(ctx, 0, rowMajorStridesWhereKnown(shape)));
}

StridedTensorType StridedTensorType::get(const StridedLayout &layout,
                                         Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  return Base::get(ctx, ArrayRef<int64_t>(layout.sizes), elementType,
                   StridedLayoutAttr::get(ctx, layout.offset, layout.strides));
}

StridedTensorType
StridedTensorType::getChecked(function_ref<InFlightDiagnostic()> emitError,
                              const StridedLayout &layout, Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  return Base::getChecked(
      emitError, ctx, ArrayRef<int64_t>(layout.sizes), elementType,
      StridedLayoutAttr::get(ctx, layout.offset, layout.strides));
}

StridedLayout StridedTensorType::getStridedLayout() const {
  return StridedLayout(getShape(), getStrides(), getOffset());
}

int64_t StridedTensorType::getElementBytes() const {
  return std::max<int64_t>(1, getElementType().getIntOrFloatBitWidth() / 8);
}

Type StridedTensorType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  StridedLayoutAttr layout;
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc layoutLoc = parser.getCurrentLocation();
    Attribute attr;
    if (parser.parseAttribute(attr))
      return {};
    layout = dyn_cast<StridedLayoutAttr>(attr);
    if (!layout) {
      parser.emitError(layoutLoc)
          << "expected a strided<[...], offset: ...> layout, got " << attr;
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  if (!layout)
    layout = StridedLayoutAttr::get(parser.getContext(), 0,
                                    rowMajorStridesWhereKnown(shape));
  return parser.getChecked<StridedTensorType>(loc, parser.getContext(), shape,
                                              elementType, layout);
}

void StridedTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  printShapeAndElement(printer, getShape(), getElementType());
  if (!isDefaultLayout(getShape(), getLayout()))
    printer << ", " << getLayout();
  printer << '>';
}

LogicalResult
StridedTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> shape, Type elementType,
                          StridedLayoutAttr layout) {
  if (!isSupportedElementType(elementType))
    return emitError() << "unsupported element type " << elementType
                       << "; expected one of i1, i8, i16, i32, i64, ui8, "
                          "f16, bf16, f32, f64";
  for (int64_t d : shape)
    if (d < 0 && d != ShapedType::kDynamic)
      return emitError() << "tensor sizes must be >= 0 or ?, got "
                         << formatDims(shape);
  if (!layout)
    return emitError() << "missing strided layout";
  if (layout.getStrides().size() != shape.size())
    return emitError() << "expected " << shape.size() << " strides for a rank-"
                       << shape.size() << " tensor, got "
                       << layout.getStrides().size();
  StridedLayout l(shape, layout.getStrides(), layout.getOffset());
  if (l.offset != kDynamic && l.offset < 0)
    return emitError() << "storage offset must be >= 0, got " << l.offset;
  if (l.isStatic()) {
    Fallible<int64_t> n = numel(l.sizes);
    if (!n)
      return emitError() << n.message();
    Fallible<std::optional<Span>> s = span(l);
    if (!s)
      return emitError() << s.message();
    if (*s && (*s)->lo < 0)
      return emitError() << "layout " << l.str() << " reaches storage element "
                         << (*s)->lo << ", before the start of its storage";
    // Byte counts (explain, kernels) must fit too: PyTorch's "Storage size
    // calculation overflowed".
    int64_t itemBytes =
        std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
    // The last element may be INT64_MAX itself: its count does not fit.
    if (*s && (*s)->hi == std::numeric_limits<int64_t>::max())
      return emitError() << "integer overflow: layout " << l.str()
                         << " reaches storage element " << (*s)->hi
                         << ", so its storage size does not fit in a signed "
                            "64-bit integer";
    int64_t elements = *s ? std::max(*n, (*s)->hi + 1) : 0;
    if (!llvm::checkedMul(elements, itemBytes))
      return emitError() << "integer overflow: the storage size of layout "
                         << l.str() << " in bytes (" << elements << " x "
                         << itemBytes
                         << ") does not fit in a signed 64-bit integer";
  }
  return success();
}
