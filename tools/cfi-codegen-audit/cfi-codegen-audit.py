#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cfi-codegen-audit: the code the compiler makes for jump-table CFI,
read back from a linked vmlinux and its modules with llvm-objdump.

    cfi-codegen-audit.py [-o OBJDUMP] [--sites] VMLINUX|MODULE.ko ...
    cfi-codegen-audit.py [-o OBJDUMP] --probe-after FUNCTION MODULE.ko

A jump-table CFI verdict is made by code no C source shows: each image's
__cfi_check() (a switch over the type ids of its tables), the
__cfi_check_fail() it calls when a target is in no table of the expected
type, the jump-table entries, and the inline check and slow-path call at
each call site. The attacker CFI is for can write kernel data, stacks
included, but not text or read-only data; a verdict is sound only if it
reads nothing that attacker can write. The rules, per image:

  check-fail  __cfi_check_fail() reads no memory through an argument
              register: the caller's diagnostic record is .data, and
              clang's own copy of the handler returns, letting the call go
              on, when the record's kind byte is one it does not know. In
              a module it is the kernel's: a branch to
              cfi_jt_module_check_fail() and nothing else.
  check       __cfi_check() reads no memory but its own stack frame and
              read-only data: clang's handler, inlined, shows here as a
              read through the third argument.
  entries     every jump-table entry (<function>.cfi_jt) is a landing pad
              (BTI C, ENDBR64) and a direct branch, then padding: no memory
              access, no indirect branch.

Only the code within each function's symbol size is judged. A broken
rule is printed with its instruction and fails the audit (exit status 1).
A module without __cfi_check() is reported, not failed: the module loader
refuses it. Modules and --sites disassemble the whole image; otherwise
only the two functions of vmlinux are read.

--sites counts, for every call of the cross-DSO slow path
(__cfi_slowpath_diag(), __cfi_slowpath()), where the checked target is
when the indirect call that follows the verdict is made: reloaded from
memory after the slow path returned (a spill: a write to that stack slot
while the slow path runs redirects the call), or kept in a callee-saved
register (which any function the slow path runs may save on its own
stack). They are counts of exposure to a stack write, not failures.

--probe-after prints, for the first slow-path call in FUNCTION, the
offset within FUNCTION of the instruction the call returns to and where
the target is when the checked call is made (as --sites classes it): the
place for tests/spill-forge.sh's probe.
"""

import argparse
import re
import subprocess
import sys

SLOWPATH = {"__cfi_slowpath_diag", "__cfi_slowpath"}
MODULE_HANDLER = "cfi_jt_module_check_fail"
# The "register" of an indirect call whose target operand is in memory.
MEMORY = "(memory)"

FUNC_RE = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
RELOC_RE = re.compile(r"^\s*[0-9a-f]+:\s+(R_\S+)\s+(\S+)$")
NAMED_RE = re.compile(r"<([^>+]+)(\+0x[0-9a-f]+)?>")
ADDR_RE = re.compile(r"^(?:0x)?([0-9a-f]+)\b")


class Insn:
    __slots__ = ("addr", "op", "args", "reloc")

    def __init__(self, addr, op, args):
        self.addr, self.op, self.args, self.reloc = addr, op, args, None

    def named(self):
        """The symbol a direct branch or address names: its relocation
        in a relocatable object, objdump's <symbol> in a linked image."""
        if self.reloc:
            return re.sub(r"[-+]0x[0-9a-f]+$", "", self.reloc)
        m = NAMED_RE.search(self.args)
        return m.group(1) if m and not m.group(2) else None

    def __str__(self):
        rel = f" ({self.reloc})" if self.reloc else ""
        return f"{self.addr:x}: {self.op} {self.args}{rel}"


def disassemble(objdump, path, symbols=None):
    """{function: [Insn]} of PATH's code (of SYMBOLS only, if given).
    objdump counts code past a symbol's size as that symbol's."""
    cmd = [objdump, "-d", "-r", "--no-show-raw-insn"]
    if symbols:
        cmd.append("--disassemble-symbols=" + ",".join(symbols))
    funcs, cur = {}, None
    with subprocess.Popen(cmd + [path], stdout=subprocess.PIPE, text=True,
                          errors="replace") as p:
        for line in p.stdout:
            m = FUNC_RE.match(line)
            if m:
                cur = funcs.setdefault(m.group(2), [])
                continue
            if cur is None:
                continue
            m = RELOC_RE.match(line)
            if m:
                if cur:
                    cur[-1].reloc = m.group(2)
                continue
            m = INSN_RE.match(line)
            if m:
                # Drop objdump's comments (// on arm64, # on x86).
                args = re.split(r"\s+(?://|# )", m.group(3))[0].strip()
                cur.append(Insn(int(m.group(1), 16), m.group(2), args))
    if p.returncode:
        sys.exit(f"cfi-codegen-audit: {objdump} failed on {path}")
    return funcs


