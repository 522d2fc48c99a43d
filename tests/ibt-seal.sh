#!/bin/bash
# ibt-seal.sh ARCH MODE LOGDIR: no jump-table entry the kernel hands out is
# sealed.  objtool lists in .ibt_endbr_seal every ENDBR64 whose address it
# sees nothing take, and the kernel poisons those at boot or module load:
# an indirect call there raises #CP.  The kernel hands out the entry of a
# GPL-only export (symbol_get()) and of a CFI_NOSEAL() function (a BPF
# kptr destructor, found with kallsyms); C takes their addresses only to
# make the entries.  Reads the seal lists of vmlinux and of every module
# (tools/cfi-precision/ibt-sealed-entries), since QEMU's TCG has no IBT.
# Sealing entries nothing hands out is a gain: counted in the report.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
name=ibt-seal
out=$(build_dir "$arch" "$mode")
report=$(test_log "$name" txt)
tools=$JTCFI_TOP/tools/cfi-precision

build_has CONFIG_X86_KERNEL_IBT=y || { echo "not ok $name: the kernel has no IBT"; exit 0; }
if ! make -s -C "$tools" CC="clang$LLVM" >/dev/null 2>&1; then
	echo "not ok $name: tools/cfi-precision does not build"
	exit 0
fi
for f in vmlinux Module.symvers; do
	[ -f "$out/$f" ] || { echo "not ok $name: $out/$f is missing"; exit 0; }
done

# What the kernel hands out: the arguments of CFI_NOSEAL() and GPL-only
# exports (Module.symvers: CRC, name, module, license, namespace).
git -C "$JTCFI_TREE" grep -hoE '\bCFI_NOSEAL\([A-Za-z_][A-Za-z0-9_]*\)' -- '*.c' |
	sed 's/.*(\(.*\))/\1/' | sort -u > "$report.noseal"
nseal=$(wc -l < "$report.noseal")
{
	cat "$report.noseal"
	awk -F'\t' '$4 ~ /_GPL$/ { print $2 }' "$out/Module.symvers"
} | sort -u > "$report.handed-out"

: > "$report.sealed"
images=0
while read -r image; do
	if ! "$tools/ibt-sealed-entries" "$image" > "$report.one" 2> "$report.err"; then
		echo "not ok $name: ibt-sealed-entries failed on $image: $(cat "$report.err")"
		exit 0
	fi
	sed "s|^|${image#"$out"/} |" "$report.one" >> "$report.sealed"
	images=$((images + 1))
done < <(echo "$out/vmlinux"; find "$out" -name '*.ko' -not -path "$out/modroot/*" | sort)

awk 'NR == FNR { out[$1] = 1; next } ($2 in out)' "$report.handed-out" "$report.sealed" > "$report.wrong"
total=$(wc -l < "$report.sealed")
wrong=$(wc -l < "$report.wrong")
{
	echo "images: $images"
	echo "sealed-entries: $total"
	echo "sealed-handed-out: $wrong"
} > "$report"
if [ "$total" = 0 ]; then
	echo "not ok $name: no sealed jump-table entry in $images images: not an IBT jt build? (report: $report)"
elif [ "$wrong" = 0 ]; then
	echo "ok $name: $total jump-table entries sealed in $images images, none the kernel hands out ($nseal CFI_NOSEAL() functions, GPL-only exports)"
else
	echo "not ok $name: $wrong sealed jump-table entries are handed out, e.g. $(head -5 "$report.wrong" | cut -d' ' -f2 | xargs | sed 's/ /, /g') (list: $report.wrong)"
fi
