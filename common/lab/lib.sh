# shellcheck shell=bash
# The userspace lab's shared part: how a step's lock code is compiled into
# a lab program and how a stress run is started and judged.  Sourced by
# lab.sh (every step and variant), lab-mutants.sh (the mutants' kill
# table), lab-bench.sh (the host benchmark) and lab-uncontended.sh (its
# binaries' instruction counts), after lib.sh.
#
# Set before calling run: ms_x86 max_x86 ms_sparc max_sparc grace (run
# lengths in ms, see lab.c's -d, -D and -w) and thr_x86 thr_sparc.

"$TOP/common/harness/deps.sh" lab
if command -v qemu-sparc64-static >/dev/null; then
	QEMU_SPARC64=qemu-sparc64-static
elif command -v qemu-sparc64 >/dev/null; then
	QEMU_SPARC64=qemu-sparc64
else
	die "no qemu-sparc64-static or qemu-sparc64 on PATH after installing qemu-user-static"
fi

LAB=$BUILD/lab
mkdir -p "$LAB"
LABSRC=$TOP/common/lab

# Compiler flags.  The kernel builds with -fno-strict-aliasing and
# -fno-strict-overflow, and the lock code relies on the latter: at the
# highest CPU id, encode_tail()'s (cpu + 1) << _Q_TAIL_CPU_OFFSET shifts a
# one into the sign bit of an int.  -Werror: every warning is either fixed
# or silenced here with its reason.  The only one:
#  -Wno-unused-parameter  the kernel does not enable it (-Wextra is W=1
#                         material); from step 7 the pending-byte variant
#                         of clear_pending_set_locked() ignores the
#                         lock word it is given, which its one-bit twin
#                         needs, and from step 9 the generic
#                         virt_spin_lock(), in a header every object of
#                         the lab includes, ignores its lock.
CFLAGS=(-std=gnu11 -O2 -g -pthread -Wall -Wextra -Werror -Wno-unused-parameter
	-fno-strict-aliasing -fno-strict-overflow)

# lab_flags TREE VARIANT ARCH OUT [extra cflags...]: sets the arrays FLAGS
# (compiler flags for the step's headers under TREE) and the variable CC,
# and records in OUT/build.log which <asm/qspinlock.h> is used.
lab_flags() {
	local t=$1 variant=$2 arch=$3 out=$4 nr asmdir
	shift 4
	case $variant in
	nr64) nr=64 ;;
	nr16k) nr=16384 ;;
	*) die "lab: unknown variant $variant" ;;
	esac
	FLAGS=("${CFLAGS[@]}" "-DCONFIG_NR_CPUS=$nr")
	case $arch in
	x86_64)
		CC=gcc
		asmdir=$t/arch/x86/include
		;;
	sparc64)
		CC=sparc64-linux-gnu-gcc
		asmdir=$t/arch/sparc/include
		FLAGS+=(-DCONFIG_CPU_BIG_ENDIAN=1)
		;;
	esac
	# The architecture's own <asm/qspinlock.h> from the step when it has
	# one (x86 from step 2, sparc64 from step 8), else the generic shim.
	if [ -f "$asmdir/asm/qspinlock.h" ]; then
		echo "asm/qspinlock.h: ${asmdir#"$TOP"/}" >"$out/build.log"
	else
		asmdir=$SHIMSRC/generic
		echo "asm/qspinlock.h: common/checker/shim/generic (generic shim)" >"$out/build.log"
	fi
	FLAGS+=("$@" -I "$SHIMSRC/include" -I "$asmdir" -I "$t/include"
		-iquote "$t/kernel/locking")
}

# lab_compile OUT SRC OBJ FLAGS...: one compile, logged in OUT/build.log.
lab_compile() {
	local out=$1 src=$2 obj=$3
	shift 3
	work_starts "a lab compile"
	echo "+ $CC $* -c ${src#"$TOP"/}" >>"$out/build.log"
	"$CC" "$@" -c "$src" -o "$obj" >>"$out/build.log" 2>&1
}

# bench_link O QSPINLOCK.C WHAT: O/bench from QSPINLOCK.C and bench.c
# with FLAGS and CC (lab_flags, or bench_build_today's), and ticket.c
# against the pristine tree's headers; stops, naming WHAT and the log,
# if it does not compile.  -Wno-pointer-sign for ticket.c as in the
# kernel's Makefile: the ticket lock's trylock passes its u32 to
# atomic_try_cmpxchg()'s int *.
bench_link() {
	local o=$1 src=$2 what=$3 tflags
	tflags=("${CFLAGS[@]}" -Wno-pointer-sign -DCONFIG_NR_CPUS=64 -I "$SHIMSRC/include" -I "$PRISTINE/include")
	if ! { lab_compile "$o" "$src" "$o/qspinlock.o" "${FLAGS[@]}" &&
		lab_compile "$o" "$LABSRC/bench.c" "$o/bench.o" "${FLAGS[@]}" &&
		lab_compile "$o" "$LABSRC/ticket.c" "$o/ticket.o" "${tflags[@]}" &&
		"$CC" -static -pthread -o "$o/bench" "$o/qspinlock.o" "$o/bench.o" "$o/ticket.o" >>"$o/build.log" 2>&1; }; then
		grep -m3 -E 'error|warning' "$o/build.log" >&2 || true
		die "the benchmark of $what does not compile (log: ${o#"$TOP"/}/build.log)"
	fi
}

