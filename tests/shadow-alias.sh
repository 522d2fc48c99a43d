#!/bin/bash
# shadow-alias.sh ARCH MODE LOGDIR: jump-table CFI's read-only data that
# changes at run time, the CFI shadow (written when a module is loaded and
# unloaded) and the set of JIT-compiled BPF entries (when a program is
# JIT-compiled and freed), must have no writable mapping CFI's attacker,
# on another CPU, could use while it is written.  cfi_load_race (alias=1)
# writes a word through every mapping of a page of either that vunmap()
# takes down while it makes and frees a classic BPF program and the test
# module is loaded and unloaded.  Passes if both were written (the
# module's slots led to its index when it was coming; the program was
# JIT-compiled) and no alias was seen; fails if a write through an alias
# changed either.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
name=shadow-alias
log=$(test_log "$name")

jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
shadow=$(sysmap_addr "$arch" "$mode" cfi_jt_shadow)
entries=$(sysmap_addr "$arch" "$mode" bpf_jit_entries)
if [ -z "$jiffies" ] || [ -z "$shadow" ] || [ -z "$entries" ]; then
	echo "not ok $name: no jiffies, cfi_jt_shadow or bpf_jit_entries in the $arch/$mode System.map"
	exit 0
fi
boot_or_fail "$name" "$log" \
	jtcfi.run=shadow-alias:map_jiffies=$jiffies:map_shadow=$shadow:map_bpf_jit_entries=$entries \
	kunit.enable=0 oops=panic || exit 0
summary=$(grep -m1 "cfi_load_race: test_cfi_module's slots" "$log" | sed 's/^\[ *[0-9.]*\] //')
wrote=$(grep -m1 'cfi_load_race: wrote the read-only' "$log" | sed 's/^\[ *[0-9.]*\] //')
if [ -n "$wrote" ]; then
	echo "not ok $name: $wrote (console: $log)"
elif [ -z "$summary" ]; then
	echo "not ok $name: cfi_load_race never said what it saw (console: $log)"
elif ! echo "$summary" | grep -q 'slots were in the CFI shadow.* was JIT-compiled; writable aliases seen: 0 of the shadow, 0 of'; then
	echo "not ok $name: $summary (console: $log)"
else
	echo "ok $name: $summary"
fi
