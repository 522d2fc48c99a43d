#!/bin/bash
# setup-host.sh [fresh]: install the host packages the harness needs
# (Debian 12, as root); "fresh" adds what make check-fresh needs.
# Quick and silent when everything is already there.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
[ "${1:-fresh}" = fresh ] || usage

# Every package the project needs, and why. Nothing else may be assumed:
# make check-fresh runs make run on a root that has only these (and make).
# Compiler-rt (libclang-rt-*-dev) is deliberately absent: the kernel's
# CFI flags do not use its sanitizer ignore list.
# The compiler packages follow LLVM: clang-19 lld-19 llvm-19 by default.
# A config profile names its own in a "# jtcfi-packages: ..." line,
# installed with these when PROFILE is that profile: the server profile's
# dwarves (pahole, for BTF), debootstrap (make image's Debian root) and
# rsync (the kselftests' install, for make audit).  The test profile does
# not need rsync: the harness runs "make headers", not headers_install.
pkgs=(
	"clang$LLVM"		# compiler of kernel, modules, guest programs
	"lld$LLVM"		# linker: ThinLTO, which jump-table CFI needs
	"llvm$LLVM"		# llvm-ar/nm/objcopy/readelf/size/objdump: builds, bench, jt-direct-calls
	qemu-system-arm		# qemu-system-aarch64: the arm64 guests
	qemu-system-x86		# qemu-system-x86_64: the x86_64 guests
	linux-source-6.12	# the Debian kernel tree the series applies to
	flex bison		# Kconfig's parser
	bc			# kernel/time/timeconst.bc
	libelf-dev		# objtool (x86_64), tools/cfi-precision
	kmod			# depmod, run by modules_install
	cpio			# the guest's initramfs
	ccache			# rebuilds after a series change take minutes
	python3			# kunit.py parse, the bench report
	perl			# the kernel's build scripts, scripts/checkpatch.pl
	python3-ply		# checkpatch.pl's SPDX check (scripts/spdxcheck.py)
	xz-utils		# unpacks /usr/src/linux-source-6.12.tar.xz
	git			# the kernel tree is a git repository (git am, export)
	make			# the entry point, and kbuild
	dpkg-dev		# dpkg-buildpackage: make deb (the tree's bindeb-pkg)
	debhelper		# dh_listpackages, which bindeb-pkg's debian/rules runs
)
fresh_pkgs=(
	mmdebstrap		# the minimal Debian root of make check-fresh
)
[ "${1:-}" != fresh ] || pkgs+=("${fresh_pkgs[@]}")
check_profile
if [ "$JTCFI_PROFILE" != test ]; then
	# shellcheck disable=SC2207
	pkgs+=($(sed -n 's/^# jtcfi-packages: //p' "$JTCFI_TOP/configs/profile-$JTCFI_PROFILE.config"))
fi

missing=
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done

# The guest userland is Debian's static busybox for each architecture,
# fetched as .deb files and unpacked into the cache (not installed: the
# arm64 and amd64 packages conflict with each other).
bbdir=$JTCFI_BUSYBOX
need_bb=
for arch in $(arch_list); do
	a=$(arch_field "$arch" deb)
	[ -x "$bbdir/$a/bin/busybox" ] || need_bb="$need_bb $a"
done

[ -z "$missing" ] && [ -z "$need_bb" ] && exit 0

[ "$(id -u)" = 0 ] || die "host packages missing ($missing$need_bb): run as root or install them yourself"
command -v apt-get >/dev/null || die "apt-get not found: jtcfi sets itself up on Debian 12 only"

# apt-get download of another architecture's busybox needs that
# architecture's package lists.
for a in $need_bb; do
	if [ "$a" != "$(dpkg --print-architecture)" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$a"; then
		dpkg --add-architecture "$a"
		missing="$missing update-lists"
	fi
done

if [ -n "$missing" ]; then
	note "installing host packages:$missing"
	apt-get update -q >/dev/null || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null ||
		die "apt-get install failed for:$missing"
fi

if [ -n "$need_bb" ]; then
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt-get download runs as _apt
	trap 'rm -rf "$tmp"' EXIT
	for a in $need_bb; do
		(cd "$tmp" && apt-get download -q "busybox-static:$a" >/dev/null 2>&1) ||
			die "could not download busybox-static:$a"
		rm -rf "${bbdir:?}/$a"
		mkdir -p "$bbdir/$a"
		dpkg-deb -x "$tmp"/busybox-static_*_"$a".deb "$bbdir/$a"
		[ -x "$bbdir/$a/bin/busybox" ] || die "busybox-static:$a has no bin/busybox"
	done
fi
