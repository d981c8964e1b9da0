#include "layout_rt/layout_rt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr DLDataType kF32 = {kDLFloat, 32, 1};
constexpr DLDataType kF16 = {kDLFloat, 16, 1};
constexpr DLDevice kCpu = {kDLCPU, 0};

// A DLTensor that owns its shape and strides arrays.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLTensor t;
  Tensor(void *data, std::vector<int64_t> shapeIn,
         std::vector<int64_t> stridesIn = {}, DLDataType dtype = kF32,
         uint64_t byteOffset = 0)
      : shape(std::move(shapeIn)), strides(std::move(stridesIn)) {
    t.data = data;
    t.device = kCpu;
    t.ndim = static_cast<int>(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byteOffset;
  }
  // Copies would leave t pointing into the source's vectors.
  Tensor(const Tensor &) = delete;
};

lrt_tensor_spec_t spec(int32_t ndim, const int64_t *sizes,
                       const int64_t *strides = nullptr,
                       DLDataType dtype = kF32) {
  lrt_tensor_spec_t result;
  result.dtype = dtype;
  result.ndim = ndim;
  result.sizes = sizes;
  result.strides = strides;
  result.device = {kDLCPU, LRT_ANY_DEVICE_ID};
  return result;
}

// The message of an error status (freed), or "OK".
std::string message(lrt_status_t status) {
  if (!status)
    return "OK";
  std::string text = lrt_status_message(status);
  lrt_status_free(status);
  return text;
}

lrt_status_code_t code(lrt_status_t status) {
  lrt_status_code_t result = lrt_status_code(status);
  lrt_status_free(status);
  return result;
}

alignas(64) float buffer[256];

const int64_t kSizes3x4[] = {3, 4};
const int64_t kRowMajor3x4[] = {4, 1};

TEST(CheckTensor, AcceptsMatchingTensors) {
  Tensor explicitStrides(buffer, {3, 4}, {4, 1});
  lrt_tensor_spec_t expected = spec(2, kSizes3x4, kRowMajor3x4);
  EXPECT_EQ(message(lrt_check_tensor(&explicitStrides.t, &expected, "x", 0)),
            "OK");
  // NULL strides mean row-major.
  Tensor nullStrides(buffer, {3, 4});
  EXPECT_EQ(message(lrt_check_tensor(&nullStrides.t, &expected, "x", 0)), "OK");
  // Rank 0 has one element and no arrays to read.
  Tensor scalar(buffer, {});
  scalar.t.shape = nullptr;
  lrt_tensor_spec_t scalarSpec = spec(0, nullptr);
  EXPECT_EQ(message(lrt_check_tensor(&scalar.t, &scalarSpec, "s", 2)), "OK");
}

TEST(CheckTensor, WrongDtype) {
  Tensor x(buffer, {3, 4}, {}, kF16);
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  lrt_status_t status = lrt_check_tensor(&x.t, &expected, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(message(status), "argument 0 (x): expected dtype f32, got f16");

  Tensor ints(buffer, {3, 4}, {}, DLDataType{kDLInt, 32, 1});
  EXPECT_EQ(message(lrt_check_tensor(&ints.t, &expected, "x", 0)),
            "argument 0 (x): expected dtype f32, got i32");
  Tensor vector(buffer, {3, 4}, {}, DLDataType{kDLFloat, 32, 4});
  EXPECT_EQ(message(lrt_check_tensor(&vector.t, &expected, "x", 0)),
            "argument 0 (x): expected dtype f32, got f32x4");
  Tensor bf16(buffer, {3, 4}, {}, DLDataType{kDLBfloat, 16, 1});
  EXPECT_EQ(message(lrt_check_tensor(&bf16.t, &expected, nullptr, 3)),
            "argument 3 (?): expected dtype f32, got bf16");
}

TEST(CheckTensor, WrongRank) {
  Tensor x(buffer, {3, 4, 1});
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 1)),
            "argument 1 (x): expected rank 2, got 3");
}

