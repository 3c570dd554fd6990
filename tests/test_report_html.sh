#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The HTML report in a real browser (docs/report-format.md, "HTML"):
# Debian's chromium, headless, loads the page of a clean run and of a run
# against a planted NaN bug (build/mutants/nan_polarity.so: the ordered
# compares are TRUE on NaN) with no console message at all (a blocked
# request or a script error would be one) and no request anywhere; a small
# script the test adds to a copy of each page then measures the map as the
# browser drew it: the bug's map of olt_1_1_16f_16f has its shaded bins,
# and only those, inside the drawn NaN bands (a stripe along each axis),
# while the clean run has no bin at all. Also: `q7pred report --html` from
# the JSON report writes the same page as verify --html; the proof status
# of --proofs is shown per leaf.
# A picture for every kind of leaf that has one, each against a planted bug
# whose mismatches are known by hand (src/lib/abi/mutants.h), measured in the
# browser on the figures of four runs gathered into one page:
#   - signed_unsigned (signed compares unsigned), lt_1_8_8 over its whole
#     space: the full 256 x 256 plane, a bin per (a, b); the mismatches are
#     exactly the pairs whose signs differ, the two off-diagonal quadrants,
#     every one of their 32768 bins and no other;
#   - nan_polarity (ordered compares TRUE on NaN), olt_1_4_32f_32f: the fp32
#     plane by sign and exponent, every bin inside the drawn inf/NaN bands;
#   - snan_bit (classify never says sNaN): clsfy_16f_16f and clsfy_32f_32f,
#     a strip per class, every bin inside the sNaN strip;
#   - tail_gate (the tail ignores its predicate): olt_1_2_16f_16f_2f_t, the
#     merge's two planes, every bin inside the killed lanes' plane.
# The sign-off line is the page's first element: the library's SHA-256
# (sha256sum's), the verdict, and from a proof report of that file the
# leaves proven for every input and those not, and the leaves absent.
# A SKIP without chromium (except under CI=true, where .ci/run installs it).
# slow: headless chromium loads each page (about 15 s)
set -u
. "$(dirname "$0")/support/check_lib.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    [ "${CI:-}" = true ] && { echo "FAIL: chromium is not installed (.ci/run installs it)"; exit 1; }
    echo "skipped: chromium not installed (apt-get install chromium)"; exit 77
fi
need_mutants nan_polarity signed_unsigned snan_bit tail_gate
mutant=$M/nan_polarity.so
cd "$t"
cat >proofs.json <<'EOF'
{"leaves": [{"leaf": "olt_1_1_16f_16f", "status": "proven-ir", "prover": "z3 4.8.12", "seconds": 0.52},
            {"leaf": "lt_2_16_16", "status": "unproven", "detail": "refuted: A=0x10000 B=0x1"}]}
EOF
run=(verify --corpus grid,fuzz --leaf olt_1_1_16f_16f,lt_2_16_16 --fuzz-count 20000 --oracles sem,host --no-progress
     --quiet --proofs proofs.json)
"$Q7PRED" "${run[@]}" --lib "$Q7LIB" --html clean.html --json clean.json >/dev/null; rc1=$?
"$Q7PRED" "${run[@]}" --lib "$mutant" --html bug.html --json bug.json >/dev/null; rc2=$?
[ "$rc1$rc2" = 01 ] && ok "the clean run passes, the planted NaN bug fails" || bad "exits $rc1 $rc2"
"$Q7PRED" report --quiet --html again.html --proofs proofs.json bug.json >/dev/null
cmp -s bug.html again.html && ok "report --html from the JSON writes the page verify wrote" || bad "report --html differs"

# the test's probe: what the browser drew, written into the page
probe='<pre id="q7probe"></pre><script>
const box = e => e.getBoundingClientRect();
const inside = (b, r) => b.left >= r.left - 0.01 && b.right <= r.right + 0.01 && b.top >= r.top - 0.01 && b.bottom <= r.bottom + 0.01;
const out = {};
for (const fig of document.querySelectorAll("figure[data-leaf]")) {
  const bins = [...fig.querySelectorAll("rect.bin")], nan = [...fig.querySelectorAll("rect.band-nan")].map(box);
  const rows = nan.filter((r, i) => fig.querySelectorAll("rect.band-nan")[i].dataset.axis === "a");
  const cols = nan.filter((r, i) => fig.querySelectorAll("rect.band-nan")[i].dataset.axis === "b");
  let inNan = 0, inRow = 0, inCol = 0, drawn = 0;
  for (const b of bins.map(box)) {
    if (b.width > 0 && b.height > 0) drawn++;
    const r = rows.some(n => inside(b, n)), c = cols.some(n => inside(b, n));
    inRow += r; inCol += c; inNan += r || c;
  }
  out[fig.dataset.leaf] = {bins: bins.length, drawn: drawn, in_nan: inNan, in_rows: inRow, in_cols: inCol, bands: nan.length};
}
out.proofs = [...document.querySelectorAll("td")].map(td => td.textContent).filter(s => /^(proven-ir|unproven|not in the report)$/.test(s));
document.getElementById("q7probe").textContent = JSON.stringify(out);
</script>'
browse() { # page.html out.dom: chromium's DOM after load, its log beside
    local d; d=$(mktemp -d)
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$d" \
        --enable-logging=stderr --v=0 --window-size=1200,2000 --dump-dom "file://$t/$1" >"$2" 2>"$2.log"
    local rc=$?
    rm -rf "$d"
    return $rc
}
for page in clean bug; do
    browse "$page.html" "$page.dom" || bad "chromium could not load $page.html"
    if grep -q "CONSOLE" "$page.dom.log" || ! grep -q '<figure\|Mismatch maps' "$page.dom"; then
        bad "$page.html: console messages or no page: $(grep CONSOLE "$page.dom.log" | head -3)"
    else
        ok "$page.html: chromium loads it with no console message"
    fi
    # the probe needs a script: the page's own policy forbids any
    sed -e 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' -e "s|</body>|$(printf '%s' "$probe" | tr '\n' ' ' | sed 's/[&|]/\\&/g')</body>|" \
        "$page.html" >"$page-probe.html"
    browse "$page-probe.html" "$page-probe.dom" || bad "chromium could not load the probed $page.html"
    grep -q "CONSOLE" "$page-probe.dom.log" && bad "$page: the probe logged: $(grep CONSOLE "$page-probe.dom.log" | head -3)"
