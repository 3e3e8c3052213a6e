# qspinlock, step by step: the reader's interface.  Run `make help`.
#
# Every target is a thin call into its product's folder, where each job
# lives once: common/boot/ (steps, boots, verdicts), common/checker/,
# common/costmodel/, common/lab/, book/tools/, and common/harness/ (check,
# test, deps).  Variables: ARCH (x86_64, sparc64), DURATION (seconds per
# torture run), CPUS (x86_64 vCPUs), KVM=1 (opt-in; stops at once where
# the host cannot run a KVM guest).

SHELL := /bin/bash
BOOT := common/boot
HARNESS := common/harness
CHECKER := common/checker
COSTMODEL := common/costmodel
LAB := common/lab
BOOK := book/tools
# The knobs with names other tools use too are taken from make's command
# line (make step-8 ARCH=sparc64 CPUS=2), or from the environment under
# the project's own name (QSL_ARCH, QSL_CPUS, ...): an ARCH exported in a
# kernel developer's shell (x86, arm64) is the kernel's variable, a CPUS
# or PLAN another tool's, not a choice of this project's boot.
KNOBS := ARCH CPUS PLAN MS HOLD THINK
$(foreach v,$(KNOBS),$(if $(filter command line,$(origin $(v))),,$(eval $(v) := $(QSL_$(v)))))
export DURATION CPUS KVM PLAN QSLTORTURE REPS BENCH_STAGES BENCH_CPUS MS HOLD THINK MATRIX_STAGES MATRIX_ROWS

.PHONY: help deps check test soak ktap-record book-runs verify verify-mutants verify-ref verify-faults verify-lkmm verify-herd herdtools verify-pin verify-coverage sim-bench sim-overcommit sim-sockets sim-record sim-lockhammer sim-grid today bench bench-record matrix series snapshots edit-series export-series mutants recheck book book-dist lab lab-bench lab-scale lab-uncontended clean distclean
.DEFAULT_GOAL := help

