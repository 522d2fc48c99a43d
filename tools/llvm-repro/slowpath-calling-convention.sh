#!/bin/bash
# slowpath-calling-convention.sh [LLVM_SUFFIX]: whether the kernel can
# make jump-table CFI's slow-path call cheaper for its callers by
# declaring __cfi_slowpath_diag() with a calling convention that preserves
# registers (preserve_most), so that a call's arguments and target need
# not live in callee-saved registers around a check.  It cannot: clang
# emits the call with the C convention whatever the declaration says,
# which in LLVM IR is a call that does not match its callee.  Prints the
# declaration and the calls clang made for each target, and fails if a
# tool is missing.  Used for results/bench.md ("Macro overhead").
set -eu
sfx=${1--19}
command -v "clang$sfx" > /dev/null ||
	{ echo "slowpath-calling-convention: clang$sfx is not installed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/a.c" <<'C'
__attribute__((preserve_most))
void __cfi_slowpath_diag(unsigned long id, void *ptr, void *diag);
/* Used, so that the declaration and its convention stay in the IR. */
void *keep = __cfi_slowpath_diag;
int call_twice(int (*fn)(int), int x, int y)
{
	return fn(x) + fn(y);
}
C
flags="-O2 -flto -fvisibility=default -fsanitize=cfi-icall
       -fsanitize-cfi-cross-dso -fno-sanitize-ignorelist
       -fno-sanitize-trap=cfi -fsanitize-recover=cfi"
for arch in aarch64 x86_64; do
	# shellcheck disable=SC2086
	"clang$sfx" --target="$arch-linux-gnu" $flags -S -emit-llvm \
		"$dir/a.c" -o "$dir/a.ll"
	echo "== $arch"
	grep -E '(declare|call) .*@__cfi_slowpath_diag\(' "$dir/a.ll" |
		sed -e 's/^ *//' -e 's/, !nosanitize.*//'
done
