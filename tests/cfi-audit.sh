#!/bin/bash
# cfi-audit.sh ARCH MODE LOGDIR: the permissive roll-out audit.  Boot with
# cfi=permissive, run every KUnit suite and 20 module load cycles, and read
# jump-table CFI's violation counters: a kernel ready to enforce has none.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log cfi-audit)

boot_or_fail cfi-audit "$log" jtcfi.run=kunit,modules:20 cfi=permissive || exit 0
total=$(sed -n 's/^jtcfi-guest: cfi-violations: total: //p' "$log" | tail -n 1)
if [ -z "$total" ]; then
	echo "not ok cfi-audit: no violation counters in the console (console: $log)"
elif [ "$total" != 0 ] || console_find report "$log" > /dev/null; then
	echo "not ok cfi-audit: $total violations in permissive mode: $(console_find report "$log") (console: $log)"
else
	echo "ok cfi-audit: boot, KUnit and module cycles in permissive mode: 0 violations"
fi
