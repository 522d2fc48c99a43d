#!/bin/bash
# make-initramfs.sh ARCH MODE: pack busybox, guest/init, the benchmark
# programs (/bench), the BPF programs of guest/audit (/audit) and the
# build's modules (in-tree, and the benchmark modules in /lib/modules/jtcfi)
# into BUILD_DIR/initramfs.cpio.gz.  Rebuilt only when an input
# is newer than the archive.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool cpio gzip

out=$(build_dir "$arch" "$mode")
bb=$JTCFI_BUSYBOX/$(arch_field "$arch" deb)/bin/busybox
[ -x "$bb" ] || die "$bb missing (run 'make setup')"
[ -d "$out/modroot" ] || die "$out/modroot missing (build the kernel first)"
bench=$JTCFI_GUEST_BENCH/$arch
[ -d "$bench" ] || die "$bench missing (run scripts/build-guest-programs.sh)"
audit=$JTCFI_GUEST_AUDIT/$arch
[ -d "$audit" ] || die "$audit missing (run scripts/build-guest-programs.sh)"
[ -f "$out/guest-modules/.built" ] || die "benchmark modules missing (run scripts/build-guest-modules.sh)"

img=$out/initramfs.cpio.gz
if [ -f "$img" ] && [ -z "$(find "$bb" "$JTCFI_TOP/guest" "$out/modroot" \
	"$bench" "$audit" "$out/guest-modules/.built" -newer "$img" -print -quit)" ]; then
	exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,bench,audit,dev,proc,sys,tmp,lib/modules/jtcfi}
cp "$bb" "$root/bin/busybox"
cp "$JTCFI_TOP/guest/init" "$root/init"
chmod 755 "$root/init"
cp -a "$out/modroot/lib/modules" "$root/lib/" 2>/dev/null || true
cp "$bench"/* "$root/bench/"
cp "$audit"/* "$root/audit/"
cp "$out"/guest-modules/*.ko "$root/lib/modules/jtcfi/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$img.tmp"
mv "$img.tmp" "$img"
