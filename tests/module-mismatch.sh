#!/bin/bash
# module-mismatch.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through a pointer of the wrong prototype (the cross-DSO
# slow path).  Enforcing CFI must report it, stop the call and, with
# oops=panic, take the guest down.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/verdict.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-mismatch.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-mismatch kunit.enable=0 oops=panic || {
	echo "not ok module-mismatch: boot failed (console: $log)"
	exit 0
}
caught_verdict module-mismatch "$log" 'mismatched prototype \.\.\.' 'FAIL: survived\|^jtcfi-guest: survived'
