# SPDX-License-Identifier: BSD-3-Clause
# The tests' shared helper headers are prerequisites of every C test.
$(TEST_BINS): $(wildcard tests/*.h)
