#!/bin/bash
# module-mismatch.sh ARCH MODE LOGDIR: the CFI test module calls a core
# kernel function through a pointer of the wrong prototype (the cross-DSO
# slow path).  Enforcing CFI must report it, stop the call and, with
# oops=panic, take the guest down.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-mismatch.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-mismatch kunit.enable=0 oops=panic || {
	echo "not ok module-mismatch: boot failed (console: $log)"
	exit 0
}
after=$(sed -n '/mismatched prototype \.\.\./,$p' "$log")
why=
[ -n "$after" ] || why="$why the module never made the call;"
echo "$after" | grep -q 'CFI failure' || why="$why no CFI report;"
echo "$after" | grep -q 'FAIL: survived\|^jtcfi-guest: survived' && why="$why the call or the guest survived;"
echo "$after" | grep -q 'Kernel panic' || why="$why the guest did not go down;"
if [ -z "$why" ]; then
	echo "ok module-mismatch: caught: $(echo "$after" | grep -m1 'CFI failure' | sed 's/^\[ *[0-9.]*\] //')"
else
	echo "not ok module-mismatch:$why (console: $log)"
fi
