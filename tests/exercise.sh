#!/bin/bash
# exercise.sh ARCH MODE LOGDIR: run what the other tests never do, on a
# kernel booted kpti=1 (arm64: the KPTI mappings are installed by calling
# idmap code by its physical address at boot) or pti=on (x86_64: user
# mode enters the kernel at the IDT's and MSRs' addresses, which must be
# mapped in the user page tables): the function tracer (ftrace
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

pti=kpti=1
[ "$arch" = x86_64 ] && pti=pti=on
boot_or_fail exercise "$log" \
	jtcfi.run=exercise kunit.enable=0 oops=panic "$pti" || exit 0
if [ "$arch" = x86_64 ] && ! grep -q 'Kernel/User page tables isolation: enabled' "$log"; then
	echo "not ok exercise: booted pti=on, but the kernel did not enable PTI (console: $log)"
	exit 0
fi
traced=$(sed -n 's/^jtcfi-guest: exercise: function tracer: \([0-9]*\) lines traced/\1/p' "$log")
if [ "${traced:-0}" -lt 1 ]; then
	echo "not ok exercise: the function tracer traced nothing (console: $log)"
	exit 0
fi
passed_verdict exercise "$log" "$pti boot, function tracer ($traced lines) over module loads, a kretprobe: no CFI report" \
	'jtcfi-guest: exercise: kretprobe ok' 'cfi_kretprobe: .* 1 return(s) seen'
