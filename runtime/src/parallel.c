/* sched_getaffinity and CPU_COUNT are GNU extensions of <sched.h>. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include "layout_rt/parallel.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* Caps what num_threads can ask for so a typo cannot spawn a million
 * threads; results do not depend on the count, so clamping is invisible. */
#define LRT_MAX_THREADS 1024

/* How long (pause instructions, about 0.1-0.3 ms) a worker polls for the next
 * region and the caller for the workers' completion before sleeping on the
 * condition variable. Waking a sleeping thread costs tens of microseconds,
 * more on a virtual machine whose idle vCPU must be woken: more than a whole
 * cache-resident copy takes. OpenMP runtimes poll for the same reason. */
#define LRT_SPIN_ITERATIONS 20000

static inline void lrt_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

typedef struct lrt_pool_t {
  /* Held by the one application thread whose region owns the workers;
   * others fall back to running serially instead of queueing. */
  pthread_mutex_t dispatch;
  /* Guards every field below. */
  pthread_mutex_t mutex;
  pthread_cond_t work_ready;
  pthread_cond_t work_done;
  pthread_t *threads;
  int32_t num_workers;
  bool stopping;
  bool atexit_registered;
  /* Bumped once per region (under the mutex); a worker runs a region when
   * it sees a generation it has not seen yet. Atomic so that waiting
   * threads can poll it without the mutex. */
  _Atomic uint64_t generation;
  lrt_parallel_fn_t fn;
  void *ctx;
  int64_t n;
  int64_t grain;
  int64_t num_chunks;
  int32_t participants;
  /* Workers still running the region; changed under the mutex. */
  _Atomic int32_t pending;
  _Atomic bool stop_requested;
} lrt_pool_t;

static lrt_pool_t lrt_pool = {
    .dispatch = PTHREAD_MUTEX_INITIALIZER,
    .mutex = PTHREAD_MUTEX_INITIALIZER,
    .work_ready = PTHREAD_COND_INITIALIZER,
    .work_done = PTHREAD_COND_INITIALIZER,
};

/* Set while a thread runs chunks, so nested regions run serially instead of
 * waiting on workers that are busy running their parent. */
static _Thread_local bool lrt_in_region;
/* Set on pool workers for their lifetime: an exit() from inside fn on a
 * worker must not make the atexit handler join the calling worker. */
static _Thread_local bool lrt_is_worker;

typedef struct lrt_worker_start_t {
  int32_t index;
  uint64_t generation;
} lrt_worker_start_t;

static void lrt_run_share(lrt_parallel_fn_t fn, void *ctx, int64_t n,
                          int64_t grain, int64_t num_chunks, int32_t share,
                          int32_t participants) {
  /* Balanced contiguous blocks, written without t * C so that no product
   * can overflow for any n. */
  int64_t base = num_chunks / participants;
  int64_t extra = num_chunks % participants;
  int64_t first = share * base + (share < extra ? share : extra);
  int64_t count = base + (share < extra ? 1 : 0);
  for (int64_t k = first; k < first + count; ++k) {
    int64_t begin = k * grain;
    int64_t end = n - begin <= grain ? n : begin + grain;
    fn(ctx, begin, end);
  }
}

