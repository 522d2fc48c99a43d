#!/bin/bash
# jt-direct-calls.sh ARCH MODE LOGDIR: no direct call or jump in the
# x86_64 jt vmlinux lands on a jump-table entry.  The compiler leaves such
# branches where it devirtualises a call through a function pointer, and
# asm "i" operands (alternative_call()) name the entry too: each would
# check nothing and pay the entry's extra jump.  objtool --cfi-jt points
# them at the function; this reads the linked image, including the
# alternatives' replacement code, back with llvm-objdump.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
dis=$logs/$arch-$mode-jt-direct-calls.txt
objdump=llvm-objdump$LLVM
command -v "$objdump" > /dev/null || { echo "not ok jt-direct-calls: $objdump is not installed"; exit 0; }
[ -e "$out/vmlinux" ] || { echo "not ok jt-direct-calls: $out/vmlinux is missing"; exit 0; }

read -r start end < <(awk '$3 == "__cfi_jt_start" { s = $1 } $3 == "__cfi_jt_end" { e = $1 }
			  END { print s, e }' "$out/System.map")
if [ -z "$start" ] || [ -z "$end" ]; then
	echo "not ok jt-direct-calls: System.map has no __cfi_jt_start/__cfi_jt_end"
	exit 0
fi
# Kernel addresses have 16 hex digits: compared as strings, since awk's
# numbers cannot hold them.
"$objdump" -d --no-show-raw-insn "$out/vmlinux" | awk -v s="$start" -v e="$end" '
	/^Disassembly of section/ { secs++ }
	$2 ~ /^(call|jmp|j[a-z]+)/ && $3 ~ /^0x/ {
		branches++
		pc = substr($1, 1, length($1) - 1); t = substr($3, 3)
		if (length(t) == 16 && t >= s && t < e && !(pc >= s && pc < e)) {
			bad++
			print
		}
	}
	END { printf "%d %d %d\n", secs, branches, bad > "/dev/stderr" }' > "$dis" 2> "$dis.counts"
read -r secs branches bad < "$dis.counts"
rm -f "$dis.counts"
if [ "${branches:-0}" -lt 100000 ]; then
	echo "not ok jt-direct-calls: $objdump read only ${branches:-0} direct branches in $out/vmlinux"
elif [ "$bad" != 0 ]; then
	echo "not ok jt-direct-calls: $bad direct calls or jumps land on a jump-table entry, e.g. $(head -1 "$dis" | tr -s ' \t' ' ') (all in $dis)"
else
	echo "ok jt-direct-calls: none of $branches direct calls and jumps ($secs code sections) lands on a jump-table entry"
fi
