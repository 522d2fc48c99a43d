#!/bin/bash
# list-tests.sh [PLAN]: the tests a plan (default tests/plan) runs, one a
# line: archs, modes, expected outcome, test, and what it checks, from the
# test's own header (tests/NAME.sh) or its stanza in tests/boot-tests.
set -eu
. "$(dirname "$0")/lib.sh"
plan=${1:-$JTCFI_TOP/tests/plan}
[ -f "$plan" ] || die "no test plan $plan"

# what TEST [ARGS]: the first sentence of what the test's header says
# after its synopsis, or of its stanza's comment in tests/boot-tests.
what() {
	local t=$1 script=$JTCFI_TOP/tests/${1%% *}.sh
	if [ -f "$script" ]; then
		awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$script" |
			sed '1s/^[^:]*: *//'
	else
		awk -v t="$t" '$0 == t { found = 1; next }
			found && /^[ \t]*#/ { sub(/^[ \t]*# ?/, ""); print; next }
			found { exit }' "$JTCFI_TOP/tests/boot-tests"
	fi | tr '\n' ' ' | sed 's/\. .*/./; s/ *$//' | cut -c1-120
}

while read -r archs modes expect test; do
	case "$archs" in ''|'#'*) continue ;; esac
	printf '%-8s %-8s %-9s %-40s %s\n' "$archs" "$modes" "$expect" "$test" "$(what "$test")"
done < "$plan"
