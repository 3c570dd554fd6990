# SPDX-License-Identifier: BSD-3-Clause
# The run-time files (src/tools/util/locate.h): the tools look for them under the
# install prefix, beside the executable, then in the source tree this
# binary was built from, whatever BUILD is.
$(BUILD)/obj/src/tools/util/locate.o: ALL_CFLAGS += -DQ7_SRCDIR='"$(CURDIR)"'
