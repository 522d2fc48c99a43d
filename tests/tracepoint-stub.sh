#!/bin/bash
# tracepoint-stub.sh ARCH MODE LOGDIR: when unregistering a tracepoint
# probe cannot allocate the smaller probe array, the tracepoint keeps the
# old one with a stub in the probe's place and calls the stub through the
# probe prototype.  The test module makes that allocation fail (failslab)
# and fires its tracepoint: the call must pass CFI, the remaining probe
# must run once, and the module must load.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/verdict.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-tracepoint-stub.log

"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=tracepoint-stub kunit.enable=0 oops=panic || {
	echo "not ok tracepoint-stub: boot failed (console: $log)"
	exit 0
}
passed_verdict tracepoint-stub "$log" \
	"a probe removed without memory left a stub the tracepoint called, no CFI failure" \
	'test_cfi_module: tracepoint called the stub of a removed probe' \
	'^jtcfi-guest: survived tracepoint-stub (insmod exit status 0)'
