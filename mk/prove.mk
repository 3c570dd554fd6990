# SPDX-License-Identifier: BSD-3-Clause
# The formal proof of the build (docs/proofs.md): q7pred prove --all proves,
# from the machine code of $(BUILD)/libq7pred.so, every leaf, every clean-API
# operation q7_<name> and the vector level q7v_<mnemonic> (each path's
# kernel and the dispatch) equal to the specification for every input.
# Needs python3-z3, python3-capstone and cvc5. Another compiler's build is
# proven from its own bytes: make CC=clang BUILD=build/clang prove-formal.
#   make prove-formal                 every exported function; JSON in $(BUILD)/prove-formal.json
#   make prove-formal LEAF=olt_1_4_32f_32f   one leaf (its row is printed, the JSON
#                                     left as it was); a q7_ or q7v_ function has no
#                                     selector of its own: the whole run proves each
#   make prove-formal PROVE_TIMEOUT=300   seconds per leaf or function (q7pred prove's --timeout)
# make check runs tests/test_prove_formal.sh (this target's command, one leaf,
# the mutants proven whole); tests/test_prove_all.sh (leaves, clean API) and
# the vector level's own test make the same proofs.
.PHONY: prove-formal
prove-formal: $(BUILD)/q7pred $(BUILD)/libq7pred.so
	@case '$(LEAF)' in q7_*|q7v_*) echo "prove-formal: LEAF=$(LEAF) is a function, not a leaf: \
	make prove-formal without LEAF proves every q7_ and q7v_ function ($(BUILD)/prove-formal.json)" >&2; exit 2;; esac
	$(BUILD)/q7pred prove --lib $(BUILD)/libq7pred.so $(if $(LEAF),--leaf $(LEAF),--all --json $(BUILD)/prove-formal.json)$(if $(PROVE_TIMEOUT), --timeout $(PROVE_TIMEOUT))
	@$(if $(LEAF),:,echo "q7pred list --proofs $(BUILD)/prove-formal.json shows each leaf's status")
