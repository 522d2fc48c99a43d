#!/bin/bash
# cfi-audit.sh ARCH MODE LOGDIR: the permissive roll-out audit.  Boot with
# cfi=permissive, run every KUnit suite and 20 module load cycles, and read
# jump-table CFI's violation counters: a kernel ready to enforce has none.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-cfi-audit.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" jtcfi.run=kunit,modules:20 cfi=permissive || {
	echo "not ok cfi-audit: boot failed (console: $log)"
	exit 0
}
total=$(sed -n 's/^jtcfi-guest: cfi-violations: total: //p' "$log" | tail -n 1)
if [ -z "$total" ]; then
	echo "not ok cfi-audit: no violation counters in the console (console: $log)"
elif [ "$total" != 0 ] || grep -q 'CFI failure' "$log"; then
	echo "not ok cfi-audit: $total violations in permissive mode: $(grep -m1 'CFI failure' "$log") (console: $log)"
else
	echo "ok cfi-audit: boot, KUnit and module cycles in permissive mode: 0 violations"
fi
