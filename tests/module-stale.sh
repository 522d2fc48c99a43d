#!/bin/bash
# module-stale.sh ARCH MODE LOGDIR [forge-size]: the test module leaves a timer
# behind and is unloaded; when the timer fires, the core kernel calls into
# the module's freed text.  Jump-table CFI must refuse that call (the
# shadow no longer maps the page to any module) before it runs: a CFI
# report, not the page fault that follows without CFI, and the guest goes
# down (oops=panic).  With forge-size the module, as it is unloaded,
# shrinks the text struct module (writable) gives it to the pages before
# the one of the entry the timer calls: the unloader must clear that
# page's shadow slot all the same (a slot left behind leads the call to
# the freed index: a page fault in the slow path, no CFI report).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
case "${4:-}" in
"")		name=module-stale run=module-stale ;;
forge-size)	name="module-stale forge-size" run=module-stale:forge_unload_size=1 ;;
*)		echo "not ok module-stale: unknown variant '$4' (forge-size)"; exit 0 ;;
esac
log=$logs/$arch-$mode-${name// /-}.log

boot_or_fail "$name" "$log" \
	jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
caught_verdict "$name" "$log" 'left a timer that fires after unload' 'FAIL: the core kernel called into an unloaded module\|^jtcfi-guest: survived'
