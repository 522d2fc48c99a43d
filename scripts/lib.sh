# shellcheck shell=bash disable=SC2034
# Shared by the harness scripts: error reporting, the cache layout, the
# architectures, the kernel's make and argument checks.  (SC2034: the
# variables set here are for the scripts that source this.)

# Variables given on the harness's own make command line (make check
# ARCH=arm64) would reach every kernel make through MAKEFLAGS and override
# the ARCH it is given there.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES

die() {
	echo "jtcfi: error: $*" >&2
	exit 1
}

note() {
	echo "jtcfi: $*" >&2
}

# A script's arguments are written once, in the synopsis that opens its
# header: "# NAME ARGS: what it does", where [X] is optional and X...
# repeats.  usage stops with that line; usage_check "$@" does when the
# count of arguments does not fit it (rather than "$1: unbound variable").
synopsis() {
	sed -n '2{s/^# //;s/: .*//;p;q}' "$0"
}

usage() {
	die "usage: $(synopsis)"
}

usage_check() {
	local words w min=0 max=0
	read -r -a words <<< "$(synopsis)"
	[ "${words[0]:-}" = "${0##*/}" ] ||
		die "${0##*/}: its header does not open with its synopsis ('# ${0##*/} ARGS: what it does')"
	for w in "${words[@]:1}"; do
		[[ $w == '['* ]] || min=$((min + 1))
		[[ $w == *...* ]] && max=any
		[ "$max" = any ] || max=$((max + 1))
	done
	[ $# -ge "$min" ] || usage
	[ "$max" = any ] || [ $# -le "$max" ] || usage
}

: "${JTCFI_CACHE:=$HOME/.cache/jtcfi}"
: "${LLVM:=-19}"
JTCFI_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The cache's layout, named here only.
# The kernel tree, a git repository whose first commit is tagged pristine,
# and "SERIES-DIGEST HEAD" of the series last applied to it or exported.
JTCFI_TREE=$JTCFI_CACHE/linux
JTCFI_TREE_STAMP=$JTCFI_CACHE/tree.applied
# Build directories live here; a test that must not touch the real ones
# points it elsewhere.
: "${JTCFI_BUILD:=$JTCFI_CACHE/build}"
# The compiler cache every kernel and module build shares.
JTCFI_CCACHE=${CCACHE_DIR:-$JTCFI_CACHE/ccache}
# Debian's busybox-static unpacked per Debian arch (DEB/bin/busybox); per
# ARCH: the guest/bench and guest/audit programs, the tree's uapi headers
# and the kselftests of the system image.
JTCFI_BUSYBOX=$JTCFI_CACHE/busybox
JTCFI_GUEST_BENCH=$JTCFI_CACHE/guest-bench
JTCFI_UAPI=$JTCFI_CACHE/uapi
JTCFI_GUEST_AUDIT=$JTCFI_CACHE/guest-audit
JTCFI_KSELFTEST=$JTCFI_CACHE/kselftest
# Who the series is from: the project's name and the contact address
# this repository's commits carry.  Patches are authored and signed off
# by it, the tree's commits are committed by it, the cover letter is from
# it (git_series runs git in the tree as this identity).
JTCFI_SERIES_NAME="jtcfi maintainers"
JTCFI_SERIES_EMAIL=maintainers@users.noreply.a-seed-45b92261.example
git_series() {
	git -C "$JTCFI_TREE" -c user.name="$JTCFI_SERIES_NAME" \
		-c user.email="$JTCFI_SERIES_EMAIL" "$@"
}
# check-series.sh's worktree and build directories (named before the
# script was, kept so that they are reused).
JTCFI_SERIES_CHECK=$JTCFI_CACHE/bisect
# check-fresh.sh's Debian base, downloaded .debs and root.
JTCFI_FRESH=$JTCFI_CACHE/fresh
# Results (bench.md, bench/) and the console logs of every boot.
: "${JTCFI_RESULTS:=$JTCFI_TOP/results}"
JTCFI_LOGS=$JTCFI_RESULTS/logs

# Everything the harness knows about an architecture, one row each (as
# kunit's qemu_configs has one record per arch); arch_field reads it, and
# no script has a "case $arch" of its own.  The first row names the
# columns; "-" is an empty field.
#   arch     the name ARCH= takes here, and kbuild's ARCH= (x86_64, not
#            x86: allnoconfig would turn 64BIT off), build directories,
#            configs/base-ARCH.config
#   srcarch  the kernel's arch/ directory
#   image    the boot image kbuild makes, relative to O=
#   qemu     the QEMU binary; machine and cpu are its -M (unless
#            $JTCFI_QEMU_MACHINE) and -cpu
#   bios     firmware given with -bios when /usr/share/qemu has it
#   console  the kernel's serial console (console=)
#   triple   clang's --target= for the guest programs
#   deb      Debian's name: busybox-static:DEB, $JTCFI_CACHE/busybox/DEB
#   pti      the boot argument that turns page-table isolation on
#   poke     TCG threading for a boot that patches text while other CPUs
#            run it (x86's text_poke_bp(): with a host thread per vCPU,
#            QEMU sometimes ran a site's INT3 after it was restored)
#   tracer   yes if enabled_functions names each traced site's tracer
#            (x86 reads it back from the site's code; arm64 does not)
JTCFI_ARCH_TABLE='
arch    srcarch image                  qemu                machine cpu                 bios      console triple            deb   pti    poke   tracer
arm64   arm64   arch/arm64/boot/Image  qemu-system-aarch64 virt    max,pauth-impdef=on -         ttyAMA0 aarch64-linux-gnu arm64 kpti=1 -      -
x86_64  x86     arch/x86/boot/bzImage  qemu-system-x86_64  pc      max                 qboot.rom ttyS0   x86_64-linux-gnu  amd64 pti=on single yes
'

arch_list() {	# arch_list: every supported ARCH, one a line
	awk 'NF && n++ { print $1 }' <<< "$JTCFI_ARCH_TABLE"
}

# arch_field ARCH FIELD: FIELD of ARCH's row (nothing for "-").
arch_field() {
	local header=() row i
	while read -r -a row; do
		[ "${#row[@]}" != 0 ] || continue
		if [ "${#header[@]}" = 0 ]; then
			header=("${row[@]}")
			continue
		fi
		[ "${row[0]}" = "$1" ] || continue
		for i in "${!header[@]}"; do
			[ "${header[i]}" = "$2" ] || continue
			[ "${row[i]}" = - ] || echo "${row[i]}"
			return 0
		done
		die "the arch table has no field '$2' (fields: ${header[*]})"
	done <<< "$JTCFI_ARCH_TABLE"
	die "unknown ARCH '$1' (supported: $(arch_list | xargs))"
}

# text_patching_tcg ARCH: a boot that patches text while other CPUs run
# it (ftrace) gets the TCG threading ARCH's poke field names, unless
# JTCFI_TCG_THREAD already chose one.
text_patching_tcg() {
	local poke
	poke=$(arch_field "$1" poke)
	[ -z "$poke" ] || export JTCFI_TCG_THREAD=${JTCFI_TCG_THREAD:-$poke}
}

# positive_number NAME VALUE: VALUE, a setting from the environment named
# NAME, must be a whole number above 0.
positive_number() {
	case "$2" in ''|*[!0-9]*|0) die "$1 must be a positive number, not '$2'" ;; esac
}

check_arch() {
	arch_list | grep -qxF -- "$1" ||
		die "unknown ARCH '$1' (supported: $(arch_list | xargs))"
}

# arch_mode_args "$@": for scripts whose arguments open with ARCH MODE:
# checks them against the synopsis and sets arch and mode.
arch_mode_args() {
	usage_check "$@"
	arch=$1 mode=$2
	check_arch "$arch"
	check_mode "$mode" "$arch"
}

check_mode() {	# check_mode MODE [ARCH]
	[ -f "$JTCFI_TOP/configs/mode-$1.config" ] ||
		die "unknown CFI mode '$1' (supported: $(cd "$JTCFI_TOP/configs" && ls mode-*.config | sed 's/mode-\(.*\)\.config/\1/' | xargs))"
	[ -z "${2:-}" ] || mode_supports_arch "$1" "$2" ||
		die "CFI mode '$1' is not available on $2 yet"
}

# One build directory per (arch, mode, profile); a compiler other than the default
# clang-19 gets its own (e.g. LLVM=-14 for Debian 12's stock clang).
# log_path LOGDIR ARCH MODE NAME [EXT]: where a test (or run.sh) keeps a
# console or report: LOGDIR/ARCH-MODE-NAME.EXT (log by default), NAME's
# spaces as dashes ("lkdtm CFI_FORWARD_PROTO permissive").
log_path() {
	local name=$4
	echo "$1/$2-$3-${name// /-}.${5:-log}"
}

build_dir() {
	local cc= profile=
	[ "$LLVM" = -19 ] || cc=-clang$LLVM
	[ "$JTCFI_PROFILE" = test ] || profile=-$JTCFI_PROFILE
	echo "$JTCFI_BUILD/$1-$2$profile$cc"
}

# The config profile: "test", the default and what make check runs, is
# configs/common + base-ARCH + mode-MODE; any other adds
# configs/profile-PROFILE.config and builds in a directory of its own.
: "${JTCFI_PROFILE:=test}"
check_profile() {
	[ "$JTCFI_PROFILE" = test ] ||
		[ -f "$JTCFI_TOP/configs/profile-$JTCFI_PROFILE.config" ] ||
		die "unknown PROFILE '$JTCFI_PROFILE' (supported: test $(cd "$JTCFI_TOP/configs" && ls profile-*.config 2>/dev/null | sed 's/profile-\(.*\)\.config/\1/' | xargs))"
}

# sysmap_addr ARCH MODE PATTERN: the address (0x...) of the first symbol in
# the (arch, mode) build's System.map whose name matches the awk regular
# expression PATTERN (anchored), or nothing.  Tests that play an attacker
# who knows the kernel's symbols use it.
sysmap_addr() {
	awk -v re="^($3)\$" '$3 ~ re { print "0x" $1; exit }' "$(build_dir "$1" "$2")/System.map"
}

# guest_start_line LOG: guest/init's start line in the console LOG;
# nothing if the guest never reached init.
guest_start_line() {
	python3 "$JTCFI_TOP/scripts/console.py" find start "$1"
}

# kaslr_offset ARCH MODE LOG: how far KASLR moved the kernel of the boot
# LOG records (guest/init's _stext= against System.map), as 0x...; nothing
# if LOG does not say.
kaslr_offset() {
	local link text
	link=$(sysmap_addr "$1" "$2" _stext)
	text=$(guest_start_line "$3" | sed -n 's/.* _stext=\([0-9a-f]\{8,\}\).*/\1/p')
	[ -n "$link" ] && [ -n "$text" ] && printf '0x%x\n' $((0x$text - link))
}

# kmake [-C TREE] ARCH OUT ARG...: the kernel's make for ARCH with O=OUT,
# from the tree (or TREE, a worktree of it), every core busy, clang$LLVM
# through ccache.  The build identity is fixed so that ccache hits and
# images compare across builds (the version "#1" is also what bindeb-pkg
# builds with, as the package revision is 1: packaging relinks nothing); the cache limit is set on every use, as
# ccache trims to its own default (5G) when a build runs without it.
kmake() {
	local tree=$JTCFI_TREE arch out
	if [ "${1:-}" = -C ]; then
		tree=$2
		shift 2
	fi
	arch=$1 out=$2
	shift 2
	need_tool make ccache "clang$LLVM"
	KBUILD_BUILD_TIMESTAMP=2024-01-01 KBUILD_BUILD_USER=jtcfi KBUILD_BUILD_HOST=jtcfi KBUILD_BUILD_VERSION=1 \
	CCACHE_DIR=$JTCFI_CCACHE CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G} \
		make -C "$tree" O="$out" ARCH="$arch" LLVM="$LLVM" CC="ccache clang$LLVM" \
			-j"$(nproc)" "$@"
}

