# Benchmarks and the full exhaustive proofs (issue 5). Not part of `make check`:
# benchmarks are not tests, and the proofs take a minute or two.
#   make bench         q7pred bench: the side-by-side table, JSON in $(BUILD)/bench.json
#   make bench-quick   the same with 1/64 exhaustive runs, extrapolated
#   make prove         every exhaustive space (fp16/int16 pairs, int8 pairs, fp16 and
#                      fp32 classify): model vs host, then model vs $(BUILD)/libq7pred.so
.PHONY: bench bench-quick prove

bench: all
	$(BUILD)/q7pred bench --json $(BUILD)/bench.json

bench-quick: all
	$(BUILD)/q7pred bench --quick --json $(BUILD)/bench.json

prove: all
	$(BUILD)/q7pred bench --prove --lib $(BUILD)/libq7pred.so
