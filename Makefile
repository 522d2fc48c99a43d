# jtcfi: jump-table forward-edge CFI for Debian's linux-source-6.12.
#   make run      build, boot and show a forged indirect call being stopped
#   make check    build and boot the jump-table kernel of every arch and run the tests
#   make check-kcfi  the same tests on the tree's kCFI, and the no-CFI controls
#   make check-all   both
#   make check-open  the attacks jt does not stop yet (tests/plan-open): they fail
#   make bench    measure none, kcfi and jt side by side (results/bench.md)
#   make insn-profile  where the macro benchmarks' instructions go, per kernel function
#   make precision  targets per checked call, kcfi and jt, in PROFILE (e.g. server)
#   make exemptions what kcfi and jt each leave unchecked, in PROFILE
#   make list-tests  the test plan, with what each test checks
#   make test-harness  the console parser against recorded consoles, and the audit's trinity_for() (seconds)
#   make lint-series  checkpatch, sign-offs, subjects, messages and git am of patches/
#   make check-fresh  "make run" on a fresh Debian 12 root (mmdebstrap, chroot)
#   make stress   1,000 module load/unload cycles of two modules at once
#   make deb      the kernel as Debian packages (ARCH, MODE, PROFILE)
#   make image    a Debian 12 system with it installed by dpkg; make system boots it
#   make audit    that system under real workloads, CFI permissive (jt): zero reports
# See README.md for the variables.

ARCH  ?= arm64
ARCHS ?= arm64 x86_64
# Every CFI mode the series supports; "none" is the baseline, not a mode.
ALL_MODES := $(filter-out none,$(patsubst configs/mode-%.config,%,$(wildcard configs/mode-*.config)))
# The kernels make check tests: jtcfi's own. Each cold kernel is 6-15 min
# of 2 cores, so the tree's kCFI and the kernel without CFI, which jtcfi is
# compared with, are make check-kcfi's.
MODES ?= jt
# make check ARCH=x86_64: that arch alone.
ifeq ($(origin ARCH),command line)
ARCHS := $(ARCH)
endif
# The strongest mode available on ARCH is the default.
jt_arches := $(shell sed -n 's/^\# jtcfi-arches: //p' configs/mode-jt.config 2>/dev/null)
MODE  ?= $(if $(filter $(ARCH),$(jt_arches)),jt,kcfi)
JTCFI_CACHE ?= $(HOME)/.cache/jtcfi
LLVM ?= -19
# Config profile: test (what make check runs) or configs/profile-*.config.
PROFILE ?= test
FROM ?= 1
# make check T=NAME: only the plan's lines whose test is NAME or starts
# with it ("module-forge", "lkdtm CFI_FORWARD_PROTO", "bpf-*").
T ?=
JTCFI_TEST := $(T)
# make audit: seconds of trinity, half as nobody and half as root.
FUZZ_S ?= 600
JTCFI_PROFILE := $(PROFILE)
# Console logs (scripts/lib.sh: JTCFI_LOGS).
LOGS := $(or $(JTCFI_RESULTS),results)/logs
JTCFI_FUZZ_S := $(FUZZ_S)
export ARCHS MODES JTCFI_CACHE LLVM JTCFI_PROFILE JTCFI_FUZZ_S JTCFI_TEST

S := scripts

.PHONY: list-tests test-harness lint-series deb image system audit run check check-kcfi check-all check-open check-fresh stress bench precision exemptions insn-profile check-series shell build setup tree export reset-tree clean-logs

run: setup tree
	$(S)/run.sh $(ARCH) $(MODE)

check: setup tree
	$(S)/check.sh

check-kcfi: setup tree
	MODES="kcfi none" $(S)/check.sh

check-all: setup tree
	MODES="$(ALL_MODES) none" $(S)/check.sh

# Attacks from the threat review that jt does not stop yet: each test fails
# until its fix moves its line to tests/plan.
check-open: setup tree
	JTCFI_PLAN=$(CURDIR)/tests/plan-open $(S)/check.sh

