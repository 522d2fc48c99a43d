#!/bin/bash
# bench.sh ARCH: build the same config in modes none, kcfi and jt (those
# ARCH has), boot each $JTCFI_BENCH_REPEATS times (3) under TCG with
# -icount shift=0 on one CPU, so guest time counts instructions, and
# collect every figure into results/bench/ARCH.tsv; then write
# results/bench.md and its chart.  Repeat N seeds the guest's random
# numbers (and fixes its clock) with N: a run is reproducible exactly,
# and the spread over repeats is what the guest's own randomness (ASLR,
# hash seeds) does to a figure.
set -eu
. "$(dirname "$0")/lib.sh"
arch=$1
check_arch "$arch"
repeats=${JTCFI_BENCH_REPEATS:-3}
case "$repeats" in ''|*[!0-9]*|0) die "JTCFI_BENCH_REPEATS must be a positive number, not '$repeats'" ;; esac
need_tool "llvm-size$LLVM" "llvm-readelf$LLVM" python3

results=${JTCFI_RESULTS:-$JTCFI_TOP/results}
logs=$results/logs
figures=$results/bench
mkdir -p "$logs" "$figures"
tsv=$figures/$arch.tsv

modes=()
for m in none kcfi jt; do
	mode_supports_arch "$m" "$arch" && modes+=("$m")
done

# Build first: the repeats then only boot.
for m in "${modes[@]}"; do
	"$JTCFI_TOP/scripts/prepare-kernel.sh" "$arch" "$m"
done
make -s -C "$JTCFI_TOP/tools/cfi-precision" CC="clang$LLVM" ||
	die "could not build tools/cfi-precision"

# arch mode repeat kind name value unit
printf 'arch\tmode\trepeat\tkind\tname\tvalue\tunit\n' > "$tsv.tmp"
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$arch" "$@" >> "$tsv.tmp"; }

for m in "${modes[@]}"; do
	out=$(build_dir "$arch" "$m")
	read -r text data bss _ < <("llvm-size$LLVM" "$out/vmlinux" | tail -n 1)
	row "$m" 0 static vmlinux-text "$text" bytes
	row "$m" 0 static vmlinux-data "$data" bytes
	row "$m" 0 static vmlinux-bss "$bss" bytes
	row "$m" 0 static vmlinux-total "$((text + data + bss))" bytes
	if [ "$m" = kcfi ]; then
		# A kCFI type hash is a data word right before its function:
		# count the functions with a $d mapping symbol at address - 4.
		typed=$("llvm-readelf$LLVM" -s "$out/vmlinux" | python3 -c '
import sys
data, funcs = set(), set()
for line in sys.stdin:
    f = line.split()
    if len(f) >= 8 and f[7] == "$d":
        data.add(int(f[1], 16))
    elif len(f) >= 8 and f[3] == "FUNC":
        funcs.add(int(f[1], 16))
print(sum(1 for a in funcs if a - 4 in data))')
		row "$m" 0 static kcfi-typed-functions "$typed" functions
	fi
	[ -f "$out/build-seconds" ] &&
		row "$m" 0 static build-from-scratch "$(cat "$out/build-seconds")" s
	"$JTCFI_TOP/tools/cfi-precision/cfi-precision" "$out/vmlinux" > "$figures/$arch-$m.precision" ||
		die "cfi-precision failed on $out/vmlinux"
	while IFS=': ' read -r key value; do
		row "$m" 0 precision "$key" "$value" ""
	done < <(grep -v "^scheme:" "$figures/$arch-$m.precision")
done

# Repeat r boots every mode with the same seed, so that modes are
# compared under the same guest randomness.
for r in $(seq "$repeats"); do
	for m in "${modes[@]}"; do
		log=$logs/$arch-$m-bench-$r.log
		note "benchmark run $r of $repeats: $arch/$m"
		JTCFI_SMP=1 JTCFI_QEMU_EXTRA="-icount shift=0,sleep=off -seed $r -rtc base=2024-01-01T00:00:00,clock=vm" \
			"$JTCFI_TOP/scripts/boot.sh" "$arch" "$m" "$log" \
			printk.time=1 kunit.enable=0 \
			jtcfi.run=bench-micro:1000000,bench-macro,bench-modload:100
		grep -q '^jtcfi-guest: done' "$log" ||
			die "benchmark guest $arch/$m stopped early (console: $log)"
		# Guest time when the kernel hands over to init.
		boot=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process/\1/p' "$log")
		[ -n "$boot" ] || die "no 'Run /init' line with a timestamp in $log"
		row "$m" "$r" boot to-init "$(awk -v s="$boot" 'BEGIN { printf "%.0f", s * 1e9 }')" ns
		sed -n 's/.*jtcfi-bench: micro \([a-z-]*\) calls=\([0-9]*\) ns=\([0-9]*\)$/\1 \2 \3/p' "$log" |
		while read -r name n ns; do
			row "$m" "$r" micro "$name" "$(awk -v t="$ns" -v n="$n" 'BEGIN { printf "%.3f", t / n }')" ns/call
		done
		sed -n 's/.*jtcfi-bench: macro \([a-z-]*\) ops=\([0-9]*\) ns=\([0-9]*\) .*/\1 \2 \3/p' "$log" |
		while read -r name n ns; do
			row "$m" "$r" macro "$name" "$(awk -v t="$ns" -v n="$n" 'BEGIN { printf "%.1f", n * 1e9 / t }')" ops/s
		done
		sed -n 's/.*jtcfi-bench: modload loads=\([0-9]*\) load_ns=\([0-9]*\) unload_ns=\([0-9]*\)$/\1 \2 \3/p' "$log" |
		while read -r n load unload; do
			row "$m" "$r" modload load "$((load / n))" ns
			row "$m" "$r" modload unload "$((unload / n))" ns
		done
		for kind in micro macro modload; do
			grep -q "jtcfi-bench: $kind " "$log" ||
				die "no $kind results from $arch/$m (console: $log)"
		done
	done
done
mv "$tsv.tmp" "$tsv"

python3 "$JTCFI_TOP/scripts/bench-report.py" "$figures" "$results/bench.md" ||
	die "could not write $results/bench.md"
note "results: $results/bench.md (raw figures: $tsv, consoles: $logs/$arch-*-bench-*.log)"
