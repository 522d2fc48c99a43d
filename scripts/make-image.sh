#!/bin/bash
# make-image.sh ARCH MODE: a Debian 12 system image for ARCH from the apt
# repositories, with the (arch, mode, profile) kernel installed in it from
# its packages (make deb) by dpkg, in BUILD-DIR/image/: disk.img (ext4,
# the root), and the kernel and initrd the packages installed in /boot.
# debootstrap's first stage runs on the host (cached, once per arch); its
# second stage, which runs the target's own maintainer scripts, and dpkg -i
# run in the guest, under the kernel being packaged: no binfmt_misc or
# qemu-user on the host.  Rebuilt only when the packages change.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool debootstrap mkfs.ext4 debugfs
[ "$(id -u)" = 0 ] || die "debootstrap needs root"

suite=bookworm
mirror=${JTCFI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
deb=$(arch_field "$arch" deb)
# What the image runs: systemd and udev (which loads the modules), the
# initramfs the kernel package asks for, and the tools of the audit
# (guest/image/jtcfi-audit; dbus for systemd-run); the C library's
# development files are the sysroot its kselftests are built against on
# the host.
include=systemd-sysv,udev,kmod,initramfs-tools,iproute2,nftables,procps,bpftool
include+=,dbus,netcat-openbsd,stress-ng,trinity,libc6-dev,libgcc-12-dev,libcap-dev,libnuma-dev
include+=,libelf-dev,zlib1g-dev

out=$(build_dir "$arch" "$mode")
"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"
# Packaging takes minutes (bindeb-pkg makes "all" again): only when the
# kernel is newer than its packages.
image_deb=$(ls "$out"/debs/linux-image-*.deb 2>/dev/null | head -n 1)
if [ -z "$image_deb" ] || [ "$out/vmlinux" -nt "$image_deb" ]; then
	"$JTCFI_TOP/scripts/make-deb.sh" "$arch" "$mode"
	image_deb=$(ls "$out"/debs/linux-image-*.deb | head -n 1)
fi
# First stage: download and unpack, no scripts run.  Cached per arch and
# package list.
stage1=$JTCFI_CACHE/image/$deb-$suite-$(echo "$include" | md5sum | cut -c1-8)-stage1.tar
if [ ! -f "$stage1" ]; then
	note "debootstrap first stage of Debian $suite/$deb (download, once)"
	tmp=$(mktemp -d)
	debootstrap --foreign --arch="$deb" --variant=minbase --include="$include" \
		"$suite" "$tmp/root" "$mirror" > "$tmp/debootstrap.log" 2>&1 ||
		die "debootstrap --foreign failed (see $tmp/debootstrap.log)"
	mkdir -p "$(dirname "$stage1")"
	tar -C "$tmp/root" -cf "$stage1.tmp" . && mv "$stage1.tmp" "$stage1"
	rm -rf "$tmp"
fi
kselftests=$JTCFI_KSELFTEST/$arch
"$JTCFI_TOP/scripts/build-kselftests.sh" "$arch" "$stage1" "$kselftests"
audit_bin=$JTCFI_GUEST_AUDIT/$arch
"$JTCFI_TOP/scripts/build-guest-programs.sh" "$arch" "$JTCFI_TOP/guest/audit" "$audit_bin"
# The tree's bpf_testmod, whose kfuncs test_verifier calls and which it
# loads from its own directory (build-guest-modules.sh built it with the
# kernel).
testmod=$out/bpf-testmod
[ -f "$testmod/bpf_testmod.ko" ] ||
	die "no bpf_testmod.ko in $testmod: does the $JTCFI_PROFILE profile have CONFIG_DEBUG_INFO_BTF_MODULES?"

# The image is remade when the packages, what the guest runs or the
# programs and kselftests it carries are newer.
img=$out/image
if [ -f "$img/disk.img" ] && [ "$img/disk.img" -nt "$image_deb" ] &&
   [ "$img/disk.img" -nt "$stage1" ] &&
   [ -z "$(find "$0" "$JTCFI_TOP/guest/image" "$JTCFI_TOP/guest/init" "$audit_bin" \
	"$kselftests/.jtcfi-stamp" "$testmod/bpf_testmod.ko" -newer "$img/disk.img" -print -quit)" ]; then
	note "image for $arch/$mode ($JTCFI_PROFILE) is up to date: $img/disk.img"
	exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$stage1"
# What the guest does to the root: guest/image/ (the setup script, run in a
# chroot, and the units and scripts the system runs), and the packages.
mkdir -p "$root/root/jtcfi/debs"
cp -r "$JTCFI_TOP"/guest/image/. "$root/root/jtcfi/"
cp "$image_deb" "$root/root/jtcfi/debs/"
cp "$audit_bin"/* "$root/root/jtcfi/"
cp -r "$kselftests/install" "$root/root/jtcfi/kselftest"
cp "$testmod/bpf_testmod.ko" "$root/root/jtcfi/kselftest/bpf/"

mkdir -p "$img"
rm -f "$img/disk.img.tmp"
mkfs.ext4 -q -L jtcfi-root -d "$root" "$img/disk.img.tmp" 3G ||
	die "mkfs.ext4 -d failed for the $arch image"

note "second stage and dpkg -i in the guest (log: $JTCFI_LOGS/$arch-$mode-image-setup.log)"
JTCFI_BOOT_TIMEOUT=${JTCFI_IMAGE_TIMEOUT:-3600} \
JTCFI_QEMU_EXTRA="-drive file=$img/disk.img.tmp,if=virtio,format=raw" \
	"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$JTCFI_LOGS/$arch-$mode-image-setup.log" \
	jtcfi.run=image-setup kunit.enable=0
grep -q '^jtcfi-guest: image-setup: done' "$JTCFI_LOGS/$arch-$mode-image-setup.log" ||
	die "the image's setup in the guest failed: $(grep -m1 '^jtcfi-guest: error' "$JTCFI_LOGS/$arch-$mode-image-setup.log" || echo 'no done line') (console: $JTCFI_LOGS/$arch-$mode-image-setup.log)"

# The kernel and initrd dpkg installed, for QEMU's -kernel and -initrd.
release=$(debugfs -R 'ls -p /boot' "$img/disk.img.tmp" 2>/dev/null |
	awk -F/ '$6 ~ /^vmlinuz-/ { sub(/^vmlinuz-/, "", $6); print $6 }' | tail -n 1)
[ -n "$release" ] || die "no /boot/vmlinuz-* in the image: did dpkg -i run?"
debugfs -R "dump /boot/vmlinuz-$release $img/vmlinuz" "$img/disk.img.tmp" 2>/dev/null
debugfs -R "dump /boot/initrd.img-$release $img/initrd.img" "$img/disk.img.tmp" 2>/dev/null
[ -s "$img/vmlinuz" ] && [ -s "$img/initrd.img" ] ||
	die "could not read /boot/vmlinuz-$release and its initrd from the image"
mv "$img/disk.img.tmp" "$img/disk.img"
note "image for $arch/$mode ($JTCFI_PROFILE): $img/disk.img, kernel $release"
