# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m q7prove.ir: make prove-formal."""
import sys

from q7prove.ir.formal import main

sys.exit(main())
