#!/bin/bash
# Install the host packages the harness needs (Debian 12, as root).
# Quick and silent when everything is already there.
set -eu
. "$(dirname "$0")/lib.sh"

pkgs="clang-19 lld-19 llvm-19 qemu-system-arm qemu-system-x86
      linux-source-6.12 flex bison bc libelf-dev libssl-dev cpio ccache
      python3 python3-ply kmod rsync dwarves perl xz-utils git"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done

# The guest userland is Debian's static busybox for each architecture,
# fetched as .deb files and unpacked into the cache (not installed: the
# arm64 and amd64 packages conflict with each other).
bbdir=$JTCFI_CACHE/busybox
need_bb=
for a in arm64 amd64; do
	[ -x "$bbdir/$a/bin/busybox" ] || need_bb="$need_bb $a"
done

[ -z "$missing" ] && [ -z "$need_bb" ] && exit 0

[ "$(id -u)" = 0 ] || die "host packages missing ($missing$need_bb): run as root or install them yourself"
command -v apt-get >/dev/null || die "apt-get not found: jtcfi sets itself up on Debian 12 only"

if [ -n "$need_bb" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	missing="$missing update-lists"
fi

if [ -n "$missing" ]; then
	note "installing host packages:$missing"
	apt-get update -q >/dev/null || die "apt-get update failed"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs >/dev/null ||
		die "apt-get install failed for:$missing"
fi

if [ -n "$need_bb" ]; then
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt-get download runs as _apt
	trap 'rm -rf "$tmp"' EXIT
	for a in $need_bb; do
		(cd "$tmp" && apt-get download -q "busybox-static:$a" >/dev/null) ||
			die "could not download busybox-static:$a"
		rm -rf "${bbdir:?}/$a"
		mkdir -p "$bbdir/$a"
		dpkg-deb -x "$tmp"/busybox-static_*_"$a".deb "$bbdir/$a"
		[ -x "$bbdir/$a/bin/busybox" ] || die "busybox-static:$a has no bin/busybox"
	done
fi
