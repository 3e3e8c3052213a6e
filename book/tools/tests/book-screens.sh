#!/bin/bash
# book-screens.sh [--no-render]: the rendered book as a reader sees it.
# Renders the book with book/tools/book.sh (unless --no-render: then
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
# and, for every page with a figure (an <img> of an SVG), at both sizes
# for those two chapters and at 390x844 for the others, checks that no
# figure's text renders smaller than MIN_TEXT_PX CSS pixels (the number
# book/tools/filters/figure-links.lua sizes the figures by): the same probe
# loads each figure's SVG into the frame's page at the size the <img>
# was laid out, and measures every <text> (its font-size times the scale
# the SVG's viewBox and transforms give it).
# Prints KTAP, "ok N ..." or "not ok N ..." per check (lib.sh) (a failure names the
# chapter, the width and the elements), then
# "book-screens: N passed, N failed"; exits non-zero on any failure.
set -eu
. "$(dirname "$0")/../lib.sh"
cd "$TOP"

render=1
case ${1:-} in
--no-render) render=0 ;;
'') ;;
*) die "usage: book/tools/tests/book-screens.sh [--no-render]" ;;
esac

out=$BUILD/book
shots=$out/screens
chapters="step1-mcs-in-a-word contention appendix-glance"
sizes="1280x900 390x844"
phone=390x844
min_text=$(sed -n 's/^local MIN_TEXT_PX = \([0-9][0-9]*\)$/\1/p' book/tools/filters/figure-links.lua)
[ -n "$min_text" ] || die "book/tools/filters/figure-links.lua sets no 'local MIN_TEXT_PX = N'"

if ! command -v chromium >/dev/null; then
	"$TOP/common/harness/deps.sh" screens
fi
command -v chromium >/dev/null || die "chromium is not installed (apt-get install chromium)"

ktap_begin book-screens
ok() { ktap_result 0 "$1"; }
not_ok() { ktap_fail_text "$@"; } # description [detail]

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "$out"/.screens-probe-*.html' EXIT

if [ "$render" -eq 1 ]; then
	if "$TOP/book/tools/book.sh" >"$tmp/book.log" 2>&1; then
		ok "render: $(tail -1 "$tmp/book.log")"
	else
		# The pages that did render are still looked at below.
		not_ok "render: book/tools/book.sh failed" \
			"$(grep -v -e '^==> ' "$tmp/book.log" | tail -12)"
	fi
fi
mkdir -p "$shots"

# chrome ARGS...: headless Chromium, quiet, allowed to read files beside
# the page (the probe reads the figures' SVGs), with a fresh profile of its
# own (a profile shared with a Chromium still shutting down can hang the
# next one) and a time limit; tried twice.
runs=0
chrome() {
	local try
	for try in 1 2; do
		runs=$((runs + 1))
		if timeout 60 chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
			--user-data-dir="$tmp/profile-$runs" --no-first-run --disable-extensions \
			--run-all-compositor-stages-before-draw --virtual-time-budget=5000 \
			--allow-file-access-from-files "$@" \
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
# probe W H CHAPTER-PAGE [SELECTOR]: the probe's HTML; with SELECTOR, the
# frame is scrolled to the first element it selects (for a screenshot).
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
  var target = "${4:-}";
  if (target) {
    var t = doc.querySelector(target);
    if (!t) { report.textContent = "\nERROR nothing is " + target + "\n"; return; }
    win.scrollTo({ top: t.getBoundingClientRect().top + win.pageYOffset - 8, behavior: "instant" });
  }
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
  // Each SVG figure's smallest text as laid out: the SVG drawn in the
  // frame's page at the <img>'s size, each <text> measured.
  var imgs = doc.querySelectorAll("img");
  for (var i = 0; i < imgs.length; i++) {
    var img = imgs[i], src = img.getAttribute("src") || "";
    if (!/\.svg\$/.test(src)) continue;
    var r = img.getBoundingClientRect(), svg;
    try {
      var xhr = new XMLHttpRequest();
      xhr.open("GET", img.src, false);
      xhr.send();
      svg = new DOMParser().parseFromString(xhr.responseText, "image/svg+xml").documentElement;
      if (svg.tagName.toLowerCase() !== "svg") throw "not an SVG";
    } catch (e) { lines.push("FIGURE " + src + " unread: " + e); continue; }
    var box = doc.createElement("div");
    box.style.cssText = "position: absolute; left: 0; top: 0; visibility: hidden";
    svg.setAttribute("width", r.width);
    svg.setAttribute("height", r.height);
    svg.style.maxWidth = "none";
    box.appendChild(doc.importNode(svg, true));
    doc.body.appendChild(box);
    var least = Infinity, what = "", texts = box.querySelectorAll("text");
    for (var j = 0; j < texts.length; j++) {
      var m = texts[j].getScreenCTM();
      var px = parseFloat(win.getComputedStyle(texts[j]).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
      if (px < least) { least = px; what = (texts[j].textContent || "").trim().slice(0, 30); }
    }
    doc.body.removeChild(box);
    if (texts.length)
      lines.push("FIGURE " + src + " width=" + Math.round(r.width) + " text=" + least.toFixed(2) + " \"" + what + "\"");
  }
  report.textContent = "\n" + lines.join("\n") + "\n";
});
</script>
</body></html>
EOF
}

# figures REPORT MIN: the probe's FIGURE lines, each "ok" or "small" or
# "unread" followed by the line; nothing for a page without figures.
figures() {
	awk -v min="$2" '/^FIGURE / {
		if ($3 == "unread:") { print "unread " $0; next }
		t = $4; sub(/^text=/, "", t)
		print (t + 0 < min ? "small " : "ok ") $0
	}' <<<"$1"
}

