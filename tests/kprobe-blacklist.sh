#!/bin/bash
# kprobe-blacklist.sh ARCH MODE LOGDIR: ask for kprobes on notify_die()
# and on a function of a module, both listed by NOKPROBE_SYMBOL(); the
# kprobe blacklist must refuse each.  The macro records the address C
# takes of a function, under jump-table CFI its jump-table entry: a kernel
# that blacklists the entry leaves the code probeable (make audit's
# ftracetest run then looped in the die path).  Under jump-table CFI also
# one on an entry of the module's jump tables, where sealing writes traps
# (and x86 takes an INT3 for a sealed entry's before asking kprobes).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log kprobe-blacklist)

boot_or_fail kprobe-blacklist "$log" \
	jtcfi.run=kprobe-blacklist kunit.enable=0 oops=panic || exit 0
what="notify_die() and a module's NOKPROBE_SYMBOL() function"
entry=
if [ "$mode" = jt ]; then
	what="$what, and on a module's jump-table entry"
	entry='cfi_noprobe: a kprobe on a jump-table entry of this module (.*) was refused (-22)'
fi
passed_verdict kprobe-blacklist "$log" "kprobes refused on $what" \
	'cfi_noprobe: a kprobe on notify_die (.*) was refused (-22)' \
	'cfi_noprobe: a kprobe on cfi_noprobe_listed (.*) was refused (-22)' \
	${entry:+"$entry"} \
	'^jtcfi-guest: kprobe-blacklist: every listed function refused'
