#!/bin/bash
# boot-system.sh ARCH MODE LOG [KERNEL-ARGS...]: boot the system image of
# the (arch, mode, profile) build (make-image.sh) with the kernel and
# initrd its packages installed, on a virtio disk with QEMU's user
# network, to systemd's multi-user target; its jtcfi-report unit prints
# what the harness reads and powers off.  Console to LOG, which no getty
# may take over: the serial console's getty is masked.  The guest's
# /var/log/jtcfi-audit (the audit's own logs) is copied to LOG.d/.  On
# the user network, TCP to 10.0.2.100:7 reaches a "cat" on the host: an
# echo server for the guest's TCP over virtio-net.  KUnit stays off, as
# in a distribution's kernel: 6.12's sysctl suite registers a table on its
# stack and leaves it registered, and the next walk of /proc/sys (sysctl
# -a, trinity) oopses in proc_sys_readdir() (results/audit.md).
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
log=$3
shift 3
img=$(build_dir "$arch" "$mode")/image
[ -f "$img/disk.img" ] || die "no system image for $arch/$mode ($JTCFI_PROFILE): run make image"
# The image is a throw-away copy per boot: a boot may not change the next.
disk=$(mktemp "$img/boot-XXXXXX.img")
# Also after a failed boot, whose logs say the most.
save_guest_logs() {
	rm -rf "$log.d"
	mkdir -p "$log.d"
	debugfs -R "rdump /var/log/jtcfi-audit $log.d" "$disk" > /dev/null 2>&1 || true
	rm -f "$disk"
}
trap save_guest_logs EXIT
cp --sparse=always "$img/disk.img" "$disk"
JTCFI_BOOT_KERNEL=$img/vmlinuz JTCFI_BOOT_INITRD=$img/initrd.img \
JTCFI_BOOT_TIMEOUT=${JTCFI_BOOT_TIMEOUT:-900} \
JTCFI_QEMU_EXTRA="-drive file=$disk,if=virtio,format=raw -netdev user,id=net0,guestfwd=tcp:10.0.2.100:7-cmd:cat -device virtio-net-pci,netdev=net0 ${JTCFI_QEMU_EXTRA:-}" \
	"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" root=LABEL=jtcfi-root rw \
	"systemd.mask=serial-getty@$(arch_field "$arch" console).service" kunit.enable=0 "$@"
