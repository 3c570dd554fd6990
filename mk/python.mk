# SPDX-License-Identifier: BSD-3-Clause
# The Python package (python/, docs/python.md): its extension is built from
# the library's own sources with the flags of mk/library.flags.
#   make python     the package into $(BUILD)/python (import it with
#                   PYTHONPATH=$(BUILD)/python), -Werror as in make check
# make check runs tests/test_python.sh (it builds the package itself), and
# make bench times the package's row from $(BUILD)/python, built first when
# this machine can (python3-dev, numpy); otherwise that row says why not.
.PHONY: python python-for-bench

PYTHON_PKG := $(BUILD)/python

python:
	cd python && Q7PRED_WERROR=1 $(PYTHON) setup.py -q build_py --build-lib $(abspath $(PYTHON_PKG)) \
	  build_ext --build-lib $(abspath $(PYTHON_PKG)) --build-temp $(abspath $(BUILD)/python-temp)

python-for-bench:
	@mkdir -p $(BUILD) && $(MAKE) --no-print-directory python >$(BUILD)/python-build.log 2>&1 || \
	  echo "bench: the q7pred package did not build (log: $(BUILD)/python-build.log); its rows are n/a"

bench bench-quick: python-for-bench
