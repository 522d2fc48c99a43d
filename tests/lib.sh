# shellcheck shell=bash
# Shared by the tests: their arguments, the one boot each makes, the
# console patterns they judge by and the verdicts.  A test prints one or
# more "ok NAME: what was seen" / "not ok NAME: why (console: LOG)" lines;
# check.sh counts them.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# What a console says is scripts/console.py's to know: the verdicts below
# and first_report are its (the guest's survived marker too).  The tests'
# own lines they pass it are grep basic regular expressions.
CONSOLE=$JTCFI_TOP/scripts/console.py
# A report's first line without the console's time stamp.
first_report() {	# first_report < CONSOLE-TEXT
	python3 "$CONSOLE" first-report -
}

# console_find KIND[,KIND...] LOG|- [MARKER]: the first line (after
# MARKER) showing one of KIND (report, panic, oops, warning, test-failed,
# guest-error, survived), from where it matches; status 1 if none does.
console_find() {
	python3 "$CONSOLE" find "$@"
}

# test_args "$@": the arguments every test takes, ARCH MODE LOGDIR and
# its own, checked against the synopsis that opens its header (a test run
# by hand with the wrong ones gets its usage line); sets arch, mode and
# logs.
test_args() {
	arch_mode_args "$@"
	logs=$(mkdir -p "$3" && cd "$3" && pwd)
}

# test_log NAME [EXT]: where this test keeps what it saw (log_path).
test_log() {
	log_path "$logs" "$arch" "$mode" "$@"
}

# need_objdump NAME: sets objdump to the LLVM objdump of $LLVM, or prints
# "not ok NAME" and returns 1 (the caller exits) if it is not installed.
need_objdump() {
	objdump=llvm-objdump$LLVM
	command -v "$objdump" > /dev/null && return 0
	echo "not ok $1: $objdump is not installed"
	return 1
}

# expect_only EXPECTATION...: check.sh passes the test plan's expectation
# in JTCFI_EXPECT; a test that asserts a fixed outcome refuses any other
# rather than report "ok" for something it did not check.
expect_only() {
	local e
	[ -n "${JTCFI_EXPECT:-}" ] || return 0
	for e in "$@"; do
		[ "$JTCFI_EXPECT" = "$e" ] && return 0
	done
	echo "not ok ${0##*/}: the plan expects '$JTCFI_EXPECT', this test only checks: $*"
	exit 0
}

# boot_or_fail NAME LOG KERNEL-ARGS...: boot the (arch, mode) kernel with
# its console in LOG.  If the guest did not boot, print the test's
# "not ok" with boot.sh's reason and return 1 (the caller exits).
boot_or_fail() {
	local name=$1 log=$2 err
	shift 2
	if ! err=$("$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" "$@" 2>&1 >/dev/null); then
		echo "not ok $name: boot failed: $(echo "$err" | tail -n 1 | sed 's/^jtcfi: error: //')"
		return 1
	fi
}

# kunit_verdict NAME LOG [MARKER]: the KTAP output in LOG (from the line
# matching MARKER on), parsed by the tree's kunit.py; prints "ok NAME:
# Ran N tests: ..." only if it parses, a test ran and none failed.  The
# serial console interleaves other kernel messages with the KTAP output (on
# x86 the TSC calibration work lands between a suite's "KTAP version" and
# "# Subtest" lines, which kunit.py rejects), so it gets KTAP's own lines
# only.  A crash inside a test still shows: its results are then missing.
kunit_verdict() {
	local name=$1 log=$2 marker=${3:-.} ktap=$2.ktap parsed=$2.parsed status summary ran
	sed -n "/$marker/,\$p" "$log" | grep -v "^$JTCFI_LOG_HEADER" |
		grep -E '^[[:space:]]*(KTAP version|TAP version|1\.\.|ok |not ok |#)' > "$ktap"
	python3 "$JTCFI_TREE/tools/testing/kunit/kunit.py" parse "$ktap" > "$parsed" 2>&1
	status=$?
	summary=$(sed 's/\x1b\[[0-9;]*m//g' "$parsed" | grep -E 'Testing complete|Ran [0-9]+ tests' | tail -n 1)
	ran=$(echo "$summary" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
	if [ "$status" = 0 ] && [ "${ran:-0}" -gt 0 ]; then
		echo "ok $name: ${summary#*Testing complete. }"
	else
		echo "not ok $name: ${summary:-no KTAP output} (see $parsed)"
	fi
}

# caught_verdict NAME LOG MARKER SURVIVED [SITE [REPORT]]: looks at LOG
# from the line matching MARKER (the guest's announcement that it is about
# to make the call) on, and prints "ok NAME: caught: <report>" only if a
# CFI report follows, naming SITE as the call site if given, matching
# REPORT if given, nothing matching
# SURVIVED (the call's or the guest's own "still here" line) does, the
# stop was not softened into a warning, and the kernel panicked (the
# tests boot with oops=panic).
caught_verdict() {
	python3 "$CONSOLE" caught "$@"
}

# missed_verdict NAME LOG MARKER REASON SURVIVED...: the expected miss (no
# CFI, or a call one scheme accepts by design): "ok" only if, after
# MARKER, every SURVIVED line shows the call went on and no CFI report
# appeared.
missed_verdict() {
	python3 "$CONSOLE" missed "$@"
}

# reported_verdict NAME LOG MARKER SITE SURVIVED...: permissive mode:
# after MARKER a CFI report (naming SITE as the call site, unless SITE is
# empty), every SURVIVED line (the call went on), the guest stayed up and
# the violation counter the guest prints counted it, against SITE if given.
reported_verdict() {
	python3 "$CONSOLE" reported "$@"
}

# Call-depth tracking (x86_64): the boot arguments that turn it on
# ("force": QEMU's CPU model does not have the bug stuffing is for); the
# console parser's call-depth-on says it is.
CALL_DEPTH_ARGS=(spectre_v2=retpoline retbleed=stuff,force)

# build_has LINE: whether the (arch, mode) kernel's .config has LINE.
build_has() {
	grep -qxF -- "$1" "$(build_dir "$arch" "$mode")/.config"
}

# passed_verdict NAME LOG WHAT LINE...: prints "ok NAME: WHAT" only if
# LOG has every LINE (the module's and the guest's own reports that the
# calls were made and insmod succeeded) and no CFI report, test failure,
# warning or harness error anywhere.
passed_verdict() {
	python3 "$CONSOLE" passed "$@"
}

# refused_verdict NAME LOG REFUSAL SURVIVED [NEVER...]: prints "ok NAME:
# refused: <the kernel's line>" only if LOG has a line matching REFUSAL
# (why the kernel refused), the guest's SURVIVED line (it saw the
# operation fail) and no NEVER line, CFI report, oops, warning or panic.
refused_verdict() {
	python3 "$CONSOLE" refused "$@"
}
