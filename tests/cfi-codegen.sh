#!/bin/bash
# cfi-codegen.sh ARCH MODE LOGDIR: the code the compiler made for
# jump-table CFI in vmlinux and every module built for the (arch, mode)
# kernel, read back by tools/cfi-codegen-audit: no __cfi_check() or
# __cfi_check_fail() decides by memory the attacker can write (the
# caller's diagnostic record, through an argument), every module's
# __cfi_check_fail() is the kernel's, and every jump-table entry is a
# direct branch.  It also counts the slow-path calls after which the
# checked target comes back from the stack or a callee-saved register
# (the report, in LOGDIR).  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
report=$(test_log cfi-codegen txt)
need_objdump "cfi-codegen" || exit 0
[ -e "$out/vmlinux" ] || { echo "not ok cfi-codegen: $out/vmlinux is missing"; exit 0; }
# modroot/ holds copies of the tree's modules.
mapfile -t modules < <(find "$out" -name '*.ko' -not -path "$out/modroot/*" | sort)

python3 "$JTCFI_TOP/tools/cfi-codegen-audit/cfi-codegen-audit.py" -o "$objdump" \
	--sites "$out/vmlinux" "${modules[@]}" > "$report" 2>&1
status=$?
sites=$(sed -n 's/^all images: //p' "$report")
if [ "$status" = 0 ]; then
	echo "ok cfi-codegen: $(tail -n 1 "$report"); $sites"
else
	echo "not ok cfi-codegen: $(grep -m1 '^  ' "$report" | sed 's/^ *//') (report: $report)"
fi
