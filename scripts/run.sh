#!/bin/bash
# run.sh ARCH MODE: the demonstration.  Build and boot the kernel, forge an
# indirect call with a mismatched prototype (LKDTM CFI_FORWARD_PROTO) and
# show the kernel's CFI report from the console: check.sh with
# tests/plan-run, then the console from the forged call on.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
logs=$JTCFI_LOGS
log=$(log_path "$logs" "$arch" "$mode" "lkdtm CFI_FORWARD_PROTO")

note "booting $arch/$mode and calling a function through a pointer of the wrong prototype"
rm -f "$log"
status=0
result=$(ARCHS=$arch MODES=$mode JTCFI_TEST= JTCFI_PLAN=$JTCFI_TOP/tests/plan-run \
	"$JTCFI_TOP/scripts/check.sh") || status=$?
[ -f "$log" ] || { echo "$result"; die "no console of the forged call: $log"; }
echo
echo "---- console, from the forged call to the end of the report ----"
sed -n '/lkdtm: Calling mismatched prototype/,/---\[ end/p' "$log" | sed 's/^\[ *[0-9.]*\] //' | head -n 40
echo "-----------------------------------------------------------------"
echo "$result"
echo "full console log: $log"
exit $status