# The README's first command as a new user meets it: a minimal Debian 12
# root, a clone of REV (default HEAD) and nothing else the host installed.
check-fresh:
	@$(S)/setup-host.sh fresh
	$(S)/check-fresh.sh $(REV)

# The CFI shadow under concurrent module loads and cross-module calls
# (tests/plan-stress); STRESS_CYCLES (1000) per module.
STRESS_CYCLES ?= 1000
stress: setup tree
	ARCHS=$(ARCH) MODES=$(MODE) JTCFI_STRESS_CYCLES=$(STRESS_CYCLES) \
		JTCFI_PLAN=$(CURDIR)/tests/plan-stress $(S)/check.sh

bench: setup tree
	$(S)/bench.sh $(ARCH)

# Targets per checked call site under kcfi and jt in PROFILE, without
# booting (results/precision-PROFILE.md).
precision: setup tree
	$(S)/precision.sh $(ARCH)

# What kcfi and jt each leave unchecked in PROFILE, from the IR of every C
# object, without booting (results/exemptions-PROFILE.md).
exemptions: setup tree
	$(S)/exemptions.sh $(ARCH)

# An instruction profile per kernel function of the kernels make bench
# measured (it builds nothing, so not "tree": results/insn-profile-ARCH.md).
insn-profile: setup
	$(S)/insn-profile.sh $(ARCH)

# Every patch of the series on its own (from patch FROM on): Kconfig and
# the files it touches.
check-series: setup tree
	$(S)/check-series.sh $(ARCH) $(FROM)

shell: setup tree
	$(S)/prepare-kernel.sh $(ARCH) $(MODE)
	$(S)/boot.sh $(ARCH) $(MODE) - jtcfi.run=shell kunit.enable=0

# The kernel as Debian packages (bindeb-pkg), in the build directory's debs/.
deb: setup tree
	$(S)/make-deb.sh $(ARCH) $(MODE)

# A Debian 12 system with that kernel installed from its packages, and a
# boot of it to multi-user (PROFILE=server is the one meant for it).
image: setup tree
	$(S)/make-image.sh $(ARCH) $(MODE)

system: image
	$(S)/boot-system.sh $(ARCH) $(MODE) $(LOGS)/$(ARCH)-$(MODE)-$(PROFILE)-system.log $(KARGS)
	@grep '^jtcfi-guest:' $(LOGS)/$(ARCH)-$(MODE)-$(PROFILE)-system.log

# The image booted with jtcfi.audit: systemd, udev, TCP, nftables, cgroup
# BPF, a kptr map, stress-ng and kselftests; every CFI report fails it.
audit: image
	$(S)/audit.sh $(ARCH) $(MODE)

build: setup tree
	$(S)/prepare-kernel.sh $(ARCH) $(MODE)

setup:
	@$(S)/setup-host.sh

tree: setup
	@$(S)/prepare-tree.sh

# The console logs of every boot.
clean-logs:
	rm -rf $(LOGS)

# The tree's commits on top of "pristine" become patches/ and its series.
export:
	$(S)/export-series.sh

# What a maintainer checks in patches/ first (checkpatch --strict, sign-off,
# subjects, no patch numbers or harness in messages, git am): no build.
lint-series: setup tree
	$(S)/lint-series.sh

# The tests a plan runs, with what each checks (PLAN, default tests/plan).
list-tests:
	@$(S)/list-tests.sh $(PLAN)

# The console parser (scripts/console.py) against recorded consoles
# (tests/consoles/): every verdict the tests draw, without a kernel.
test-harness: setup
	python3 tests/console_test.py

# Drop the tree's unexported commits and re-apply patches/.
reset-tree:
	rm -f $(JTCFI_CACHE)/tree.applied
	git -C $(JTCFI_CACHE)/linux reset -q --hard HEAD
	@$(S)/prepare-tree.sh
