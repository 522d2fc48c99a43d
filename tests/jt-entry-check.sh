#!/bin/bash
# jt-entry-check.sh ARCH MODE LOGDIR: the link-time check of x86_64's
# jump tables (scripts/cfi_jt_index -c, run by link-vmlinux.sh) must
# accept the vmlinux it was built with and refuse two damaged copies:
# one with an entry's ENDBR64 gone, as a single object built without
# -fcf-protection=branch would leave every entry (under IBT each indirect
# call would then fault), and one with an initcall that is a function's
# code rather than its entry, as an object built without LTO (and so
# without CFI) leaves it (do_one_initcall()'s checked call would stop the
# boot).  Each copy's damage is one word.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
tool=$out/scripts/cfi_jt_index
broken=$logs/$arch-$mode-vmlinux-damaged
for f in "$tool" "$out/vmlinux" "$out/.config"; do
	[ -e "$f" ] || { echo "not ok jt-entry-check: $f is missing"; exit 0; }
done
size=8
grep -q '^CONFIG_X86_KERNEL_IBT=y' "$out/.config" && size=16

if ! err=$("$tool" -e "$size" -c "$out/vmlinux" 2>&1); then
	echo "not ok jt-entry-check: the built vmlinux fails its own check: $err"
	exit 0
fi

# damage WHAT: copy vmlinux to $broken with WHAT damaged, print the
# address the check must name.  endbr: the first byte of the middle
# entry; initcall: the first initcall made to lead to do_one_initcall().
damage() {
	python3 - "$out/vmlinux" "$broken" "$size" "$1" <<'PY'
import struct, sys
src, dst, size, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
want = (b"__cfi_jt_start", b"__cfi_jt_end", b"__initcall_start", b"do_one_initcall")
syms = {}
for s in secs:
    if s[1] != 2:			# SHT_SYMTAB
        continue
    strtab = secs[s[6]]
    for off in range(s[4], s[4] + s[5], 24):
        name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, off)
        end = data.index(b"\0", strtab[4] + name)
        n = bytes(data[strtab[4] + name:end])
        if n in want:
            syms[n] = value
def file_offset(addr):
    for s in secs:
        if s[1] == 1 and s[3] <= addr < s[3] + s[5]:	# SHT_PROGBITS with it
            return s[4] + addr - s[3]
    sys.exit("no section holds %#x" % addr)
if what == "endbr":
    start, end = syms[b"__cfi_jt_start"], syms[b"__cfi_jt_end"]
    where = start + (end - start) // size // 2 * size
    data[file_offset(where)] = 0x90
else:
    where = syms[b"__initcall_start"]
    struct.pack_into("<i", data, file_offset(where), syms[b"do_one_initcall"] - where)
open(dst, "wb").write(data)
print(hex(where))
PY
}

# refused WHAT MESSAGE: the check must fail on the copy damaged at WHAT,
# naming the damaged address with MESSAGE.
refused() {
	local what=$1 message=$2 where err
	where=$(damage "$what") || { echo "not ok jt-entry-check: could not damage $what in a copy of $out/vmlinux"; return 1; }
	if err=$("$tool" -e "$size" -c "$broken" 2>&1); then
		echo "not ok jt-entry-check: a vmlinux with a damaged $what at $where passed the check"
		return 1
	elif ! echo "$err" | grep -q "$message at $where "; then
		echo "not ok jt-entry-check: the check failed, but not at the damaged $what $where: $err"
		return 1
	fi
	refusals+=("${err##*: }")
}
refusals=()
refused endbr "jump-table entry" && refused initcall "initcall" &&
	echo "ok jt-entry-check: $size-byte entries pass; damaged copies fail the link: ${refusals[0]}; ${refusals[1]}"
rm -f "$broken"
