/* SPDX-License-Identifier: BSD-3-Clause */
/* With plt_good.c, an executable (ET_EXEC, or a PIE) that exports a right
 * eq_1_8_8 (-rdynamic): nothing loads it as a library, so nothing is proven. */
int main(void) { return 0; }
