#!/bin/bash
# harness-errors.sh ARCH MODE LOGDIR: bad input must stop with a message
# naming the cause.  Each case runs a harness script the wrong way and
# checks both the failure and the words of the message.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
S=$JTCFI_TOP/scripts

expect_error() {	# expect_error NAME PATTERN COMMAND...
	local name=$1 pattern=$2 out status
	shift 2
	out=$("$@" 2>&1)
	status=$?
	if [ $status != 0 ] && echo "$out" | grep -E -q "$pattern"; then
		echo "ok error $name: $(echo "$out" | grep -E -m1 "$pattern")"
	else
		echo "not ok error $name: exit $status, wanted /$pattern/, got: $(echo "$out" | tail -n 1)"
	fi
}

expect_error unknown-arch "unknown ARCH 'sparc'" "$S/configure.sh" sparc kcfi
expect_error unknown-mode "unknown CFI mode 'bogus'" "$S/configure.sh" "$arch" bogus
# A PATH with every host tool but QEMU.
nobin=$(mktemp -d)
for t in /usr/bin/* /usr/sbin/*; do
	case "$t" in */qemu-system-*) continue ;; esac
	ln -sf "$t" "$nobin/"
done
expect_error missing-tool "missing tool 'qemu-system-" \
	env PATH="$nobin" "$S/boot.sh" "$arch" "$mode" "$logs/unused.log"
rm -rf "$nobin"

# Jump-table CFI must not need compiler-rt: behind a clang whose resource
# directory lacks share/cfi_ignorelist.txt (as without libclang-rt-*-dev),
# Kconfig must still offer it. The first check shows the wrapper really
# hides the list: clang's own default for -fsanitize=cfi needs it.
if mode_supports_arch jt "$arch"; then
	nort=$(mktemp -d)
	res=$("clang$LLVM" -print-resource-dir)
	mkdir -p "$nort/res" "$nort/bin"
	for d in "$res"/*; do
		[ "${d##*/}" = share ] || ln -s "$d" "$nort/res/"
	done
	printf '#!/bin/sh\nexec %s -resource-dir=%s "$@"\n' \
		"$(command -v "clang$LLVM")" "$nort/res" > "$nort/bin/clang$LLVM"
	chmod +x "$nort/bin/clang$LLVM"
	if ! "$nort/bin/clang$LLVM" -fsanitize=cfi -flto -fvisibility=default \
		-c -x c /dev/null -o /dev/null 2>&1 | grep -q 'missing sanitizer ignorelist'; then
		echo "not ok error missing-tool-compiler-rt: the wrapper does not hide cfi_ignorelist.txt"
	elif out=$(PATH="$nort/bin:$PATH" JTCFI_BUILD="$nort/build" \
			"$S/configure.sh" "$arch" jt 2>&1) &&
		grep -qx CONFIG_CFI_CLANG_JUMP_TABLE=y "$nort/build/$arch-jt"*/.config; then
		echo "ok error missing-tool-compiler-rt: without cfi_ignorelist.txt clang$LLVM refuses plain -fsanitize=cfi, Kconfig still grants CONFIG_CFI_CLANG_JUMP_TABLE=y"
	else
		echo "not ok error missing-tool-compiler-rt: jt not configured without compiler-rt: $(echo "$out" | grep -m1 'asks for\|error')"
	fi
	rm -rf "$nort"
fi

# A patch that does not apply, against a throw-away tree of one file.
scratch=$(mktemp -d)
mkdir -p "$scratch/src/linux-source-6.12" "$scratch/top/scripts" "$scratch/top/patches"
echo "pristine" > "$scratch/src/linux-source-6.12/README"
tar cJf "$scratch/src.tar.xz" -C "$scratch/src" linux-source-6.12
cp "$S"/*.sh "$scratch/top/scripts/"
cat > "$scratch/top/patches/0001-broken.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Nobody <nobody@example.com>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] broken: change a line that is not there

---
 README | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/README b/README
--- a/README
+++ b/README
@@ -1 +1 @@
-something else
+changed
PATCH
echo 0001-broken.patch > "$scratch/top/patches/series"
expect_error patch-fails "patch 0001-broken.patch does not apply" \
	env JTCFI_CACHE="$scratch/cache" JTCFI_TARBALL="$scratch/src.tar.xz" \
	"$scratch/top/scripts/prepare-tree.sh"
rm -rf "$scratch"

# A guest that cannot start init and, with panic=0, hangs in the panic:
# only the boot timeout can end it.
expect_error boot-timeout "did not finish within 30s" \
	env JTCFI_BOOT_TIMEOUT=30 "$S/boot.sh" "$arch" "$mode" "$logs/$arch-$mode-bad-cmdline.log" \
	rdinit=/does-not-exist panic=0
# The same broken init with a panic that ends QEMU: the harness must
# say that the guest never reached init, not report success.
expect_error no-init "never reached init" \
	"$S/boot.sh" "$arch" "$mode" "$logs/$arch-$mode-no-init.log" rdinit=/does-not-exist
