#!/bin/bash
# The book: every step has a chapter, the book renders, and every internal
# link and image of the rendered HTML resolves.
#  1. each steps/NN-slug/ has a chapter (book/chapters.tsv) that includes
#     its patch;
#  2. common/scripts/book.sh renders the HTML pages and the EPUB;
#  3. in each page of build/book/, every href to a local file or #anchor
#     and every img src points at a file that exists and, for an anchor,
#     at an element with that id.
# Prints one KTAP line per check (lib.sh) and "book: N passed, N failed".
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

ktap_begin book
ok() { ktap_result 0 "$1"; }
not_ok() { ktap_fail_text "$@"; } # description [detail]

# 1. A chapter for every step.
for d in $(step_dirs); do
	p=$(step_patch "$d")
	rel=${p#"$TOP"/}
	n=$((10#$(basename "$d" | cut -c1-2)))
	ch=$(step_chapter "$n")
	if [ -z "$ch" ]; then
		not_ok "$(basename "$d") has no chapter (no line of book/chapters.tsv names step $n)"
	elif grep -q -F "include=\"$rel\"" "$ch"; then
		ok "$(basename "$d") has a chapter: $ch"
	else
		not_ok "$(basename "$d"): its chapter $ch (book/chapters.tsv) does not include $rel"
	fi
done

# 1b. The table of contents and the chapters agree, and a doctored one
# is refused for its reason.
if problem=$(book_toc_problem book/chapters.tsv book); then
	ok "book/chapters.tsv lists every chapter of book/ once, and nothing else"
else
	not_ok "book/chapters.tsv: $problem"
fi
tmp=$(mktemp -d)
doctored() { # reason awk-program
	awk "$2" book/chapters.tsv >"$tmp/toc.tsv"
	if problem=$(book_toc_problem "$tmp/toc.tsv" book); then
		not_ok "a table of contents doctored so that '$1' was accepted"
	elif case $problem in *"$1"*) true ;; *) false ;; esac then
		ok "a doctored table of contents is refused: $1"
	else
		not_ok "a doctored table of contents was refused, but not for '$1': $problem"
	fi
}
# shellcheck disable=SC2016 # awk programs
doctored "is not in" '$1 != "contention.md"'
# shellcheck disable=SC2016
doctored "which does not exist" '{ print } $1 == "upstream.md" { print "step9-paravirt.md\t9" }'
# shellcheck disable=SC2016
doctored "twice" '{ print } $1 == "upstream.md" { print }'
doctored "has no column" '{ sub(/^file\t/, "name\t"); print }'
rm -rf "$tmp"

# 2. The book renders.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
out=$BUILD/book
rendered=0
if "$TOP/common/scripts/book.sh" >"$log" 2>&1; then
	rendered=1
	ok "render: $(tail -1 "$log")"
else
	not_ok "render: common/scripts/book.sh failed" "$(grep -v -e '^==> ' -e '^$' "$log" | tail -12)"
fi

epub=$out/qspinlock-step-by-step.epub
if [ -s "$epub" ] && [ "$(head -c 2 "$epub")" = PK ]; then
	ok "epub: ${epub#"$TOP"/} ($(wc -c <"$epub") bytes)"
else
	not_ok "epub: ${epub#"$TOP"/} is missing or not a zip file"
fi

# 3. Links and images, in a book that rendered completely.
if [ "$rendered" -eq 0 ]; then
	echo "# links not checked: the book did not render"
		ktap_end || exit 1
	exit 1
fi
# has_id FILE ID: does FILE have an element with id="ID"?
has_id() {
	grep -q -F "id=\"$2\"" "$1"
}
pages=0
for page in "$out"/*.html; do
	[ -e "$page" ] || continue
	pages=$((pages + 1))
	name=${page#"$out"/}
	bad=""
	links=0
	while IFS= read -r ref; do
		case $ref in
		http:* | https:* | mailto:* | data:* | ftp:*) continue ;;
		esac
		links=$((links + 1))
		file=${ref%%#*}
		anchor=""
		case $ref in *'#'*) anchor=${ref#*#} ;; esac
		target=$page
		if [ -n "$file" ]; then
			target=$out/$file
			if [ ! -f "$target" ]; then
				bad="$bad$ref: no such file
"
				continue
			fi
		fi
		if [ -n "$anchor" ] && ! has_id "$target" "$anchor"; then
			bad="$bad$ref: no element with id=\"$anchor\" in ${target#"$out"/}
"
		fi
	done < <(grep -o -E '(href|src)="[^"]*"' "$page" | sed -E 's/^(href|src)="//; s/"$//')
	if [ -z "$bad" ]; then
		ok "links: $name ($links internal links and images resolve)"
	else
		not_ok "links: $name" "$bad"
	fi
done
[ "$pages" -gt 0 ] || not_ok "links: no HTML pages in ${out#"$TOP"/}"
if [ -f "$out/index.html" ]; then
	ok "contents page: ${out#"$TOP"/}/index.html"
else
	not_ok "contents page: ${out#"$TOP"/}/index.html is missing"
fi

ktap_end
