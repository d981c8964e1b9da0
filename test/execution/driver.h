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

#endif /* LAYOUT_EXEC_DRIVER_H */
