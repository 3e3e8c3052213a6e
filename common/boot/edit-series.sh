#!/bin/bash
# edit-series.sh: build/series-git, a git tree of the pristine kernel with one
# commit per step on top (tag "pristine" marks the base).  Edit a step with
# an interactive rebase there, then run `make export-series`.
set -eu
. "$(dirname "$0")/lib.sh"

GT=$BUILD/series-git
"$TOP/common/boot/pristine.sh"

if [ -d "$GT/.git" ]; then
	say "build/series-git exists already; it is left as it is"
	say "to start over from the committed patches: rm -rf build/series-git && make edit-series"
	exit 0
fi
say "copying the pristine tree into build/series-git (a real copy, not links)"
rm -rf "$GT.tmp"
cp -a "$PRISTINE" "$GT.tmp"
cd "$GT.tmp"
git init -q
git config user.name "qspinlock step by step"
git config user.email "tutorial@qspinlock.invalid"
say "committing the pristine tree (about 30 s)"
# Debian's .gitignore ignores the whole top level: add with -f.
git add -f -A .
git commit -q -m "Linux $KVER (Debian linux-source-6.1)"
git tag pristine
# Debian's .gitignore ignores every top-level directory, which would hide
# files a step creates.  Drop that rule in the work tree only.
sed -i '/^\/\*$/d; /^!\/debian\/$/d' .gitignore
git update-index --skip-worktree .gitignore
patches=()
series_into patches 99
for p in "${patches[@]}"; do
	say "applying $(basename "$p")"
	git am -q --keep-cr "$p" || die "git am failed on $p"
done
cd "$TOP"
mv "$GT.tmp" "$GT"
say "ready: build/series-git has $(git -C "$GT" rev-list --count pristine..HEAD) step commits"
echo "edit-series: OK"
