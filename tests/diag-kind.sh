#!/bin/bash
# diag-kind.sh ARCH MODE LOGDIR SITE: play CFI's own attacker against the
# handler of a failed check.  Jump-table CFI passes each checked call
# site's diagnostic record, writable data, to the failure handler of the
# image the target is in; clang's own handler reads the check's kind from
# it and lets the call go on for a kind it does not know.  The test module
# gives the records of SITE's call sites such a kind, then makes a call
# CFI must refuse (to the code of a function of another prototype, which
# no pointer reaches) from one of them:
#   module  its own call site (diag_victim), into its own text;
#   core    the core kernel's call_timer_fn(), into the module's text.
# Passes only if the call is refused (a report, the guest down) and, under
# jump tables, records were found to forge; kCFI has no such records and
# must catch the call all the same.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
where=${4:-}
name="diag-kind $where"
log=$(test_log "diag-kind $where")
case "$where" in
module)	run=module-forge:forge_diag_kind=1 site=diag_victim ;;
core)	jiffies=$(sysmap_addr "$arch" "$mode" jiffies)
	sdata=$(sysmap_addr "$arch" "$mode" _sdata)
	edata=$(sysmap_addr "$arch" "$mode" _edata)
	if [ -z "$jiffies" ] || [ -z "$sdata" ] || [ -z "$edata" ]; then
		echo "not ok $name: no jiffies, _sdata or _edata in the $arch/$mode System.map"
		exit 0
	fi
	run="module-forge:forge_diag_kind=1:forge_map_jiffies=$jiffies:forge_map_sdata=$sdata:forge_map_edata=$edata"
	site=call_timer_fn ;;
*)	echo "not ok diag-kind: no such call site '$where' (module or core)"; exit 0 ;;
esac

boot_or_fail "$name" "$log" jtcfi.run="$run" kunit.enable=0 oops=panic || exit 0
forged=$(sed -n 's/.*forging the kind of \([0-9]*\) diagnostic records.*/\1/p' "$log" | head -n 1)
if [ "$mode" = jt ] && [ "${forged:-0}" -lt 1 ]; then
	echo "not ok $name: the test module found no diagnostic record to forge (console: $log)"
	exit 0
fi
caught_verdict "$name" "$log" 'forging the kind of' \
	'FAIL: a forged diagnostic kind' "$site"
