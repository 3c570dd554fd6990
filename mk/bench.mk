# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks and the full exhaustive proofs. Not part of `make check`:
# benchmarks are not tests, and the proofs take minutes. Every exhaustive
# run below goes through the verify engine (fused sweeps where the host's
# AVX-512 path has them, batches elsewhere, a library in its crash-isolated
# child).
#   make bench          q7pred bench: the side-by-side table, JSON in $(BUILD)/bench.json;
#                       then the binary proof with every cross-check against z3 alone,
#                       in turns, and the whole library's (--all) against the 86 leaves'
#                       on one core (bench/prove_bench.py), JSON in $(BUILD)/bench-prove.json
#   make bench-quick    the same with 1/64 exhaustive runs, extrapolated
#   make prove          q7pred verify's reports of every exhaustive space, model vs
#                       host (fp16/int16 pairs, int8 pairs, fp16 and fp32 classify),
#                       then the exported leaves of $(BUILD)/libq7pred.so on every
#                       exhaustive space, in their crash-isolated child; JSON in
#                       $(BUILD)/prove-host.json and $(BUILD)/prove-lib.json; then
#                       every vector path against the lane loop over every fp16 pair
#                       (q7pred bench --prove-vector)
#   make prove-direct   the same proofs as one timed line per leaf (q7pred bench --prove)
.PHONY: bench bench-quick prove prove-direct

bench: all
	$(BUILD)/q7pred bench --json $(BUILD)/bench.json
	$(PYTHON) bench/prove_bench.py --all --q7pred $(BUILD)/q7pred --lib $(BUILD)/libq7pred.so --python $(PYTHON) \
	  --json $(BUILD)/bench-prove.json

bench-quick: all
	$(BUILD)/q7pred bench --quick --json $(BUILD)/bench.json

prove: all
	$(BUILD)/q7pred verify --corpus exhaustive --oracles sem,host --by-leaf --json $(BUILD)/prove-host.json
	$(BUILD)/q7pred verify --corpus exhaustive --oracles sem --by-leaf \
	  --lib $(BUILD)/libq7pred.so --json $(BUILD)/prove-lib.json
	$(BUILD)/q7pred bench --prove-vector

prove-direct: all
	$(BUILD)/q7pred bench --prove --lib $(BUILD)/libq7pred.so

# The vector proof computes each leaf on 2^32 pairs in loops the compiler
# vectorizes at -O3.
$(BUILD)/obj/src/tools/bench/vector_proof.o: ALL_CFLAGS += -O3
