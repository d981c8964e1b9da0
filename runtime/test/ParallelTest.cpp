#include "layout_rt/layout_rt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

lrt_exec_options_t withThreads(int32_t threads) {
  lrt_exec_options_t options = LRT_EXEC_OPTIONS_DEFAULT;
  options.num_threads = threads;
  return options;
}

// Records every index visit and every chunk, from any thread.
struct Coverage {
  std::vector<std::atomic<int>> visits;
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  explicit Coverage(int64_t n) : visits(n) {}
};

void recordCoverage(void *ctx, int64_t begin, int64_t end) {
  auto *coverage = static_cast<Coverage *>(ctx);
  for (int64_t i = begin; i < end; ++i)
    coverage->visits[i].fetch_add(1);
  std::lock_guard<std::mutex> lock(coverage->mutex);
  coverage->chunks.emplace_back(begin, end);
}

// Expects an OK status, reporting the message otherwise.
void expectOk(lrt_status_t status) {
  EXPECT_EQ(status, LRT_OK) << lrt_status_message(status);
  lrt_status_free(status);
}

void expectError(lrt_status_t status, lrt_status_code_t code,
                 const char *message) {
  ASSERT_NE(status, LRT_OK);
  EXPECT_EQ(lrt_status_code(status), code);
  EXPECT_STREQ(lrt_status_message(status), message);
  lrt_status_free(status);
}

TEST(Parallel, CoversEveryIndexOnceInGrainChunks) {
  const int32_t threadCounts[] = {1, 2, 3, 4, 7, 16};
  const int64_t sizes[] = {0, 1, 2, 5, 63, 64, 65, 1000, 4097};
  const int64_t grains[] = {1, 3, 64, 1000, 5000};
  for (int64_t n : sizes) {
    for (int64_t grain : grains) {
      std::vector<std::pair<int64_t, int64_t>> expected;
      for (int64_t begin = 0; begin < n; begin += grain)
        expected.emplace_back(begin, std::min(begin + grain, n));
      EXPECT_EQ(lrt_parallel_num_chunks(n, grain),
                static_cast<int64_t>(expected.size()));
      for (int32_t threads : threadCounts) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " grain=" << grain
                                        << " threads=" << threads);
        Coverage coverage(n);
        lrt_exec_options_t options = withThreads(threads);
        expectOk(
            lrt_parallel_for(&options, n, grain, recordCoverage, &coverage));
        for (int64_t i = 0; i < n; ++i)
          ASSERT_EQ(coverage.visits[i].load(), 1) << "index " << i;
        std::sort(coverage.chunks.begin(), coverage.chunks.end());
        // Same chunks for every thread count: what reductions rely on.
        EXPECT_EQ(coverage.chunks, expected);
      }
    }
  }
}

TEST(Parallel, NullOptionsMeanAllCores) {
  Coverage coverage(100);
  expectOk(lrt_parallel_for(nullptr, 100, 7, recordCoverage, &coverage));
  for (auto &visits : coverage.visits)
    EXPECT_EQ(visits.load(), 1);
  int32_t threads = 0;
  expectOk(lrt_exec_options_resolve_threads(nullptr, &threads));
  EXPECT_GE(threads, 1);
  lrt_exec_options_t options = withThreads(5);
  expectOk(lrt_exec_options_resolve_threads(&options, &threads));
  EXPECT_EQ(threads, 5);
  options.num_threads = 1 << 20;
  expectOk(lrt_exec_options_resolve_threads(&options, &threads));
  EXPECT_EQ(threads, 1024);
}

// LRT_TEST_EXPECTED_THREADS, set by test/runtime/default-threads.test
// (which runs this binary under taskset and with LRT_NUM_THREADS), or -1.
int32_t expectedDefaultThreads() {
  const char *text = std::getenv("LRT_TEST_EXPECTED_THREADS");
  return text ? std::atoi(text) : -1;
}

TEST(DefaultThreads, MatchesTheEnvironmentOfTheProcess) {
  int32_t expected = expectedDefaultThreads();
  if (expected < 0)
    GTEST_SKIP() << "LRT_TEST_EXPECTED_THREADS is not set";
  EXPECT_EQ(lrt_default_num_threads(), expected);
  int32_t threads = 0;
  expectOk(lrt_exec_options_resolve_threads(nullptr, &threads));
  EXPECT_EQ(threads, expected);
  lrt_exec_options_t options = withThreads(0);
  expectOk(lrt_exec_options_resolve_threads(&options, &threads));
  EXPECT_EQ(threads, expected);
}

