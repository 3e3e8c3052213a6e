# shellcheck shell=bash
# The lock checker's shared part: how a step's lock code is compiled for
# the checker.  Sourced by verify.sh and verify-mutants.sh, after lib.sh,
# with OUT set (build/verify).

"$TOP/common/harness/deps.sh" verify

VSRC=$TOP/common/checker
# The cost model's part of the checker's program: cost.c, and the locks it
# compares with the steps (locks/).
COSTSRC=$TOP/common/costmodel

# As the lab compiles a step (common/lab/lib.sh), plus -fsanitize=
# thread on the lock code and its users: every access they make to memory
# becomes a call into the checker (-Wno-tsan: gcc warns that it cannot
# instrument fences; the checker supplies __tsan_atomic_thread_fence()).
# The generic atomic_test_and_set_bit(): the x86 one is inline assembly
# (LOCK BTS), which the instrumentation cannot see; both are a fully
# ordered read-modify-write of the bit.
CFLAGS=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -fno-strict-aliasing
	-fno-strict-overflow -fno-pie)
TSAN=(-fsanitize=thread -Wno-tsan -Wno-unused-parameter -DLAB_GENERIC_TEST_AND_SET_BIT)

# run_logged COMMAND...: run it, its command line first in the log.
run_logged() {
	echo "+ $*"
	"$@"
}

# The checker's sources, one file per part (checker.h says what each
# holds), and the cost model's machine, which the checker links; then the
# two command lines.  Each lock is linked twice: DIR/verify (main.c: the
# searches) and DIR/cost (cost-main.c: the cost model), the same machine.
CHECKER_SRCS=(common/checker/memory.c common/checker/models.c
	common/checker/tsan.c common/checker/program.c common/checker/explore.c
	common/checker/trace.c common/costmodel/cost.c common/costmodel/cost-run.c
	common/costmodel/host.c common/checker/main.c common/costmodel/cost-main.c)
# checker_objs: OBJS, the machine's objects (every source but the two
# command lines, which are the last two), in $OUT/checker/.
checker_objs() {
	local s
	OBJS=()
	for s in "${CHECKER_SRCS[@]::${#CHECKER_SRCS[@]}-2}"; do OBJS+=("$OUT/checker/$(basename "$s" .c).o"); done
}
# link_programs DIR OBJECT...: the lock's two programs from its objects
# (and gcc flags: --coverage) and the checker's.
link_programs() {
	local d=$1 OBJS
	shift
	checker_objs
	run_logged gcc -no-pie -o "$d/verify" "$@" "${OBJS[@]}" "$OUT/checker/main.o" &&
		run_logged gcc -no-pie -o "$d/cost" "$@" "${OBJS[@]}" "$OUT/checker/cost-main.o"
}
# cost_of VERIFY: the cost model's program, linked beside a lock's verify.
cost_of() { printf '%s/cost\n' "${1%/verify}"; }
# fresh_verify DIR STAMP: are DIR's programs up to date with STAMP and the
# checker's objects?  Prints the path of DIR/verify if so.
fresh_verify() {
	local OBJS
	checker_objs
	[ -x "$1/cost" ] && up_to_date "$1/verify" "$2" "${OBJS[@]}" "$OUT/checker/main.o" \
		"$OUT/checker/cost-main.o" && echo "$1/verify"
}

# checker_layouts STEP: the layouts the checker compiles STEP (a number,
# or today) in, one line: nr64, the lock as an x86 kernel below 16K CPUs
# builds it; nr16k where the step has the one-bit pending variant
# (common/boot/expect.tsv's variant column; 6.1's own lock has it too); virt
# where the step's x86_64 kernel is a guest kernel (the config column
# lists paravirt): CONFIG_PARAVIRT, with virt_spin_lock_key on, as a
# guest under a hypervisor without paravirt spinlocks runs it (nr64 is
# the same kernel on bare metal, the key off); pv where it lists pvspin:
# CONFIG_PARAVIRT_SPINLOCKS, the paravirt slowpath and unlock installed,
# as a guest with a paravirt spinlock backend runs them (waiters halt
# until kicked: the shim's asm/paravirt.h and api.c's backend).
checker_layouts() {
	local l=nr64
	if [ "$1" = today ]; then
		# 6.1's x86_64 kernel is a guest kernel with paravirt spinlocks
		echo "nr64 nr16k pv"
		return
	fi
	[ "$(expect_field "$1" x86_64 variant)" != nr16k ] || l="$l nr16k"
	case ",$(expect_field "$1" x86_64 config)," in *,paravirt,*) l="$l virt" ;; esac
	case ",$(expect_field "$1" x86_64 config)," in *,pvspin,*) l="$l pv" ;; esac
	echo "$l"
}