# screenshot PNG W H PROBE LABEL: a W x H screenshot of the probe page,
# and a result line for it.
screenshot() {
	rm -f "$1"
	chrome --window-size="$2,$3" --screenshot="$1" "file://$4" >/dev/null || true
	if [ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; then
		ok "$5: screenshot ${1#"$TOP"/}"
	else
		not_ok "$5: no screenshot" "$(tail -5 "$tmp/chromium.log")"
	fi
}

# probe_report W H PROBE: what the probe page wrote in its report once loaded
# (the page dumped by Chromium, its tags and entities undone).
probe_report() {
	chrome --window-size="$(($1 + 100)),$(($2 + 100))" --dump-dom "file://$3" >"$tmp/dom.html" || true
	sed -n '/<pre id="overflow-report"/,/<\/pre>/p' "$tmp/dom.html" |
		sed -e 's/<[^>]*>//g' -e '/^$/d' -e 's/&quot;/"/g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g'
}

# The pages to look at: the two chapters above, then every other page
# with an SVG figure (at the phone's size only: the narrow one).
pages=$chapters
for f in "$out"/*.html; do
	ch=$(basename "$f" .html)
	case " $chapters " in *" $ch "*) continue ;; esac
	grep -q '<img [^>]*src="[^"]*\.svg"' "$f" && pages="$pages $ch"
done

for ch in $pages; do
	page=$out/$ch.html
	if [ ! -f "$page" ]; then
		not_ok "$ch: ${page#"$TOP"/} was not rendered (see the render line above)"
		continue
	fi
	shoot=0
	case " $chapters " in *" $ch "*) shoot=1 ;; esac
	[ "$shoot" -eq 1 ] && these=$sizes || these=$phone
	for size in $these; do
		w=${size%x*} h=${size#*x}
		# The probe sits next to the page, so the frame is of the same
		# origin and its stylesheet and figures load.
		p=$out/.screens-probe-$ch-$w.html
		probe "$w" "$h" "$ch.html" >"$p"
		# The screenshot is of the probe page's top left W x H: the frame.
		# (Of the page itself, a window narrower than 500 pixels would lay
		# the page out 500 pixels wide and cut the picture.)
		[ "$shoot" -eq 0 ] || screenshot "$shots/$ch-$w.png" "$w" "$h" "$p" "$ch at $size"
		report=$(probe_report "$w" "$h" "$p")
		if [ -z "$report" ] || grep -q '^ERROR' <<<"$report"; then
			not_ok "$ch at $size: the probe did not run" "$report
$(tail -5 "$tmp/chromium.log")"
			continue
		elif ! grep -q "^innerWidth=$w " <<<"$report"; then
			not_ok "$ch at $size: the frame is not $w pixels wide" "$report"
			continue
		elif grep -q '^OVERFLOW' <<<"$report"; then
			not_ok "$ch at width $w: elements overflow the page sideways" "$(grep -v '^FIGURE' <<<"$report")"
		else
			ok "$ch at $size: nothing overflows sideways ($(head -1 <<<"$report"))"
		fi
		figs=$(figures "$report" "$min_text")
		if [ -z "$figs" ]; then
			# A page picked for its figures must show them.
			[ "$shoot" -eq 1 ] || not_ok "$ch at $size: the page has an SVG figure, the probe measured none" "$report"
		elif grep -q '^unread ' <<<"$figs"; then
			not_ok "$ch at $size: a figure could not be read" "$(grep '^unread ' <<<"$figs")"
		elif grep -q '^small ' <<<"$figs"; then
			not_ok "$ch at $size: figure text renders below $min_text px (book/tools/filters/figure-links.lua's MIN_TEXT_PX)" \
				"$(grep '^small ' <<<"$figs" | cut -d' ' -f3-)"
		else
			ok "$ch at $size: $(wc -l <<<"$figs") figure(s), smallest text $(awk '{ t = $5; sub(/^text=/, "", t); if (m == "" || t + 0 < m) m = t } END { print m }' <<<"$figs") px (at least $min_text)"
		fi
	done
done

# Two more screenshots at each size, scrolled to what a reader looks at
# first: a figure, and an experiment box.
for shot in "step1-mcs-in-a-word figure figure" "step1-mcs-in-a-word div.experiment experiment"; do
	read -r ch sel name <<<"$shot"
	[ -f "$out/$ch.html" ] || continue
	for size in $sizes; do
		w=${size%x*} h=${size#*x}
		p=$out/.screens-probe-$name-$w.html
		probe "$w" "$h" "$ch.html" "$sel" >"$p"
		screenshot "$shots/$ch-$name-$w.png" "$w" "$h" "$p" "$ch at $size, its first $sel"
	done
done

# The control: a copy of the step 1 chapter whose figure has lost its
# min-width (as before figure-links.lua gave it one) must be refused at
# the phone's width.
ch=step1-mcs-in-a-word
if [ -f "$out/$ch.html" ]; then
	w=${phone%x*} h=${phone#*x}
	sed 's/ style="min-width: [0-9]*px"//' "$out/$ch.html" >"$out/.screens-probe-control.html"
	probe "$w" "$h" .screens-probe-control.html >"$out/.screens-probe-control-$w.html"
	report=$(probe_report "$w" "$h" "$out/.screens-probe-control-$w.html")
	if grep -q '^small ' <<<"$(figures "$report" "$min_text")"; then
		ok "control: $ch without its figure's min-width is refused at $phone ($(grep -o 'text=[0-9.]*' <<<"$report" | head -1) px)"
	else
		not_ok "control: $ch without its figure's min-width passed the text-size check at $phone" "$report"
	fi
fi

ktap_end
