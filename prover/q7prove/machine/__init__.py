# SPDX-License-Identifier: BSD-3-Clause
"""The symbolic machine: registers, flags and memory of one path."""
