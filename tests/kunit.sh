#!/bin/bash
# kunit.sh ARCH MODE LOGDIR: boot once; every KUnit suite built into the
# kernel runs during boot; the console is parsed by the tree's kunit.py.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$logs/$arch-$mode-kunit.log

boot_or_fail kunit "$log" jtcfi.run=kunit || exit 0
# The serial console interleaves other kernel messages with the KTAP
# output (on x86 the TSC calibration work lands between a suite's
# "KTAP version" and "# Subtest" lines, which kunit.py rejects), so hand it
# KTAP's own lines only.  A crash inside a test still shows: its results
# are then missing.
ktap=$log.ktap parsed=$log.parsed
grep -E '^[[:space:]]*(KTAP version|TAP version|1\.\.|ok |not ok |#)' "$log" > "$ktap"
python3 "$JTCFI_TREE/tools/testing/kunit/kunit.py" parse "$ktap" > "$parsed" 2>&1
status=$?
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$parsed" | grep -E 'Testing complete|Ran [0-9]+ tests' | tail -n 1)
ran=$(echo "$summary" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
if [ "$status" = 0 ] && [ "${ran:-0}" -gt 0 ]; then
	echo "ok kunit: ${summary#*Testing complete. }"
else
	echo "not ok kunit: ${summary:-no KTAP output} (see $parsed)"
fi
