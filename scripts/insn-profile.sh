#!/bin/bash
# insn-profile.sh ARCH: where each mode's instructions go in the macro
# benchmarks: boots the built kernels of modes none, kcfi and jt (those
# ARCH has; make bench builds them) once each, running every /bench
# program under -icount shift=0 on one CPU as make bench does, with the
# TCG plugin of tools/insn-profile counting kernel instructions per
# translation block; attributes them to System.map's functions (jump-table
# entries keep rows of their own) and writes results/insn-profile-ARCH.md,
# the top functions by jt - kcfi and jt - none per benchmark.  The
# per-function TSVs go to results/insn-profile/ARCH-MODE/, the plugin's dumps
# and the consoles to results/logs/ARCH-MODE-profile.{txt,log}.
# $JTCFI_INSN_TOP sets the functions listed per table (15);
# $JTCFI_INSN_QUICK=1 runs the benchmarks' quick mode (a smoke test).
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1
check_arch "$arch"
top=${JTCFI_INSN_TOP:-15}
positive_number JTCFI_INSN_TOP "$top"
run=bench-macro
[ -z "${JTCFI_INSN_QUICK:-}" ] || run=bench-macro:quick
need_tool python3 make "clang$LLVM" "llvm-objdump$LLVM"

tool=$JTCFI_TOP/tools/insn-profile
make -s -C "$tool" CC="clang$LLVM" || die "could not build the TCG plugin in $tool"
logs=$JTCFI_LOGS
mkdir -p "$logs"

modes=()
for m in none kcfi jt; do
	mode_supports_arch "$m" "$arch" && modes+=("$m")
done
[ "${#modes[@]}" = 3 ] || die "the profile compares none, kcfi and jt; $arch has ${modes[*]}"

# Profiling needs no build of its own: it reads what make bench measured,
# and a kernel rebuilt here could differ from the one the figures are of.
dirs=()
for m in "${modes[@]}"; do
	b=$(build_dir "$arch" "$m")
	[ -f "$b/System.map" ] || die "no $arch/$m kernel in $b (run 'make bench ARCH=$arch' first)"
	# The benchmarks read the clock with a raw clock_gettime() just before
	# and after their measured loop (guest/bench/bench.h), and nothing else
	# in the test guest calls it: each call closes one of the plugin's
	# windows, so window 2k-1 is the k-th benchmark's loop.
	mark=$(sysmap_addr "$arch" "$m" '__(arm64|x64)_sys_clock_gettime')
	[ -n "$mark" ] || die "$b/System.map has no clock_gettime syscall entry to mark the windows"
	dump=$logs/$arch-$m-profile.txt log=$logs/$arch-$m-profile.log
	rm -f "$dump"
	note "profiling $arch/$m"
	# Booted as make bench's first repeat: guest ns are instructions, which
	# attribute.py checks each window against, and single-threaded TCG
	# keeps the plugin's inline counters exact.
	bench_boot "$arch" "$m" "$log" 1 "-plugin $tool/insn_profile.so,out=$dump,mark=$mark" \
		jtcfi.run=$run
	[ -s "$dump" ] || die "the plugin wrote no profile for $arch/$m ($dump; console: $log)"
	out=$JTCFI_RESULTS/insn-profile/$arch-$m
	rm -rf "$out"
	python3 "$tool/attribute.py" tsv "$b/System.map" "$dump" "$log" "$out" ||
		die "could not attribute $dump (console: $log)"
	OBJDUMP=llvm-objdump$LLVM python3 "$tool/classify.py" tsv "$arch" "$m" \
		"$b/vmlinux" "$b/System.map" "$dump" "$out" ||
		die "could not classify the instructions of $dump (console: $log)"
	dirs+=("$out")
done

report=$JTCFI_RESULTS/insn-profile-$arch.md
{
	echo "# Instruction profile of the macro benchmarks, $arch"
	echo
	echo "Made by \`make insn-profile ARCH=$arch\` (\`scripts/insn-profile.sh\`) on $(date -u +%Y-%m-%d)"
	echo "from the kernels \`make bench\` measures (clang$LLVM, ThinLTO), run \`jtcfi.run=$run\`,"
	echo "one boot per mode under \`-icount shift=0\` on one vCPU. How blocks are"
	echo "counted and credited, and what each class of instruction below is:"
	echo "\`docs/measuring.md\`, \"make insn-profile\"."
	echo
	echo "## What kind of instruction the difference is"
	echo
	echo "Instructions per operation of vmlinux's text, by class (\`check\`, \`entry\`,"
	echo "\`slowpath\`, \`kernel\`), and the inline checks run."
	echo
	python3 "$tool/classify.py" compare "${dirs[@]}"
	echo
	echo "## Per function"
	echo
	python3 "$tool/attribute.py" compare --top "$top" "${dirs[@]}"
} > "$report.tmp" || die "could not write $report"
mv "$report.tmp" "$report"
note "results: $report (per-function TSVs: $JTCFI_RESULTS/insn-profile/$arch-*/, dumps and consoles: $logs/$arch-*-profile.*)"
