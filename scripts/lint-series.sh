#!/bin/bash
# lint-series.sh: what a maintainer checks in patches/ before reading
# further, with no kernel build: each patch (patches/series)
#   - is clean under checkpatch.pl --strict, or its message says why not
#     (it names checkpatch);
#   - is signed off by its author;
#   - has a subject of at most 75 characters with a subsystem prefix;
#   - cites no other patch by number ("patch 0065", "patches 56-58") and no
#     figure of this harness ("make check", results/, tests/) in its
#     message: a message describes the kernel, in the kernel's terms;
# and the whole series applies with git am to the pristine Debian tree.
# Prints one line per problem and a count; fails if there is any.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
git -C "$JTCFI_TREE" rev-parse -q --verify pristine >/dev/null ||
	die "$JTCFI_TREE is not prepared (run 'make tree')"
series=$JTCFI_TOP/patches/series
[ -s "$series" ] || die "$series is missing or empty (run 'make export')"
checkpatch=$JTCFI_TREE/scripts/checkpatch.pl
need_tool perl

problems=$(mktemp)
problem() { echo "lint-series: $1: $2" | tee -a "$problems"; }

# The message: the mail's headers and body, up to the diffstat's "---".
message() { sed -n '/^---$/q;p' "$1"; }

# checkpatch.pl first, every patch at once on every core: it takes most
# of the time.
cp_out=$(mktemp -d)
trap 'rm -f "$problems"; rm -rf "$cp_out"' EXIT
(cd "$JTCFI_TOP/patches" && xargs -P "$(nproc)" -I{} sh -c \
	'cd "$1" && perl "$2" --strict -q --no-summary "$3/{}" > "$4/{}" 2>&1 || true' \
	sh "$JTCFI_TREE" "$checkpatch" "$JTCFI_TOP/patches" "$cp_out" < "$series")

n=0
while read -r patch; do
	n=$((n + 1))
	file=$JTCFI_TOP/patches/$patch
	[ -f "$file" ] || { problem "$patch" "listed in patches/series but missing"; continue; }
	msg=$(message "$file")
	author=$(echo "$msg" | sed -n 's/^From: //p' | head -n 1)
	# format-patch folds a long subject onto lines that start with a space.
	subject=$(echo "$msg" | awk '/^Subject: /{s=$0; f=1; next} f && /^ /{s=s $0; next} f{print s; exit}' |
		sed 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//')
	body=$(echo "$msg" | sed '1,/^$/d')
	text=$(echo "$body" | grep -v '^[A-Za-z-]*: .*<.*@.*>$' || true)

	echo "$body" | grep -qxF "Signed-off-by: $author" ||
		problem "$patch" "no Signed-off-by of its author ($author)"
	[ "${#subject}" -le 75 ] ||
		problem "$patch" "subject of ${#subject} characters (at most 75): $subject"
	echo "$subject" | grep -Eq '^[A-Za-z0-9_./-]+(, ?[A-Za-z0-9_./-]+)*: ' ||
		problem "$patch" "subject without a subsystem prefix: $subject"
	# (Not a register dump's "RIP: 0010:...".)
	cited=$(echo "$text" | grep -Pio '\bpatch(es)? ([0-9]{2,4}|[0-9]+-[0-9]+)\b|\b0[0-9]{3}\b(?!:)' | head -n 3 | paste -sd, -)
	[ -z "$cited" ] || problem "$patch" "cites patches by number: $cited"
	harness=$(echo "$text" | grep -Eo '\bmake (check|bench|audit|precision|run)\b|\bresults/|\btests/[a-z-]+\.sh|\bjtcfi\b' |
		sort -u | paste -sd, -)
	[ -z "$harness" ] || problem "$patch" "cites the harness: $harness"
	report=$(grep -E '^(ERROR|WARNING|CHECK):' "$cp_out/$patch" | sort | uniq -c |
		sed 's/^ *//' | paste -sd';' -) || true
	if [ -n "$report" ] && ! echo "$body" | grep -qi checkpatch; then
		problem "$patch" "checkpatch --strict: $report, and the message does not say why"
	fi
done < "$series"

# git am of the whole series onto pristine, in a throw-away worktree.
work=$(mktemp -d)
git -C "$JTCFI_TREE" worktree add -q --detach "$work/tree" pristine
if ! sed "s|^|$JTCFI_TOP/patches/|" "$series" | xargs git -C "$work/tree" \
	-c user.name=lint -c user.email=lint@localhost am -q --keep-cr > "$work/am.log" 2>&1; then
	problem series "does not apply with git am to the pristine tree: $(grep -m1 -E 'error|Patch failed' "$work/am.log" || tail -n 1 "$work/am.log")"
	git -C "$work/tree" am --abort 2>/dev/null || true
fi
git -C "$JTCFI_TREE" worktree remove --force "$work/tree"
rm -rf "$work"

bad=$(grep -c . "$problems" || true)
echo "lint-series: $n patches, $bad problems"
[ "$bad" = 0 ]
