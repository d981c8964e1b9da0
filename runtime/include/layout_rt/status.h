/* Status values returned by every fallible layout_rt entry point.
 *
 * A status is an opaque pointer: NULL means success, anything else is an
 * error that owns a code and a message and must be released with
 * lrt_status_free exactly once. Statuses are immutable after creation, so
 * they may be read from any thread.
 */
#ifndef LAYOUT_RT_STATUS_H
#define LAYOUT_RT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lrt_status_impl *lrt_status_t;

#define LRT_OK ((lrt_status_t)0)

typedef enum lrt_status_code_e {
  LRT_STATUS_OK = 0,
  /* A caller-supplied value (tensor, option, count) is malformed. */
  LRT_STATUS_INVALID_ARGUMENT = 1,
  /* A value is well-formed but exceeds what the runtime can represent,
   * e.g. a byte extent that overflows 64 bits. */
  LRT_STATUS_OUT_OF_RANGE = 2,
  /* The request is valid DLPack but this runtime does not support it,
   * e.g. sub-byte element types. */
  LRT_STATUS_UNIMPLEMENTED = 3,
  /* A broken invariant inside the runtime or a generated kernel. */
  LRT_STATUS_INTERNAL = 4,
  /* Memory or threads could not be obtained. */
  LRT_STATUS_RESOURCE_EXHAUSTED = 5,
} lrt_status_code_t;

/* Creates an error status with a printf-style message. `code` must not be
 * LRT_STATUS_OK. If memory for the status cannot be allocated, returns a
 * statically allocated LRT_STATUS_RESOURCE_EXHAUSTED status instead, so the
 * result is never NULL; lrt_status_free accepts it. */
lrt_status_t lrt_status_make(lrt_status_code_t code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* LRT_STATUS_OK for NULL, otherwise the code the status was made with. */
lrt_status_code_t lrt_status_code(lrt_status_t status);

/* The message, valid until lrt_status_free(status); "" for NULL. */
const char *lrt_status_message(lrt_status_t status);

/* A constant name such as "INVALID_ARGUMENT"; "UNKNOWN" for values outside
 * the enum. */
const char *lrt_status_code_name(lrt_status_code_t code);

/* Releases an error status; NULL is accepted and ignored. */
void lrt_status_free(lrt_status_t status);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_RT_STATUS_H */