TEST(CheckTensor, WrongSize) {
  Tensor x(buffer, {3, 5});
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 0)),
            "argument 0 (x): expected size 4 in dimension 1, got 5 "
            "(expected sizes [3, 4], got [3, 5]; -1 = any)");
  const int64_t dynamic[] = {LRT_ANY_SIZE, 5};
  lrt_tensor_spec_t dynamicSpec = spec(2, dynamic);
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &dynamicSpec, "x", 0)), "OK");
  lrt_tensor_spec_t anySizes = spec(2, nullptr);
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &anySizes, "x", 0)), "OK");
}

TEST(CheckTensor, MalformedShape) {
  Tensor negative(buffer, {3, -2});
  lrt_tensor_spec_t anySizes = spec(2, nullptr);
  EXPECT_EQ(message(lrt_check_tensor(&negative.t, &anySizes, "x", 0)),
            "argument 0 (x): size of dimension 1 is -2; sizes must be >= 0");
  Tensor noShape(buffer, {3, 4});
  noShape.t.shape = nullptr;
  EXPECT_EQ(message(lrt_check_tensor(&noShape.t, &anySizes, "x", 0)),
            "argument 0 (x): shape is NULL for rank 2");
  std::vector<int64_t> ones(LRT_MAX_NDIM + 1, 1);
  Tensor tooDeep(buffer, ones);
  lrt_tensor_spec_t deepSpec = spec(LRT_MAX_NDIM + 1, nullptr);
  lrt_status_t status = lrt_check_tensor(&tooDeep.t, &deepSpec, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_UNIMPLEMENTED);
  EXPECT_EQ(message(status),
            "argument 0 (x): rank 65 exceeds the supported maximum 64");
}

TEST(CheckTensor, WrongStrides) {
  lrt_tensor_spec_t expected = spec(2, kSizes3x4, kRowMajor3x4);
  Tensor columnMajor(buffer, {3, 4}, {1, 3});
  EXPECT_EQ(message(lrt_check_tensor(&columnMajor.t, &expected, "x", 0)),
            "argument 0 (x): expected stride 4 in dimension 0, got 1 "
            "(expected strides [4, 1], got [1, 3])");
  // NULL strides are compared as their row-major values.
  const int64_t columnMajorStrides[] = {1, 3};
  lrt_tensor_spec_t wantColumnMajor = spec(2, kSizes3x4, columnMajorStrides);
  Tensor rowMajor(buffer, {3, 4});
  EXPECT_EQ(message(lrt_check_tensor(&rowMajor.t, &wantColumnMajor, "y", 1)),
            "argument 1 (y): expected stride 1 in dimension 0, got 4 "
            "(expected strides [1, 3], got [4, 1], row-major from NULL "
            "strides)");
  // Unconstrained strides match anything.
  const int64_t anyOuter[] = {LRT_ANY_STRIDE, 1};
  lrt_tensor_spec_t anyOuterSpec = spec(2, kSizes3x4, anyOuter);
  Tensor padded(buffer, {3, 4}, {8, 1});
  EXPECT_EQ(message(lrt_check_tensor(&padded.t, &anyOuterSpec, "x", 0)), "OK");
  // The message shows them as "any" (a dynamic function's first check).
  const int64_t anyInner[] = {1, LRT_ANY_STRIDE};
  lrt_tensor_spec_t anyInnerSpec = spec(2, kSizes3x4, anyInner);
  EXPECT_EQ(message(lrt_check_tensor(&padded.t, &anyInnerSpec, "x", 0)),
            "argument 0 (x): expected stride 1 in dimension 0, got 8 "
            "(expected strides [1, any], got [8, 1])");
  // A size-1 dimension's stride never matters (PyTorch leaves it arbitrary).
  const int64_t sizes1x4[] = {1, 4};
  lrt_tensor_spec_t oneRow = spec(2, sizes1x4, kRowMajor3x4);
  Tensor oddStride(buffer, {1, 4}, {77, 1});
  EXPECT_EQ(message(lrt_check_tensor(&oddStride.t, &oneRow, "x", 0)), "OK");
  // Nor do any strides of an empty tensor.
  const int64_t sizes0x4[] = {0, 4};
  lrt_tensor_spec_t empty = spec(2, sizes0x4, kRowMajor3x4);
  Tensor emptyTensor(buffer, {0, 4}, {1, 9});
  EXPECT_EQ(message(lrt_check_tensor(&emptyTensor.t, &empty, "x", 0)), "OK");
}

