# SPDX-License-Identifier: BSD-3-Clause
# libFuzzer targets, one per input surface (tests/fuzz/fuzz_<target>.c):
#   program    the vector program parser and runner (q7pred exec)
#   cli        every subcommand's option parsing (cli_command.parse)
#   testfloat  the TestFloat case file reader
#   report     the JSON report reader and merge of two shards
#   elf        the probe's ELF reader (the dynamic symbol table of a library)
# Each has a committed seed corpus, tests/fuzz/corpus/<target>/ (program
# also takes examples/*.q7; elf's are written by tests/fuzz/elf_seeds.py); new finds go to build/fuzz/corpus-<target>/,
# crashes to build/fuzz/<target>-crash-*.
#   make fuzz [TARGET=cli] [FUZZ_TIME=600]   every target (or one) for
#                          FUZZ_TIME seconds each (default 60)
#   make fuzz-brief        what `make check` runs: each target for a fixed
#                          number of inputs from a fixed seed, starting from
#                          the committed seeds only (FUZZ_BRIEF_RUNS_<target>,
#                          3 to 13 s each here), so every run tries the same
#                          inputs and its outcome does not depend on luck;
#                          skipped with a message when clang is missing
#                          (where clang is, the ASan tree they link needs
#                          its sanitizer runtime, libFuzzer's package too).
#                          Under make check a failure is recorded in
#                          $(FUZZ_DIR)/brief-failures (target, artifact, its
#                          bytes) and the tests still run; check then fails
#                          naming it.
# The per-input timeout is generous (60 s, inputs take well under 1 ms) so
# that a loaded machine does not flake, while a real hang still fails.
# docs/fuzzing.md says more.

# The targets link the ASan+UBSan tree's archives (Makefile: check-asan),
# built by $(CLANG) with libFuzzer's coverage where it has libFuzzer.
FUZZ_CC      := $(CLANG)
FUZZ_DIR     := build/fuzz
FUZZ_TIME    ?= 60
FUZZ_SEED    ?= 1
# The brief run's inputs per target (3 to 13 s each on an idle machine);
# its time cap only guards against a hang: at load 8 on two cores a run
# took 120 s for a third of its inputs, so the cap is far past that, and
# every run tries all of its inputs however loaded the machine.
FUZZ_BRIEF_RUNS_program   ?= 100000
FUZZ_BRIEF_RUNS_cli       ?= 25000
FUZZ_BRIEF_RUNS_testfloat ?= 500000
FUZZ_BRIEF_RUNS_report    ?= 60000
FUZZ_BRIEF_RUNS_elf       ?= 40000
FUZZ_BRIEF_CAP            ?= 900
FUZZ_TARGETS := program cli testfloat report elf
TARGET       ?= $(FUZZ_TARGETS)
FUZZ_CFLAGS  := $(WARN) $(call library_flags,all) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer -DQ7_DEBUG -Iinclude -Isrc/lib -Isrc/tools
DEPFILES     += $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%.d)
# the longest seed of each target, and room to grow
FUZZ_MAXLEN_program   := 4096
FUZZ_MAXLEN_cli       := 1024
FUZZ_MAXLEN_testfloat := 4096
FUZZ_MAXLEN_report    := 32768
FUZZ_MAXLEN_elf       := 4096

.PHONY: fuzz fuzz-brief fuzz-run
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/fuzz_%.d $(ASAN_ARCHIVES)
	@mkdir -p $(dir $@)
	@echo "fuzz: building $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(ASAN_ARCHIVES) $(CAPSTONE_LIBS) -ldl -lpthread -lm
	@touch $@

# Words that let mutations reach deep: every mnemonic and keyword of the
# program language; every option of every subcommand; the report's keys.
$(FUZZ_DIR)/program.dict: include/q7pred_vecops.def mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)
	@{ sed -n 's/^VOP(\([a-z0-9_]*\),.*/"\1"/p' include/q7pred_vecops.def; \
	  for w in print as all 2nx8 nx16 n_2x32 nxf16 n_2xf32 v0 v31 vb0 vb15 fs0 fs7 \
	           qnan snan inf -inf -0.0 0x 0b 1.0 65504 '*' '=' ',' '#'; do echo "\"$$w\""; done; \
	} > $@
