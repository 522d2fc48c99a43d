#!/bin/bash
# export-series.sh: write the tree's commits after "pristine" to patches/
# (git format-patch) and list them in patches/series, then record the tree
# as in sync so that prepare-tree.sh does not re-apply what it came from.
set -eu
. "$(dirname "$0")/lib.sh"
git -C "$JTCFI_TREE" rev-parse -q --verify pristine >/dev/null ||
	die "$JTCFI_TREE is not prepared (run 'make tree')"

rm -f "$JTCFI_TOP"/patches/*.patch
# Blank context lines are written empty, not as a lone space: checkpatch,
# run inside this repository, reads tracked .patch files as source files.
git -C "$JTCFI_TREE" -c diff.suppressBlankEmpty=true \
	format-patch -q --no-signature --zero-commit \
	-o "$JTCFI_TOP/patches" pristine..HEAD
(cd "$JTCFI_TOP/patches" && ls -- *.patch 2>/dev/null > series || : > series)
n=$(grep -c . "$JTCFI_TOP/patches/series" || true)
sum=$(series_sum)
echo "$sum $(git -C "$JTCFI_TREE" rev-parse HEAD)" > "$JTCFI_CACHE/tree.applied"
note "exported $n patches to patches/"
