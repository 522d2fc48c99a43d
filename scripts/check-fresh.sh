#!/bin/bash
# check-fresh.sh [REV]: the README's first command on a fresh Debian 12
# system. A minimal root (mmdebstrap, minbase plus make, from this host's
# Debian apt sources; the base is cached) gets a clone of this repository
# at REV (default HEAD), and "make run" runs in it under chroot, as root,
# the way a new user would run it. Only ccache and apt's downloaded .debs
# are shared with the host, never the kernel tree or a build directory, so
# whatever the project needs must come from scripts/setup-host.sh.
# Then, in the same root, Debian 12's stock clang-14 must be offered
# jump-table CFI by Kconfig too, without compiler-rt.
# Prints one line per test and closes with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
usage_check "$@"
rev=${1:-HEAD}
[ "$(id -u)" = 0 ] || die "check-fresh needs root (mmdebstrap, mounts, chroot)"
need_tool mmdebstrap unshare chroot git
git -C "$JTCFI_TOP" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
	die "'$rev' is not a commit of $JTCFI_TOP"

fresh=$JTCFI_FRESH
logs=$JTCFI_LOGS
mkdir -p "$fresh/apt-archives" "$JTCFI_CCACHE" "$logs"

# The host's Debian sources (files whose every URI is a Debian archive):
# the fresh root sees the same package versions as the host.
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] || continue
	uris=$(sed -n -E 's/^(URIs:|deb(-src)?( \[[^]]*\])?) *//p' "$f" | awk '{print $1}')
	[ -n "$uris" ] && ! echo "$uris" | grep -v -q '/debian' && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || die "no Debian apt sources found in /etc/apt"

include=make
key=$( { cat "${sources[@]}"; echo "$include"; mmdebstrap --version; } | sha1sum | cut -c1-12)
base=$fresh/base-$key.tar
if [ ! -f "$base" ]; then
	note "making a minimal Debian 12 root with mmdebstrap ($base)"
	rm -rf "$fresh"/base-*.tar*
	mmdebstrap --variant=minbase --format=tar --include="$include" bookworm "$base.tmp" "${sources[@]}" \
		> "$fresh/mmdebstrap.log" 2>&1 ||
		die "mmdebstrap failed (see $fresh/mmdebstrap.log)"
	mv "$base.tmp" "$base"
fi

root=$fresh/root
rm -rf "$root"
mkdir -p "$root"
tar xf "$base" -C "$root" || die "cannot unpack $base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q --no-hardlinks "$JTCFI_TOP" "$root/root/jtcfi" &&
	git -C "$root/root/jtcfi" checkout -q --detach "$rev" ||
	die "cannot clone $JTCFI_TOP at $rev into the fresh root"
# The root's own default cache, with the host's compiler cache in it:
# where lib.sh puts the ccache for a new user (HOME=/root, nothing else
# set, as in_root runs make).
# shellcheck disable=SC2016
root_ccache=$(env -i HOME=/root PATH="$PATH" bash -c '. "$1" && echo "$JTCFI_CCACHE"' - "$JTCFI_TOP/scripts/lib.sh") ||
	die "cannot tell where the fresh root keeps its ccache"
mkdir -p "$root$root_ccache"

# in_root LOG COMMAND: run COMMAND in the fresh root in a private mount
# namespace (the mounts vanish with it), with a new user's environment.
in_root() {
	local log=$1
	shift
	unshare --mount --propagation private sh -c '
		set -e
		r=$1 fresh=$2 ccache=$3 root_ccache=$4
		shift 4
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		mount --bind "$fresh/apt-archives" "$r/var/cache/apt/archives"
		mount --bind "$ccache" "$r$root_ccache"
		exec chroot "$r" env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			sh -c "cd /root/jtcfi && $*"
	' in_root "$root" "$fresh" "$JTCFI_CCACHE" "$root_ccache" "$@" > "$log" 2>&1
}

passed=0 failed=0
verdict() {	# verdict ok|not-ok NAME DETAIL
	if [ "$1" = ok ]; then
		echo "ok fresh-system $2: $3"
		passed=$((passed + 1))
	else
		echo "not ok fresh-system $2: $3"
		failed=$((failed + 1))
	fi
}

start=$(date +%s)
log=$logs/fresh-make-run.log
note "make run in a fresh Debian 12 root at $(git -C "$JTCFI_TOP" rev-parse --short "$rev") (log: $log)"
if in_root "$log" make run; then
	result=$(grep -E '^[^ ]+ [^ ]+ lkdtm CFI_FORWARD_PROTO: (not )?ok  ' "$log" | tail -n 1)
	case "$result" in
	*": ok  ("*)	verdict ok make-run "${result#* * }" ;;
	*)	verdict not-ok make-run "make run succeeded but printed no ok line (see $log)" ;;
	esac
else
	verdict not-ok make-run "$(grep -m1 'jtcfi: error' "$log" || tail -n 1 "$log") (see $log)"
fi
run_s=$(( $(date +%s) - start ))

# Debian 12's stock compiler, also without compiler-rt: Kconfig must offer
# jump-table CFI (kCFI needs clang 16, so only jt is asked for).
log14=$logs/fresh-clang-14-config.log
cmd14=$(cat <<'EOF14'
LLVM=-14 scripts/setup-host.sh &&
if dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'ok installed'; then
	echo "jtcfi: error: libclang-rt-14-dev is installed in the fresh root"; exit 1
fi &&
LLVM=-14 scripts/configure.sh arm64 jt &&
grep -x CONFIG_CFI_CLANG_JUMP_TABLE=y "$(LLVM=-14 bash -c '. scripts/lib.sh && build_dir arm64 jt')/.config"
EOF14
)
if in_root "$log14" "$cmd14"; then
	verdict ok clang-14-config "Kconfig grants CONFIG_CFI_CLANG_JUMP_TABLE=y with clang-14 and no libclang-rt-14-dev"
else
	verdict not-ok clang-14-config "$(grep -m1 'jtcfi: \|error' "$log14" || tail -n 1 "$log14") (see $log14)"
fi
# A failed root is kept for a look inside; a passed one only takes space.
if [ "$failed" = 0 ]; then
	rm -rf "$root"
	where="root removed"
else
	where="root kept in $root"
fi
echo "make run took ${run_s}s, all $(( $(date +%s) - start ))s; $where"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
