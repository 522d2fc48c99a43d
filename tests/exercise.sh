#!/bin/bash
# exercise.sh ARCH MODE LOGDIR: run what the other tests never do, on a
# kernel booted kpti=1 (arm64: the KPTI mappings are installed by calling
# idmap code by its physical address at boot): the function tracer (ftrace
# patches its call site, whose address the series takes with
# function_nocfi()) while the test module makes its cross-module calls,
# and a kretprobe (the probed function returns through the kretprobe
# trampoline).  Every step must work with no CFI report, warning or oops.
# CPU hotplug and kexec are not in the test configuration.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$logs/$arch-$mode-exercise.log

boot_or_fail exercise "$log" \
	jtcfi.run=exercise kunit.enable=0 oops=panic kpti=1 || exit 0
traced=$(sed -n 's/^jtcfi-guest: exercise: function tracer: \([0-9]*\) lines traced/\1/p' "$log")
if [ "${traced:-0}" -lt 1 ]; then
	echo "not ok exercise: the function tracer traced nothing (console: $log)"
	exit 0
fi
passed_verdict exercise "$log" "kpti=1 boot, function tracer ($traced lines) over module loads, a kretprobe: no CFI report" \
	'jtcfi-guest: exercise: kretprobe ok' 'cfi_kretprobe: .* 1 return(s) seen'
