# Vector programs (q7pred exec): the libFuzzer target of the program parser.
#   make fuzz              build and fuzz for FUZZ_TIME seconds (default 60)
#   make fuzz-brief        the short run `make check` does (FUZZ_BRIEF seconds),
#                          skipped with a message when clang's libFuzzer is missing
# Seeds are examples/*.q7, copied (libFuzzer adds its finds to the corpus dir);
# crashes are written to build/fuzz/crash-*. The per-input timeout is generous
# (60 s, inputs take well under 1 ms) so that a loaded CI machine does not
# flake, while a real hang still fails.

FUZZ_CC    ?= clang
FUZZ_DIR   := build/fuzz
FUZZ_TIME  ?= 60
FUZZ_BRIEF ?= 20
FUZZ_SRCS  := tests/fuzz/fuzz_program.c $(LIB_SRCS) $(sort $(wildcard src/prog/*.c))
FUZZ_FLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=fuzzer,address,undefined \
              -fno-sanitize-recover=all -Iinclude -Isrc -D_GNU_SOURCE

.PHONY: fuzz fuzz-brief fuzz-run
$(FUZZ_DIR)/fuzz_program: $(FUZZ_SRCS) $(HEADERS)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SRCS) -lm

# Every mnemonic and keyword, so that mutations reach deep statements.
$(FUZZ_DIR)/program.dict: include/q7pred_vecops.def mk/vec.mk
	@mkdir -p $(FUZZ_DIR)
	{ sed -n 's/^VOP(\([a-z0-9_]*\),.*/"\1"/p' include/q7pred_vecops.def; \
	  for w in print as all 2nx8 nx16 n_2x32 nxf16 n_2xf32 v0 v31 vb0 vb15 fs0 fs7 \
	           qnan snan inf -inf -0.0 0x 0b 1.0 65504 '*' '=' ',' '#'; do echo "\"$$w\""; done; \
	} > $@

fuzz-run: $(FUZZ_DIR)/fuzz_program $(FUZZ_DIR)/program.dict
	@mkdir -p $(FUZZ_DIR)/corpus
	@cp examples/*.q7 $(FUZZ_DIR)/corpus/ 2>/dev/null || true
	@echo "fuzz: fuzz_program for $(FUZZ_TIME)s (log: $(FUZZ_DIR)/fuzz.log)"
	@if $(FUZZ_DIR)/fuzz_program -max_total_time=$(FUZZ_TIME) -max_len=4096 -timeout=60 \
	     -dict=$(FUZZ_DIR)/program.dict -artifact_prefix=$(FUZZ_DIR)/ \
	     $(FUZZ_DIR)/corpus >$(FUZZ_DIR)/fuzz.log 2>&1; then \
	  grep -E 'Done [0-9]+ runs' $(FUZZ_DIR)/fuzz.log | tail -n 1 | sed 's/^/fuzz: /'; \
	else tail -n 40 $(FUZZ_DIR)/fuzz.log; echo "fuzz: FAILED (artifacts in $(FUZZ_DIR)/)"; exit 1; fi

fuzz:
	@$(MAKE) --no-print-directory fuzz-run FUZZ_TIME=$(FUZZ_TIME)

fuzz-brief:
	@if command -v $(FUZZ_CC) >/dev/null 2>&1 && \
	   echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' | \
	   $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory fuzz-run FUZZ_TIME=$(FUZZ_BRIEF); \
	else echo "fuzz: skipped ($(FUZZ_CC) with libFuzzer not installed; apt-get install clang libclang-rt-14-dev)"; fi

CHECK_EXTRA += fuzz-brief

# The vector level's portable kernels are plain C loops over lanes written
# for the compiler's vectorizer, which -O3 runs at its full cost model.
$(BUILD)/obj/src/vec/kernels_portable.o: ALL_CFLAGS += -O3
