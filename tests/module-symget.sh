#!/bin/bash
# module-symget.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through the pointer symbol_get() returns.  That pointer
# is made from the export table, not by C code; the call must still pass
# CFI.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/verdict.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-symget.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-symget kunit.enable=0 oops=panic || {
	echo "not ok module-symget: boot failed (console: $log)"
	exit 0
}
passed_verdict module-symget "$log" "a call through symbol_get()'s pointer passed CFI; an assembly export's pointer is vmlinux's" \
	'test_cfi_module: symbol_get() call ok' \
	"test_cfi_module: symbol_get(copy_page) \(is vmlinux's\|refused\)" \
	'^jtcfi-guest: survived module-symget (insmod exit status 0)'
