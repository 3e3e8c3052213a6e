#!/bin/bash
# The book: every step has a chapter, the book renders, and every internal
# link and image of the rendered HTML resolves.
#  1. each steps/NN-slug/ has a chapter (book/chapters.tsv) that includes
#     its patch;
#  2. book/tools/book.sh renders the HTML pages and the EPUB;
#  3. in each page of build/book/, every href to a local file or #anchor
#     and every img src points at a file that exists and, for an anchor,
#     at an element with that id;
#  3b. every <img> of those pages sits inside an <a href> to its own image
#     file, for a phone reader to see it full size
#     (book/tools/filters/figure-links.lua); a doctored page with one bare <img>
#     is refused;
#  4. the same inside the EPUB: in every xhtml file of the zip, every href
#     and src resolves to a file of the zip and, with a fragment, to an
#     element with that id in it; and two doctored copies of the EPUB, one
#     with a link to a chapter's .html page (which the EPUB does not hold)
#     and one with a fragment that names no element, are refused.
# Prints one KTAP line per check (lib.sh) and "book: N passed, N failed".
set -eu
. "$(dirname "$0")/../lib.sh"
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
if "$TOP/book/tools/book.sh" >"$log" 2>&1; then
	rendered=1
	ok "render: $(tail -1 "$log")"
else
	not_ok "render: book/tools/book.sh failed" "$(grep -v -e '^==> ' -e '^$' "$log" | tail -12)"
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
# 3b. Every image a link to itself.
# img_links PAGE...: the number of <img> in the pages on the first line,
# then one line per one that is not inside an <a href> to the same file;
# status 1 if there is one.
# refused CHECK COPY REASON KIND WHAT: the check CHECK must refuse the
# doctored COPY (a KIND with WHAT in it), for REASON.
refused() {
	if res=$("$1" "$2"); then
		not_ok "a doctored $4 with $5 was accepted"
	elif grep -q -F "$3" <<<"$res"; then
		ok "a doctored $4 is refused: $5 ($(sed -n 2p <<<"$res"))"
	else
		not_ok "a doctored $4 with $5 was refused, but not for '$3'" "$res"
	fi
}
img_links() {
	python3 - "$@" <<'EOF2'
import sys
from html.parser import HTMLParser
class Page(HTMLParser):
    def __init__(self, name):
        super().__init__()
        self.name, self.links, self.imgs, self.bad = name, [], 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.links.append(a.get("href"))
        elif tag == "img":
            self.imgs += 1
            src = a.get("src")
            if not self.links or self.links[-1] != src:
                where = f'inside <a href="{self.links[-1]}">' if self.links and self.links[-1] else "in no link"
                self.bad.append(f'{self.name}:{self.getpos()[0]}: <img src="{src}"> is {where}')
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
    def handle_endtag(self, tag):
        if tag == "a" and self.links:
            self.links.pop()
imgs, bad = 0, []
for name in sys.argv[1:]:
    p = Page(name.rsplit("/", 1)[-1])
    with open(name, encoding="utf-8") as f:
        p.feed(f.read())
    imgs += p.imgs
    bad += p.bad
print(imgs)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF2
}
if ! command -v python3 >/dev/null; then
	not_ok "figure links: python3 is missing, the images' links were not checked (apt-get install python3)"
elif res=$(img_links "$out"/*.html); then
	if [ "$(head -1 <<<"$res")" -gt 0 ]; then
		ok "figure links: every one of the $(head -1 <<<"$res") images of the pages is a link to its own file"
	else
		not_ok "figure links: no <img> in the pages of ${out#"$TOP"/} to check"
	fi
	# A doctored copy of a page with a figure, its first image unlinked.
	tmp=$(mktemp -d)
	fig=$(grep -l -F '<img ' "$out"/*.html | head -1)
	if [ -n "$fig" ] && sed -E '0,/<a href="[^"]*" class="figure-link">(<img [^>]*>)<\/a>/s//\1/' "$fig" >"$tmp/${fig##*/}" &&
		! cmp -s "$fig" "$tmp/${fig##*/}"; then
		refused img_links "$tmp/${fig##*/}" "is in no link" page "a bare <img>"
	else
		not_ok "figure links: no linked <img> in the pages to doctor"
	fi
	rm -rf "$tmp"
