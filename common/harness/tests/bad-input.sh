#!/bin/bash
# Bad input stops at once with a clear message, before any build.  The
# real commands run, with QSL_INPUT_CHECK_ONLY=1: should a check regress,
# the command stops where its work would start (lib.sh's work_starts)
# and fails this test with that message, instead of starting a build.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"
export QSL_INPUT_CHECK_ONLY=1
# A scratch build directory: a command that gets as far as emptying its
# run directory must not touch a recorded run.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QSL_BUILD=$scratch/build
detail=$scratch/detail
ktap_begin bad-input
expect() { # message-substring make-args...
	local want=$1 out
	shift
	if out=$(env "$@" 2>&1); then
		printf '%s\n' "$out" >"$detail"
		ktap_result 1 "'$*' succeeded, expected an error" "$detail"
		return
	fi
	case $out in
	*"$want"*) ktap_result 0 "'$*' -> $(printf '%s' "$out" | grep -m1 error:)" ;;
	*)
		printf '%s\n' "$out" >"$detail"
		ktap_result 1 "'$*' did not say '$want'" "$detail"
		;;
	esac
}
expect "there is no step 42; valid steps: 0" make -s step-42
expect "'x' is not a step number; valid steps:" make -s step-x
expect "DURATION=abc is not a whole number" DURATION=abc make -s step-0
expect "DURATION=abc is not a whole number" DURATION=abc make -s soak
expect "DURATION=0 is out of range" DURATION=0 make -s test
expect "CPUS=0 is out of range" make -s step-0 CPUS=0
expect "CPUS=0 is out of range" QSL_CPUS=0 make -s step-0
expect "ARCH=arm64 is not supported" make -s step-0 ARCH=arm64
expect "there is no step 99" make -s diff-99
expect "there is no step 42; valid steps: $(valid_steps) today" BENCH_STAGES="0 42 today" make -s bench
expect "BENCH_STAGES must include today" BENCH_STAGES="0 7" make -s bench
expect "REPS=0 is out of range" REPS=0 make -s bench
expect "common/boot/matrix/ has no scenario 'nope' (scenarios: preempt" MATRIX_ROWS=nope make -s matrix
expect "there is no step 42; valid steps: 0" MATRIX_STAGES="8 42" make -s matrix
expect "BENCH_CPUS=9 is out of range" BENCH_CPUS="1 9" make -s bench
expect "MS=5 is out of range" make -s lab-bench MS=5
expect "MS=5 is out of range" QSL_MS=5 make -s lab-bench
expect "HOLD=0 THINK=0 is the heavy workload" make -s lab-bench HOLD=0 THINK=0
expect "there is no step 42; valid steps: 0" make -s verify-42
expect "unknown memory model 'lkmm'; valid models: sc tso weak" MODELS=lkmm make -s verify-6
expect "unknown configuration 'c9a9'; valid ones: c3a1" CONFIGS=c9a9 make -s verify-6
expect "unknown mutant 'nope'; valid: decode-tail-mask-rfc head-claim-no-rewait" MUTANTS=nope make -s verify-mutants
expect "step 0 has no queued spinlock; the checker runs steps with one: 1 2" make -s verify-0
expect "SIM_LOCKS: no lock 'nope'; valid: ticket ttas mcs step-1" SIM_LOCKS=nope make -s sim-bench
expect "SIM_N: 65 CPUs is out of range; valid: 1..64" SIM_N="2 65" make -s sim-bench
expect "SIM_HOLD must be a whole number of cycles, not 'ten'" SIM_HOLD=ten make -s sim-bench
expect "SIM_OCCUPANCY must be 1..100, not 0" SIM_OCCUPANCY=0 make -s sim-bench
expect "SIM_CYCLES must be a whole number of cycles (1000..100000000), not 'lots'" SIM_CYCLES=lots make -s sim-sockets
# KVM=1 on every kind of host, through the one probe (lib.sh's
# kvm_unusable) pointed at fake files: no /dev/kvm, one from the PVM
# module, one without vmx/svm; a host that can run KVM passes the check.
fake=$scratch/host
mkdir -p "$fake"
: >"$fake/kvm"
printf 'kvm_pvm 1 0 - Live 0x0\n' >"$fake/modules-pvm"
printf 'kvm_intel 1 0 - Live 0x0\n' >"$fake/modules"
printf 'flags\t\t: fpu sse2\n' >"$fake/cpuinfo-novmx"
printf 'flags\t\t: fpu vmx sse2\n' >"$fake/cpuinfo"
expect "KVM=1 but /dev/kvm is missing or not writable here" \
	QSL_DEV_KVM="$fake/none" KVM=1 make -s step-0
