# Core (issue 2): the tests' shared helper header is a prerequisite of
# every C test.
$(TEST_BINS): tests/q7so.h