TEST(CheckTensor, WrongDevice) {
  Tensor x(buffer, {3, 4});
  x.t.device = {kDLCUDA, 0};
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 0)),
            "argument 0 (x): expected device cpu, got cuda:0");
  x.t.device = {kDLCPU, 1};
  expected.device = {kDLCPU, 0};
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 0)),
            "argument 0 (x): expected device cpu:0, got cpu:1");
  x.t.device = {static_cast<DLDeviceType>(99), 0};
  expected.device = {kDLCPU, LRT_ANY_DEVICE_ID};
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 0)),
            "argument 0 (x): expected device cpu, got device_type99:0");
}

TEST(CheckTensor, NullTensorDataAndSpec) {
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  EXPECT_EQ(message(lrt_check_tensor(nullptr, &expected, "x", 0)),
            "argument 0 (x): tensor is NULL");
  Tensor x(nullptr, {3, 4});
  EXPECT_EQ(message(lrt_check_tensor(&x.t, &expected, "x", 0)),
            "argument 0 (x): data is NULL");
  EXPECT_EQ(message(lrt_check_tensor(&x.t, nullptr, "x", 0)),
            "argument 0 (x): expected tensor spec is NULL");
  lrt_tensor_spec_t vectorSpec =
      spec(2, kSizes3x4, nullptr, DLDataType{kDLFloat, 32, 4});
  lrt_status_t status = lrt_check_tensor(&x.t, &vectorSpec, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_UNIMPLEMENTED);
  EXPECT_EQ(message(status),
            "argument 0 (x): expected tensor spec has vector dtype f32x4; "
            "only lanes == 1 is supported");
  // An empty tensor is never dereferenced, so NULL data is fine.
  Tensor empty(nullptr, {0, 4});
  lrt_tensor_spec_t anySizes = spec(2, nullptr);
  EXPECT_EQ(message(lrt_check_tensor(&empty.t, &anySizes, "x", 0)), "OK");
}

