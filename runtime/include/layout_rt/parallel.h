/* Execution options and the parallel-for that CPU kernels call.
 *
 * Global state: one process-wide worker pool, created on the first parallel
 * call that needs it, grown (never shrunk) when a call asks for more
 * threads, and torn down by lrt_shutdown or at exit; the default thread
 * count, computed once (lrt_default_num_threads). Everything else in
 * layout_rt is stateless.
 */
#ifndef LAYOUT_RT_PARALLEL_H
#define LAYOUT_RT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "layout_rt/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options every kernel entry point takes. NULL means all defaults.
 * struct_size lets older callers pass a shorter struct once fields are
 * appended: fields beyond struct_size read as their defaults. */
typedef struct lrt_exec_options_t {
  /* sizeof(lrt_exec_options_t) as the caller compiled it, in bytes. */
  size_t struct_size;
  /* Threads a parallel region may use, the calling thread included.
   * 0 = the default (lrt_default_num_threads); 1 = run on the calling
   * thread only; negative is an error; values above 1024 mean 1024. Results
   * never depend on it (see lrt_parallel_for). */
  int32_t num_threads;
} lrt_exec_options_t;

#define LRT_EXEC_OPTIONS_DEFAULT                                               \
  { sizeof(lrt_exec_options_t), 0 }

/* Checks options and resolves num_threads to a positive count (0 becomes
 * lrt_default_num_threads()). NULL options resolve to the defaults. */
lrt_status_t lrt_exec_options_resolve_threads(const lrt_exec_options_t *options,
                                              int32_t *num_threads);

/* The thread count that NULL options and num_threads == 0 mean: the value
 * of the environment variable LRT_NUM_THREADS when it is a positive decimal
 * integer, else the number of CPUs in the process's affinity mask
 * (sched_getaffinity: taskset and cpusets are honoured; the online CPU
 * count where the mask cannot be read); at most 1024. Computed once, on the
 * first call (thread-safe): later changes to the variable or the mask do
 * not change it. */
int32_t lrt_default_num_threads(void);

/* Number of chunks lrt_parallel_for splits [0, n) into: ceil(n / grain),
 * 0 for n == 0. Kernels size per-chunk partial arrays with it. Returns -1
 * for n < 0 or grain < 1. */
int64_t lrt_parallel_num_chunks(int64_t n, int64_t grain);

typedef void (*lrt_parallel_fn_t)(void *ctx, int64_t begin, int64_t end);

/* Calls fn(ctx, begin, end) once for every chunk
 * [k * grain, min((k + 1) * grain, n)), k = 0 .. num_chunks - 1.
 *
 * Chunk boundaries depend only on n and grain, never on the thread count,
 * so a reduction that stores chunk k's partial at index begin / grain and
 * combines the partials in index order produces the same bits for every
 * num_threads. Chunks are dealt statically: with C chunks and
 * P = min(num_threads, C) participating threads, thread t runs one
 * contiguous block of C / P or C / P + 1 chunks (the larger blocks first),
 * in increasing order.
 *
 * Returns after every chunk has finished; the caller thread runs share 0.
 * Runs serially on the calling thread when one thread is requested, when
 * called from inside fn (nesting), or when another application thread is
 * using the pool at that moment. If the pool cannot start enough threads it
 * runs with those it has. fn must not call lrt_shutdown.
 *
 * Errors: n < 0, grain < 1, fn NULL, or invalid options. */
lrt_status_t lrt_parallel_for(const lrt_exec_options_t *options, int64_t n,
                              int64_t grain, lrt_parallel_fn_t fn, void *ctx);

/* Joins and frees the worker pool; a later parallel call recreates it.
 * Registered with atexit when the pool is first created, so calling it is
 * optional. Blocks until a parallel_for running on another thread finishes.
 * Returns an error (and does nothing) when called from inside a parallel
 * region. */
lrt_status_t lrt_shutdown(void);

/* Worker threads currently alive in the pool (not counting callers); for
 * tests and diagnostics. */
int32_t lrt_pool_worker_count(void);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_RT_PARALLEL_H */
