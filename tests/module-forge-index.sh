#!/bin/bash
# module-forge-index.sh ARCH MODE LOGDIR: play CFI's own attacker against
# the index from type id to the core kernel's jump tables that jump-table
# CFI's slow path uses (__cfi_jt_index, built when vmlinux is linked).  The
# test module, given its System.map address as an attacker would have it,
# makes every slot accept every entry of every table, then calls a core
# function through a pointer of another prototype.  Passes if the call is
# refused (a CFI report) or the attacker's write faults because the index
# is read-only; fails if the forged index lets the call in.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-forge-index.log

jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
index=$(sysmap_addr "$arch" "$mode" __cfi_jt_index)
if [ -z "$jiffies" ] || [ -z "$index" ]; then
	echo "not ok module-forge-index: no jiffies or __cfi_jt_index in the $arch/$mode System.map"
	exit 0
fi

boot_or_fail module-forge-index "$log" \
	jtcfi.run="module-forge:forge_map_jiffies=$jiffies:forge_map_index=$index" \
	kunit.enable=0 oops=panic || exit 0
after=$(sed -n '/forging the index of the core/,$p' "$log")
why=
[ -n "$after" ] || why=" the test module never forged anything;"
echo "$after" | grep -q 'FAIL: a forged' && why="$why the forged index let the call in;"
echo "$after" | grep -q "$KERNEL_PANIC" || why="$why the guest did not go down;"
caught=$(echo "$after" | first_report)
# A fault counts only if it is the first write, to the start of slot 0,
# 16 bytes into the index (no KASLR in the test configuration: the
# System.map address).
first=$(printf '%x' $((index + 16)))
fault=$(echo "$after" | grep -m1 "Unable to handle kernel write to read-only memory at virtual address 0*$first\$")
[ -n "$caught$fault" ] || why="$why neither a CFI report nor a fault on the write;"
if [ -n "$why" ]; then
	echo "not ok module-forge-index:$why (console: $log)"
elif [ -n "$caught" ]; then
	echo "ok module-forge-index: caught: $caught"
else
	echo "ok module-forge-index: the attacker's write faulted: $(echo "$fault" | sed 's/^\[ *[0-9.]*\] //')"
fi