class Arm64:
    args = {f"x{i}" for i in range(8)}
    stack = {"sp", "x29"}
    callee_saved = {f"x{i}" for i in range(19, 29)}

    @staticmethod
    def reg(r):
        return "x" + r[1:] if re.fullmatch(r"w\d+", r) else r

    def mem_base(self, i):
        """The base register of the memory I reads ('' if PC-relative),
        or None if it reads none."""
        if not i.op.startswith(("ld", "prfm")):
            return None
        if "[" not in i.args:
            return ""		# a literal load
        return self.reg(i.args.split("[", 1)[1].split(",")[0].split("]")[0].strip())

    def is_pad(self, i):
        return i.op in ("bti", "nop", "hint", "paciasp", "pacibsp")

    def is_padding(self, i):
        return i.op in ("brk", "udf", "nop") or i.op.startswith(".")

    def is_jump(self, i):
        return i.op == "b"

    def is_call(self, i):
        return i.op == "bl"

    def is_ret(self, i):
        return i.op in ("ret", "retaa", "retab")

    def indirect(self, i):
        """The register an indirect call or jump goes through."""
        if i.op in ("blr", "br", "blraa", "blraaz", "braa", "braaz"):
            return self.reg(i.args.split(",")[0].strip())
        return None

    def loads(self, i, reg):
        """Whether I loads REG from memory."""
        if self.mem_base(i) is None:
            return False
        dests = [self.reg(a.strip()) for a in i.args.split("[")[0].split(",")]
        return reg in dests

    def writes(self, i, reg):
        return self.reg(i.args.split(",")[0].strip()) == reg and \
            not i.op.startswith(("st", "cmp", "cmn", "tst", "cb", "tb", "b"))

    def copy_src(self, i, reg):
        """The register I copies into REG, if it is a register move."""
        ops = [self.reg(o.strip()) for o in i.args.split(",")]
        if i.op == "mov" and len(ops) == 2 and ops[0] == reg and \
           re.fullmatch(r"x\d+", ops[1]):
            return ops[1]
        return None


class X86:
    args = {"rdi", "rsi", "rdx", "rcx", "r8", "r9"}
    stack = {"rsp", "rbp"}
    callee_saved = {"rbx", "rbp", "r12", "r13", "r14", "r15"}
    MEM_RE = re.compile(r"(?:%\w+:)?(?:-?(?:0x)?[0-9a-f]+)?\((%\w+)?")

    @staticmethod
    def reg(r):
        r = r.lstrip("%*")
        m = re.fullmatch(r"(r\d+)[dwb]?", r)
        if m:
            return m.group(1)
        m = re.fullmatch(r"[re]?([abcd])[xlh]", r)
        if m:
            return "r" + m.group(1) + "x"
        m = re.fullmatch(r"[re]?(si|di|bp|sp)l?", r)
        if m:
            return "r" + m.group(1)
        return r

    def operands(self, i):
        return [o.strip() for o in re.split(r",(?![^(]*\))", i.args) if o.strip()]

    def mem_base(self, i):
        if i.op.startswith(("lea", "nop", "prefetch", "endbr", "clflush", "ud")):
            return None
        ops = self.operands(i)
        for n, o in enumerate(ops):
            if "(" not in o:
                continue
            m = self.MEM_RE.match(o)
            # mov SRC, MEM only writes the memory.
            if i.op.startswith("mov") and n == len(ops) - 1 and len(ops) > 1:
                continue
            base = m.group(1) if m else None
            return "" if base in (None, "%rip") else self.reg(base)
        return None

    def is_pad(self, i):
        return i.op in ("endbr64", "nop", "nopl", "nopw")

    def is_padding(self, i):
        return i.op in ("int3", "ud2", "nop", "nopl", "nopw") or i.op.startswith(".")

    def is_jump(self, i):
        return i.op in ("jmp", "jmpq") and not i.args.startswith("*")

    def is_call(self, i):
        return i.op in ("call", "callq") and not i.args.startswith("*")

    def is_ret(self, i):
        return i.op in ("ret", "retq") or (self.is_jump(i) and i.named() == "__x86_return_thunk")

    def indirect(self, i):
        op = i.op
        if op in ("cs", "notrack") and " " in i.args:
            op, _, rest = i.args.partition(" ")
            i = Insn(i.addr, op, rest)
        if op not in ("call", "callq", "jmp", "jmpq"):
            return None
        if i.args.startswith("*%"):
            return self.reg(i.args)
        if i.args.startswith("*") and "(" in i.args:
            return MEMORY		# the call reads its target from memory
        m = re.fullmatch(r"__x86_indirect_(?:call_)?thunk_(\w+)", i.named() or "")
        return self.reg(m.group(1)) if m else None

    def loads(self, i, reg):
        ops = self.operands(i)
        return len(ops) == 2 and i.op.startswith("mov") and "(" in ops[0] and \
            self.reg(ops[1]) == reg

    def writes(self, i, reg):
        ops = self.operands(i)
        return bool(ops) and ops[-1].startswith("%") and self.reg(ops[-1]) == reg and \
            not i.op.startswith(("cmp", "test", "push", "bt"))

    def copy_src(self, i, reg):
        ops = self.operands(i)
        if i.op.startswith("mov") and len(ops) == 2 and ops[0].startswith("%") and \
           self.reg(ops[1]) == reg:
            return self.reg(ops[0])
        return None


