# SPDX-License-Identifier: BSD-3-Clause
# q7pred verify: where the numpy oracle program is, the crash-isolation test
# library, and `make mutants` (libraries that each commit one spec pitfall,
# and the assertion that `q7pred verify --lib` catches every one).

# A library with three leaves: one segfaults on one input, one hangs on one,
# one is correct (tests/test_verify_crash.sh, tests/test_verify_oracles.c).
# Built without sanitizers: its crash must be a plain SIGSEGV.
VERIFY_CRASHLIB := $(BUILD)/tests/verify_crashlib.so
$(VERIFY_CRASHLIB): tests/support/verify_crashlib.c $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -fPIC -shared -o $@ $<
$(BUILD)/tests/test_verify_oracles: $(VERIFY_CRASHLIB)
ALL_EXTRA += $(VERIFY_CRASHLIB)

# The crash-isolation matrix (tests/test_verify_isolation.sh) and the
# libraries that cannot be used (tests/test_verify_errors.sh): one library
# per misbehaviour, each tests/support/verify_misbehave.c with -DMISBEHAVE_<NAME>.
# Built without sanitizers, like the crash library.
MISBEHAVIOURS := segv hang hang_all exit abort fork_segv fork_sleep escape kill_group spoof print print_segv \
                 ctor_hang ctor_segv no_symbols write_fds close_fds forge_reply exit0 stop unstable
MISBEHAVE_LIBS := $(MISBEHAVIOURS:%=$(BUILD)/tests/misbehave/%.so)
$(BUILD)/tests/misbehave/%.so: tests/support/verify_misbehave.c $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -fPIC -shared -DMISBEHAVE_$$(echo $* | tr a-z A-Z) -o $@ $<
ALL_EXTRA += $(MISBEHAVE_LIBS)

# One library per pitfall, from the ABI code with one -DQ7_MUTANT_<NAME>
# (src/lib/abi/mutants.h); every other object is the pristine one.
MUTANTS := nan_polarity snan_bit field_width signed_unsigned tail_gate result_in_aux nan_finite
MUTANT_LIBS := $(MUTANTS:%=$(BUILD)/mutants/%.so)
MUTANT_BASE_OBJS := $(filter-out $(BUILD)/obj/src/lib/abi/xdref.o,$(LIB_OBJS))
DEPFILES += $(MUTANTS:%=$(BUILD)/mutants/obj/xdref_%.o.d)

$(BUILD)/mutants/obj/xdref_%.o: src/lib/abi/xdref.c $(BUILD)/mutants/obj/xdref_%.o.d $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Isrc/lib -Isrc/tools -DQ7_MUTANT_$$(echo $* | tr a-z A-Z) -c $< -o $@
	@touch $@

$(BUILD)/mutants/%.so: $(BUILD)/mutants/obj/xdref_%.o $(MUTANT_BASE_OBJS)
	$(CC) -shared $(SAN_LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: mutants mutant-libs
mutant-libs: $(MUTANT_LIBS)
# Builds the mutants and asserts each is caught (and the pristine library not).
mutants: mutant-libs $(BUILD)/q7pred $(BUILD)/libq7pred.so
	Q7PRED=$(CURDIR)/$(BUILD)/q7pred Q7LIB=$(CURDIR)/$(BUILD)/libq7pred.so BUILD=$(BUILD) \
	  SRCDIR=$(CURDIR) bash tests/test_mutants.sh
# make check runs tests/test_mutants.sh through the harness.
CHECK_EXTRA += mutant-libs
CHECK_FAST_EXTRA += mutant-libs
.SECONDARY: $(MUTANTS:%=$(BUILD)/mutants/obj/xdref_%.o)
