/* Run-time evaluation of the symbolic sizes layoutc compiles dynamic
 * programs with: the values of the symbols a program derives from its
 * arguments' sizes (a slice's clamped bounds, an inferred view size), the
 * checks PyTorch makes on them (select's index, expand's sizes) and the
 * expressions the generated code needs (each tensor's expected sizes and
 * strides, each kernel's loop extents). Generated code calls it; its
 * encoding is layoutc's (dialect/include/layout/Dialect/Layout/Utils/
 * Symbolic.h, encodeSymbolProgram), described here for readers.
 *
 * A program is one constant int64_t array:
 *   [LRT_SYMBOLIC_VERSION, num_exprs, num_conds, num_steps, num_outputs,
 *    expr_offset[num_exprs], cond_offset[num_conds],
 *    steps..., outputs[num_outputs] (expression indices),
 *    expressions and conditions at their offsets]
 * Offsets count int64_t elements from the start of the array.
 *   expression: [num_terms, then per term: coefficient, degree, symbol...]
 *     the sum of coefficient * product of the symbols' values;
 *   condition:  [LRT_SYM_TRUE | LRT_SYM_FALSE]
 *             | [LRT_SYM_GE0 | LRT_SYM_EQ0, expr]
 *             | [LRT_SYM_NOT, cond] | [LRT_SYM_AND | LRT_SYM_OR, cond, cond]
 *   step:       [LRT_SYM_INPUT]                       next input value
 *             | [LRT_SYM_MIN | LRT_SYM_MAX, expr, expr]
 *             | [LRT_SYM_FLOORDIV | LRT_SYM_CEILDIV, expr, k]   (k > 0)
 *             | [LRT_SYM_SELECT, cond, expr, expr]
 *             | [LRT_SYM_VIEW_STRIDE, index, old_rank, new_rank,
 *                expr * old_rank (sizes), expr * old_rank (strides),
 *                expr * new_rank (sizes)]
 *             | [LRT_SYM_PRESERVE_STRIDE, index, rank,
 *                expr * rank (sizes), expr * rank (strides)]
 *             | [LRT_SYM_CHECK, cond, message, num_args, expr...]
 * VIEW_STRIDE is PyTorch's computeStride (reshape's test for a view of
 * the old sizes and strides with the new sizes): its value is the view's
 * stride of dim `index` (0 when there is no view), or, with `index` equal
 * to new_rank, 1 when the view exists and 0 when it does not.
 * PRESERVE_STRIDE is the stride of dim `index` of PyTorch's
 * clone(memory_format=torch.preserve_format): the tensor's own stride when
 * it is non-overlapping and dense, else infer_dense_strides' (dense, in the
 * order of the strides). Ranks are at most LRT_SYMBOLIC_MAX_RANK.
 * Every step but CHECK appends one symbol value. A CHECK whose condition is
 * false fails with message number `message` of `messages` (NUL-separated
 * templates), each "{i}" replaced by the value of argument expression i.
 */
#ifndef LAYOUT_RT_SYMBOLIC_H
#define LAYOUT_RT_SYMBOLIC_H

#include <stdint.h>

#include "layout_rt/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LRT_SYMBOLIC_VERSION 1

enum {
  LRT_SYM_INPUT = 1,
  LRT_SYM_MIN = 2,
  LRT_SYM_MAX = 3,
  LRT_SYM_FLOORDIV = 4,
  LRT_SYM_CEILDIV = 5,
  LRT_SYM_SELECT = 6,
  LRT_SYM_CHECK = 7,
  LRT_SYM_VIEW_STRIDE = 8,
  LRT_SYM_PRESERVE_STRIDE = 9,
};
enum {
  LRT_SYM_TRUE = 1,
  LRT_SYM_FALSE = 2,
  LRT_SYM_GE0 = 3,
  LRT_SYM_EQ0 = 4,
  LRT_SYM_NOT = 5,
  LRT_SYM_AND = 6,
  LRT_SYM_OR = 7,
};

/* The most symbols a program may have (values are kept in a caller array,
 * but checks of malformed programs use this bound). */
#define LRT_SYMBOLIC_MAX_SYMBOLS 4096
/* The most dims of a VIEW_STRIDE step's old and new shapes and of a
 * PRESERVE_STRIDE step's shape. */
#define LRT_SYMBOLIC_MAX_RANK 64

/* Runs `program` on `inputs` (the input symbols' values, in the order of
 * the program's INPUT steps): writes every symbol's value to `values`
 * (num_symbols entries) and every output expression's value to `outputs`.
 * A failed check is LRT_STATUS_INVALID_ARGUMENT with "<function>: " and the
 * check's message; a value that does not fit in int64_t is
 * LRT_STATUS_OUT_OF_RANGE ("<function>: integer overflow: ..."); a malformed
 * program is LRT_STATUS_INTERNAL. Nothing is allocated on success. */
lrt_status_t lrt_symbolic_run(const char *function, const int64_t *program,
                              const char *messages, const int64_t *inputs,
                              int64_t *values, int64_t *outputs);

/* The number of symbols (INPUT, MIN, ... steps) and of INPUT steps of a
 * program, so that callers can size their arrays. */
int64_t lrt_symbolic_num_symbols(const int64_t *program);
int64_t lrt_symbolic_num_inputs(const int64_t *program);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_RT_SYMBOLIC_H */
