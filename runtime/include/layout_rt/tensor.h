/* DLPack (v0.6) tensor validation for kernel entry points.
 *
 * Units: sizes and strides are in elements (as in DLPack), byte_offset and
 * byte extents are in bytes. A DLTensor with strides == NULL is row-major
 * (compact, last dimension fastest). None of these functions keep or free
 * the tensors they are given.
 */
#ifndef LAYOUT_RT_TENSOR_H
#define LAYOUT_RT_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "layout_rt/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ranks above this are rejected (LRT_STATUS_UNIMPLEMENTED) so that checks
 * can use fixed-size scratch space. */
#define LRT_MAX_NDIM 64

/* In lrt_tensor_spec_t::sizes: any size matches. */
#define LRT_ANY_SIZE ((int64_t)-1)
/* In lrt_tensor_spec_t::strides: any stride matches (every other value,
 * negative ones included, is a real stride). */
#define LRT_ANY_STRIDE INT64_MIN
/* In lrt_tensor_spec_t::device.device_id: any device id matches. */
#define LRT_ANY_DEVICE_ID (-1)

/* What a kernel expects of one DLTensor argument. Borrowed: the arrays are
 * read during lrt_check_tensor only. */
typedef struct lrt_tensor_spec_t {
  /* Exact element type; lanes must be 1. */
  DLDataType dtype;
  /* Exact rank. */
  int32_t ndim;
  /* ndim expected sizes, LRT_ANY_SIZE for dynamic ones; NULL = all
   * dynamic. */
  const int64_t *sizes;
  /* ndim expected element strides, LRT_ANY_STRIDE for unconstrained ones;
   * NULL = any layout. Dimensions of size 1, and every dimension of a
   * tensor with no elements, are not compared: their strides never affect
   * an address. */
  const int64_t *strides;
  /* Expected device type (kDLCPU for CPU kernels) and id, or
   * LRT_ANY_DEVICE_ID. */
  DLDevice device;
} lrt_tensor_spec_t;

/* Names a DLTensor argument in error messages: "argument <index>
 * (<name>)". Borrowed. */
typedef struct lrt_tensor_ref_t {
  const DLTensor *tensor;
  const char *name;
  int index;
} lrt_tensor_ref_t;

/* Half-open byte range [begin, end) that a tensor's elements occupy,
 * relative to its data pointer (byte_offset included). begin is negative
 * only with negative strides. begin == end == byte_offset for a tensor with
 * no elements. */
typedef struct lrt_byte_extent_t {
  int64_t begin;
  int64_t end;
} lrt_byte_extent_t;

/* Checks t against expected: non-NULL tensor, device, dtype, rank, sizes,
 * strides, non-NULL data (unless the tensor has no elements), byte_offset
 * and data + byte_offset aligned to the element size, and a byte extent
 * that fits in 64 bits. The message names the argument, e.g.
 * "argument 0 (x): expected dtype f32, got f16". `name` may be NULL. */
lrt_status_t lrt_check_tensor(const DLTensor *t,
                              const lrt_tensor_spec_t *expected,
                              const char *name, int index);

/* Checks that an output may be written while the inputs are read: the
 * output's elements must not overlap each other (no stride 0 over a
 * dimension of size > 1, and strides sorted by magnitude must nest; outputs
 * that interleave without overlapping are rejected too, as this cannot be
 * proven cheaply), and its byte range must not intersect any input's unless
 * that input is the identical view (same address, dtype, sizes, strides),
 * which in-place elementwise kernels allow. Tensors on different devices
 * never overlap. Tensors with no elements never overlap anything. */
lrt_status_t lrt_check_no_overlap(lrt_tensor_ref_t output,
                                  const lrt_tensor_ref_t *inputs,
                                  size_t num_inputs);

/* lrt_check_no_overlap without the output's check against itself, for an
 * output whose layout is already known to have distinct elements (entry.h's
 * LRT_ROLE_DISTINCT): only the inputs' byte ranges are checked. */
lrt_status_t lrt_check_no_overlap_with_inputs(lrt_tensor_ref_t output,
                                              const lrt_tensor_ref_t *inputs,
                                              size_t num_inputs);

/* Flags of lrt_check_output_overlap. */
enum {
  /* Check the output against itself, as lrt_check_no_overlap does. */
  LRT_OVERLAP_CHECK_SELF = 1,
  /* Accept an input that is the identical view of the output, which only an
   * in-place elementwise kernel may. */
  LRT_OVERLAP_ALLOW_IDENTICAL = 2,
};

/* The check of lrt_check_no_overlap with its parts chosen by `flags`.
 * Without LRT_OVERLAP_ALLOW_IDENTICAL, any input whose byte range intersects
 * the output's is refused. Generated entry points bind that way: their
 * kernels read an argument through views of their own (a flip, a
 * transpose), so even the identical view would be read where it is being
 * written. */
lrt_status_t lrt_check_output_overlap(lrt_tensor_ref_t output,
                                      const lrt_tensor_ref_t *inputs,
                                      size_t num_inputs, int flags);

/* Bytes per element, bits * lanes / 8. UNIMPLEMENTED when that is not a
 * whole number of bytes; INVALID_ARGUMENT for zero bits or lanes. */
lrt_status_t lrt_dtype_size(DLDataType dtype, int64_t *bytes);

/* Product of the sizes (1 for rank 0); OUT_OF_RANGE on overflow. */
lrt_status_t lrt_tensor_numel(const DLTensor *t, int64_t *numel);

/* Writes t->ndim element strides to `strides`: t->strides, or the row-major
 * strides when t->strides is NULL. OUT_OF_RANGE on overflow. */
lrt_status_t lrt_tensor_strides(const DLTensor *t, int64_t *strides);

/* Computes the byte extent of t; OUT_OF_RANGE when it does not fit in
 * int64_t. */
lrt_status_t lrt_tensor_byte_extent(const DLTensor *t,
                                    lrt_byte_extent_t *extent);

/* Short names used in messages: "f32", "i64", "bf16", "f32x4". Writes at
 * most `capacity` bytes including the terminator. */
void lrt_format_dtype(DLDataType dtype, char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_RT_TENSOR_H */
