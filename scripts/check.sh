#!/bin/bash
# check.sh: build and boot every (arch, mode) in $ARCHS x $MODES and run
# the tests; on arm64 also the mode-none negative control.  Prints one
# line per test and closes with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
: "${ARCHS:=arm64 x86_64}" "${MODES:=kcfi}"
logs=${JTCFI_RESULTS:-$JTCFI_TOP/results}/logs
for a in $ARCHS; do check_arch "$a"; done
for m in $MODES; do check_mode "$m"; done
mkdir -p "$logs"

passed=0 failed=0
report() {	# report ARCH MODE "ok NAME: detail" | "not ok NAME: detail"
	local verdict=ok line=$3
	case "$line" in
	"ok "*)		line=${line#ok } ;;
	*)		verdict="not ok"; line=${line#not ok } ;;
	esac
	printf '%s %s %s: %s  (%s)\n' "$1" "$2" "${line%%:*}" "$verdict" "${line#*: }"
	if [ "$verdict" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

run_tests() {	# run_tests ARCH MODE TEST...
	local arch=$1 mode=$2 t
	shift 2
	if ! "$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"; then
		report "$arch" "$mode" "not ok build: failed, its tests not run"
		return
	fi
	for t in "$@"; do
		# shellcheck disable=SC2086
		"$JTCFI_TOP/tests/${t%% *}.sh" "$arch" "$mode" "$logs" ${t#"${t%% *}"} \
			> "$logs/.result"
		[ -s "$logs/.result" ] || echo "not ok $t: test printed no result" > "$logs/.result"
		while read -r line; do report "$arch" "$mode" "$line"; done < "$logs/.result"
	done
	rm -f "$logs/.result"
}

start=$(date +%s)
# The harness's own error handling is checked once, on the first kernel.
extra=harness-errors
for arch in $ARCHS; do
	for mode in $MODES; do
		if ! mode_supports_arch "$mode" "$arch"; then
			echo "$arch $mode: skipped (mode not available on $arch)"
			continue
		fi
		# CFI_FORWARD_UNTAKEN is caught by jump tables and, by design,
		# missed by kCFI: both outcomes are asserted.
		# CFI_FORWARD_SOFT_BUGTABLE and bpf-timer-forge play CFI's own
		# attacker, who can write kernel data.
		tests=(kunit "lkdtm CFI_FORWARD_PROTO" "lkdtm CFI_FORWARD_MIDDLE"
		       "lkdtm CFI_FORWARD_UNTAKEN" "lkdtm CFI_FORWARD_SOFT_BUGTABLE"
		       module-mismatch module-cycles module-symget
		       tracepoint-stub bpf-timer-forge exercise bench-smoke)
		# Jump-table CFI's own: one build, enforcing or permissive as
		# booted; its shadow, sealed init entries and module refusal.
		[ "$mode" = jt ] && tests+=("lkdtm CFI_FORWARD_PROTO permissive"
			cfi-audit module-stale module-forge module-nocheck
			module-initentry "lkdtm CFI_FORWARD_FREED_INIT" module-stress)
		[ "$arch" = arm64 ] && tests+=(el2-kvm)
		run_tests "$arch" "$mode" "${tests[@]}" $extra
		extra=
	done
	if [ "$arch" = arm64 ]; then
		run_tests "$arch" none "lkdtm CFI_FORWARD_PROTO"
	fi
done
echo "console logs: $logs; took $(( $(date +%s) - start ))s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
