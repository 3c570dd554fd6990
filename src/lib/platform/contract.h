/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The public API's preconditions, checked in debug builds only
 * (docs/api-contract.md). A build that defines Q7_DEBUG (make check's
 * ASan+UBSan build) turns each check into a test that, when it fails,
 * prints one line
 *   q7pred: <function>: argument <name> <rule>
 * to stderr and aborts; every other build compiles it to nothing, so that
 * a hot path (an exported leaf, a vector instruction) pays nothing for its
 * contract. Only what the contract calls a precondition is checked here:
 * an answer the contract defines is computed, never checked.
 */
#ifndef Q7_PLATFORM_CONTRACT_H
#define Q7_PLATFORM_CONTRACT_H

#ifdef Q7_DEBUG
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((noreturn, cold)) void q7_precondition_failed(const char *function,
                                                                         const char *argument,
                                                                         const char *rule)
{
    fprintf(stderr, "q7pred: %s: argument %s %s\n", function, argument, rule);
    abort();
}

/* cond must hold of the argument arg, else `rule` (what is wrong with it). */
#define Q7_REQUIRE(cond, arg, rule) ((cond) ? (void)0 : q7_precondition_failed(__func__, #arg, rule))
#else
/* Not evaluated; still compiled, so a check's helpers and names are used. */
#define Q7_REQUIRE(cond, arg, rule) ((void)sizeof(!(cond)))
#endif

/* A pointer argument that must not be NULL. */
#define Q7_REQUIRE_PTR(p) Q7_REQUIRE((p) != NULL, p, "is NULL")

#endif
