#include "layout_rt/entry.h"

#include "layout_rt/symbolic.h"
#include "layout_rt/tensor.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most parameters one function may have; generated functions have a
 * handful. */
#define LRT_MAX_PARAMS 256

typedef struct lrt_param_t {
  int64_t role;
  /* LRT_ROLE_DISTINCT was set: the declared layout's elements are distinct. */
  bool distinct;
  int64_t number;
  lrt_tensor_spec_t spec;
} lrt_param_t;

static lrt_status_t lrt_prefix(lrt_status_t status, const char *function) {
  if (!status)
    return status;
  lrt_status_t prefixed = lrt_status_make(lrt_status_code(status), "%s: %s",
                                          function, lrt_status_message(status));
  lrt_status_free(status);
  return prefixed;
}

/* Walks the descriptor; returns the parameter count, or -1 when it is
 * malformed (a compiler bug, reported as INTERNAL). */
static int lrt_decode(const int64_t *descriptor, DLDeviceType device_type,
                      lrt_param_t *params) {
  if (!descriptor || descriptor[0] != 1 || descriptor[1] < 0 ||
      descriptor[1] > LRT_MAX_PARAMS)
    return -1;
  int count = (int)descriptor[1];
  const int64_t *p = descriptor + 2;
  for (int i = 0; i < count; ++i) {
    lrt_param_t *param = &params[i];
    param->role = p[0] & ~(int64_t)LRT_ROLE_DISTINCT;
    param->distinct = (p[0] & LRT_ROLE_DISTINCT) != 0;
    if (param->distinct && param->role == LRT_ROLE_INPUT)
      return -1;
    param->number = p[1];
    param->spec.dtype.code = (uint8_t)p[2];
    param->spec.dtype.bits = (uint8_t)p[3];
    param->spec.dtype.lanes = 1;
    if (p[4] < 0 || p[4] > LRT_MAX_NDIM || param->role < LRT_ROLE_INPUT ||
        param->role > LRT_ROLE_OUTPUT)
      return -1;
    param->spec.ndim = (int32_t)p[4];
    param->spec.sizes = p + 5;
    param->spec.strides = p + 5 + p[4];
    param->spec.device.device_type = device_type;
    param->spec.device.device_id = LRT_ANY_DEVICE_ID;
    p += 5 + 2 * p[4];
  }
  return count;
}

/* The checks of lrt_bind_tensors_named. `names` holds each parameter's
 * name for messages, or is NULL: names are spelled out only once a check
 * has failed (lrt_bind_tensors_named), never on the success path. */
static lrt_status_t lrt_check_params(const lrt_param_t *params, int count,
                                     const DLTensor *const *tensors,
                                     const char *const *names) {
  lrt_tensor_ref_t refs[LRT_MAX_PARAMS];
  for (int i = 0; i < count; ++i) {
    refs[i].tensor = tensors[i];
    refs[i].name = names ? names[i] : NULL;
    refs[i].index = i;
    lrt_status_t status =
        lrt_check_tensor(tensors[i], &params[i].spec, refs[i].name, i);
    if (status)
      return status;
  }
  lrt_tensor_ref_t others[LRT_MAX_PARAMS];
  for (int i = 0; i < count; ++i) {
    if (params[i].role == LRT_ROLE_INPUT)
      continue;
    size_t numOthers = 0;
    for (int j = 0; j < count; ++j)
      if (j != i)
        others[numOthers++] = refs[j];
    /* lrt_check_tensor has matched the declared layout, which the
     * compiler proved distinct when it set the flag. No identical views:
     * kernels read arguments through views of their own. */
    lrt_status_t status = lrt_check_output_overlap(
        refs[i], others, numOthers,
        params[i].distinct ? 0 : LRT_OVERLAP_CHECK_SELF);
    if (status)
      return status;
  }
  return LRT_OK;
}

/* Fills names[i] with parameter i's name: the i-th entry of `list` (see
 * lrt_bind_tensors_named), else "arg<N>" / "result<N>" in storage[i]. */
static void lrt_param_names(const lrt_param_t *params, int count,
                            const char *list, char (*storage)[32],
                            const char **names) {
  for (int i = 0; i < count; ++i) {
    if (list && *list) {
      names[i] = list;
      list += strlen(list) + 1;
      continue;
    }
    list = NULL;
    snprintf(storage[i], sizeof(storage[i]), "%s%lld",
             params[i].role == LRT_ROLE_OUTPUT ? "result" : "arg",
             (long long)params[i].number);
    names[i] = storage[i];
  }
}