TEST(DefaultThreads, IsComputedOnce) {
  int32_t first = lrt_default_num_threads();
  EXPECT_GE(first, 1);
  EXPECT_LE(first, 1024);
  // Neither the variable nor the affinity mask is read again.
  const char *saved = std::getenv("LRT_NUM_THREADS");
  std::string restore = saved ? saved : "";
  setenv("LRT_NUM_THREADS", first == 7 ? "9" : "7", 1);
  cpu_set_t mask, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) {
      CPU_SET(cpu, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(lrt_default_num_threads(), first);
  int32_t threads = 0;
  expectOk(lrt_exec_options_resolve_threads(nullptr, &threads));
  EXPECT_EQ(threads, first);
  ASSERT_EQ(sched_setaffinity(0, sizeof(mask), &mask), 0);
  if (saved)
    setenv("LRT_NUM_THREADS", restore.c_str(), 1);
  else
    unsetenv("LRT_NUM_THREADS");
}

// Each chunk's thread id, to check the static assignment of chunks.
struct Owners {
  std::vector<std::thread::id> owner;
  explicit Owners(int64_t chunks) : owner(chunks) {}
};

void recordOwner(void *ctx, int64_t begin, int64_t) {
  static_cast<Owners *>(ctx)->owner[begin] = std::this_thread::get_id();
}

TEST(Parallel, CallerRunsTheFirstContiguousBlock) {
  // 10 chunks over 4 threads: blocks of 3, 3, 2, 2.
  Owners owners(10);
  lrt_exec_options_t options = withThreads(4);
  expectOk(lrt_parallel_for(&options, 10, 1, recordOwner, &owners));
  std::thread::id self = std::this_thread::get_id();
  EXPECT_EQ(owners.owner[0], self);
  EXPECT_EQ(owners.owner[2], self);
  EXPECT_NE(owners.owner[3], self);
  const int blockStarts[] = {0, 3, 6, 8};
  for (int b = 0; b < 4; ++b) {
    int end = b == 3 ? 10 : blockStarts[b + 1];
    for (int k = blockStarts[b]; k < end; ++k)
      EXPECT_EQ(owners.owner[k], owners.owner[blockStarts[b]]) << k;
    if (b > 0) {
      EXPECT_NE(owners.owner[blockStarts[b]], owners.owner[blockStarts[b - 1]]);
    }
  }
}

struct Rendezvous {
  std::atomic<int> arrived{0};
  int expected;
  std::atomic<bool> timedOut{false};
};

// Every chunk waits for all the others, which only completes if they really
// run on distinct threads at the same time.
void waitForAll(void *ctx, int64_t, int64_t) {
  auto *rendezvous = static_cast<Rendezvous *>(ctx);
  rendezvous->arrived.fetch_add(1);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (rendezvous->arrived.load() < rendezvous->expected) {
    if (std::chrono::steady_clock::now() > deadline) {
      rendezvous->timedOut = true;
      return;
    }
    std::this_thread::yield();
  }
}

TEST(Parallel, ChunksRunConcurrently) {
  Rendezvous rendezvous;
  rendezvous.expected = 4;
  lrt_exec_options_t options = withThreads(4);
  expectOk(lrt_parallel_for(&options, 4, 1, waitForAll, &rendezvous));
  EXPECT_FALSE(rendezvous.timedOut.load());
  EXPECT_GE(lrt_pool_worker_count(), 3);
}

struct FloatSum {
  const std::vector<float> *values;
  int64_t grain;
  std::vector<float> partials;
};

void sumChunk(void *ctx, int64_t begin, int64_t end) {
  auto *sum = static_cast<FloatSum *>(ctx);
  float partial = 0.0f;
  for (int64_t i = begin; i < end; ++i)
    partial += (*sum->values)[i];
  sum->partials[begin / sum->grain] = partial;
}

uint32_t reduceWithThreads(const std::vector<float> &values, int64_t grain,
                           int32_t threads) {
  FloatSum sum{&values, grain,
               std::vector<float>(lrt_parallel_num_chunks(
                   static_cast<int64_t>(values.size()), grain))};
  lrt_exec_options_t options = withThreads(threads);
  expectOk(lrt_parallel_for(&options, static_cast<int64_t>(values.size()),
                            grain, sumChunk, &sum));
  float total = 0.0f;
  for (float partial : sum.partials)
    total += partial;
  uint32_t bits;
  std::memcpy(&bits, &total, sizeof(bits));
  return bits;
}

TEST(Parallel, ReductionBitsDoNotDependOnThreadCount) {
  // Magnitudes spread over many exponents so that any change in summation
  // order would change the rounding.
  std::vector<float> values(100003);
  uint32_t state = 12345;
  for (float &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state % 100000) * (state & 1 ? 1e-3f : 1e3f) *
            (state & 2 ? -1.0f : 1.0f);
  }
  for (int64_t grain : {1, 97, 4096}) {
    uint32_t reference = reduceWithThreads(values, grain, 1);
    for (int32_t threads : {0, 2, 3, 4, 8, 13})
      EXPECT_EQ(reduceWithThreads(values, grain, threads), reference)
          << "grain " << grain << " threads " << threads;
  }
}

