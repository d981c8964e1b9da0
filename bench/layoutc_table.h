// The generated layoutc kernels the driver calls: the f_raw entry point of
// each case function, wrapped to one signature. The table itself is written
// by cases.py --layoutc-table when the backend exists.
#ifndef LAYOUTC_BENCH_LAYOUTC_TABLE_H
#define LAYOUTC_BENCH_LAYOUTC_TABLE_H

#include "layout_rt/layout_rt.h"

struct LayoutcEntry {
  const char *name;
  lrt_status_t (*fn)(const void *input, void *result,
                     const lrt_exec_options_t *options);
};

// Terminated by {nullptr, nullptr}.
extern const LayoutcEntry kLayoutcEntries[];

#endif // LAYOUTC_BENCH_LAYOUTC_TABLE_H
