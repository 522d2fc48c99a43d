#!/bin/bash
# tracepoint-stub.sh ARCH MODE LOGDIR: when unregistering a tracepoint
# probe cannot allocate the smaller probe array, the tracepoint keeps the
# old one with a stub in the probe's place and calls the stub through the
# probe prototype.  The test module makes that allocation fail (failslab)
# and fires its tracepoint: the call must pass CFI, the remaining probe
# must run once, and the module must load.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$logs/$arch-$mode-tracepoint-stub.log

boot_or_fail tracepoint-stub "$log" \
	jtcfi.run=tracepoint-stub kunit.enable=0 oops=panic || exit 0
passed_verdict tracepoint-stub "$log" \
	"a probe removed without memory left a stub the tracepoint called, no CFI failure" \
	'test_cfi_module: tracepoint called the stub of a removed probe' \
	'^jtcfi-guest: survived tracepoint-stub (insmod exit status 0)'
