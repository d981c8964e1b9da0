//===- LayoutAlgebra.h - Pure strided-layout math ---------------*- C++ -*-===//
//
// The one home of layout math in layoutc. Every op verifier, every pass and
// every backend computes sizes, strides, offsets, contiguity and overlap
// through these functions, so that PyTorch's rules live in exactly one place.
//
// A layout is PyTorch's view metadata: (sizes, strides, offset), counted in
// elements. Logical index i = (i_0, ..., i_{n-1}) reads storage element
//   offset + sum_k i_k * strides[k].
// Examples in these headers use CuTe's notation (sizes):(strides)+offset.
//
// All functions are pure. Operations that PyTorch rejects return an error
// whose message carries PyTorch's meaning (and mostly its wording). All
// arithmetic is overflow-checked: an i64 overflow is an error, never UB.
// Unless stated otherwise, functions require static layouts (no kDynamic);
// Symbolic.h and SymbolicViews.h are the algebra of dynamic ones.
//
// This umbrella header includes every part of the algebra:
//   StridedLayout.h  layouts, Fallible, checked arithmetic, bounds;
//   MemoryFormat.h   memory formats and contiguity;
//   ViewOps.h        view ops (TensorShape.cpp);
//   CopyingOps.h     result layouts of ops that may copy, reduction sizes;
//   Coalesce.h       coalescing and copy classification;
//   Overlap.h        internal and mutual overlap of views;
//   Composition.h    views composed through a materialized buffer;
//   Symbolic.h       symbolic (run-time) sizes, strides, offsets, checks;
//   SymbolicViews.h  the view ops and copy results on symbolic layouts.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H

#include "layout/Dialect/Layout/Utils/Coalesce.h"
#include "layout/Dialect/Layout/Utils/Composition.h"
#include "layout/Dialect/Layout/Utils/CopyingOps.h"
#include "layout/Dialect/Layout/Utils/MemoryFormat.h"
#include "layout/Dialect/Layout/Utils/Overlap.h"
#include "layout/Dialect/Layout/Utils/StridedLayout.h"
#include "layout/Dialect/Layout/Utils/Symbolic.h"
#include "layout/Dialect/Layout/Utils/SymbolicViews.h"
#include "layout/Dialect/Layout/Utils/ViewOps.h"

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_LAYOUTALGEBRA_H
