# SPDX-License-Identifier: BSD-3-Clause
# q7pred: plain GNU make; the library and CLI need only a C compiler and libc.
#   make            library, CLI and tests into $(BUILD)/
#   make check      every test on the gcc tree, the C tests again on the ASan+UBSan
#                   tree, which clang builds (so it is the clang -Werror build
#                   too); two tests at a time (tests/harness.sh; Q7_TEST_JOBS=N
#                   for another count)
#   make check-clang a clang -O2 build of everything alone (compiled, not run)
#   make check-fast the quick loop, about half a minute: the gcc tree's C tests and
#                   the shell tests not marked `# slow:` (no ASan, clang, fuzz)
#   make run        the main job on its built-in default corpus (builds the
#                   library and the CLI only, in parallel: -j from nproc)
#   make install PREFIX=/usr/local   (also lib/pkgconfig/q7pred.pc and the
#                   CMake package lib/cmake/q7pred: find_package(q7pred))
# Area fragments (mk/*.mk) add their own targets and checks.

CC      ?= cc
CLANG   ?= clang
HAVE_CLANG := $(shell command -v $(CLANG) 2>/dev/null)
BUILD   ?= build
PREFIX  ?= /usr/local
# Debian's interpreter has python3-numpy; a python3 earlier on PATH may not.
PYTHON  ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
# SAN=1: the ASan+UBSan build of make check, which also compiles in the
# debug checks of the API's preconditions (Q7_DEBUG, src/lib/platform/contract.h).
# SAN_COVERAGE=1 (with SAN=1 and CC=clang): libFuzzer's coverage compiled in
# too (-fsanitize=fuzzer-no-link), so that the fuzz targets (mk/fuzz.mk)
# link this tree's objects instead of building a tree of their own.
SAN     ?=
SAN_COVERAGE ?=

WARN    := -std=c11 -Wall -Wextra -Werror
# The ASan+UBSan tree builds at -O1, ASan's own advice: the same reports,
# in a third of -O2's build time.
CFLAGS  ?= $(if $(SAN),-O1,-O2) -g
# The sources' own flags: mk/library.flags, shared with python/setup.py.
LIB_FLAGS_FILE := mk/library.flags
library_flags = $(shell sed -n 's/^$(subst /,\/,$(1)): *//p' $(LIB_FLAGS_FILE))
ALL_CFLAGS := $(WARN) $(CFLAGS) -fPIC $(call library_flags,all) -Iinclude
LDLIBS  := -ldl -lpthread -lm
ifneq ($(SAN),)
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DQ7_DEBUG
SAN_LDFLAGS := -fsanitize=address,undefined
endif
# ASan's inline checks make these files (AVX-512 kernels, and tests that
# generate a function per leaf or per vector op) several times slower to
# compile; they make the same checks as calls into the runtime.
ASAN_CALL_CHECKS := src/lib/batch/batch_avx512.c src/tools/host/host_avx512.c src/lib/vec/kernels_portable.c \
                    tests/test_vec_ops.c tests/test_api_contract.c tests/test_api_contract_vec.c
ifneq ($(SAN),)
ASAN_CALL_FLAG = $(if $(findstring clang,$(CC)),-mllvm -asan-instrumentation-with-call-threshold=0,\
                      --param asan-instrumentation-with-call-threshold=0)
$(patsubst src/%.c,$(BUILD)/obj/src/%.o,$(filter src/%,$(ASAN_CALL_CHECKS))) \
$(patsubst tests/%.c,$(BUILD)/tests/%,$(filter tests/%,$(ASAN_CALL_CHECKS))): private ALL_CFLAGS += $(ASAN_CALL_FLAG)
endif
# The coverage's section bounds (__start___sancov_*) would be exported by
# the shared library; mk/sancov_local.map keeps them local, so that its
# dynamic symbols are the library's own (tests/test_symbols.c).
ifneq ($(SAN_COVERAGE),)
ALL_CFLAGS += -fsanitize=fuzzer-no-link
SO_LDFLAGS := -Wl,--version-script=mk/sancov_local.map
# The nearest-name search behind every "did you mean" (an edit distance
# over every leaf and mnemonic) keeps its edge coverage but traces no
# compares: its comparisons guide no mutation, and tracing them took most
# of the program and cli fuzz targets' time.
$(BUILD)/obj/src/tools/prog/nearest.o: private ALL_CFLAGS += -fno-sanitize-coverage=trace-cmp
endif

