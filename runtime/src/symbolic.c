/* Evaluation of layoutc's symbol programs (symbolic.h): checked 64-bit
 * arithmetic, conditions, checks with PyTorch's messages. */
#include "layout_rt/symbolic.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum { kHeader = 5 };

static int64_t num_exprs(const int64_t *p) { return p[1]; }
static int64_t num_conds(const int64_t *p) { return p[2]; }
static int64_t num_steps(const int64_t *p) { return p[3]; }
static int64_t num_outputs(const int64_t *p) { return p[4]; }
static const int64_t *expr_at(const int64_t *p, int64_t i) {
  return p + p[kHeader + i];
}
static const int64_t *cond_at(const int64_t *p, int64_t i) {
  return p + p[kHeader + num_exprs(p) + i];
}
static const int64_t *first_step(const int64_t *p) {
  return p + kHeader + num_exprs(p) + num_conds(p);
}
static int64_t step_length(const int64_t *s) {
  switch (s[0]) {
  case LRT_SYM_INPUT:
    return 1;
  case LRT_SYM_MIN:
  case LRT_SYM_MAX:
  case LRT_SYM_FLOORDIV:
  case LRT_SYM_CEILDIV:
    return 3;
  case LRT_SYM_SELECT:
    return 4;
  case LRT_SYM_CHECK:
    return 4 + s[3];
  case LRT_SYM_VIEW_STRIDE:
    if (s[2] < 0 || s[3] < 0 || s[2] > LRT_SYMBOLIC_MAX_RANK ||
        s[3] > LRT_SYMBOLIC_MAX_RANK || s[1] < 0 || s[1] > s[3])
      return -1;
    return 4 + 2 * s[2] + s[3];
  case LRT_SYM_PRESERVE_STRIDE:
    if (s[2] < 0 || s[2] > LRT_SYMBOLIC_MAX_RANK || s[1] < 0 || s[1] >= s[2])
      return -1;
    return 3 + 2 * s[2];
  default:
    return -1;
  }
}

/* Evaluates expression `index` over the first `known` symbol values. */
static bool eval_expr(const int64_t *p, int64_t index, const int64_t *values,
                      int64_t known, int64_t *out, bool *malformed) {
  if (index < 0 || index >= num_exprs(p)) {
    *malformed = true;
    return false;
  }
  const int64_t *e = expr_at(p, index);
  int64_t terms = *e++, total = 0;
  for (int64_t t = 0; t < terms; ++t) {
    int64_t v = *e++, degree = *e++;
    for (int64_t d = 0; d < degree; ++d) {
      int64_t s = *e++;
      if (s < 0 || s >= known) {
        *malformed = true;
        return false;
      }
      if (__builtin_mul_overflow(v, values[s], &v))
        return false;
    }
    if (__builtin_add_overflow(total, v, &total))
      return false;
  }
  *out = total;
  return true;
}

/* 1 true, 0 false, -1 overflow, -2 malformed. */
static int eval_cond(const int64_t *p, int64_t index, const int64_t *values,
                     int64_t known, int depth) {
  if (index < 0 || index >= num_conds(p) || depth > 64)
    return -2;
  const int64_t *c = cond_at(p, index);
  bool malformed = false;
  int64_t v;
  switch (c[0]) {
  case LRT_SYM_TRUE:
    return 1;
  case LRT_SYM_FALSE:
    return 0;
  case LRT_SYM_GE0:
  case LRT_SYM_EQ0:
    if (!eval_expr(p, c[1], values, known, &v, &malformed))
      return malformed ? -2 : -1;
    return c[0] == LRT_SYM_GE0 ? v >= 0 : v == 0;
  case LRT_SYM_NOT: {
    int r = eval_cond(p, c[1], values, known, depth + 1);
    return r < 0 ? r : !r;
  }
  case LRT_SYM_AND:
  case LRT_SYM_OR: {
    int want = c[0] == LRT_SYM_AND ? 0 : 1;
    int a = eval_cond(p, c[1], values, known, depth + 1);
    if (a < 0 || a == want)
      return a;
    return eval_cond(p, c[2], values, known, depth + 1);
  }
  default:
    return -2;
  }
}

