# SPDX-License-Identifier: BSD-3-Clause
"""The option tables (src/tools/cli/options/CMD.def, shared.def) are where the
parser, the help and the man page come from, so the three agree with the
rows, read here from the .def files themselves (not from the binary):

- the help: `q7pred help C` has an option line for every shown row of C's
  table, in the table's order, with the row's metavariable (a shared row's
  from shared.def), and no option line that is not a row;
- the parser: `q7pred C` takes every row's spelling (given with a value
  when the row has a metavariable, then an unknown option, so nothing runs:
  the error must name the unknown one, not the row) and refuses as unknown
  every spelling of the other tables that is not a row of C's;
- the man page: docs/q7pred.1's subsection of C names every row with its
  metavariable, and no option of C that is not a row.

The comparison is shown able to fail: held against another command's help
and man section it must report rows missing and lines too many.
"""
import os
import re
import subprocess
import sys

SRC = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Q7 = os.environ.get("Q7PRED") or os.path.join(SRC, "build", "q7pred")
OPTS = os.path.join(SRC, "src", "tools", "cli", "options")
failures = []


def fail(msg):
    failures.append(msg)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


STR = r'"((?:[^"\\]|\\.)*)"'


def shared_rows():
    rows = {}
    text = strip_comments(open(os.path.join(OPTS, "shared.def")).read())
    for m in re.finditer(r"CLI_SHARED_OPTION\(\s*(\w+)\s*,\s*" + STR + r"\s*,\s*(\w+)\s*,\s*(NULL|" + STR + ")", text):
        rows[m.group(1)] = (m.group(2), m.group(5))
    return rows


def table(cmd, shared):
    """[(spelling, metavariable or None, shown)] in the file's order."""
    path = os.path.join(OPTS, cmd + ".def")
    if not os.path.exists(path):
        return []
    text = strip_comments(open(path).read())
    rows = []
    pat = re.compile(r"(CLI_OPTION|CLI_CALL|CLI_CALL_FLAG|CLI_DESCRIBED|CLI_SHARED|CLI_SHARED_CALL)\(\s*(?:" + STR +
                     r"|(\w+))\s*,\s*(.*?)\)\s*(?=CLI_|$)", re.S)
    for m in pat.finditer(text):
        macro, name, ident, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        if macro.startswith("CLI_SHARED"):
            if ident not in shared:
                fail("%s.def: %s(%s) is no row of shared.def" % (cmd, macro, ident))
                continue
            name, meta = shared[ident]
        elif macro == "CLI_CALL_FLAG":
            meta = None
        else:
            mm = re.search(r"(?:\w+\s*,\s*)?(NULL|" + STR + ")", rest) if macro == "CLI_OPTION" else \
                re.match(r"\s*(NULL|" + STR + ")", rest)
            meta = mm.group(2) if mm else None
        hidden = re.search(r",\s*NULL\s*$", rest.strip()) is not None and macro != "CLI_DESCRIBED"
        rows.append((name, meta, not hidden))
    return rows


def run(*args):
    p = subprocess.run([Q7] + list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def help_lines(text):
    """[(spelling, metavariable)] of the option lines (column 2), in order;
    a line of two spellings ("--progress, --no-progress") gives both."""
    out = []
    for line in text.split("\n"):
        if not line.startswith("  -"):
            continue
        head = line[2:22].rstrip() if len(line) > 22 and line[21] == " " else line[2:]
        for part in head.split(", "):
            w = part.split(" ")
            out.append((w[0], w[1] if len(w) > 1 else None))
    return out


def man_section(page, cmd):
    m = re.search(r'^\.SS "q7pred %s"\n(.*?)(?=^\.SS |^\.SH )' % re.escape(cmd), page, re.M | re.S)
    return m.group(1) if m else ""


def man_heads(section):
    """[(spelling, metavariable)] of the .TP entries of a man subsection."""
    out = []
    lines = section.split("\n")
    for k, line in enumerate(lines[:-1]):
        if line != ".TP":
            continue
        head = lines[k + 1].replace("\\-", "-").replace("\\&", "")
        for part in head.split(", "):
            m = re.match(r"\\fB(-[^\\]+)\\fR(?: \\fI([^\\]+)\\fR)?$", part)
            if m:
                out.append((m.group(1), m.group(2)))
    return out


def compare(cmd, rows, help_text, section):
    """The differences between C's rows and a help text and man section."""
    diffs = []
    want = [(n, m) for n, m, shown in rows if shown]
    got = help_lines(help_text)
    if got != want:
        diffs.append("help: rows %s, option lines %s" % (want, got))
    man = man_heads(section)
    if man != want:
        diffs.append("man page: rows %s, entries %s" % (want, man))
    return diffs


shared = shared_rows()
if len(shared) < 10:
    fail("shared.def: read %d rows" % len(shared))
rc, overview, _ = run("help")
commands = re.findall(r"^  (\w+) ", overview.split("Commands:\n", 1)[-1].split("\n\n", 1)[0], re.M)
if len(commands) < 10:
    fail("q7pred help lists %d commands" % len(commands))
page = open(os.path.join(SRC, "docs", "q7pred.1")).read()
tables = {c: table(c, shared) for c in commands}
helps = {c: run("help", c)[1] for c in commands}
for c in commands:
    if os.path.exists(os.path.join(OPTS, c + ".def")) and not tables[c]:
        fail("%s.def: no row read" % c)
    for d in compare(c, tables[c], helps[c], man_section(page, c)):
        fail("q7pred %s: %s" % (c, d))

# the parser takes each row and refuses every other table's spelling
every = {n for rows in tables.values() for n, _, _ in rows}
for c in commands:
    mine = {n: m for n, m, _ in tables[c]}
    for flag in sorted(every | set(mine)):
        args = [flag] + (["1"] if mine.get(flag, "x") else []) + ["--zz-no-such-option"]
        rc, out, err = run(c, *args)
        refused = rc == 2 and ("unknown option '%s'" % flag) in err
        if flag in mine and refused:
            fail("q7pred %s refuses %s, a row of its table" % (c, flag))
        if flag not in mine and not refused:
            fail("q7pred %s takes %s, which is no row of its table" % (c, flag))

# the comparison can fail: prove's rows against probe's help and man section
if "prove" in tables and "probe" in tables:
    if not compare("prove", tables["prove"], helps["probe"], man_section(page, "probe")):
        fail("the comparison finds no difference between prove's rows and probe's help")
    if compare("prove", tables["prove"] + [("--zz-extra", None, True)], helps["prove"], man_section(page, "prove")) == []:
        fail("the comparison misses a row the help does not show")

for f in failures:
    print("FAIL: " + f)
print("%d commands' tables (%d rows) checked against their help, parser and man page; %d failures" %
      (len(commands), sum(len(r) for r in tables.values()), len(failures)))
sys.exit(1 if failures else 0)
