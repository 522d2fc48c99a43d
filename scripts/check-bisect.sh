#!/bin/bash
# check-bisect.sh [ARCH]: build the kernel at every commit of the series,
# so that each patch is known to build on its own.  Each step is an
# incremental `make Image modules` in a worktree of the tree: in mode kcfi
# until the commit that lets ARCH select jump tables, in mode jt from
# there on.  The build directories start as copies of the (arch, mode)
# builds, so a step only recompiles what its commit changed.
set -eu
. "$(dirname "$0")/lib.sh"
arch=${1:-arm64}
check_arch "$arch"
need_tool git ccache "clang$LLVM"

wt=$JTCFI_CACHE/bisect/tree
log=${JTCFI_RESULTS:-$JTCFI_TOP/results}/logs/check-bisect-$arch.log
mkdir -p "$(dirname "$log")" "$JTCFI_CACHE/bisect"
: > "$log"
git -C "$JTCFI_TREE" worktree prune
[ -d "$wt" ] || git -C "$JTCFI_TREE" worktree add -q --detach "$wt" pristine
case "$arch" in
arm64)	image=Image ;;
x86_64)	image=bzImage ;;
esac

export CCACHE_DIR=${CCACHE_DIR:-$JTCFI_CACHE/ccache}
export KBUILD_BUILD_TIMESTAMP="2024-01-01" KBUILD_BUILD_USER=jtcfi KBUILD_BUILD_HOST=jtcfi
step_build() {	# step_build MODE: incremental build of the worktree in MODE
	local out=$JTCFI_CACHE/bisect/$arch-$1 src
	src=$(build_dir "$arch" "$1")
	if [ ! -d "$out" ]; then
		[ -f "$src/.config" ] || die "no $arch/$1 build to start from (run make build MODE=$1)"
		cp -a "$src" "$out"
	fi
	cp "$src/.config" "$out/.config"
	make -C "$wt" O="$out" ARCH="$arch" LLVM="$LLVM" CC="ccache clang$LLVM" \
		olddefconfig >> "$log" 2>&1 || return 1
	if [ "$1" = jt ] && ! grep -q '^CONFIG_CFI_CLANG_JUMP_TABLE=y' "$out/.config"; then
		echo "jump-table CFI not selectable" >> "$log"
		return 1
	fi
	make -C "$wt" O="$out" ARCH="$arch" LLVM="$LLVM" CC="ccache clang$LLVM" \
		-j"$(nproc)" "$image" modules >> "$log" 2>&1
}

failed=0 n=0
for c in $(git -C "$JTCFI_TREE" rev-list --reverse pristine..HEAD); do
	n=$((n + 1))
	git -C "$wt" checkout -q --detach "$c"
	subject=$(git -C "$wt" log -1 --format=%s)
	mode=kcfi
	grep -q 'select ARCH_SUPPORTS_CFI_JUMP_TABLE' "$wt/arch/$(kernel_arch "$arch")/Kconfig" && mode=jt
	echo "== $n $mode $subject" >> "$log"
	start=$(date +%s)
	if step_build "$mode"; then
		echo "patch $n ($mode): builds  ($(( $(date +%s) - start ))s) $subject"
	else
		echo "patch $n ($mode): DOES NOT BUILD  $subject (log: $log)"
		failed=$((failed + 1))
	fi
done
echo "$n patches, $failed that do not build on their own"
[ "$failed" = 0 ]
