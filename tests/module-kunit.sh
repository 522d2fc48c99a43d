#!/bin/bash
# module-kunit.sh ARCH MODE LOGDIR: load the CFI test module on a kernel
# booted with KUnit filtered to its suite, which runs on load: calls across
# the module boundary in both directions, through pointers the module, the
# core kernel and symbol_get() made, a delayed work (the workqueue's
# timer-function check sees the module's jump-table entry), and a
# tracepoint calling the stub of a probe removed while failslab failed its
# allocations.  Every case must pass, with no CFI report anywhere.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log module-kunit)
cases=7

boot_or_fail module-kunit "$log" \
	jtcfi.run=module-kunit kunit.filter_glob=test_cfi_module oops=panic || exit 0
verdict=$(kunit_verdict module-kunit "$log" '^jtcfi-guest: module-kunit: loading')
case "$verdict" in
"not ok"*)	echo "$verdict" ;;
*"Ran $cases tests: passed: $cases"*)
	passed_verdict module-kunit "$log" "the test module's suite: ${verdict#ok module-kunit: }, no CFI report" \
		'^jtcfi-guest: survived module-kunit (insmod exit status 0)' ;;
*)	echo "not ok module-kunit: wanted all $cases cases passed, got: ${verdict#ok module-kunit: } (see $log.parsed)" ;;
esac
