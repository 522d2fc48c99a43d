#!/bin/bash
# struct-ops.sh ARCH MODE LOGDIR: a BPF TCP congestion control registered
# through struct_ops (guest/audit/bpf-struct-ops: TCP calls its programs
# through tcp_congestion_ops pointers to JIT-made trampolines), then the
# CFI test module, given the ssthresh trampoline's address, calls it with
# the member's prototype (must reach the program, which returns 10) and
# with another (must be caught).  Needs PROFILE=server: the test profile
# has no network stack.  make audit runs it on jt; arm64 kCFI fails the
# first call already (Debian's 6.12 BPF JIT writes no type hash in front
# of trampolines).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
log=$(test_log "$JTCFI_PROFILE struct-ops")
[ "$JTCFI_PROFILE" = server ] || {
	echo "not ok struct-ops: needs PROFILE=server (a kernel with TCP and BPF struct_ops)"
	exit 0
}

boot_or_fail struct-ops "$log" jtcfi.run=struct-ops kunit.enable=0 oops=panic || exit 0
marker='Calling a struct_ops trampoline with a mismatched prototype'
before=$(sed -n "1,/$marker/p" "$log")
if ! echo "$before" | grep -q '^jtcfi-struct-ops: registered; .* cong_avoid [1-9]'; then
	echo "not ok struct-ops: TCP never ran the BPF congestion control: $(grep -m1 '^jtcfi-struct-ops' "$log" || echo 'no line') (console: $log)"
elif echo "$before" | console_find report - > /dev/null; then
	echo "not ok struct-ops: a call with the member's prototype was refused: $(echo "$before" | first_report) (console: $log)"
elif ! echo "$before" | grep -q 'A struct_ops trampoline called with its prototype returned 10'; then
	echo "not ok struct-ops: the call with the member's prototype did not reach the program (console: $log)"
else
	verdict=$(caught_verdict struct-ops "$log" "$marker" \
		'FAIL: survived a mismatched call')
	case "$verdict" in
	ok*)	grep -q 'for the BPF struct_ops trampoline bpf__tcp_congestion_ops_ssthresh' "$log" &&
			echo "$verdict; the report names the trampoline" ||
			echo "not ok struct-ops: the report does not name the trampoline (console: $log)" ;;
	*)	echo "$verdict" ;;
	esac
fi
