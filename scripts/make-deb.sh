#!/bin/bash
# make-deb.sh ARCH MODE: the (arch, mode, profile) kernel as Debian
# packages, through the tree's bindeb-pkg: linux-image (kernel and
# modules), linux-headers and linux-libc-dev, in BUILD-DIR/debs.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool dpkg-buildpackage

"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"
out=$(build_dir "$arch" "$mode")
release=$(kmake "$arch" "$out" -s kernelrelease)
# The package version says which build it is: one per (mode, profile),
# so that an image can tell the packages of two builds apart.
version=$release-1+jtcfi.$mode.$JTCFI_PROFILE

# bindeb-pkg writes its packages next to O=, where every build directory
# lives: collect the ones this run made.
stamp=$out/.deb-stamp
touch "$stamp"
note "packaging $arch/$mode ($JTCFI_PROFILE) as $version (log: $out/deb.log)"
kmake "$arch" "$out" KDEB_PKGVERSION="$version" bindeb-pkg > "$out/deb.log" 2>&1 ||
	die "bindeb-pkg failed for $arch/$mode (see $out/deb.log)"
rm -rf "$out/debs"
mkdir -p "$out/debs"
find "$(dirname "$out")" -maxdepth 1 -newer "$stamp" -type f \
	\( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) \
	-exec mv -t "$out/debs" {} +
ls "$out/debs"/linux-image-*.deb > /dev/null 2>&1 ||
	die "bindeb-pkg made no linux-image package for $arch/$mode (see $out/deb.log)"
note "packages: $(cd "$out/debs" && ls ./*.deb | xargs -n1 basename | xargs)"
