#!/bin/bash
# sealed-int3-forge.sh ARCH MODE LOGDIR: x86 seals the jump-table entry of
# freed init code with an INT3.  The INT3 handler must decide by nothing
# the attacker can write: here the test module forges bp_desc, the
# descriptor of a text_poke_bp() in progress, to say a JMP elsewhere is
# being written at that INT3, then calls its freed init function through
# its entry (a call valid for the entry's type).  Passes only if the call
# is refused with the sealed entry's CFI report; fails if the forged jump
# is taken.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
name=sealed-int3-forge
log=$(test_log "$name")
[ "$arch" = x86_64 ] || { echo "not ok $name: x86_64 only (arm64 seals with a BRK no data steers)"; exit 0; }

jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
stext=$(sysmap_addr "$arch" "$mode" _stext)
bp_desc=$(sysmap_addr "$arch" "$mode" 'bp_desc(\.llvm\.[0-9]+)?')
if [ -z "$jiffies" ] || [ -z "$stext" ] || [ -z "$bp_desc" ]; then
	echo "not ok $name: no jiffies, _stext or bp_desc in the $arch/$mode System.map"
	exit 0
fi

boot_or_fail "$name" "$log" \
	jtcfi.run="module-initentry:forge_map_jiffies=$jiffies:forge_map_stext=$stext:forge_map_bp_desc=$bp_desc" \
	kunit.enable=0 oops=panic || exit 0
caught_verdict "$name" "$log" 'Calling this module.s freed init function' \
	'FAIL: a forged text_poke_bp\|FAIL: called freed init code' call_freed_init
