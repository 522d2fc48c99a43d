#!/bin/bash
# export-series.sh: write the tree's commits after "pristine" to patches/
# (git format-patch) and list them in patches/series, then record the tree
# as in sync so that prepare-tree.sh does not re-apply what it came from.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
git -C "$JTCFI_TREE" rev-parse -q --verify pristine >/dev/null ||
	die "$JTCFI_TREE is not prepared (run 'make tree')"

# The cover letter's subject is the first line of patches/cover-letter.txt
# and its text the rest; format-patch adds the shortlog and diffstat.
cover=$JTCFI_TOP/patches/cover-letter.txt
[ -s "$cover" ] || die "$cover is missing: the series needs its cover letter"

rm -f "$JTCFI_TOP"/patches/*.patch
# Blank context lines are written empty, not as a lone space: checkpatch,
# run inside this repository, reads tracked .patch files as source files.
git_series -c diff.suppressBlankEmpty=true format-patch \
	-q --no-signature --zero-commit --cover-letter \
	-o "$JTCFI_TOP/patches" pristine..HEAD
letter=$JTCFI_TOP/patches/0000-cover-letter.patch
python3 - "$letter" "$cover" <<'PY'
import sys
letter, cover = sys.argv[1], sys.argv[2]
subject, _, blurb = open(cover).read().partition("\n")
text = open(letter).read()
for placeholder, value in (("*** SUBJECT HERE ***", subject.strip()),
                           ("*** BLURB HERE ***", blurb.strip())):
    if placeholder not in text:
        sys.exit(f"{letter}: no '{placeholder}' to fill in")
    text = text.replace(placeholder, value, 1)
open(letter, "w").write(text)
PY
# The cover letter is mail, not a patch: git am is never given it.
(cd "$JTCFI_TOP/patches" && ls -- [0-9]*.patch 2>/dev/null |
	grep -vx 0000-cover-letter.patch > series || : > series)
n=$(grep -c . "$JTCFI_TOP/patches/series" || true)
sum=$(series_sum)
echo "$sum $(git -C "$JTCFI_TREE" rev-parse HEAD)" > "$JTCFI_TREE_STAMP"
note "exported $n patches to patches/"
