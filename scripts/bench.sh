#!/bin/bash
# bench.sh ARCH: build the same config in modes none, kcfi and jt (those
# ARCH has), boot each $JTCFI_BENCH_REPEATS times (3) under TCG with
# -icount shift=0 on one CPU, so guest time counts instructions, then have
# scripts/bench-figures.py collect every figure (sizes, precision, the
# consoles' results) into results/bench/ARCH.tsv and scripts/bench-report.py
# write results/bench.md and its chart.  Repeat N seeds the guest's random
# numbers (and fixes its clock) with N: a run is reproducible exactly, and
# the spread over repeats is what the guest's own randomness (ASLR, hash
# seeds) does to a figure.
set -eu
. "$(dirname "$0")/lib.sh"
usage_check "$@"
arch=$1
check_arch "$arch"
repeats=${JTCFI_BENCH_REPEATS:-3}
positive_number JTCFI_BENCH_REPEATS "$repeats"
need_tool "llvm-size$LLVM" python3

results=$JTCFI_RESULTS
logs=$JTCFI_LOGS
figures=$results/bench
mkdir -p "$logs" "$figures"
tsv=$figures/$arch.tsv

modes=()
for m in none kcfi jt; do
	mode_supports_arch "$m" "$arch" && modes+=("$m")
done

# Build first: the repeats then only boot.
figure_builds "$arch" "${modes[@]}"

# Repeat r boots every mode with the same seed, so that modes are
# compared under the same guest randomness.
for r in $(seq "$repeats"); do
	for m in "${modes[@]}"; do
		log=$logs/$arch-$m-bench-$r.log
		note "benchmark run $r of $repeats: $arch/$m"
		# Stops at the first guest that did not finish, not after all boots.
		bench_boot "$arch" "$m" "$log" "$r" "" \
			jtcfi.run=bench-micro:1000000,bench-macro,bench-modload:100
		figargs+=(--log "$m" "$r" "$log")
	done
done

# Sizes, precision and the consoles' figures; it names what is missing.
python3 "$JTCFI_TOP/scripts/bench-figures.py" "$arch" --out "$tsv" "${figargs[@]}" ||
	exit 1
python3 "$JTCFI_TOP/scripts/bench-report.py" "$figures" "$results/bench.md" ||
	die "could not write $results/bench.md"
note "results: $results/bench.md (raw figures: $tsv, consoles: $logs/$arch-*-bench-*.log)"
