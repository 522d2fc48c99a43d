#!/bin/bash
# module-cycles.sh ARCH MODE LOGDIR [stuff]: load and unload the CFI test
# module 200 times; every load makes calls across the module boundary in
# both directions (fast and slow path) and queues a delayed work, all of
# which must pass with no violation and no warning.  With "stuff"
# (x86_64), the boot has call-depth tracking on (retbleed=stuff): every
# direct call goes through a call thunk ahead of its target, and each
# loaded module's calls are patched to them.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
n=200
variant=${4:-}
name="module-cycles${variant:+ $variant}"
log=$(test_log "module-cycles${variant:+ $variant}")
args=()
case "$variant" in
'')	;;
stuff)	args=("${CALL_DEPTH_ARGS[@]}") ;;
*)	echo "not ok $name: no such variant (stuff)"; exit 0 ;;
esac

JTCFI_BOOT_TIMEOUT=${JTCFI_BOOT_TIMEOUT:-600} boot_or_fail "$name" "$log" \
	jtcfi.run="modules:$n" kunit.enable=0 oops=panic "${args[@]}" || exit 0
if [ "$variant" = stuff ] && ! console_find call-depth-on "$log" > /dev/null; then
	echo "not ok $name: booted ${args[*]}, but the console does not say call-depth tracking is on (console: $log)"
	exit 0
fi
cycles=$(sed -n 's/^jtcfi-guest: module cycles: //p' "$log")
calls=$(grep -c 'test_cfi_module: cross-module calls ok' "$log")
# A WARNING would be the workqueue's timer-function check refusing the
# module's delayed work.
bad=$(console_find report,test-failed,warning "$log")
if [ "$cycles" = "$n of $n" ] && [ "$calls" = "$n" ] && [ -z "$bad" ]; then
	echo "ok $name: $n loads and unloads${variant:+ with call-depth tracking}, cross-module calls and delayed work passed each time"
else
	echo "not ok $name: cycles '${cycles:-none}', $calls loads with passing calls${bad:+, $bad} (console: $log)"
fi