/* Steps of `program` whose op is `op` (or, with `op` 0, that make a
 * symbol), or -1 for a malformed program. */
static int64_t count_steps(const int64_t *program, int64_t op) {
  const int64_t *s = first_step(program);
  int64_t n = 0;
  for (int64_t i = 0; i < num_steps(program); ++i) {
    int64_t len = step_length(s);
    if (len < 0)
      return -1;
    n += op ? s[0] == op : s[0] != LRT_SYM_CHECK;
    s += len;
  }
  return n;
}

int64_t lrt_symbolic_num_symbols(const int64_t *program) {
  return count_steps(program, 0);
}

int64_t lrt_symbolic_num_inputs(const int64_t *program) {
  return count_steps(program, LRT_SYM_INPUT);
}

/* Message number `index` of the NUL-separated templates. */
static const char *message_at(const char *messages, int64_t index) {
  const char *m = messages;
  for (int64_t i = 0; i < index; ++i)
    m += strlen(m) + 1;
  return m;
}

/* The failed check's message with "{i}" replaced by argument i's value. */
static lrt_status_t check_failed(const char *function, const int64_t *p,
                                 const char *messages, const int64_t *step,
                                 const int64_t *values, int64_t known) {
  const char *t = message_at(messages, step[2]);
  char text[1024];
  size_t used = 0;
  while (*t && used + 32 < sizeof text) {
    unsigned long arg;
    int consumed = 0;
    if (*t == '{' && sscanf(t, "{%lu}%n", &arg, &consumed) == 1 &&
        consumed > 0 && (int64_t)arg < step[3]) {
      int64_t v;
      bool malformed = false;
      if (eval_expr(p, step[4 + arg], values, known, &v, &malformed))
        used += (size_t)snprintf(text + used, sizeof text - used, "%lld",
                                 (long long)v);
      else
        text[used++] = '?';
      t += consumed;
      continue;
    }
    text[used++] = *t++;
  }
  text[used] = '\0';
  return lrt_status_make(LRT_STATUS_INVALID_ARGUMENT, "%s: %s", function, text);
}

static lrt_status_t overflow(const char *function) {
  return lrt_status_make(LRT_STATUS_OUT_OF_RANGE,
                         "%s: integer overflow: a size, stride or offset "
                         "computed at run time does not fit in a signed "
                         "64-bit integer",
                         function);
}

static lrt_status_t malformed(const char *function) {
  return lrt_status_make(LRT_STATUS_INTERNAL,
                         "%s: malformed symbol program (layoutc and layout_rt "
                         "disagree)",
                         function);
}

static int64_t floor_div(int64_t a, int64_t k) {
  int64_t q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}
static int64_t ceil_div(int64_t a, int64_t k) {
  int64_t q = a / k;
  return (a % k != 0 && a > 0) ? q + 1 : q;
}

/* at::detail::computeStride: the strides that view (old sizes, strides)
 * with `new_sizes`, or false when PyTorch's reshape would copy. Products
 * that overflow match no stride, as in layoutc's ViewOps.cpp. */
