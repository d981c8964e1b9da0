#include "layout_rt/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lrt_status_impl {
  lrt_status_code_t code;
  const char *message;
};

/* Returned when the status itself cannot be allocated, so that an
 * out-of-memory condition is still reported as an error rather than as
 * success (a NULL return would read as OK). */
static struct lrt_status_impl lrt_oom_status = {
    LRT_STATUS_RESOURCE_EXHAUSTED, "out of memory while creating a status"};

lrt_status_t lrt_status_make(lrt_status_code_t code, const char *format, ...) {
  if (code == LRT_STATUS_OK)
    code = LRT_STATUS_INTERNAL; /* An "OK error" would be ambiguous. */
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0)
    length = 0;
  struct lrt_status_impl *status =
      malloc(sizeof(struct lrt_status_impl) + (size_t)length + 1);
  if (!status) {
    va_end(args);
    return &lrt_oom_status;
  }
  /* The message lives in the same allocation so one free releases both. */
  char *message = (char *)(status + 1);
  message[0] = '\0';
  vsnprintf(message, (size_t)length + 1, format, args);
  va_end(args);
  status->code = code;
  status->message = message;
  return status;
}

lrt_status_code_t lrt_status_code(lrt_status_t status) {
  return status ? status->code : LRT_STATUS_OK;
}

const char *lrt_status_message(lrt_status_t status) {
  return status ? status->message : "";
}

const char *lrt_status_code_name(lrt_status_code_t code) {
  switch (code) {
  case LRT_STATUS_OK:
    return "OK";
  case LRT_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case LRT_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case LRT_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case LRT_STATUS_INTERNAL:
    return "INTERNAL";
  case LRT_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  }
  return "UNKNOWN";
}

void lrt_status_free(lrt_status_t status) {
  if (status && status != &lrt_oom_status)
    free(status);
}
