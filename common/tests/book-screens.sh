#!/bin/bash
# book-screens.sh [--no-render]: the rendered book as a reader sees it.
# Renders the book with common/scripts/book.sh (unless --no-render: then
# the pages already in build/book/ are used), then, with headless
# Chromium, for two chapters (step1-mcs-in-a-word.html, the first with
# code, and contention.html, the one with the widest tables) at a
# desktop's 1280x900 and a phone's 390x844:
#  - takes a screenshot, build/book/screens/CHAPTER-WIDTH.png (the top of
#    the page, as it opens, in a frame of that size);
#  - checks that nothing overflows the page sideways: a probe page shows
#    the chapter in a frame of that size and, with a small script, lists
#    every element whose right edge passes the frame's and that is not
#    inside a box that scrolls sideways (a listing, a table); Chromium
#    dumps the probe page with the list in it.
# Prints KTAP, "ok N ..." or "not ok N ..." per check (lib.sh) (a failure names the
# chapter, the width and the elements), then
# "book-screens: N passed, N failed"; exits non-zero on any failure.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

render=1
case ${1:-} in
--no-render) render=0 ;;
'') ;;
*) die "usage: common/tests/book-screens.sh [--no-render]" ;;
esac

out=$BUILD/book
shots=$out/screens
chapters="step1-mcs-in-a-word contention"
sizes="1280x900 390x844"

if ! command -v chromium >/dev/null; then
	"$TOP/common/scripts/deps.sh" screens
fi
command -v chromium >/dev/null || die "chromium is not installed (apt-get install chromium)"

ktap_begin book-screens
ok() { ktap_result 0 "$1"; }
not_ok() { ktap_fail_text "$@"; } # description [detail]

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$out"/.screens-probe-*.html' EXIT

if [ "$render" -eq 1 ]; then
	if "$TOP/common/scripts/book.sh" >"$tmp/book.log" 2>&1; then
		ok "render: $(tail -1 "$tmp/book.log")"
	else
		# The pages that did render are still looked at below.
		not_ok "render: common/scripts/book.sh failed" \
			"$(grep -v -e '^==> ' "$tmp/book.log" | tail -12)"
	fi
fi
mkdir -p "$shots"

# chrome ARGS...: headless Chromium, quiet, with a fresh profile of its
# own (a profile shared with a Chromium still shutting down can hang the
# next one) and a time limit; tried twice.
runs=0
chrome() {
	local try
	for try in 1 2; do
		runs=$((runs + 1))
		if timeout 60 chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
			--user-data-dir="$tmp/profile-$runs" --no-first-run --disable-extensions \
			--run-all-compositor-stages-before-draw --virtual-time-budget=5000 "$@" \
			2>>"$tmp/chromium.log"; then
			return 0
		fi
		echo "chromium failed or timed out (try $try): $*" >>"$tmp/chromium.log"
	done
	return 1
}

# The probe: a page beside the chapter that shows it in a frame of the
# width under test (a headless window is never narrower than 500 pixels,
# a frame is) and, once it has loaded, lists the frame's elements that
# pass its right edge and are not inside a box that scrolls sideways,
# outermost first (an element inside one already listed is not listed
# again).  The list goes into the probe page, which Chromium dumps.
# probe W H CHAPTER-PAGE: the probe's HTML.
probe() {
	cat <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>probe</title></head>
<body style="margin: 0">
<iframe id="frame" src="$3" style="width: $1px; height: $2px; border: 0; display: block"></iframe>
<pre id="overflow-report"></pre>
<script>
document.getElementById("frame").addEventListener("load", function () {
  var report = document.getElementById("overflow-report");
  var win = this.contentWindow, doc;
  try { doc = win.document; } catch (e) { report.textContent = "\nERROR " + e + "\n"; return; }
  var W = win.innerWidth;
  var root = doc.documentElement;
  var lines = ["innerWidth=" + W + " scrollWidth=" + root.scrollWidth];
  function scrolls(e) {
    for (var p = e.parentElement; p && p !== doc.body; p = p.parentElement) {
      var o = win.getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  }
  function name(e) {
    var s = e.tagName.toLowerCase();
    if (e.id) s += "#" + e.id;
    if (typeof e.className === "string" && e.className.trim())
      s += "." + e.className.trim().split(/\s+/).join(".");
    return s;
  }
  var listed = [];
  var all = doc.body.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    var r = e.getBoundingClientRect();
    if (r.width === 0 || r.right <= W + 0.5 || scrolls(e)) continue;
    var inside = false;
    for (var j = 0; j < listed.length; j++)
      if (listed[j].contains(e)) inside = true;
    if (inside) continue;
    listed.push(e);
    var text = (e.textContent || "").replace(/\s+/g, " ").trim().slice(0, 60);
    lines.push("OVERFLOW " + name(e) + " right=" + Math.round(r.right) + " \"" + text + "\"");
  }
  if (root.scrollWidth > W && listed.length === 0)
    lines.push("OVERFLOW the page scrolls sideways (scrollWidth " + root.scrollWidth + ")");
  report.textContent = "\n" + lines.join("\n") + "\n";
});
</script>
</body></html>
EOF
}

for ch in $chapters; do
	page=$out/$ch.html
	if [ ! -f "$page" ]; then
		not_ok "$ch: ${page#"$TOP"/} was not rendered (see the render line above)"
		continue
	fi
	for size in $sizes; do
		w=${size%x*} h=${size#*x}
		# The probe sits next to the page, so the frame is of the same
		# origin and its stylesheet and figures load.
		p=$out/.screens-probe-$ch-$w.html
		probe "$w" "$h" "$ch.html" >"$p"
		# The screenshot is of the probe page's top left W x H: the frame.
		# (Of the page itself, a window narrower than 500 pixels would lay
		# the page out 500 pixels wide and cut the picture.)
		png=$shots/$ch-$w.png
		rm -f "$png"
		chrome --window-size="$w,$h" --screenshot="$png" "file://$p" >/dev/null || true
		if [ -s "$png" ] && [ "$(head -c 4 "$png" | tail -c 3)" = PNG ]; then
			ok "$ch at $size: screenshot ${png#"$TOP"/}"
		else
			not_ok "$ch at $size: no screenshot" "$(tail -5 "$tmp/chromium.log")"
		fi
		chrome --window-size="$((w + 100)),$((h + 100))" --allow-file-access-from-files \
			--dump-dom "file://$p" >"$tmp/dom.html" || true
		report=$(sed -n '/<pre id="overflow-report"/,/<\/pre>/p' "$tmp/dom.html" |
			sed -e 's/<[^>]*>//g' -e '/^$/d' -e 's/&quot;/"/g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g')
		if [ -z "$report" ] || grep -q '^ERROR' <<<"$report"; then
			not_ok "$ch at $size: the overflow probe did not run" "$report
$(tail -5 "$tmp/chromium.log")"
		elif ! grep -q "^innerWidth=$w " <<<"$report"; then
			not_ok "$ch at $size: the frame is not $w pixels wide" "$report"
		elif grep -q '^OVERFLOW' <<<"$report"; then
			not_ok "$ch at width $w: elements overflow the page sideways" "$report"
		else
			ok "$ch at $size: nothing overflows sideways ($(head -1 <<<"$report"))"
		fi
	done
done

ktap_end
