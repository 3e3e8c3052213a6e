# shellcheck shell=bash
# The book's library, sourced by book/tools/*.sh and their tests: the
# chapters in reading order and the check of the table of contents, on
# top of the boot library (stages, run directories).
. "$(dirname "${BASH_SOURCE[0]}")/../../common/boot/lib.sh"

# book_chapters: book/FILE of every chapter, in reading order
# (book/chapters.tsv, the one list of them).
book_chapters() {
	tsv_columns "$TOP/book/chapters.tsv" file | sed 's|^|book/|'
}

# book_toc_problem TOC DIR: the first way the table of contents TOC and
# the chapters in DIR (every *.md but index.md) disagree, and status 1;
# nothing and 0 when they agree.  book.sh refuses to render on one.
book_toc_problem() {
	local toc=$1 dir=$2 list f
	list=$(tsv_columns "$toc" file step 2>&1 | cut -f1) || {
		echo "${toc#"$TOP"/}: $list"
		return 1
	}
	[ -n "$list" ] || { echo "${toc#"$TOP"/} lists no chapters"; return 1; }
	while IFS= read -r f; do
		[ -f "$dir/$f" ] || { echo "${toc#"$TOP"/} lists $f, which does not exist in ${dir#"$TOP"/}/: add the file or remove its line"; return 1; }
	done <<<"$list"
	for f in "$dir"/*.md; do
		[ "${f##*/}" = index.md ] || printf '%s\n' "$list" | grep -qxF "${f##*/}" || {
			echo "${f#"$TOP"/} is not in ${toc#"$TOP"/}: add a line for it where it belongs in the reading order"
			return 1
		}
	done
	f=$(printf '%s\n' "$list" | sort | uniq -d | head -1)
	[ -z "$f" ] || { echo "${toc#"$TOP"/} lists $f twice"; return 1; }
}
