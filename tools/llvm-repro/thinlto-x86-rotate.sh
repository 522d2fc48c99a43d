#!/bin/bash
# thinlto-x86-rotate.sh [LLVM_SUFFIX]: the jump-table check LLVM emits in a
# ThinLTO backend on x86_64, against full LTO and against aarch64, in a
# program of two files and no kernel.  LowerTypeTests imports a jump
# table's alignment as an absolute symbol on x86 ELF only
# (shouldExportConstantsAsAbsoluteSymbols()), and no rotate takes a symbol
# as its immediate: the check's rotate becomes two shifts by %cl and an or,
# their amounts held in two more callee-saved registers.  Prints each
# variant's instructions of call_all(), and fails if a tool is missing.
# Used for results/notes/llvm-thinlto-x86-rotate.md; a reproducer for LLVM.
set -eu
sfx=${1--19}
for t in "clang$sfx" "ld.lld$sfx" "llvm-objdump$sfx"; do
	command -v "$t" > /dev/null || { echo "thinlto-x86-rotate: $t is not installed" >&2; exit 1; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/a.c" <<'C'
typedef int (*fn_t)(int);
int f1(int x) { return x + 1; }
int f2(int x) { return x + 2; }
int f3(int x) { return x + 3; }
fn_t table[] = { f1, f2, f3 };
C
cat > "$dir/b.c" <<'C'
typedef int (*fn_t)(int);
extern fn_t table[];
/* Its address is not taken: under ThinLTO a backend compiles it. */
int call_all(int n, int x)
{
	for (int i = 0; i < n; i++)
		x = table[i % 3](x);
	return x;
}
C
flags="-O2 -fsanitize=cfi-icall -fno-sanitize-ignorelist -fvisibility=hidden"
for variant in x86_64:thin x86_64:full aarch64:thin; do
	arch=${variant%:*} lto=${variant#*:}
	lf=-flto
	[ "$lto" = thin ] && lf="-flto=thin -fsplit-lto-unit"
	for f in a b; do
		# shellcheck disable=SC2086
		"clang$sfx" --target="$arch-linux-gnu" $flags $lf -c "$dir/$f.c" -o "$dir/$f.o"
	done
	"ld.lld$sfx" -r -o "$dir/out.o" "$dir/a.o" "$dir/b.o"
	echo "== $arch, $lto LTO"
	"llvm-objdump$sfx" -d --no-show-raw-insn --disassemble-symbols=call_all "$dir/out.o" |
		sed -n '/<call_all>:/,$p'
done
