#!/bin/bash
# bpf-timer-forge.sh ARCH MODE LOGDIR [tree]: play CFI's own attacker, who
# can write kernel data, against BPF timers.  bpf_timer_cb() is a valid
# hrtimer function that calls the callback it reads from the memory around
# the hrtimer; the test module builds that memory with a callback that is
# no BPF program (a function of another prototype) and starts the timer.
# With "tree" it also forges the BPF symbol tree, found through
# System.map, so that the callback looks like the start of a BPF program.
# Passes only if CFI refuses the callback (a report, the guest down);
# fails if the forged callback runs.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
what=${4:-}
name=bpf-timer-forge${what:+ $what}
log=$(test_log "bpf-timer-forge${what:+ $what}")
# The pointer C code gets for bpf_timer_cb(): its jump-table entry under
# jump tables (named <function>[.<hash>].cfi_jt), the function otherwise.
if [ "$mode" = jt ]; then
	cb=$(sysmap_addr "$arch" "$mode" 'bpf_timer_cb(\.[0-9a-f]+)?\.cfi_jt')
else
	cb=$(sysmap_addr "$arch" "$mode" bpf_timer_cb)
fi
jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
if [ -z "$cb" ] || [ -z "$jiffies" ]; then
	echo "not ok $name: no bpf_timer_cb or jiffies in the $arch/$mode System.map"
	exit 0
fi
run="module-forge:forge_map_jiffies=$jiffies:forge_map_bpf_timer_cb=$cb"
case "$what" in
"")	;;
tree)	tree=$(sysmap_addr "$arch" "$mode" bpf_tree)
	[ -n "$tree" ] || { echo "not ok $name: no bpf_tree in the $arch/$mode System.map"; exit 0; }
	run="$run:forge_map_bpf_tree=$tree" ;;
*)	echo "not ok bpf-timer-forge: no such variant '$what' (tree)"; exit 0 ;;
esac

boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
caught_verdict "$name" "$log" 'Starting a forged BPF timer' 'FAIL: bpf_timer_cb' \
	bpf_timer_cb
