#!/bin/bash
# module-forge.sh ARCH MODE LOGDIR WHAT: play CFI's own attacker, who can
# write kernel data and has System.map, against a word that decides a CFI
# verdict.  WHAT is
#   shadow  the CFI shadow pointer (and the module's own check function),
#           so that the judge of a call into module text is code that simply
#           returns; then the core kernel calls the body of a function no
#           pointer may reach;
#   index   __cfi_jt_ids, the type id of each entry of vmlinux's jump
#           tables, written when vmlinux is linked: every entry is given
#           the type of one, then the module calls a core function through
#           a pointer of that other prototype;
#   module-index  the test module's own index (.cfi_jt_ids), which judges
#           the core kernel's calls into the module: an entry is given the
#           type of a timer callback, then a timer calls it;
#   load-race  the same entry, retyped by another module (cfi_load_race)
#           while the test module loads, as soon as the CFI shadow leads
#           to its index; then the timer calls it;
#   struct-ops  the cfi_stubs pointer of a BPF struct_ops type (bpf_dummy_ops,
#           in every kernel with the BPF JIT and networking), whose stubs'
#           prototypes judge the type's trampolines under either CFI;
#   struct-ops-stubs  that type's cfi_stubs object itself.
# Passes if the call is refused (a CFI report) or the attacker's first
# write faults because the word is read-only; fails if the forgery is
# accepted. The first write is where the module says it writes or at a
# System.map address, moved as KASLR moved the kernel.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
what=$4
extra=
case "$what" in
shadow)	symbol=cfi_jt_shadow param=forge_map_shadow offset=0
	marker='forging the CFI shadow pointer' ;;
# The first write is to the first entry's id.
index)	symbol=__cfi_jt_ids param=forge_map_index offset=0
	marker='forging the index of the core' ;;
module-index)
	symbol= param=forge_module_index
	marker="forging this module's index at" ;;
struct-ops)
	symbol=bpf_bpf_dummy_ops param=forge_map_struct_ops
	marker='forging the cfi_stubs of struct_ops .* at' ;;
struct-ops-stubs)
	symbol=bpf_bpf_dummy_ops param=forge_map_struct_ops extra=:forge_struct_ops_stubs=1
	marker='forging the cfi_stubs object of struct_ops .* at' ;;
load-race)
	symbol= param=
	marker="forging test_cfi_module's index at" ;;
*)	echo "not ok module-forge $what: no such target (shadow, index, module-index, struct-ops, struct-ops-stubs or load-race)"; exit 0 ;;
esac
name="module-forge $what"
log=$(test_log "module-forge $what")

if [ -n "$symbol" ]; then
	jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
	addr=$(sysmap_addr "$arch" "$mode" "$symbol")
	if [ -z "$jiffies" ] || [ -z "$addr" ]; then
		echo "not ok $name: no jiffies or $symbol in the $arch/$mode System.map"
		exit 0
	fi
	run="module-forge:forge_map_jiffies=$jiffies:$param=$addr"$extra
elif [ "$what" = load-race ]; then
	jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
	shadow=$(sysmap_addr "$arch" "$mode" cfi_jt_shadow)
	if [ -z "$jiffies" ] || [ -z "$shadow" ]; then
		echo "not ok $name: no jiffies or cfi_jt_shadow in the $arch/$mode System.map"
		exit 0
	fi
	run="module-load-race:map_jiffies=$jiffies:map_shadow=$shadow"
else
	run="module-forge:$param=1"
fi

boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
after=$(sed -n "/$marker/,\$p" "$log")
why=
[ -n "$after" ] || why=" the test module never forged anything;"
echo "$after" | grep -q 'FAIL: a forged' && why="$why the forgery was accepted;"
echo "$after" | grep -q 'write to .* went through' && why="$why the attacker's write went through;"
echo "$after" | console_find panic - > /dev/null || why="$why the guest did not go down;"
caught=$(echo "$after" | first_report)
# A fault counts only if it is the attacker's first write: where the
# module says it writes, or the symbol's address, moved as KASLR moved it.
first=$(echo "$after" | sed -n "s/.*$marker \([0-9a-f][0-9a-f]*\) .*/\1/p" | head -n 1 |
	sed 's/^0*//')
if [ -z "$first" ] && [ -n "$symbol" ]; then
	moved=$(kaslr_offset "$arch" "$mode" "$log")
	first=$(printf '%x' $((addr + offset + ${moved:-0})))
fi
[ -n "$first" ] || first=none
fault=$(echo "$after" | python3 "$CONSOLE" write-fault "$arch" - "$first")
[ -n "$caught$fault" ] || why="$why neither a CFI report nor a fault on the write;"
if [ -n "$why" ]; then
	echo "not ok $name:$why (console: $log)"
elif [ -n "$caught" ]; then
	echo "ok $name: caught: $caught"
else
	echo "ok $name: the attacker's write faulted: $fault"
fi
