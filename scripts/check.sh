#!/bin/bash
# check.sh: build and boot every (arch, mode) in $ARCHS x $MODES and run
# the tests tests/plan names for each; MODES may name "none", the kernel
# without CFI, which runs only the plan's lines that name it (controls).
# JTCFI_TEST (make check T=...) keeps the lines whose test, with its
# arguments, is it or starts with it (a glob).  A test is tests/NAME.sh,
# or a stanza of tests/boot-tests run by tests/boot-test.sh.  Prints one
# line per test and closes with "N passed, N failed, N skipped".
set -u
. "$(dirname "$0")/lib.sh"
usage_check "$@"
: "${ARCHS:=$(arch_list | xargs)}" "${MODES:=jt}"
plan=${JTCFI_PLAN:-$JTCFI_TOP/tests/plan}
logs=$JTCFI_LOGS
for a in $ARCHS; do check_arch "$a"; done
# What a plan line's "*" means: every CFI mode asked for, never "none".
cfi_modes=
for m in $MODES; do
	check_mode "$m"
	[ "$m" = none ] || cfi_modes="$cfi_modes $m"
done
[ -f "$plan" ] || die "no test plan $plan"
mkdir -p "$logs"

passed=0 failed=0 skipped=0
report() {	# report ARCH MODE "ok NAME: detail" | "not ok NAME: detail"
	local verdict=ok line=$3
	case "$line" in
	"ok "*)		line=${line#ok } ;;
	*)		verdict="not ok"; line=${line#not ok } ;;
	esac
	printf '%s %s %s: %s  (%s)\n' "$1" "$2" "${line%%:*}" "$verdict" "${line#*: }"
	if [ "$verdict" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# in_list WORD LIST ALL: LIST is comma-separated, or * for ALL.
in_list() {
	local list=$2
	[ "$list" = "*" ] && list=$3
	[[ ",${list// /,}," == *",$1,"* ]]
}

# plan_for ARCH MODE FIRST: the plan's lines for (ARCH, MODE) as
# "EXPECT TEST [ARGS]"; FIRST=1 on the first (arch, mode) built.
plan_for() {
	local archs modes expect test
	while read -r archs modes expect test; do
		case "$archs" in ''|'#'*) continue ;; esac
		[ -n "$test" ] || die "$plan: a line without a test: '$archs $modes $expect'"
		case "$expect" in
		pass|caught|missed|reported|refused) ;;
		*) die "$plan: unknown expectation '$expect' for '$test'" ;;
		esac
		if [ "$archs" = once ]; then
			[ "$3" = 1 ] || continue
		else
			in_list "$1" "$archs" "$ARCHS" || continue
		fi
		in_list "$2" "$modes" "$cfi_modes" || continue
		selected "$test" || continue
		echo "$expect $test"
	done < "$plan"
}

# selected TEST [ARGS]: whether T= (JTCFI_TEST) keeps a plan line's test.
selected() {
	# shellcheck disable=SC2053
	[ -z "${JTCFI_TEST:-}" ] || [[ "$1" == $JTCFI_TEST || "$1" == $JTCFI_TEST" "* ]]
}

# run_test TEST [ARGS]: tests/TEST.sh ARGS, or tests/boot-test.sh TEST
# ARGS for a stanza of tests/boot-tests.
run_test() {
	local script=$JTCFI_TOP/tests/${1%% *}.sh
	# shellcheck disable=SC2086
	if [ -f "$script" ]; then
		"$script" "$arch" "$mode" "$logs" ${1#"${1%% *}"}
	else
		"$JTCFI_TOP/tests/boot-test.sh" "$arch" "$mode" "$logs" $1
	fi
}

run_tests() {	# run_tests ARCH MODE FIRST
	local arch=$1 mode=$2 expect t
	local -a tests
	mapfile -t tests < <(plan_for "$@")
	[ ${#tests[@]} -gt 0 ] || return 1
	if ! mode_supports_arch "$mode" "$arch"; then
		for t in "${tests[@]}"; do
			printf '%s %s %s: skipped  (mode not available on %s)\n' "$arch" "$mode" "${t#* }" "$arch"
		done
		skipped=$((skipped + ${#tests[@]}))
		return 1
	fi
	note "$arch/$mode: preparing the kernel for ${#tests[@]} tests"
	if ! "$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"; then
		report "$arch" "$mode" "not ok build: failed, its ${#tests[@]} tests not run"
		return 0
	fi
	for t in "${tests[@]}"; do
		expect=${t%% *} t=${t#* }
		JTCFI_EXPECT=$expect run_test "$t" > "$logs/.result"
		[ -s "$logs/.result" ] || echo "not ok $t: test printed no result" > "$logs/.result"
		while read -r line; do report "$arch" "$mode" "$line"; done < "$logs/.result"
	done
	rm -f "$logs/.result"
}

# Every test a plan line names exists, and T= names at least one.
matched=0
while read -r _ _ _ t; do
	[ -n "$t" ] || continue
	[ -f "$JTCFI_TOP/tests/${t%% *}.sh" ] || grep -qxF -- "$t" "$JTCFI_TOP/tests/boot-tests" ||
		die "$plan: no tests/${t%% *}.sh and no stanza '$t' in tests/boot-tests"
	selected "$t" && matched=1
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$plan")
[ "$matched" = 1 ] || die "no test in $plan matches T='${JTCFI_TEST:-}'"

start=$(date +%s)
first=1
for arch in $ARCHS; do
	for mode in $MODES; do
		if run_tests "$arch" "$mode" "$first"; then
			first=0
		fi
	done
done
echo "console logs: $logs; took $(( $(date +%s) - start ))s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
