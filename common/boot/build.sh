#!/bin/bash
# build.sh N ARCH: configure and build step N's kernel for ARCH in
# build/src/NN/obj-ARCH (tinyconfig plus common/boot/config fragments), check
# that every requested option took effect, and show progress while building.
set -eu
. "$(dirname "$0")/lib.sh"
work_starts "a kernel build"

n=$(stage "$1")
arch=$2
check_arch "$arch"
nn=$(src_id "$n")
src=$BUILD/src/$nn
# The object tree is a direct child of the source tree: kbuild then uses
# relative paths (srctree = ..), so ccache hits across steps.
obj=$(obj_dir "$n" "$arch")
frag=$(matrix_fragment)
log=$(build_log "$n" "$arch")
mkdir -p "$BUILD/logs" "$obj"

kmake_args "$arch"
case $arch in
x86_64) targets=(bzImage modules) ;;
sparc64) targets=(vmlinux modules) ;;
esac
export KBUILD_BUILD_TIMESTAMP="Mon Mar 10 16:42:37 UTC 2014"
export KBUILD_BUILD_USER=qspinlock KBUILD_BUILD_HOST=step-by-step
jobs=$(($(nproc) + 1))

frags=("$TOP/common/boot/config/common.config" "$TOP/common/boot/config/$arch.config")
# the row's own fragments (common/boot/expect.tsv's config column), last: a
# later fragment's request for a symbol overrides an earlier one's
extra=$(expect_field "$n" "$arch" config)
for f in $(printf '%s' "${extra:--}" | tr ',' ' '); do
	[ "$f" != - ] || continue
	[ -f "$TOP/common/boot/config/$f.config" ] ||
		die "common/boot/expect.tsv asks step $(stage_step "$n") on $arch for the config fragment '$f', and there is no common/boot/config/$f.config"
	frags+=("$TOP/common/boot/config/$f.config")
done
# a row of the configuration matrix (make matrix): its fragment, last of all
[ -z "$frag" ] || frags+=("$MATRIX_DIR/$frag")
stamp=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.qsl-config" 2>/dev/null)" != "$stamp" ]; then
	say "configuring step $n for $arch: tinyconfig + ${frags[*]#"$TOP"/}"
	{
		make -C "$src" O="$obj" "${KMAKE[@]}" tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" &&
			make -C "$src" O="$obj" "${KMAKE[@]}" olddefconfig
	} >"$log" 2>&1 || die "configuring failed; see $log"
	echo "$stamp" >"$obj/.qsl-config"
fi

# merge_config drops requests Kconfig cannot meet without a word: check
# them, each symbol as its last fragment asks for it.
bad=""
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$obj/.config" || bad="$bad
       asked for $line, got: $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo 'not present')"
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" "$obj/.config" || bad="$bad
       asked for '$line', got: $(grep "^$sym=" "$obj/.config")"
		;;
	esac
done < <(cat "${frags[@]}" | awk '
	/^CONFIG_[A-Za-z0-9_]*=/ { sym = $0; sub(/=.*/, "", sym) }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { sym = $2 }
	!/^CONFIG_/ && !/^# CONFIG_.* is not set$/ { next }
	{ if (!(sym in last)) order[++n] = sym; last[sym] = $0 }
	END { for (i = 1; i <= n; i++) print last[order[i]] }')
if [ -n "$bad" ]; then
	rm -f "$obj/.qsl-config"
	die "the kernel configuration of step $n ($arch) lacks options the fragments request:$bad
       (a dependency is missing from the fragment, or the step's Kconfig changed)"
fi

# The progress line counts kbuild's steps (its "  CC", "  LD", ... lines)
# against the total of the last whole build of the same configuration on
# this machine, or, before there is one, the count of a whole build of
# this architecture on the reference machine (common/boot/README.md).
case $arch in
x86_64) total=1090 ;;
sparc64) total=1040 ;;
esac
total_file=$BUILD/logs/build-steps-$arch-${stamp:0:12}.total
t=$(cat "$total_file" 2>/dev/null) || t=
case $t in '' | *[!0-9]* | 0) ;; *) total=$t ;; esac
whole=0
[ -f "$obj/vmlinux" ] || whole=1
say "building step $n kernel for $arch with $jobs jobs (log: ${log#"$TOP"/})"
start=$(now)
set +e
make -C "$src" O="$obj" "${KMAKE[@]}" -j"$jobs" "${targets[@]}" >>"$log" 2>&1 &
pid=$!
log_lines=$(wc -l <"$log")
last=""
while kill -0 "$pid" 2>/dev/null; do
	sleep 10
	cnt=$(tail -n +"$((log_lines + 1))" "$log" 2>/dev/null | grep -c '^  [A-Z]')
	if [ "$cnt" != "$last" ]; then
		pct=$((cnt * 100 / total))
		[ "$pct" -le 99 ] || pct=99
		printf '    ... %4d s, %5d of about %d build steps (%2d%%)\n' "$(($(now) - start))" "$cnt" "$total" "$pct" >&2
	fi
	last=$cnt
done
wait "$pid"
rc=$?
set -e
# a whole build's count is the next build's total
[ "$rc" -ne 0 ] || [ "$whole" -eq 0 ] ||
	tail -n +"$((log_lines + 1))" "$log" | grep -c '^  [A-Z]' >"$total_file" || true
if [ "$rc" -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -20 >&2 || true
	die "building step $n for $arch failed (make exit $rc); full log: $log"
fi
say "built step $n for $arch in $(($(now) - start)) s"
"$TOP/common/boot/module.sh" "$n" "$arch"
