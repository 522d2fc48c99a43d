#!/bin/bash
# audit.sh ARCH MODE: the roll-out audit on a real system.  Boot the
# (arch, mode, profile) system image (make-image.sh) with jtcfi.audit, jt
# in cfi=permissive (every violation reported and counted, none stopped),
# kcfi as built (enforcing: its reports are counted from the log); the
# guest's jtcfi-audit runs its workloads after multi-user, trinity last
# for JTCFI_FUZZ_S seconds (make audit FUZZ_S=, default 600).  Prints each
# step and the counts (CFI reports, kernel warnings, oopses), keeps them in
# RESULTS/audit-ARCH-MODE-PROFILE.txt; fails when the system reports any
# CFI violation or the audit did not run.
# x86_64 boots under single-threaded TCG, as the arch table says for a
# boot that patches text while other CPUs run it: ftracetest otherwise
# met QEMU's stale INT3 (results/audit.md, finding 10).
# Then tests/plan-audit, through check.sh: on jt the same kernel booted
# enforcing with busybox for tests/struct-ops.sh (BPF struct_ops: the
# right prototype reaches the program, another is caught), which must
# pass too.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"

log=$JTCFI_LOGS/$arch-$mode-$JTCFI_PROFILE-audit.log
summary=$JTCFI_RESULTS/audit-$arch-$mode-$JTCFI_PROFILE.txt
mkdir -p "$JTCFI_LOGS"
fuzz_s=${JTCFI_FUZZ_S:-600}
positive_number FUZZ_S "$fuzz_s"
args=(jtcfi.audit "jtcfi.fuzz_s=$fuzz_s")
[ "$mode" != jt ] || args+=(cfi=permissive)
text_patching_tcg "$arch"

t0=$(date +%s)
JTCFI_BOOT_TIMEOUT=${JTCFI_AUDIT_TIMEOUT:-5400} JTCFI_MEM=2G \
	"$JTCFI_TOP/scripts/boot-system.sh" "$arch" "$mode" "$log" "${args[@]}"
seconds=$(($(date +%s) - t0))

grep -q '^jtcfi-guest: audit done' "$log" ||
	die "the audit did not finish on $arch/$mode: $(python3 "$JTCFI_TOP/scripts/console.py" title "$log") (console: $log)"
counted=$(sed -n 's/^jtcfi-guest: cfi-violations: total: //p' "$log" | tail -n 1)
# CFI reports, kernel warnings (a permissive report's own WARN is counted
# with the reports) and oopses, each line after the counts.
found=$(python3 "$JTCFI_TOP/scripts/console.py" summary "$log")
count() { echo "$found" | sed -n "s/^$1 //p"; }
reports=$(count reports) warnings=$(count warnings) oopses=$(count oopses)
{
	echo "# make audit ARCH=$arch MODE=$mode PROFILE=$JTCFI_PROFILE: boot, workloads and power-off in $seconds s"
	echo "# kernel command line: ${args[*]}"
	[ -z "${JTCFI_TCG_THREAD:-}" ] || echo "# TCG: $JTCFI_TCG_THREAD-threaded"
	grep '^jtcfi-guest:' "$log"
	echo "# CFI reports in the console: $reports, kernel warnings: $warnings, oopses: $oopses"
	echo "$found" | grep -E '^(report|warning|oops) ' || true
} > "$summary"
grep -E '^jtcfi-guest: (audit|multi-user|failed units|modules|cfi-)' "$log"
plan_status=0
plan_out=$(ARCHS=$arch MODES=$mode JTCFI_TEST= JTCFI_PLAN=$JTCFI_TOP/tests/plan-audit \
	"$JTCFI_TOP/scripts/check.sh") || plan_status=$?
struct_ops=$(echo "$plan_out" | grep "^$arch $mode " || true)
[ -z "$struct_ops" ] || echo "# enforcing, busybox: $struct_ops" >> "$summary"
echo "$plan_out"
note "audit of $arch/$mode ($JTCFI_PROFILE): $seconds s, CFI reports: $reports${counted:+, counted violations: $counted}, kernel warnings: $warnings, oopses: $oopses (summary: $summary, console: $log)"
[ "$reports" = 0 ] && [ "${counted:-0}" = 0 ] ||
	die "$arch/$mode reported CFI violations on a real system: $(count report | head -n 1)"
[ "$plan_status" = 0 ] || die "$arch/$mode: tests/plan-audit failed: $struct_ops"
