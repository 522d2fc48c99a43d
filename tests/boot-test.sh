#!/bin/bash
# boot-test.sh ARCH MODE LOGDIR NAME...: the test NAME of tests/boot-tests
# (a stanza: the guest's jtcfi.run= item and what its console must show),
# booted with oops=panic and judged by scripts/console.py as the stanza's
# "expect" says.  With JTCFI_CONSOLE=LOG it judges that recorded console
# instead of booting (make test-harness does).
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
shift 3
name="$*"
data=$JTCFI_TOP/tests/boot-tests
expect= run= marker= survived= site= report= what= refusal= found=
lines=() never=()
while IFS= read -r line; do
	case "$line" in
	'#'*|'') [ -n "$found" ] && [ -z "$line" ] && break; continue ;;
	[![:space:]]*) [ "$line" = "$name" ] && found=1; continue ;;
	esac
	[ -n "$found" ] || continue
	read -r key value <<< "$line"
	case "$key" in
	'#'*) continue ;;
	# KEY:MODE holds under MODE only.
	*:*) [ "${key#*:}" = "$mode" ] || continue; key=${key%%:*} ;;
	esac
	case "$key" in
	expect|run|marker|survived|site|report|what|refusal) printf -v "$key" '%s' "$value" ;;
	line) lines+=("$value") ;;
	never) never+=("$value") ;;
	*) echo "not ok $name: tests/boot-tests: unknown field '$key'"; exit 0 ;;
	esac
done < "$data"

# The fields each expectation needs.
case "$expect" in
caught)		need="run marker survived" ;;
pass)		need="run what"; [ ${#lines[@]} -gt 0 ] || need="$need line" ;;
refused)	need="run refusal survived" ;;
*)		echo "not ok $name: tests/boot-tests: no stanza '$name' or no expect (caught, pass, refused)"
		exit 0 ;;
esac
for f in $need; do
	if [ "$f" = line ] || [ -z "${!f}" ]; then
		echo "not ok $name: tests/boot-tests: the stanza has no '$f' (a $expect test needs: $need)"
		exit 0
	fi
done
expect_only "$expect"
if [ -n "${JTCFI_CONSOLE:-}" ]; then
	log=$JTCFI_CONSOLE
else
	log=$(test_log "$name")
	boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
fi
case "$expect" in
caught)		caught_verdict "$name" "$log" "$marker" "$survived" "$site" "$report" ;;
pass)		passed_verdict "$name" "$log" "$what" "${lines[@]}" ;;
refused)	refused_verdict "$name" "$log" "$refusal" "$survived" "${never[@]}" ;;
esac
