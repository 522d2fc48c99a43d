#!/usr/bin/env python3
"""cfi-exemptions BUILD-DIR: what a kernel build leaves unchecked by its CFI.

Reads the objects kbuild compiled from C in BUILD-DIR (vmlinux's and the
modules'), by their kbuild command files:

- an LTO object is LLVM bitcode: every indirect call in it is read from its
  IR (llvm-dis). Under kCFI a checked call carries the "kcfi" operand
  bundle; under jump-table CFI the called pointer is the operand of an
  llvm.type.test in the same function. An indirect call without either is
  unchecked: a __nocfi function, an object built without the CFI flags, or
  a call the compiler was told not to check. Under jump-table CFI a call
  to what bpf_jit_entry_check() returned is checked too, by the run time
  against the read-only set of JIT-compiled BPF entries, and counted apart;
- a module of one object is LTO-linked in place when it is compiled
  (kbuild's ld -r), so its bitcode is gone: it is compiled again, with
  kbuild's own command, into a temporary file, and read as above;
- an object that is not bitcode was built without LTO, so without jump
  tables: its indirect calls are checked only if it was compiled with
  -fsanitize=kcfi. Those of one compiled without are counted from its
  machine code (llvm-objdump);
- function_nocfi() and CFI_NOSEAL() in the sources compiled.

Prints one JSON object: the counts and, per function, the unchecked
indirect calls ("file:function": n), which exemptions-report.py sets side
by side for two modes.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

CALL = re.compile(r'\bcall\b[^@]*?(%[-\w.$]+)\(')
TYPE_TEST = re.compile(r'@llvm\.type\.test\(ptr [^%,]*(%[-\w.$]+),')
# Jump-table CFI's check of BPF code, which no jump table holds: the value
# bpf_jit_entry_check() returns is what is called (kernel/bpf/core.c).
JIT_CHECK = re.compile(r'^\s*(%[-\w.$]+) = (?:tail )?call ptr @bpf_jit_entry_check\(')
# ... or, where the set does not hold it, the callback once its failure is
# reported (permissive mode goes on, as after any failed check).
JIT_FAIL = re.compile(r'call void @bpf_callback_fail\(ptr [^%,]*(%[-\w.$]+)\)')
DEFINE = re.compile(r'^define [^@]*@("?[^"(]+"?)\(')
# A pointer merged from others: checked if every one of them is.
PHI = re.compile(r'^\s*(%[-\w.$]+) = phi ptr (.*)$')
SELECT = re.compile(r'^\s*(%[-\w.$]+) = select i1 [^,]+, ptr ([%@][-\w.$]+|null), ptr ([%@][-\w.$]+|null)')


def checked_values(tested, merges):
    """@tested, with every merge of checked pointers, constants or null."""
    done = set(tested)
    grew = True
    while grew:
        grew = False
        for v, ops in merges.items():
            if v not in done and all(o in done or o[0] != '%' for o in ops):
                done.add(v)
                grew = True
    return done
ELF_CALL = {
    'x86_64': re.compile(r'\s(call|jmp)q?\s+(\*%|\*0x|\*-?\(|.*__x86_indirect_thunk_|.*__x86_indirect_call_thunk_)'),
    'arm64': re.compile(r'\s(blr|br)\s+x'),
}


def commands(build):
    """Yields (object, source, command) of every C object kbuild built."""
    for root, dirs, files in os.walk(build):
        rel = os.path.relpath(root, build)
        top = rel.split(os.sep)[0]
        if top in ('scripts', 'tools', 'usr', 'guest-modules', 'modroot', 'image'):
            continue
        for f in files:
            if not (f.startswith('.') and f.endswith('.o.cmd')):
                continue
            with open(os.path.join(root, f), errors='replace') as fh:
                text = fh.read()
            m = re.search(r'^source_\S+ := (\S+\.c)$', text, re.M)
            c = re.search(r'^(?:saved)?cmd_\S+ := (.*)$', text, re.M)
            if not m or not c:
                continue
            obj = os.path.join(root, f[1:-4])
            # Host programs (arch/x86/tools/relocs, ...) are not the kernel.
            if os.path.exists(obj) and '-D__KERNEL__' in c.group(1):
                yield obj, os.path.relpath(m.group(1), TREE), c.group(1)


def ir_calls(obj):
    """{function: [indirect calls, checked, of those by bpf_jit_entry_check()]}
    of bitcode @obj, under either scheme."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, 'o.ll')
        subprocess.run(['llvm-dis' + LLVM, obj, '-o', base], check=True,
                       stderr=subprocess.DEVNULL)
        for part in sorted(os.listdir(tmp)):
            fn = None
            with open(os.path.join(tmp, part), errors='replace') as fh:
                for line in fh:
                    d = DEFINE.match(line)
                    if d:
                        fn, calls, tested, merges, jit = d.group(1).strip('"'), [], set(), {}, set()
                        continue
                    if fn is None:
                        continue
                    if line.startswith('}'):
                        if calls:
                            ok = checked_values(tested | jit, merges)
                            n = out.setdefault(fn, [0, 0, 0])
                            n[0] += len(calls)
                            n[1] += sum(1 for v, kcfi in calls if kcfi or v in ok)
                            bpf = checked_values(jit, merges)
                            n[2] += sum(1 for v, kcfi in calls if not kcfi and v in bpf)
                        fn = None
                        continue
                    j = JIT_CHECK.match(line) or JIT_FAIL.search(line)
                    if j:
                        jit.add(j.group(1))
                    m = PHI.match(line)
                    if m:
                        merges[m.group(1)] = re.findall(r'\[ ([%@][-\w.$]+|null), ',
                                                        m.group(2))
                        continue
                    m = SELECT.match(line)
                    if m:
                        merges[m.group(1)] = [m.group(2), m.group(3)]
                        continue
                    t = TYPE_TEST.search(line)
                    if t:
                        tested.add(t.group(1))
                    c = CALL.search(line)
                    if c and 'asm ' not in line and '@llvm.' not in line:
                        calls.append((c.group(1), '"kcfi"(' in line))
    return out