# shell_quote ARG...: the words as one line that the shell reads back as
# the same words, quoted only where needed so that a command stays
# readable (printf %q alone would also escape every comma of QEMU's
# options).
shell_quote() {
	local a line=
	for a in "$@"; do
		if [[ $a == *[[:cntrl:]]* ]]; then
			a=$(printf %q "$a")
		elif [[ -z $a || $a == *[!A-Za-z0-9_./,:=+@%-]* ]]; then
			a="'${a//\'/\'\\\'\'}'"
		fi
		line+=" $a"
	done
	echo "${line# }"
}

# boot.sh opens every console log with the QEMU command it ran, on a line
# that starts with this (no kernel or guest line starts so): a test may skip
# it.
JTCFI_LOG_HEADER='# jtcfi: '

need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "missing tool '$t' (run 'make setup' to install the host packages)"
	done
}

# A digest of patches/series and every patch it names: the tree is
# re-prepared whenever this changes.
series_sum() {
	local series=$JTCFI_TOP/patches/series p
	{
		cat "$series" 2>/dev/null
		grep -v '^#' "$series" 2>/dev/null | while read -r p; do
			[ -n "$p" ] && cat "$JTCFI_TOP/patches/$p"
		done
	} | sha1sum | cut -d' ' -f1
}

