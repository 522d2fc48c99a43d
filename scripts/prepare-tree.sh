#!/bin/bash
# prepare-tree.sh: unpack Debian's linux-source-6.12 into the cache as a
# git repository whose first commit (tag "pristine") is the untouched
# tree, then apply patches/series with git am.  Re-running is a no-op
# while the series is unchanged; a changed series is re-applied from
# pristine, unless the tree has commits that were never exported (that
# work would be lost).
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
need_tool git tar xz

tarball=${JTCFI_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tarball" ] ||
	die "$tarball not found (apt-get install linux-source-6.12)"
series=$JTCFI_TOP/patches/series
stamp=$JTCFI_TREE_STAMP
git_tree() { git -C "$JTCFI_TREE" "$@"; }

if ! git_tree rev-parse -q --verify pristine >/dev/null 2>&1; then
	note "unpacking $tarball into $JTCFI_TREE"
	rm -rf "$JTCFI_TREE" "$stamp"
	mkdir -p "$JTCFI_TREE"
	tar xf "$tarball" -C "$JTCFI_TREE" --strip-components=1
	git_tree init -q -b jtcfi
	# Debian's top-level .gitignore ignores everything ("/*"): force.
	git_tree add -A -f .
	git_series commit -q -m "Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)"
	git_tree tag pristine
fi

want=$(series_sum)
head=$(git_tree rev-parse HEAD)
if [ -f "$stamp" ]; then
	read -r had_series had_head < "$stamp"
	[ "$had_series" = "$want" ] && exit 0
	[ "$had_head" = "$head" ] ||
		die "$JTCFI_TREE has commits that are not in patches/ (run 'make export' to keep them, or 'make reset-tree' to drop them)"
fi

git_tree am --abort >/dev/null 2>&1 || true
git_tree checkout -q -B jtcfi pristine
git_tree reset -q --hard pristine
n=0
if [ -f "$series" ]; then
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$JTCFI_TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! git_series am -q --keep-cr "$JTCFI_TOP/patches/$p" >/dev/null 2>&1; then
			git_tree am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to the tree (see: git -C $JTCFI_TREE am $JTCFI_TOP/patches/$p)"
		fi
		n=$((n + 1))
	done < "$series"
fi
echo "$want $(git_tree rev-parse HEAD)" > "$stamp"
note "tree ready: $n patches applied on pristine"