done
sed 's|xmlns="http://www.w3.org/2000/svg"||g' bug.html | grep -q 'https\?://' \
    && bad "the page names a network address" || ok "the page names no network address (its only URL is SVG's namespace)"

"$PYTHON" - <<'PY' && ok "the NaN bug's map is a stripe in the drawn NaN bands, and only there; the clean run's has none" || bad "the maps"
import html, json, re
def probe(name):
    dom = open(name).read()
    return json.loads(html.unescape(re.search(r'<pre id="q7probe">(.*?)</pre>', dom, re.S).group(1)))
clean, bug = probe("clean-probe.dom"), probe("bug-probe.dom")
assert "olt_1_1_16f_16f" not in clean and "lt_2_16_16" not in clean, clean
m = bug["olt_1_1_16f_16f"]
assert m["bands"] == 4 and m["bins"] > 50 and m["drawn"] == m["bins"], m
assert m["in_nan"] == m["bins"], m                # every shaded bin on a NaN band
assert m["in_rows"] > 20 and m["in_cols"] > 20, m  # a stripe along A and one along B
assert "lt_2_16_16" not in bug, bug                 # the integer leaf is right
for p in (clean, bug):
    assert p["proofs"] == ["unproven", "proven-ir"], p["proofs"]   # table order: lt_2_16_16 first
PY

# ---- a picture of every kind, each against its planted bug
pics=(verify --oracles sem --no-progress --quiet --fuzz-count 3000)
"$Q7PRED" "${pics[@]}" --corpus grid,fuzz,exhaustive --exhaustive-max 65536 --leaf lt_1_8_8 \
    --lib "$M/signed_unsigned.so" --html int8.html >/dev/null
"$Q7PRED" "${pics[@]}" --corpus grid,fuzz --leaf olt_1_4_32f_32f,olt_1_4_32f_32f_4f_t --lib "$mutant" --html fp32.html \
    --json fp32.json >/dev/null
"$Q7PRED" report --quiet --html fp32-again.html fp32.json >/dev/null
cmp -s fp32.html fp32-again.html && ok "report --html from the JSON draws the same pictures (a tail's two planes too)" \
    || bad "report --html of fp32.json differs"
"$Q7PRED" "${pics[@]}" --corpus grid,fuzz --leaf clsfy_16f_16f,clsfy_32f_32f \
    --lib "$M/snan_bit.so" --html classify.html >/dev/null
"$Q7PRED" "${pics[@]}" --corpus grid,fuzz --leaf olt_1_2_16f_16f_2f_t --lib "$M/tail_gate.so" \
    --html tail.html >/dev/null
# the sign-off: a proof report of this very file (its SHA-256 as sha256sum
# says) proving one of three leaves, a library that lacks the third
cat >half.c <<'EOF'
#include <stdint.h>
void module__xdref_lt_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r) { (void)x; *r = (a ^ 0x8000) < (b ^ 0x8000) ? 3 : 0; }
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r) { (void)x; *r = a < b ? 3 : 0; }
EOF
${CC:-cc} -shared -fPIC -O1 -o half.so half.c || bad "cc half.so"
sha=$(sha256sum half.so | cut -d' ' -f1)
printf '{"file": {"path": "half.so", "sha256": "%s"}, "leaves": [{"leaf": "ltu_2_16_16", "status": "proven-binary"},
 {"leaf": "lt_2_16_16", "status": "refuted"}, {"leaf": "eq_2_16_16", "status": "absent"}]}\n' "$sha" >half-proofs.json
"$Q7PRED" verify --oracles sem --no-progress --quiet --corpus grid --leaf lt_2_16_16,ltu_2_16_16,eq_2_16_16 \
    --allow-absent --lib ./half.so --proofs half-proofs.json --html half.html >/dev/null
