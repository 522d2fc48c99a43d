#!/bin/bash
# jt-code-pointers.sh ARCH MODE LOGDIR: no word of vmlinux's data may hold
# the code of a function where its jump-table entry belongs.  LTO makes
# every address C takes of a function its entry, which a checked call
# accepts; a pointer it leaves as code (a weak alias's, for one) is
# refused by every checked call made through it.  Words that hold code on
# purpose are in tools/jt-code-pointers/places, each with its reason.
# tools/jt-code-pointers reads vmlinux's absolute pointers (arm64: its
# relative relocations; x86_64: the relocs tool's list).  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
report=$(test_log jt-code-pointers txt)

LLVM_SUFFIX=$LLVM python3 "$JTCFI_TOP/tools/jt-code-pointers/jt-code-pointers.py" \
	"$arch" "$out" > "$report" 2>&1
status=$?
last=$(tail -n 1 "$report")
case $status in
0)	echo "ok jt-code-pointers: $last, each with its reason (tools/jt-code-pointers/places)" ;;
1)	echo "not ok jt-code-pointers: $last: $(grep -m3 '(no place)$' "$report" | tr '\n' ';' | sed 's/;$//')... (list: $report)" ;;
*)	echo "not ok jt-code-pointers: $last" ;;
esac