help:
	@echo "qspinlock, step by step - the Linux queued spinlock re-derived in $(words $(wildcard steps/[0-9][0-9]-*)) patches"
	@echo
	@echo "  make step-N        build step N, boot it in QEMU under the torture plan, PASS/FAIL"
	@echo "                     (N = $$(. $(BOOT)/lib.sh; valid_steps); ARCH=sparc64 for the big-endian boot)"
	@echo "  make step-N+BUG    the same for step N with the mutant common/boot/mutants/BUG.patch on top"
	@echo "  make today         the same for the pristine 6.1 tree: 6.1's own qspinlock, the anchor"
	@echo "  make matrix        steps 8 and 10 built and booted under the scenarios of common/boot/matrix/:"
	@echo "                     PREEMPT, DEBUG_SPINLOCK, lockdep, KCSAN, KASAN, NR_CPUS=8192, 8 vCPUs"
	@echo "                     (MATRIX_STAGES=\"8 10\" MATRIX_ROWS=\"lockdep kcsan\"; each config row is a kernel build of its own)"
	@echo "  make shell-N       boot step N's kernel into a busybox shell (Ctrl-A X quits)"
	@echo "  make diff-N        what step N changes (step 0: against the pristine 6.1 tree)"
	@echo "  make series        write the patch series and its cover letter to build/series/ for git am"
	@echo "  make check         fast checks, no kernel build: verdict tests, snapshots, checkpatch, shellcheck"
	@echo "  make test          make check, the book, the checker, the lab (short), the boots of stages"
	@echo "                     $$(. $(BOOT)/lib.sh; expect_rows step arch default | awk -F'\t' '($$3 == "yes" || $$3 == "test") && !($$1 in s) { s[$$1]; printf "%s ", $$1 }')(the rest: make step-N, make soak);"
	@echo "                     a step whose patch changes only sparc64 boots on sparc64 only, 9 and 10 boot"
	@echo "                     twice (with and without the hypervisor bit); a smoke bench, the negative controls: what CI runs"
	@echo "  make ktap-record   run make check, and keep its output and the last make test's for make check's"
	@echo "                     KTAP test (common/harness/tests/ktap/: kunit.py parse must read them whole)"
	@echo "  make soak          every step and today booted as make test boots them, DURATION=60 s a run instead of 5"
	@echo "  make bench         $$(. $(BOOT)/lib.sh; table_stages bench | sed 's/\([0-9][0-9]*\)/step-\1/g') at 1, 2, 4 vCPUs, REPS=3 interleaved: table, CSV, plot"
	@echo "  make bench-record  copy the last full bench and lab-bench results into book/bench/"
	@echo "  make mutants       boot step $$(. $(BOOT)/lib.sh; mutant_base_step) unmutated, then with each bug of common/boot/mutants/; print the kill table"
	@echo "  make recheck       judge every recorded boot in build/runs/ again (RUNS=\"dir ...\" for some; UPDATE=1 records"
	@echo "                     the new verdicts, otherwise the recorded ones stay)"
	@echo "  make book          render book/ to HTML and EPUB in build/book/"
	@echo "  make book-dist     make book, the book as GitHub Markdown with every listing filled in, and one"
	@echo "                     tarball of all three for a release, in build/book-dist/ (nothing to build to read it)"
	@echo "  make book-runs     record again what the book includes from runs: checker traces, kill tables, verdicts"
	@echo "                     (FILES=\"checker lab build boot NAME...\" for some; RUNROOT=DIR: boots recorded there)"
	@echo "  make verify        the lock checker: steps $$(. $(BOOT)/lib.sh; lab_steps | tr ' ' ',') and today on simulated CPUs, every interleaving of small"
	@echo "                     configurations (and PCT for large ones) under SC, TSO and a weak model, its litmus"
	@echo "                     tests and audit, each step's coverage (gcov), then the reference search, the LKMM suite and its kill table"
	@echo "  make verify-N      the lock checker on step N only, or on 6.1's own lock (verify-today)"
	@echo "                     (MODELS=\"sc tso weak\" CONFIGS=\"c3a1 ... litmus audit\")"
	@echo "  make verify-mutants the checker's kill table alone (MUTANTS=\"a b\" for some)"
	@echo "  make verify-ref    the checker against its reference search: the same behaviours on every small configuration"
	@echo "  make verify-faults the checker's planted faults (common/checker/faults/): each must be killed"
	@echo "  make verify-lkmm   the LKMM litmus suite of the 6.1 tree, translated, under every model (STEP=N: on step N's lock)"
	@echo "  make verify-herd   herd7 against the checker: the LKMM's, the catalogue's and diy7's litmus tests under each"
	@echo "                     model's .cat (common/checker/models/), weak against the LKMM (SAMPLE=N SOURCES=\"lkmm manual auto diy\")"
	@echo "  make herdtools     build herd7, diy7 and klitmus7 from THIRD_PARTY (default ../shared/third_party) into ~/.cache"
	@echo "  make klitmus-N     the LKMM's litmus tests as klitmus7 kernel modules on step N's booted kernel (today too);"
	@echo "                     a state the LKMM forbids is a FAIL (KLITMUS_BUSTED=1: the control, which must FAIL)"
	@echo "  make verify-pin    record the checker's pinned counts again (SHORT=1: only what make test runs)"
	@echo "  make verify-coverage which lines of each step's lock the checker's rows reach, per model (SHORT=1: make test's rows)"
	@echo "  make lab           each step's qspinlock.c on real threads in userspace (x86_64, sparc64 via qemu-user),"
	@echo "                     then the mutants of common/boot/mutants/ in the lab: the lab's kill table"
	@echo "  make lab-bench     time every step's lock on this machine's cores beside ticket, pthread and MCS locks"
	@echo "  make lab-scale     the heavy loop of ticket, the last native step, today and MCS on 1..all cores (one"
	@echo "                     thread per core) beside the cost model's prediction for each N, as ratios to ticket"
	@echo "  make lab-uncontended instructions and atomics per uncontended lock+unlock of the same locks, counted under"
	@echo "                     callgrind (and perf stat where it counts cycles), against book/lab/uncontended/ (RECORD=1 writes it)"
	@echo "  make sim-bench     what every lock costs under contention on 1 to 64 simulated CPUs: cache-line"
	@echo "                     transfers, atomics, failed cmpxchg, modelled cycles; tables, plots, the chapter's claims"
	@echo "                     (SIM_LOCKS=\"ticket step-7\" SIM_N=\"2 64\" SIM_CYCLES SIM_TRANSFER SIM_OCCUPANCY SIM_HOLD SIM_WORK)"
	@echo "  make sim-overcommit the cost of a preempted vCPU: 4, 16 and 64 simulated vCPUs on as many host cores,"
	@echo "                     two thirds and half as many; ticket, native queue, unfair guest lock, halt and kick, 6.1"
	@echo "  make sim-sockets   the same locks and CNA with their CPUs in 1, 2, 4 and 8 sockets, data in the lock's"
	@echo "                     line, wait percentiles; the chapter's claims (SIM_CYCLES)"
	@echo "  make sim-record    copy the last sim-bench, sim-overcommit and sim-sockets results into book/sim/"
	@echo "  make sim-grid      make sim-bench with C, read occupancy, hold and work moved one at a time: where each"
	@echo "                     of the chapter's claims holds (about 8 minutes; RECORD=1 writes book/sim/grid/)"
	@echo "  make sim-lockhammer the cost model against lockhammer's four x86 hosts, calibrated on each host's lock-only"
	@echo "                     points: every other point predicted, the stated bounds checked (RECORD=1 writes book/sim/lockhammer/)"
	@echo "  make snapshots     regenerate steps/*/tree from the patches"
	@echo "  make edit-series   a git tree of the kernel with one commit per step (build/series-git)"
	@echo "  make export-series write build/series-git's commits back as the steps' patches"
	@echo "  make deps          install the Debian packages every target needs (as root)"
	@echo "  make clean         remove build/ except the extracted pristine tree (run directories too)"
	@echo "  make distclean     remove build/ whole"
	@echo
	@echo "  DURATION=$$(. $(BOOT)/lib.sh; DURATION= duration_for step) (s per torture run)  CPUS=4 (x86_64 vCPUs)  ARCH=x86_64|sparc64  KVM=1"
	@echo "  (ARCH, CPUS, PLAN, MS, HOLD, THINK: on this command line, or exported as QSL_ARCH, QSL_CPUS, ...)"

