#!/bin/bash
# deps.sh GROUP...: make sure the Debian packages a job needs are installed.
# As root, installs what is missing (apt-get update first); otherwise stops
# with the exact command to run.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

pkgs_for() {
	case $1 in
	kernel) echo "linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev perl ccache xz-utils cpio kmod git" ;;
	x86_64) echo "qemu-system-x86 qemu-system-data busybox-static" ;;
	sparc64) echo "gcc-sparc64-linux-gnu libc6-dev-sparc64-cross qemu-system-sparc" ;;
	check) echo "shellcheck perl gcc python3" ;;
	book) echo "pandoc graphviz patch" ;;
	screens) echo "chromium" ;;
	bench) echo "gnuplot-nox" ;;
	lab) echo "gcc gcc-sparc64-linux-gnu libc6-dev-sparc64-cross qemu-user-static" ;;
	# make lab-uncontended (and its test in make check): valgrind's callgrind
	# counts each lock's instructions on every machine, where perf stat needs
	# hardware counters a VM may not expose (this one does not); objdump
	# (binutils) finds the locked instructions among them
	uncontended) echo "valgrind binutils" ;;
	verify) echo "gcc binutils" ;;
	lint) echo "sparse" ;;
	# herdtools.sh: herdtools7 7.56.3 builds with Debian 12's OCaml alone
	herd) echo "ocaml-nox ocaml-dune menhir ocaml-findlib libmenhir-ocaml-dev" ;;
	*) die "deps.sh: unknown group '$1'" ;;
	esac
}

want=""
for g in "$@"; do
	want="$want $(pkgs_for "$g")"
done

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	pkg_installed "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

# Not root: the one command to run, before anything would start.
host_is_root || die "missing Debian packages:$missing
       install them with: sudo apt-get update && sudo apt-get install -y$missing"
work_starts "installing$missing"
mkdir -p "$BUILD/logs"
log=$BUILD/logs/apt.log
say "installing missing Debian packages:$missing (log: ${log#"$TOP"/})"
apt-get update -qq >>"$log" 2>&1 || {
	tail -5 "$log" >&2
	die "apt-get update failed; is the Debian archive reachable? (log: $log)"
}
# shellcheck disable=SC2086 # $missing is a list of package names
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >>"$log" 2>&1 || {
	tail -20 "$log" >&2
	die "apt-get install$missing failed (log: $log)"
}
say "installed:$missing"
