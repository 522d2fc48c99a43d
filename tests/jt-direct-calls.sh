#!/bin/bash
# jt-direct-calls.sh ARCH MODE LOGDIR: no direct call or jump in the
# x86_64 jt vmlinux lands on a jump-table entry.  The compiler leaves such
# branches where it devirtualises a call through a function pointer, and
# asm "i" operands (alternative_call()) name the entry too: each would
# check nothing and pay the entry's extra jump.  objtool --cfi-jt points
# them at the function.  Under IBT objtool also makes each entry's own
# JMP land past the function's ENDBR64 (the entry's is the landing pad;
# a direct jump needs none), so no entry may jump to an ENDBR64 either.
# This reads the linked image, including the alternatives' replacement
# code, back with llvm-objdump.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
dis=$(test_log jt-direct-calls txt)
need_objdump "jt-direct-calls" || exit 0
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
	$2 == "endbr64" { endbr[substr($1, 1, length($1) - 1)] = 1 }
	$2 ~ /^(call|jmp|j[a-z]+)/ && $3 ~ /^0x/ {
		pc = substr($1, 1, length($1) - 1); t = substr($3, 3)
		if (pc >= s && pc < e) {
			if ($2 == "jmp")
				entry[++entries] = pc " " t
			next
		}
		branches++
		if (length(t) == 16 && t >= s && t < e) {
			bad++
			print
		}
	}
	END {
		for (i = 1; i <= entries; i++) {
			split(entry[i], f, " ")
			if (f[2] in endbr) {
				onendbr++
				print "entry " f[1] " jumps to the ENDBR64 at " f[2]
			}
		}
		printf "%d %d %d %d %d\n", secs, branches, bad, entries, onendbr > "/dev/stderr"
	}' > "$dis" 2> "$dis.counts"
read -r secs branches bad entries onendbr < "$dis.counts"
rm -f "$dis.counts"
ibt=
grep -q '^CONFIG_X86_KERNEL_IBT=y' "$out/.config" && ibt=1
# objtool runs on vmlinux.o, where a function the linker script defines
# as an alias (ftrace_ops_list_func) is undefined: an entry for it keeps
# its jump, to code objtool cannot see.  Those are listed, not counted.
aliased=
if [ -n "$ibt" ] && [ "${onendbr:-0}" != 0 ]; then
	undefined=$(llvm-nm$LLVM --undefined-only "$out/vmlinux.o" | awk '{ print $2 }')
	for t in $(sed -n 's/^entry [0-9a-f]* jumps to the ENDBR64 at //p' "$dis"); do
		for name in $(awk -v t="$t" '$1 == t { print $3 }' "$out/System.map"); do
			if echo "$undefined" | grep -qx "$name"; then
				aliased="$aliased $name"
				onendbr=$((onendbr - 1))
				break
			fi
		done
	done
fi
if [ "${branches:-0}" -lt 100000 ] || [ "${entries:-0}" -lt 1000 ]; then
	echo "not ok jt-direct-calls: $objdump read only ${branches:-0} direct branches and ${entries:-0} jump-table entries in $out/vmlinux"
elif [ "$bad" != 0 ]; then
	echo "not ok jt-direct-calls: $bad direct calls or jumps land on a jump-table entry, e.g. $(grep -m1 -v '^entry ' "$dis" | tr -s ' \t' ' ') (all in $dis)"
elif [ -n "$ibt" ] && [ "$onendbr" != 0 ]; then
	echo "not ok jt-direct-calls: $onendbr of $entries jump-table entries jump to their function's ENDBR64 rather than past it, e.g. $(grep -m1 '^entry ' "$dis") (all in $dis)"
else
	echo "ok jt-direct-calls: none of $branches direct calls and jumps ($secs code sections) lands on a jump-table entry${ibt:+; none of $entries entries jumps to an ENDBR64}${aliased:+ (but the linker-script aliases$aliased)}"
fi
