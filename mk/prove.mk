# SPDX-License-Identifier: BSD-3-Clause
# Formal proofs (prover/q7prove/ir, docs/proofs.md): every leaf, clean-API function
# and vector kernel of each path, compiled by clang to LLVM IR at the library's
# own flags, translated into z3 and proven equal to the specification for
# every input. Needs clang, python3-z3 and python3-llvmlite.
#   make prove-formal                 the table; JSON in $(BUILD)/prove-formal.json
#   make prove-formal LEAF=olt_1_4_32f_32f   one leaf (or q7_<name>, vec:<mnemonic>;
#                                     its row is printed, the JSON left as it was)
# make check runs it, with the translator's own test and the mutant runs,
# as tests/test_prove_formal.sh.
PROVE_FORMAL = PYTHONPATH=$(CURDIR)/prover $(PYTHON) -m q7prove.ir --cc $(CLANG) --build $(BUILD) \
               --gaps prover/q7prove/ir/known-gaps.txt
.PHONY: prove-formal
prove-formal:
	@mkdir -p $(BUILD)
	PYTHONDONTWRITEBYTECODE=1 $(PROVE_FORMAL) $(if $(LEAF),--leaf $(LEAF),--json $(BUILD)/prove-formal.json)
	@$(if $(LEAF),:,echo "q7pred list --proofs $(BUILD)/prove-formal.json shows each leaf's status")