# build TREE VARIANT NAME [EXTRA.c...]: build/verify/NAME/verify, or a FAIL
# reason; each EXTRA.c (verify-lkmm.sh's translated tests) is compiled like
# litmus.c and linked in.
build() {
	local t=$1 variant=$2 name=$3 nr out asmdir flags x extra_objs=() cov=() stamp
	shift 3
	# VERIFY_COVERAGE=1 (verify-coverage.sh): gcov on the lock's code, in
	# qspinlock.o and in api.o, where the headers' fast paths are inlined
	[ "${VERIFY_COVERAGE:-0}" != 1 ] || cov=(--coverage)
	local virt=()
	case $variant in
	nr64) nr=64 ;;
	nr16k) nr=16384 ;;
	virt) nr=64 virt=(-DCONFIG_PARAVIRT=1) ;;
	pv) nr=64 virt=(-DCONFIG_PARAVIRT=1 -DCONFIG_PARAVIRT_SPINLOCKS=1) ;;
	*) echo "no layout '$variant' (nr64, nr16k, virt, pv)"; return 1 ;;
	esac
	out=$OUT/$name
	asmdir=$t/arch/x86/include
	[ -f "$asmdir/asm/qspinlock.h" ] || asmdir=$SHIMSRC/generic
	flags=("${CFLAGS[@]}" "-DCONFIG_NR_CPUS=$nr" "${virt[@]}" -I "$VSRC"
		-I "$SHIMSRC/include" -I "$asmdir" -I "$t/include" -iquote "$t/kernel/locking")
	if [ "$t" = "$PRISTINE" ]; then
		# 6.1's own lock: only its two asm-generic headers from the tree
		# (the rest of include/ is the real kernel's); x86's asm/qspinlock.h
		# has its pending bit in inline assembly, so today/asm/qspinlock.h
		# stands in: the generic header (6.1's native x86 unlock is the
		# same byte store-release), and in the pv layout x86's pv_ops
		# wiring; the kernel builds with -Wno-pointer-sign and without
		# -Wextra's sign comparisons (its paravirt half needs both).
		asmdir=$SHIMSRC/generic
		flags=("${CFLAGS[@]}" "-DCONFIG_NR_CPUS=$nr" "${virt[@]}" -Wno-pointer-sign
			-Wno-sign-compare -Wno-unused-but-set-variable
			-I "$VSRC" -I "$VSRC/today" -I "$SHIMSRC/include" -I "$asmdir"
			-I "$out/include" -iquote "$t/kernel/locking" -include vc-today.h)
	fi
	flags+=("${DEPFLAGS[@]}")
	stamp=$(build_stamp "${flags[@]}" "${TSAN[@]}" "${cov[@]}" "$t" "$@")
	! fresh_verify "$out" "$stamp" || return 0
	rm -rf "$out"
	mkdir -p "$out"
	if [ "$t" = "$PRISTINE" ]; then
		mkdir -p "$out/include/asm-generic"
		cp "$t/include/asm-generic/qspinlock.h" "$t/include/asm-generic/qspinlock_types.h" \
			"$out/include/asm-generic/"
	fi
	{
		echo "asm/qspinlock.h: ${asmdir#"$TOP"/}"
		for x in "$@"; do
			extra_objs+=("$out/$(basename "$x" .c).o")
			run_logged gcc "${flags[@]}" "${TSAN[@]}" -c "$x" -o "${extra_objs[-1]}" || break
		done &&
		[ "${#extra_objs[@]}" -eq 0 ] || [ -f "${extra_objs[-1]}" ] &&
		run_logged gcc "${flags[@]}" "${TSAN[@]}" "${cov[@]}" -c "$t/kernel/locking/qspinlock.c" -o "$out/qspinlock.o" &&
			run_logged gcc "${flags[@]}" "${TSAN[@]}" "${cov[@]}" -c "$VSRC/api.c" -o "$out/api.o" &&
			run_logged gcc "${flags[@]}" "${TSAN[@]}" -c "$VSRC/litmus.c" -o "$out/litmus.o" &&
			link_programs "$out" "${cov[@]}" "$out/qspinlock.o" "$out/api.o" \
				"$out/litmus.o" "${extra_objs[@]}" &&
			echo "$stamp" >"$out/verify.stamp"
	} >"$out/build.log" 2>&1 || {
		echo "does not compile: $(grep -v '^+ ' "$out/build.log" | grep -m1 -E 'error' || tail -1 "$out/build.log") (log: ${out#"$TOP"/}/build.log)"
		return 1
	}
	echo "$out/verify"
}

