/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run-time path choice (src/lib/platform/dispatch.h) on a table whose first
 * path needs a feature no CPU reports, so which paths are supported does
 * not depend on this machine: lookup by name and short name, the widest
 * supported path, forcing, "auto", and the environment (read once; an
 * unknown or unsupported name there is ignored). Then the public
 * behaviour built on it: Q7PRED_BATCH forces a batch path, while
 * q7_batch_select("auto") takes the widest whatever the environment says,
 * and Q7PRED_VEC / q7v_select("auto") the same for the vector level (whose
 * paths need what the batch paths need); an unknown Q7PRED_HOST leaves the
 * host on its widest path.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host/host.h"
#include "platform/dispatch.h"
#include "q7pred_batch.h"
#include "q7pred_vec.h"

/* No feature bit of cpu.h: detection never sets it. */
#define NO_CPU_HAS (1u << 30)

static const q7_path paths[] = {
    { "never+x", "never", NO_CPU_HAS },
    { "plain", NULL, 0 },
};

static void table(void)
{
    q7_dispatch d = Q7_DISPATCH(paths, "Q7_TEST_PATH_UNSET");
    CHECK_EQ(d.count, 2);
    CHECK_EQ(q7_dispatch_find(&d, "never+x"), 0);
    CHECK_EQ(q7_dispatch_find(&d, "never"), 0);
    CHECK_EQ(q7_dispatch_find(&d, "plain"), 1);
    CHECK(q7_dispatch_find(&d, "nev") == -1);
    CHECK(q7_dispatch_find(&d, NULL) == -1);
    CHECK(!q7_dispatch_supported(&d, 0));
    CHECK(q7_dispatch_supported(&d, 1));
    CHECK(!q7_dispatch_supported(&d, -1));
    CHECK(!q7_dispatch_supported(&d, 2));
    CHECK_EQ(q7_dispatch_best(&d), 1);
    CHECK_EQ(q7_dispatch_now(&d), 1);
    CHECK(!q7_dispatch_select(&d, "never"));         /* unsupported: nothing changes */
    CHECK(!q7_dispatch_select(&d, "bogus"));
    CHECK(!q7_dispatch_select(&d, NULL));
    CHECK(q7_dispatch_select(&d, "plain"));
    CHECK_EQ(q7_dispatch_now(&d), 1);
    CHECK(q7_dispatch_select(&d, "auto"));
    CHECK_EQ(q7_dispatch_now(&d), 1);
}

static void environment(void)
{
    /* an unsupported path named in the environment is ignored */
    setenv("Q7_TEST_PATH_A", "never", 1);
    q7_dispatch a = Q7_DISPATCH(paths, "Q7_TEST_PATH_A");
    CHECK_EQ(q7_dispatch_now(&a), 1);

    /* a supported one is taken, read once, and "auto" returns to it */
    static const q7_path two[] = { { "wide", NULL, 0 }, { "narrow", NULL, 0 } };
    setenv("Q7_TEST_PATH_B", "narrow", 1);
    q7_dispatch b = Q7_DISPATCH(two, "Q7_TEST_PATH_B");
    CHECK_EQ(q7_dispatch_best(&b), 0);
    CHECK_EQ(q7_dispatch_now(&b), 1);
    setenv("Q7_TEST_PATH_B", "wide", 1);
    CHECK_EQ(q7_dispatch_now(&b), 1);
    CHECK(q7_dispatch_select(&b, "wide"));
    CHECK_EQ(q7_dispatch_now(&b), 0);
    CHECK(q7_dispatch_select(&b, "auto"));
    CHECK_EQ(q7_dispatch_now(&b), 1);
}

/* The widest of the named paths this CPU runs, by the public query. */
static const char *widest_batch(void)
{
    static const char *const names[] = { "avx512", "avx2", "portable" };
    for (size_t i = 0; i < 2; i++)
        if (q7_batch_path_supported(names[i])) return names[i];
    return names[2];
}

static void public_paths(void)
{
    setenv("Q7PRED_BATCH", "portable", 1);
    setenv("Q7PRED_HOST", "bogus", 1);
    CHECK(strcmp(q7_batch_path(), "portable") == 0);
    CHECK(q7_batch_path_supported("portable"));
    CHECK(!q7_batch_path_supported("avx512bw+f16c"));
    CHECK(q7_batch_select("auto"));
    CHECK(strcmp(q7_batch_path(), widest_batch()) == 0);

    /* the vector level likewise (Q7PRED_VEC) */
    setenv("Q7PRED_VEC", "portable", 1);
    CHECK(strcmp(q7v_path(), "portable") == 0);
    CHECK(q7v_select("auto"));
    CHECK(strcmp(q7v_path(), widest_batch()) == 0);

    const char *host = q7h_path();
    static const char *const host_names[] = { "avx512bw+f16c", "avx2+f16c", "portable" };
    static const char *const host_short[] = { "avx512", "avx2", "portable" };
    size_t widest = 0;
    while (widest < 2 && !q7h_select(host_short[widest])) widest++;
    CHECK(strcmp(host, host_names[widest]) == 0);
    CHECK(strcmp(q7h_path(), host_names[widest]) == 0);
    CHECK(q7h_select(host_names[widest]));          /* the long name selects too */
    CHECK(q7h_select("auto"));
    CHECK(strcmp(q7h_path(), host) == 0);
}

int main(void)
{
    table();
    environment();
    public_paths();
    return check_status("platform_dispatch");
}
