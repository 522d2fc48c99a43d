# shellcheck shell=bash
# Verdicts shared by the tests that boot with oops=panic and read one
# console log: a violation that must be caught, or calls that must pass.

# caught_verdict NAME LOG MARKER SURVIVED: looks at LOG from the line
# matching MARKER (the guest's announcement that it is about to make the
# call) on, and prints "ok NAME: caught: <report>" only if a CFI report
# follows, nothing matching SURVIVED (the call's or the guest's own
# "still here" line) does, and the kernel panicked.
caught_verdict() {
	local name=$1 log=$2 marker=$3 survived=$4 after why=
	after=$(sed -n "/$marker/,\$p" "$log")
	[ -n "$after" ] || why="$why the call was never made;"
	echo "$after" | grep -q 'CFI failure' || why="$why no CFI report;"
	echo "$after" | grep -q "$survived" && why="$why the call or the guest survived;"
	echo "$after" | grep -q 'Kernel panic' || why="$why the guest did not go down;"
	if [ -z "$why" ]; then
		echo "ok $name: caught: $(echo "$after" | grep -m1 'CFI failure' | sed 's/^\[ *[0-9.]*\] //')"
	else
		echo "not ok $name:$why (console: $log)"
	fi
}

# passed_verdict NAME LOG WHAT LINE...: prints "ok NAME: WHAT" only if
# LOG has every LINE (the module's and the guest's own reports that the
# calls were made and insmod succeeded) and no CFI report, test failure,
# warning or harness error anywhere.
passed_verdict() {
	local name=$1 log=$2 what=$3 line why=
	shift 3
	for line in "$@"; do
		grep -q "$line" "$log" || why=${why:-"no line '$line'"}
	done
	why=$(grep -m1 -o 'CFI failure.*\|FAIL:.*\|WARNING:.*\|jtcfi-guest: error.*' "$log" || echo "$why")
	if [ -z "$why" ]; then
		echo "ok $name: $what"
	else
		echo "not ok $name: $why (console: $log)"
	fi
}
