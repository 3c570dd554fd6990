# SPDX-License-Identifier: BSD-3-Clause
"""clang's IR of the model proven against the spec (make prove-formal)."""