def recompiled(build, obj, cmd, tmp):
    """Bitcode of @obj, compiled again by its kbuild command @cmd into @tmp."""
    out = os.path.join(tmp, 'o.bc')
    cmd = re.sub(r'-Wp,-MMD,\S+', '', cmd)
    cmd = re.sub(r'(^|\s)-o\s+\S+', r'\1-o ' + out, cmd, count=1)
    # kbuild's ld -r step follows the compiler's, after a ';'.
    cmd = cmd.split(';')[0]
    subprocess.run(cmd, shell=True, cwd=build, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def analysed(build, o):
    """ir_calls() of the bitcode of object @o, compiling it again if need be."""
    obj, _, cmd = o
    if is_bitcode(obj):
        return ir_calls(obj)
    with tempfile.TemporaryDirectory() as tmp:
        return ir_calls(recompiled(build, obj, cmd, tmp))


def elf_calls(obj, arch):
    """Indirect calls and jumps in the machine code of ELF @obj."""
    dis = subprocess.run(['llvm-objdump' + LLVM, '-d', '--no-show-raw-insn', obj],
                         capture_output=True, text=True).stdout
    return sum(1 for line in dis.splitlines() if ELF_CALL[arch].search(line))


def is_bitcode(obj):
    with open(obj, 'rb') as fh:
        magic = fh.read(4)
    return magic in (b'BC\xc0\xde', b'\xde\xc0\x17\x0b')


def grep_count(path, word):
    try:
        with open(os.path.join(TREE, path), errors='replace') as fh:
            return len(re.findall(r'\b' + word + r'\s*\(', fh.read()))
    except OSError:
        return 0


def main():
    global TREE, LLVM
    build, arch, mode = sys.argv[1:4]
    TREE = os.environ.get('JTCFI_TREE', '')
    LLVM = os.environ.get('LLVM_SUFFIX', '-19')
    objs = list(commands(build))
    lto = [o for o in objs if is_bitcode(o[0]) or ' -flto' in o[2]]
    elf = [o for o in objs if o not in lto]
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        irs = list(pool.map(lambda o: analysed(build, o), lto))
    unchecked, calls, checked, bpf = {}, 0, 0, 0
    for (obj, src, _), funcs in zip(lto, irs):
        for fn, (n, ok, jit) in funcs.items():
            calls += n
            checked += ok
            bpf += jit
            if n > ok:
                unchecked[src + ':' + fn] = n - ok
    # Without LTO there are no jump tables, and only kCFI checks calls (as
    # arm64's nVHE code does under jump-table CFI).
    no_cfi = {}
    for obj, src, cmd in elf:
        if '-fsanitize=kcfi' not in cmd:
            n = elf_calls(obj, arch)
            if n:
                no_cfi[os.path.relpath(obj, build)] = n
    sources = sorted({src for _, src, _ in objs})
    json.dump({
        'arch': arch, 'mode': mode,
        'c-objects': len(objs),
        'c-objects-lto': len(lto),
        'ir-indirect-calls': calls,
        'ir-indirect-calls-checked': checked,
        'ir-indirect-calls-checked-by-bpf-jit-entries': bpf,
        'ir-indirect-calls-unchecked': calls - checked,
        'functions-with-unchecked-calls': len(unchecked),
        'c-objects-without-cfi': len(no_cfi),
        'machine-indirect-branches-without-cfi': sum(no_cfi.values()),
        'function_nocfi-uses': sum(grep_count(s, 'function_nocfi') for s in sources),
        'CFI_NOSEAL-uses': sum(grep_count(s, 'CFI_NOSEAL') for s in sources),
        'unchecked': unchecked,
        'objects-without-cfi': no_cfi,
    }, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == '__main__':
    main()