static void *lrt_worker_main(void *arg) {
  lrt_worker_start_t start = *(lrt_worker_start_t *)arg;
  free(arg);
  lrt_is_worker = true;
  lrt_pool_t *pool = &lrt_pool;
  /* The generation is passed in rather than read here: the creator may
   * publish a region before this thread first takes the mutex. */
  uint64_t seen = start.generation;
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    if (!pool->stopping && atomic_load(&pool->generation) == seen) {
      pthread_mutex_unlock(&pool->mutex);
      for (int i = 0;
           i < LRT_SPIN_ITERATIONS &&
           atomic_load_explicit(&pool->generation, memory_order_relaxed) ==
               seen &&
           !atomic_load_explicit(&pool->stop_requested, memory_order_relaxed);
           ++i)
        lrt_cpu_relax();
      pthread_mutex_lock(&pool->mutex);
    }
    while (!pool->stopping && atomic_load(&pool->generation) == seen)
      pthread_cond_wait(&pool->work_ready, &pool->mutex);
    if (pool->stopping)
      break;
    seen = atomic_load(&pool->generation);
    if (start.index >= pool->participants)
      continue;
    lrt_parallel_fn_t fn = pool->fn;
    void *ctx = pool->ctx;
    int64_t n = pool->n, grain = pool->grain, num_chunks = pool->num_chunks;
    int32_t participants = pool->participants;
    pthread_mutex_unlock(&pool->mutex);
    lrt_in_region = true;
    lrt_run_share(fn, ctx, n, grain, num_chunks, start.index, participants);
    lrt_in_region = false;
    pthread_mutex_lock(&pool->mutex);
    if (atomic_fetch_sub(&pool->pending, 1) == 1)
      pthread_cond_signal(&pool->work_done);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

/* Both locks held by the caller. */
static void lrt_stop_workers_locked(lrt_pool_t *pool) {
  pthread_mutex_lock(&pool->mutex);
  pool->stopping = true;
  atomic_store(&pool->stop_requested, true);
  pthread_cond_broadcast(&pool->work_ready);
  pthread_mutex_unlock(&pool->mutex);
  for (int32_t i = 0; i < pool->num_workers; ++i)
    pthread_join(pool->threads[i], NULL);
  pthread_mutex_lock(&pool->mutex);
  free(pool->threads);
  pool->threads = NULL;
  pool->num_workers = 0;
  pool->stopping = false;
  atomic_store(&pool->stop_requested, false);
  pthread_mutex_unlock(&pool->mutex);
}

static void lrt_atexit_shutdown(void) {
  /* A region still running on another thread, or exit() called from a
   * worker, means the workers cannot be joined safely; the process is
   * ending anyway, so leave them. */
  if (lrt_in_region || lrt_is_worker)
    return;
  if (pthread_mutex_trylock(&lrt_pool.dispatch) != 0)
    return;
  lrt_stop_workers_locked(&lrt_pool);
  pthread_mutex_unlock(&lrt_pool.dispatch);
}

/* pool->mutex held. Starts workers until there are `wanted`, stopping
 * quietly at the first failure. */
static void lrt_grow_locked(lrt_pool_t *pool, int32_t wanted) {
  if (wanted <= pool->num_workers)
    return;
  pthread_t *threads = realloc(pool->threads, sizeof(pthread_t) * wanted);
  if (!threads)
    return;
  pool->threads = threads;
  if (!pool->atexit_registered && atexit(lrt_atexit_shutdown) == 0)
    pool->atexit_registered = true;
  while (pool->num_workers < wanted) {
    lrt_worker_start_t *start = malloc(sizeof(lrt_worker_start_t));
    if (!start)
      return;
    start->index = pool->num_workers + 1; /* Share 0 is the caller's. */
    start->generation = atomic_load(&pool->generation);
    if (pthread_create(&pool->threads[pool->num_workers], NULL, lrt_worker_main,
                       start) != 0) {
      free(start);
      return;
    }
    ++pool->num_workers;
  }
}

/* CPUs this process may run on: its affinity mask (taskset, cgroups'
 * cpusets), else the online count where the mask cannot be read. */
static int32_t lrt_available_cores(void) {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return count;
  }
#endif
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores < 1                 ? 1
         : cores > LRT_MAX_THREADS ? LRT_MAX_THREADS
                                   : (int32_t)cores;
}

/* LRT_NUM_THREADS as a positive count, or 0 when it is unset or not a
 * positive decimal integer (then it is ignored). */
static int32_t lrt_env_threads(void) {
  const char *text = getenv("LRT_NUM_THREADS");
  if (!text || !*text)
    return 0;
  char *end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 1)
    return 0;
  return value > LRT_MAX_THREADS ? LRT_MAX_THREADS : (int32_t)value;
}

static pthread_once_t lrt_default_threads_once = PTHREAD_ONCE_INIT;
static int32_t lrt_default_threads;

static void lrt_init_default_threads(void) {
  int32_t threads = lrt_env_threads();
  lrt_default_threads = threads > 0 ? threads : lrt_available_cores();
}

/* Computed on the first call only: reading the mask or the environment on
 * every call would cost more than a small kernel (sysconf reads sysfs). */
int32_t lrt_default_num_threads(void) {
  pthread_once(&lrt_default_threads_once, lrt_init_default_threads);
  return lrt_default_threads;
}