else
	not_ok "figure links: $(($(wc -l <<<"$res") - 1)) of $(head -1 <<<"$res") images are not a link to their own file" \
		"$(sed 1d <<<"$res" | head -20)"
fi
if [ -f "$out/index.html" ]; then
	ok "contents page: ${out#"$TOP"/}/index.html"
else
	not_ok "contents page: ${out#"$TOP"/}/index.html is missing"
fi

# 4. Links inside the EPUB.
# epub_links EPUB: the number of local links and images in its xhtml files,
# on the first line, then one line per one that does not resolve; status 1
# if there is one.  A link is relative to its own file; external ones
# (http:, mailto:, ...) are not counted.
epub_links() {
	python3 - "$1" <<'EOF'
import posixpath, re, sys, zipfile
from urllib.parse import unquote
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
ids = {}
def ids_in(name):
    if name not in ids:
        text = z.read(name).decode("utf-8")
        ids[name] = set(re.findall(r'\sid="([^"]*)"', text))
    return ids[name]
links, bad = 0, []
for name in sorted(n for n in names if n.endswith(".xhtml")):
    text = z.read(name).decode("utf-8")
    for attr, ref in re.findall(r'\s(href|src)="([^"]*)"', text):
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", ref):
            continue
        links += 1
        path, _, frag = ref.replace("&amp;", "&").partition("#")
        target = name
        if path:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(path)))
        if target not in names:
            bad.append(f'{name}: {attr}="{ref}": no file {target} in the EPUB')
        elif frag and unquote(frag) not in ids_in(target):
            bad.append(f'{name}: {attr}="{ref}": no element with id="{unquote(frag)}" in {target}')
print(links)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}
# epub_doctor EPUB COPY OLD NEW: COPY is EPUB with the first href="OLD..."
# of a chapter's xhtml file made href="NEW"; status 1 if there is none.
epub_doctor() {
	python3 - "$@" <<'EOF'
import re, sys, zipfile
src, dst, old, new = sys.argv[1:]
done = False
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if not done and re.match(r"EPUB/text/ch\d+\.xhtml$", info.filename):
            text = data.decode("utf-8")
            text, n = re.subn(r'href="' + re.escape(old) + r'[^"]*"', 'href="' + new + '"', text, count=1)
            if n:
                data = text.encode("utf-8")
                done = True
        zout.writestr(info, data)
sys.exit(0 if done else 1)
EOF
}
if ! command -v python3 >/dev/null; then
	not_ok "epub links: python3 is missing, the EPUB's links were not checked (apt-get install python3)"
elif res=$(epub_links "$epub"); then
	ok "epub links: ${epub#"$TOP"/} ($(head -1 <<<"$res") links and images in its xhtml files resolve)"
	tmp=$(mktemp -d)
	if epub_doctor "$epub" "$tmp/page.epub" "ch" "step1-mcs-in-a-word.html#the-states"; then
		refused epub_links "$tmp/page.epub" "no file EPUB/text/step1-mcs-in-a-word.html" EPUB "a link to a chapter's .html page"
	else
		not_ok "epub links: no href=\"ch...\" in the EPUB's chapters to doctor"
	fi
	if epub_doctor "$epub" "$tmp/anchor.epub" "#" "#no-such-id"; then
		refused epub_links "$tmp/anchor.epub" 'no element with id="no-such-id"' EPUB "a fragment that names no element"
	else
		not_ok "epub links: no href=\"#...\" in the EPUB's chapters to doctor"
	fi
	rm -rf "$tmp"
else
	not_ok "epub links: ${epub#"$TOP"/}: $(($(wc -l <<<"$res") - 1)) of $(head -1 <<<"$res") links do not resolve" \
		"$(sed 1d <<<"$res" | head -20)"
fi

ktap_end
