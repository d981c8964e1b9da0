#include "layout_rt/tensor.h"

#include "layout_rt/entry.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough for LRT_MAX_NDIM values of 20 digits and a sign, with separators. */
#define LRT_LIST_CAPACITY (LRT_MAX_NDIM * 24 + 4)

/* `values` as a list; with `any_stride`, LRT_ANY_STRIDE prints as "any"
 * (it would print as a huge negative number; a dynamic function's first
 * check fixes only its static strides). */
static void lrt_format_values(const int64_t *values, int count, int any_stride,
                              char *buffer) {
  size_t used = 0;
  buffer[used++] = '[';
  for (int i = 0; i < count; ++i) {
    const char *sep = i ? ", " : "";
    if (any_stride && values[i] == LRT_ANY_STRIDE)
      used += (size_t)snprintf(buffer + used, LRT_LIST_CAPACITY - used, "%sany",
                               sep);
    else
      used += (size_t)snprintf(buffer + used, LRT_LIST_CAPACITY - used,
                               "%s%" PRId64, sep, values[i]);
  }
  snprintf(buffer + used, LRT_LIST_CAPACITY - used, "]");
}

static void lrt_format_list(const int64_t *values, int count, char *buffer) {
  lrt_format_values(values, count, 0, buffer);
}

void lrt_format_dtype(DLDataType dtype, char *buffer, size_t capacity) {
  const char *prefix;
  switch (dtype.code) {
  case kDLInt:
    prefix = "i";
    break;
  case kDLUInt:
    prefix = "u";
    break;
  case kDLFloat:
    prefix = "f";
    break;
  case kDLBfloat:
    prefix = "bf";
    break;
  case LRT_DL_BOOL:
    if (dtype.lanes == 1)
      snprintf(buffer, capacity, "bool");
    else
      snprintf(buffer, capacity, "boolx%u", (unsigned)dtype.lanes);
    return;
  case kDLComplex:
    prefix = "c";
    break;
  case kDLOpaqueHandle:
    prefix = "handle";
    break;
  default:
    snprintf(buffer, capacity, "code%u:%u", (unsigned)dtype.code,
             (unsigned)dtype.bits);
    return;
  }
  if (dtype.lanes == 1)
    snprintf(buffer, capacity, "%s%u", prefix, (unsigned)dtype.bits);
  else
    snprintf(buffer, capacity, "%s%ux%u", prefix, (unsigned)dtype.bits,
             (unsigned)dtype.lanes);
}

static void lrt_format_device(DLDevice device, char *buffer, size_t capacity) {
  const char *name;
  switch (device.device_type) {
  case kDLCPU:
    name = "cpu";
    break;
  case kDLCUDA:
    name = "cuda";
    break;
  case kDLCUDAHost:
    name = "cuda_host";
    break;
  case kDLOpenCL:
    name = "opencl";
    break;
  case kDLVulkan:
    name = "vulkan";
    break;
  case kDLMetal:
    name = "metal";
    break;
  case kDLVPI:
    name = "vpi";
    break;
  case kDLROCM:
    name = "rocm";
    break;
  case kDLROCMHost:
    name = "rocm_host";
    break;
  case kDLExtDev:
    name = "ext_dev";
    break;
  case kDLCUDAManaged:
    name = "cuda_managed";
    break;
  default:
    snprintf(buffer, capacity, "device_type%d:%d", (int)device.device_type,
             device.device_id);
    return;
  }
  snprintf(buffer, capacity, "%s:%d", name, device.device_id);
}

/* Every message starts with the argument it is about. */
#define LRT_ARG_ERROR(code, ref, format, ...)                                  \
  lrt_status_make((code), "argument %d (%s): " format, (ref).index,            \
                  (ref).name ? (ref).name : "?", __VA_ARGS__)

