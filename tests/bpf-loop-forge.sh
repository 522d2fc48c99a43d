#!/bin/bash
# bpf-loop-forge.sh ARCH MODE LOGDIR: play CFI's own attacker, who can
# write a task's stack, against the loop helpers of BPF.  bpf_loop() calls
# a JIT-compiled callback of the program (guest/audit/bpf-loop.c) four
# times, keeping its address in a register that callees save on the
# stack; when the callback first calls bpf_get_prandom_u32(), the test
# module rewrites every copy of that address on the stack to code of
# another prototype.  Passes only if the second call is refused (a
# report, the guest down); fails if the forged callback runs.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
name=bpf-loop-forge
log=$(test_log bpf-loop-forge)

boot_or_fail "$name" "$log" jtcfi.run=bpf-loop-forge kunit.enable=0 oops=panic || exit 0
if ! grep -q 'forged [1-9][0-9]* copies of the BPF callback' "$log"; then
	echo "not ok $name: the test module forged no copy of the callback (console: $log)"
	exit 0
fi
caught_verdict "$name" "$log" 'forged [0-9]* copies of the BPF callback' \
	'FAIL: a BPF loop helper called a forged callback' bpf_loop
