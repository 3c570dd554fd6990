# The tests' shared-library helper header (tests/q7so.h) is a prerequisite
# of every C test.
$(TEST_BINS): tests/q7so.h
