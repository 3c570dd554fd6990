/* SPDX-License-Identifier: BSD-3-Clause */
/* The exported clean API of <q7pred.h>, one function per row of
 * q7pred_ops.def: each is its inline body in model.h, which is total in its
 * value arguments; a pointer argument (the row's PTR) is a precondition,
 * checked here in debug builds (platform/contract.h). */
#include "model.h"
#include "platform/contract.h"
#include "q7pred_ops.def"

#define VALUES
#define PTR(p) Q7_REQUIRE_PTR(p);
#define API_FUNCTION(name, ret, params, args, pre, code, operands) \
    ret q7_##name params                                           \
    {                                                              \
        pre                                                        \
        Q7_RETURN_##ret q7m_##name args;                           \
    }
Q7_OPERATIONS(API_FUNCTION)
