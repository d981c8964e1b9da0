#include "layout_rt/layout_rt.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

TEST(Status, NullIsOk) {
  EXPECT_EQ(lrt_status_code(LRT_OK), LRT_STATUS_OK);
  EXPECT_STREQ(lrt_status_message(LRT_OK), "");
  lrt_status_free(LRT_OK);
}

TEST(Status, CarriesCodeAndFormattedMessage) {
  lrt_status_t status = lrt_status_make(
      LRT_STATUS_INVALID_ARGUMENT,
      "argument %d (%s): expected dtype %s, got %s", 0, "x", "f32", "f16");
  ASSERT_NE(status, LRT_OK);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_INVALID_ARGUMENT);
  EXPECT_STREQ(lrt_status_message(status),
               "argument 0 (x): expected dtype f32, got f16");
  lrt_status_free(status);
}

TEST(Status, LongMessagesAreKeptWhole) {
  std::string longText(10000, 'a');
  lrt_status_t status =
      lrt_status_make(LRT_STATUS_INTERNAL, "%s!", longText.c_str());
  EXPECT_EQ(std::string(lrt_status_message(status)), longText + "!");
  lrt_status_free(status);
}

TEST(Status, OkCodeCannotMakeAnError) {
  lrt_status_t status = lrt_status_make(LRT_STATUS_OK, "oops");
  ASSERT_NE(status, LRT_OK);
  EXPECT_EQ(lrt_status_code(status), LRT_STATUS_INTERNAL);
  lrt_status_free(status);
}

TEST(Status, CodeNames) {
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_OK), "OK");
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_INVALID_ARGUMENT),
               "INVALID_ARGUMENT");
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_OUT_OF_RANGE), "OUT_OF_RANGE");
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_UNIMPLEMENTED), "UNIMPLEMENTED");
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_INTERNAL), "INTERNAL");
  EXPECT_STREQ(lrt_status_code_name(LRT_STATUS_RESOURCE_EXHAUSTED),
               "RESOURCE_EXHAUSTED");
  EXPECT_STREQ(lrt_status_code_name(static_cast<lrt_status_code_t>(99)),
               "UNKNOWN");
}

TEST(Status, MadeAndFreedFromManyThreads) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 1000; ++i) {
        lrt_status_t status =
            lrt_status_make(LRT_STATUS_OUT_OF_RANGE, "thread %d item %d", t, i);
        EXPECT_EQ(std::string(lrt_status_message(status)),
                  "thread " + std::to_string(t) + " item " + std::to_string(i));
        lrt_status_free(status);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
}

} // namespace
