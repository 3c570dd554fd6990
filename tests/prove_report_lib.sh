# SPDX-License-Identifier: BSD-3-Clause
# Reading a `q7pred prove` JSON report in the shell tests, with $PYTHON:
#   statuses REPORT              "leaf status", one line per row
#   member REPORT LEAF PATH      one member of one leaf's row; PATH is
#                                dotted (counterexample.A), empty if absent
statuses() { "$PYTHON" -c '
import json, sys
for r in json.load(open(sys.argv[1]))["leaves"]:
    print(r["leaf"], r["status"])' "$1"; }
member() { "$PYTHON" -c '
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["leaves"] if r["leaf"] == sys.argv[2]][0]
v = r
for k in sys.argv[3].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" "$3"; }
