/* Shared driver for logical_and/or/xor. */
#ifndef PK_LOGICAL_H
#define PK_LOGICAL_H

#include "portable/util/iter.h"

typedef enum pk_logic { PK_LOGIC_AND, PK_LOGIC_OR, PK_LOGIC_XOR } pk_logic;

/* op.out(Tensor self, Tensor other, *, Tensor(a!) out): args [self, other, out, ret].
 * Each operand is read as a truth value (nonzero; NaN is true) after broadcasting;
 * out of any real or bool dtype gets 1/0. */
PT_FUNC ptera_status pk_logical_kernel(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                       size_t nargs, pk_logic fn);

#endif
