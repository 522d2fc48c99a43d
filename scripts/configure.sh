#!/bin/bash
# configure.sh ARCH MODE: write the .config of one (arch, mode) build
# directory from allnoconfig plus configs/common, base-ARCH, the profile's
# fragment (PROFILE other than test) and mode-MODE.
# merge_config.sh silently drops requests Kconfig cannot satisfy, so every
# line of every fragment is checked against the result afterwards.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool "clang$LLVM" "ld.lld$LLVM" make

out=$(build_dir "$arch" "$mode")
check_profile
frags="$JTCFI_TOP/configs/common.config $JTCFI_TOP/configs/base-$arch.config"
[ "$JTCFI_PROFILE" = test ] || frags="$frags $JTCFI_TOP/configs/profile-$JTCFI_PROFILE.config"
frags="$frags $JTCFI_TOP/configs/mode-$mode.config"
# A compiler other than the default may need its own adjustments, last so
# that they win (configs/clang-14.config for LLVM=-14).
[ "$LLVM" = -19 ] || [ ! -f "$JTCFI_TOP/configs/clang$LLVM.config" ] ||
	frags="$frags $JTCFI_TOP/configs/clang$LLVM.config"
# Also rebuild the config when the compiler changes: Kconfig probes it.
sum=$( { cat $frags; "clang$LLVM" --version; git -C "$JTCFI_TREE" rev-parse HEAD; } | sha1sum | cut -d' ' -f1)
[ -f "$out/.config" ] && [ "$(cat "$out/.jtcfi-config" 2>/dev/null)" = "$sum" ] && exit 0

mkdir -p "$out"
# shellcheck disable=SC2086
(cd "$JTCFI_TREE" && ARCH=$arch LLVM=$LLVM scripts/kconfig/merge_config.sh -n -O "$out" $frags) \
	> "$out/merge_config.log" 2>&1 ||
	die "merge_config.sh failed for $arch/$mode (see $out/merge_config.log)"

# What the fragments ask for, symbol by symbol; a later fragment wins,
# as it does in merge_config.sh.
declare -A want from
for f in $frags; do
	while read -r line; do
		case "$line" in
		CONFIG_*=*)		sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		want[$sym]=$line from[$sym]=${f#"$JTCFI_TOP"/}
	done < "$f"
done
bad=0
for sym in "${!want[@]}"; do
	got=$(grep -E "^($sym=|# $sym is not set)" "$out/.config" || true)
	if [ "$got" != "${want[$sym]}" ] && ! { [ -z "$got" ] && [ "${want[$sym]}" = "# $sym is not set" ]; }; then
		echo "jtcfi: ${from[$sym]}: asks for '${want[$sym]}', merged .config has '${got:-nothing}'" >&2
		bad=1
	fi
done
[ $bad = 0 ] || die "$arch/$mode: the config fragments ask for options Kconfig did not grant (see above)"
echo "$sum" > "$out/.jtcfi-config"
note "configured $arch/$mode in $out"
