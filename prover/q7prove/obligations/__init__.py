# SPDX-License-Identifier: BSD-3-Clause
"""What the spec's rules and a leaf's name require."""
