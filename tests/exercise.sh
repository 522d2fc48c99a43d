#!/bin/bash
# exercise.sh ARCH MODE LOGDIR: run what the other tests never do, on a
# kernel booted kpti=1 (arm64: the KPTI mappings are installed by calling
# idmap code by its physical address at boot) or pti=on (x86_64: user
# mode enters the kernel at the IDT's and MSRs' addresses, which must be
# mapped in the user page tables): the function tracer (ftrace
# patches its call site, whose address the series takes with
# function_nocfi()) while the test module makes its cross-module calls,
# with a second tracer so that x86 reads each site's tracer back from
# ftrace_caller's code, a kretprobe (the probed function returns
# through the kretprobe trampoline), perf sampling by the CPU clock (each
# sample calls perf_guest_state(), a static call: on arm64 an indirect
# call to its default), and the CPU vulnerability files (their show
# functions, weak functions an arch may override).  x86_64 must have been
# moved by KASLR (the relocs tool's output applied).  Every step must work
# with no CFI report, warning or oops.  CPU hotplug and kexec are not run.
# x86_64 boots with call-depth tracking too (retbleed=stuff: every direct
# call goes through a call thunk, ftrace's patching included), under
# single-threaded TCG: with a host thread per vCPU, a vCPU sometimes ran
# an ftrace call site's INT3 after text_poke_bp() had restored the site
# ("Oops: int3"; 3 of 17 boots, kcfi as well as jt; 0 of 20 single-
# threaded): QEMU's cross-modifying code, not the kernel's.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log exercise)

args=(jtcfi.run=exercise kunit.enable=0 oops=panic "$(arch_field "$arch" pti)")
# What the kernel has, it must show: call-depth tracking booted on, KASLR
# moving the kernel.  The arch table says how to force PTI, how TCG must
# run a boot that patches text, and whether enabled_functions can name
# each site's tracer.
call_depth=
if build_has CONFIG_MITIGATION_CALL_DEPTH_TRACKING=y; then
	call_depth=1
	args+=("${CALL_DEPTH_ARGS[@]}")
fi
text_patching_tcg "$arch"
boot_or_fail exercise "$log" "${args[@]}" || exit 0
what="${args[*]:3} boot"
[ -z "${JTCFI_TCG_THREAD:-}" ] || what="$what ($JTCFI_TCG_THREAD-threaded TCG)"
if build_has CONFIG_RANDOMIZE_BASE=y; then
	moved=$(kaslr_offset "$arch" "$mode" "$log")
	if [ "$moved" = 0x0 ]; then
		# KASLR picks the link address itself about once in 490 boots.
		boot_or_fail exercise "$log" "${args[@]}" || exit 0
		moved=$(kaslr_offset "$arch" "$mode" "$log")
	fi
	if [ -z "$moved" ] || [ "$moved" = 0x0 ]; then
		echo "not ok exercise: KASLR did not move the kernel (offset ${moved:-unknown}; console: $log)"
		exit 0
	fi
	what="$what, KASLR (kernel moved by $moved)"
fi
for on in pti-on ${call_depth:+call-depth-on}; do
	if ! console_find "$on" "$log" > /dev/null; then
		echo "not ok exercise: booted ${args[*]:3}, but the console does not show $on (console: $log)"
		exit 0
	fi
done
if [ -n "$(arch_field "$arch" tracer)" ]; then
	# The sites whose tracer the kernel could read back from their code.
	read -r sites led < <(sed -n 's/^jtcfi-guest: exercise: enabled_functions: \([0-9]*\) sites, \([0-9]*\) lead.*/\1 \2/p' "$log")
	if [ "${sites:-0}" -lt 1 ] || [ "$sites" != "$led" ]; then
		echo "not ok exercise: enabled_functions: ${led:-?} of ${sites:-?} traced sites name their tracer (console: $log)"
		exit 0
	fi
	what="$what, enabled_functions ($sites sites)"
fi
traced=$(sed -n 's/^jtcfi-guest: exercise: function tracer: \([0-9]*\) lines traced/\1/p' "$log")
if [ "${traced:-0}" -lt 1 ]; then
	echo "not ok exercise: the function tracer traced nothing (console: $log)"
	exit 0
fi
samples=$(sed -n 's/^jtcfi-perf-sample: \([0-9]*\) samples$/\1/p' "$log")
what="$what, perf sampling (${samples:-no} samples), $(sed -n 's/^jtcfi-guest: exercise: cpu vulnerabilities: //p' "$log" | head -n 1) (CPU vulnerabilities)"
passed_verdict exercise "$log" "$what, function tracer ($traced lines) over module loads, a kretprobe: no CFI report" \
	'jtcfi-guest: exercise: kretprobe ok' 'cfi_kretprobe: .* 1 return(s) seen' \
	'jtcfi-perf-sample: [0-9]* samples' \
	'jtcfi-guest: exercise: cpu vulnerabilities: [1-9][0-9]* attributes read'
