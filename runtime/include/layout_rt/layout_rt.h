/* layout_rt: the plain-C runtime that layoutc's generated kernels and their
 * callers link. Include this one header; see status.h, parallel.h and
 * tensor.h for the contracts. */
#ifndef LAYOUT_RT_LAYOUT_RT_H
#define LAYOUT_RT_LAYOUT_RT_H

#include "layout_rt/entry.h"
#include "layout_rt/parallel.h"
#include "layout_rt/status.h"
#include "layout_rt/symbolic.h"
#include "layout_rt/tensor.h"

#endif /* LAYOUT_RT_LAYOUT_RT_H */
