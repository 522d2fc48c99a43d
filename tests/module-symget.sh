#!/bin/bash
# module-symget.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through the pointer symbol_get() returns.  That pointer
# is made from the export table, not by C code; the call must still pass
# CFI.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$logs/$arch-$mode-module-symget.log

boot_or_fail module-symget "$log" \
	jtcfi.run=module-symget kunit.enable=0 oops=panic || exit 0
passed_verdict module-symget "$log" "a call through symbol_get()'s pointer passed CFI; an assembly export's pointer is vmlinux's" \
	'test_cfi_module: symbol_get() call ok' \
	"test_cfi_module: symbol_get(copy_page) \(is vmlinux's\|refused\)" \
	'^jtcfi-guest: survived module-symget (insmod exit status 0)'
