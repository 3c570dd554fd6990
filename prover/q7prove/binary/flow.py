# SPDX-License-Identifier: BSD-3-Clause
"""The control flow of one function, read from its code without running
it, for the order the executor runs its paths in: from the entry, every
instruction a direct jump, a conditional branch or falling through
reaches (a call's callee is a function of its own: the call falls
through; a return, a trap or a jump through a register or memory word
ends the walk there). A depth-first walk numbers the instructions in
reverse postorder (rank: every instruction before the ones it leads to,
but along a loop's back edge) and finds the back edges (an edge to an
instruction on the walk's own stack: a loop's way back to its head).

Paths that split on an input are run in that order, a path taking a
back edge counting one more time round: no path runs past the place
where a sibling path will join it, nor into the next time round a loop,
while the sibling is behind. The two meet and merge, and a loop with a
trip count the code fixes and branches on the inputs inside costs one
path, not one per combination of its branches. The order is only a
schedule, sound whatever it is: where the walk cannot follow (a computed
jump's targets, bytes that do not decode) a path runs before the ranked
ones, by address, until it reaches a place the walk ranked.
"""
from q7prove.x86.decode import DecodeError

STOPS = {'ret', 'ud2', 'hlt', 'int3', 'int', 'int1', 'into'}
LIMIT = 20000          # instructions walked in one function before the walk gives up


class Flow:
    """rank: address -> reverse-postorder number; back: set of (from, to)."""

    def __init__(self, decoder, entry):
        self.entry = entry
        self.rank, self.back = {}, set()
        self._walk(decoder, entry)

    def _successors(self, decoder, addr):
        try:
            i = decoder.at(addr)
        except DecodeError:
            return []
        mn = i.mnemonic
        if mn in STOPS:
            return []
        if mn == 'jmp':
            return [i.ops[0].imm] if i.ops and i.ops[0].kind == 'imm' else []
        if mn.startswith('j') and i.ops and i.ops[0].kind == 'imm':      # jcc, jrcxz
            return [i.ops[0].imm, i.next]
        return [i.next]

    def _walk(self, decoder, entry):
        order, state = [], {}       # state: 1 on the walk's stack, 2 done
        stack = [(entry, iter(self._successors(decoder, entry)))]
        state[entry] = 1
        while stack:
            addr, succ = stack[-1]
            nxt = next(succ, None)
            if nxt is None:
                stack.pop()
                state[addr] = 2
                order.append(addr)
                continue
            s = state.get(nxt)
            if s == 1:
                self.back.add((addr, nxt))
            elif s is None:
                if len(state) >= LIMIT:
                    self.rank = {}
                    return
                state[nxt] = 1
                stack.append((nxt, iter(self._successors(decoder, nxt))))
        for k, a in enumerate(reversed(order)):
            self.rank[a] = k


class Flows:
    """Each function's Flow, read once."""

    def __init__(self, decoder):
        self.decoder, self.flows = decoder, {}

    def of(self, entry):
        f = self.flows.get(entry)
        if f is None:
            f = self.flows[entry] = Flow(self.decoder, entry)
        return f
