#!/bin/bash
# jt-code-pointers.sh ARCH MODE LOGDIR: no word of the data of vmlinux or
# of a module may hold the code of a function where its jump-table entry
# belongs.  LTO makes every address C takes of a function its entry, which
# a checked call accepts; a pointer it leaves as code (a weak alias's, for
# one) is refused by every checked call made through it.  Words that hold
# code on purpose are in tools/jt-code-pointers/places, each with its
# reason.  The tool must first find the code pointer planted in
# tools/jt-code-pointers/planted.c, compiled here.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
report=$(test_log jt-code-pointers txt)
tool=$JTCFI_TOP/tools/jt-code-pointers
planted=$(test_log jt-code-pointers-planted o)

"clang$LLVM" --target="$(arch_field "$arch" triple)" -O2 -c -o "$planted" "$tool/planted.c" ||
	{ echo "not ok jt-code-pointers: clang$LLVM could not compile $tool/planted.c"; exit 0; }
control=$(LLVM_SUFFIX=$LLVM python3 "$tool/jt-code-pointers.py" --module "$planted" 2>&1)
if ! grep -q ' -> planted_target (no place)$' <<< "$control"; then
	echo "not ok jt-code-pointers: the tool did not find the code pointer planted in planted.c: $(tail -n 1 <<< "$control")"
	exit 0
fi

LLVM_SUFFIX=$LLVM python3 "$tool/jt-code-pointers.py" "$arch" "$out" > "$report" 2>&1
status=$?
last=$(tail -n 1 "$report")
case $status in
0)	echo "ok jt-code-pointers: $last, each with its reason (tools/jt-code-pointers/places); the planted one found" ;;
1)	echo "not ok jt-code-pointers: $last: $(grep -m3 '(no place)$' "$report" | tr '\n' ';' | sed 's/;$//')... (list: $report)" ;;
*)	echo "not ok jt-code-pointers: $last" ;;
esac