$(FUZZ_DIR)/cli.dict: $(wildcard src/tools/cli/cmd_*.c src/tools/cli/options/*.def) mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)
	@grep -ho '"--[a-z-]*"' $(wildcard src/tools/cli/cmd_*.c src/tools/cli/options/*.def) | sort -u > $@
	@for w in testfloat: lib: sem host numpy grid fuzz exhaustive 1/2 f16_lt: portable --q7pred-lib-child; do \
	  echo "\"$$w\""; done >> $@
$(FUZZ_DIR)/testfloat.dict: mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)
	@for w in f16_lt f32_eq_signaling _quiet 3C00 7E00 7F800000 " 0 00" " 1 10"; do echo "\"$$w\""; done > $@
# the report's keys, each spelled once in its schema (Q7R_KEYS)
$(FUZZ_DIR)/report.dict: src/tools/report/schema.h mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)
	@sed -n '/define Q7R_KEYS/,/^$$/p' src/tools/report/schema.h | grep -o 'X([a-z_0-9]*)' | sed 's/^X(//; s/)$$//' \
	  | sort -u | sed 's/.*/"\\"&\\""/' > $@
	@for w in ran crashed stopped signal hang value grid fuzz 18446744073709551615 1e999 -1e308; do \
	  echo "\"$$w\""; done >> $@

# the ELF magic and header bytes, the prefix, and the program header,
# dynamic and section types the reader looks for, as 4- and 8-byte words
$(FUZZ_DIR)/elf.dict: mk/fuzz.mk
	@mkdir -p $(FUZZ_DIR)
	@for w in '\x7fELF' '\x02\x01\x01' '\x03\x00\x3e\x00' module__xdref_ module__xdref_lt_1_8_8 \
	          '\x01\x00\x00\x00' '\x02\x00\x00\x00' '\x0b\x00\x00\x00' '\x03\x00\x00\x00' \
	          '\x04\x00\x00\x00\x00\x00\x00\x00' '\x05\x00\x00\x00\x00\x00\x00\x00' \
	          '\x06\x00\x00\x00\x00\x00\x00\x00' '\x0a\x00\x00\x00\x00\x00\x00\x00' \
	          '\xf5\xfe\xff\x6f\x00\x00\x00\x00' '\xff\xff\xff\xff' '\x12\x00\x01\x00'; do \
	  echo "\"$$w\""; done > $@

# One target's run (FUZZ_ONE): for FUZZ_TIME seconds, growing
# $(FUZZ_DIR)/corpus-<target>; or, with FUZZ_RUNS, exactly that many inputs
# from seed FUZZ_SEED over the committed seeds alone (a fresh output corpus),
# the same inputs every time.
FUZZ_ARGS = $(if $(FUZZ_RUNS),-seed=$(FUZZ_SEED) -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_BRIEF_CAP),-max_total_time=$(FUZZ_TIME))
FUZZ_OUT  = $(FUZZ_DIR)/$(if $(FUZZ_RUNS),brief-corpus,corpus)-$(FUZZ_ONE)
fuzz-run: $(FUZZ_DIR)/fuzz_$(FUZZ_ONE) $(FUZZ_DIR)/$(FUZZ_ONE).dict
	@rm -rf $(if $(FUZZ_RUNS),$(FUZZ_OUT)); mkdir -p $(FUZZ_OUT)
	@if [ "$(FUZZ_ONE)" = program ]; then cp examples/*.q7 $(FUZZ_OUT)/ 2>/dev/null || true; fi
	@echo "fuzz: $(FUZZ_ONE), $(if $(FUZZ_RUNS),$(FUZZ_RUNS) inputs from seed $(FUZZ_SEED),$(FUZZ_TIME)s) (log: $(FUZZ_DIR)/$(FUZZ_ONE).log)"
	@rm -f $(FUZZ_DIR)/$(FUZZ_ONE)-crash-* $(FUZZ_DIR)/$(FUZZ_ONE)-leak-* $(FUZZ_DIR)/$(FUZZ_ONE)-timeout-* \
	       $(FUZZ_DIR)/$(FUZZ_ONE)-oom-*
	@if $(FUZZ_DIR)/fuzz_$(FUZZ_ONE) $(FUZZ_ARGS) -max_len=$(FUZZ_MAXLEN_$(FUZZ_ONE)) -timeout=60 \
	     -dict=$(FUZZ_DIR)/$(FUZZ_ONE).dict -artifact_prefix=$(FUZZ_DIR)/$(FUZZ_ONE)- \
	     $(FUZZ_OUT) tests/fuzz/corpus/$(FUZZ_ONE) >$(FUZZ_DIR)/$(FUZZ_ONE).log 2>&1; then \
	  grep -E 'Done [0-9]+ runs' $(FUZZ_DIR)/$(FUZZ_ONE).log | tail -n 1 | sed 's/^/fuzz: $(FUZZ_ONE): /'; \
	else \
	  grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED|RELOAD)' $(FUZZ_DIR)/$(FUZZ_ONE).log | tail -n 60; \
	  for f in $(FUZZ_DIR)/$(FUZZ_ONE)-crash-* $(FUZZ_DIR)/$(FUZZ_ONE)-leak-* $(FUZZ_DIR)/$(FUZZ_ONE)-timeout-* \
	           $(FUZZ_DIR)/$(FUZZ_ONE)-oom-*; do \
	    [ -f "$$f" ] || continue; \
	    echo "fuzz: $(FUZZ_ONE) FAILED on $$f, $$(wc -c <"$$f") bytes (replay: $(FUZZ_DIR)/fuzz_$(FUZZ_ONE) $$f):"; \
	    od -An -c "$$f" | head -n 8 | sed 's/^/fuzz:    /'; \
	  done; \
	  echo "fuzz: $(FUZZ_ONE) FAILED (log: $(FUZZ_DIR)/$(FUZZ_ONE).log)"; exit 1; \
	fi

fuzz: $(if $(HAVE_CLANG),asan-archives)
	@for t in $(TARGET); do \
	  $(MAKE) --no-print-directory fuzz-run FUZZ_ONE=$$t FUZZ_TIME=$(FUZZ_TIME) || exit 1; done

# FUZZ_DEFER=1 (make check): every target runs, a failure's report goes to
# $(FUZZ_DIR)/brief-failures (target, artifact, its bytes) and the target
# itself succeeds, so that the tests run; check's recipe fails on that file
# afterwards. Each target's brief run is a make target of its own
# (fuzz-brief-<target>), so that make -j runs them beside each other and
# beside the builds; fuzz-brief gathers their failures.
FUZZ_AVAILABLE = command -v $(FUZZ_CC) >/dev/null 2>&1 && \
    echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' | \
    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
.PHONY: fuzz-targets $(FUZZ_TARGETS:%=fuzz-brief-%)
# Every target and its words, built once before the brief runs share them,
# after the ASan tree's archives (asan-archives, which check-asan waits for
# too: one make writes that tree); without clang there is nothing to build.
fuzz-targets: $(if $(HAVE_CLANG),asan-archives)
	+@if $(FUZZ_AVAILABLE); then $(MAKE) --no-print-directory -s \
	  $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%.dict); fi
# Under make -n a brief run is printed, not run: a line naming $(MAKE) or
# marked "+" (a sub-make that shares the job slots) would run even then,
# overwriting the outputs of a real run going on beside it. So the brief
# runs name their sub-make FUZZ_MAKE, and are "+" only when not dry.
FUZZ_MAKE := $(MAKE)
FUZZ_BRIEF_RECURSE = $(if $(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS)))),,+)
$(FUZZ_TARGETS:%=fuzz-brief-%): fuzz-brief-%: fuzz-targets
	@mkdir -p $(FUZZ_DIR); rm -f $(FUZZ_DIR)/brief-failures-$*
	$(FUZZ_BRIEF_RECURSE)@if $(FUZZ_AVAILABLE); then \
	  $(FUZZ_MAKE) --no-print-directory fuzz-run FUZZ_ONE=$* FUZZ_RUNS=$(FUZZ_BRIEF_RUNS_$*) >$(FUZZ_DIR)/brief-$*.out 2>&1 \
	    || cp $(FUZZ_DIR)/brief-$*.out $(FUZZ_DIR)/brief-failures-$*; \
	  grep '^fuzz: $*' $(FUZZ_DIR)/brief-$*.out | grep -v FAILED; \
	else echo "fuzz: $* skipped ($(FUZZ_CC) with libFuzzer not installed; apt-get install clang libclang-rt-14-dev)"; fi
fuzz-brief: $(FUZZ_TARGETS:%=fuzz-brief-%)
	@cat /dev/null $(FUZZ_TARGETS:%=$(FUZZ_DIR)/brief-failures-%) >$(FUZZ_DIR)/brief-failures 2>/dev/null; \
	if [ -s $(FUZZ_DIR)/brief-failures ]; then \
	  if [ "$(FUZZ_DEFER)" = 1 ]; then echo "fuzz: a brief run FAILED; the tests run first ($(FUZZ_DIR)/brief-failures)"; \
	  else cat $(FUZZ_DIR)/brief-failures; exit 1; fi; \
	fi

# make check's brief runs, one target after another (the harness runs
# this beside the tests): each target's failure is recorded and the rest
# still run; then every failure is printed and it fails.
.PHONY: fuzz-brief-serial
fuzz-brief-serial:
	@mkdir -p $(FUZZ_DIR); rm -f $(FUZZ_DIR)/brief-failures*; \
	for t in $(FUZZ_TARGETS); do $(FUZZ_MAKE) --no-print-directory fuzz-brief-$$t FUZZ_DEFER=1 || exit 1; done; \
	cat /dev/null $(FUZZ_TARGETS:%=$(FUZZ_DIR)/brief-failures-%) >$(FUZZ_DIR)/brief-failures 2>/dev/null; \
	if [ -s $(FUZZ_DIR)/brief-failures ]; then \
	  cat $(FUZZ_DIR)/brief-failures; echo "the brief fuzz run FAILED (above; docs/fuzzing.md)"; exit 1; fi

CHECK_EXTRA += fuzz-brief
