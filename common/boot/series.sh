#!/bin/bash
# series.sh: write the whole series to build/series/, ready for
#   cd linux-6.1 && git am $(sed 's|^|/path/to/build/series/|' /path/to/build/series/series)
# on a pristine tree (or quilt: build/series/series lists the patches in
# order), with its cover letter, 0000-cover-letter.patch: the text of
# common/boot/series/cover-letter.txt (its first line the subject), then the
# shortlog of the patches and the diffstat of the whole series (each file
# from the pristine tree to the last step's snapshot), made here so that
# neither can drift from the patches.
set -eu
. "$(dirname "$0")/lib.sh"

letter=$TOP/common/boot/series/cover-letter.txt
[ -s "$letter" ] || die "series: $letter is missing"
"$TOP/common/boot/pristine.sh"
out=$BUILD/series
rm -rf "$out"
mkdir -p "$out"
patches=()
series_into patches 99
[ "${#patches[@]}" -gt 0 ] || die "series: no patches under steps/"
for p in "${patches[@]}"; do
	cp "$p" "$out/"
	basename "$p" >>"$out/series"
done
last=$(step_dir "$(valid_steps | tr ' ' '\n' | grep -v today | tail -1)")/tree
n=$((${#patches[@]} - 1))

# the diffstat: every file a patch touches, pristine -> last snapshot
# (/dev/null where the file does not exist at one end)
stat() {
	local f a b ins=0 del=0 files=0 i d
	while IFS= read -r f; do
		a=$PRISTINE/$f b=$last/$f
		[ -f "$a" ] || a=/dev/null
		[ -f "$b" ] || b=/dev/null
		[ "$a" != /dev/null ] || [ "$b" != /dev/null ] || continue
		# no output: the series leaves the file as it was
		read -r i d _ < <(git diff --no-index --numstat "$a" "$b" || true) || continue
		printf ' %-50s | %5d +%d -%d\n' "$f" $((i + d)) "$i" "$d"
		ins=$((ins + i)) del=$((del + d)) files=$((files + 1))
		i="" d=""
	done < <(patch_files "${patches[@]}" | grep -v '^/dev/null$')
	printf ' %d files changed, %d insertions(+), %d deletions(-)\n' "$files" "$ins" "$del"
}

{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: qspinlock step by step <tutorial@qspinlock.invalid>\n'
	printf 'Subject: [PATCH %02d/%02d] %s\n\n' 0 "$n" "$(head -1 "$letter")"
	tail -n +3 "$letter"
	echo
	printf 'qspinlock step by step (%d):\n' "${#patches[@]}"
	for p in "${patches[@]}"; do
		# the subject, its folded header lines joined
		awk '/^Subject: / { s = $0; on = 1; next }
			on && /^[ \t]/ { s = s $0; next }
			on { exit }
			END { sub(/^Subject: \[PATCH[^]]*\] /, "", s); gsub(/[ \t]+/, " ", s); print "  " s }' "$p"
	done
	echo
	stat
	echo
	echo "-- "
	echo "$KVER"
} >"$out/0000-cover-letter.patch"
say "${#patches[@]} patches and their cover letter in ${out#"$TOP"/}: apply with git am \$(sed 's|^|${out#"$TOP"/}/|' ${out#"$TOP"/}/series) on Linux $KVER"
echo "series: OK"