lrt_status_t lrt_bind_tensors(const char *function, const int64_t *descriptor,
                              const DLTensor *const *tensors, void **data) {
  return lrt_bind_tensors_named(function, descriptor, NULL, kDLCPU, tensors,
                                data);
}

lrt_status_t lrt_bind_tensors_device(const char *function,
                                     const int64_t *descriptor,
                                     DLDeviceType device_type,
                                     const DLTensor *const *tensors,
                                     void **data) {
  return lrt_bind_tensors_named(function, descriptor, NULL, device_type,
                                tensors, data);
}

lrt_status_t lrt_bind_tensors_named(const char *function,
                                    const int64_t *descriptor,
                                    const char *names, DLDeviceType device_type,
                                    const DLTensor *const *tensors,
                                    void **data) {
  if (!function)
    function = "<kernel>";
  lrt_param_t params[LRT_MAX_PARAMS];
  int count = lrt_decode(descriptor, device_type, params);
  if (count < 0)
    return lrt_status_make(LRT_STATUS_INTERNAL,
                           "%s: malformed argument descriptor", function);
  lrt_status_t status = lrt_check_params(params, count, tensors, NULL);
  if (status) {
    /* The checks only read the tensors, so running them again with the
     * names gives the same error, now naming its parameter. */
    char storage[LRT_MAX_PARAMS][32];
    const char *spelled[LRT_MAX_PARAMS];
    lrt_param_names(params, count, names, storage, spelled);
    lrt_status_t named = lrt_check_params(params, count, tensors, spelled);
    if (named) {
      lrt_status_free(status);
      status = named;
    }
    return lrt_prefix(status, function);
  }

  /* In integers: a tensor without elements may have NULL data and any
   * aligned byte_offset, and NULL plus an offset is undefined in C. Such a
   * pointer is never dereferenced. */
  for (int i = 0; i < count; ++i)
    data[i] = (void *)((uintptr_t)tensors[i]->data +
                       (uintptr_t)tensors[i]->byte_offset);
  return LRT_OK;
}

/* The number of int64_t in a well-formed descriptor, or -1. */
static int64_t lrt_descriptor_length(const int64_t *descriptor) {
  if (!descriptor || descriptor[0] != 1 || descriptor[1] < 0 ||
      descriptor[1] > LRT_MAX_PARAMS)
    return -1;
  int64_t at = 2;
  for (int64_t i = 0; i < descriptor[1]; ++i) {
    int64_t ndim = descriptor[at + 4];
    if (ndim < 0 || ndim > LRT_MAX_NDIM)
      return -1;
    at += 5 + 2 * ndim;
  }
  return at;
}

/* Where parameter `param`'s expected size (kind 0) or stride (kind 1) of
 * `dim` is in a descriptor, or -1. */
static int64_t lrt_descriptor_slot(const int64_t *descriptor, int64_t param,
                                   int64_t dim, int64_t kind) {
  if (param < 0 || param >= descriptor[1] || kind < 0 || kind > 1)
    return -1;
  int64_t at = 2;
  for (int64_t i = 0; i < param; ++i)
    at += 5 + 2 * descriptor[at + 4];
  int64_t ndim = descriptor[at + 4];
  if (dim < 0 || dim >= ndim)
    return -1;
  return at + 5 + kind * ndim + dim;
}

/* Parameters other than outputs checked against their descriptor entries
 * (lrt_check_tensor), with the names in the message of a failed check, as
 * lrt_bind_tensors_named does; outputs may be NULL. */
static lrt_status_t lrt_check_arguments(const char *function,
                                        const int64_t *descriptor,
                                        const char *names,
                                        DLDeviceType device_type,
                                        const DLTensor *const *tensors) {
  lrt_param_t params[LRT_MAX_PARAMS];
  int count = lrt_decode(descriptor, device_type, params);
  if (count < 0)
    return lrt_status_make(LRT_STATUS_INTERNAL,
                           "%s: malformed argument descriptor", function);
  for (int i = 0; i < count; ++i) {
    if (params[i].role == LRT_ROLE_OUTPUT)
      continue;
    if (!lrt_check_tensor(tensors[i], &params[i].spec, NULL, i))
      continue;
    char storage[LRT_MAX_PARAMS][32];
    const char *spelled[LRT_MAX_PARAMS];
    lrt_param_names(params, count, names, storage, spelled);
    return lrt_prefix(
        lrt_check_tensor(tensors[i], &params[i].spec, spelled[i], i), function);
  }
  return LRT_OK;
}

/* What lrt_bind_dynamic and lrt_dynamic_layouts share, on tensors that
 * passed the descriptor's checks (of the arguments at least: the input
 * symbols are arguments' sizes and strides): reads the input symbols into
 * `inputs`, runs the program, and returns its outputs and the descriptor
 * completed with the fills, both malloc'd (free them); NULL on failure. */
