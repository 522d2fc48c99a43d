#!/bin/bash
# build-guest-programs.sh ARCH SRCDIR OUTDIR: build every SRCDIR/*.c
# (guest/bench, guest/audit) into a static ARCH binary OUTDIR/NAME for the
# guest.  The programs use the kernel tree's own nolibc, so no cross libc
# is needed; its uapi headers come from the tree's "make headers", cached
# per architecture.  A binary is rebuilt only when its source, a header of
# SRCDIR or the uapi headers are newer.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1 src=$2 out=$3
check_arch "$arch"
need_tool "clang$LLVM" "ld.lld$LLVM" make

nolibc=$JTCFI_TREE/tools/include/nolibc
[ -f "$nolibc/nolibc.h" ] || die "nolibc headers missing in $nolibc (run 'make tree')"
target=$(arch_field "$arch" triple)

# The tree's uapi headers (asm/unistd.h is generated on arm64), refreshed
# when the tree's commit changes; a separate O= keeps the tree clean.
hdr=$JTCFI_UAPI/$arch
head=$(git -C "$JTCFI_TREE" rev-parse HEAD)
if [ "$(cat "$hdr/.jtcfi-uapi" 2>/dev/null)" != "$head" ]; then
	note "installing $arch uapi headers in $hdr"
	mkdir -p "$hdr"
	kmake "$arch" "$hdr" -s headers > "$hdr/headers.log" 2>&1 || die "make headers failed for $arch (see $hdr/headers.log)"
	echo "$head" > "$hdr/.jtcfi-uapi"
fi

mkdir -p "$out"
shopt -s nullglob	# a SRCDIR without headers
for c in "$src"/*.c; do
	bin=$out/$(basename "$c" .c)
	if [ -f "$bin" ] && [ -z "$(find "$c" "$src"/*.h "$hdr/.jtcfi-uapi" -newer "$bin" -print -quit)" ]; then
		continue
	fi
	# -ffreestanding/-nostdlib: nolibc supplies _start and the syscalls.
	"clang$LLVM" --target="$target" -static -nostdlib -ffreestanding \
		-fno-stack-protector -O2 -Wall -fuse-ld=lld --ld-path="$(command -v "ld.lld$LLVM")" \
		-nostdinc -isystem "$nolibc" -isystem "$hdr/usr/include" -include nolibc.h \
		-o "$bin.tmp" "$c" 2>&1 || die "building $bin failed"
	mv "$bin.tmp" "$bin"
done
