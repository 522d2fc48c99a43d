#!/bin/bash
# module-report.sh ARCH MODE LOGDIR VIA: the CFI test module calls
# kstrtoint() with a mismatched prototype through its own pointer, VIA
# "entry" (the module's jump-table entry for the core function, which has
# no symbol of its own) or "mid-entry" (2 bytes into it).  The call must
# be caught, and the report must say what the target is: the function
# behind the entry, or a place inside an entry.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
via=$4
name="module-report $via"
log=$(test_log "module-report $via")
case "$via" in
entry)
	first='target: kstrtoint+0x0/0x[0-9a-f]* through a jump-table entry;'
	detail='target: jump-table entry [0-9]* in test_cfi_module for kstrtoint in vmlinux,' ;;
mid-entry)
	first='target: [^;]*[0-9a-f] \[test_cfi_module\]; expected'
	detail='target: 2 bytes into a jump-table entry in test_cfi_module, where no entry starts' ;;
*)	die "module-report: unknown target '$via' (entry or mid-entry)" ;;
esac

boot_or_fail "$name" "$log" \
	"jtcfi.run=module-forge:mismatch_via=$via" kunit.enable=0 oops=panic || exit 0
# The module's own __cfi_check() judges this call: the report finds the
# caller, the module's init function (init_module, or by its own name as
# clang-14's kallsyms has it), by unwinding through it.
verdict=$(caught_verdict "$name" "$log" 'mismatched prototype \.\.\.' 'FAIL: survived' \
	'init_module\|test_cfi_module_init')
case "$verdict" in
"not ok"*)	echo "$verdict" ;;
*)	if ! python3 "$CONSOLE" first-report "$log" | grep -q "^CFI failure at .*$first"; then
		echo "not ok $name: the report's first line does not match '$first' (console: $log)"
	elif ! grep -q "$detail" "$log"; then
		echo "not ok $name: no report line '$detail' (console: $log)"
	else
		echo "ok $name: $(grep -m1 -o "$detail.*" "$log")"
	fi ;;
esac
