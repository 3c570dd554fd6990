# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m q7prove.binary: the prover q7pred prove runs."""
import sys

from q7prove.binary.prove import main

sys.exit(main())