TEST(CheckTensor, ByteOffset) {
  lrt_tensor_spec_t expected = spec(2, kSizes3x4, kRowMajor3x4);
  Tensor aligned(buffer, {3, 4}, {}, kF32, 16);
  EXPECT_EQ(message(lrt_check_tensor(&aligned.t, &expected, "x", 0)), "OK");
  lrt_byte_extent_t extent;
  ASSERT_EQ(lrt_tensor_byte_extent(&aligned.t, &extent), LRT_OK);
  EXPECT_EQ(extent.begin, 16);
  EXPECT_EQ(extent.end, 16 + 48);
  Tensor misaligned(buffer, {3, 4}, {}, kF32, 6);
  EXPECT_EQ(message(lrt_check_tensor(&misaligned.t, &expected, "x", 0)),
            "argument 0 (x): byte_offset 6 is not a multiple of the element "
            "size 4");
  Tensor oddPointer(reinterpret_cast<char *>(buffer) + 2, {3, 4});
  std::string text =
      message(lrt_check_tensor(&oddPointer.t, &expected, "x", 0));
  EXPECT_NE(text.find("is not aligned to the element size 4"),
            std::string::npos)
      << text;
  Tensor huge(buffer, {3, 4}, {}, kF32, UINT64_MAX - 3);
  lrt_status_t status = lrt_check_tensor(&huge.t, &expected, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(message(status),
            "argument 0 (x): byte_offset 18446744073709551612 exceeds int64");
}

TEST(CheckTensor, SubByteDtypeIsUnimplemented) {
  DLDataType i4 = {kDLInt, 4, 1};
  Tensor x(buffer, {3, 4}, {}, i4);
  lrt_tensor_spec_t expected = spec(2, kSizes3x4, nullptr, i4);
  lrt_status_t status = lrt_check_tensor(&x.t, &expected, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_UNIMPLEMENTED);
  EXPECT_EQ(message(status),
            "argument 0 (x): dtype i4 is not a whole number of bytes");
}

TEST(CheckTensor, ExtentOverflowIsOutOfRange) {
  Tensor x(buffer, {3, 4}, {INT64_MAX / 2, 1});
  lrt_tensor_spec_t expected = spec(2, kSizes3x4);
  lrt_status_t status = lrt_check_tensor(&x.t, &expected, "x", 0);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(message(status), "argument 0 (x): byte extent overflows int64");
}

TEST(TensorHelpers, DtypeSizeAndFormat) {
  int64_t bytes = 0;
  ASSERT_EQ(lrt_dtype_size(kF16, &bytes), LRT_OK);
  EXPECT_EQ(bytes, 2);
  ASSERT_EQ(lrt_dtype_size(DLDataType{kDLComplex, 64, 2}, &bytes), LRT_OK);
  EXPECT_EQ(bytes, 16);
  EXPECT_EQ(code(lrt_dtype_size(DLDataType{kDLFloat, 0, 1}, &bytes)),
            LRT_STATUS_INVALID_ARGUMENT);
  char name[32];
  lrt_format_dtype(DLDataType{kDLUInt, 8, 1}, name, sizeof(name));
  EXPECT_STREQ(name, "u8");
  lrt_format_dtype(DLDataType{kDLOpaqueHandle, 64, 1}, name, sizeof(name));
  EXPECT_STREQ(name, "handle64");
  lrt_format_dtype(DLDataType{200, 8, 1}, name, sizeof(name));
  EXPECT_STREQ(name, "code200:8");
}

TEST(TensorHelpers, StridesAndNumel) {
  Tensor x(buffer, {2, 3, 4});
  int64_t strides[3];
  ASSERT_EQ(lrt_tensor_strides(&x.t, strides), LRT_OK);
  EXPECT_EQ(std::vector<int64_t>(strides, strides + 3),
            (std::vector<int64_t>{12, 4, 1}));
  int64_t numel = 0;
  ASSERT_EQ(lrt_tensor_numel(&x.t, &numel), LRT_OK);
  EXPECT_EQ(numel, 24);
  // Zero-size dimensions count as 1 in row-major strides, as in PyTorch.
  Tensor empty(buffer, {2, 0, 4});
  ASSERT_EQ(lrt_tensor_strides(&empty.t, strides), LRT_OK);
  EXPECT_EQ(std::vector<int64_t>(strides, strides + 3),
            (std::vector<int64_t>{4, 4, 1}));
  ASSERT_EQ(lrt_tensor_numel(&empty.t, &numel), LRT_OK);
  EXPECT_EQ(numel, 0);
  // Explicit strides are returned as given.
  Tensor transposed(buffer, {4, 3}, {1, 4});
  ASSERT_EQ(lrt_tensor_strides(&transposed.t, strides), LRT_OK);
  EXPECT_EQ(strides[0], 1);
  EXPECT_EQ(strides[1], 4);

  Tensor huge(buffer, {INT64_MAX / 2, 3});
  EXPECT_EQ(message(lrt_tensor_numel(&huge.t, &numel)),
            "element count overflows int64");
  EXPECT_EQ(message(lrt_tensor_strides(&huge.t, strides)), "OK");
  Tensor hugeInner(buffer, {3, INT64_MAX / 2, 3});
  EXPECT_EQ(message(lrt_tensor_strides(&hugeInner.t, strides)),
            "row-major stride of dimension 0 overflows int64");
  // But a huge empty tensor has zero elements, not an overflow.
  Tensor hugeEmpty(buffer, {INT64_MAX, INT64_MAX, 0});
  ASSERT_EQ(lrt_tensor_numel(&hugeEmpty.t, &numel), LRT_OK);
  EXPECT_EQ(numel, 0);
  EXPECT_EQ(message(lrt_tensor_numel(nullptr, &numel)), "tensor is NULL");
}

TEST(TensorHelpers, ByteExtent) {
  lrt_byte_extent_t extent;
  Tensor rowMajor(buffer, {3, 4});
  ASSERT_EQ(lrt_tensor_byte_extent(&rowMajor.t, &extent), LRT_OK);
  EXPECT_EQ(extent.begin, 0);
  EXPECT_EQ(extent.end, 48);
  // A strided column: elements 1, 5, 9 of a 3x4.
  Tensor column(buffer, {3}, {4}, kF32, 4);
  ASSERT_EQ(lrt_tensor_byte_extent(&column.t, &extent), LRT_OK);
  EXPECT_EQ(extent.begin, 4);
  EXPECT_EQ(extent.end, 4 + 9 * 4);
  // Negative strides reach below byte_offset (a flipped view).
  Tensor flipped(buffer, {4}, {-1}, kF32, 12);
  ASSERT_EQ(lrt_tensor_byte_extent(&flipped.t, &extent), LRT_OK);
  EXPECT_EQ(extent.begin, 0);
  EXPECT_EQ(extent.end, 16);
  Tensor broadcast(buffer, {5, 4}, {0, 1});
  ASSERT_EQ(lrt_tensor_byte_extent(&broadcast.t, &extent), LRT_OK);
  EXPECT_EQ(extent.end, 16);
  Tensor empty(buffer, {0, 4}, {}, kF32, 8);
  ASSERT_EQ(lrt_tensor_byte_extent(&empty.t, &extent), LRT_OK);
  EXPECT_EQ(extent.begin, 8);
  EXPECT_EQ(extent.end, 8);
  Tensor overflow(buffer, {2}, {INT64_MAX / 4 + 1});
  EXPECT_EQ(code(lrt_tensor_byte_extent(&overflow.t, &extent)),
            LRT_STATUS_OUT_OF_RANGE);
}

std::string hex(const void *pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "%#" PRIxPTR,
                reinterpret_cast<uintptr_t>(pointer));
  return text;
}

