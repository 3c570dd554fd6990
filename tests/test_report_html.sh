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
# of --proofs is shown per leaf. A SKIP without chromium (except under
# CI=true, where .ci/run installs it).
# slow: headless chromium loads each page (about 10 s)
set -u
. "$(dirname "$0")/check_lib.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    [ "${CI:-}" = true ] && { echo "FAIL: chromium is not installed (.ci/run installs it)"; exit 1; }
    echo "skipped: chromium not installed (apt-get install chromium)"; exit 77
fi
mutant="$SRCDIR/$BUILD/mutants/nan_polarity.so"
if [ ! -f "$mutant" ]; then
    [ "${CI:-}" = true ] && { echo "FAIL: $mutant not built"; exit 1; }
    echo "skipped: $mutant not built (make mutant-libs)"; exit 77
fi
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
exit $fail
