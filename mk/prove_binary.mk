# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove, the proof of a library's machine code (prover/q7prove/binary,
# docs/proofs.md): its test libraries, the library rebuilt by other compilers
# and levels, and the matrix.
#   make prove-binary             q7pred prove --lib $(BUILD)/libq7pred.so; JSON in $(BUILD)/prove-binary.json
#   make prove-binary-matrix      the library rebuilt with gcc -O0/-O1/-O2/-O3/-Os and
#                                 clang -O0/-O1/-O2/-O3, each at -march x86-64, x86-64-v2,
#                                 x86-64-v3 and x86-64-v4 (36 builds), each proven (every
#                                 leaf proven-binary, 60 s a leaf at most)
#   make prove-vector             every q7v_ instruction of $(BUILD)/libq7pred.so from its machine
#                                 code, on every path, and its dispatch (binary/vector.py); one JSON
#                                 line per function in $(BUILD)/prove-vector.jsonl; fails unless
#                                 every one is proven-binary ($(PROVE_VECTOR_TIMEOUT) s a path at most)
# make check runs tests/test_prove_binary.sh (the default build, gcc -O0,
# clang -O2, gcc -O3 -march=x86-64-v4 and clang -O2 -march=x86-64-v3, the
# test libraries below, the translator's tests), tests/test_prove_models.sh
# and tests/test_prove_instructions.sh.
PROVE_TESTS := $(BUILD)/tests/prove

# The whole library rebuilt as a variant COMPILER-LEVEL[-vN]: $(BUILD)/prove/gcc-O0/libq7pred.so,
# $(BUILD)/prove/gcc-O3-v4/libq7pred.so (-O3 -march=x86-64-v4); without -vN, -march=x86-64.
PROVE_LEVELS := gcc-O0 gcc-O1 gcc-O2 gcc-O3 gcc-Os clang-O0 clang-O1 clang-O2 clang-O3
PROVE_MATRIX := $(foreach l,$(PROVE_LEVELS),$(l) $(l)-v2 $(l)-v3 $(l)-v4)
prove_variant_lib = $(BUILD)/prove/$(1)/libq7pred.so
prove_variant_cc = $(if $(filter clang-%,$(1)),$(CLANG),gcc)
prove_variant_flags = -$(word 2,$(subst -, ,$(1))) -march=x86-64$(if $(word 3,$(subst -, ,$(1))),-$(word 3,$(subst -, ,$(1)))) -g
# Its sub-make is asked every time: it knows what each object read (its .d
# files) and the flags the tree was built with, and does nothing when the
# library is up to date.
.PHONY: prove-variant-asked
$(BUILD)/prove/%/libq7pred.so: prove-variant-asked
	+$(MAKE) --no-print-directory BUILD=$(BUILD)/prove/$* CC=$(call prove_variant_cc,$*) \
	  CFLAGS='$(call prove_variant_flags,$*)' SAN= lib

# The fp compares written with C's float and _Float16 operators (comiss,
# ucomiss, libgcc's __extendhfsf2 linked in).
$(PROVE_TESTS)/float_compares.so: tests/prove/float_compares.c
	@mkdir -p $(dir $@)
	gcc $(WARN) -O2 -fPIC -fvisibility=hidden -shared -static-libgcc -o $@ $<

# The planted bugs, built three ways: gcc -fPIC (every bug), clang (no
# gcc-only bug), gcc -fno-pic (no PIC-only bug; without the two leaves that
# read tables, which -fno-pic code in a shared library cannot address).
$(PROVE_TESTS)/planted_bugs.so: tests/prove/planted_bugs.c
	@mkdir -p $(dir $@)
	gcc $(WARN) -O2 -fPIC -fvisibility=hidden -shared -o $@ $<
$(PROVE_TESTS)/planted_bugs_clang.so: tests/prove/planted_bugs.c
	@mkdir -p $(dir $@)
	$(CLANG) $(WARN) -O2 -fPIC -fvisibility=hidden -shared -o $@ $<
$(PROVE_TESTS)/planted_bugs_nopic.so: tests/prove/planted_bugs.c
	@mkdir -p $(dir $@)
	gcc $(WARN) -O2 -fno-pic -DPLANTED_NO_TABLES -fvisibility=hidden -shared -o $@ $<