# mutant_tree NAME STEP: $OUT/mutant-src/NAME, a copy of STEP's tree with
# the mutant's patch applied (its path), or the reason it does not apply.
mutant_tree() {
	local tree=$OUT/mutant-src/$1
	rm -rf "$tree"
	mkdir -p "$OUT/mutant-src"
	cp -r "$(step_dir "$2")/tree" "$tree"
	(cd "$tree" && GIT_CEILING_DIRECTORIES=$(cd .. && pwd) git apply "$TOP/$(mutant_patch "$1")") >/dev/null 2>&1 ||
		{ echo "does not apply to step $2's tree"; return 1; }
	echo "$tree"
}

# same_code A B: do two builds (directories of build()) disassemble the
# same, in every object compiled from the step's tree (qspinlock.o,
# api.o, litmus.o)?  The checker's runs are a function of that code.
same_code() {
	local o
	for o in qspinlock.o api.o litmus.o; do
		cmp -s <(objdump -dr --no-show-raw-insn "$1/$o" | tail -n +3) \
			<(objdump -dr --no-show-raw-insn "$2/$o" | tail -n +3) || return 1
	done
}

# OTHER_LOCKS: the cost model's locks that are not a step, in the
# tables' order (the one list of them): ticket, 6.1's generic ticket lock
# (the pristine tree's own header, as the lab compiles it); every other
# one is common/costmodel/locks/NAME.h.
OTHER_LOCKS=(ticket ttas mcs)
# SOCKET_LOCKS: the cost model's locks that only the socket run (make
# sim-sockets) runs: the compact NUMA-aware lock, not part of the series.
SOCKET_LOCKS=(cna)

# build_sim_lock NAME: build/verify/.../verify for one lock of the cost
# model's tables, by its name there: today (6.1's own lock), step-N,
# step-N-nr16k (the one-bit layout), or one of OTHER_LOCKS and
# SOCKET_LOCKS; prints its path, or a FAIL reason (and returns 1).
build_sim_lock() {
	local s
	case $1 in
	today) build "$PRISTINE" nr64 sim-today ;;
	step-*-nr16k)
		s=${1#step-}
		build "$(step_dir "${s%-nr16k}")/tree" nr16k "sim-$1"
		;;
	step-*) build "$(step_dir "${1#step-}")/tree" nr64 "sim-$1" ;;
	*) build_other "$1" ;;
	esac
}

# build_other LOCK: build/verify/LOCK/verify for one of OTHER_LOCKS, or a
# FAIL reason.
build_other() {
	local lock=$1 out=$OUT/$1 flags stamp
	flags=("${CFLAGS[@]}" "${DEPFLAGS[@]}" -DCONFIG_NR_CPUS=64 -I "$VSRC" -I "$COSTSRC" -I "$SHIMSRC/include")
	case " ${OTHER_LOCKS[*]} ${SOCKET_LOCKS[*]} " in
	*" $lock "*) ;;
	*) echo "no such lock: $lock (the others are ${OTHER_LOCKS[*]} ${SOCKET_LOCKS[*]})"; return 1 ;;
	esac
	if [ "$lock" = ticket ]; then
		flags+=(-Wno-pointer-sign -I "$PRISTINE/include" -include linux/kconfig.h
			"-DVC_LOCK=<asm-generic/spinlock.h>")
	elif [ -f "$COSTSRC/locks/$lock.h" ]; then
		flags+=("-DVC_LOCK=\"locks/$lock.h\"")
	else
		echo "no common/costmodel/locks/$lock.h for the lock $lock"
		return 1
	fi
	stamp=$(build_stamp "${flags[@]}" "${TSAN[@]}")
	! fresh_verify "$out" "$stamp" || return 0
	rm -rf "$out"
	mkdir -p "$out"
	{
		run_logged gcc "${flags[@]}" "${TSAN[@]}" -c "$VSRC/api.c" -o "$out/api.o" &&
			run_logged gcc "${flags[@]}" "${TSAN[@]}" -c "$VSRC/litmus.c" -o "$out/litmus.o" &&
			link_programs "$out" "$out/api.o" "$out/litmus.o" &&
			echo "$stamp" >"$out/verify.stamp"
	} >"$out/build.log" 2>&1 || {
		echo "does not compile: $(grep -v '^+ ' "$out/build.log" | grep -m1 -E 'error' || tail -1 "$out/build.log") (log: ${out#"$TOP"/}/build.log)"
		return 1
	}
	echo "$out/verify"
}

