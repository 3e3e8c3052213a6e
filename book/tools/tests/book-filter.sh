#!/bin/bash
# The book's include filter (book/tools/filters/include.lua) on its own: small
# Markdown documents go through pandoc with the filter, on the repository's
# real files (steps/*/tree/, steps/*/*.patch), and
#  - each selection (function=, hunk=, from=/to=, after=, diff=, numbers=,
#    comment=, .markdown rows) yields exactly the lines it should, checked
#    against the file with grep/sed/awk and, for diff=, with patch(1);
#  - each misuse (a hunk= on no hunk or on two, a from= on two lines, a
#    to= not found, an after= not found, an unchanged function's diff=, an
#    unknown attribute, the removed lines=, occurrence= and optional=)
#    stops pandoc with a non-zero exit and the expected message;
#  - table= takes a recorded trace's whole table; a .recorded span's
#    number must be what its file holds, or the build stops;
#  - a chapter is named, never numbered: [step](X.html) reads "step N",
#    N from book/chapters.tsv, and "chapter N" (a link or typed), a link
#    that says "chapter", or one that names another step, is refused.
# Prints KTAP, "ok N ..." or "not ok N ..." per case (lib.sh), then
# "book-filter: N passed, N failed"; exits non-zero on any failure.
# Needs pandoc, diff and patch; runs in a few seconds.
set -eu
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
command -v pandoc >/dev/null || die "pandoc is not installed (apt-get install pandoc)"
command -v patch >/dev/null || die "patch is not installed (apt-get install patch)"

filter=$TOP/book/tools/filters/include.lua
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A second filter, run after include.lua, writes what it produced: per
# listing, N.label (the label above it), N.text (the code), N.class (its
# classes) and N.start (its startFrom), into $DUMP.
cat >"$tmp/dump.lua" <<'EOF'
local dir = os.getenv("DUMP")
local n = 0
local function put(name, text)
  local f = assert(io.open(dir .. "/" .. name, "w"))
  f:write(text, "\n")
  f:close()
end
function Div(d)
  if not d.classes:includes("listing") then
    return nil
  end
  n = n + 1
  put(n .. ".label", pandoc.utils.stringify(d.content[1]))
  local rest = pandoc.List()
  for i = 2, #d.content do
    rest:insert(d.content[i])
  end
  if d.content[2] and d.content[2].t == "CodeBlock" then
    local c = d.content[2]
    put(n .. ".text", c.text)
    put(n .. ".class", table.concat(c.classes, " "))
    put(n .. ".start", c.attributes.startFrom or "")
  else
    put(n .. ".text", pandoc.write(pandoc.Pandoc(rest), "html"))
  end
end
EOF

ktap_begin book-filter
ok() { ktap_result 0 "$1"; }
not_ok() { ktap_fail_text "$@"; } # description [detail]

# render NAME BLOCK [QSL_TOP]: the block through pandoc and the filters;
# sets rc, leaves stderr in $err and the listings in $out/.
render() {
	out=$tmp/$1
	err=$out/stderr
	mkdir -p "$out"
	printf '%s\n```\n' "$2" >"$out/$1.md"
	rc=0
	(cd "$out" && QSL_TOP=${3:-$TOP} DUMP=$out pandoc --lua-filter "$filter" \
		--lua-filter "$tmp/dump.lua" -t html -o /dev/null "$1.md") 2>"$err" || rc=$?
}

# select NAME DESCRIPTION BLOCK EXPECTED-FILE [LABEL]: the block renders,
# its one listing is EXPECTED-FILE's text, and its label is LABEL.
select_case() {
	render "$1" "$3"
	if [ "$rc" -ne 0 ]; then
		not_ok "$2" "pandoc failed (exit $rc): $(cat "$err")"
	elif [ ! -f "$out/1.text" ]; then
		not_ok "$2" "no listing in the output"
	elif ! cmp -s "$4" "$out/1.text"; then
		not_ok "$2" "$(diff -u "$4" "$out/1.text" | head -20)"
	elif [ -n "${5:-}" ] && [ "$(cat "$out/1.label")" != "$5" ]; then
		not_ok "$2" "label: '$(cat "$out/1.label")', expected '$5'"
	else
		ok "$2"
	fi
}