def arch_of(objdump, path):
    res = subprocess.run([objdump, "-f", path], capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"cfi-codegen-audit: {path}: {res.stderr.strip()}")
    return X86() if "x86-64" in res.stdout else Arm64()


def audit_check_fail(arch, insns, module):
    bad = []
    for i in insns:
        if arch.is_call(i) or arch.is_jump(i) or arch.indirect(i) or arch.is_ret(i):
            break
        base = arch.mem_base(i)
        if base in arch.args:
            bad.append(f"__cfi_check_fail reads memory through its argument {base}: {i}")
    if module:
        body = [i for i in insns if not arch.is_pad(i)]
        if not body or not arch.is_jump(body[0]) or body[0].named() != MODULE_HANDLER:
            bad.append(f"__cfi_check_fail is not a branch to {MODULE_HANDLER}(): "
                       + "; ".join(str(i) for i in insns[:5]))
    return bad


def audit_check(arch, insns, writable):
    bad = []
    for i in insns:
        base = arch.mem_base(i)
        if base is None or base in arch.stack:
            continue
        if base == "" and (i.named() or "") not in writable:
            continue
        bad.append(f"__cfi_check reads {'writable memory' if base == '' else 'memory through ' + base}: {i}")
    return bad


def audit_entries(arch, funcs):
    bad, n = [], 0
    for name, insns in funcs.items():
        if not name.endswith(".cfi_jt"):
            continue
        n += 1
        body = [i for i in insns if not arch.is_pad(i)]
        while body and arch.is_padding(body[-1]):
            body.pop()
        if len(body) != 1 or not arch.is_jump(body[0]):
            bad.append(f"entry {name} is not a direct branch: "
                       + "; ".join(str(i) for i in insns[:4]))
    return bad, n


def site_class(arch, insns, k, at):
    """Where the target is when the call after the slow-path call
    INSNS[K] is made ("reloaded", "callee-saved" or "unresolved"); AT maps
    addresses to indices in INSNS."""
    path, j = [], k + 1
    reg = None
    # Bounded in steps, not only in path length: a jump back to
    # itself (or a cycle of jumps) adds nothing to the path.
    for _ in range(64):
        if j >= len(insns) or len(path) >= 32:
            break
        ins = insns[j]
        reg = arch.indirect(ins)
        if reg:
            break
        if arch.is_jump(ins):
            m = ADDR_RE.match(ins.args)
            dest = int(m.group(1), 16) if m else None
            if dest not in at:
                break
            j = at[dest]
            continue
        if arch.is_call(ins) or arch.is_ret(ins):
            break
        path.append(ins)
        j += 1
    return where_from(arch, path, reg)


def slowpath_calls(arch, insns):
    """Indices of INSNS that call the slow path."""
    return [k for k, i in enumerate(insns) if arch.is_call(i) and i.named() in SLOWPATH]


def audit_sites(arch, funcs):
    """Where the target is when the call after each slow-path call is made."""
    counts = {"sites": 0, "reloaded": 0, "callee-saved": 0, "unresolved": 0}
    for insns in funcs.values():
        at = {x.addr: n for n, x in enumerate(insns)}
        for k in slowpath_calls(arch, insns):
            counts["sites"] += 1
            counts[site_class(arch, insns, k, at)] += 1
    return counts


