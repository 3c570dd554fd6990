# SPDX-License-Identifier: BSD-3-Clause
"""A library's machine code proven leaf by leaf (q7pred prove)."""