static lrt_status_t lrt_check_rank(const DLTensor *t) {
  if (t->ndim < 0)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, "rank %d is negative",
                           t->ndim);
  if (t->ndim > LRT_MAX_NDIM)
    return lrt_status_make(LRT_STATUS_UNIMPLEMENTED,
                           "rank %d exceeds the supported maximum %d", t->ndim,
                           LRT_MAX_NDIM);
  if (t->ndim > 0 && !t->shape)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "shape is NULL for rank %d", t->ndim);
  for (int i = 0; i < t->ndim; ++i)
    if (t->shape[i] < 0)
      return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                             "size of dimension %d is %" PRId64
                             "; sizes must be >= 0",
                             i, t->shape[i]);
  return LRT_OK;
}

/* Names are formatted only for a message: entry points call this on every
 * call, and snprintf costs more than the rest of the check. */
lrt_status_t lrt_dtype_size(DLDataType dtype, int64_t *bytes) {
  int64_t bits = (int64_t)dtype.bits * dtype.lanes;
  if (bits != 0 && bits % 8 == 0) {
    *bytes = bits / 8;
    return LRT_OK;
  }
  char name[32];
  lrt_format_dtype(dtype, name, sizeof(name));
  if (bits == 0)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "dtype %s has zero bits or lanes", name);
  return lrt_status_make(LRT_STATUS_UNIMPLEMENTED,
                         "dtype %s is not a whole number of bytes", name);
}

lrt_status_t lrt_tensor_numel(const DLTensor *t, int64_t *numel) {
  if (!t)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, "tensor is NULL");
  lrt_status_t status = lrt_check_rank(t);
  if (status)
    return status;
  int64_t product = 1;
  bool empty = false;
  for (int i = 0; i < t->ndim; ++i)
    empty |= t->shape[i] == 0;
  if (empty) {
    *numel = 0;
    return LRT_OK;
  }
  for (int i = 0; i < t->ndim; ++i)
    if (__builtin_mul_overflow(product, t->shape[i], &product))
      return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                             "element count overflows int64");
  *numel = product;
  return LRT_OK;
}

lrt_status_t lrt_tensor_strides(const DLTensor *t, int64_t *strides) {
  if (!t)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, "tensor is NULL");
  lrt_status_t status = lrt_check_rank(t);
  if (status)
    return status;
  if (t->strides) {
    for (int i = 0; i < t->ndim; ++i)
      strides[i] = t->strides[i];
    return LRT_OK;
  }
  /* PyTorch clamps sizes to 1 when it computes contiguous strides, so a
   * zero-size dimension does not zero the strides outside it; matching it
   * keeps stride checks in agreement with tensors torch hands over. */
  int64_t running = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    strides[i] = running;
    int64_t size = t->shape[i] > 1 ? t->shape[i] : 1;
    if (i > 0 && __builtin_mul_overflow(running, size, &running))
      return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                             "row-major stride of dimension %d overflows "
                             "int64",
                             i - 1);
  }
  return LRT_OK;
}

lrt_status_t lrt_tensor_byte_extent(const DLTensor *t,
                                    lrt_byte_extent_t *extent) {
  int64_t numel = 0;
  lrt_status_t status = lrt_tensor_numel(t, &numel);
  if (status)
    return status;
  int64_t element_size = 0;
  if ((status = lrt_dtype_size(t->dtype, &element_size)))
    return status;
  if (t->byte_offset > (uint64_t)INT64_MAX)
    return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                           "byte_offset %" PRIu64 " exceeds int64",
                           t->byte_offset);
  int64_t offset = (int64_t)t->byte_offset;
  if (numel == 0) {
    extent->begin = extent->end = offset;
    return LRT_OK;
  }
  int64_t strides[LRT_MAX_NDIM];
  if ((status = lrt_tensor_strides(t, strides)))
    return status;
  /* Lowest and highest element offsets reached, in elements. */
  int64_t low = 0, high = 0;
  for (int i = 0; i < t->ndim; ++i) {
    int64_t span;
    if (__builtin_mul_overflow(t->shape[i] - 1, strides[i], &span) ||
        __builtin_add_overflow(span < 0 ? low : high, span,
                               span < 0 ? &low : &high))
      return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                             "byte extent overflows int64");
  }
  int64_t begin, end;
  if (__builtin_mul_overflow(low, element_size, &begin) ||
      __builtin_add_overflow(begin, offset, &begin) ||
      __builtin_add_overflow(high, 1, &end) ||
      __builtin_mul_overflow(end, element_size, &end) ||
      __builtin_add_overflow(end, offset, &end))
    return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                           "byte extent overflows int64");
  extent->begin = begin;
  extent->end = end;
  return LRT_OK;
}

