#!/usr/bin/env python3
"""jt-code-pointers.py ARCH BUILD: the pointers in a jump-table CFI vmlinux's
data that hold the code of a function where its jump-table entry belongs.

Under jump-table CFI, C that takes a function's address gets its jump-table
entry; a checked call refuses anything else.  A word of data that holds the
code of a function is either one of the places that record code on
purpose (the kprobe blacklist, ftrace's call sites, kallsyms' base, the
nVHE hypervisor's own data, which kCFI checks, assembly's literals) or a
pointer that LTO failed to make an entry, which every checked call through
it refuses.  The places are in the file "places" next to this one.

Reads the absolute pointers of vmlinux from its dynamic relocations
(arm64: R_AARCH64_RELATIVE) or from the relocs tool's list of 64-bit
sites (x86_64: arch/x86/boot/compressed/vmlinux.relocs) and the words
there.  Prints one line per pointer ("SITE-SYMBOL+OFF -> FUNCTION (place:
WHY)" or "... (no place)"), then a last line "pointers to code: N, in no
place: M"; exit status 1 if M > 0, 2 on bad input.
"""

import bisect
import collections
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def die(msg):
    print(f"jt-code-pointers: {msg}", file=sys.stderr)
    sys.exit(2)


def readelf(llvm, *args):
    try:
        return subprocess.run([f"llvm-readelf{llvm}", "-W", *args], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"llvm-readelf{llvm} {' '.join(args)}: {e}")


def places():
    """(kind, pattern, why) from the places file."""
    out = []
    with open(os.path.join(HERE, "places")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            kind, pattern, why = line.rstrip("\n").split("\t")
            out.append((kind, pattern, why))
    return out


class Image:
    def __init__(self, vmlinux, llvm):
        self.path = vmlinux
        self.sections = []
        for line in readelf(llvm, "-S", vmlinux).splitlines():
            m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
            if m and int(m[3], 16):
                self.sections.append((int(m[3], 16), int(m[5], 16), int(m[4], 16), m[1], "X" in m[6]))
        self.sections.sort()
        self.funcs = {}
        for line in readelf(llvm, "-s", vmlinux).splitlines():
            p = line.split()
            if len(p) >= 8 and p[3] == "FUNC" and int(p[1], 16):
                self.funcs.setdefault(int(p[1], 16), p[7])

    def section(self, addr):
        i = bisect.bisect_right(self.sections, (addr, float("inf"))) - 1
        if i >= 0:
            va, size, off, name, exe = self.sections[i]
            if va <= addr < va + size:
                return self.sections[i]
        return None

    def word(self, addr):
        s = self.section(addr)
        if not s:
            return None
        with open(self.path, "rb") as f:
            f.seek(s[2] + addr - s[0])
            return struct.unpack("<Q", f.read(8))[0]


def pointers(arch, build, image, llvm):
    """(site, target) of every absolute pointer of vmlinux."""
    if arch == "arm64":
        for line in readelf(llvm, "-r", image.path).splitlines():
            p = line.split()
            if len(p) >= 4 and p[2] == "R_AARCH64_RELATIVE":
                yield int(p[0], 16), int(p[3], 16)
    elif arch == "x86_64":
        relocs = os.path.join(build, "arch/x86/boot/compressed/vmlinux.relocs")
        try:
            data = open(relocs, "rb").read()
        except OSError as e:
            die(f"{relocs}: {e}")
        words = struct.unpack(f"<{len(data) // 4}I", data)
        # The relocs tool's order: a 0, the 64-bit sites, a 0, the inverse
        # 32-bit ones, a 0, the 32-bit ones (the decompressor reads it
        # backwards); each site's low 32 bits, sign-extended.
        if not words or words[0] != 0:
            die(f"{relocs}: not the relocs tool's output")
        end = words.index(0, 1)
        for w in words[1:end]:
            site = w | 0xffffffff00000000 if w & 0x80000000 else w
            target = image.word(site)
            if target is not None:
                yield site, target
    else:
        die(f"unknown arch '{arch}'")


def main(argv):
    if len(argv) != 3:
        die("usage: jt-code-pointers.py ARCH BUILD")
    arch, build = argv[1], argv[2]
    llvm = os.environ.get("LLVM_SUFFIX", "")
    vmlinux = os.path.join(build, "vmlinux")
    sysmap = os.path.join(build, "System.map")
    for f in (vmlinux, sysmap):
        if not os.path.exists(f):
            die(f"{f} is missing")
    symbols, entries = [], set()
    with open(sysmap) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            symbols.append((int(addr, 16), name))
            if name.endswith(".cfi_jt"):
                entries.add(int(addr, 16))
    if not entries:
        die(f"{sysmap} has no jump-table entry (.cfi_jt): not a jump-table CFI build")
    symbols.sort()
    addrs = [a for a, _ in symbols]
    where = {n: a for a, n in symbols}
    rules = places()
    ranges = []
    for kind, pattern, why in rules:
        if kind == "range":
            start, stop = pattern.split("..")
            if start in where and stop in where:
                ranges.append((where[start], where[stop], why))

    image = Image(vmlinux, llvm)
    found = collections.Counter()
    bad = 0
    for site, target in pointers(arch, build, image, llvm):
        if target not in image.funcs or target in entries:
            continue
        i = bisect.bisect_right(addrs, site) - 1
        holder = symbols[i][1] if i >= 0 else "?"
        at = f"{holder}+{site - symbols[i][0]:#x}" if i >= 0 else f"{site:#x}"
        sec = image.section(site)
        why = next((w for lo, hi, w in ranges if lo <= site < hi), None)
        if why is None and sec and sec[4]:
            why = next((w for k, _, w in rules if k == "code"), None)
        if why is None:
            why = next((w for k, p, w in rules if k == "symbol" and re.match(p, holder)), None)
        if why is None:
            bad += 1
            print(f"{at} -> {image.funcs[target]} (no place)")
        else:
            found[why] += 1
    for why, n in found.most_common():
        print(f"{n} in a place: {why}")
    print(f"pointers to code: {sum(found.values()) + bad}, in no place: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
