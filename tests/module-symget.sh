#!/bin/bash
# module-symget.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through the pointer symbol_get() returns.  That pointer
# is made from the export table, not by C code; the call must still pass
# CFI.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-symget.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-symget kunit.enable=0 oops=panic || {
	echo "not ok module-symget: boot failed (console: $log)"
	exit 0
}
if grep -q 'test_cfi_module: symbol_get() call ok' "$log" &&
   grep -q '^jtcfi-guest: survived module-symget (insmod exit status 0)' "$log" &&
   ! grep -q 'CFI failure\|FAIL:\|WARNING:\|jtcfi-guest: error' "$log"; then
	echo "ok module-symget: a call through symbol_get()'s pointer passed CFI"
else
	why=$(grep -m1 -o 'CFI failure.*\|FAIL:.*\|WARNING:.*\|jtcfi-guest: error.*' "$log")
	echo "not ok module-symget: ${why:-the module did not report the call} (console: $log)"
fi
