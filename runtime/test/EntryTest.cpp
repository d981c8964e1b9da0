// lrt_dynamic_layouts (entry.h) on a hand-encoded symbol program: a 1-D f32
// argument x of size n and an output of size n. The generated entry points
// are exercised end to end by test/execution/dynamic_exec.py.
#include "layout_rt/layout_rt.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// [version, 2 expressions, 0 conditions, 1 step, 2 outputs, expression
// offsets 10 and 14, the step INPUT (n), outputs e0 and e1, e0 = 1*n,
// e1 = 1].
const int64_t kProgram[] = {1, 2, 0, 1, 2, 10, 14, LRT_SYM_INPUT, 0, 1,
                            1, 1, 1, 0, 1, 1,  0};
// x: an f32 input of size ? and stride 1; result0: an f32 output alike.
const int64_t kDescriptor[] = {1,  2, LRT_ROLE_INPUT,  0, kDLFloat, 32, 1,
                               -1, 1, LRT_ROLE_OUTPUT, 0, kDLFloat, 32, 1,
                               -1, 1};
// n is x's size 0; result0's size 0 is output 0.
const int64_t kDynamic[] = {1, 0, 0, 0, 1, 1, 0, 0, 0};

std::string run(const int64_t *results, const DLTensor *x,
                lrt_layout_t *layouts, const char *names = "x\0") {
  const DLTensor *tensors[] = {x, nullptr};
  lrt_status_t status =
      lrt_dynamic_layouts("f", kDescriptor, names, kDLCPU, tensors, kDynamic,
                          kProgram, "", results, layouts);
  std::string text = status ? lrt_status_message(status) : "OK";
  lrt_status_free(status);
  return text;
}

struct Vector {
  float data[8] = {};
  int64_t shape[1] = {5};
  DLTensor t = {data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
};

TEST(DynamicLayouts, OutputOfTheArgumentsSize) {
  // One result of rank 1 with an output: size output 0, stride output 1.
  const int64_t results[] = {1, 1, 1, -1, -1, 0, 1};
  Vector x;
  lrt_layout_t l[1];
  ASSERT_EQ(run(results, &x.t, l), "OK");
  EXPECT_EQ(l[0].ndim, 1);
  EXPECT_EQ(l[0].has_output, 1);
  EXPECT_EQ(l[0].view_of, -1);
  EXPECT_EQ(l[0].offset, 0);
  EXPECT_EQ(l[0].sizes[0], 5);
  EXPECT_EQ(l[0].strides[0], 1);
  EXPECT_EQ(l[0].output_strides[0], 1);
  x.shape[0] = 0;
  ASSERT_EQ(run(results, &x.t, l), "OK");
  EXPECT_EQ(l[0].sizes[0], 0);
}

TEST(DynamicLayouts, ViewOfAnArgument) {
  // Always a view of argument 0 (no output), at stride e1 and offset e1;
  // then a run-time choice on output 0 (n): a view where n == 0.
  const int64_t view[] = {1, 1, 0, 0, -1, 0, 1, 1};
  const int64_t chosen[] = {1, 1, 1, 0, 0, 0, 1, 1, 1};
  Vector x;
  lrt_layout_t l[1];
  ASSERT_EQ(run(view, &x.t, l), "OK");
  EXPECT_EQ(l[0].has_output, 0);
  EXPECT_EQ(l[0].view_of, 0);
  EXPECT_EQ(l[0].offset, 1);
  EXPECT_EQ(l[0].sizes[0], 5);
  ASSERT_EQ(run(chosen, &x.t, l), "OK");
  EXPECT_EQ(l[0].has_output, 1);
  EXPECT_EQ(l[0].view_of, -1);
  EXPECT_EQ(l[0].offset, 0);
  x.shape[0] = 0;
  ASSERT_EQ(run(chosen, &x.t, l), "OK");
  EXPECT_EQ(l[0].view_of, 0);
  EXPECT_EQ(l[0].offset, 1);
}

TEST(DynamicLayouts, ArgumentsAreChecked) {
  const int64_t results[] = {1, 1, 1, -1, -1, 0, 1};
  Vector x;
  lrt_layout_t l[1];
  x.t.dtype.bits = 16;
  EXPECT_EQ(run(results, &x.t, l),
            "f: argument 0 (x): expected dtype f32, got f16");
  EXPECT_EQ(run(results, &x.t, l, nullptr),
            "f: argument 0 (arg0): expected dtype f32, got f16");
  x.t.dtype.bits = 32;
  EXPECT_EQ(run(results, &x.t, nullptr), "f: layouts is NULL");
  int64_t strides[1] = {2};
  x.t.strides = strides;
  EXPECT_EQ(
      run(results, &x.t, l)
          .rfind("f: argument 0 (x): expected stride 1 in dimension 0, got 2",
                 0),
      0u);
}

TEST(DynamicLayouts, MalformedTablesAreInternalErrors) {
  Vector x;
  lrt_layout_t l[1];
  // A program output past the program's, a view without an argument, a
  // run-time choice without an output.
  const int64_t pastOutputs[] = {1, 1, 1, -1, -1, 7, 1};
  const int64_t noArgument[] = {1, 1, 0, -1, -1, 0, 1, 1};
  const int64_t noOutput[] = {1, 1, 0, 0, 0, 0, 1, 1};
  for (const int64_t *results : {pastOutputs, noArgument, noOutput})
    EXPECT_EQ(run(results, &x.t, l), "f: malformed result table");
}

} // namespace
