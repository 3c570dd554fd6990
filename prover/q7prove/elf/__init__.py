# SPDX-License-Identifier: BSD-3-Clause
"""The ELF file a library is, and the image the loader makes of it."""
