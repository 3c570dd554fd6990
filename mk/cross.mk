# SPDX-License-Identifier: BSD-3-Clause
# Other CPUs and the big-endian byte order: tests/test_cross.sh cross-compiles
# the library, the CLI and the C tests for aarch64 and s390x (build/cross-*)
# and runs them under qemu-user. It is part of make check (skipped there when
# the cross tools are missing, required under CI=true); `make cross` runs it
# alone (CROSS_TARGETS=s390x for one target).
.PHONY: cross
cross: $(BUILD)/q7pred
	SRCDIR=$(CURDIR) Q7PRED=$(CURDIR)/$(BUILD)/q7pred bash tests/test_cross.sh