lrt_status_t noOverlap(const Tensor &out, std::vector<const Tensor *> ins) {
  std::vector<lrt_tensor_ref_t> refs;
  const char *names[] = {"a", "b", "c"};
  for (size_t i = 0; i < ins.size(); ++i)
    refs.push_back({&ins[i]->t, names[i], static_cast<int>(i)});
  return lrt_check_no_overlap({&out.t, "out", static_cast<int>(ins.size())},
                              refs.data(), refs.size());
}

TEST(Overlap, DisjointViewsOfOneBufferAreAccepted) {
  Tensor firstHalf(buffer, {2, 4});
  Tensor secondHalf(buffer, {2, 4}, {}, kF32, 32);
  EXPECT_EQ(message(noOverlap(secondHalf, {&firstHalf})), "OK");
  // Byte ranges that only touch do not overlap.
  Tensor adjacent(buffer + 8, {4});
  EXPECT_EQ(message(noOverlap(adjacent, {&firstHalf, &secondHalf})),
            "argument 2 (out): overlaps argument 1 (b): output bytes [" +
                hex(buffer + 8) + ", " + hex(buffer + 12) +
                ") intersect input bytes [" + hex(buffer + 8) + ", " +
                hex(buffer + 16) + ") and the two are not the identical view");
  Tensor afterFirst(buffer + 8, {2});
  EXPECT_EQ(message(noOverlap(afterFirst, {&firstHalf})), "OK");
  EXPECT_EQ(message(noOverlap(firstHalf, {})), "OK");
}

TEST(Overlap, IdenticalViewIsAllowedForInPlaceKernels) {
  Tensor in(buffer, {3, 4}, {}, kF32, 4);
  // Same view, spelled with explicit strides and a different data/offset
  // split.
  Tensor out(buffer + 1, {3, 4}, {4, 1});
  EXPECT_EQ(message(noOverlap(out, {&in})), "OK");
}

TEST(Overlap, SharedBytesWithADifferentViewAreRejected) {
  Tensor in(buffer, {3, 4});
  Tensor transposed(buffer, {4, 3}, {1, 4});
  std::string text = message(noOverlap(transposed, {&in}));
  EXPECT_EQ(text.rfind("argument 1 (out): overlaps argument 0 (a): output "
                       "bytes [",
                       0),
            0u)
      << text;
  // Same address and shape but another dtype is not the identical view.
  Tensor ints(buffer, {3, 4}, {}, DLDataType{kDLInt, 32, 1});
  EXPECT_EQ(code(noOverlap(ints, {&in})), LRT_STATUS_INVALID_ARGUMENT);
  // byte_offset is honoured: a shifted view overlaps.
  Tensor shifted(buffer, {3, 4}, {}, kF32, 4);
  EXPECT_EQ(code(noOverlap(shifted, {&in})), LRT_STATUS_INVALID_ARGUMENT);
  // Only the offending input is named.
  Tensor elsewhere(buffer + 100, {4});
  text = message(noOverlap(transposed, {&elsewhere, &in}));
  EXPECT_NE(text.find("overlaps argument 1 (b)"), std::string::npos) << text;
}