# A mode fragment may restrict itself with a "# jtcfi-arches: A B" line.
mode_supports_arch() {	# mode_supports_arch MODE ARCH
	local arches
	arches=$(sed -n 's/^# jtcfi-arches: //p' "$JTCFI_TOP/configs/mode-$1.config")
	[ -z "$arches" ] || [[ " $arches " == *" $2 "* ]]
}

# need_kcfi_and_jt WHAT ARCH: stops unless ARCH has both modes WHAT sets
# side by side (make precision, make exemptions).
need_kcfi_and_jt() {
	local m have=()
	for m in kcfi jt; do
		mode_supports_arch "$m" "$2" && have+=("$m")
	done
	[ "${#have[@]}" = 2 ] || die "$1 compares kcfi and jt; $2 has ${have[*]}"
}

# figure_builds ARCH MODE...: each mode's kernel built for ARCH and
# tools/cfi-precision built, for scripts/bench-figures.py, whose --build
# arguments it leaves in the array figargs.  make bench and make precision
# share it.
figure_builds() {
	local arch=$1 m
	shift
	figargs=()
	for m in "$@"; do
		"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$m"
		figargs+=(--build "$m" "$(build_dir "$arch" "$m")")
	done
	make -s -C "$JTCFI_TOP/tools/cfi-precision" CC="clang$LLVM" ||
		die "could not build tools/cfi-precision"
}

# bench_boot ARCH MODE LOG SEED EXTRA KERNEL-ARGS...: boot.sh the way the
# measurements boot: one CPU under -icount shift=0 (guest time counts
# instructions, and TCG stays single-threaded), the guest's randomness
# seeded with SEED and its clock fixed, EXTRA added to QEMU's options (a
# plugin, or nothing), the kernel where it was linked (nokaslr: the
# profile reads addresses with System.map); stops when the guest did not
# finish.  make bench
# and make insn-profile share it, so a profile is of the runs bench measures.
bench_boot() {
	local arch=$1 mode=$2 log=$3 seed=$4 extra=$5
	shift 5
	JTCFI_SMP=1 JTCFI_QEMU_EXTRA="-icount shift=0,sleep=off -seed $seed -rtc base=2024-01-01T00:00:00,clock=vm $extra" \
		"$JTCFI_TOP/scripts/boot.sh" "$arch" "$mode" "$log" printk.time=1 kunit.enable=0 nokaslr "$@"
	grep -q '^jtcfi-guest: done' "$log" ||
		die "benchmark guest $arch/$mode stopped early (console: $log)"
}
