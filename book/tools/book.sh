#!/bin/bash
# book.sh: render the book in book/ to build/book/:
#  - one HTML page per chapter (book/chapters.tsv, in its order), with a shared
#    template and stylesheet, previous/next links, and a table of contents
#    page, build/book/index.html;
#  - one EPUB, build/book/qspinlock-step-by-step.epub, whose links between
#    chapters are rewritten to its own sections (book/tools/filters/epub-links.lua);
#  - the figures, drawn from book/diagrams/*.dot with `dot -Tsvg`, and
#    the benchmark plots recorded in book/bench/ (make bench-record) and
#    the cost model's in book/sim/ (make sim-record).
# Code is never pasted into the chapters: book/tools/filters/include.lua pulls it
# from steps/*/ (and from the pristine 6.1 tree for the last chapter), and a
# missing file or function stops the build naming the chapter.  Every
# chapter is tried, and the failures are listed together at the end.
# Ends with "book: OK (N chapters, ...)" or an error.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

"$TOP/common/harness/deps.sh" book
command -v pandoc >/dev/null || die "pandoc is not installed (apt-get install pandoc)"
command -v dot >/dev/null || die "dot is not installed (apt-get install graphviz)"

# The closing chapter compares the last step with the installed 6.1 tree.
if [ ! -f "$PRISTINE.manifest" ]; then
	"$TOP/common/harness/deps.sh" kernel
fi
"$TOP/common/boot/pristine.sh"

out=$BUILD/book
src=book
filter=$src/tools/filters/include.lua
# The EPUB's own: links to X.html and X.html#anchor become the #ids they
# mean in the one document the EPUB is made of (see the filter).
epub_filter=$src/tools/filters/epub-links.lua
# The HTML pages' own: every figure is a link to its image, to be seen at
# full size on a phone (see the filter).
html_filter=$src/tools/filters/figure-links.lua
epub=$out/qspinlock-step-by-step.epub
export QSL_TOP=$TOP
# figure-links.lua reads the figures drawn here (their text sizes).
export QSL_BOOK_OUT=$out

# The chapters, from the table of contents; it and the files must agree.
problem=$(book_toc_problem "$TOP/book/chapters.tsv" "$TOP/book") || die "$problem"
mapfile -t chapters < <(book_chapters)

rm -rf "$out"
mkdir -p "$out/diagrams"
cp "$src/book.css" "$out/book.css"