static lrt_status_t
lrt_dynamic_eval(const char *function, const int64_t *descriptor,
                 const DLTensor *const *tensors, const int64_t *dynamic,
                 const int64_t *program, const char *messages, int64_t *inputs,
                 int64_t **outputs, int64_t **completed) {
  *outputs = NULL;
  *completed = NULL;
  int64_t length = lrt_descriptor_length(descriptor);
  int64_t num_symbols = program ? lrt_symbolic_num_symbols(program) : -1;
  int64_t num_inputs = dynamic ? dynamic[0] : -1;
  if (length < 0 || num_symbols < 0 || num_inputs < 0 ||
      lrt_symbolic_num_inputs(program) != num_inputs)
    return lrt_status_make(LRT_STATUS_INTERNAL,
                           "%s: malformed dynamic descriptor", function);
  lrt_status_t status = LRT_OK;
  const int64_t *in = dynamic + 1;
  for (int64_t i = 0; i < num_inputs; ++i, in += 3) {
    if (in[2] == 2 && in[0] >= 0 && in[0] < descriptor[1] && in[1] == 0 &&
        tensors[in[0]]) {
      /* An offset: byte_offset in elements (data is the storage's start).
       * The checks took byte_offset to be a whole number of elements that
       * fits in int64_t. */
      const DLTensor *t = tensors[in[0]];
      int64_t bytes = 0;
      if ((status = lrt_dtype_size(t->dtype, &bytes)))
        return lrt_prefix(status, function);
      inputs[i] = (int64_t)(t->byte_offset / (uint64_t)bytes);
      continue;
    }
    if (lrt_descriptor_slot(descriptor, in[0], in[1], in[2]) < 0 ||
        !tensors[in[0]])
      return lrt_status_make(LRT_STATUS_INTERNAL,
                             "%s: malformed dynamic descriptor", function);
    const DLTensor *t = tensors[in[0]];
    if (in[2] == 0) {
      inputs[i] = t->shape[in[1]];
    } else {
      int64_t strides[LRT_MAX_NDIM];
      status = lrt_tensor_strides(t, strides);
      if (status)
        return lrt_prefix(status, function);
      inputs[i] = strides[in[1]];
    }
  }
  int64_t num_fills = *in++;
  int64_t *values = malloc(sizeof(int64_t) * (size_t)(num_symbols + 1));
  *outputs = malloc(sizeof(int64_t) * (size_t)(program[4] + 1));
  *completed = malloc(sizeof(int64_t) * (size_t)length);
  if (!values || !*outputs || !*completed)
    status = lrt_status_make(LRT_STATUS_RESOURCE_EXHAUSTED,
                             "%s: out of memory binding tensors", function);
  if (!status)
    status =
        lrt_symbolic_run(function, program, messages, inputs, values, *outputs);
  if (!status) {
    memcpy(*completed, descriptor, sizeof(int64_t) * (size_t)length);
    for (int64_t f = 0; f < num_fills && !status; ++f, in += 4) {
      int64_t slot = lrt_descriptor_slot(descriptor, in[0], in[1], in[2]);
      if (slot < 0 || in[3] < 0 || in[3] >= program[4])
        status = lrt_status_make(LRT_STATUS_INTERNAL,
                                 "%s: malformed dynamic descriptor", function);
      else
        (*completed)[slot] = (*outputs)[in[3]];
    }
  }
  free(values);
  if (status) {
    free(*outputs);
    free(*completed);
    *outputs = NULL;
    *completed = NULL;
  }
  return status;
}

lrt_status_t lrt_bind_dynamic(const char *function, const int64_t *descriptor,
                              const char *names, DLDeviceType device_type,
                              const DLTensor *const *tensors, void **data,
                              const int64_t *dynamic, const int64_t *program,
                              const char *messages, int64_t *inputs) {
  if (!function)
    function = "<kernel>";
  lrt_status_t status = lrt_bind_tensors_named(function, descriptor, names,
                                               device_type, tensors, data);
  if (status)
    return status;
  int64_t *outputs = NULL, *completed = NULL;
  status = lrt_dynamic_eval(function, descriptor, tensors, dynamic, program,
                            messages, inputs, &outputs, &completed);
  if (!status)
    status = lrt_bind_tensors_named(function, completed, names, device_type,
                                    tensors, data);
  free(outputs);
  free(completed);
  return status;
}

/* Program output `index` of `outputs` (num_outputs of them), or -1 with a
 * malformed-table flag set. */
