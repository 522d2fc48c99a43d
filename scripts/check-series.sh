#!/bin/bash
# check-series.sh [ARCH] [FROM]: check that every patch of the series
# (from patch number FROM on, default 1) builds on its own.  At each
# commit, in a worktree of the tree, Kconfig resolves
# the config of mode none and of the CFI mode (kcfi until the commit that
# lets ARCH select jump tables, jt from there on), and every C file the
# series touches that the mode builds is compiled.  The whole kernel is
# built at the top of the series by make check; the steps catch a patch
# that needs a later one.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=${1:-arm64}
from=${2:-1}
check_arch "$arch"
positive_number FROM "$from"
need_tool git ccache "clang$LLVM"

wt=$JTCFI_SERIES_CHECK/tree
log=$JTCFI_LOGS/check-series-$arch.log
mkdir -p "$JTCFI_LOGS" "$JTCFI_SERIES_CHECK"
: > "$log"
git -C "$JTCFI_TREE" worktree prune
[ -d "$wt" ] || git -C "$JTCFI_TREE" worktree add -q --detach "$wt" pristine
srcarch=$(arch_field "$arch" srcarch)

# The C files the series touches; host programs (scripts/, and tools/
# such as objtool) are built by modules_prepare instead.
mapfile -t touched < <(git -C "$JTCFI_TREE" diff --name-only pristine HEAD -- '*.c' ':!scripts/' ':!tools/')

step() {	# step MODE: configure and compile the touched files in MODE
	local mode=$1 ref out f targets=()
	ref=$(build_dir "$arch" "$mode")
	out=$JTCFI_SERIES_CHECK/$arch-$mode
	# The built kernel's objects say which files the mode compiles: a
	# configured but unbuilt mode would compile nothing and pass.
	[ -f "$ref/vmlinux" ] ||
		die "no $arch/$mode kernel built to take the config and the objects from (run make build ARCH=$arch MODE=$mode)"
	mkdir -p "$out"
	cp "$ref/.config" "$out/.config"
	kmake -C "$wt" "$arch" "$out" olddefconfig >> "$log" 2>&1 || return 1
	if [ "$mode" != none ] && ! grep -q '^CONFIG_CFI_CLANG=y' "$out/.config"; then
		echo "CFI_CLANG not set" >> "$log"
		return 1
	fi
	if [ "$mode" = jt ] && ! grep -q '^CONFIG_CFI_CLANG_JUMP_TABLE=y' "$out/.config"; then
		echo "jump-table CFI not selectable" >> "$log"
		return 1
	fi
	# Only what the mode builds: the full build at the top has its object.
	for f in "${touched[@]}"; do
		[ -f "$wt/$f" ] && [ -f "$ref/${f%.c}.o" ] && targets+=("${f%.c}.o")
	done
	echo "compiling ${#targets[@]} files" >> "$log"
	# Two makes: goals that mix single objects with other targets make
	# Kbuild build them one at a time, each with its own prepare pass.
	# The objects one job at a time: a directory the arch Makefile lists
	# at the top (x86: drivers-$(CONFIG_PM) += arch/x86/power/) is also
	# reached through its parent, and two jobs compiled the same object
	# at once (fixdep: error opening file .cpu.o.d).
	kmake -C "$wt" "$arch" "$out" modules_prepare >> "$log" 2>&1 &&
		kmake -C "$wt" "$arch" "$out" -j1 "${targets[@]}" >> "$log" 2>&1
}

failed=0 n=0
for c in $(git -C "$JTCFI_TREE" rev-list --reverse pristine..HEAD); do
	n=$((n + 1))
	[ "$n" -ge "$from" ] || continue
	git -C "$wt" checkout -q --detach "$c"
	subject=$(git -C "$wt" log -1 --format=%s)
	mode=kcfi
	grep -q 'select ARCH_SUPPORTS_CFI_JUMP_TABLE' "$wt/arch/$srcarch/Kconfig" && mode=jt
	for m in none "$mode"; do
		echo "== $n $m $subject" >> "$log"
		start=$(date +%s)
		if step "$m"; then
			echo "patch $n ($m): builds  ($(( $(date +%s) - start ))s) $subject"
		else
			echo "patch $n ($m): DOES NOT BUILD  $subject (log: $log)"
			failed=$((failed + 1))
		fi
	done
done
[ "$from" -le "$n" ] || die "FROM=$from, but the series has $n patches"
echo "$n patches (checked from patch $from), $failed (patch, mode) steps that do not build"
[ "$failed" = 0 ]
