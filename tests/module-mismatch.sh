#!/bin/bash
# module-mismatch.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through a pointer of the wrong prototype (the cross-DSO
# slow path).  Enforcing CFI must report it, stop the call and, with
# oops=panic, take the guest down.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-mismatch.log

boot_or_fail module-mismatch "$log" \
	jtcfi.run=module-mismatch kunit.enable=0 oops=panic || exit 0
caught_verdict module-mismatch "$log" 'mismatched prototype \.\.\.' 'FAIL: survived\|^jtcfi-guest: survived' \
	'init_module\|test_cfi_module_init'
