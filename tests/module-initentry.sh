#!/bin/bash
# module-initentry.sh ARCH MODE LOGDIR: the test module keeps a pointer to
# its own init function (a jump-table entry in its core text, which
# outlives the init text) and calls it from a timer once init code has
# been freed.  The call must be refused with a CFI report before it
# reaches freed memory, which the next module's code may occupy; without
# that, it runs whatever lies there (here: a fault on the freed page).
# The report must name the entry by its function (init_module, or by its
# own name as clang-14's kallsyms has it), not by another symbol that
# starts at the same address, such as the __typeid_*_global_addr alias
# LLVM gives the first entry of each table.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$logs/$arch-$mode-module-initentry.log

boot_or_fail module-initentry "$log" \
	jtcfi.run=module-initentry kunit.enable=0 oops=panic || exit 0
verdict=$(caught_verdict module-initentry "$log" 'Calling this module.s freed init function' 'FAIL: called freed init code\|^jtcfi-guest: survived')
target='target: \(init_module\|test_cfi_module_init\)+0x0/0x[0-9a-f]* \[test_cfi_module\];'
case "$verdict" in
"not ok"*)	echo "$verdict" ;;
*)	if python3 "$CONSOLE" first-report "$log" | grep -q "^CFI failure at .*$target"; then
		echo "$verdict"
	else
		echo "not ok module-initentry: the report does not name the entry's function: $(python3 "$CONSOLE" first-report "$log") (console: $log)"
	fi ;;
esac
