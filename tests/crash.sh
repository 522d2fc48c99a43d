#!/bin/bash
# crash.sh ARCH MODE LOGDIR NAME...: the crash test NAME of tests/crashes
# (a stanza: the guest's jtcfi.run= item, the marker before the call, what
# shows the call survived, the call site, what the report must say), booted
# with oops=panic and judged as caught by scripts/console.py.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
shift 3
name="$*"
run= marker= survived= site= report= found=
while IFS= read -r line; do
	case "$line" in
	'#'*|'') [ -n "$found" ] && [ -z "$line" ] && break; continue ;;
	[![:space:]]*) [ "$line" = "$name" ] && found=1; continue ;;
	esac
	[ -n "$found" ] || continue
	read -r key value <<< "$line"
	case "$key" in
	'#'*) ;;
	run|marker|survived|site|report) printf -v "$key" '%s' "$value" ;;
	*) echo "not ok $name: tests/crashes: unknown field '$key'"; exit 0 ;;
	esac
done < "$JTCFI_TOP/tests/crashes"
if [ -z "$found" ] || [ -z "$run" ] || [ -z "$marker" ] || [ -z "$survived" ]; then
	echo "not ok $name: no complete stanza in tests/crashes (run, marker, survived)"
	exit 0
fi
log=$(test_log "$name")

boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
caught_verdict "$name" "$log" "$marker" "$survived" "$site" "$report"
