# SPDX-License-Identifier: BSD-3-Clause
"""x86-64: decoding, and each instruction's semantics on the symbolic machine."""