"$PYTHON" - <<'PY' || bad "the pages of every picture could not be gathered"
import re
# one page: the sign-off page's head, the four runs' figures, the test's probe
head = open("half.html").read().split("</body>")[0]
figures = "".join(re.findall(r"<figure .*?</figure>", "".join(open(p).read() for p in
                                                               ("int8.html", "fp32.html", "classify.html", "tail.html")), re.S))
page = head + figures + """<pre id="q7pics"></pre><script>
const box = e => e.getBoundingClientRect();
const inside = (b, r) => b.left >= r.left - 0.01 && b.right <= r.right + 0.01 && b.top >= r.top - 0.01 && b.bottom <= r.bottom + 0.01;
const out = {signoff: {first: document.body.firstElementChild.id, text: document.getElementById("signoff").textContent,
                       data: Object.assign({}, document.getElementById("signoff").dataset)}};
for (const fig of document.querySelectorAll("figure[data-leaf]")) {
  const bins = [...fig.querySelectorAll("rect.bin")];
  const planes = [...fig.querySelectorAll("rect.plane")];
  const nan = [...fig.querySelectorAll("rect.band-nan")].map(box);
  const snan = [...fig.querySelectorAll('rect.strip[data-class="sNaN"]')].map(box);
  const sign = [...fig.querySelectorAll("line.sign")].map(l => [l.dataset.axis, box(l)]);
  const row = sign.find(s => s[0] === "a"), col = sign.find(s => s[0] === "b");
  const o = {kind: fig.dataset.kind, rows: +fig.dataset.rows, cols: +fig.dataset.cols, bins: 0, drawn: 0,
             in_nan: 0, in_snan: 0, panels: {}, quadrant_ok: 0, cells: 0};
  for (const b of bins) {
    const r = box(b);
    o.bins++; o.cells += +b.dataset.run;
    if (r.width > 0 && r.height > 0) o.drawn++;
    if (nan.some(n => inside(r, n))) o.in_nan++;
    if (snan.some(s => inside(r, s))) o.in_snan++;
    for (const p of planes) if (inside(r, box(p))) o.panels[p.dataset.panel] = (o.panels[p.dataset.panel] || 0) + 1;
    if (row && col) {   /* wholly on one side of each sign line, the two sides unlike */
      const above = r.bottom <= row[1].top + 0.01, below = r.top >= row[1].bottom - 0.01;
      const left = r.right <= col[1].left + 0.01, right = r.left >= col[1].right - 0.01;
      if ((above && right) || (below && left)) o.quadrant_ok++;
    }
  }
  out[fig.dataset.leaf] = o;
}
document.getElementById("q7pics").textContent = JSON.stringify(out);
</script></body></html>"""
open("pictures.html", "w").write(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page))
PY
browse pictures.html pictures.dom || bad "chromium could not load the pictures"
grep -q "CONSOLE" pictures.dom.log && bad "the pictures' probe logged: $(grep CONSOLE pictures.dom.log | head -3)"
"$PYTHON" - "$sha" <<'PY' && ok "every picture as its bug draws it (int8 quadrants, fp32 NaN bands, classify's sNaN strip, the tail's killed lanes) and the sign-off line" || bad "the pictures"
import html, json, re, sys
sha = sys.argv[1]
p = json.loads(html.unescape(re.search(r'<pre id="q7pics">(.*?)</pre>', open("pictures.dom").read(), re.S).group(1)))
i8 = p["lt_1_8_8"]
assert i8["kind"] == "int8" and i8["rows"] == 256 and i8["cols"] == 256, i8
assert i8["drawn"] == i8["bins"] and i8["quadrant_ok"] == i8["bins"], i8   # only the off-diagonal quadrants
assert i8["cells"] == 2 * 128 * 128, i8                                   # and every pair of them
f32 = p["olt_1_4_32f_32f"]
assert f32["kind"] == "fp32" and f32["bins"] > 10 and f32["in_nan"] == f32["bins"] == f32["drawn"], f32
for leaf in ("clsfy_16f_16f", "clsfy_32f_32f"):
    c = p[leaf]
    assert c["kind"] == "classify" and c["rows"] == 10 and c["bins"] > 0 and c["in_snan"] == c["bins"], c
live = p["olt_1_4_32f_32f_4f_t"]   # NaN polarity through the gate: the live lanes only
assert live["kind"] == "tail" and live["bins"] > 0 and live["panels"] == {"1": live["bins"]}, live
t = p["olt_1_2_16f_16f_2f_t"]
assert t["kind"] == "tail" and t["bins"] > 10 and t["panels"] == {"0": t["bins"]}, t   # the killed lanes only
s = p["signoff"]
assert s["first"] == "signoff", s                                # the page's first element
d = s["data"]
assert d["sha256"] == sha and d["verdict"] == "fail" and d["selected"] == "3", d
assert d["proven"] == "1" and d["unproven"] == "2" and d["absent"] == "1", d
text = " ".join(s["text"].split())
assert sha in text and "sampled: FAIL" in text and "proven for every input: 1 of 3 leaves" in text, text
assert "not proven (2): lt_2_16_16, eq_2_16_16" in text and "absent (1): eq_2_16_16" in text, text
PY
exit $fail
