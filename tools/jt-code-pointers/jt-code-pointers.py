#!/usr/bin/env python3
"""jt-code-pointers.py ARCH BUILD: the pointers in the data of a jump-table
CFI kernel (vmlinux and each module of BUILD's modules.order) that hold the
code of a function where its jump-table entry belongs.
jt-code-pointers.py --module OBJECT: the same for one relocatable object,
without vmlinux (its pointers to undefined functions are not judged).

Under jump-table CFI, C that takes a function's address gets its jump-table
entry; a checked call refuses anything else.  A word of data that holds the
code of a function is either one of the places that record code on
purpose (the kprobe blacklist, ftrace's call sites, kallsyms' base, the
nVHE hypervisor's own data, which kCFI checks, assembly's literals) or a
pointer that LTO failed to make an entry, which every checked call through
it refuses.  The places are in the file "places" next to this one.

vmlinux's absolute pointers are its dynamic relocations (arm64:
R_AARCH64_RELATIVE) or the relocs tool's list of 64-bit sites (x86_64:
arch/x86/boot/compressed/vmlinux.relocs) and the words there.  A module's
are its 64-bit absolute relocations in sections it loads as data: against
its own code outside its jump tables (__module_cfi_jt_start..end), or
against a function of vmlinux, whose exports are code.

Prints each pointer in no place ("[MODULE.ko: ]SITE+OFF -> FUNCTION (no
place)"), how many each place holds, then a last line "pointers to code: N
(vmlinux V, N .ko M), in no place: K"; exit status 1 if K > 0, 2 on bad
input.
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
        self.funcs, self.func_names = {}, {}
        for line in readelf(llvm, "-s", vmlinux).splitlines():
            p = line.split()
            if len(p) >= 8 and p[3] == "FUNC" and int(p[1], 16):
                self.funcs.setdefault(int(p[1], 16), p[7])
                self.func_names[p[7]] = int(p[1], 16)

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


SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
SHT_SYMTAB, SHT_RELA = 2, 4


class Relocatable:
    """A relocatable ELF64 little-endian object (a .ko): its sections,
    symbols and RELA relocations."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise ValueError("not a little-endian ELF64 file")
        e_type, machine = struct.unpack_from("<HH", data, 16)
        shoff, = struct.unpack_from("<Q", data, 40)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
        if e_type != 1:	# ET_REL
            raise ValueError("not a relocatable object")
        self.machine = machine
        hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
        strtab = hdrs[shstrndx]

        def name(tab, off):
            start = tab[4] + off
            return data[start:data.index(b"\0", start)].decode()
        # (name, type, flags, size, link, info)
        self.sections = [(name(strtab, h[0]), h[1], h[2], h[5], h[6], h[7]) for h in hdrs]
        self.symbols = []	# (name, value, shndx, type)
        self.relas = []		# (section index, offset, type, symbol, addend)
        for h in hdrs:
            if h[1] == SHT_SYMTAB:
                names = hdrs[h[6]]
                for off in range(h[4], h[4] + h[5], 24):
                    st_name, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, off)
                    self.symbols.append((name(names, st_name), value, shndx, info & 0xf))
        for h in hdrs:
            if h[1] == SHT_RELA:
                for off in range(h[4], h[4] + h[5], 24):
                    r_off, r_info, addend = struct.unpack_from("<QQq", data, off)
                    self.relas.append((h[7], r_off, r_info & 0xffffffff, r_info >> 32, addend))


# e_machine -> its 64-bit absolute relocation: AArch64, x86-64
ABS64 = {183: 257, 62: 1}


def place(rules, kind, name):
    return next((w for k, p, w in rules if k == kind and re.match(p, name)), None)