lrt_status_t lrt_exec_options_resolve_threads(const lrt_exec_options_t *options,
                                              int32_t *num_threads) {
  int32_t requested = 0;
  if (options) {
    /* A struct too short to hold num_threads reads it as its default,
     * as parallel.h promises for every field beyond struct_size. */
    size_t needed = offsetof(lrt_exec_options_t, num_threads) +
                    sizeof(options->num_threads);
    if (options->struct_size >= needed)
      requested = options->num_threads;
    if (requested < 0)
      return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                             "exec options: num_threads is %d; expected 0 "
                             "(the default) or a positive count",
                             (int)requested);
  }
  if (requested == 0)
    requested = lrt_default_num_threads();
  *num_threads = requested > LRT_MAX_THREADS ? LRT_MAX_THREADS : requested;
  return LRT_OK;
}

int64_t lrt_parallel_num_chunks(int64_t n, int64_t grain) {
  if (n < 0 || grain < 1)
    return -1;
  return n / grain + (n % grain != 0);
}

static void lrt_run_serial(lrt_parallel_fn_t fn, void *ctx, int64_t n,
                           int64_t grain, int64_t num_chunks) {
  bool outer = lrt_in_region;
  lrt_in_region = true;
  lrt_run_share(fn, ctx, n, grain, num_chunks, 0, 1);
  lrt_in_region = outer;
}

lrt_status_t lrt_parallel_for(const lrt_exec_options_t *options, int64_t n,
                              int64_t grain, lrt_parallel_fn_t fn, void *ctx) {
  if (!fn)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "parallel_for: fn is NULL");
  if (n < 0)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "parallel_for: n is %lld; expected n >= 0",
                           (long long)n);
  if (grain < 1)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "parallel_for: grain is %lld; expected grain >= 1",
                           (long long)grain);
  int32_t threads = 0;
  lrt_status_t status = lrt_exec_options_resolve_threads(options, &threads);
  if (status)
    return status;
  int64_t num_chunks = lrt_parallel_num_chunks(n, grain);
  if (num_chunks == 0)
    return LRT_OK;
  int32_t participants =
      num_chunks < threads ? (int32_t)num_chunks : (int32_t)threads;
  if (participants <= 1 || lrt_in_region ||
      pthread_mutex_trylock(&lrt_pool.dispatch) != 0) {
    lrt_run_serial(fn, ctx, n, grain, num_chunks);
    return LRT_OK;
  }

  lrt_pool_t *pool = &lrt_pool;
  pthread_mutex_lock(&pool->mutex);
  lrt_grow_locked(pool, participants - 1);
  if (participants > pool->num_workers + 1)
    participants = pool->num_workers + 1;
  if (participants <= 1) {
    pthread_mutex_unlock(&pool->mutex);
    pthread_mutex_unlock(&pool->dispatch);
    lrt_run_serial(fn, ctx, n, grain, num_chunks);
    return LRT_OK;
  }
  pool->fn = fn;
  pool->ctx = ctx;
  pool->n = n;
  pool->grain = grain;
  pool->num_chunks = num_chunks;
  pool->participants = participants;
  atomic_store(&pool->pending, participants - 1);
  atomic_fetch_add(&pool->generation, 1);
  pthread_cond_broadcast(&pool->work_ready);
  pthread_mutex_unlock(&pool->mutex);

  lrt_in_region = true;
  lrt_run_share(fn, ctx, n, grain, num_chunks, 0, participants);
  lrt_in_region = false;

  for (int i = 0;
       i < LRT_SPIN_ITERATIONS &&
       atomic_load_explicit(&pool->pending, memory_order_relaxed) > 0;
       ++i)
    lrt_cpu_relax();
  pthread_mutex_lock(&pool->mutex);
  while (atomic_load(&pool->pending) > 0)
    pthread_cond_wait(&pool->work_done, &pool->mutex);
  pthread_mutex_unlock(&pool->mutex);
  pthread_mutex_unlock(&pool->dispatch);
  return LRT_OK;
}

lrt_status_t lrt_shutdown(void) {
  if (lrt_in_region)
    return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT,
                           "shutdown: called from inside a parallel region");
  pthread_mutex_lock(&lrt_pool.dispatch);
  lrt_stop_workers_locked(&lrt_pool);
  pthread_mutex_unlock(&lrt_pool.dispatch);
  return LRT_OK;
}

int32_t lrt_pool_worker_count(void) {
  pthread_mutex_lock(&lrt_pool.mutex);
  int32_t count = lrt_pool.num_workers;
  pthread_mutex_unlock(&lrt_pool.mutex);
  return count;
}
