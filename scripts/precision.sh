#!/bin/bash
# precision.sh ARCH: how many functions each checked indirect call may
# reach under kcfi and under jt, for the config profile $JTCFI_PROFILE
# (PROFILE=server: what a distribution kernel builds in).  Builds both
# modes in that profile, boots nothing, and has scripts/bench-figures.py
# run tools/cfi-precision (and, for jt, cfi-jt-refs) on each vmlinux:
# results/precision-PROFILE/ARCH.tsv and the analyser's outputs beside
# it, then scripts/precision-report.py writes results/precision-PROFILE.md
# from every ARCH measured so far.  make bench gives the same figures for
# the test profile, among the others.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1
check_arch "$arch"
check_profile
need_tool "llvm-size$LLVM" python3

need_kcfi_and_jt precision "$arch"
modes=(kcfi jt)

figures=$JTCFI_RESULTS/precision-$JTCFI_PROFILE
mkdir -p "$figures"
figure_builds "$arch" "${modes[@]}"

python3 "$JTCFI_TOP/scripts/bench-figures.py" "$arch" --out "$figures/$arch.tsv" "${figargs[@]}" ||
	exit 1
report=$JTCFI_RESULTS/precision-$JTCFI_PROFILE.md
python3 "$JTCFI_TOP/scripts/precision-report.py" "$JTCFI_PROFILE" "$figures" "$report" ||
	die "could not write $report"
note "results: $report (raw figures: $figures/$arch.tsv)"
