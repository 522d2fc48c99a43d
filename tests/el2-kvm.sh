#!/bin/bash
# el2-kvm.sh ARCH MODE LOGDIR: boot at EL2 (QEMU virt,virtualization=on)
# with KVM built in and forced to nVHE, so the hypervisor code, which the
# kernel builds without jump-table CFI, is installed and initialised
# under a CFI kernel.  arm64 only.
set -u
. "$(dirname "$0")/../scripts/lib.sh"
arch=$1 mode=$2 logs=$3
log=$logs/$arch-$mode-el2-kvm.log

JTCFI_QEMU_MACHINE=virt,virtualization=on "$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" \
	jtcfi.run=kunit kunit.enable=0 kvm-arm.mode=nvhe || {
	echo "not ok el2-kvm: boot failed (console: $log)"
	exit 0
}
if grep -q 'Hyp nVHE mode initialized successfully' "$log" && grep -q '^jtcfi-guest: done' "$log" &&
   ! grep -q 'CFI failure' "$log"; then
	echo "ok el2-kvm: booted at EL2, nVHE hypervisor initialised, no CFI report"
else
	echo "not ok el2-kvm: no 'Hyp nVHE mode initialized successfully' or a CFI report (console: $log)"
fi
