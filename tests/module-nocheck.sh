#!/bin/bash
# module-nocheck.sh ARCH MODE LOGDIR: load a module built without CFI
# (guest/cfi-bench/cfi_nocheck.c), which therefore has no __cfi_check()
# to judge calls into it.  An enforcing jump-table kernel must refuse it
# at load (insmod fails, the kernel says why) rather than load it and
# oops on the first call the core kernel makes into it.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$(test_log module-nocheck)

boot_or_fail module-nocheck "$log" \
	jtcfi.run=module-nocheck kunit.enable=0 oops=panic || exit 0
why=
grep -q 'cfi_nocheck: loaded' "$log" && why="$why the module loaded;"
console_find report "$log" > /dev/null && why="$why a CFI failure on a call into it;"
grep -q '^jtcfi-guest: survived module-nocheck (insmod exit status [1-9]' "$log" ||
	why="$why insmod did not fail;"
refusal=$(grep -m1 'cfi_nocheck: .*refus' "$log")
[ -n "$refusal" ] || why="$why no refusal from the kernel;"
if [ -z "$why" ]; then
	echo "ok module-nocheck: refused: $(echo "$refusal" | sed 's/^\[ *[0-9.]*\] //')"
else
	echo "not ok module-nocheck:$why (console: $log)"
fi