# bench_build DIR [STEP...]: the host benchmark (common/lab/bench.c) of
# every step with a queued spinlock, or of the STEPs given (numbers), one
# binary a step in DIR/bench-NN/bench: the step's qspinlock.c and bench.c
# compiled as the stress program is (nr64, x86_64), and ticket.c against
# the pristine tree's headers.  Sets the arrays BENCH_LOCKS (step-N ...)
# and BENCH_BINS (their binaries, in the same order); stops if one does
# not compile.  lab-bench.sh times these binaries, lab-uncontended.sh
# counts their instructions.
bench_build() {
	local dir=$1 d n o
	shift
	"$TOP/common/boot/pristine.sh"
	BENCH_LOCKS=() BENCH_BINS=()
	for d in $(step_dirs); do
		[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
		n=$((10#$(basename "$d" | cut -c1-2)))
		[ $# -eq 0 ] || case " $* " in *" $n "*) ;; *) continue ;; esac
		o=$(printf '%s/bench-%02d' "$dir" "$n")
		rm -rf "$o"
		mkdir -p "$o"
		lab_flags "$d/tree" nr64 x86_64 "$o"
		bench_link "$o" "$d/tree/kernel/locking/qspinlock.c" "step $n"
		BENCH_LOCKS+=("step-$n")
		BENCH_BINS+=("$o/bench")
	done
	[ ${#BENCH_BINS[@]} -gt 0 ] || die "no step has a queued spinlock${1:+ among steps $*}"
}

# bench_build_today DIR: the host benchmark of 6.1's own queued spinlock
# ("today") in DIR/bench-today/bench, and its path in BENCH_TODAY_BIN; stops
# if it does not compile.  Compiled as a step's is (x86_64, nr64, the shim
# first), from the pristine tree, unmodified: kernel/locking/qspinlock.c
# (with its qspinlock_stat.h, lock_events.h, mcs_spinlock.h, as quoted
# includes) and x86's own asm/qspinlock.h with the asm-generic
# qspinlock.h and qspinlock_types.h, so the fast paths, the LOCK BTSL of
# queued_fetch_set_pending_acquire(), _Q_PENDING_LOOPS (512) and the
# slowpath are 6.1's.  Unlike a step's tree, the pristine include/ and
# arch/x86/include/ are the whole kernel's, so they are not on the path:
# those four headers (and asm/rmwcc.h, which the x86 one includes) are
# copied into DIR/bench-today/include, and what else they take from the
# kernel comes from common/lab/today/ (LOCK_PREFIX and CC_SET/CC_OUT,
# prefetchw) and the lock checker's common/checker/today/ (empty
# mutex.h, byteorder.h, trace/events/lock.h; vc-today.h: 6.1's
# atomic_try_cmpxchg_acquire() and the like on the shim's atomics),
# force-included by common/lab/today/lab-today.h.  -Wno-pointer-sign as in
# the kernel's Makefile: 6.1's slowpath passes its u32 to
# atomic_try_cmpxchg_relaxed()'s int *.  Not used by lab-uncontended.sh,
# whose recorded counts have no today row.
bench_build_today() {
	local dir=$1 o f
	"$TOP/common/boot/pristine.sh"
	o=$dir/bench-today
	rm -rf "$o"
	mkdir -p "$o/include/asm" "$o/include/asm-generic"
	for f in arch/x86/include/asm/qspinlock.h arch/x86/include/asm/rmwcc.h; do
		cp "$PRISTINE/$f" "$o/include/asm/"
	done
	for f in include/asm-generic/qspinlock.h include/asm-generic/qspinlock_types.h; do
		cp "$PRISTINE/$f" "$o/include/asm-generic/"
	done
	CC=gcc
	FLAGS=("${CFLAGS[@]}" -Wno-pointer-sign -DCONFIG_NR_CPUS=64 -I "$LABSRC/today"
		-I "$o/include" -I "$SHIMSRC/include" -I "$TOP/common/checker/today"
		-iquote "$PRISTINE/kernel/locking" -include lab-today.h)
	echo "asm/qspinlock.h: ${PRISTINE#"$TOP"/}/arch/x86/include (6.1's own, copied to ${o#"$TOP"/}/include)" >"$o/build.log"
	bench_link "$o" "$PRISTINE/kernel/locking/qspinlock.c" "6.1's own lock (today)"
	# shellcheck disable=SC2034 # read by lab-bench.sh
	BENCH_TODAY_BIN=$o/bench
}

# build TREE VARIANT ARCH NAME [extra cflags...]: the stress program of
# the lock code under TREE (a steps/NN-*/tree, or a mutant's tree) in
# build/lab/NAME; prints its path, or a FAIL reason (and returns 1).
build() {
	local t=$1 variant=$2 arch=$3 name=$4 out stamp
	shift 4
	out=$LAB/$name
	mkdir -p "$out"
	lab_flags "$t" "$variant" "$arch" "$out" "$@"
	FLAGS+=("${DEPFLAGS[@]}")
	# built again only when a source, header or flag changed (up_to_date);
	# the last run's verdict goes either way
	stamp=$(build_stamp "$CC" "${FLAGS[@]}" "$t")
	rm -f "$out/verdict" "$out/reason" "$out/run.log"
	if up_to_date "$out/lab" "$stamp" "$t/kernel/locking/qspinlock.c" "$LABSRC/lab.c"; then
		echo "$out/lab"
		return 0
	fi
	# lab_flags above began build.log; the old build's products go
	rm -f "$out"/*.o "$out"/*.d "$out/lab" "$out/lab.stamp"
	{
		lab_compile "$out" "$t/kernel/locking/qspinlock.c" "$out/qspinlock.o" "${FLAGS[@]}" &&
			lab_compile "$out" "$LABSRC/lab.c" "$out/lab.o" "${FLAGS[@]}" &&
			"$CC" -static -pthread -o "$out/lab" "$out/qspinlock.o" "$out/lab.o" >>"$out/build.log" 2>&1 &&
			echo "$stamp" >"$out/lab.stamp"
	} || {
		echo "does not compile: $(grep -m1 -E 'error|warning' "$out/build.log" || tail -1 "$out/build.log") (log: ${out#"$TOP"/}/build.log)"
		return 1
	}
	echo "$out/lab"
}

# lab_verdict BIN: the verdict file of BIN's last run (PASS, FAIL, ERROR).
lab_verdict() { run_file "$(dirname "$1")" verdict; }

# run BIN ARCH TAG REQUIRED: runs the driver and prints its verdict line.
# Like a boot's run directory, the binary's directory then holds
#   verdict  PASS, FAIL (the lock failed) or ERROR (the harness could not
#            run the program: never a kill)
#   reason   one line: what failed, or the PASS line's counters
#   run.log  the command and everything the driver printed
# Consumers read those files, never the sentence.  A run that started
# (its first line, the layout, was printed) and ended without a verdict
# (a hang past its limit, a crash of the lock's program) is a FAIL; one
# that never started (no such program, not executable, the emulator
# missing or dying before the driver printed anything) is an ERROR.
# shellcheck disable=SC2154 # the run lengths are set by the sourcing script
run() {
	local bin=$1 arch=$2 tag=$3 req=$4 ms max thr log v rc
	local cmd=()
	case $arch in
	x86_64) ms=$ms_x86 max=$max_x86 thr=$thr_x86 ;;
	sparc64) ms=$ms_sparc max=$max_sparc thr=$thr_sparc cmd=("$QEMU_SPARC64") ;;
	esac
	log=$(dirname "$bin")/run.log
	cmd+=("$bin" -n "$tag" -t "$thr" -d "$ms" -D "$max" -w "$grace" -r "$req")
	echo "+ ${cmd[*]}" >"$log"
	rc=0
	timeout -k 5 $((max / 1000 + grace + 30)) "${cmd[@]}" >>"$log" 2>&1 || rc=$?
	local dir verdict
	dir=$(dirname "$bin")
	if v=$(grep -E "^lab $tag: (PASS|FAIL)" "$log" | tail -1); then
		verdict=${v#lab "$tag": }
		verdict=${verdict%% *}
	elif ! grep -qE "^lab $tag: threads=" "$log"; then
		verdict=ERROR
		v="lab $tag: ERROR the program did not start, exit status $rc (log: ${log#"$TOP"/})"
	else
		verdict=FAIL
		case $rc in
		124 | 137) v="lab $tag: FAIL hang: no verdict within $((max / 1000 + grace + 30)) s, killed (log: ${log#"$TOP"/})" ;;
		*) v="lab $tag: FAIL no verdict line, exit status $rc (log: ${log#"$TOP"/})" ;;
		esac
	fi
	printf '%s\n' "$verdict" >"$dir/verdict"
	printf '%s\n' "${v#lab "$tag": "$verdict" }" >"$dir/reason"
	printf '%s\n' "$v"
}
