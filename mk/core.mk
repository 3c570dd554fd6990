# The tests' shared helper headers are prerequisites of every C test.
$(TEST_BINS): $(wildcard tests/*.h)
