#!/bin/bash
# module-stress.sh ARCH MODE LOGDIR: N (JTCFI_STRESS_CYCLES, 1000) loads and unloads
# of the CFI test module and, at the same time, N of a second module, on
# two vCPUs, while a third module (guest/cfi-bench/cfi_stress.c) is called
# across the module boundary in a loop: every load, unload and call must
# succeed with no CFI report, warning or oops, and the violation counter
# must stay at zero.  This is the CFI shadow's concurrency test.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
count=${JTCFI_STRESS_CYCLES:-1000}
positive_number JTCFI_STRESS_CYCLES "$count"
log=$(test_log module-stress)

JTCFI_BOOT_TIMEOUT=${JTCFI_BOOT_TIMEOUT:-1800} \
boot_or_fail module-stress "$log" \
	jtcfi.run="module-stress:$count" kunit.enable=0 oops=panic || exit 0
why=
grep -q "^jtcfi-guest: stress: test module cycles: $count of $count" "$log" ||
	why="$why test module cycles: $(sed -n 's/^jtcfi-guest: stress: test module cycles: //p' "$log");"
grep -q "^jtcfi-guest: stress: second module cycles: $count of $count" "$log" ||
	why="$why second module cycles: $(sed -n 's/^jtcfi-guest: stress: second module cycles: //p' "$log");"
reads=$(sed -n 's/^jtcfi-guest: stress: cross-module reads: //p' "$log")
case "$reads" in
*" ok, 0 failed") ;;
*) why="$why cross-module reads: '$reads';" ;;
esac
bad=$(console_find report,warning,oops,panic,guest-error "$log")
[ -n "$bad" ] && why="$why $bad;"
if [ "$mode" = jt ]; then
	total=$(sed -n 's/^jtcfi-guest: cfi-violations: total: //p' "$log")
	[ "$total" = 0 ] || why="$why violation counter '${total:-missing}';"
fi
if [ -z "$why" ]; then
	echo "ok module-stress: $count + $count module cycles at once on 2 CPUs, $reads cross-module reads, no report"
else
	echo "not ok module-stress:$why (console: $log)"
fi
