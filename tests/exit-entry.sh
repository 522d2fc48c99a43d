#!/bin/bash
# exit-entry.sh ARCH MODE LOGDIR: the module_exit() function of built-in
# code is an __exit function of vmlinux, freed with init memory after
# boot, but its jump-table entry stays, valid for its prototype.  The
# test module calls such an entry (found through vmlinux's symbol table
# and System.map) with its prototype.  Passes only if the call is refused
# with a CFI report (the guest down); fails if it runs into freed memory.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
name=exit-entry
log=$(test_log exit-entry)
out=$(build_dir "$arch" "$mode")
need_objdump "$name" || exit 0
[ -e "$out/vmlinux" ] || { echo "not ok $name: $out/vmlinux is missing"; exit 0; }

# The first function of .exit.text that has an entry (<function>[.<hash>].cfi_jt).
entry= fn=
while read -r f; do
	entry=$(sysmap_addr "$arch" "$mode" "$f(\.[0-9a-f]+)?\.cfi_jt")
	[ -n "$entry" ] && { fn=$f; break; }
done < <("$objdump" -t "$out/vmlinux" | awk '$4 == ".exit.text" && $3 == "F" { print $NF }' | sort)
jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
if [ -z "$entry" ] || [ -z "$jiffies" ]; then
	echo "not ok $name: no entry of an .exit.text function, or no jiffies, in the $arch/$mode System.map"
	exit 0
fi

boot_or_fail "$name" "$log" \
	jtcfi.run="module-forge:forge_map_jiffies=$jiffies:forge_map_exit_entry=$entry" \
	kunit.enable=0 oops=panic || exit 0
caught_verdict "$name ($fn)" "$log" 'Calling the entry of a freed built-in __exit function' \
	'FAIL: survived a call of a freed built-in __exit' call_freed_exit
