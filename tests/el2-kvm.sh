#!/bin/bash
# el2-kvm.sh ARCH MODE LOGDIR: boot at EL2 (QEMU virt,virtualization=on)
# with KVM built in and forced to nVHE, so the hypervisor code, which the
# kernel builds with kCFI in both CFI modes (it cannot use jump tables),
# is installed and initialised under a CFI kernel.  arm64 only.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
log=$(test_log el2-kvm)

JTCFI_QEMU_MACHINE=virt,virtualization=on boot_or_fail el2-kvm "$log" \
	jtcfi.run=kunit kunit.enable=0 kvm-arm.mode=nvhe || exit 0
if grep -q 'Hyp nVHE mode initialized successfully' "$log" && grep -q '^jtcfi-guest: done' "$log" &&
   ! console_find report "$log" > /dev/null; then
	echo "ok el2-kvm: booted at EL2, nVHE hypervisor initialised, no CFI report"
else
	echo "not ok el2-kvm: no 'Hyp nVHE mode initialized successfully' or a CFI report (console: $log)"
fi
