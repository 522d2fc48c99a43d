#!/bin/bash
# nvhe-kcfi.sh ARCH MODE LOGDIR: every indirect call of the nVHE
# hypervisor (EL2, arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o) is checked.  The
# hypervisor cannot use jump-table CFI, whose slow path lives at EL1; it
# keeps kCFI in both modes (NVHE_KCFI under jt).  A BLR is checked when a
# kCFI BRK (#0x8200-#0x82ff) is among the three instructions before it
# (ldur; movk; movk; cmp; b.eq; brk; blr).  No boot.  arm64 only.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
name=nvhe-kcfi
out=$(build_dir "$arch" "$mode")
obj=$out/arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o
[ "$arch" = arm64 ] || { echo "not ok $name: arm64 only"; exit 0; }
need_objdump "$name" || exit 0
[ -f "$obj" ] || { echo "not ok $name: $obj is missing (KVM not built?)"; exit 0; }

read -r calls checked < <("$objdump" -d --no-show-raw-insn "$obj" | awk '
	/\tblr\t/ { calls++; if (p1 ~ /\tbrk\t#0x82/ || p2 ~ /\tbrk\t#0x82/ || p3 ~ /\tbrk\t#0x82/) checked++ }
	{ p3 = p2; p2 = p1; p1 = $0 }
	END { print calls + 0, checked + 0 }')
if [ "$calls" = 0 ]; then
	echo "not ok $name: no indirect call in $obj"
elif [ "$checked" = "$calls" ]; then
	echo "ok $name: all $calls indirect calls of the nVHE hypervisor checked by kCFI"
else
	echo "not ok $name: $((calls - checked)) of $calls indirect calls of the nVHE hypervisor unchecked"
fi
