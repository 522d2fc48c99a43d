#!/bin/bash
# module-forge.sh ARCH MODE LOGDIR: play CFI's own attacker, who can write
# kernel data.  The test module overwrites the words jump-table CFI's
# cross-DSO slow path reads to choose the __cfi_check() that judges a call
# into module text (the shadow pointer, found through System.map as an
# attacker would, and the module's own check function) so that the judge
# is code that simply returns, then has the core kernel call the body of
# a function no pointer may reach.  Passes if the call is refused (a CFI
# report) or the attacker's write faults because the word is read-only;
# fails if the forged look-up lets the call in.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-forge.log

jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
shadow=$(sysmap_addr "$arch" "$mode" cfi_jt_shadow)
if [ -z "$jiffies" ] || [ -z "$shadow" ]; then
	echo "not ok module-forge: no jiffies or cfi_jt_shadow in the $arch/$mode System.map"
	exit 0
fi

boot_or_fail module-forge "$log" \
	jtcfi.run="module-forge:forge_map_jiffies=$jiffies:forge_map_shadow=$shadow" \
	kunit.enable=0 oops=panic || exit 0
after=$(sed -n '/forging the CFI shadow pointer/,$p' "$log")
why=
[ -n "$after" ] || why=" the test module never forged anything;"
echo "$after" | grep -q 'FAIL: a forged' && why="$why the forged look-up let the call in;"
echo "$after" | grep -q "$KERNEL_PANIC" || why="$why the guest did not go down;"
caught=$(echo "$after" | first_report)
# A fault counts only if it is the write to the shadow pointer itself
# (no KASLR in the test configuration: its System.map address).
fault=$(echo "$after" | grep -m1 "Unable to handle kernel write to read-only memory at virtual address 0*${shadow#0x}\$")
[ -n "$caught$fault" ] || why="$why neither a CFI report nor a fault on the write;"
if [ -n "$why" ]; then
	echo "not ok module-forge:$why (console: $log)"
elif [ -n "$caught" ]; then
	echo "ok module-forge: caught: $caught"
else
	echo "ok module-forge: the attacker's write faulted: $(echo "$fault" | sed 's/^\[ *[0-9.]*\] //')"
fi