/* Prefixes a helper's message with the argument it is about. */
static lrt_status_t lrt_annotate(lrt_status_t status, lrt_tensor_ref_t ref) {
  if (!status)
    return status;
  lrt_status_t annotated = LRT_ARG_ERROR(lrt_status_code(status), ref, "%s",
                                         lrt_status_message(status));
  lrt_status_free(status);
  return annotated;
}

lrt_status_t lrt_check_tensor(const DLTensor *t,
                              const lrt_tensor_spec_t *expected,
                              const char *name, int index) {
  lrt_tensor_ref_t ref = {t, name, index};
  if (!t)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref, "%s",
                         "tensor is NULL");
  if (!expected)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref, "%s",
                         "expected tensor spec is NULL");

  if (expected->dtype.lanes != 1) {
    char want[32];
    lrt_format_dtype(expected->dtype, want, sizeof(want));
    return LRT_ARG_ERROR(LRT_STATUS_UNIMPLEMENTED, ref,
                         "expected tensor spec has vector dtype %s; only "
                         "lanes == 1 is supported",
                         want);
  }

  if (t->device.device_type != expected->device.device_type ||
      (expected->device.device_id != LRT_ANY_DEVICE_ID &&
       t->device.device_id != expected->device.device_id)) {
    char want[48], got[48];
    lrt_format_device(expected->device, want, sizeof(want));
    if (expected->device.device_id == LRT_ANY_DEVICE_ID)
      *strrchr(want, ':') = '\0';
    lrt_format_device(t->device, got, sizeof(got));
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                         "expected device %s, got %s", want, got);
  }

  if (t->dtype.code != expected->dtype.code ||
      t->dtype.bits != expected->dtype.bits || t->dtype.lanes != 1) {
    char want[32], got[32];
    lrt_format_dtype(expected->dtype, want, sizeof(want));
    lrt_format_dtype(t->dtype, got, sizeof(got));
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                         "expected dtype %s, got %s", want, got);
  }

  if (t->ndim != expected->ndim)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                         "expected rank %d, got %d", (int)expected->ndim,
                         t->ndim);
  lrt_status_t status = lrt_annotate(lrt_check_rank(t), ref);
  if (status)
    return status;

  if (expected->sizes) {
    for (int i = 0; i < t->ndim; ++i) {
      if (expected->sizes[i] == LRT_ANY_SIZE ||
          expected->sizes[i] == t->shape[i])
        continue;
      char want[LRT_LIST_CAPACITY], got[LRT_LIST_CAPACITY];
      lrt_format_list(expected->sizes, t->ndim, want);
      lrt_format_list(t->shape, t->ndim, got);
      return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                           "expected size %" PRId64 " in dimension %d, got "
                           "%" PRId64 " (expected sizes %s, got %s; -1 = any)",
                           expected->sizes[i], i, t->shape[i], want, got);
    }
  }

  int64_t numel = 0, element_size = 0;
  lrt_byte_extent_t extent;
  if ((status = lrt_annotate(lrt_tensor_numel(t, &numel), ref)) ||
      (status = lrt_annotate(lrt_dtype_size(t->dtype, &element_size), ref)) ||
      (status = lrt_annotate(lrt_tensor_byte_extent(t, &extent), ref)))
    return status;

  int64_t strides[LRT_MAX_NDIM];
  if ((status = lrt_annotate(lrt_tensor_strides(t, strides), ref)))
    return status;
  if (expected->strides && numel > 0) {
    for (int i = 0; i < t->ndim; ++i) {
      if (expected->strides[i] == LRT_ANY_STRIDE || t->shape[i] == 1 ||
          expected->strides[i] == strides[i])
        continue;
      char want[LRT_LIST_CAPACITY], got[LRT_LIST_CAPACITY];
      lrt_format_values(expected->strides, t->ndim, 1, want);
      lrt_format_list(strides, t->ndim, got);
      return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                           "expected stride %" PRId64 " in dimension %d, got "
                           "%" PRId64 " (expected strides %s, got %s%s)",
                           expected->strides[i], i, strides[i], want, got,
                           t->strides ? "" : ", row-major from NULL strides");
    }
  }

  if (!t->data && numel > 0)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref, "%s",
                         "data is NULL");
  if (t->byte_offset % (uint64_t)element_size != 0)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                         "byte_offset %" PRIu64
                         " is not a multiple of the element size %" PRId64,
                         t->byte_offset, element_size);
  uintptr_t address = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
  if (numel > 0 && address % (uintptr_t)element_size != 0)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                         "data + byte_offset (%p + %" PRIu64
                         ") is not aligned to the element size %" PRId64,
                         t->data, t->byte_offset, element_size);
  return LRT_OK;
}