TEST(Overlap, OutputMustNotOverlapItself) {
  Tensor broadcast(buffer, {5, 4}, {0, 1});
  EXPECT_EQ(message(noOverlap(broadcast, {})),
            "argument 0 (out): output elements overlap: dimension 0 has size "
            "5 and stride 0");
  Tensor sliding(buffer, {3, 4}, {1, 1});
  EXPECT_EQ(message(noOverlap(sliding, {})),
            "argument 0 (out): output elements may overlap: sizes [3, 4] with "
            "strides [1, 1] do not nest (sorted by magnitude, each stride must "
            "exceed the reach 2 of the smaller ones)");
  // Stride 0 over a size-1 dimension is harmless.
  Tensor unit(buffer, {1, 4}, {0, 1});
  EXPECT_EQ(message(noOverlap(unit, {})), "OK");
  // Permuted, padded and flipped layouts nest.
  Tensor permuted(buffer, {4, 3}, {1, 4});
  EXPECT_EQ(message(noOverlap(permuted, {})), "OK");
  Tensor padded(buffer, {3, 4}, {5, 1});
  EXPECT_EQ(message(noOverlap(padded, {})), "OK");
  Tensor flipped(buffer, {3, 4}, {-4, 1}, kF32, 32);
  EXPECT_EQ(message(noOverlap(flipped, {})), "OK");
  Tensor empty(buffer, {0, 4}, {0, 0});
  EXPECT_EQ(message(noOverlap(empty, {})), "OK");
}

TEST(Overlap, EmptyAndOtherDeviceTensorsNeverOverlap) {
  Tensor in(buffer, {3, 4});
  Tensor empty(buffer, {0, 4});
  EXPECT_EQ(message(noOverlap(empty, {&in})), "OK");
  EXPECT_EQ(message(noOverlap(in, {&empty})), "OK");
  Tensor gpu(buffer, {3, 4}, {1, 3});
  gpu.t.device = {kDLCUDA, 0};
  EXPECT_EQ(message(noOverlap(gpu, {&in})), "OK");
}

TEST(Overlap, MalformedArgumentsAreErrors) {
  Tensor out(buffer, {3, 4});
  EXPECT_EQ(message(lrt_check_no_overlap({nullptr, "out", 1}, nullptr, 0)),
            "argument 1 (out): tensor is NULL");
  lrt_tensor_ref_t nullInput = {nullptr, "x", 0};
  EXPECT_EQ(message(lrt_check_no_overlap({&out.t, "out", 1}, &nullInput, 1)),
            "argument 0 (x): tensor is NULL");
  EXPECT_EQ(message(lrt_check_no_overlap({&out.t, "out", 1}, nullptr, 2)),
            "check_no_overlap: inputs is NULL for 2 inputs");
  Tensor bad(buffer, {3, -4});
  EXPECT_EQ(message(noOverlap(bad, {})),
            "argument 0 (out): size of dimension 1 is -4; sizes must be >= 0");
  Tensor overflow(buffer, {2}, {INT64_MAX / 4 + 1});
  EXPECT_EQ(message(noOverlap(out, {&overflow})),
            "argument 0 (a): byte extent overflows int64");
  // An extent that would wrap below address 0.
  Tensor wraps(reinterpret_cast<void *>(uintptr_t{64}), {4}, {-64});
  EXPECT_EQ(message(noOverlap(out, {&wraps})),
            "argument 0 (a): byte range wraps around the address space");
}

} // namespace

