# shellcheck shell=bash
# Shared by the tests that provoke one CFI violation in enforcing mode
# with oops=panic and must see it caught.

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
