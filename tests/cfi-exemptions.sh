#!/bin/bash
# cfi-exemptions.sh ARCH MODE LOGDIR: every indirect call jump-table CFI
# leaves unchecked has a reason.  tools/cfi-exemptions reads the IR of
# every C object of the build (vmlinux and the modules): each function
# with an indirect call neither the compiler's check nor the run time's
# set of BPF JIT entries covers, and each object built without CFI, must
# be named in tools/cfi-exemptions/reasons (a new __nocfi, or an object
# that lost its CFI flags, fails the test).  make exemptions sets the
# same figures beside kCFI's.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
name=cfi-exemptions
report=$(test_log "$name" json)
tools=$JTCFI_TOP/tools/cfi-exemptions

if ! JTCFI_TREE=$JTCFI_TREE LLVM_SUFFIX=$LLVM python3 "$tools/cfi-exemptions.py" \
	"$(build_dir "$arch" "$mode")" "$arch" "$mode" > "$report"; then
	echo "not ok $name: tools/cfi-exemptions failed on the $arch/$mode build"
	exit 0
fi
unexplained=$(python3 "$tools/exemptions-report.py" --unexplained "$report" | paste -sd' ' -)
figures=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(f\"{d['ir-indirect-calls-checked']} of {d['ir-indirect-calls']} indirect calls checked \"
      f\"({d['ir-indirect-calls-checked-by-bpf-jit-entries']} against the BPF JIT entries), \"
      f\"{d['ir-indirect-calls-unchecked']} unchecked in {d['functions-with-unchecked-calls']} functions, \"
      f\"{d['c-objects-without-cfi']} objects without CFI\")" "$report")
if [ -n "$unexplained" ]; then
	echo "not ok $name: no reason in tools/cfi-exemptions/reasons for: $unexplained ($figures; $report)"
else
	echo "ok $name: $figures, each with its reason"
fi
