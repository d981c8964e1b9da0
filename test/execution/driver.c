/* Generic execution driver for the functions layoutc compiled (see
 * exec_test.py, which writes the inputs and checks the outputs).
 *
 *   driver MANIFEST DATA RESULTS FIRST_CASE
 *
 * MANIFEST (text) lists the cases: which entry point, and for every
 * parameter its role, dtype, sizes, strides, the number of storage elements
 * behind it and the position of its first element in that storage:
 *
 *   layout-exec-manifest 1
 *   <ncases>
 *   case <id> <entry> <nparams> <nruns> <run>...
 *   param <role> <code> <bits> <ndim> <size>... <stride>... <storage> <first>
 * <flags>
 *
 * role: 0 input, 1 input the function writes into, 2 output.
 * flags: 1 = pass strides == NULL (row-major), 2 = point `data` at the
 * buffer start and reach the first element through byte_offset.
 * run: 1 DLPack with num_threads 1, 2 DLPack with num_threads 2,
 * 3 raw with num_threads 2, 4 DLPack with options == NULL.
 *
 * DATA holds, case after case, the initial storage of every non-output
 * parameter. Every run starts from those bytes; outputs start filled with
 * OUTPUT_FILL. Each buffer has GUARD bytes before and after it.
 *
 * RESULTS (binary, native endianness) gets, per executed case:
 *   int32 id, int32 nruns, then per run: int32 run, int32 status code, and
 *   every parameter's buffer, guards included.
 * Cases before FIRST_CASE are read but not executed (exec_test.py restarts
 * the driver after a crash). stdout gets "CASE <id>" before each case and
 * "STATUS <id> <run> <code> <message>" for every error status. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

#define GUARD 64
#define INPUT_GUARD_FILL 0x5A
#define OUTPUT_FILL 0xA5
#define MAX_PARAMS 64
#define MAX_NDIM 16
#define MAX_RUNS 8

typedef struct param_t {
  int role;
  DLDataType dtype;
  int32_t ndim;
  int64_t sizes[MAX_NDIM];
  int64_t strides[MAX_NDIM];
  int64_t storage;
  int64_t first;
  int flags;
  size_t bytes;          /* storage bytes, guards excluded */
  unsigned char *buffer; /* GUARD + bytes + GUARD */
  unsigned char *device; /* its device mirror, or NULL on the host */
  unsigned char *initial;
  DLTensor tensor;
} param_t;

/* Host entry points unless the entry table brings a device. */
__attribute__((weak)) const exec_device_t *exec_device = NULL;

static void die(const char *what) {
  fprintf(stderr, "driver: %s\n", what);
  exit(2);
}

static long long read_int(FILE *f) {
  long long v;
  if (fscanf(f, "%lld", &v) != 1)
    die("malformed manifest");
  return v;
}

static void read_word(FILE *f, const char *expected) {
  char word[64];
  if (fscanf(f, "%63s", word) != 1 || strcmp(word, expected) != 0)
    die("malformed manifest");
}

static void *xalloc(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (!p)
    die("out of memory");
  return p;
}

static void write_all(FILE *f, const void *data, size_t bytes) {
  if (bytes && fwrite(data, 1, bytes, f) != bytes)
    die("cannot write results");
}

static void write_i32(FILE *f, int32_t v) { write_all(f, &v, sizeof v); }

/* Resets the buffers and the DLTensors to the case's initial state. */
static void prepare(param_t *params, int nparams) {
  for (int i = 0; i < nparams; ++i) {
    param_t *p = &params[i];
    size_t total = 2 * GUARD + p->bytes;
    if (p->role == 2) {
      memset(p->buffer, OUTPUT_FILL, total);
    } else {
      memset(p->buffer, INPUT_GUARD_FILL, total);
      memcpy(p->buffer + GUARD, p->initial, p->bytes);
    }
    size_t element = p->dtype.bits / 8;
    unsigned char *base = p->buffer;
    if (exec_device) {
      exec_device->to_device(p->device, p->buffer, total);
      base = p->device;
    }
    DLTensor *t = &p->tensor;
    memset(t, 0, sizeof *t);
    t->device.device_type =
        exec_device ? (DLDeviceType)exec_device->device_type : kDLCPU;
    t->device.device_id = 0;
    t->ndim = p->ndim;
    t->dtype = p->dtype;
    t->shape = p->sizes;
    t->strides = (p->flags & 1) ? NULL : p->strides;
    if (p->flags & 2) {
      t->data = base + GUARD;
      t->byte_offset = (uint64_t)(p->first * (int64_t)element);
    } else {
      t->data = base + GUARD + p->first * (int64_t)element;
      t->byte_offset = 0;
    }
  }
}

