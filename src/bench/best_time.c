/* The bench's in-process clock of short runs. */
#include "bench.h"
#include "platform/clock.h"

double bench_best_ns(void (*run)(void *ctx), void *ctx, double units, double budget)
{
    double best = -1, t_end = q7_now_seconds() + budget;
    do {
        double t0 = q7_now_seconds();
        run(ctx);
        double ns = (q7_now_seconds() - t0) * 1e9 / units;
        if (best < 0 || ns < best) best = ns;
    } while (q7_now_seconds() < t_end);
    return best;
}
