#!/bin/bash
# run.sh ARCH MODE: the demonstration.  Build and boot the kernel, forge an
# indirect call with a mismatched prototype (LKDTM CFI_FORWARD_PROTO) and
# show the kernel's CFI report from the console.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
logs=$JTCFI_LOGS
log=$(log_path "$logs" "$arch" "$mode" "lkdtm CFI_FORWARD_PROTO")

"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"
note "booting $arch/$mode and calling a function through a pointer of the wrong prototype"
result=$("$JTCFI_TOP/tests/lkdtm.sh" "$arch" "$mode" "$logs" CFI_FORWARD_PROTO)
echo
echo "---- console, from the forged call to the end of the report ----"
sed -n '/lkdtm: Calling mismatched prototype/,/---\[ end/p' "$log" | sed 's/^\[ *[0-9.]*\] //' | head -n 40
echo "-----------------------------------------------------------------"
echo "$result"
echo "full console log: $log"
case "$result" in ok*) ;; *) exit 1 ;; esac