# refuse NAME DESCRIPTION BLOCK MESSAGE: pandoc stops (non-zero exit) and
# its error contains MESSAGE and the chapter's name.
refuse() {
	render "$1" "$3"
	if [ "$rc" -eq 0 ]; then
		not_ok "$2" "pandoc succeeded; expected an error with: $4"
	elif ! grep -q -F -- "$4" "$err"; then
		not_ok "$2" "exit $rc, but the error lacks '$4': $(cat "$err")"
	elif ! grep -q -F -- "book: $1.md: " "$err"; then
		not_ok "$2" "exit $rc, but the error does not name the chapter $1.md: $(cat "$err")"
	else
		ok "$2"
	fi
}

# lines FILE A B: lines A to B of FILE, into $tmp/expect.
lines() {
	sed -n "$2,$3p" "$1" >"$tmp/expect"
}
# line_of FILE TEXT [AFTER]: the number of the first line after AFTER
# holding TEXT (fixed string).
line_of() {
	awk -v t="$2" -v a="${3:-0}" 'NR > a && index($0, t) { print NR; exit }' "$1"
}
# close_of FILE A: the first line from A on that is "}" at column 0.
close_of() {
	awk -v a="$2" 'NR >= a && /^}/ { print NR; exit }' "$1"
}

s1=steps/01-mcs-in-a-word/tree/kernel/locking/qspinlock.c
s2=steps/02-x86-enable/tree/kernel/locking/qspinlock.c
s3=steps/03-pending-bit/tree/kernel/locking/qspinlock.c
s5=steps/05-pending-test-and-set/tree/kernel/locking/qspinlock.c
s6=steps/06-xchg-tail/tree/kernel/locking/qspinlock.c
s7=steps/07-16bit-tail/tree/kernel/locking/qspinlock.c
p3=steps/03-pending-bit/0003-pending-bit.patch
p5=steps/05-pending-test-and-set/0005-pending-test-and-set.patch
for f in "$s1" "$s2" "$s3" "$s5" "$s6" "$s7" "$p3" "$p5"; do
	[ -f "$f" ] || die "$f is missing: the filter's test needs the steps' files"
done

# --- Selections -------------------------------------------------------

# function=: from the return type's line to the closing brace.
a=$(line_of "$s5" "static __always_inline bool try_set_pending(")
lines "$s5" "$a" "$(close_of "$s5" "$a")"
select_case function 'function="try_set_pending": the whole definition, labelled with the path' \
	"\`\`\`{.c include=\"$s5\" function=\"try_set_pending\"}" "$tmp/expect" \
	"$s5: try_set_pending()"

# comment="true": the comment block above comes too.
c=$(awk -v a="$a" 'NR < a && /^\/\*/ { c = NR } NR == a { print c; exit }' "$s5")
lines "$s5" "$c" "$(close_of "$s5" "$a")"
select_case comment 'function= comment="true": the comment block above the definition too' \
	"\`\`\`{.c include=\"$s5\" function=\"try_set_pending\" comment=\"true\"}" "$tmp/expect"

# from=/to= inside a function, with the file's line numbers.
f=$(line_of "$s6" "xchg_tail(lock, tail)")
t=$(awk -v a="$f" 'NR >= a && index($0, "}") { print NR; exit }' "$s6")
lines "$s6" "$f" "$t"
select_case from-to 'function= from= to=: the region from the one "xchg_tail(" line to the next "}"' \
	"\`\`\`{.c include=\"$s6\" function=\"queued_spin_lock_slowpath\" from=\"xchg_tail(\" to=\"}\" numbers=\"true\"}" \
	"$tmp/expect" "$s6: queued_spin_lock_slowpath(), from \"xchg_tail(\" to \"}\""
if [ "$rc" -eq 0 ] && [ "$(cat "$out/1.start")" = "$f" ] && grep -q -w numberLines "$out/1.class"; then
	ok "numbers=\"true\": numberLines, starting at the file's line $f"
else
	not_ok 'numbers="true": numberLines and startFrom' \
		"classes '$(cat "$out/1.class" 2>/dev/null)', startFrom '$(cat "$out/1.start" 2>/dev/null)', expected $f"