static lrt_status_t run_once(const exec_entry_t *entry, param_t *params,
                             int nparams, int run) {
  DLTensor *tensors[MAX_PARAMS];
  void *pointers[MAX_PARAMS];
  for (int i = 0; i < nparams; ++i) {
    tensors[i] = &params[i].tensor;
    pointers[i] = (exec_device ? params[i].device : params[i].buffer) + GUARD +
                  params[i].first * (int64_t)(params[i].dtype.bits / 8);
  }
  lrt_exec_options_t options = LRT_EXEC_OPTIONS_DEFAULT;
  switch (run) {
  case 1:
    options.num_threads = 1;
    return entry->dl(tensors, &options);
  case 2:
    options.num_threads = 2;
    return entry->dl(tensors, &options);
  case 3:
    if (!entry->raw)
      return lrt_status_make(LRT_STATUS_INTERNAL,
                             "driver: no raw entry point for %s", entry->name);
    options.num_threads = 2;
    return entry->raw(pointers, &options);
  case 4:
    return entry->dl(tensors, NULL);
  default:
    return lrt_status_make(LRT_STATUS_INTERNAL, "driver: unknown run %d", run);
  }
}

int main(int argc, char **argv) {
  if (argc != 5)
    die("usage: driver MANIFEST DATA RESULTS FIRST_CASE");
  FILE *manifest = fopen(argv[1], "r");
  FILE *data = fopen(argv[2], "rb");
  FILE *results = fopen(argv[3], "wb");
  long first_case = strtol(argv[4], NULL, 10);
  if (!manifest || !data || !results)
    die("cannot open files");
  read_word(manifest, "layout-exec-manifest");
  if (read_int(manifest) != 1)
    die("unknown manifest version");
  long long ncases = read_int(manifest);
  static param_t params[MAX_PARAMS];
  for (long long c = 0; c < ncases; ++c) {
    read_word(manifest, "case");
    int id = (int)read_int(manifest);
    long long entry_index = read_int(manifest);
    int nparams = (int)read_int(manifest);
    int nruns = (int)read_int(manifest);
    int runs[MAX_RUNS];
    if (entry_index < 0 || entry_index >= exec_num_entries || nparams < 0 ||
        nparams > MAX_PARAMS || nruns < 0 || nruns > MAX_RUNS)
      die("bad case header");
    for (int r = 0; r < nruns; ++r)
      runs[r] = (int)read_int(manifest);
    for (int i = 0; i < nparams; ++i) {
      param_t *p = &params[i];
      read_word(manifest, "param");
      p->role = (int)read_int(manifest);
      p->dtype.code = (uint8_t)read_int(manifest);
      p->dtype.bits = (uint8_t)read_int(manifest);
      p->dtype.lanes = 1;
      p->ndim = (int32_t)read_int(manifest);
      if (p->ndim < 0 || p->ndim > MAX_NDIM)
        die("bad rank");
      for (int d = 0; d < p->ndim; ++d)
        p->sizes[d] = read_int(manifest);
      for (int d = 0; d < p->ndim; ++d)
        p->strides[d] = read_int(manifest);
      p->storage = read_int(manifest);
      p->first = read_int(manifest);
      p->flags = (int)read_int(manifest);
      p->bytes = (size_t)p->storage * (p->dtype.bits / 8);
      p->buffer = xalloc(2 * GUARD + p->bytes);
      p->device = exec_device ? exec_device->alloc(2 * GUARD + p->bytes) : NULL;
      p->initial = xalloc(p->bytes);
      if (p->role != 2 && p->bytes &&
          fread(p->initial, 1, p->bytes, data) != p->bytes)
        die("data file too short");
    }
    if (id >= first_case) {
      printf("CASE %d\n", id);
      fflush(stdout);
      write_i32(results, id);
      write_i32(results, nruns);
      const exec_entry_t *entry = &exec_entries[entry_index];
      for (int r = 0; r < nruns; ++r) {
        prepare(params, nparams);
        lrt_status_t status = run_once(entry, params, nparams, runs[r]);
        if (exec_device) {
          exec_device->sync();
          for (int i = 0; i < nparams; ++i)
            exec_device->to_host(params[i].buffer, params[i].device,
                                 2 * GUARD + params[i].bytes);
        }
        int code = (int)lrt_status_code(status);
        if (status) {
          printf("STATUS %d %d %d ", id, runs[r], code);
          for (const char *m = lrt_status_message(status); *m; ++m)
            putchar(*m == '\n' ? ' ' : *m);
          putchar('\n');
          lrt_status_free(status);
        }
        write_i32(results, runs[r]);
        write_i32(results, code);
        for (int i = 0; i < nparams; ++i)
          write_all(results, params[i].buffer, 2 * GUARD + params[i].bytes);
      }
      fflush(results);
      fflush(stdout);
    }
    for (int i = 0; i < nparams; ++i) {
      free(params[i].buffer);
      free(params[i].initial);
      if (exec_device)
        exec_device->release(params[i].device);
    }
  }
  if (fclose(results) != 0)
    die("cannot write results");
  printf("DONE\n");
  return 0;
}
