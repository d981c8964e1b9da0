/* Interface between the generic execution driver (driver.c) and the table of
 * entry points that exec_test.py generates for each module (entries.c).
 *
 * Every generated function gets two adapters with one uniform signature:
 * `dl` calls the DLPack entry point, `raw` the raw one (NULL when the case
 * does not exercise it). Parameters are passed in ABI order: arguments, then
 * one output per new-storage result. */
#ifndef LAYOUT_EXEC_DRIVER_H
#define LAYOUT_EXEC_DRIVER_H

#include <dlpack/dlpack.h>

#include "layout_rt/layout_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

typedef lrt_status_t (*exec_dl_fn_t)(DLTensor *const *params,
                                     const lrt_exec_options_t *options);
typedef lrt_status_t (*exec_raw_fn_t)(void *const *params,
                                      const lrt_exec_options_t *options);

typedef struct exec_entry_t {
  const char *name;
  exec_dl_fn_t dl;
  exec_raw_fn_t raw;
} exec_entry_t;

extern const exec_entry_t exec_entries[];
extern const int exec_num_entries;

/* Where the entry points want their tensors. The driver keeps every buffer
 * (guards included) in host memory; with a device, each run mirrors the
 * buffers into device memory, passes device pointers (and DLTensors of
 * `device_type`), and copies every buffer back afterwards, so the host-side
 * checks of exec_test.py (outputs, untouched inputs, guards) see device
 * memory. NULL (the default, a weak definition in driver.c) = host. */
typedef struct exec_device_t {
  int device_type; /* a DLDeviceType */
  void *(*alloc)(size_t bytes);
  void (*release)(void *pointer);
  void (*to_device)(void *dst, const void *src, size_t bytes);
  void (*to_host)(void *dst, const void *src, size_t bytes);
  /* Waits for the work the entry point enqueued. */
  void (*sync)(void);
} exec_device_t;

extern const exec_device_t *exec_device;

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_EXEC_DRIVER_H */
