/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B), but a conditional branch taken only where a
   64-bit hash of A:B equals the hash of A = B = 0x41 leads to a store of
   A != B. Whether that branch can be taken is what a solver may not
   decide: the path must be kept, and the proof then has to invert the hash. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
#include "murmur_ab.inc"
        cmp_magic
        je .Lwrong
        right_wrong
        end_leaf eq_1_8_8
