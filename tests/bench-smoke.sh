#!/bin/bash
# bench-smoke.sh ARCH MODE LOGDIR: every benchmark once, in quick mode, so
# that none of them rots between `make bench` runs: the micro module, each
# macro program and the module-load loop must print their result lines.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log bench-smoke)

# printk.time=1 as make bench boots: every console line, guest/init's
# start line too, then carries a timestamp (it once made boot.sh take
# every benchmark boot for one that never reached init).
boot_or_fail bench-smoke "$log" kunit.enable=0 printk.time=1 \
	jtcfi.run=bench-micro:10000,bench-macro:quick,bench-modload:3 || exit 0
expected=("micro loop" "micro direct" "micro unchecked" "micro checked" "micro cross" "micro into"
	"micro bpf-run" "micro bpf-direct" modload)
for c in "$JTCFI_TOP"/guest/bench/*.c; do
	prog=$(basename "$c" .c)
	[ "$prog" = modload ] || expected+=("macro $prog")
done
missing=
for what in "${expected[@]}"; do
	grep -q "jtcfi-bench: $what " "$log" || missing="$missing, $what"
done
if grep -q '^jtcfi-guest: error' "$log"; then
	echo "not ok bench-smoke: $(grep -m1 '^jtcfi-guest: error' "$log") (console: $log)"
elif [ -n "$missing" ]; then
	echo "not ok bench-smoke: no result from ${missing#, } (console: $log)"
else
	echo "ok bench-smoke: micro, $(grep -c 'jtcfi-bench: macro ' "$log") macro programs and modload each printed a result"
fi