static int64_t lrt_output_at(const int64_t *outputs, int64_t num_outputs,
                             int64_t index, bool *malformed) {
  if (index < 0 || index >= num_outputs) {
    *malformed = true;
    return -1;
  }
  return outputs[index];
}

/* One result of lrt_dynamic_layouts' table (entry.h) from `r` on: its
 * layout into `layout`; returns the entry's length, or -1 when it is
 * malformed. */
static int64_t lrt_decode_layout(const int64_t *r, const int64_t *outputs,
                                 int64_t num_outputs, int num_params,
                                 lrt_layout_t *layout) {
  int64_t ndim = r[0], output = r[1], argument = r[2], copies = r[3];
  if (ndim < 0 || ndim > LRT_MAX_NDIM || output < 0 || output > 1 ||
      argument < -1 || argument >= num_params || (!output && argument < 0) ||
      (copies >= 0 && (!output || argument < 0)))
    return -1;
  bool malformed = false;
  bool view = argument >= 0 &&
              (copies < 0 ||
               lrt_output_at(outputs, num_outputs, copies, &malformed) == 0);
  memset(layout, 0, sizeof(*layout));
  layout->ndim = (int32_t)ndim;
  layout->has_output = (int32_t)output;
  layout->view_of = view ? (int32_t)argument : -1;
  const int64_t *at = r + 4;
  for (int64_t d = 0; d < ndim; ++d)
    layout->sizes[d] = lrt_output_at(outputs, num_outputs, *at++, &malformed);
  if (output)
    for (int64_t d = 0; d < ndim; ++d)
      layout->output_strides[d] =
          lrt_output_at(outputs, num_outputs, *at++, &malformed);
  if (argument >= 0) {
    for (int64_t d = 0; d < ndim; ++d) {
      int64_t stride = lrt_output_at(outputs, num_outputs, *at++, &malformed);
      if (view)
        layout->strides[d] = stride;
    }
    int64_t offset = lrt_output_at(outputs, num_outputs, *at++, &malformed);
    if (view)
      layout->offset = offset;
  }
  if (!view)
    memcpy(layout->strides, layout->output_strides,
           sizeof(int64_t) * (size_t)ndim);
  return malformed ? -1 : at - r;
}

lrt_status_t lrt_dynamic_layouts(const char *function,
                                 const int64_t *descriptor, const char *names,
                                 DLDeviceType device_type,
                                 const DLTensor *const *tensors,
                                 const int64_t *dynamic, const int64_t *program,
                                 const char *messages, const int64_t *results,
                                 lrt_layout_t *layouts) {
  if (!function)
    function = "<kernel>";
  lrt_status_t status =
      lrt_check_arguments(function, descriptor, names, device_type, tensors);
  if (status)
    return status;
  if (!dynamic || dynamic[0] < 0 || dynamic[0] > LRT_SYMBOLIC_MAX_SYMBOLS ||
      !results || results[0] < 0)
    return lrt_status_make(LRT_STATUS_INTERNAL,
                           "%s: malformed dynamic descriptor", function);
  if (!layouts && results[0] > 0)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, "%s: layouts is NULL",
                           function);
  int64_t inputs[LRT_SYMBOLIC_MAX_SYMBOLS + 1];
  int64_t *outputs = NULL, *completed = NULL;
  status = lrt_dynamic_eval(function, descriptor, tensors, dynamic, program,
                            messages, inputs, &outputs, &completed);
  if (!status)
    status =
        lrt_check_arguments(function, completed, names, device_type, tensors);
  const int64_t *r = results + 1;
  for (int64_t i = 0; i < results[0] && !status; ++i) {
    int64_t length = lrt_decode_layout(r, outputs, program[4],
                                       (int)descriptor[1], &layouts[i]);
    if (length < 0)
      status = lrt_status_make(LRT_STATUS_INTERNAL,
                               "%s: malformed result table", function);
    r += length;
  }
  free(outputs);
  free(completed);
  return status;
}

lrt_status_t lrt_scratch_alloc(int64_t bytes, void **pointer) {
  *pointer = NULL;
  if (bytes < 0)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "scratch size %lld is negative", (long long)bytes);
  /* aligned_alloc wants a multiple of the alignment. */
  int64_t rounded = (bytes + 63) / 64 * 64;
  if (rounded == 0)
    rounded = 64;
  void *p = NULL;
  if (rounded < bytes || posix_memalign(&p, 64, (size_t)rounded) != 0 || !p)
    return lrt_status_make(LRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot allocate %lld bytes of scratch memory",
                           (long long)bytes);
  *pointer = p;
  return LRT_OK;
}

void lrt_scratch_free(void *pointer) { free(pointer); }
