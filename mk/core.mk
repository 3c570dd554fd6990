# SPDX-License-Identifier: BSD-3-Clause
# The tests' shared helper headers are prerequisites of every C test.
$(TEST_BINS): $(wildcard tests/*.h)
# The tools find their data files (the numpy oracle, the binary prover) in
# the source tree they were built from, when not installed (util/data_path.h).
$(BUILD)/obj/src/util/data_path.o: ALL_CFLAGS += -DQ7_SRCDIR='"$(CURDIR)"'
