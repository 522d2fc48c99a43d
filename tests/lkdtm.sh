#!/bin/bash
# lkdtm.sh ARCH MODE LOGDIR TEST [permissive]: provoke one LKDTM crash
# point in its own boot, with oops=panic so an enforcing kernel takes the
# guest down.  With "permissive" the same kernel is booted cfi=permissive
# and must report the violation, count it and carry on.
# The expectation is the one in tools/testing/selftests/lkdtm/tests.txt.
# In mode "none" the test is the negative control: it passes only if the
# call was NOT caught (LKDTM's "FAIL: survived"), which proves the harness
# tells a caught violation from a missed one.  The same holds for kCFI and
# CFI_FORWARD_UNTAKEN, the case that separates the two schemes.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3 test=$4 variant=${5:-}
log=$logs/$arch-$mode-lkdtm-$test${variant:+-$variant}.log
name="lkdtm $test${variant:+ $variant}"
boot_args=
[ "$variant" = permissive ] && boot_args=cfi=permissive

line=$(grep -E "^#?$test( |\$)" "$JTCFI_TREE/tools/testing/selftests/lkdtm/tests.txt")
[ -n "$line" ] || { echo "not ok $name: not in lkdtm/tests.txt"; exit 0; }
expect=${line#"$test"}
expect=${expect# }
expect=${expect:-call trace:}

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run="lkdtm:$test" kunit.enable=0 oops=panic $boot_args || {
	echo "not ok $name: boot failed (console: $log)"
	exit 0
}
# Only what the kernel printed after the trigger counts.
after=$(sed -n "/lkdtm: Performing direct entry $test/,\$p" "$log")
[ -n "$after" ] || { echo "not ok $name: crash point never triggered (console: $log)"; exit 0; }

has() { echo "$after" | grep -E -qi "$1"; }
# Misses that are the point of a run: no CFI at all (the control), and
# kCFI given a function of the right prototype whose address is never
# taken (it carries the right hash), which only jump tables refuse.
missed_by=
[ "$mode" = none ] && missed_by="without CFI, as expected (control)"
[ "$mode" = kcfi ] && [ "$test" = CFI_FORWARD_UNTAKEN ] &&
	missed_by="by kCFI, as expected: only jump tables refuse it"
if [ -n "$missed_by" ]; then
	if has 'FAIL: survived' && has '^jtcfi-guest: survived' && ! has 'CFI failure'; then
		echo "ok $name: not caught $missed_by"
	else
		echo "not ok $name: expected a missed violation, the console shows otherwise (console: $log)"
	fi
	exit 0
fi

if [ "$variant" = permissive ]; then
	why=
	has 'CFI failure' || why="$why no CFI report;"
	has 'FAIL: survived' && has '^jtcfi-guest: survived' || why="$why the call did not go on;"
	has 'Kernel panic' && why="$why the guest went down;"
	total=$(echo "$after" | sed -n 's/^jtcfi-guest: cfi-violations: total: //p')
	[ "${total:-0}" -ge 1 ] || why="$why violation counter is '${total:-missing}';"
	if [ -z "$why" ]; then
		echo "ok $name: reported, counted ($total) and survived"
	else
		echo "not ok $name:$why (console: $log)"
	fi
	exit 0
fi

why=
has 'CFI failure' || why="$why no CFI report;"
has "$expect" || why="$why missing '$expect';"
has 'FAIL: survived|^jtcfi-guest: survived' && why="$why the call or the guest survived;"
# An enforcing stop that only warned has been softened.
has '^WARNING:' && why="$why the stop was only a warning;"
has 'Kernel panic' || why="$why the guest did not go down;"
if [ -z "$why" ]; then
	echo "ok $name: caught: $(echo "$after" | grep -m1 -i 'CFI failure' | sed 's/^\[ *[0-9.]*\] //')"
else
	echo "not ok $name:$why (console: $log)"
fi
