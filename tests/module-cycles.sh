#!/bin/bash
# module-cycles.sh ARCH MODE LOGDIR: load and unload the CFI test module
# 200 times; every load makes calls across the module boundary in both
# directions (fast and slow path) and queues a delayed work, all of which
# must pass with no violation and no warning.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
n=200
log=$logs/$arch-$mode-module-cycles.log

JTCFI_BOOT_TIMEOUT=${JTCFI_BOOT_TIMEOUT:-600} boot_or_fail module-cycles "$log" \
	jtcfi.run="modules:$n" kunit.enable=0 oops=panic || exit 0
cycles=$(sed -n 's/^jtcfi-guest: module cycles: //p' "$log")
calls=$(grep -c 'test_cfi_module: cross-module calls ok' "$log")
# A WARNING would be the workqueue's timer-function check refusing the
# module's delayed work.
if [ "$cycles" = "$n of $n" ] && [ "$calls" = "$n" ] && ! grep -q "$CFI_REPORT\\|$TEST_FAILED\\|${KERNEL_WARNING#^}" "$log"; then
	echo "ok module-cycles: $n loads and unloads, cross-module calls and delayed work passed each time"
else
	echo "not ok module-cycles: cycles '${cycles:-none}', $calls loads with passing calls$(grep -m1 -o 'WARNING:.*' "$log" | sed 's/^/, /') (console: $log)"
fi