step-%:
	@$(BOOT)/step.sh "$*" $(ARCH)

verify:
	@$(CHECKER)/verify.sh --coverage $(if $(MODELS),--models "$(MODELS)") $(if $(CONFIGS),--configs "$(CONFIGS)") && \
		$(CHECKER)/verify-ref.sh && $(CHECKER)/verify-lkmm.sh && $(CHECKER)/verify-mutants.sh

verify-ref:
	@$(CHECKER)/verify-ref.sh

verify-faults:
	@$(CHECKER)/verify-faults.sh $(FAULTS)

verify-lkmm:
	@$(CHECKER)/verify-lkmm.sh $(if $(STEP),--step "$(STEP)") $(if $(MODELS),--models "$(MODELS)")

verify-herd:
	@$(CHECKER)/verify-herd.sh $(if $(SAMPLE),--sample $(SAMPLE)) $(if $(SOURCES),--sources "$(SOURCES)") $(if $(MODELS),--models "$(MODELS)")

herdtools:
	@$(HARNESS)/herdtools.sh

verify-coverage:
	@$(CHECKER)/verify-coverage.sh $(if $(SHORT),--short)

verify-pin:
	@$(CHECKER)/verify-pin.sh $(if $(SHORT),--short)

verify-mutants:
	@$(CHECKER)/verify-mutants.sh $(MUTANTS)

verify-%:
	@$(CHECKER)/verify.sh $(if $(MODELS),--models "$(MODELS)") $(if $(CONFIGS),--configs "$(CONFIGS)") "$*"

today:
	@$(BOOT)/step.sh today $(ARCH)

klitmus-%:
	@$(BOOT)/klitmus.sh "$*" $(ARCH)

shell-%:
	@$(BOOT)/shell.sh "$*" $(or $(ARCH),x86_64)

diff-%:
	@$(BOOT)/diff.sh "$*"

series:
	@$(BOOT)/series.sh

snapshots:
	@$(BOOT)/snapshot.sh

edit-series:
	@$(BOOT)/edit-series.sh

export-series:
	@$(BOOT)/export-series.sh

deps:
	@$(HARNESS)/deps.sh kernel x86_64 sparc64 check book screens lab uncontended bench verify lint && echo "deps: OK"

check:
	@$(HARNESS)/check.sh

bench:
	@$(BOOT)/bench.sh

bench-record:
	@$(BOOT)/bench-record.sh

matrix:
	@$(BOOT)/matrix.sh

sim-bench:
	@$(COSTMODEL)/sim.sh

sim-overcommit:
	@$(COSTMODEL)/sim-overcommit.sh

sim-sockets:
	@$(COSTMODEL)/sim-sockets.sh

sim-record:
	@$(COSTMODEL)/sim-record.sh

sim-lockhammer:
	@$(COSTMODEL)/sim-lockhammer.sh $(if $(RECORD),--record)

sim-grid:
	@$(COSTMODEL)/sim-grid.sh $(if $(RECORD),--record)

mutants:
	@$(BOOT)/mutants.sh $(MUTANTS)

recheck:
	@$(BOOT)/recheck.sh $(if $(UPDATE),--update) $(RUNS)

book:
	@$(BOOK)/book.sh

book-dist:
	@$(BOOK)/book-dist.sh

book-runs:
	@$(BOOK)/book-runs.sh $(if $(RUNROOT),--runs "$(RUNROOT)") $(FILES)

lab:
	@$(LAB)/lab.sh && $(LAB)/lab-mutants.sh

lab-bench:
	@$(LAB)/lab-bench.sh

lab-scale:
	@$(LAB)/lab-scale.sh

lab-uncontended:
	@$(LAB)/lab-uncontended.sh $(if $(RECORD),--record)

test:
	@$(HARNESS)/test.sh

soak:
	@$(BOOT)/soak.sh

ktap-record:
	@$(HARNESS)/ktap-record.sh

# everything in build/ but the pristine tree and its manifest, which take
# the longest to make again
clean:
	@[ ! -d build ] || find build -mindepth 1 -maxdepth 1 ! -name 'pristine-*' -exec rm -rf {} +

distclean:
	rm -rf build