fi

# from= alone: one line of the whole file.
f=$(line_of "$s7" "#else /* _Q_PENDING_BITS == 1 */")
lines "$s7" "$f" "$f"
select_case from-alone 'from= alone, no function=: the one line of the file' \
	"\`\`\`{.c include=\"$s7\" from=\"#else /* _Q_PENDING_BITS == 1 */\"}" "$tmp/expect"

# from= and to= the same text: the one line (a row of a table).
f=$(line_of "$s6" "old = xchg_tail(lock, tail);")
lines "$s6" "$f" "$f"
select_case from-is-to 'from= to= with the same text: the one line that has it' \
	"\`\`\`{.c include=\"$s6\" from=\"old = xchg_tail(lock, tail);\" to=\"old = xchg_tail(lock, tail);\"}" "$tmp/expect"

# from= to= in the whole file.
f=$(line_of "$s7" "#if _Q_PENDING_BITS == 8")
t=$(line_of "$s7" "#endif /* _Q_PENDING_BITS == 8 */" "$f")
lines "$s7" "$f" "$t"
select_case from-to-file 'from= to=, no function=: the #if block of the whole file' \
	"\`\`\`{.c include=\"$s7\" from=\"#if _Q_PENDING_BITS == 8\" to=\"#endif\"}" "$tmp/expect"

# after=: the second definition, in the #else branch.
e=$(line_of "$s7" "#else /* _Q_PENDING_BITS == 1 */")
a=$(line_of "$s7" "xchg_tail(struct qspinlock *lock" "$e")
lines "$s7" "$a" "$(close_of "$s7" "$a")"
select_case after 'function= after=: the definition of xchg_tail() in the #else branch, not the first' \
	"\`\`\`{.c include=\"$s7\" function=\"xchg_tail\" after=\"#else /* _Q_PENDING_BITS == 1 */\"}" "$tmp/expect"

# hunk=: one hunk under its file's ---/+++ lines.
h=$(awk 'index($0, "static __always_inline bool try_set_pending(") { print NR; exit }' "$p5")
hs=$(awk -v h="$h" 'NR <= h && /^@@ / { s = NR } NR == h { print s; exit }' "$p5")
he=$(awk -v s="$hs" 'NR > s && /^(@@ |diff --git )/ { print NR - 1; found = 1; exit } END { if (!found) print NR }' "$p5")
{
	printf -- '--- a/kernel/locking/qspinlock.c\n+++ b/kernel/locking/qspinlock.c\n'
	sed -n "$hs,${he}p" "$p5"
} >"$tmp/expect"
select_case hunk 'hunk=: the one hunk with try_set_pending()'"'"'s definition, under its ---/+++ lines' \
	"\`\`\`{.diff include=\"$p5\" hunk=\"static __always_inline bool try_set_pending(\"}" "$tmp/expect" \
	"$p5: the hunk of kernel/locking/qspinlock.c with \"static __always_inline bool try_set_pending(\""