def probe_after(arch, funcs, name):
    """"OFFSET CLASS" of the first slow-path call in function NAME: the
    offset of the instruction it returns to, and where the target is."""
    # LTO may have given a local function a unique suffix.
    same = [f for f in funcs
            if re.fullmatch(re.escape(name) + r"(\.[0-9a-f]{32}|\.llvm\.\d+)?", f)]
    insns = funcs.get(same[0]) if same else None
    if not insns:
        return f"no function {name}"
    calls = slowpath_calls(arch, insns)
    if not calls or calls[0] + 1 >= len(insns):
        return f"no slow-path call in {name}"
    k = calls[0]
    at = {x.addr: n for n, x in enumerate(insns)}
    return f"{insns[k + 1].addr - insns[0].addr:#x} {site_class(arch, insns, k, at)}"


def where_from(arch, path, reg):
    """Where REG, the target of the call ending PATH, was since the slow
    path was called: follow register moves back along PATH."""
    if not reg:
        return "unresolved"
    if reg == MEMORY:
        return "reloaded"
    for i in reversed(path):
        if not arch.writes(i, reg):
            continue
        if arch.loads(i, reg):
            return "reloaded"
        src = arch.copy_src(i, reg)
        if not src:
            return "unresolved"
        reg = src
    return "callee-saved" if reg in arch.callee_saved else "unresolved"


def symbols(nm, path):
    """PATH's symbols: {name: (type, address, size)}."""
    res = subprocess.run([nm, "-S", path], capture_output=True, text=True)
    syms = {}
    for f in (l.split() for l in res.stdout.splitlines()):
        if len(f) == 4:
            syms.setdefault(f[3], (f[2], int(f[0], 16), int(f[1], 16)))
        elif len(f) == 3 and f[1] != "U":
            syms.setdefault(f[2], (f[1], int(f[0], 16), 0))
    return syms


def own_code(insns, sym):
    """The instructions within SYM's size. objdump counts everything up to
    the next symbol as the function's: LTO leaves the stub __cfi_check()
    clang emits into every unit there, without a symbol, where nothing
    calls it."""
    if not sym or not sym[2]:
        return insns
    return [i for i in insns if sym[1] <= i.addr < sym[1] + sym[2]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--objdump", default="llvm-objdump-19")
    ap.add_argument("--sites", action="store_true")
    ap.add_argument("--probe-after", metavar="FUNCTION")
    ap.add_argument("images", nargs="+")
    opts = ap.parse_args()
    nm = opts.objdump.replace("objdump", "nm")
    if opts.probe_after:
        path = opts.images[0]
        funcs = disassemble(opts.objdump, path)
        print(probe_after(arch_of(opts.objdump, path), funcs, opts.probe_after))
        return 0
    failed = 0
    total = {}
    for path in opts.images:
        module = path.endswith(".ko")
        arch = arch_of(opts.objdump, path)
        whole = module or opts.sites
        funcs = disassemble(opts.objdump, path,
                            None if whole else ["__cfi_check", "__cfi_check_fail"])
        if "__cfi_check" not in funcs:
            # The module loader refuses such a module; vmlinux needs one.
            print(f"{path}: no __cfi_check(): not built with jump-table CFI")
            failed += not module
            continue
        syms = symbols(nm, path)
        writable = {n for n, (t, _, _) in syms.items() if t in "dDbB"}
        bad = []
        if "__cfi_check_fail" in funcs:
            bad += audit_check_fail(arch, own_code(funcs["__cfi_check_fail"],
                                                   syms.get("__cfi_check_fail")), module)
        elif module:
            bad.append("no __cfi_check_fail")
        bad += audit_check(arch, own_code(funcs["__cfi_check"], syms.get("__cfi_check")),
                           writable)
        line = f"{path}: " + (f"{len(bad)} problems" if bad else "ok")
        if whole:
            ebad, entries = audit_entries(arch, funcs)
            bad += ebad
            line += f", {entries} entries checked"
        if opts.sites:
            c = audit_sites(arch, funcs)
            for key, v in c.items():
                total[key] = total.get(key, 0) + v
            line += (f"; slow-path calls {c['sites']}: target reloaded from memory "
                     f"{c['reloaded']}, in a callee-saved register {c['callee-saved']}, "
                     f"not followed {c['unresolved']}")
        print(line)
        for b in bad:
            print(f"  {b}")
        failed += bool(bad)
    if opts.sites and len(opts.images) > 1:
        print(f"all images: slow-path calls {total['sites']}: target reloaded from memory "
              f"{total['reloaded']}, in a callee-saved register {total['callee-saved']}, "
              f"not followed {total['unresolved']}")
    print(f"{len(opts.images) - failed} images clean, {failed} with problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