namespace {

// The descriptor of f(const f32[3x4] arg0) -> f32[3x4] result0, as layoutc
// emits it.
const int64_t kBindDescriptor[] = {
    1, 2, LRT_ROLE_INPUT,  0, kDLFloat, 32, 2, 3, 4,
    4, 1, LRT_ROLE_OUTPUT, 0, kDLFloat, 32, 2, 3, 4,
    4, 1};

TEST(BindTensors, DeviceVariantChecksTheDeviceType) {
  Tensor in(buffer, {3, 4}), out(buffer + 64, {3, 4});
  in.t.device = out.t.device = {kDLCUDA, 1};
  const DLTensor *tensors[] = {&in.t, &out.t};
  void *data[2] = {nullptr, nullptr};
  EXPECT_EQ(message(lrt_bind_tensors_device("f", kBindDescriptor, kDLCUDA,
                                            tensors, data)),
            "OK");
  EXPECT_EQ(data[0], buffer);
  EXPECT_EQ(data[1], buffer + 64);

  // The CPU binding rejects the same tensors, and the CUDA one CPU tensors.
  EXPECT_EQ(message(lrt_bind_tensors("f", kBindDescriptor, tensors, data)),
            "f: argument 0 (arg0): expected device cpu, got cuda:1");
  in.t.device = {kDLCPU, 0};
  lrt_status_t status =
      lrt_bind_tensors_device("f", kBindDescriptor, kDLCUDA, tensors, data);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(message(status),
            "f: argument 0 (arg0): expected device cuda, got cpu:0");

  // Every other check still runs: an output overlapping the input.
  in.t.device = {kDLCUDA, 0};
  out.t.device = {kDLCUDA, 0};
  out.t.data = buffer + 4;
  EXPECT_EQ(code(lrt_bind_tensors_device("f", kBindDescriptor, kDLCUDA, tensors,
                                         data)),
            LRT_STATUS_INVALID_ARGUMENT);
  out.t.data = buffer + 64;
  EXPECT_EQ(message(lrt_bind_tensors("f", kBindDescriptor, tensors, data)),
            "f: argument 0 (arg0): expected device cpu, got cuda:0");
}

// Generated kernels read an argument through views of their own (a flip, a
// transpose), so binding refuses even an output that is the identical view
// of an input, which lrt_check_no_overlap allows for in-place kernels.
TEST(BindTensors, OutputIdenticalToAnInputIsRefused) {
  Tensor in(buffer, {3, 4}), out(buffer, {3, 4});
  const DLTensor *tensors[] = {&in.t, &out.t};
  void *data[2] = {nullptr, nullptr};
  EXPECT_EQ(message(lrt_bind_tensors("f", kBindDescriptor, tensors, data)),
            "f: argument 1 (result0): overlaps argument 0 (arg0): output "
            "bytes [" +
                hex(buffer) + ", " + hex(buffer + 12) +
                ") intersect input bytes [" + hex(buffer) + ", " +
                hex(buffer + 12) +
                "); a written tensor must not share memory with any other "
                "argument");
  lrt_tensor_ref_t input = {&in.t, "a", 0};
  EXPECT_EQ(message(lrt_check_output_overlap({&out.t, "out", 1}, &input, 1,
                                             LRT_OVERLAP_CHECK_SELF |
                                                 LRT_OVERLAP_ALLOW_IDENTICAL)),
            "OK");
  EXPECT_EQ(code(lrt_check_output_overlap({&out.t, "out", 1}, &input, 1, 0)),
            LRT_STATUS_INVALID_ARGUMENT);
}

// A tensor without elements may have NULL data and a byte_offset (DLPack
// allows it; the bound pointer is never dereferenced): binding it computes
// no NULL + offset, which is undefined behavior (fuzz/regressions/dlpack/
// null-data-empty-byte-offset.bin).
TEST(BindTensors, EmptyTensorWithNullDataAndByteOffset) {
  Tensor in(nullptr, {0, 4}, {}, kF32, /*byteOffset=*/8);
  Tensor out(buffer, {3, 4});
  const DLTensor *tensors[] = {&in.t, &out.t};
  void *data[2] = {nullptr, nullptr};
  const int64_t descriptor[] = {1, 2, LRT_ROLE_INPUT,  0, kDLFloat, 32, 2, 0, 4,
                                4, 1, LRT_ROLE_OUTPUT, 0, kDLFloat, 32, 2, 3, 4,
                                4, 1};
  EXPECT_EQ(message(lrt_bind_tensors("f", descriptor, tensors, data)), "OK");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data[0]), uintptr_t{8});
  EXPECT_EQ(data[1], buffer);
}