/* Absolute byte range, or an error if it would leave the address space. */
static lrt_status_t lrt_address_range(const DLTensor *t, uintptr_t *begin,
                                      uintptr_t *end) {
  lrt_byte_extent_t extent;
  lrt_status_t status = lrt_tensor_byte_extent(t, &extent);
  if (status)
    return status;
  uintptr_t base = (uintptr_t)t->data;
  if ((extent.begin < 0 && base < (uintptr_t)(-(extent.begin + 1)) + 1) ||
      (extent.end > 0 && UINTPTR_MAX - base < (uintptr_t)extent.end))
    return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                           "byte range wraps around the address space");
  *begin = extent.begin < 0 ? base - ((uintptr_t)(-(extent.begin + 1)) + 1)
                            : base + (uintptr_t)extent.begin;
  *end = base + (uintptr_t)extent.end;
  return LRT_OK;
}

static lrt_status_t lrt_check_self_overlap(lrt_tensor_ref_t ref) {
  const DLTensor *t = ref.tensor;
  int64_t numel = 0;
  lrt_status_t status = lrt_annotate(lrt_tensor_numel(t, &numel), ref);
  if (status || numel == 0)
    return status;
  int64_t strides[LRT_MAX_NDIM];
  if ((status = lrt_annotate(lrt_tensor_strides(t, strides), ref)))
    return status;
  /* Dimensions of size 1 never move the address, so only the others can
   * collide. */
  int64_t magnitude[LRT_MAX_NDIM], size[LRT_MAX_NDIM];
  int count = 0;
  for (int i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 1)
      continue;
    if (strides[i] == 0)
      return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, ref,
                           "output elements overlap: dimension %d has size "
                           "%" PRId64 " and stride 0",
                           i, t->shape[i]);
    if (strides[i] == INT64_MIN)
      return LRT_ARG_ERROR(LRT_STATUS_OUT_OF_RANGE, ref,
                           "stride of dimension %d is out of range", i);
    int64_t m = strides[i] < 0 ? -strides[i] : strides[i];
    /* Insertion sort: ranks are small. */
    int j = count++;
    for (; j > 0 && magnitude[j - 1] > m; --j) {
      magnitude[j] = magnitude[j - 1];
      size[j] = size[j - 1];
    }
    magnitude[j] = m;
    size[j] = t->shape[i];
  }
  /* Each stride must step past everything the smaller dimensions reach;
   * then every index tuple maps to a distinct offset. */
  int64_t reach = 0;
  for (int j = 0; j < count; ++j) {
    if (magnitude[j] <= reach) {
      char sizes[LRT_LIST_CAPACITY], got[LRT_LIST_CAPACITY];
      lrt_format_list(t->shape, t->ndim, sizes);
      lrt_format_list(strides, t->ndim, got);
      return LRT_ARG_ERROR(
          LRT_STATUS_INVALID_ARGUMENT, ref,
          "output elements may overlap: sizes %s with strides %s do not "
          "nest (sorted by magnitude, each stride must exceed the reach "
          "%" PRId64 " of the smaller ones)",
          sizes, got, reach);
    }
    int64_t span;
    if (__builtin_mul_overflow(magnitude[j], size[j] - 1, &span) ||
        __builtin_add_overflow(reach, span, &reach))
      return LRT_ARG_ERROR(LRT_STATUS_OUT_OF_RANGE, ref, "%s",
                           "element offsets overflow int64");
  }
  return LRT_OK;
}