struct Nested {
  Coverage *inner;
  std::atomic<int> innerOnOtherThread{0};
};

void innerBody(void *ctx, int64_t begin, int64_t end) {
  auto *pair = static_cast<std::pair<Nested *, std::thread::id> *>(ctx);
  if (std::this_thread::get_id() != pair->second)
    pair->first->innerOnOtherThread.fetch_add(1);
  recordCoverage(pair->first->inner, begin, end);
}

void outerBody(void *ctx, int64_t begin, int64_t end) {
  auto *nested = static_cast<Nested *>(ctx);
  for (int64_t i = begin; i < end; ++i) {
    std::pair<Nested *, std::thread::id> inner(nested,
                                               std::this_thread::get_id());
    lrt_exec_options_t options = withThreads(4);
    lrt_status_t status = lrt_parallel_for(&options, 100, 1, innerBody, &inner);
    EXPECT_EQ(status, LRT_OK);
    lrt_status_free(status);
    // Shutting the pool down from inside it would deadlock: refused.
    lrt_status_t shutdown = lrt_shutdown();
    EXPECT_EQ(lrt_status_code(shutdown), LRT_STATUS_INVALID_ARGUMENT);
    lrt_status_free(shutdown);
  }
}

TEST(Parallel, NestedCallsRunSeriallyOnTheCallingThread) {
  const int64_t outer = 8;
  Coverage inner(100);
  Nested nested{&inner};
  lrt_exec_options_t options = withThreads(4);
  expectOk(lrt_parallel_for(&options, outer, 1, outerBody, &nested));
  EXPECT_EQ(nested.innerOnOtherThread.load(), 0);
  for (auto &visits : inner.visits)
    EXPECT_EQ(visits.load(), outer);
}

TEST(Parallel, ConcurrentCallersEachGetCompleteCoverage) {
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([c] {
      for (int round = 0; round < 50; ++round) {
        int64_t n = 1000 + 37 * c + round;
        Coverage coverage(n);
        lrt_exec_options_t options = withThreads(3);
        expectOk(lrt_parallel_for(&options, n, 16, recordCoverage, &coverage));
        for (auto &visits : coverage.visits)
          ASSERT_EQ(visits.load(), 1);
      }
    });
  for (std::thread &caller : callers)
    caller.join();
}

TEST(Parallel, HugeRangesDoNotOverflow) {
  struct Chunks {
    std::mutex mutex;
    std::vector<std::pair<int64_t, int64_t>> seen;
  } chunks;
  const int64_t n = INT64_MAX;
  const int64_t grain = INT64_MAX / 2 + 1;
  lrt_exec_options_t options = withThreads(2);
  expectOk(lrt_parallel_for(
      &options, n, grain,
      [](void *ctx, int64_t begin, int64_t end) {
        auto *chunks = static_cast<Chunks *>(ctx);
        std::lock_guard<std::mutex> lock(chunks->mutex);
        chunks->seen.emplace_back(begin, end);
      },
      &chunks));
  std::sort(chunks.seen.begin(), chunks.seen.end());
  std::vector<std::pair<int64_t, int64_t>> expected = {{0, grain}, {grain, n}};
  EXPECT_EQ(chunks.seen, expected);
}