# The leaves built from a wrong table row: olt_1_4_32f_32f naming q7_f32_le.
$(PROVE_TESTS)/wrong_row/include/q7pred.h: $(wildcard include/*.h include/*.def)
	@mkdir -p $(dir $@)
	cp include/*.h include/*.def $(dir $@)
	sed -i 's/^\(LEAF(olt_1_4_32f_32f, .*\)q7_f32_lt(/\1q7_f32_le(/' $(dir $@)q7pred_leaves.def
	grep -q '^LEAF(olt_1_4_32f_32f, .*q7_f32_le(' $(dir $@)q7pred_leaves.def
DEPFILES += $(PROVE_TESTS)/wrong_row.so.d
$(PROVE_TESTS)/wrong_row.so: src/lib/abi/xdref.c $(PROVE_TESTS)/wrong_row.so.d $(PROVE_TESTS)/wrong_row/include/q7pred.h \
                            $(BUILD_FLAGS)
	$(CC) $(WARN) -O2 -fPIC $(call library_flags,all) $(DEPFLAGS) -I$(PROVE_TESTS)/wrong_row/include -Isrc/lib -Isrc/tools \
	  -shared -o $@ $<
	@touch $@

PROVE_TEST_LIBS := $(PROVE_TESTS)/float_compares.so $(PROVE_TESTS)/planted_bugs.so \
                   $(PROVE_TESTS)/planted_bugs_nopic.so $(PROVE_TESTS)/wrong_row.so $(call prove_variant_lib,gcc-O0) \
                   $(call prove_variant_lib,gcc-O3-v4)
ifneq ($(HAVE_CLANG),)
PROVE_TEST_LIBS += $(PROVE_TESTS)/planted_bugs_clang.so $(call prove_variant_lib,clang-O2) \
                   $(call prove_variant_lib,clang-O2-v3)
endif
.PHONY: prove-binary prove-binary-libs prove-binary-matrix prove-vector
prove-binary-libs: $(PROVE_TEST_LIBS)
CHECK_EXTRA += prove-binary-libs

prove-binary: $(BUILD)/q7pred $(BUILD)/libq7pred.so
	$(BUILD)/q7pred prove --lib $(BUILD)/libq7pred.so --json $(BUILD)/prove-binary.json
	@echo "q7pred list --proofs $(BUILD)/prove-binary.json shows each leaf's status"

PROVE_VECTOR_TIMEOUT ?= 120
prove-vector: $(BUILD)/q7pred $(BUILD)/libq7pred.so
	PYTHONPATH=$(CURDIR)/prover $(PYTHON) -m q7prove.binary.vector --lib $(BUILD)/libq7pred.so \
	  --loader $(BUILD)/q7pred --timeout $(PROVE_VECTOR_TIMEOUT) > $(BUILD)/prove-vector.jsonl
	@$(PYTHON) -c 'import json, sys; rows = [json.loads(l) for l in open(sys.argv[1]) if "\"function\"" in l]; \
	  bad = [r["function"] + ": " + r["status"] for r in rows if r["status"] != "proven-binary"]; \
	  print("%d of %d q7v_ functions proven-binary" % (len(rows) - len(bad), len(rows))); \
	  print("\n".join(bad)); sys.exit(1 if bad or not rows else 0)' $(BUILD)/prove-vector.jsonl

prove-binary-matrix: $(BUILD)/q7pred $(foreach v,$(PROVE_MATRIX),$(call prove_variant_lib,$(v)))
	@rc=0; for v in $(PROVE_MATRIX); do \
	  start=$$(date +%s); \
	  out=$$($(BUILD)/q7pred prove --quiet --lib $(BUILD)/prove/$$v/libq7pred.so \
	    --json $(BUILD)/prove/$$v/prove-binary.json) || rc=1; \
	  echo "$$v: $$out ($$(( $$(date +%s) - start )) s)"; \
	done; exit $$rc

# make install: the prover's package, where an installed q7pred looks for
# it (PREFIX/share/q7pred/prover/q7prove/, util/locate.h): every file of
# prover/q7prove, so that nothing is left out by a list kept by hand.
PROVER_PACKAGE_FILES := $(shell find prover/q7prove -name '*.py' -o -name '*.txt' | grep -v __pycache__ | sort)
.PHONY: install-prover
install: install-prover
install-prover:
	@for f in $(PROVER_PACKAGE_FILES); do \
	  install -d $(DESTDIR)$(PREFIX)/share/q7pred/$$(dirname $$f) && \
	  install -m 644 $$f $(DESTDIR)$(PREFIX)/share/q7pred/$$f || exit 1; \
	done
