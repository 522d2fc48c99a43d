#!/bin/bash
# bpf-run-forge.sh ARCH MODE LOGDIR SITE: play CFI's own attacker against
# the run sites of BPF programs.  A JIT-compiled program's struct
# bpf_prog stays writable, and every run calls its bpf_func; the test
# module overwrites it with the code of a function of another prototype
# and runs the program:
#   module  from the module itself (bpf_prog_run_pin_on_cpu());
#   core    as the filter of a kernel socket, through the core kernel's
#           sk_filter_trim_cap().
# Expecting "caught", passes only if the run is refused (a report, the
# guest down); expecting "missed" (arm64 kCFI, which runs BPF programs
# unchecked: __bpfcall is __nocfi there), only if the forged function ran
# and no CFI report followed.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught missed
where=${4:-}
name="bpf-run-forge $where"
log=$(test_log "bpf-run-forge $where")
case "$where" in
module)	run=module-forge:forge_bpf_func=1 site= ;;
core)	run=module-forge:forge_bpf_func=1:forge_bpf_socket=1 site=sk_filter_trim_cap ;;
*)	echo "not ok bpf-run-forge: no such run site '$where' (module or core)"; exit 0 ;;
esac

boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
if [ "${JTCFI_EXPECT:-caught}" = missed ]; then
	missed_verdict "$name" "$log" 'forging the bpf_func of a JIT-compiled' \
		"by $mode, as expected: the BPF dispatcher's call is not checked" \
		'FAIL: a BPF run site called a forged bpf_func'
else
	caught_verdict "$name" "$log" 'forging the bpf_func of a JIT-compiled' \
		'FAIL: a BPF run site called a forged bpf_func' "$site"
fi