TEST(Parallel, RejectsBadArguments) {
  Coverage coverage(1);
  expectError(lrt_parallel_for(nullptr, -1, 1, recordCoverage, &coverage),
              LRT_STATUS_INVALID_ARGUMENT,
              "parallel_for: n is -1; expected n >= 0");
  expectError(lrt_parallel_for(nullptr, 10, 0, recordCoverage, &coverage),
              LRT_STATUS_INVALID_ARGUMENT,
              "parallel_for: grain is 0; expected grain >= 1");
  expectError(lrt_parallel_for(nullptr, 10, 1, nullptr, nullptr),
              LRT_STATUS_INVALID_ARGUMENT, "parallel_for: fn is NULL");
  lrt_exec_options_t options = withThreads(-2);
  expectError(lrt_parallel_for(&options, 1, 1, recordCoverage, &coverage),
              LRT_STATUS_INVALID_ARGUMENT,
              "exec options: num_threads is -2; expected 0 (the default) or a "
              "positive count");
  EXPECT_EQ(coverage.visits[0].load(), 0);
  // A struct too short to hold num_threads reads it as the default (all
  // cores), as parallel.h says of every field beyond struct_size: the
  // -2 past the struct's end is not read.
  options = withThreads(-2);
  for (size_t size : {size_t(0), size_t(4), size_t(8)}) {
    options.struct_size = size;
    int32_t threads = -1;
    EXPECT_EQ(lrt_exec_options_resolve_threads(&options, &threads), LRT_OK)
        << size;
    EXPECT_GE(threads, 1) << size;
  }
  EXPECT_EQ(lrt_parallel_num_chunks(-1, 1), -1);
  EXPECT_EQ(lrt_parallel_num_chunks(1, 0), -1);
}

TEST(Parallel, ShutdownJoinsWorkersAndThePoolComesBack) {
  Coverage coverage(64);
  lrt_exec_options_t options = withThreads(4);
  expectOk(lrt_parallel_for(&options, 64, 1, recordCoverage, &coverage));
  EXPECT_GE(lrt_pool_worker_count(), 3);
  expectOk(lrt_shutdown());
  EXPECT_EQ(lrt_pool_worker_count(), 0);
  expectOk(lrt_shutdown()); // Idempotent.
  expectOk(lrt_parallel_for(&options, 64, 1, recordCoverage, &coverage));
  EXPECT_GE(lrt_pool_worker_count(), 3);
  for (auto &visits : coverage.visits)
    EXPECT_EQ(visits.load(), 2);
}

TEST(Parallel, OneThreadNeverStartsWorkers) {
  expectOk(lrt_shutdown());
  Owners owners(50);
  lrt_exec_options_t options = withThreads(1);
  expectOk(lrt_parallel_for(&options, 50, 1, recordOwner, &owners));
  EXPECT_EQ(lrt_pool_worker_count(), 0);
  for (const std::thread::id &owner : owners.owner)
    EXPECT_EQ(owner, std::this_thread::get_id());
}

TEST(Parallel, LongerOptionsStructsAreAccepted) {
  // A caller built against a newer header passes a bigger struct.
  struct {
    lrt_exec_options_t options;
    int64_t futureField;
  } newer = {withThreads(3), 42};
  newer.options.struct_size = sizeof(newer);
  int32_t threads = 0;
  expectOk(lrt_exec_options_resolve_threads(&newer.options, &threads));
  EXPECT_EQ(threads, 3);
}

void exitFromLastChunk(void *, int64_t begin, int64_t) {
  if (begin == 3)
    std::exit(7);
}

TEST(ParallelDeathTest, ExitJoinsOrSkipsWorkersWithoutHanging) {
  // "fast" forks without re-executing the binary, which lit starts through
  // PATH (the "threadsafe" style cannot find it). Forking is safe once the
  // pool is gone, as README.md prescribes.
  GTEST_FLAG_SET(death_test_style, "fast");
  expectOk(lrt_shutdown());
  // Live idle workers at exit: the atexit handler joins them.
  EXPECT_EXIT(
      {
        Coverage coverage(64);
        lrt_exec_options_t options = withThreads(4);
        expectOk(lrt_parallel_for(&options, 64, 1, recordCoverage, &coverage));
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
  // exit() from a worker in the middle of a region: the handler must not try
  // to join the thread it runs on.
  EXPECT_EXIT(
      {
        lrt_exec_options_t options = withThreads(4);
        lrt_status_free(
            lrt_parallel_for(&options, 4, 1, exitFromLastChunk, nullptr));
        std::exit(0);
      },
      testing::ExitedWithCode(7), "");
}

} // namespace