# hunk= with section="diff:PATH": the text is in three hunks, one of them
# in that file.
hs=$(awk '/^diff --git a\/include\/asm-generic\/qspinlock_types.h/ { on = 1 } /^diff --git a\/kernel/ { on = 0 }
	on && /^@@ / { s = NR } on && index($0, "_Q_LOCKED_PENDING_MASK") { print s; exit }' "$p3")
he=$(awk -v s="$hs" 'NR > s && /^(@@ |diff --git )/ { print NR - 1; exit }' "$p3")
{
	printf -- '--- a/include/asm-generic/qspinlock_types.h\n+++ b/include/asm-generic/qspinlock_types.h\n'
	sed -n "$hs,${he}p" "$p3"
} >"$tmp/expect"
select_case hunk-section 'hunk= section="diff:PATH": the search limited to one file'"'"'s hunks' \
	"\`\`\`{.diff include=\"$p3\" hunk=\"_Q_LOCKED_PENDING_MASK\" section=\"diff:include/asm-generic/qspinlock_types.h\"}" \
	"$tmp/expect"

# diff=: applied to the old function, the listing gives the new one, and
# its @@ lines carry the files' own line numbers.
extract() { # FILE: queued_spin_lock_slowpath() of FILE
	local a
	a=$(awk '/^void queued_spin_lock_slowpath\(/ { print NR; exit }' "$1")
	sed -n "$a,$(close_of "$1" "$a")p" "$1"
}
render diff "\`\`\`{.diff include=\"$s3\" function=\"queued_spin_lock_slowpath\" diff=\"$s2\"}"
if [ "$rc" -ne 0 ]; then
	not_ok 'diff=: the function'"'"'s diff from step 2 to step 3' "pandoc failed (exit $rc): $(cat "$err")"
else
	extract "$s2" >"$tmp/old.c"
	extract "$s3" >"$tmp/new.c"
	why=""
	[ "$(cat "$out/1.label")" = "kernel/locking/qspinlock.c: queued_spin_lock_slowpath(), step 2 → step 3" ] ||
		why="label: $(cat "$out/1.label")"
	[ "$(sed -n 1p "$out/1.text")" = "--- $s2" ] && [ "$(sed -n 2p "$out/1.text")" = "+++ $s3" ] ||
		why="$why; the ---/+++ lines are not the paths: $(head -2 "$out/1.text")"
	patch -s -o "$tmp/patched.c" "$tmp/old.c" <"$out/1.text" >"$tmp/patch.log" 2>&1 ||
		why="$why; patch(1) refuses the listing: $(cat "$tmp/patch.log")"
	cmp -s "$tmp/patched.c" "$tmp/new.c" || why="$why; patching the old function does not give the new one"
	# The first hunk: its old and new start lines are the files' own.
	read -r o c < <(sed -n 's/^@@ -\([0-9]*\)[0-9,]* +\([0-9]*\).*/\1 \2/p' "$out/1.text" | head -1)
	first_old=$(awk '/^@@ /{ on = 1; next } on && /^[ -]/ { print substr($0, 2); exit }' "$out/1.text")
	first_new=$(awk '/^@@ /{ on = 1; next } on && /^[ +]/ { print substr($0, 2); exit }' "$out/1.text")
	[ "$(sed -n "${o}p" "$s2")" = "$first_old" ] && [ "$(sed -n "${c}p" "$s3")" = "$first_new" ] ||
		why="$why; the first @@ line (-$o +$c) is not at the files' own lines"
	if [ -z "$why" ]; then
		ok 'diff=: the listing patches step 2'"'"'s queued_spin_lock_slowpath() into step 3'"'"'s; @@ lines are file lines'
	else
		not_ok 'diff=: the function'"'"'s diff from step 2 to step 3' "${why#; }"
	fi
fi

# .markdown with from=: one row of a pipe table keeps the table's header.
mkdir -p "$tmp/top"
printf '%s\n' 'Some text.' '' '| stage | verdict |' '|:--|:--|' '| step-1 | PASS |' '| step-2 | FAIL |' >"$tmp/top/table.md"
render markdown-row "\`\`\`{.markdown include=\"table.md\" from=\"| step-2 \"}" "$tmp/top"
if [ "$rc" -eq 0 ] && grep -q '>stage</th>' "$out/1.text" && grep -q '>step-2</td>' "$out/1.text" &&
	! grep -q 'step-1' "$out/1.text"; then
	ok '.markdown from=: one row of a table, under the table'"'"'s header'
else
	not_ok '.markdown from=: one row of a table, under the table'"'"'s header' \
		"exit $rc: $(cat "$err" "$out/1.text" 2>/dev/null)"
fi

# --- Misuse: each stops pandoc with a message ----------------------------

refuse hunk-none 'hunk= on no hunk: an error' \
	"\`\`\`{.diff include=\"$p5\" hunk=\"no_such_identifier_anywhere\"}" \
	'no hunk has a line with "no_such_identifier_anywhere"'
refuse hunk-two 'hunk= on two hunks: an error naming both' \
	"\`\`\`{.diff include=\"$p3\" hunk=\"_Q_LOCKED_PENDING_MASK\" section=\"diff:kernel/locking/qspinlock.c\"}" \
	'2 hunks of kernel/locking/qspinlock.c have a line with "_Q_LOCKED_PENDING_MASK"'
l1=$(line_of "$s6" "old = atomic_cmpxchg(&lock->val, val, new);" "$(line_of "$s6" "void queued_spin_lock_slowpath(")")
l2=$(line_of "$s6" "old = atomic_cmpxchg(&lock->val, val, new);" "$l1")
refuse from-twice 'from= on two lines of the function: an error listing them' \
	"\`\`\`{.c include=\"$s6\" function=\"queued_spin_lock_slowpath\" from=\"old = atomic_cmpxchg(\"}" \
	"from=\"old = atomic_cmpxchg(\" is on 2 lines of queued_spin_lock_slowpath() (the function at lines $(line_of "$s6" "void queued_spin_lock_slowpath(")-$(close_of "$s6" "$l1")): $l1, $l2;"
refuse from-none 'from= on no line: an error' \
	"\`\`\`{.c include=\"$s6\" function=\"queued_spin_lock_slowpath\" from=\"no_such_text(\"}" \
	'from="no_such_text(" is on no line of queued_spin_lock_slowpath()'
refuse to-missing 'to= not after from=: an error' \
	"\`\`\`{.c include=\"$s6\" function=\"xchg_tail\" from=\"xchg_tail(\" to=\"no_such_text\"}" \
	'to="no_such_text" is on no line of xchg_tail()'
refuse to-alone 'to= without from=: an error' \
	"\`\`\`{.c include=\"$s6\" function=\"xchg_tail\" to=\"}\"}" \
	'to= needs from='
refuse after-none 'after= on no line: an error' \
	"\`\`\`{.c include=\"$s7\" function=\"xchg_tail\" after=\"#if NO_SUCH_BRANCH\"}" \
	'after="#if NO_SUCH_BRANCH" is on no line of the file'
refuse after-twice 'after= on two lines: an error' \
	"\`\`\`{.c include=\"$s7\" function=\"xchg_tail\" after=\"_Q_PENDING_BITS == 8\"}" \
	'after="_Q_PENDING_BITS == 8" is on '"$(grep -c -F "_Q_PENDING_BITS == 8" "$s7")"' lines of the file'
refuse after-nodef 'after= with no definition after it: an error' \
	"\`\`\`{.c include=\"$s7\" function=\"try_set_pending\" after=\"#endif /* _Q_PENDING_BITS == 8 */\"}" \
	'no definition of try_set_pending() after the line with after='
refuse diff-same 'diff= of a function that did not change: an error, not an empty listing' \
	"\`\`\`{.diff include=\"$s2\" function=\"decode_tail\" diff=\"$s1\"}" \
	'the function is the same in'
refuse unknown 'an unknown attribute: an error' \
	"\`\`\`{.c include=\"$s6\" function=\"xchg_tail\" line=\"3\"}" \
	'unknown attribute line="3"'
refuse lines 'lines= (removed): an error saying what to use' \
	"\`\`\`{.c include=\"$s6\" lines=\"1-10\"}" \
	'lines= is gone: select by content, with function="NAME" or from="TEXT" to="TEXT"'
refuse occurrence 'occurrence= (removed): an error saying what to use' \
	"\`\`\`{.c include=\"$s7\" function=\"xchg_tail\" occurrence=\"2\"}" \
	'occurrence= is gone: use after="TEXT"'
refuse optional 'optional= (removed): an error' \
	"\`\`\`{.c include=\"steps/99-none/x.c\" optional=\"true\"}" \
	'optional= is gone'
refuse no-file 'a missing file: an error' \
	"\`\`\`{.c include=\"steps/99-none/x.c\"}" \
	'no such file (include="steps/99-none/x.c")'
refuse no-function 'a missing function: an error' \
	"\`\`\`{.c include=\"$s6\" function=\"no_such_function\"}" \
	'no definition of no_such_function()'

# Chapters are named, never numbered (book/index.md): a step's chapter is
# table=: a recorded trace's whole table, however many rows it has.
trace=book/runs/exp-no-wmb-claim.txt
rows=$(grep -c '^|' "$trace")
mkdir -p "$tmp/table"
# shellcheck disable=SC2016 # backticks of a Markdown fence, not a command
printf '```{.markdown include="%s" table="| # | CPU |"}\n```\n' "$trace" >"$tmp/table/table.md"
if got=$(cd "$tmp/table" && QSL_TOP=$TOP pandoc --lua-filter "$filter" -t html table.md 2>&1) &&
	[ "$(printf '%s' "$got" | grep -c '<tr')" -eq $((rows - 1)) ]; then
	ok ".markdown table=: the whole trace table of $trace ($((rows - 2)) rows and its header)"
else
	not_ok ".markdown table=: the whole trace table of $trace" "expected $((rows - 1)) <tr>, got: $(printf '%s' "$got" | grep -c '<tr')"
fi
refuse table-listing 'table= on a listing, not a .markdown block: an error' \
	"\`\`\`{.text include=\"$trace\" table=\"| # | CPU |\"}" \
	'table= selects a pipe table'

# .recorded: a number the prose quotes must be what the file holds.
held=$(sed -n '3s/.*(execution \([0-9]*\),.*/\1/p' "$trace")
mkdir -p "$tmp/recorded"
printf 'It fails at execution [%s]{.recorded file="%s" find="%%(execution (%%d+),"}.\n' \
	"$(printf "%'d" "$held" 2>/dev/null || echo "$held")" "$trace" >"$tmp/recorded/recorded.md"
if got=$(cd "$tmp/recorded" && QSL_TOP=$TOP pandoc --lua-filter "$filter" -t plain recorded.md 2>&1) &&
	printf '%s' "$got" | grep -q "execution [0-9,]*$((held % 10))\."; then
	ok ".recorded: the number $trace holds ($held) renders as written"
else
	not_ok ".recorded: the number $trace holds ($held) renders" "$got"
fi
refuse recorded-stale 'a .recorded number the file no longer holds: an error that says what it holds' \
	"It fails at execution [$((held + 1))]{.recorded file=\"$trace\" find=\"%(execution (%d+),\"}." \
	"where the file holds \"$held\""
refuse recorded-nomatch 'a .recorded find= that matches nothing: an error' \
	"It fails at [1]{.recorded file=\"$trace\" find=\"no such text (%d+)\"}." \
	'matches nothing in the file'

# [step](X.html), whose number is the step column of book/chapters.tsv;
# "chapter N", linked or typed, stops the build.
refuse chapter-link 'a link that says "chapter": an error' \
	'See [chapter](step6-xchg-tail.html).' \
	'names a chapter by its number'
refuse chapter-number 'a chapter link with its number written by hand: an error' \
	'See [chapter 7](step6-xchg-tail.html).' \
	'names a chapter by its number'
refuse chapter-typed 'a chapter number typed in a sentence: an error' \
	'As chapter 7 says, it hangs.' \
	'"chapter 7" names a chapter by its number'
step=$(awk -F'\t' '!/^#/ && $1 == "step6-xchg-tail.md" { print $2 }' "$TOP/book/chapters.tsv")
other=$((step + 1))
refuse step-wrong 'a link that says another step than its chapter'"'"'s: an error' \
	"See [step $other's table](step6-xchg-tail.html)." \
	"says step $other, but step6-xchg-tail.html is step $step's"
refuse step-none 'a [step] link to a chapter of no step: an error' \
	'See [step](upstream.html).' \
	'upstream.html is no step'"'"'s chapter'
mkdir -p "$tmp/step-link"
printf 'See [step](step6-xchg-tail.html#the-repair) and [Step %s'"'"'s table](step6-xchg-tail.html).\n' "$step" >"$tmp/step-link/step-link.md"
if got=$(cd "$tmp/step-link" && QSL_TOP=$TOP pandoc --lua-filter "$filter" -t html step-link.md 2>&1) &&
	printf '%s' "$got" | grep -q -F ">step $step</a>" &&
	printf '%s' "$got" | grep -q -F ">Step $step’s table</a>"; then
	ok "a [step] link gets its number from book/chapters.tsv (step6-xchg-tail.md: step $step), and one that says it is kept"
else
	not_ok "a [step] link gets its number from book/chapters.tsv" "expected 'step $step', got: $got"
fi

ktap_end
