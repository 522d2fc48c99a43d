#!/bin/bash
# exemptions.sh ARCH: what each CFI mode leaves unchecked in the config
# profile $JTCFI_PROFILE: tools/cfi-exemptions reads the IR of every C
# object of vmlinux and the modules under kcfi and under jt (both built
# here, none booted) into results/exemptions-PROFILE/ARCH-MODE.json, then
# writes results/exemptions-PROFILE.md from every ARCH measured so far.
# Fails if jt leaves unchecked a function kcfi checks, or an object kcfi
# builds with CFI, that tools/cfi-exemptions/reasons does not explain.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1
check_arch "$arch"
check_profile
need_tool "llvm-dis$LLVM" "llvm-objdump$LLVM" python3

need_kcfi_and_jt exemptions "$arch"
modes=(kcfi jt)

out=$JTCFI_RESULTS/exemptions-$JTCFI_PROFILE
mkdir -p "$out"
for m in "${modes[@]}"; do
	"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$m"
	JTCFI_TREE=$JTCFI_TREE LLVM_SUFFIX=$LLVM \
		python3 "$JTCFI_TOP/tools/cfi-exemptions/cfi-exemptions.py" \
		"$(build_dir "$arch" "$m")" "$arch" "$m" > "$out/$arch-$m.json.tmp" ||
		die "tools/cfi-exemptions failed on the $arch/$m build"
	mv "$out/$arch-$m.json.tmp" "$out/$arch-$m.json"
done
report=$JTCFI_RESULTS/exemptions-$JTCFI_PROFILE.md
python3 "$JTCFI_TOP/tools/cfi-exemptions/exemptions-report.py" "$JTCFI_PROFILE" "$out" "$report" ||
	die "jt leaves unchecked what kcfi checks with no reason recorded (see $report)"
note "results: $report"