# build_checker: the checker's objects (checker_objs), once for every
# step, again only when a source or header of theirs changed
# (VERIFY_CHECKER_ROOT: a copy of the tree's checker and cost model
# sources with a fault planted, for verify-faults.sh; default the tree).
build_checker() {
	work_starts "the checker's build"
	local root=${VERIFY_CHECKER_ROOT:-$TOP} stamp src last
	mkdir -p "$OUT/checker"
	stamp=$(build_stamp "${CFLAGS[@]}" "$root" "${CHECKER_SRCS[@]}")
	# the last object is the last made: its stamp stands for them all
	last=$OUT/checker/$(basename "${CHECKER_SRCS[-1]}" .c).o
	! up_to_date "$last" "$stamp" || return 0
	rm -f "$OUT/checker/"*.o "$OUT/checker/"*.d "$last.stamp" "$OUT/checker.log"
	for src in "${CHECKER_SRCS[@]}"; do
		run_logged gcc "${CFLAGS[@]}" "${DEPFLAGS[@]}" -I "$root/common/checker" -I "$root/common/costmodel" \
			-c "$root/$src" -o "$OUT/checker/$(basename "$src" .c).o" >>"$OUT/checker.log" 2>&1 ||
			die "verify: $src does not compile (log: ${OUT#"$TOP"/}/checker.log)"
	done
	echo "$stamp" >"$last.stamp"
}

# herd_cat MODEL.cat FILE...: herd7 on C litmus tests with the LKMM's bell
# and macros (6.1's tools/memory-model/) and the model MODEL.cat, its
# output on stdout (verify-herd.sh, verify-lkmm.sh).  HERD_OPTS: more
# options (-timeout N).
herd_cat() {
	local mm=$PRISTINE/tools/memory-model model=$1
	shift
	# shellcheck disable=SC2086 # HERD_OPTS is a list of options
	(cd "$mm" && herd7 -I "$mm" -macros linux-kernel.def -bell linux-kernel.bell \
		${HERD_OPTS:-} -model "$model" "$@")
}

# by_model MODEL SC TSO WEAK: the one of the three that is MODEL's (a plan
# row's options, a litmus test's answer).
by_model() {
	case $1 in
	sc) printf '%s\n' "$2" ;;
	tso) printf '%s\n' "$3" ;;
	weak) printf '%s\n' "$4" ;;
	esac
}

# row_on_layout LAYOUTS LAYOUT: does a row of common/checker/plan.tsv
# whose layouts column is LAYOUTS run in LAYOUT?  "-": every layout but
# pv; "all": every one; "pv": the paravirt layout only.
row_on_layout() {
	case $1 in
	all) return 0 ;;
	pv) [ "$2" = pv ] ;;
	*) [ "$2" != pv ] ;;
	esac
}

# expected STAGE VARIANT MODEL CONFIG: FAIL and the reason, or PASS.
expected() {
	tsv_columns common/checker/expect.tsv stage variant model config expected why |
		awk -F'\t' -v s="$1" -v v="$2" -v m="$3" -v c="$4" '
		($1 == s) && ($2 == v || $2 == "*") && ($3 == m || $3 == "*") &&
		($4 == c || $4 == "*") { print $5 "\t" $6; found = 1; exit }
		END { if (!found) print "PASS\t" }'
}