expect "KVM=1 but /dev/kvm comes from the PVM module kvm_pvm" \
	QSL_DEV_KVM="$fake/kvm" QSL_PROC_MODULES="$fake/modules-pvm" KVM=1 make -s step-0
expect "KVM=1 but this CPU has no vmx or svm flag" QSL_DEV_KVM="$fake/kvm" \
	QSL_PROC_MODULES="$fake/modules" QSL_PROC_CPUINFO="$fake/cpuinfo-novmx" KVM=1 make -s step-0
if (QSL_DEV_KVM="$fake/kvm" QSL_PROC_MODULES="$fake/modules" QSL_PROC_CPUINFO="$fake/cpuinfo" kvm_unusable) >"$detail"; then
	ktap_result 1 "a host with a writable /dev/kvm, kvm_intel and vmx was refused" "$detail"
else
	ktap_result 0 "a host with a writable /dev/kvm, kvm_intel and vmx passes the KVM probe"
fi
# This host: whatever the probe says of it, KVM=1 says the same.
if why=$(kvm_unusable); then
	expect "KVM=1 but $why" KVM=1 make -s step-0
fi
# Packages and users, through the probes (lib.sh's pkg_installed and
# host_is_root) pointed at a fake dpkg database with nothing installed:
# a user who is not root is given the one apt-get line, before anything
# would start; root would install (here: stops there).
mkdir -p "$fake/dpkg/info" "$fake/dpkg/updates"
: >"$fake/dpkg/status"
expect "install them with: sudo apt-get update && sudo apt-get install -y linux-source-6.1 gcc make" \
	QSL_DPKG_ADMINDIR="$fake/dpkg" QSL_UID=1000 make -s step-0
expect "installing linux-source-6.1 gcc make" QSL_DPKG_ADMINDIR="$fake/dpkg" QSL_UID=0 make -s step-0
# This host, as it is: every package make check needs is there.
if QSL_UID=1000 "$TOP/common/harness/deps.sh" kernel check book verify lab uncontended >"$detail" 2>&1; then
	ktap_result 0 "this host has every package make check needs (deps.sh as a user who is not root: nothing to install)"
else
	ktap_result 1 "deps.sh as a user who is not root found packages missing after make check installed them" "$detail"
fi
# An exported ARCH is the kernel's, not the project's: only the command line counts.
expect "there is no step 42; valid steps: 0" env ARCH=arm64 make -s step-42
expect "ARCH=arm64 is not supported" env ARCH=x86 make -s step-0 ARCH=arm64
expect "ARCH=arm64 is not supported" QSL_ARCH=arm64 make -s step-0
# So are CPUS, PLAN, MS, HOLD and THINK: exported under their own names they
# are ignored, and the command goes on to its work (here: stops there).
expect "would start now" env CPUS=0 PLAN=nope make -s step-0
expect "would start now" env MS=5 HOLD=0 THINK=0 make -s lab-bench
# A mutant is named in the stage, N+NAME, and checked before anything runs.
expect "there is no mutant 'nope' (common/boot/mutants/nope.patch); the mutants are: decode-tail-mask" make -s step-7+nope
expect "'Bad_Name' is not a mutant name" make -s step-7+Bad_Name
expect "mutants apply to steps, not to today's tree" make -s step-today+decode-tail-mask
expect "there is no step 42" make -s step-42+decode-tail-mask
expect "would start now" make -s step-7+decode-tail-mask
ktap_end