static bool compute_stride(int64_t old_rank, const int64_t *old_sizes,
                           const int64_t *old_strides, int64_t new_rank,
                           const int64_t *new_sizes, int64_t *new_strides) {
  if (old_rank == 0) {
    for (int64_t d = 0; d < new_rank; ++d)
      new_strides[d] = 1;
    return true;
  }
  int64_t numel = 1;
  for (int64_t d = 0; d < old_rank; ++d)
    if (__builtin_mul_overflow(numel, old_sizes[d], &numel))
      return false;
  if (numel == 0) {
    /* No elements: the old strides where the shape is unchanged, else
     * resize's strides. */
    bool same = old_rank == new_rank;
    for (int64_t d = 0; same && d < old_rank; ++d)
      same = old_sizes[d] == new_sizes[d];
    int64_t running = 1;
    for (int64_t d = new_rank - 1; d >= 0; --d) {
      new_strides[d] = same ? old_strides[d] : running;
      int64_t size = new_sizes[d] > 1 ? new_sizes[d] : 1;
      if (!same && d > 0 && __builtin_mul_overflow(running, size, &running))
        return false;
    }
    return true;
  }
  int64_t view_d = new_rank - 1;
  int64_t chunk_base = old_strides[old_rank - 1];
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = old_rank - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d]; /* at most numel */
    int64_t chunk_stride;
    bool fits =
        !__builtin_mul_overflow(tensor_numel, chunk_base, &chunk_stride);
    if (tensor_d == 0 ||
        (old_sizes[tensor_d - 1] != 1 &&
         (!fits || old_strides[tensor_d - 1] != chunk_stride))) {
      while (view_d >= 0 &&
             (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        int64_t next;
        if (__builtin_mul_overflow(view_numel, chunk_base,
                                   &new_strides[view_d]) ||
            __builtin_mul_overflow(view_numel, new_sizes[view_d], &next))
          return false;
        view_numel = next;
        --view_d;
      }
      if (view_numel != tensor_numel)
        return false;
      if (tensor_d > 0) {
        chunk_base = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

/* A VIEW_STRIDE step's value; false on overflow or a malformed step. */
static bool view_stride(const int64_t *p, const int64_t *s,
                        const int64_t *values, int64_t known, int64_t *out,
                        bool *bad) {
  int64_t old_rank = s[2], new_rank = s[3];
  int64_t v[3 * LRT_SYMBOLIC_MAX_RANK], strides[LRT_SYMBOLIC_MAX_RANK];
  for (int64_t i = 0; i < 2 * old_rank + new_rank; ++i)
    if (!eval_expr(p, s[4 + i], values, known, &v[i], bad))
      return false;
  bool viewable = compute_stride(old_rank, v, v + old_rank, new_rank,
                                 v + 2 * old_rank, strides);
  if (s[1] == new_rank)
    *out = viewable ? 1 : 0;
  else
    *out = viewable ? strides[s[1]] : 0;
  return true;
}

/* is_non_overlapping_and_dense(): no elements (contiguous), or the dims of
 * size 2 or more, by increasing stride, each step past what the smaller
 * ones reach. */
static bool non_overlapping_and_dense(int64_t rank, const int64_t *sizes,
                                      const int64_t *strides) {
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return true;
  if (rank == 1)
    return sizes[0] < 2 || strides[0] == 1;
  bool used[LRT_SYMBOLIC_MAX_RANK] = {false};
  /* Once the product overflows, no stride can equal it. */
  bool overflowed = false;
  int64_t expected = 1;
  for (int64_t n = 0; n < rank; ++n) {
    int64_t next = -1;
    for (int64_t d = 0; d < rank; ++d)
      if (!used[d] && sizes[d] >= 2 && (next < 0 || strides[d] < strides[next]))
        next = d;
    if (next < 0)
      return true;
    if (overflowed || strides[next] != expected)
      return false;
    used[next] = true;
    overflowed = __builtin_mul_overflow(expected, sizes[next], &expected);
  }
  return true;
}

/* at::infer_dense_strides' stride of dim `index`: TensorIterator's
 * insertion sort of the dims by increasing stride (stride-0 dims compare as
 * ambiguous; equal strides put the smaller size first), then dense strides
 * in that order, skipping dims of size 0 and 1. Saturates at INT64_MAX
 * where the product of the sizes does not fit, as layoutc's
 * inferDenseStrides does. */
static int64_t infer_dense_stride(int64_t rank, const int64_t *sizes,
                                  const int64_t *strides, int64_t index) {
  if (rank == 1)
    return 1;
  int64_t perm[LRT_SYMBOLIC_MAX_RANK];
  for (int64_t i = 0; i < rank; ++i)
    perm[i] = rank - 1 - i;
  for (int64_t i = 1; i < rank; ++i) {
    int64_t d1 = i;
    for (int64_t j = 1; j <= i; ++j) {
      int64_t d0 = i - j, a = perm[d0], b = perm[d1];
      int c = 0;
      if (strides[a] != 0 && strides[b] != 0)
        c = strides[a] < strides[b]   ? -1
            : strides[a] > strides[b] ? 1
            : sizes[a] > sizes[b]     ? 1
                                      : 0;
      if (c > 0) {
        perm[d0] = b;
        perm[d1] = a;
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  int64_t running = 1;
  for (int64_t i = 0; i < rank; ++i) {
    if (perm[i] == index)
      return running;
    if (sizes[perm[i]] > 1 &&
        __builtin_mul_overflow(running, sizes[perm[i]], &running))
      running = INT64_MAX;
  }
  return running;
}

/* A PRESERVE_STRIDE step's value; false on overflow or a malformed step. */
static bool preserve_stride(const int64_t *p, const int64_t *s,
                            const int64_t *values, int64_t known, int64_t *out,
                            bool *bad) {
  int64_t rank = s[2];
  int64_t v[2 * LRT_SYMBOLIC_MAX_RANK];
  for (int64_t i = 0; i < 2 * rank; ++i)
    if (!eval_expr(p, s[3 + i], values, known, &v[i], bad))
      return false;
  *out = non_overlapping_and_dense(rank, v, v + rank)
             ? v[rank + s[1]]
             : infer_dense_stride(rank, v, v + rank, s[1]);
  return true;
}

lrt_status_t lrt_symbolic_run(const char *function, const int64_t *program,
                              const char *messages, const int64_t *inputs,
                              int64_t *values, int64_t *outputs) {
  if (!program || program[0] != LRT_SYMBOLIC_VERSION)
    return malformed(function);
  const int64_t *s = first_step(program);
  int64_t known = 0, next_input = 0;
  for (int64_t i = 0; i < num_steps(program); ++i) {
    int64_t len = step_length(s);
    if (len < 0 || known >= LRT_SYMBOLIC_MAX_SYMBOLS)
      return malformed(function);
    bool bad = false;
    int64_t a = 0, b = 0;
    switch (s[0]) {
    case LRT_SYM_INPUT:
      values[known++] = inputs[next_input++];
      break;
    case LRT_SYM_MIN:
    case LRT_SYM_MAX:
      if (!eval_expr(program, s[1], values, known, &a, &bad) ||
          !eval_expr(program, s[2], values, known, &b, &bad))
        return bad ? malformed(function) : overflow(function);
      values[known++] = (s[0] == LRT_SYM_MIN) == (a < b) ? a : b;
      break;
    case LRT_SYM_FLOORDIV:
    case LRT_SYM_CEILDIV:
      if (s[2] <= 0)
        return malformed(function);
      if (!eval_expr(program, s[1], values, known, &a, &bad))
        return bad ? malformed(function) : overflow(function);
      values[known++] =
          s[0] == LRT_SYM_FLOORDIV ? floor_div(a, s[2]) : ceil_div(a, s[2]);
      break;
    case LRT_SYM_SELECT: {
      int holds = eval_cond(program, s[1], values, known, 0);
      if (holds < 0)
        return holds == -2 ? malformed(function) : overflow(function);
      if (!eval_expr(program, holds ? s[2] : s[3], values, known, &a, &bad))
        return bad ? malformed(function) : overflow(function);
      values[known++] = a;
      break;
    }
    case LRT_SYM_VIEW_STRIDE:
      if (!view_stride(program, s, values, known, &a, &bad))
        return bad ? malformed(function) : overflow(function);
      values[known++] = a;
      break;
    case LRT_SYM_PRESERVE_STRIDE:
      if (!preserve_stride(program, s, values, known, &a, &bad))
        return bad ? malformed(function) : overflow(function);
      values[known++] = a;
      break;
    case LRT_SYM_CHECK: {
      int holds = eval_cond(program, s[1], values, known, 0);
      if (holds < 0)
        return holds == -2 ? malformed(function) : overflow(function);
      if (!holds)
        return check_failed(function, program, messages, s, values, known);
      break;
    }
    }
    s += len;
  }
  for (int64_t o = 0; o < num_outputs(program); ++o) {
    bool bad = false;
    if (!eval_expr(program, s[o], values, known, &outputs[o], &bad))
      return bad ? malformed(function) : overflow(function);
  }
  return LRT_OK;
}
