#!/bin/bash
# build-guest-modules.sh ARCH MODE: build the out-of-tree modules the guest
# loads against the (arch, mode) kernel: the benchmark and test modules of
# guest/cfi-bench into BUILD_DIR/guest-modules and, where the kernel has
# BTF for modules (PROFILE=server), the tree's bpf_testmod, which the BPF
# selftests' test_verifier loads, into BUILD_DIR/bpf-testmod.  They get
# the kernel's own flags, CFI included, so they are checked exactly like
# an in-tree module.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"

out=$(build_dir "$arch" "$mode")
[ -f "$out/Module.symvers" ] || die "$out has no Module.symvers (build the kernel first)"

# build_modules WHAT SRC DST: the modules whose sources are in SRC, built
# in DST unless nothing changed since the last build.  kbuild writes an
# external module's objects next to its sources: DST is a copy, one per
# (arch, mode).
build_modules() {
	local what=$1 src=$2 dst=$3
	if [ -f "$dst/.built" ] &&
	   [ -z "$(find "$src" "$out/Module.symvers" -newer "$dst/.built" -print -quit)" ]; then
		return 0
	fi
	rm -rf "$dst"
	mkdir -p "$dst"
	cp "$src"/* "$dst/"
	kmake "$arch" "$out" M="$dst" modules > "$dst/build.log" 2>&1 ||
		die "$what failed to build for $arch/$mode (see $dst/build.log)"
	touch "$dst/.built"
}

build_modules "benchmark modules" "$JTCFI_TOP/guest/cfi-bench" "$out/guest-modules"
if grep -qx CONFIG_DEBUG_INFO_BTF_MODULES=y "$out/.config"; then
	build_modules bpf_testmod "$JTCFI_TREE/tools/testing/selftests/bpf/bpf_testmod" "$out/bpf-testmod"
fi
