#!/bin/bash
# build-kernel.sh ARCH MODE: build the kernel image and modules of one
# (arch, mode) in its own O= directory.  Incremental: kbuild decides what
# is stale; ccache keeps a cold rebuild of an unchanged file cheap.
set -eu
. "$(dirname "$0")/lib.sh"
arch_mode_args "$@"
need_tool ccache "clang$LLVM" "ld.lld$LLVM" "llvm-ar$LLVM" flex bison bc

out=$(build_dir "$arch" "$mode")
[ -f "$out/.config" ] || die "$out has no .config (run scripts/configure.sh $arch $mode)"
image=$(arch_field "$arch" image)

start=$(date +%s)
# Only a build from an empty directory gives the from-scratch wall time
# the benchmark report quotes.
from_scratch=
[ -e "$out/vmlinux" ] || from_scratch=1

# kbuild's output goes to the log, and a cold build takes ten minutes (the
# LTO link alone several): every 30 s, say how long it has run, how many
# files it compiled and its latest step.  The loop is stopped when the
# build ends or the script exits, however it exits.
progress() {
	local sleeper='' n step
	trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
	while kill -0 $$ 2>/dev/null; do
		sleep 30 > /dev/null 2>&1 &
		sleeper=$!
		wait "$sleeper" || true
		n=$(grep -c -E '^  (CC|AS)( \[M\])? ' "$out/build.log" 2>/dev/null || true)
		step=$(grep -E '^  [A-Z]' "$out/build.log" 2>/dev/null | tail -n 1 | tr -s ' ' || true)
		note "building $arch/$mode: $(( $(date +%s) - start ))s, ${n:-0} files compiled${step:+, at:$step}"
	done
}
stop_progress() {
	[ -n "${ticker:-}" ] || return 0
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	ticker=
}

note "building $arch/$mode in $out (log: $out/build.log)"
progress > /dev/null &
ticker=$!
trap stop_progress EXIT
if ! kmake "$arch" "$out" "${image##*/}" modules > "$out/build.log" 2>&1; then
	stop_progress
	grep -E -m 20 'error|Error' "$out/build.log" >&2 || tail -n 20 "$out/build.log" >&2
	die "kernel build failed for $arch/$mode (see $out/build.log)"
fi
rm -rf "$out/modroot"
kmake "$arch" "$out" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >> "$out/build.log" 2>&1 ||
	die "modules_install failed for $arch/$mode (see $out/build.log)"
stop_progress
ln -sf "$image" "$out/kernel-image"
[ -z "$from_scratch" ] || echo "$(( $(date +%s) - start ))" > "$out/build-seconds"
note "built $arch/$mode in $(( $(date +%s) - start ))s"
