#!/bin/bash
# jt-entry-check.sh ARCH MODE LOGDIR: the link-time check of x86_64's
# jump-table entries (scripts/cfi_jt_index -c, run by link-vmlinux.sh)
# must accept the vmlinux it was built with and refuse the same image with
# one entry's ENDBR64 gone, as a single object built without
# -fcf-protection=branch would leave every entry (under IBT each indirect
# call would then fault).  The copy's damage is one byte in the middle of
# the tables.  No boot.
set -u
. "$(dirname "$0")/lib.sh"
test_args "$@"
expect_only pass
out=$(build_dir "$arch" "$mode")
tool=$out/scripts/cfi_jt_index
broken=$logs/$arch-$mode-vmlinux-without-an-endbr
for f in "$tool" "$out/vmlinux" "$out/.config"; do
	[ -e "$f" ] || { echo "not ok jt-entry-check: $f is missing"; exit 0; }
done
size=8
grep -q '^CONFIG_X86_KERNEL_IBT=y' "$out/.config" && size=16

if ! err=$("$tool" -e "$size" -c "$out/vmlinux" 2>&1); then
	echo "not ok jt-entry-check: the built vmlinux fails its own check: $err"
	exit 0
fi
# Clear the first byte of the middle entry, at its file offset.
where=$(python3 - "$out/vmlinux" "$broken" "$size" <<'PY'
import struct, sys, shutil
src, dst, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
syms = {}
for s in secs:
    if s[1] != 2:			# SHT_SYMTAB
        continue
    strtab = secs[s[6]]
    for off in range(s[4], s[4] + s[5], 24):
        name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, off)
        end = data.index(b"\0", strtab[4] + name)
        n = bytes(data[strtab[4] + name:end])
        if n in (b"__cfi_jt_start", b"__cfi_jt_end"):
            syms[n] = value
start, end = syms[b"__cfi_jt_start"], syms[b"__cfi_jt_end"]
entry = start + (end - start) // size // 2 * size
for s in secs:
    if s[1] == 1 and s[3] <= entry < s[3] + s[5]:	# SHT_PROGBITS with it
        data[s[4] + entry - s[3]] = 0x90
        open(dst, "wb").write(data)
        print(hex(entry))
        break
PY
)
if [ -z "$where" ]; then
	echo "not ok jt-entry-check: could not find the jump tables in $out/vmlinux"
	exit 0
fi
if err=$("$tool" -e "$size" -c "$broken" 2>&1); then
	echo "not ok jt-entry-check: an entry without its ENDBR64 at $where passed the check"
elif ! echo "$err" | grep -q "jump-table entry at $where is not"; then
	echo "not ok jt-entry-check: the check failed, but not at the damaged entry $where: $err"
else
	echo "ok jt-entry-check: $size-byte entries pass; one damaged at $where fails the link: ${err##*: }"
fi
rm -f "$broken"