def module_pointers(path, kernel_code, rules):
    """(site, function, why or None) for each absolute pointer in the data
    the module at path loads to the code of a function: one of its own
    outside its jump tables, or one of vmlinux's (kernel_code: the names of
    vmlinux's functions, none an entry)."""
    try:
        obj = Relocatable(path)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")
    abs64 = ABS64.get(obj.machine)
    if abs64 is None:
        die(f"{path}: unknown machine {obj.machine}")
    value = {n: v for n, v, _, _ in obj.symbols if n}
    start, stop = value.get("__module_cfi_jt_start"), value.get("__module_cfi_jt_end")
    text = next((i for i, s in enumerate(obj.sections) if s[0] == ".text"), None)
    funcs = {}
    for name, addr, shndx, kind in obj.symbols:
        if kind == 2 and 0 < shndx < 0xff00:	# STT_FUNC, defined
            funcs.setdefault((shndx, addr), name)
    for sec, off, kind, symi, addend in obj.relas:
        secname, _, flags = obj.sections[sec][:3]
        if kind != abs64 or not flags & SHF_ALLOC or flags & SHF_EXECINSTR:
            continue
        name, addr, shndx, kind = obj.symbols[symi]
        if shndx == 0:
            if addend or name not in kernel_code:
                continue
            fn = name
        elif 0 < shndx < 0xff00 and obj.sections[shndx][2] & SHF_EXECINSTR:
            target = addr + addend
            if shndx == text and start is not None and start <= target < stop:
                continue
            # The name the relocation uses (init_module, not the function
            # it aliases), else any function that starts there.
            fn = name if kind == 2 and not addend else funcs.get((shndx, target))
            if fn is None:
                continue
        else:
            continue
        why = place(rules, "section", secname)
        if why is None and f"__cfi_jt_{fn}" in value:
            why = place(rules, "replaced", secname)
        yield f"{secname}+{off:#x}", fn, why


def vmlinux_pointers(arch, build, llvm, rules):
    """(site, function, why or None) for each pointer in vmlinux's data to
    the code of a function, and the names of vmlinux's functions."""
    sysmap = os.path.join(build, "System.map")
    symbols, entries = [], set()
    try:
        with open(sysmap) as f:
            for line in f:
                addr, kind, name = line.split()[:3]
                symbols.append((int(addr, 16), name))
                if name.endswith(".cfi_jt"):
                    entries.add(int(addr, 16))
    except OSError as e:
        die(f"{sysmap}: {e}")
    if not entries:
        die(f"{sysmap} has no jump-table entry (.cfi_jt): not a jump-table CFI build")
    symbols.sort()
    addrs = [a for a, _ in symbols]
    where = {n: a for a, n in symbols}
    ranges = []
    for kind, pattern, why in rules:
        if kind == "range":
            lo, hi = pattern.split("..")
            if lo in where and hi in where:
                ranges.append((where[lo], where[hi], why))

    vmlinux = os.path.join(build, "vmlinux")
    if not os.path.exists(vmlinux):
        die(f"{vmlinux} is missing")
    image = Image(vmlinux, llvm)
    found = []
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
            why = place(rules, "symbol", holder)
        found.append((at, image.funcs[target], why))
    code = {n for n, a in image.func_names.items() if a not in entries}
    return found, code


def modules(build):
    """The .ko files of build, from modules.order."""
    order = os.path.join(build, "modules.order")
    try:
        with open(order) as f:
            objs = [line.strip() for line in f if line.strip()]
    except OSError as e:
        die(f"{order}: {e}")
    kos = [os.path.join(build, o[:-2] + ".ko") for o in objs]
    for ko in kos:
        if not os.path.exists(ko):
            die(f"{ko} is missing (modules.order names it)")
    return kos


def report(groups):
    """Prints each pointer, the places' counts and the last line; returns
    the exit status."""
    found = collections.Counter()
    bad = 0
    totals = []
    for label, items in groups:
        n = 0
        for at, fn, why in items:
            n += 1
            if why is None:
                bad += 1
                print(f"{at} -> {fn} (no place)")
            else:
                found[why] += 1
        totals.append(f"{label} {n}")
    for why, n in found.most_common():
        print(f"{n} in a place: {why}")
    print(f"pointers to code: {sum(found.values()) + bad} ({', '.join(totals)}), in no place: {bad}")
    return 1 if bad else 0


def main(argv):
    rules = places()
    if len(argv) == 3 and argv[1] == "--module":
        items = list(module_pointers(argv[2], set(), rules))
        return report([(os.path.basename(argv[2]), items)])
    if len(argv) != 3:
        die("usage: jt-code-pointers.py ARCH BUILD | --module OBJECT")
    arch, build = argv[1], argv[2]
    llvm = os.environ.get("LLVM_SUFFIX", "")
    found, code = vmlinux_pointers(arch, build, llvm, rules)
    kos = modules(build)
    items = []
    for ko in kos:
        name = os.path.basename(ko)
        items += [(f"{name}: {at}", fn, why) for at, fn, why in module_pointers(ko, code, rules)]
    return report([("vmlinux", found), (f"{len(kos)} .ko", items)])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
