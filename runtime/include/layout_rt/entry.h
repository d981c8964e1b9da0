/* Support for the entry points layoutc generates: argument binding from a
 * constant descriptor, and scratch memory. Applications do not call these;
 * generated code does.
 */
#ifndef LAYOUT_RT_ENTRY_H
#define LAYOUT_RT_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "layout_rt/status.h"
#include "layout_rt/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DLPack 0.6 has no boolean code; this is the value later DLPack versions
 * (and PyTorch 2) give kDLBool. layoutc's i1 is {LRT_DL_BOOL, 8, 1}. */
#define LRT_DL_BOOL 6

/* Roles of a tensor parameter in a descriptor. */
enum {
  LRT_ROLE_INPUT = 0,   /* read only */
  LRT_ROLE_WRITTEN = 1, /* an argument the function writes into */
  LRT_ROLE_OUTPUT = 2,  /* caller-allocated new result */
  /* Added to WRITTEN or OUTPUT: the compiler proved that the declared
   * (static) layout's elements are distinct, though its strides do not nest
   * (sizes [2, 3], strides [3, 2]). A tensor that passes the descriptor's
   * checks has that layout, so its own-overlap check is skipped; its
   * overlap with the other parameters is still checked. */
  LRT_ROLE_DISTINCT = 16,
};

/* The descriptor layoutc emits for a function, as one constant int64_t
 * array:
 *   [1 (version), count,
 *    then per parameter: role, number (argument or result index), dtype code,
 *    dtype bits, ndim, sizes[ndim], strides[ndim]]
 * Strides of LRT_ANY_STRIDE (INT64_MIN) are unconstrained. A role may carry
 * LRT_ROLE_DISTINCT.
 *
 * Checks every tensor against its entry (lrt_check_tensor), then checks
 * that no written or output tensor overlaps itself or any other parameter
 * (lrt_check_no_overlap), and stores data + byte_offset of each in
 * `data[i]`. Messages start with "<function>: ". */
lrt_status_t lrt_bind_tensors(const char *function, const int64_t *descriptor,
                              const DLTensor *const *tensors, void **data);

/* lrt_bind_tensors for kernels on another device: every tensor must have
 * device type `device_type` (any device id), e.g. kDLCUDA for the CUDA
 * launchers ("f: argument 0 (arg0): expected device cuda, got cpu").
 * Whether the data pointers really are device memory is the caller's check
 * (the CUDA launchers ask cudaPointerGetAttributes); layout_rt stays plain C
 * with no CUDA dependency. lrt_bind_tensors is this with kDLCPU. */
lrt_status_t lrt_bind_tensors_device(const char *function,
                                     const int64_t *descriptor,
                                     DLDeviceType device_type,
                                     const DLTensor *const *tensors,
                                     void **data);

/* lrt_bind_tensors_device with the parameters' names for messages
 * ("f: argument 0 (x): expected dtype f32, got f16"): `names` lists them in
 * descriptor order, each NUL-terminated, ended by an empty name
 * ("x\0result0\0" as a C string literal). Parameters past the list, and all
 * of them when `names` is NULL, are named "arg<N>" / "result<N>". Names are
 * only read, and default names only formatted, when a check fails; success
 * costs the same as without names. What the entry points layoutc generates
 * call. */
lrt_status_t lrt_bind_tensors_named(const char *function,
                                    const int64_t *descriptor,
                                    const char *names, DLDeviceType device_type,
                                    const DLTensor *const *tensors,
                                    void **data);

/* lrt_bind_tensors_named for a function with dynamic sizes (symbolic.h).
 * `descriptor` is lrt_bind_tensors_named's with LRT_ANY_SIZE / LRT_ANY_STRIDE
 * where a size or stride is known only at run time; `dynamic` says how to
 * compute them, as one constant int64_t array:
 *   [num_inputs, then per input symbol: parameter, dim, kind,
 *    num_fills, then per fill: parameter, dim, kind, output]
 * with kind 0 for a size, 1 for a stride and 2 (dim 0) for the offset of a
 * tensor whose type has a dynamic offset: its byte_offset in elements (its
 * storage then starts at `data`). The tensors are checked against
 * `descriptor` first (device, dtype, rank, the static sizes and strides,
 * overlap); then each input symbol is read from its tensor, `program` runs on
 * them with `messages` (a failed check is INVALID_ARGUMENT with PyTorch's
 * message), each fill sets that expected size or stride to the program's
 * output, and the tensors are checked again against the completed
 * descriptor ("f: argument 1 (out): expected size 3 in dimension 0, got 4").
 * On success `inputs` holds the input symbols' values, in order (what the
 * raw entry point takes), and `data` the pointers. */
lrt_status_t lrt_bind_dynamic(const char *function, const int64_t *descriptor,
                              const char *names, DLDeviceType device_type,
                              const DLTensor *const *tensors, void **data,
                              const int64_t *dynamic, const int64_t *program,
                              const char *messages, int64_t *inputs);

/* One result's layout for the arguments a dynamic function's
 * <f>_layouts was called with (docs/abi.md, "Dynamic sizes"). */
typedef struct lrt_layout_t {
  int32_t ndim;
  /* 1 when the function takes an output for this result (a new tensor):
   * the caller allocates it with `sizes` and `output_strides` and passes
   * it; 0 for a view of an argument. */
  int32_t has_output;
  /* -1: the result is the output; else the number of the argument whose
   * view it is, as PyTorch returns it (then the output, if any, is not
   * written when the entry point gets a `_view` report). */
  int32_t view_of;
  int32_t reserved;
  /* A view's first element, in elements from the argument's; 0 for the
   * output. */
  int64_t offset;
  int64_t sizes[LRT_MAX_NDIM];
  /* The result's strides: the view's, or the output's. */
  int64_t strides[LRT_MAX_NDIM];
  int64_t output_strides[LRT_MAX_NDIM];
} lrt_layout_t;

/* What a dynamic function's <f>_layouts calls: checks the arguments (the
 * descriptor's parameters other than outputs, which may be NULL in
 * `tensors`) as lrt_bind_dynamic does, without the overlap checks, runs the
 * program on their sizes (a failed check is INVALID_ARGUMENT with
 * PyTorch's message), and writes each result's layout to `layouts` from
 * `results`, one constant int64_t array:
 *   [num_results, then per result: ndim, has_output, argument (or -1),
 *    copies (a program output that is 0 where PyTorch returns the
 *    argument's view and the output otherwise, or -1),
 *    program outputs of: sizes[ndim], output strides[ndim] (has_output),
 *    view strides[ndim] and view offset (argument >= 0)]. */
lrt_status_t lrt_dynamic_layouts(const char *function,
                                 const int64_t *descriptor, const char *names,
                                 DLDeviceType device_type,
                                 const DLTensor *const *tensors,
                                 const int64_t *dynamic, const int64_t *program,
                                 const char *messages, const int64_t *results,
                                 lrt_layout_t *layouts);

/* malloc with a status: INVALID_ARGUMENT for a negative size,
 * RESOURCE_EXHAUSTED when memory is short. 64-byte aligned; zero bytes gives
 * a valid pointer. Release with lrt_scratch_free. */
lrt_status_t lrt_scratch_alloc(int64_t bytes, void **pointer);
void lrt_scratch_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_RT_ENTRY_H */
