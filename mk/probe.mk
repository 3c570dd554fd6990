# SPDX-License-Identifier: BSD-3-Clause
# q7pred probe: the test libraries of tests/test_probe.sh. Each is the
# project's library with one leaf renamed out of the module__xdref_ names
# (the library's xdref.o with module__xdref_<leaf> renamed to
# q7probe_replaced_<leaf> by objcopy) and tests/support/probe_variants.c with
# -DPROBE_VARIANT_<NAME> exporting its
# replacement; the real library's objects and ABI are untouched.
PROBE_VARIANTS := ord_result_4th ult_aux tail_pred_first movfsv_out_first movfsv_words bnorfs_words_swapped bnorfs_missing \
                  past_result segv_all ord_swapped m2_swapped fs_swapped fs_in_swapped timer unstable names
probe_leaf_ord_result_4th   := olt_1_2_16f_16f
probe_leaf_ult_aux          := ult_1_1_16f_16f
probe_leaf_tail_pred_first  := olt_1_2_16f_16f_2f_t
probe_leaf_movfsv_out_first := movfsv_64_64_64_64_64_64_64_64_512
probe_leaf_movfsv_words     := movfsv_64_64_64_64_64_64_64_64_512
probe_leaf_bnorfs_missing   := bnorfs_2n_64_64_64_64_64_64_64_64_64
probe_leaf_bnorfs_words_swapped := bnorfs_2n_64_64_64_64_64_64_64_64_64
probe_leaf_past_result      := lt_2_16_16
probe_leaf_segv_all         := clsfy_16f_16f
probe_leaf_ord_swapped      := olt_1_1_16f_16f
probe_leaf_m2_swapped       := andnotb_64_64_64
probe_leaf_fs_swapped       := movfsv_64_64_64_64_64_64_64_64_512
probe_leaf_fs_in_swapped    := movvfs_512_64_64_64_64_64_64_64_64
probe_leaf_timer            := lt_1_8_8
probe_leaf_unstable         := lt_1_8_8
probe_leaf_names            := lt_1_8_8
PROBE_LIBS := $(PROBE_VARIANTS:%=$(BUILD)/tests/probe/%.so)
PROBE_BASE_OBJS := $(filter-out $(BUILD)/obj/src/lib/abi/xdref.o,$(LIB_OBJS))
DEPFILES += $(PROBE_VARIANTS:%=$(BUILD)/tests/probe/obj/variant_%.o.d)

# The library's own xdref.o with the leaf's symbol renamed, its definition
# and every reference in the object (as compiling it with the name defined
# to another would do, without compiling it once per variant).
OBJCOPY ?= objcopy
$(BUILD)/tests/probe/obj/xdref_%.o: $(BUILD)/obj/src/lib/abi/xdref.o
	@mkdir -p $(dir $@)
	$(OBJCOPY) --redefine-sym module__xdref_$(probe_leaf_$*)=q7probe_replaced_$(probe_leaf_$*) $< $@

$(BUILD)/tests/probe/obj/variant_%.o: tests/support/probe_variants.c $(BUILD)/tests/probe/obj/variant_%.o.d $(BUILD_FLAGS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -DPROBE_VARIANT_$$(echo $* | tr a-z A-Z) -c $< -o $@
	@touch $@

$(BUILD)/tests/probe/%.so: $(BUILD)/tests/probe/obj/xdref_%.o $(BUILD)/tests/probe/obj/variant_%.o $(PROBE_BASE_OBJS)
	$(CC) -shared $(SAN_LDFLAGS) -o $@ $^ $(LDLIBS)

# A vendor library with one leaf: the project's own objects, linked with a
# version script that exports olt_1_1_16f_16f alone (tests/support/one_leaf.map).
PROBE_ONE_LEAF := $(BUILD)/tests/probe/one_leaf.so
$(PROBE_ONE_LEAF): $(LIB_OBJS) tests/support/one_leaf.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN_LDFLAGS) -Wl,--version-script=tests/support/one_leaf.map -o $@ $(LIB_OBJS) $(LDLIBS)

.PHONY: probe-libs
probe-libs: $(PROBE_LIBS) $(PROBE_ONE_LEAF)
ALL_EXTRA += $(PROBE_LIBS) $(PROBE_ONE_LEAF)
.SECONDARY: $(PROBE_VARIANTS:%=$(BUILD)/tests/probe/obj/xdref_%.o) $(PROBE_VARIANTS:%=$(BUILD)/tests/probe/obj/variant_%.o)
