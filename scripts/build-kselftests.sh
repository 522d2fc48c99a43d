#!/bin/bash
# build-kselftests.sh ARCH STAGE1-TAR OUTDIR: the tree's kselftests that the
# system image's audit runs (JTCFI_KSELFTESTS), cross-built with clang for
# ARCH against the image's own C library: the sysroot is the debootstrap
# first stage (STAGE1-TAR) with the packages it downloaded unpacked into
# it, so no cross toolchain is installed on the host.  Installed in
# OUTDIR/install (run_kselftest.sh); rebuilt when the tree or the stage
# changes.  With them, the BPF selftests' test_verifier (in install/bpf).
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1 stage1=$2 out=$3
check_arch "$arch"
need_tool "clang$LLVM" "ld.lld$LLVM" dpkg-deb make
[ -f "$stage1" ] || die "no debootstrap stage at $stage1"

# The suites that need no other host and no hardware QEMU lacks.
targets=${JTCFI_KSELFTESTS:-futex seccomp timers mm ftrace}
head=$(git -C "$JTCFI_TREE" rev-parse HEAD)
want="$head $(basename "$stage1") $targets $(md5sum < "$0" | cut -c1-8)"
if [ "$(cat "$out/.jtcfi-stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

note "building kselftests for $arch: $targets (log: $out/build.log)"
rm -rf "$out"
mkdir -p "$out/sysroot"
tar -C "$out/sysroot" -xf "$stage1"
for d in "$out"/sysroot/var/cache/apt/archives/*.deb; do
	dpkg-deb -x "$d" "$out/sysroot" || die "cannot unpack $d into the sysroot"
done
[ -f "$out/sysroot/usr/include/stdio.h" ] ||
	die "the sysroot has no C library headers: is libc6-dev in make-image.sh's package list?"

# The tree's uapi headers, as build-guest-programs.sh installed them.
hdr=$JTCFI_UAPI/$arch/usr/include
[ -d "$hdr" ] || die "no uapi headers in $hdr (run scripts/build-guest-programs.sh)"
# The selftests write into their source directories unless O= is given;
# a copy of what they read (tools/, the top Makefile's scripts, include/
# and two headers of mm/ and lib/) keeps the tree clean whatever a suite's
# Makefile does.
mkdir -p "$out/src"
git -C "$JTCFI_TREE" archive HEAD tools scripts include mm/gup_test.h lib/test_hmm_uapi.h \
	kernel/bpf/disasm.h kernel/bpf/disasm.c "arch/$(arch_field "$arch" srcarch)/include/uapi" |
	tar -x -C "$out/src" ||
	die "cannot copy the selftests' sources from $JTCFI_TREE"
sysroot="--sysroot=$out/sysroot"
# mm/khugepaged.c uses KSFT_SKIP without including kselftest.h (a bug of
# the 6.12 tree's selftests); the same definition keeps mm in the set.
cflags="$sysroot -DKSFT_SKIP=4"
make -C "$out/src/tools/testing/selftests" -j"$(nproc)" ARCH="$arch" LLVM="$LLVM" \
	TARGETS="$targets" KHDR_INCLUDES="-isystem $hdr" \
	USERCFLAGS="$cflags" USERLDFLAGS="$sysroot -fuse-ld=lld" \
	INSTALL_PATH="$out/install" install > "$out/build.log" 2>&1 ||
	die "kselftest build failed for $arch (see $out/build.log)"
[ -x "$out/install/run_kselftest.sh" ] || die "no run_kselftest.sh installed (see $out/build.log)"
# A suite whose build failed installs nothing, and make does not say so.
for t in $targets; do
	grep -q "^$t:" "$out/install/kselftest-list.txt" ||
		die "kselftest suite $t did not build for $arch: $(grep -m1 'error:' "$out/build.log") (see $out/build.log)"
done

# The BPF selftests' test_verifier: hand-written programs, so no BPF
# compiler or kernel BTF is needed (test_progs needs both, and a module
# built against the kernel).  Their libbpf is built by the same make, for
# the target: the cross flags reach it only as CLANG_CROSS_FLAGS.
bpf=$out/bpf
mkdir -p "$bpf"
make -C "$out/src/tools/testing/selftests/bpf" -j"$(nproc)" ARCH="$arch" LLVM="$LLVM" \
	CROSS_COMPILE="$(arch_field "$arch" triple)-" \
	CLANG_CROSS_FLAGS="--target=$(arch_field "$arch" triple) $sysroot -fuse-ld=lld -Wno-unused-command-line-argument" \
	KHDR_INCLUDES="-isystem $hdr" USERCFLAGS="$sysroot -fuse-ld=lld" \
	OUTPUT="$bpf" "$bpf/test_verifier" > "$out/build-bpf.log" 2>&1 ||
	die "test_verifier did not build for $arch: $(grep -m1 'error' "$out/build-bpf.log") (see $out/build-bpf.log)"
mkdir -p "$out/install/bpf"
cp "$bpf/test_verifier" "$out/install/bpf/"
rm -rf "$out/src" "$bpf"
note "kselftests for $arch: $(wc -l < "$out/install/kselftest-list.txt") tests in $out/install"
echo "$want" > "$out/.jtcfi-stamp"
