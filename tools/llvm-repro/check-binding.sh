#!/bin/bash
# check-binding.sh [LLVM_SUFFIX]: where clang keeps the target of a
# cross-DSO checked call while the slow path (__cfi_slowpath_diag) makes
# the verdict, for a call with nothing else live across it and for one
# with six more values.  LLVM lowers the check in IR (LowerTypeTests):
# the slow-path call and the indirect call are two IR calls of one
# pointer, and the register allocator keeps that pointer in a
# callee-saved register or a stack slot between them, whichever is
# cheaper.  A write to the stack while the slow path runs (to the slot,
# or to where a callee saved the register) then redirects a call whose
# target was accepted.  kCFI has no such window: its check is a pseudo
# instruction bundled with the call and expanded after register
# allocation.  What LLVM would need: the same for the cross-DSO check
# (the slow-path call and the indirect call through one physical
# register that the slow path preserves, emitted after register
# allocation), or a slow path that returns the pointer it accepted, with
# the indirect call made through that return value.
# Prints, per target, "FUNCTION: OFFSET CLASS" as cfi-codegen-audit
# --probe-after does (reloaded: from the stack; callee-saved: in a
# register a callee saves); fails if a tool is missing.
set -eu
sfx=${1--19}
top=$(cd "$(dirname "$0")/../.." && pwd)
for t in "clang$sfx" "ld.lld$sfx" "llvm-objdump$sfx"; do
	command -v "$t" > /dev/null || { echo "check-binding: $t is not installed" >&2; exit 1; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/a.c" <<'C'
typedef long (*read_fn)(void *file, char *buf, unsigned long len, long long *pos);

__attribute__((noinline)) long one_value(read_fn fn)
{
	return fn(0, 0, 0, 0);
}

__attribute__((noinline)) long busy(read_fn fn, const unsigned long *v)
{
	unsigned long a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5];
	long r = fn(0, 0, 0, 0);

	return r + (a ^ (b << 1) ^ (c << 2) ^ (d << 3) ^ (e << 4) ^ (f << 5));
}
C
# No ignore list: the kernel builds without one too.
: > "$dir/ignore.txt"
flags="-O2 -flto -fvisibility=hidden -fno-omit-frame-pointer
       -fsanitize=cfi-icall -fsanitize-cfi-cross-dso
       -fsanitize-ignorelist=$dir/ignore.txt -fno-sanitize-ignorelist
       -fno-sanitize-trap=cfi -fsanitize-recover=cfi"
for arch in aarch64 x86_64; do
	case $arch in
	aarch64) kflags="-mbranch-protection=pac-ret+bti" ;;
	x86_64)	kflags="-mcmodel=kernel -mno-red-zone -mretpoline-external-thunk" ;;
	esac
	# shellcheck disable=SC2086
	"clang$sfx" --target="$arch-linux-gnu" $flags $kflags -c "$dir/a.c" -o "$dir/a.o"
	# The LTO link lowers the checks, as the kernel's module link does.
	"ld.lld$sfx" -r "$dir/a.o" -o "$dir/$arch.o"
	echo "== $arch"
	for f in one_value busy; do
		# Under CFI the body is FUNCTION.cfi; FUNCTION is its entry.
		echo "$f: $(python3 "$top/tools/cfi-codegen-audit/cfi-codegen-audit.py" \
			-o "llvm-objdump$sfx" --probe-after "$f.cfi" "$dir/$arch.o")"
	done
done
