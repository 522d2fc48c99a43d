#!/bin/bash
# make-deb.sh ARCH MODE: the (arch, mode, profile) kernel as Debian
# packages, through the tree's bindeb-pkg: linux-image (kernel and
# modules) and linux-libc-dev, in BUILD-DIR/debs.  Not linux-headers, whose
# host programs would have to be compiled for ARCH against its C library,
# nor the -dbg package of a profile with debug information.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool dpkg-buildpackage

"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$mode"
out=$(build_dir "$arch" "$mode")
release=$(kmake "$arch" "$out" -s kernelrelease)
# Revision 1: bindeb-pkg builds with the revision as the kernel's build
# version, which kmake fixes at 1, so packaging relinks nothing.  The
# (mode, profile) of a package is its build directory's.
version=$release-1

# -d: the generated debian/control asks for a native Debian toolchain
# (gcc, debhelper); the packages are built with LLVM, cross if need be.
# bindeb-pkg writes its packages next to O=, where every build directory
# lives: collect the ones this run made.
stamp=$out/.deb-stamp
touch "$stamp"
note "packaging $arch/$mode ($JTCFI_PROFILE) as $version (log: $out/deb.log)"
kmake "$arch" "$out" KDEB_PKGVERSION="$version" KDEB_SOURCENAME=linux-upstream \
	DPKG_FLAGS="-d -Ppkg.linux-upstream.nokernelheaders,pkg.linux-upstream.nokerneldbg" \
	bindeb-pkg > "$out/deb.log" 2>&1 ||
	die "bindeb-pkg failed for $arch/$mode (see $out/deb.log)"
rm -rf "$out/debs"
mkdir -p "$out/debs"
find "$(dirname "$out")" -maxdepth 1 -newer "$stamp" -type f \
	\( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) \
	-exec mv -t "$out/debs" {} +
ls "$out/debs"/linux-image-*.deb > /dev/null 2>&1 ||
	die "bindeb-pkg made no linux-image package for $arch/$mode (see $out/deb.log)"
note "packages: $(cd "$out/debs" && ls ./*.deb | xargs -n1 basename | xargs)"
