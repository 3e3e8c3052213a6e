# qspinlock, step by step: the reader's interface.  Run `make help`.
#
# Every target is a thin call into common/scripts/ (or qemu/), where each
# job lives once.  Variables: ARCH (x86_64, sparc64), DURATION (seconds per
# torture run), CPUS (x86_64 vCPUs), KVM=1 (opt-in, often hangs nested).

SHELL := /bin/bash
SCRIPTS := common/scripts
ARCH ?=
export DURATION CPUS KVM PLAN QSLTORTURE

.PHONY: help deps check test series snapshots edit-series export-series mutants book lab clean distclean
.DEFAULT_GOAL := help

help:
	@echo "qspinlock, step by step - the Linux queued spinlock re-derived in $(words $(wildcard steps/[0-9][0-9]-*)) patches"
	@echo
	@echo "  make step-N        build step N, boot it in QEMU under the torture plan, PASS/FAIL"
	@echo "                     (N = $$(. $(SCRIPTS)/lib.sh; valid_steps); ARCH=sparc64 for the big-endian boot)"
	@echo "  make shell-N       boot step N's kernel into a busybox shell (Ctrl-A X quits)"
	@echo "  make diff-N        what step N changes (step 0: against the pristine 6.1 tree)"
	@echo "  make series        write the patch series to build/series/ for git am"
	@echo "  make check         fast checks, no kernel build: verdict tests, snapshots, checkpatch, shellcheck"
	@echo "  make test          make check, every step, and the negative controls"
	@echo "  make mutants       boot step 7 with each bug of common/mutants/; print the kill table"
	@echo "  make book          render book/ to HTML and EPUB in build/book/"
	@echo "  make lab           each step's qspinlock.c on real threads in userspace (x86_64, sparc64 via qemu-user)"
	@echo "  make snapshots     regenerate steps/*/tree from the patches"
	@echo "  make edit-series   a git tree of the kernel with one commit per step (build/series-git)"
	@echo "  make export-series write build/series-git's commits back as the steps' patches"
	@echo "  make deps          install the Debian packages every target needs (as root)"
	@echo "  make clean         remove build/ except the extracted pristine tree"
	@echo
	@echo "  DURATION=15 (s per torture run)  CPUS=4 (x86_64 vCPUs)  ARCH=x86_64|sparc64  KVM=1"

step-%:
	@$(SCRIPTS)/step.sh "$*" $(ARCH)

shell-%:
	@$(SCRIPTS)/shell.sh "$*" $(or $(ARCH),x86_64)

diff-%:
	@$(SCRIPTS)/diff.sh "$*"

series:
	@$(SCRIPTS)/series.sh

snapshots:
	@$(SCRIPTS)/snapshot.sh

edit-series:
	@$(SCRIPTS)/edit-series.sh

export-series:
	@$(SCRIPTS)/export-series.sh

deps:
	@$(SCRIPTS)/deps.sh kernel x86_64 sparc64 check book && echo "deps: OK"

check:
	@$(SCRIPTS)/check.sh

mutants:
	@$(SCRIPTS)/mutants.sh $(MUTANTS)

book:
	@$(SCRIPTS)/book.sh

lab:
	@$(SCRIPTS)/lab.sh

test:
	@$(SCRIPTS)/test.sh

clean:
	rm -rf build/src build/overlay build/logs build/series build/tools build/snapshot.tmp build/diff-pristine build/lab build/book

distclean:
	rm -rf build