static bool lrt_identical_views(const DLTensor *a, const DLTensor *b) {
  if ((uintptr_t)a->data + (uintptr_t)a->byte_offset !=
          (uintptr_t)b->data + (uintptr_t)b->byte_offset ||
      a->dtype.code != b->dtype.code || a->dtype.bits != b->dtype.bits ||
      a->dtype.lanes != b->dtype.lanes || a->ndim != b->ndim)
    return false;
  int64_t sa[LRT_MAX_NDIM], sb[LRT_MAX_NDIM];
  lrt_status_t status = lrt_tensor_strides(a, sa);
  if (!status)
    status = lrt_tensor_strides(b, sb);
  if (status) {
    lrt_status_free(status);
    return false;
  }
  for (int i = 0; i < a->ndim; ++i)
    if (a->shape[i] != b->shape[i] || (a->shape[i] != 1 && sa[i] != sb[i]))
      return false;
  return true;
}

lrt_status_t lrt_check_output_overlap(lrt_tensor_ref_t output,
                                      const lrt_tensor_ref_t *inputs,
                                      size_t num_inputs, int flags) {
  bool check_self = flags & LRT_OVERLAP_CHECK_SELF;
  bool allow_identical = flags & LRT_OVERLAP_ALLOW_IDENTICAL;
  if (!output.tensor)
    return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, output, "%s",
                         "tensor is NULL");
  if (num_inputs > 0 && !inputs)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "check_no_overlap: inputs is NULL for %zu inputs",
                           num_inputs);
  lrt_status_t status = check_self ? lrt_check_self_overlap(output) : LRT_OK;
  if (status)
    return status;
  uintptr_t out_begin = 0, out_end = 0;
  if ((status = lrt_annotate(
           lrt_address_range(output.tensor, &out_begin, &out_end), output)))
    return status;
  for (size_t i = 0; i < num_inputs; ++i) {
    const DLTensor *in = inputs[i].tensor;
    if (!in)
      return LRT_ARG_ERROR(LRT_STATUS_INVALID_ARGUMENT, inputs[i], "%s",
                           "tensor is NULL");
    uintptr_t in_begin = 0, in_end = 0;
    if ((status = lrt_annotate(lrt_address_range(in, &in_begin, &in_end),
                               inputs[i])))
      return status;
    if (out_begin == out_end || in_begin == in_end ||
        in->device.device_type != output.tensor->device.device_type ||
        in->device.device_id != output.tensor->device.device_id ||
        in_end <= out_begin || out_end <= in_begin ||
        (allow_identical && lrt_identical_views(in, output.tensor)))
      continue;
    return LRT_ARG_ERROR(
        LRT_STATUS_INVALID_ARGUMENT, output,
        "overlaps argument %d (%s): output bytes [%#" PRIxPTR ", %#" PRIxPTR
        ") intersect input bytes [%#" PRIxPTR ", %#" PRIxPTR ")%s",
        inputs[i].index, inputs[i].name ? inputs[i].name : "?", out_begin,
        out_end, in_begin, in_end,
        allow_identical ? " and the two are not the identical view"
                        : "; a written tensor must not share memory with "
                          "any other argument");
  }
  return LRT_OK;
}

lrt_status_t lrt_check_no_overlap(lrt_tensor_ref_t output,
                                  const lrt_tensor_ref_t *inputs,
                                  size_t num_inputs) {
  return lrt_check_output_overlap(output, inputs, num_inputs,
                                  LRT_OVERLAP_CHECK_SELF |
                                      LRT_OVERLAP_ALLOW_IDENTICAL);
}

lrt_status_t lrt_check_no_overlap_with_inputs(lrt_tensor_ref_t output,
                                              const lrt_tensor_ref_t *inputs,
                                              size_t num_inputs) {
  return lrt_check_output_overlap(output, inputs, num_inputs,
                                  LRT_OVERLAP_ALLOW_IDENTICAL);
}