# audit_variant BIN NAME LABEL: run the audit three times and count the call
# sites; sets audit_got (PASS or FAIL) and audit_execs.
# shellcheck disable=SC2034 # audit_got is the caller's
audit_variant() {
	local bin=$1 name=$2 label=$3 p h h0="" rc log calls line
	audit_got=FAIL audit_execs=0
	for p in none 90 165; do
		log=$OUT/logs/$name-audit-$p.log
		rc=0
		timeout 600 "$bin" -q -m sc -c 4 -a 2 -n 2 -i 2 -p 3 -s 1 -x 2000 -A "$p" -N "$label/audit" >"$log" 2>&1 || rc=$?
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
			echo "audit $label: FAIL: $(grep -m1 '^verify ' "$log" || echo "exit status $rc") (log: ${log#"$TOP"/})"
			return 1
		fi
		line=$(grep -m1 '^audit: ' "$log") || {
			echo "audit $label: FAIL: no audit line (log: ${log#"$TOP"/})"
			return 1
		}
		audit_execs=$((audit_execs + $(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) executions.*/\1/p')))
		h=${line##* }
		[ -n "$h0" ] || h0=$h
		if [ "$h" != "$h0" ]; then
			echo "audit $label: FAIL: the executions change with the poison byte (event hash $h with $p, $h0 without): a load escaped the instrumentation (logs: ${OUT#"$TOP"/}/logs/$name-audit-*.log)"
			return 1
		fi
	done
	# the object's relocations name each call site of an entry point
	calls=$(objdump -dr "$OUT/$name/qspinlock.o" | grep -oE 'R_X86_64_PLT32[[:space:]]+__tsan_[a-z0-9_]+' | sed 's/.*__tsan_//')
	audit_got=PASS
	echo "audit $label: PASS: no store escaped the checker and no load changed with the poison ($audit_execs executions: no poison, 0x5a and 0xa5, event hash $h0); qspinlock.o calls it at $(printf '%s\n' "$calls" | grep -cE '^(unaligned_)?read') loads, $(printf '%s\n' "$calls" | grep -cE '^(unaligned_)?write') stores, $(printf '%s\n' "$calls" | grep -c '^atomic') atomics"
}

# spurious_unused OPTIONS RESULT-LINE: does a row that allows spurious
# wake-ups (-S N) report that it took none?  Then the halts it was meant
# to wake early never ended early, and its PASS says nothing about them.
spurious_unused() {
	case " $1 " in *" -S "*) ;; *) return 1 ;; esac
	[ "$(field spurious "$2")" = 0 ]
}

# The pinned counts (common/checker/pinned.tsv): every run of make verify
# and verify-ref.sh is deterministic, so its executions, behaviours, final
# states and whether it exhausted are recorded beside the plan, and a
# change fails until `make verify-pin` records it again (and the commit
# says why the count moved).  pin_check LABEL RESULT-LINE prints nothing
# and returns 0 when they match or when the label was never recorded
# (VERIFY_PIN_STRICT=1: that fails too; make check and make test set it,
# their rows are all recorded); with VERIFY_PIN_OUT set it records them
# there instead (verify-pin.sh merges that file into pinned.tsv).
PINNED=$TOP/common/checker/pinned.tsv

pin_check() {
	local label=$1 line=$2 got rec
	got="$(field executions "$line")	$(field classes "$line")	$(field states "$line")	$(field exhausted "$line")"
	if [ -n "${VERIFY_PIN_OUT:-}" ]; then
		printf '%s\t%s\n' "$label" "$got" >>"$VERIFY_PIN_OUT"
		return 0
	fi
	rec=$(tsv_columns "$PINNED" label executions behaviours "final states" exhausted |
		awk -F'\t' -v l="$label" '$1 == l { print $2 "\t" $3 "\t" $4 "\t" $5; exit }')
	if [ -z "$rec" ]; then
		# a row never recorded (make verify's long rows, until make
		# verify-pin has run them) is said, not failed: what is pinned
		# may not move, what is not is listed by make verify-pin
		[ -z "${VERIFY_PIN_STRICT:-}" ] || {
			echo "no pinned count for '$label' in common/checker/pinned.tsv: record it with make verify-pin"
			return 1
		}
		return 0
	fi
	[ "$got" != "$rec" ] || return 0
	echo "the count moved: executions, behaviours, final states, exhausted were $(printf '%s' "$rec" | tr '\t' ' '), now $(printf '%s' "$got" | tr '\t' ' '); if that is meant, record it with make verify-pin and say why in the commit"
	return 1
}

# run_jobs NAME JOBS ROWS LOGDIR FUNC: call FUNC with the words of each
# line of the file JOBS as its arguments, two at a time (the cost model's
# runs, job_slot); each call's output goes to LOGDIR/job-I.out, and all
# of them to ROWS in the order of JOBS.  Shows progress every 20 jobs.  A
# run that printed a FAIL line stops NAME, with every such line.
run_jobs() {
	local name=$1 jobs=$2 rows=$3 logs=$4 fn=$5 total i el start lines=()
	mkdir -p "$logs"
	: >"$rows"
	mapfile -t lines <"$jobs"
	total=${#lines[@]}
	start=$(now)
	for i in "${!lines[@]}"; do
		job_slot 2
		if [ "$i" -gt 0 ] && [ $((i % 20)) -eq 0 ]; then
			el=$(($(now) - start))
			printf '\r    %d/%d runs, %d s, about %d s to go ' "$i" "$total" "$el" $((el * (total - i) / i)) >&2
		fi
		# shellcheck disable=SC2086 # the job's words are its arguments
		"$fn" ${lines[$i]} >"$logs/job-$i.out" &
	done
	wait
	printf '\r    %d/%d runs, %d s\n' "$total" "$total" $(($(now) - start)) >&2
	for i in "${!lines[@]}"; do
		cat "$logs/job-$i.out" >>"$rows"
	done
	if grep -q '^FAIL' "$rows"; then
		grep '^FAIL' "$rows" >&2
		die "$name: $(grep -c '^FAIL' "$rows") run(s) failed: a lock broke under the cost model (logs: ${logs#"$TOP"/})"
	fi
}

# sim_verdict NAME CLAIMS_RC CLAIMS CSV RECORD SKIP TOTAL START: a cost
# model run's end (sim.sh, sim-overcommit.sh), as KTAP: a result for each
# claim in the file CLAIMS ("ok    CLAIM" or "not ok CLAIM" lines;
# CLAIMS_RC is its checker's exit status), then CSV compared byte for
# byte with the recorded RECORD (SKIP: why not, or empty); then NAME's
# verdict line, with TOTAL runs since START.  Returns 1 if anything failed.
sim_verdict() {
	local name=$1 verdict=$2 claimsf=$3 csv=$4 record=$5 skip=$6 total=$7 start=$8
	local c claims=()
	[ "$verdict" -eq 0 ] || verdict=1
	[ ! -f "$claimsf" ] || mapfile -t claims < <(grep -E '^(ok|not ok) ' "$claimsf")
	ktap_begin "$name" $((${#claims[@]} + 1))
	for c in "${claims[@]}"; do
		case $c in
		"ok "*) ktap_result 0 "claim: $(printf '%s' "${c#ok }" | sed 's/^ *//')" ;;
		*) ktap_result 1 "claim: ${c#not ok }" ;;
		esac
	done
	if [ -n "$skip" ]; then
		ktap_result 0 "the recorded results # SKIP $skip: not compared with ${record#"$TOP"/}"
	elif [ ! -f "$record" ]; then
		ktap_result 1 "the recorded results: no recorded copy ${record#"$TOP"/} yet: make sim-record writes it"
		verdict=1
	elif cmp -s "$csv" "$record"; then
		ktap_result 0 "the results are byte for byte the recorded ones (${record#"$TOP"/})"
	else
		ktap_result 1 "the results differ from ${record#"$TOP"/}: the model or a lock changed"
		ktap_note "first difference:"
		diff "$record" "$csv" | head -5 | while IFS= read -r c; do ktap_note "  $c"; done
		verdict=1
	fi
	ktap_end >/dev/null || true
	c=$(dirname "$csv")
	if [ "$verdict" -eq 0 ]; then
		echo "$name: OK: $total runs in $(($(date +%s) - start)) s; table ${c#"$TOP"/}/table.md"
	else
		echo "$name: FAIL: see above ($total runs in $(($(date +%s) - start)) s; ${c#"$TOP"/})"
		return 1
	fi
}
