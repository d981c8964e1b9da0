// The Halide pipelines the driver calls (written by halide_gen --table).
#ifndef LAYOUTC_BENCH_HALIDE_TABLE_H
#define LAYOUTC_BENCH_HALIDE_TABLE_H

#include "HalideRuntime.h"

struct HalideEntry {
  const char *id;
  int (*serial)(halide_buffer_t *input, halide_buffer_t *output);
  int (*parallel)(halide_buffer_t *input, halide_buffer_t *output);
};

// Terminated by {nullptr, nullptr, nullptr}.
extern const HalideEntry kHalideEntries[];

#endif // LAYOUTC_BENCH_HALIDE_TABLE_H
