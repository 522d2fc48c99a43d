#!/bin/bash
# audit.sh ARCH MODE: the roll-out audit on a real system.  Boot the
# (arch, mode, profile) system image (make-image.sh) with jtcfi.audit, jt
# in cfi=permissive (every violation reported and counted, none stopped),
# kcfi as built (enforcing: its reports are counted from the log); the
# guest's jtcfi-audit runs its workloads after multi-user.  Prints each
# step and the counts, keeps them in RESULTS/audit-ARCH-MODE-PROFILE.txt;
# fails when the system reports any CFI violation or the audit did not run.
# On jt it then boots the same kernel enforcing with busybox for
# tests/struct-ops.sh (BPF struct_ops: the right prototype reaches the
# program, another is caught), which must pass too.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"

log=$JTCFI_LOGS/$arch-$mode-$JTCFI_PROFILE-audit.log
summary=$JTCFI_RESULTS/audit-$arch-$mode-$JTCFI_PROFILE.txt
mkdir -p "$JTCFI_LOGS"
args=(jtcfi.audit)
[ "$mode" != jt ] || args+=(cfi=permissive)

t0=$(date +%s)
JTCFI_BOOT_TIMEOUT=${JTCFI_AUDIT_TIMEOUT:-5400} JTCFI_MEM=2G \
	"$JTCFI_TOP/scripts/boot-system.sh" "$arch" "$mode" "$log" "${args[@]}"
seconds=$(($(date +%s) - t0))

grep -q '^jtcfi-guest: audit done' "$log" ||
	die "the audit did not finish on $arch/$mode: $(grep -m1 -E 'Kernel panic|kernel BUG|Internal error' "$log" || echo 'no "audit done" line') (console: $log)"
reports=$(grep -c 'CFI failure' "$log" || true)
counted=$(sed -n 's/^jtcfi-guest: cfi-violations: total: //p' "$log" | tail -n 1)
{
	echo "# make audit ARCH=$arch MODE=$mode PROFILE=$JTCFI_PROFILE: boot, workloads and power-off in $seconds s"
	echo "# kernel command line: ${args[*]}"
	grep '^jtcfi-guest:' "$log"
	echo "# CFI reports in the console: $reports"
	grep 'CFI failure' "$log" || true
} > "$summary"
grep -E '^jtcfi-guest: (audit|multi-user|failed units|modules|cfi-)' "$log"
struct_ops=
if [ "$mode" = jt ]; then
	struct_ops=$(JTCFI_EXPECT=caught "$JTCFI_TOP/tests/struct-ops.sh" "$arch" "$mode" "$JTCFI_LOGS")
	echo "# enforcing, busybox: $struct_ops" >> "$summary"
	echo "$struct_ops"
fi
note "audit of $arch/$mode ($JTCFI_PROFILE): $seconds s, CFI reports: $reports${counted:+, counted violations: $counted} (summary: $summary, console: $log)"
[ "$reports" = 0 ] && [ "${counted:-0}" = 0 ] ||
	die "$arch/$mode reported CFI violations on a real system: $(grep -m1 'CFI failure' "$log")"
case "$struct_ops" in
"not ok"*) die "$arch/$mode: $struct_ops" ;;
esac
