#!/bin/bash
# make-initramfs.sh ARCH MODE: pack busybox, guest/init and the build's
# modules into BUILD_DIR/initramfs.cpio.gz.  Rebuilt only when an input
# is newer than the archive.
set -eu
. "$(dirname "$0")/lib.sh"
arch=$1 mode=$2
check_arch "$arch"
check_mode "$mode" "$arch"
need_tool cpio gzip

out=$(build_dir "$arch" "$mode")
case "$arch" in
arm64)	bb=$JTCFI_CACHE/busybox/arm64/bin/busybox ;;
x86_64)	bb=$JTCFI_CACHE/busybox/amd64/bin/busybox ;;
esac
[ -x "$bb" ] || die "$bb missing (run 'make setup')"
[ -d "$out/modroot" ] || die "$out/modroot missing (build the kernel first)"

img=$out/initramfs.cpio.gz
if [ -f "$img" ] && [ -z "$(find "$bb" "$JTCFI_TOP/guest" "$out/modroot" -newer "$img" -print -quit)" ]; then
	exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib}
cp "$bb" "$root/bin/busybox"
cp "$JTCFI_TOP/guest/init" "$root/init"
chmod 755 "$root/init"
cp -a "$out/modroot/lib/modules" "$root/lib/" 2>/dev/null || true
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$img.tmp"
mv "$img.tmp" "$img"
