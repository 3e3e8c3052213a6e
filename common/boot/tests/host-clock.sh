#!/bin/bash
# The host's clock, through its one probe (lib.sh's host_tsc_khz) pointed
# at fake files: an x86_64 guest under TCG is told the host's TSC rate
# (tsc_early_khz=) when the host has a constant TSC, and left to calibrate
# when it has none or when KVM runs it.  On this host, if it has one, the
# measurement (common/boot/tsc-khz.c) gives a plausible rate, twice
# the same within 0.1%.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf 'flags\t\t: fpu tsc constant_tsc sse2\n' >"$scratch/cpuinfo"
printf 'flags\t\t: fpu tsc sse2\n' >"$scratch/cpuinfo-drifting"
ktap_begin host-clock

# append CPUINFO ACCEL: the -append line qemu/x86_64.sh builds with the
# fake measurement 1234567 kHz.
append() {
	(
		QSL_PROC_CPUINFO=$1 QSL_HOST_TSC_KHZ=1234567 ACCEL=$2
		KERNEL_OBJ=/nonexistent INITRD=/nonexistent CPUS=4 APPEND=qsl.mode=test
		# shellcheck source=qemu/x86_64.sh
		. "$TOP/qemu/x86_64.sh"
		local i
		for i in "${!QEMU_ARGS[@]}"; do
			[ "${QEMU_ARGS[$i]}" != -append ] || printf '%s\n' "${QEMU_ARGS[$((i + 1))]}"
		done
	)
}
# expect_append NAME CPUINFO ACCEL yes|no
expect_append() {
	local line
	line=$(append "$2" "$3")
	case $4:$line in
	yes:*" tsc_early_khz=1234567 "* | no:*)
		if [ "$4" = no ] && [[ $line == *tsc_early_khz* ]]; then
			ktap_fail_text "$1: the guest was given a TSC rate" "$line"
		else
			ktap_result 0 "$1: $line"
		fi
		;;
	*) ktap_fail_text "$1: the guest was not given the host's TSC rate" "$line" ;;
	esac
}
expect_append "a host with a constant TSC, TCG: the guest is told its rate" \
	"$scratch/cpuinfo" tcg,thread=multi yes
expect_append "a host without constant_tsc: the guest calibrates" \
	"$scratch/cpuinfo-drifting" tcg,thread=multi no
expect_append "KVM: the guest's TSC is KVM's to describe" \
	"$scratch/cpuinfo" kvm no

# This host.
if ! grep -qsE '^flags.*\bconstant_tsc\b' /proc/cpuinfo || [ "$(uname -m)" != x86_64 ]; then
	ktap_result 0 "this host's TSC # SKIP no constant TSC on an x86_64 host here: its guests calibrate their own"
else
	a=$(host_tsc_khz) b=$(host_tsc_khz)
	if ! [[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]]; then
		ktap_fail_text "this host's TSC: the measurement gave no rate" "first: '$a', second: '$b'"
	elif [ "$a" -lt 100000 ] || [ "$a" -gt 10000000 ]; then
		ktap_fail_text "this host's TSC: $a kHz is not a rate a TSC runs at (0.1 to 10 GHz)" ""
	elif [ $(((a > b ? a - b : b - a) * 1000)) -gt "$a" ]; then
		ktap_fail_text "this host's TSC: two measurements differ by more than 0.1%" "$a kHz, then $b kHz"
	else
		ktap_result 0 "this host's TSC: $a kHz, then $b kHz"
	fi
fi
ktap_end