// g(const f32[2x3] arg0, f32[2x3] strides (3, 2) arg1): the written
// argument's strides do not nest (the runtime's own proof fails), but its 6
// elements (offsets 0, 2, 4, 3, 5, 7) are distinct, which layoutc proves and
// records with LRT_ROLE_DISTINCT.
const int64_t kDistinctDescriptor[] = {
    1, 2,        LRT_ROLE_INPUT,
    0, kDLFloat, 32,
    2, 2,        3,
    3, 1,        LRT_ROLE_WRITTEN | LRT_ROLE_DISTINCT,
    1, kDLFloat, 32,
    2, 2,        3,
    3, 2};

TEST(BindTensors, DistinctRoleSkipsOnlyTheOwnOverlapCheck) {
  Tensor in(buffer, {2, 3}), out(buffer + 64, {2, 3}, {3, 2});
  const DLTensor *tensors[] = {&in.t, &out.t};
  void *data[2] = {nullptr, nullptr};
  EXPECT_EQ(message(lrt_bind_tensors("g", kDistinctDescriptor, tensors, data)),
            "OK");
  EXPECT_EQ(data[1], buffer + 64);

  // Without the flag the nesting rule refuses the same call.
  int64_t plain[std::size(kDistinctDescriptor)];
  std::copy(std::begin(kDistinctDescriptor), std::end(kDistinctDescriptor),
            plain);
  plain[11] = LRT_ROLE_WRITTEN;
  EXPECT_EQ(code(lrt_bind_tensors("g", plain, tensors, data)),
            LRT_STATUS_INVALID_ARGUMENT);

  // The flag covers the declared layout only (other strides fail the
  // descriptor), and overlap with the other parameters is still checked.
  out.t.data = buffer + 4;
  EXPECT_EQ(code(lrt_bind_tensors("g", kDistinctDescriptor, tensors, data)),
            LRT_STATUS_INVALID_ARGUMENT);

  // On an input the flag is a malformed descriptor.
  int64_t onInput[std::size(kDistinctDescriptor)];
  std::copy(std::begin(kDistinctDescriptor), std::end(kDistinctDescriptor),
            onInput);
  onInput[2] = LRT_ROLE_INPUT | LRT_ROLE_DISTINCT;
  out.t.data = buffer + 64;
  EXPECT_EQ(code(lrt_bind_tensors("g", onInput, tensors, data)),
            LRT_STATUS_INTERNAL);
}

} // namespace

namespace {

// The names layoutc passes name the parameters in every message, the
// overlap ones included; a short list or NULL leaves the rest positional.
TEST(BindTensors, NamedParametersNameTheirMessages) {
  Tensor in(buffer, {3, 4}, {}, kF16), out(buffer + 64, {3, 4});
  const DLTensor *tensors[] = {&in.t, &out.t};
  void *data[2] = {nullptr, nullptr};
  const char names[] = "x\0y\0"; // ended by an empty name
  EXPECT_EQ(message(lrt_bind_tensors_named("f", kBindDescriptor, names, kDLCPU,
                                           tensors, data)),
            "f: argument 0 (x): expected dtype f32, got f16");
  EXPECT_EQ(message(lrt_bind_tensors_named("f", kBindDescriptor, nullptr,
                                           kDLCPU, tensors, data)),
            "f: argument 0 (arg0): expected dtype f32, got f16");
  in.t.dtype = kF32;
  out.t.data = buffer + 4;
  EXPECT_EQ(message(lrt_bind_tensors_named("f", kBindDescriptor, names, kDLCPU,
                                           tensors, data))
                .substr(0, 47),
            "f: argument 1 (y): overlaps argument 0 (x): out");
  // A list of "x" only: the output keeps its positional name.
  EXPECT_EQ(message(lrt_bind_tensors_named("f", kBindDescriptor, "x\0", kDLCPU,
                                           tensors, data))
                .substr(0, 53),
            "f: argument 1 (result0): overlaps argument 0 (x): out");
  out.t.data = buffer + 64;
  EXPECT_EQ(message(lrt_bind_tensors_named("f", kBindDescriptor, names, kDLCPU,
                                           tensors, data)),
            "OK");
  EXPECT_EQ(data[1], buffer + 64);
}

} // namespace