# The library is src/lib (its folders are the layers below the tools,
# tests/layers.sh): what a user's program links against is include/ and
# libq7pred, built of src/lib/*/*.c alone.
LIB_SRCS  := $(sort $(wildcard src/lib/*/*.c))
# The tools are src/tools (every folder, at any depth: oracles, engine,
# subcommands): an archive that the CLI and the tests link; only main.c is
# the CLI's own.
TOOL_SRCS := $(filter-out src/tools/cli/main.c,$(sort $(shell find src/tools -name '*.c')))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# A source's line in mk/library.flags: "src/lib/dir/file.c: flags"; one
# token "src/lib/dir/file.c:flag:flag" per such line.
LIB_FILE_FLAGS := $(shell sed -n 's/^\(src\/[^:]*\.c\): *\(.*[^ ]\) *$$/\1 \2/p' $(LIB_FLAGS_FILE) | tr ' ' ':')
$(foreach t,$(LIB_FILE_FLAGS),$(eval $(BUILD)/obj/$(basename $(firstword $(subst :, ,$(t)))).o: \
    ALL_CFLAGS += $(wordlist 2,$(words $(subst :, ,$(t))),$(subst :, ,$(t)))))
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
DEPFILES  := $(LIB_OBJS:=.d) $(TOOL_OBJS:=.d) $(BUILD)/obj/src/tools/cli/main.o.d $(TEST_BINS:=.d)
# Every compile writes the headers and tables it read into a .d file beside
# its output (-MMD -MP), so an edit rebuilds what includes it and nothing
# else; the .d files (DEPFILES, each area's added) are read at the end of
# this file. An output is also made again when its .d is missing (each .d
# is a target with no recipe), since then nothing says what it read; it is
# touched after its compile, which may write the .d last (clang does).
DEPFLAGS   = -MMD -MP -MF $@.d
# The compiler and flags a tree was built with ($(BUILD)/build-flags,
# rewritten only when they change): every object and test compiled with
# $(CC) depends on it (the areas' test libraries too), so that a tree built
# before with another compiler or flags is built again, not mixed.
# A dry run (make -n) leaves it as it is; a tree without it (after make
# clean) gets it from its rule.
BUILD_FLAGS := $(BUILD)/build-flags
# Plain `make` is `make all`, whatever rule comes first.
.DEFAULT_GOAL := all
BUILD_FLAGS_TEXT = $(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) $(SO_LDFLAGS)
$(if $(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS)))),,\
  $(shell [ ! -d $(BUILD) ] || echo '$(BUILD_FLAGS_TEXT)' | cmp -s - $(BUILD_FLAGS) 2>/dev/null || \
          echo '$(BUILD_FLAGS_TEXT)' >$(BUILD_FLAGS)))
$(BUILD_FLAGS):
	@mkdir -p $(dir $@) && echo '$(BUILD_FLAGS_TEXT)' >$@

# The ASan+UBSan tree (check-asan, below), whose archives the fuzz
# targets link (mk/fuzz.mk).
ASAN_BUILD := build/asan
ASAN_ARCHIVES := $(ASAN_BUILD)/libq7tools.a $(ASAN_BUILD)/libq7pred.a

# Extra tools and checks contributed by mk/*.mk: what make check needs
# built beyond `all` (CHECK_EXTRA), and the part of it that check-fast's
# tests need (CHECK_FAST_EXTRA).
ALL_EXTRA   :=
CHECK_EXTRA :=
CHECK_FAST_EXTRA :=

.PHONY: all lib cli tests check check-fast check-clang check-asan run install clean
all: lib cli tests

# The shared library is libq7pred.so.$(SOVERSION) (its soname), with the
# unversioned link libq7pred.so beside it for the linker and the tests.
SOVERSION := $(shell sed -n 's/^\#define Q7PRED_SOVERSION \([0-9]*\)/\1/p' include/q7pred.h)
VERSION   := $(shell sed -n 's/^\#define Q7PRED_VERSION "\(.*\)"/\1/p' include/q7pred.h)

lib: $(BUILD)/libq7pred.so $(BUILD)/libq7pred.a
cli: $(BUILD)/q7pred
tests: $(TEST_BINS)

$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.o.d $(LIB_FLAGS_FILE) $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Isrc/lib -Isrc/tools -c $< -o $@
	@touch $@

$(BUILD)/libq7pred.so.$(SOVERSION): $(LIB_OBJS) $(if $(SAN_COVERAGE),mk/sancov_local.map)
	$(CC) -shared $(SAN_LDFLAGS) $(SO_LDFLAGS) -Wl,-soname,libq7pred.so.$(SOVERSION) -o $@ $(LIB_OBJS) $(LDLIBS)

$(BUILD)/libq7pred.so: $(BUILD)/libq7pred.so.$(SOVERSION)
	ln -sf libq7pred.so.$(SOVERSION) $@

$(BUILD)/libq7pred.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libq7tools.a: $(TOOL_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/q7pred: $(BUILD)/obj/src/tools/cli/main.o $(BUILD)/libq7tools.a $(BUILD)/libq7pred.a
	$(CC) $(SAN_LDFLAGS) -o $@ $^ $(LDLIBS)

# A C test links the tools and the static library, and may dlopen the
# shared one.
$(BUILD)/tests/%: tests/%.c $(BUILD)/tests/%.d $(BUILD)/libq7tools.a $(BUILD)/libq7pred.a $(BUILD)/libq7pred.so \
                  $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Isrc/lib -Isrc/tools -Itests/support $(SAN_LDFLAGS) -o $@ $< $(BUILD)/libq7tools.a $(BUILD)/libq7pred.a $(LDLIBS)
	@touch $@

-include $(sort $(wildcard mk/*.mk))

# What each object and test read, from its last compile (DEPFLAGS).
$(DEPFILES):
-include $(wildcard $(DEPFILES))

all: $(ALL_EXTRA)

# gcc tests, the C tests again under ASan+UBSan (the clang -Werror build).
# The brief fuzz runs (one target at a time, fuzz-brief-serial) go on
# beside the tests, on the time the tests spend waiting: the harness runs
# them outside its job slots and reports them as one more test
# (fuzz-brief) when they end, so every line comes as its test ends and
# the last is the harness's verdict. A brief run's failure fails that
# test, after the tests have run.
# The fuzz runs' sub-make is named through FUZZ_MAKE (mk/fuzz.mk), not
# $(MAKE): a recipe line that names $(MAKE) runs even under make -n, and
# this one would then run the whole harness from a dry run. Not sharing
# the job slots, it is given MAKEFLAGS without the jobserver's.
check: FUZZ_DEFER := 1
check: all check-asan $(filter-out fuzz-brief,$(CHECK_EXTRA)) fuzz-targets
	@BUILD=$(BUILD) PYTHON=$(PYTHON) MAKE='$(FUZZ_MAKE)' bash tests/harness.sh

# What check runs but the ASan+UBSan tree, the brief fuzz runs, the proof
# variants and the tests marked slow (tests/harness.sh --fast).
check-fast: all $(CHECK_FAST_EXTRA)
	@BUILD=$(BUILD) PYTHON=$(PYTHON) bash tests/harness.sh --fast

# The ASan+UBSan tree is built by clang, which makes it make check's clang
# -Werror build of every source and test too, with libFuzzer's coverage
# where clang has libFuzzer (the fuzz targets link its archives:
# mk/fuzz.mk). Its archives are made first, by a sub-make of their own
# (asan-archives), so that the fuzz targets can wait for them alone.
ASAN_VARS = BUILD=$(ASAN_BUILD) SAN=1 CC=$(CLANG) $(if $(shell $(FUZZ_AVAILABLE) && echo yes),SAN_COVERAGE=1)
.PHONY: asan-archives
asan-archives:
	+@command -v $(CLANG) >/dev/null || { echo "check-asan: $(CLANG) not installed (the ASan+UBSan tree is built by clang)" >&2; exit 1; }
	+@echo 'int main(void) { return 0; }' | $(CLANG) -x c -fsanitize=address,undefined -o /dev/null - >/dev/null 2>&1 || \
	  { echo "check-asan: $(CLANG) cannot link -fsanitize=address,undefined (apt-get install libclang-rt-14-dev)" >&2; exit 1; }
	+@$(MAKE) --no-print-directory $(ASAN_VARS) $(ASAN_ARCHIVES)
check-asan: asan-archives
	+$(MAKE) --no-print-directory $(ASAN_VARS) lib cli tests

check-clang:
	@if command -v $(CLANG) >/dev/null; then \
	  $(MAKE) --no-print-directory BUILD=build/clang CC=$(CLANG) lib cli tests; \
	else echo "check-clang: $(CLANG) not installed" >&2; exit 1; fi

# The main job. Its build runs in parallel: -j as many as the CPUs online,
# unless make was given a -j of its own (-j1 included) or runs under
# another make's jobserver, which is then kept.
NPROC := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
run:
	+@$(MAKE) --no-print-directory $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC)) lib cli
	$(BUILD)/q7pred verify --lib $(BUILD)/libq7pred.so

install: lib cli
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(BUILD)/libq7pred.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libq7pred.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libq7pred.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libq7pred.so
	install -m 644 include/q7pred*.h include/q7pred*.def $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(BUILD)/q7pred $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/q7pred
	install -m 644 src/tools/verify/numpy_oracle.py $(DESTDIR)$(PREFIX)/share/q7pred/
	install -d $(DESTDIR)$(PREFIX)/share/q7pred/bench
	install -m 644 bench/numpy_bench.py bench/ctypes_bench.py bench/ufunc_bench.py $(DESTDIR)$(PREFIX)/share/q7pred/bench/
	install -d $(DESTDIR)$(PREFIX)/share/doc/q7pred
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/q7pred/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  q7pred.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/q7pred.pc
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/q7pred
	for f in q7pred-config q7pred-config-version; do \
	  sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' cmake/$$f.cmake.in \
	    > $(DESTDIR)$(PREFIX)/lib/cmake/q7pred/$$f.cmake || exit 1; \
	done

clean:
	rm -rf build $(BUILD)
