#!/bin/bash
# book-dist.sh: the book for a reader with no Debian machine, no kernel
# tree and no pandoc, in build/book-dist/:
#  - html/ and qspinlock-step-by-step.epub: make book's output as it is
#    (book.sh renders it first);
#  - markdown/: the whole book as GitHub-flavoured Markdown, one .md file a
#    chapter and README.md for the contents, every listing already filled
#    in by the same include filter (book/tools/filters/include.lua, to pandoc's
#    JSON, then book/tools/filters/gfm.lua writes -t gfm: links between chapters
#    lead to the .md files and GitHub's anchors), the figures beside them;
#  - qspinlock-book-COMMIT.tar.gz: all of it, with a README.txt, under
#    qspinlock-book-COMMIT/ (COMMIT the short hash, -dirty when a tracked
#    file differs from it), for a release.
# No code block of the Markdown may be empty: each is checked, and an
# empty or unclosed fence stops the script naming its file and line.
#   book-dist.sh --check-only FILE.md...   only that check, on those files
# Ends with "book-dist: OK (...)" or an error.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

usage="usage: book-dist.sh [--check-only FILE.md...]"

# check_fences FILE...: every fenced code block (``` or ~~~, CommonMark's
# rules: closed by a fence of the same character at least as long; in a
# block quote too) must hold a line that is not blank.  Prints
# "FILE:LINE: ..." for each empty or unclosed block and returns 1; on
# success prints the number of blocks.
check_fences() {
	awk '
	function unclosed() {
		if (open) { printf "%s:%d: a code block opened here is never closed\n", file, start; bad++ }
		open = 0
	}
	# unquote(S, N): S without its first N block-quote markers ("> ").
	function unquote(s, n) {
		while (n-- > 0) sub(/^[ \t]*>[ \t]?/, "", s)
		return s
	}
	FNR == 1 { unclosed(); file = FILENAME }
	!open {
		# A fence may be inside block quotes (an experiment box): count them.
		line = $0
		for (q = 0; line ~ /^[ \t]*>/; q++) line = unquote(line, 1)
		if (match(line, /^[ \t]*(```+|~~~+)/)) {
			fence = substr(line, RSTART, RLENGTH)
			sub(/^[ \t]*/, "", fence)
			# A backtick in the info string: inline code, not a fence.
			if (substr(fence, 1, 1) == "`" && index(substr(line, RSTART + RLENGTH), "`")) next
			open = 1; start = FNR; full = 0; depth = q; blocks++
		}
		next
	}
	{
		line = unquote($0, depth)
		if (line ~ /^[ \t]*(```+|~~~+)[ \t]*$/) {
			f = line
			gsub(/[ \t]/, "", f)
			if (substr(f, 1, 1) == substr(fence, 1, 1) && length(f) >= length(fence)) {
				if (!full) { printf "%s:%d: an empty code block (lines %d-%d)\n", file, start, start, FNR; bad++ }
				open = 0
				next
			}
		}
		if (line ~ /[^ \t]/) full = 1
	}
	END {
		unclosed()
		if (bad) exit 1
		print blocks + 0
	}' "$@"
}

if [ "${1-}" = --check-only ]; then
	shift
	[ $# -gt 0 ] || die "--check-only needs the Markdown files to check; $usage"
	for f in "$@"; do
		[ -f "$f" ] || die "$f: no such file; $usage"
	done
	out=$(check_fences "$@") || {
		printf '%s\n' "$out" >&2
		die "$(printf '%s\n' "$out" | wc -l) empty or unclosed code block(s) in $# file(s), listed above: a listing lost its code"
	}
	echo "book-dist: OK (--check-only: $out code blocks in $# file(s), none empty)"
	exit 0
fi
[ $# -eq 0 ] || die "unknown argument '$1'; $usage"

commit=$(commit_of "$TOP") || die "cannot read the commit of $TOP (git rev-parse failed): run this in the git checkout"
name=qspinlock-book-$commit

# The HTML pages and the EPUB, with every check make book makes.
"$TOP/book/tools/book.sh"
book=$BUILD/book
epub_name=qspinlock-step-by-step.epub
if [ ! -f "$book/index.html" ] || [ ! -f "$book/$epub_name" ]; then
	die "book.sh ended without ${book#"$TOP"/}/index.html and $epub_name: run make book and read its messages"
fi

dist=$BUILD/book-dist
md=$dist/markdown
rm -rf "$dist"
mkdir -p "$dist" "$md"

say "copying the HTML pages and the EPUB into ${dist#"$TOP"/}"
cp -R "$book" "$dist/html"
mv "$dist/html/$epub_name" "$dist/$epub_name"

mapfile -t chapters < <(book_chapters)
n=${#chapters[@]}

tmp=$(mktemp -d)
errs=$tmp/errs
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/json"
export QSL_TOP=$TOP QSL_GFM_JSON=$tmp/json

# run_pandoc ARGS...: pandoc, its messages without the Lua stack traceback
# (as book.sh runs it).
run_pandoc() {
	local rc=0
	pandoc "$@" 2>"$errs" || rc=$?
	sed -e '/^stack traceback:/,$d' -e '/^Error running filter /d' -e '/^$/d' "$errs" >&2
	return "$rc"
}

# First every listing filled in, to JSON: the second pass needs every
# chapter's headings to write the links between them.
say "filling in the listings of $n chapters and the contents page (book/tools/filters/include.lua)"
failed=()
for ch in "${chapters[@]}" book/index.md; do
	b=$(basename "$ch" .md)
	run_pandoc --from markdown --to json --lua-filter book/tools/filters/include.lua \
		-o "$tmp/json/$b.json" "$ch" || failed+=("$ch")
done
[ ${#failed[@]} -eq 0 ] ||
	die "pandoc failed on ${#failed[@]} file(s) (see the messages above; make book names the same): ${failed[*]}"

say "writing the Markdown into ${md#"$TOP"/} (book/tools/filters/gfm.lua)"
for ch in "${chapters[@]}" book/index.md; do
	b=$(basename "$ch" .md)
	page=$b.md
	[ "$ch" != book/index.md ] || page=README.md
	run_pandoc --from json --to gfm --wrap=preserve --lua-filter book/tools/filters/gfm.lua \
		-M "gfm-page=$page" -o "$md/$page" "$tmp/json/$b.json" || failed+=("$ch")
done
[ ${#failed[@]} -eq 0 ] ||
	die "pandoc failed writing the Markdown of ${#failed[@]} file(s) (see the messages above): ${failed[*]}"

# The figures, under the paths the chapters use (diagrams/, bench/, sim/).
while IFS= read -r f; do
	mkdir -p "$md/$(dirname "$f")"
	cp "$book/$f" "$md/$f"
done < <(cd "$book" && find . -name '*.svg' -printf '%P\n')
missing=$(cd "$md" && grep -oh '!\[[^]]*\]([^)]*)' ./*.md | sed 's/.*](\([^) ]*\).*/\1/' |
	while IFS= read -r f; do [ -f "$f" ] || echo "$f"; done | sort -u)
[ -z "$missing" ] ||
	die "the Markdown shows figures that are not in ${md#"$TOP"/}: $(echo "$missing" | tr '\n' ' ')(book.sh draws them into build/book/: check that it wrote them)"

say "checking that no code block of the Markdown is empty"
blocks=$(check_fences "$md"/*.md) || {
	printf '%s\n' "$blocks" >&2
	die "the Markdown has empty or unclosed code blocks (listed above): include.lua filled them in for HTML; see what book/tools/filters/gfm.lua did to them"
}

cat >"$dist/README.txt" <<EOF
qspinlock, step by step: the book, rendered from commit $commit
(of $(git log -1 --format=%cd --date=short)) by make book-dist.

  html/index.html               the book as web pages: open it in a browser
  $epub_name   the book as an EPUB, for an e-reader
  markdown/README.md            the book as GitHub Markdown, every listing
                                filled in: readable on GitHub or any viewer

Nothing needs building: the code and the recorded runs each chapter
shows are in these files, taken from the repository at that commit.
EOF

say "packing ${dist#"$TOP"/}/$name.tar.gz"
tar -C "$dist" --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime="@$(git log -1 --format=%ct)" --transform "s,^,$name/," \
	-cf - README.txt html "$epub_name" markdown | gzip -n >"$dist/$name.tar.gz"

size() { du -sh --apparent-size "$1" | cut -f1; }
say "wrote:"
for f in html markdown "$epub_name" README.txt "$name.tar.gz"; do
	printf '    %-52s %6s\n' "${dist#"$TOP"/}/$f" "$(size "$dist/$f")" >&2
done
echo "book-dist: OK ($n chapters in Markdown, $blocks code blocks none empty, ${dist#"$TOP"/}/$name.tar.gz, $(size "$dist/$name.tar.gz"))"
