#!/bin/bash
# module-stale.sh ARCH MODE LOGDIR: the CFI test module leaves a timer
# behind and is unloaded; when the timer fires, the core kernel calls into
# the module's freed text.  Jump-table CFI must refuse that call (the
# shadow no longer maps the page to any module) before it runs: a CFI
# report, not the page fault that follows without CFI, and the guest goes
# down (oops=panic).
set -u
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/verdict.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-stale.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-stale kunit.enable=0 oops=panic || {
	echo "not ok module-stale: boot failed (console: $log)"
	exit 0
}
caught_verdict module-stale "$log" 'left a timer that fires after unload' 'FAIL: the core kernel called into an unloaded module\|^jtcfi-guest: survived'
