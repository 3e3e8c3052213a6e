#!/bin/bash
# export-series.sh: write each commit of build/series-git (pristine..HEAD)
# as the patch of its step, then regenerate every tree/ snapshot.
# Commit k becomes steps/NN-slug/NNNN-slug.patch of step k; a step beyond
# the existing directories needs SLUG_<k>=name, e.g. SLUG_9=my-step.
set -eu
. "$(dirname "$0")/lib.sh"

GT=$BUILD/series-git
[ -d "$GT/.git" ] || die "build/series-git does not exist; run make edit-series first"
git -C "$GT" rev-parse -q --verify pristine >/dev/null || die "build/series-git has no 'pristine' tag"
[ -z "$(git -C "$GT" status --porcelain --untracked-files=no)" ] ||
	die "build/series-git has uncommitted changes; commit them into their step first"

mapfile -t commits < <(git -C "$GT" rev-list --reverse pristine..HEAD)
k=0
for c in "${commits[@]}"; do
	nn=$(printf '%02d' "$k")
	d=$(find "$TOP/steps" -maxdepth 1 -name "$nn-*" | head -1)
	if [ -z "$d" ]; then
		var=SLUG_$k
		[ -n "${!var:-}" ] || die "no directory steps/$nn-*; set $var=slug to create one"
		d=$TOP/steps/$nn-${!var}
		mkdir -p "$d"
	fi
	slug=$(basename "$d" | cut -c4-)
	out=$d/$(printf '%04d' "$k")-$slug.patch
	find "$d" -maxdepth 1 -name '*.patch' -delete
	git -C "$GT" format-patch -q -1 --zero-commit --no-signature --abbrev=12 --stdout "$c" >"$out"
	say "step $k: $(git -C "$GT" log -1 --format=%s "$c") -> ${out#"$TOP"/}"
	k=$((k + 1))
done
"$TOP/common/boot/snapshot.sh"
echo "export-series: OK ($k patches)"
