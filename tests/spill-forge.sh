#!/bin/bash
# spill-forge.sh ARCH MODE LOGDIR: play CFI's own attacker, who can write
# a task's stack, against the code the compiler makes around a check.  A
# call whose target is in none of the caller's jump tables gets its
# verdict from the cross-DSO slow path, a call across which the compiler
# keeps the target somewhere; where it reloads it from the stack, a write
# there while the slow path runs redirects the call.
# tools/cfi-codegen-audit finds such a site: the test module's
# spill_victim() calling the core kernel, or else the core kernel's
# sort_r() calling the module's comparison; the module's kprobe on the
# instruction after the slow-path call rewrites the target's copies on
# the stack to code of another prototype.  Passes only if that call is
# refused (a report, the guest down); fails if it runs.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only caught
name=spill-forge
log=$(test_log spill-forge)
ko=$(build_dir "$arch" "$mode")/lib/test_cfi_module.ko
need_objdump "$name" || exit 0
[ -f "$ko" ] || { echo "not ok $name: $ko is missing"; exit 0; }

audit() {
	python3 "$JTCFI_TOP/tools/cfi-codegen-audit/cfi-codegen-audit.py" \
		-o "$objdump" --probe-after "$1" "$2"
}

# The first site whose target comes back from the stack.
at= core= seen=
for site in "spill_victim $ko" "sort_r $(build_dir "$arch" "$mode")/vmlinux"; do
	# shellcheck disable=SC2086
	where=$(audit $site)
	seen="$seen ${site%% *}: $where;"
	if [ "${where#* }" = reloaded ]; then
		at=${where%% *}
		[ "${site%% *}" = spill_victim ] || core=:forge_spill_core=1
		break
	fi
done
if [ -z "$at" ]; then
	echo "not ok $name: no site reloads its target from the stack after the slow path in this build:$seen"
	exit 0
fi

boot_or_fail "$name" "$log" jtcfi.run="module-forge:forge_spill_at=$at$core" \
	kunit.enable=0 oops=panic || exit 0
if ! grep -q 'forged [1-9][0-9]* copies of the checked target' "$log"; then
	echo "not ok $name: the test module forged no copy of the target (console: $log)"
	exit 0
fi
caught_verdict "$name" "$log" 'forged [0-9]* copies of the checked target' \
	'FAIL: a checked call went to a target written on the stack' \
	'spill_victim\|sort_r'