say "drawing $(find "$src/diagrams" -name '*.dot' | wc -l) figures with dot into ${out#"$TOP"/}/diagrams"
for d in "$src"/diagrams/*.dot; do
	[ -e "$d" ] || continue
	svg=$out/diagrams/$(basename "${d%.dot}").svg
	dot -Tsvg "$d" -o "$svg" || die "dot failed on $d"
done

# The recorded benchmark plots, under the same relative paths.
while IFS= read -r f; do
	mkdir -p "$out/$(dirname "${f#"$src"/}")"
	cp "$f" "$out/${f#"$src"/}"
done < <(find "$src/bench" "$src/sim" -name '*.svg' 2>/dev/null)

# title FILE: the chapter's title, its first "# " heading.
title() {
	local t
	t=$(sed -n 's/^# //p' "$1" | head -1)
	[ -n "$t" ] || die "$1 has no '# Title' heading"
	printf '%s\n' "$t"
}
# meta FILE KEY: a one-line value from the chapter's YAML front matter.
meta() {
	awk -v k="$2" 'NR == 1 && $0 != "---" { exit }
		NR > 1 && $0 == "---" { exit }
		index($0, k ": ") == 1 { v = substr($0, length(k) + 3); gsub(/^"|"$/, "", v); print v; exit }' "$1"
}
html_escape() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}
page() { # FILE: the HTML page of a chapter
	local b
	b=$(basename "$1")
	printf '%s.html\n' "${b%.md}"
}

common=(
	--from markdown --to html5 --standalone --wrap=none
	--template "$src/template.html"
	--lua-filter "$filter"
	--lua-filter "$html_filter"
	--shift-heading-level-by=-1
	--highlight-style=tango
	--css book.css
	--resource-path="$out:$TOP"
)

# run_pandoc ARGS...: pandoc, its messages without the Lua stack traceback
# that follows a filter's error (the error itself names chapter and file).
errs=$(mktemp)
trap 'rm -f "$errs"' EXIT
run_pandoc() {
	local rc=0
	pandoc "$@" 2>"$errs" || rc=$?
	sed -e '/^stack traceback:/,$d' -e '/^Error running filter /d' -e '/^$/d' "$errs" >&2
	return "$rc"
}

# Every chapter is rendered even when one fails, so that one run lists
# every chapter that needs fixing.
failed=()
n=${#chapters[@]}
for i in "${!chapters[@]}"; do
	ch=${chapters[$i]}
	nav=()
	if [ "$i" -gt 0 ]; then
		nav+=(-V "prev-href=$(page "${chapters[$((i - 1))]}")" -V "prev-title=$(title "${chapters[$((i - 1))]}")")
	else
		nav+=(-V "prev-href=index.html" -V "prev-title=Contents")
	fi
	if [ "$i" -lt $((n - 1)) ]; then
		nav+=(-V "next-href=$(page "${chapters[$((i + 1))]}")" -V "next-title=$(title "${chapters[$((i + 1))]}")")
	fi
	say "rendering $ch -> ${out#"$TOP"/}/$(page "$ch")"
	run_pandoc "${common[@]}" --toc --toc-depth=2 "${nav[@]}" \
		-o "$out/$(page "$ch")" "$ch" || failed+=("$ch")
done
[ ${#failed[@]} -eq 0 ] ||
	die "pandoc failed on ${#failed[@]} of $n chapters (see the messages above): ${failed[*]}"

# The contents page: book/index.md, then every chapter with its sections,
# taken from the rendered pages so that the anchors are pandoc's own.
# The list is not numbered: a chapter is named by its title ("Step 7:
# ...", "Appendix B: ..."), never by its place (book/index.md).
say "writing the table of contents ${out#"$TOP"/}/index.html"
[ -f "$src/index.md" ] || die "book/index.md (the contents page's text) is missing"
{
	cat "$src/index.md"
	echo
	echo '<ul class="chapters">'
	for ch in "${chapters[@]}"; do
		p=$(page "$ch")
		printf '<li><p><a href="%s">%s</a></p>\n' "$p" "$(title "$ch" | html_escape)"
		s=$(meta "$ch" summary)
		[ -z "$s" ] || printf '<p class="summary">%s</p>\n' "$(printf '%s' "$s" | html_escape)"
		echo '<ul>'
		sed -n 's|^<h1 id="\([^"]*\)">\(.*\)</h1>$|<li><a href="'"$p"'#\1">\2</a></li>|p' "$out/$p"
		echo '</ul></li>'
	done
	echo '</ul>'
} >"$out/index.md"
run_pandoc "${common[@]}" -V "next-href=$(page "${chapters[0]}")" \
	-V "next-title=$(title "${chapters[0]}")" \
	-o "$out/index.html" "$out/index.md" || die "pandoc failed on the contents page"
rm -f "$out/index.md"

say "rendering the EPUB ${epub#"$TOP"/}"
run_pandoc --from markdown --to epub3 \
	--lua-filter "$filter" --lua-filter "$epub_filter" \
	--toc --toc-depth=2 --epub-chapter-level=1 \
	--highlight-style=tango \
	--css "$src/epub.css" \
	--resource-path="$out:$TOP" \
	--metadata title="qspinlock, step by step" \
	--metadata subtitle="The Linux queued spinlock, re-derived one optimisation at a time" \
	--metadata lang=en \
	-o "$epub" "${chapters[@]}" || die "pandoc failed on the EPUB (see the message above)"

echo "book: OK ($n chapters, ${out#"$TOP"/}/index.html, ${epub#"$TOP"/})"
