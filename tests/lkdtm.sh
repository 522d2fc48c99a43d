#!/bin/bash
# lkdtm.sh ARCH MODE LOGDIR TEST: provoke one LKDTM crash point in its own
# boot, with oops=panic so an enforcing kernel takes the guest down.
# The expectation is the one in tools/testing/selftests/lkdtm/tests.txt.
# In mode "none" the test is the negative control: it passes only if the
# call was NOT caught (LKDTM's "FAIL: survived"), which proves the harness
# tells a caught violation from a missed one.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3 test=$4
log=$logs/$arch-$mode-lkdtm-$test.log

line=$(grep -E "^#?$test( |\$)" "$JTCFI_TREE/tools/testing/selftests/lkdtm/tests.txt")
[ -n "$line" ] || { echo "not ok lkdtm $test: not in lkdtm/tests.txt"; exit 0; }
expect=${line#"$test"}
expect=${expect# }
expect=${expect:-call trace:}

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run="lkdtm:$test" kunit.enable=0 oops=panic || {
	echo "not ok lkdtm $test: boot failed (console: $log)"
	exit 0
}
# Only what the kernel printed after the trigger counts.
after=$(sed -n "/lkdtm: Performing direct entry $test/,\$p" "$log")
[ -n "$after" ] || { echo "not ok lkdtm $test: crash point never triggered (console: $log)"; exit 0; }

has() { echo "$after" | grep -E -qi "$1"; }
if [ "$mode" = none ]; then
	if has 'FAIL: survived' && has '^jtcfi-guest: survived' && ! has 'CFI failure'; then
		echo "ok lkdtm $test: not caught without CFI, as expected (control)"
	else
		echo "not ok lkdtm $test: control run did not show a missed violation (console: $log)"
	fi
	exit 0
fi

why=
has 'CFI failure' || why="$why no CFI report;"
has "$expect" || why="$why missing '$expect';"
has 'FAIL: survived|^jtcfi-guest: survived' && why="$why the call or the guest survived;"
has 'Kernel panic' || why="$why the guest did not go down;"
if [ -z "$why" ]; then
	echo "ok lkdtm $test: caught: $(echo "$after" | grep -m1 -i 'CFI failure' | sed 's/^\[ *[0-9.]*\] //')"
else
	echo "not ok lkdtm $test:$why (console: $log)"
fi
