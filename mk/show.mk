# SPDX-License-Identifier: BSD-3-Clause
# One leaf's C as the library compiles it (tools/show_leaf.py): its row,
# its exported module__xdref_ wrapper, its semantics and every function
# they reach, its registry record and word-layout entry, cut out of the
# preprocessed sources and formatted (clang-format with .clang-format, else
# the tool's own formatter; FORMAT=simple asks for that one).
#   make show LEAF=olt_1_2_16f_16f [FORMAT=simple]
.PHONY: show
show:
	@$(PYTHON) tools/show_leaf.py --cc "$(CC) $(ALL_CFLAGS) -Isrc/lib -Isrc/tools" --srcdir $(CURDIR) \
	  $(if $(FORMAT),--format $(FORMAT)) $(LEAF)
