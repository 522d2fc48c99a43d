#!/bin/bash
# jt-exports.sh ARCH MODE LOGDIR: no function may be a jump-table target
# only because EXPORT_SYMBOL() exports it.  LTO gives a jump-table entry,
# a valid target of every check of its prototype, to every function whose
# address C takes; EXPORT_SYMBOL() took the address of each export to keep
# its symbol, and only symbol_get(), which serves GPL-only exports, ever
# uses an exporter's entry.  tools/cfi-precision/cfi-jt-refs reads the
# built vmlinux.o's relocations: a non-GPL export among the entries that
# nothing but EXPORT_SYMBOL() refers to fails the test.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
report=$(test_log jt-exports txt)
tools=$JTCFI_TOP/tools/cfi-precision

if ! make -s -C "$tools" CC="clang$LLVM" >/dev/null 2>&1; then
	echo "not ok jt-exports: tools/cfi-precision does not build"
	exit 0
fi
for f in vmlinux.o vmlinux .vmlinux.export.c; do
	if [ ! -f "$out/$f" ]; then
		echo "not ok jt-exports: $out/$f is missing"
		exit 0
	fi
done

# "ADDRESS NAME" of each entry nothing in the image refers to, or only an
# export does; the counts on stderr.
"$tools/cfi-jt-refs" -e "$out/vmlinux.o" "$out/vmlinux" > "$report.entries" 2> "$report" || {
	echo "not ok jt-exports: cfi-jt-refs failed (see $report)"
	exit 0
}
total=$(sed -n 's/^jt-entries: //p' "$report")
if [ "${total:-0}" = 0 ]; then
	echo "not ok jt-exports: cfi-jt-refs found no jump-table entries in $out/vmlinux.o"
	exit 0
fi
# KSYMTAB_FUNC(name, "" or "_gpl", "namespace");
awk -F'[(,]' '/^KSYMTAB_FUNC\(/ { gsub(/[ "]/, "", $3); print $2, ($3 == "" ? "plain" : "gpl") }' \
	"$out/.vmlinux.export.c" > "$report.exports"
awk 'NR == FNR { lic[$1] = $2; next } $3 == "export-only" && ($2 in lic) { print lic[$2], $2 }' \
	"$report.exports" "$report.entries" > "$report.exported"
plain=$(grep -c '^plain ' "$report.exported")
gpl=$(grep -c '^gpl ' "$report.exported")
{
	echo "export-only-entries-plain: $plain"
	echo "export-only-entries-gpl: $gpl"
} >> "$report"
if [ "$plain" = 0 ]; then
	echo "ok jt-exports: of $total jump-table entries none is a non-GPL export's that only EXPORT_SYMBOL() makes ($gpl GPL-only exports keep one for symbol_get())"
else
	echo "not ok jt-exports: $plain non-GPL exports have a jump-table entry only EXPORT_SYMBOL() makes, e.g. $(grep -m3 '^plain ' "$report.exported" | cut -d' ' -f2 | xargs | sed 's/ /, /g') (list: $report.exported)"
fi
