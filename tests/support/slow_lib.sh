# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests of prove's time limits: a library built to be slow
# to prove, as x86-64 assembly for $CC.
#   slow_library FILE.S SET:LEAF...   writes FILE.S: each module__xdref_LEAF
#       a straight line of 3000 32-bit multiplies whose result it needs
#       (x*(b+1) against x*b + x, equal for every input, which z3 must show
#       through the multipliers), then `cmp esi, edx; SET` (setb, setbe,
#       setne: the leaf's compare of its full argument registers) into its
#       result; and module__xdref_eq_1_8_8, right and quick to prove.
slow_library() { # file set:leaf...
    local out=$1 leaf name set
    shift
    {
        echo '.intel_syntax noprefix'
        echo '.text'
        for leaf in "$@"; do
            set=${leaf%%:*} name=module__xdref_${leaf#*:}
            echo ".globl $name"; echo ".type $name, @function"; echo "$name:"
            echo 'mov eax, esi'; echo 'mov r8d, esi'; echo 'mov r9d, edx'; echo 'add r9d, 1'
            for _ in $(seq 3000); do
                echo 'imul eax, r9d'; echo 'mov r10d, r8d'; echo 'imul r10d, edx'; echo 'add r8d, r10d'
            done
            # the compare, xor (eax != r8d): 0 for every input, which is what takes proving
            echo 'xor r11d, r11d'; echo 'cmp esi, edx'; echo "$set r11b"
            echo 'cmp eax, r8d'; echo 'setne al'; echo 'movzx eax, al'; echo 'xor r11d, eax'
            echo 'mov dword ptr [rcx], r11d'; echo 'ret'; echo ".size $name, .-$name"
        done
        echo '.globl module__xdref_eq_1_8_8'; echo '.type module__xdref_eq_1_8_8, @function'
        echo 'module__xdref_eq_1_8_8:'
        echo 'xor eax, eax'; echo 'cmp esi, edx'; echo 'sete al'; echo 'mov dword ptr [rcx], eax'; echo 'ret'
        echo '.section .note.GNU-stack,"",@progbits'
    } >"$out"
}
