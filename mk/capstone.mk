# SPDX-License-Identifier: BSD-3-Clause
# probe --disasm: capstone where the compiler itself finds it (a test
# compile and link with $(CC), so a cross build without it leaves it out).
# Only the CLI (and the fuzz targets, which link the CLI's commands: mk/fuzz.mk)
# link it; the library and the tests never do.
HAVE_CAPSTONE := $(shell printf '\043include <capstone/capstone.h>\nint main(void) { csh h; return cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK; }\n' | \
                   $(CC) -x c - -o /dev/null -lcapstone >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_CAPSTONE),yes)
$(BUILD)/obj/src/tools/cli/probe_disasm.o: ALL_CFLAGS += -DQ7_HAVE_CAPSTONE
CAPSTONE_LIBS := -lcapstone
$(BUILD)/q7pred: LDLIBS += $(CAPSTONE_LIBS)
endif
