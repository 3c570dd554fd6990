# SPDX-License-Identifier: BSD-3-Clause
"""Bit-vector and float terms, and the solvers that answer questions on them."""
