#!/bin/bash
# lab-scale-topology.sh: make lab-scale's one probe of the host (the
# cores it pins one thread to, and their sockets) reads sysfs as it
# should.  Fake trees under QSL_SYSFS: two packages of two cores with two
# threads each (4 cores, 2 sockets), one package of the same (2 cores, 1
# socket), and CPUs without topology files (each a core of its own in
# socket 0), and six threads of one package on four cores (core ids that
# repeat are one core, not two).
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# tree NAME "CPU:PACKAGE:CORE ...": a fake sysfs root
tree() {
	local t
	for t in $2; do
		mkdir -p "$tmp/$1/devices/system/cpu/cpu${t%%:*}/topology"
		[ "${t#*:}" != "-" ] || continue
		IFS=: read -r _ p c <<<"$t"
		echo "$p" >"$tmp/$1/devices/system/cpu/cpu${t%%:*}/topology/physical_package_id"
		echo "$c" >"$tmp/$1/devices/system/cpu/cpu${t%%:*}/topology/core_id"
	done
}
tree two-sockets "0:0:0 1:0:1 2:1:0 3:1:1 4:0:0 5:0:1 6:1:0 7:1:1"
tree one-socket "0:0:0 1:0:1 2:0:0 3:0:1"
tree no-topology "0:- 1:- 2:-"
tree same-package "0:0:0 1:0:1 2:0:0 3:0:1 4:0:2 5:0:3"

ktap_begin lab-scale-topology
expect() { # NAME WANT
	local got
	got=$(QSL_SYSFS=$tmp/$1 "$TOP/common/lab/lab-scale.sh" --topology 2>&1 | tail -1)
	if [ "$got" = "$2" ]; then
		ktap_result 0 "$1: $got"
	else
		ktap_fail_text "$1: '$got', expected '$2'" ""
	fi
}
expect two-sockets "cores=4 sockets=2"
expect one-socket "cores=2 sockets=1"
expect no-topology "cores=3 sockets=1"
expect same-package "cores=4 sockets=1"
ktap_end
