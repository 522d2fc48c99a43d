#!/bin/bash
# build-guest-modules.sh ARCH MODE: build the out-of-tree benchmark modules
# in guest/cfi-bench against the (arch, mode) kernel, into
# BUILD_DIR/guest-modules.  They get the kernel's own flags, CFI included,
# so they are checked exactly like an in-tree module.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"

out=$(build_dir "$arch" "$mode")
[ -f "$out/Module.symvers" ] || die "$out has no Module.symvers (build the kernel first)"
src=$JTCFI_TOP/guest/cfi-bench
dst=$out/guest-modules
if [ -f "$dst/.built" ] &&
   [ -z "$(find "$src" "$out/Module.symvers" -newer "$dst/.built" -print -quit)" ]; then
	exit 0
fi

# kbuild writes an external module's objects next to its sources: build
# a copy, one per (arch, mode).
rm -rf "$dst"
mkdir -p "$dst"
cp "$src"/* "$dst/"
kmake "$arch" "$out" M="$dst" modules > "$dst/build.log" 2>&1 ||
	die "benchmark modules failed to build for $arch/$mode (see $dst/build.log)"
touch "$dst/.built"
