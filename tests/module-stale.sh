#!/bin/bash
# module-stale.sh ARCH MODE LOGDIR: the CFI test module leaves a timer
# behind and is unloaded; when the timer fires, the core kernel calls into
# the module's freed text.  Jump-table CFI must refuse that call (the
# shadow no longer maps the page to any module) before it runs: a CFI
# report, not the page fault that follows without CFI, and the guest goes
# down (oops=panic).
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-module-stale.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=module-stale kunit.enable=0 oops=panic || {
	echo "not ok module-stale: boot failed (console: $log)"
	exit 0
}
after=$(sed -n '/left a timer that fires after unload/,$p' "$log")
why=
[ -n "$after" ] || why="$why the module never set the timer;"
echo "$after" | grep -q 'CFI failure' || why="$why no CFI report;"
echo "$after" | grep -q 'FAIL: the core kernel called into an unloaded module\|^jtcfi-guest: survived' &&
	why="$why the call or the guest survived;"
echo "$after" | grep -q 'Kernel panic' || why="$why the guest did not go down;"
if [ -z "$why" ]; then
	echo "ok module-stale: caught: $(echo "$after" | grep -m1 'CFI failure' | sed 's/^\[ *[0-9.]*\] //')"
else
	echo "not ok module-stale:$why (console: $log)"
fi
