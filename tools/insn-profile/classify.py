#!/usr/bin/env python3
"""classify.py: what kind of instruction each profiled kernel instruction is.

  classify.py tsv ARCH MODE VMLINUX SYSTEM.MAP DUMP OUTDIR
      Disassembles VMLINUX's .text (llvm-objdump, $OBJDUMP), walks every
      translation block of each benchmark's window in DUMP instruction by
      instruction and writes OUTDIR/classes.tsv ("benchmark<TAB>class<TAB>
      instructions") with the classes below, plus a "checks" row: how many
      inline checks ran.  OUTDIR is where "attribute.py tsv" wrote the
      same DUMP's profile: its benchmarks.tsv names the windows.
  classify.py compare NONE_DIR KCFI_DIR JT_DIR
      Markdown to stdout: per benchmark, the instructions per operation of
      each class in each mode.

Classes (MODE decides which patterns exist):
  check     the compiler's inline check before an indirect call.  kcfi:
            the load of the target's type hash and its compare with the
            expected one (arm64 ldur w16 .. b.eq; x86 movl $h, %r10d, addl
            -N(%r11), %r10d, je).  jt: the jump-table address, the
            subtract, rotate, compare and branch of the range test, or a
            compare with the table's only entry.
  entry     the jump through a jump-table entry (jt).
  slowpath  the call of __cfi_slowpath_diag() at a call site (type id and
            diagnostic data set-up included) and the run time it enters:
            __cfi_slowpath*, cfi_jt_*, __cfi_check* (jt).
  kernel    every other kernel instruction: what the mode's code generation
            (inlining, register allocation) makes of the rest.
  user      user space.
Patterns are matched in the disassembly, so code that merely looks like a
check is counted as one; each mode's patterns do not occur in the others'
checks, which is what a comparison needs.
"""
import bisect
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attribute import die, read_benchmarks, read_blocks, read_system_map  # noqa: E402

CLASSES = ('check', 'entry', 'slowpath', 'kernel', 'user')
RUNTIME = re.compile(r'^(__cfi_slowpath|cfi_jt_|__cfi_check|__ubsan_handle_cfi)')
LINE = re.compile(r'^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$')
FUNC = re.compile(r'^([0-9a-f]+) <(.+)>:$')
# A jump-table entry is 4 bytes on arm64 (B) and 16 on x86 (ENDBR64, JMP).
ROTATE = {'arm64': re.compile(r'^ror$'), 'x86_64': re.compile(r'^ro[rl]q$')}
ROTATE_BY = {'arm64': ('#0x2',), 'x86_64': ('$0x4', '$0x3c')}


def disassemble(arch, vmlinux):
    """(addrs, mnemonics, operands, function) of .text, in address order."""
    objdump = os.environ.get('OBJDUMP', 'llvm-objdump')
    try:
        out = subprocess.run([objdump, '-d', '--no-show-raw-insn',
                              '--section=.text', vmlinux],
                             check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die('could not disassemble %s with %s: %s' % (vmlinux, objdump, e))
    addrs, mnem, ops, func = [], [], [], []
    fn = ''
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            fn = m.group(2)
            continue
        m = LINE.match(line)
        if not m:
            continue
        addrs.append(int(m.group(1), 16))
        mnem.append(m.group(2))
        # arm64 comments follow //, x86's follow # (kept: the value of
        # an immediate or a rip-relative address is read from them).
        ops.append(m.group(3).split(' //')[0] if arch == 'arm64'
                   else m.group(3))
        func.append(fn)
    if not addrs:
        die('%s: no .text disassembled' % vmlinux)
    return addrs, mnem, ops, func


def operands(s):
    s = s.split(' # ')[0]
    return [o.strip() for o in re.split(r',\s*(?![^\[(]*[\])])', s) if o.strip()]


def is_cond_branch(arch, m):
    return m.startswith('b.') if arch == 'arm64' else \
        (m.startswith('j') and m not in ('jmp', 'jmpq'))


def mark_kcfi(arch, mnem, ops):
    """Indices of kCFI's inline hash checks."""
    marked = set()
    n = len(mnem)
    for i in range(n):
        if arch == 'arm64':
            if mnem[i] != 'ldur' or not ops[i].startswith('w16, [') or \
               not ops[i].endswith('#-0x4]'):
                continue
            seq = [i]
            j = i + 1
            while j < n and j < i + 4 and mnem[j] in ('mov', 'movk') and \
                    ops[j].startswith('w17,'):
                seq.append(j)
                j += 1
            if j + 1 < n and mnem[j] == 'cmp' and ops[j] == 'w16, w17' and \
               mnem[j + 1] == 'b.eq':
                marked.update(seq + [j, j + 1])
        else:
            if mnem[i] != 'movl' or operands(ops[i])[-1:] != ['%r10d']:
                continue
            if i + 2 < n and mnem[i + 1] == 'addl' and \
               ops[i + 1].endswith('(%r11), %r10d') and mnem[i + 2] == 'je':
                marked.update((i, i + 1, i + 2))
    return marked


def jt_target(arch, mnem, ops, i, jt, x86_mnem=('movq', 'leaq', 'movl')):
    """The register loaded with a jump-table address at i (and the add that
    completes it on arm64), or None."""
    lo, hi = jt
    if arch == 'arm64':
        if mnem[i] != 'adrp' or i + 1 >= len(mnem) or mnem[i + 1] != 'add':
            return None
        reg, page = operands(ops[i])[:2]
        a = operands(ops[i + 1])
        if len(a) != 3 or a[0] != reg or a[1] != reg or not a[2].startswith('#'):
            return None
        addr = int(page.split()[0], 16) + int(a[2][1:], 16)
        return (reg, (i, i + 1)) if lo <= addr <= hi else None
    if mnem[i] not in x86_mnem:
        return None
    m = re.search(r'# (?:imm = )?(0x[0-9a-f]+)', ops[i], re.I)
    if not m:
        return None
    addr = int(m.group(1), 16)
    if addr < 1 << 32:
        addr |= 0xffffffff00000000
    reg = operands(ops[i])[-1]
    return (reg, (i,)) if lo <= addr <= hi else None


def writes(arch, op, reg):
    o = operands(op) if op else []
    if not o:
        return False
    return o[0] == reg if arch == 'arm64' else o[-1] == reg


def x86_rotate_by_symbol(mnem, ops, i):
    """The instructions of a rotate ending in the orq at i, when its amount
    is a symbol, as in ThinLTO's backends on x86: LLVM's LowerTypeTests
    imports the table's alignment as the absolute symbol
    __typeid_*_align, which no rotate can take as an immediate, so the
    rotate is two shifts by %cl (their amounts loaded into %ecx) and an
    or, which the scheduler interleaves with other code."""
    if mnem[i] != 'orq':
        return ()
    o = operands(ops[i])
    if len(o) != 2:
        return ()
    seq, shifted = [], set()
    for j in range(i - 1, max(i - 12, -1), -1):
        oj = operands(ops[j])
        if mnem[j] in ('shrq', 'shlq') and oj[:1] == ['%cl'] and oj[-1] in o:
            seq.append(j)
            shifted.add(mnem[j])
        elif oj[-1:] in (['%ecx'], ['%rcx']) and mnem[j] in ('movl', 'movq'):
            seq.append(j)
        elif mnem[j] == 'movq' and oj == [o[1], o[0]]:
            seq.append(j)   # the copy of the offset that one shift takes
    return seq if shifted == {'shrq', 'shlq'} else ()


def leads_to_slowpath(addrs, mnem, ops, i):
    """Whether the conditional branch at i, taken or not, reaches a call of
    __cfi_slowpath_diag() within a few instructions: what tells a check
    against a one-entry table from C comparing function pointers."""
    m = re.search(r'0x([0-9a-f]+)', ops[i])
    starts = [i + 1]
    if m:
        starts.append(bisect.bisect_left(addrs, int(m.group(1), 16)))
    return any('<__cfi_slowpath' in ops[j]
               for k in starts for j in range(k, min(k + 8, len(ops)))
               if mnem[j] in ('bl', 'callq'))


def mark_jt(addrs, arch, mnem, ops, func, jt):
    """Indices of jump-table range checks and of slow-path call set-ups."""
    marked = set()
    n = len(mnem)
    table_regs, rotated, made = {}, set(), -1
    rot, rot_by = ROTATE[arch], ROTATE_BY[arch]
    for i in range(n):
        if i and func[i] != func[i - 1]:
            table_regs, rotated = {}, set()
        if i <= made:           # the add that completes an adrp's address
            continue
        # A table address counts only once a check uses it: the same
        # instructions make function pointers (entry addresses) too.
        t = jt_target(arch, mnem, ops, i, jt)
        if t:
            table_regs[t[0]] = t[1]
            made = t[1][-1]
            continue
        o = operands(ops[i])
        shifts = x86_rotate_by_symbol(mnem, ops, i) if arch == 'x86_64' else ()
        if shifts or (rot.match(mnem[i]) and o and
                      o[-1 if arch == 'arm64' else 0] in rot_by):
            dst = o[0] if arch == 'arm64' else o[-1]
            src = o[1] if arch == 'arm64' else o[-1]
            marked.add(i)
            marked.update(shifts)
            rotated.add(dst)
            for j in range(i - 1, max(i - 10, -1), -1):
                if func[j] != func[i]:
                    break
                if mnem[j] in ('sub', 'subq') and writes(arch, ops[j], src):
                    marked.add(j)
                    table = operands(ops[j])[2 if arch == 'arm64' else 0]
                    marked.update(table_regs.get(table, ()))
                    break
            for j in range(i + 1, min(i + 4, n - 1)):
                if mnem[j] in ('cmp', 'cmpq') and dst in operands(ops[j]):
                    marked.add(j)
                    if is_cond_branch(arch, mnem[j + 1]):
                        marked.add(j + 1)
                    break
            continue
        # A compare with the table's only entry, or one of a rotated
        # offset whose rotate LLVM hoisted out of a loop.
        if mnem[i] in ('cmp', 'cmpq') and i + 1 < n and i not in marked and \
           is_cond_branch(arch, mnem[i + 1]) and \
           leads_to_slowpath(addrs, mnem, ops, i + 1) and \
           (any(r in table_regs or r in rotated for r in o) or
            (arch == 'x86_64' and jt_target(arch, mnem, ops, i, jt,
                                           ('cmpq',)))):
            marked.update((i, i + 1))
            for r in o:
                marked.update(table_regs.get(r, ()))
            continue
        for r in list(table_regs):
            if writes(arch, ops[i], r):
                del table_regs[r]
        rotated = {r for r in rotated if not writes(arch, ops[i], r)}
    slow = set()
    for i in range(n):
        if mnem[i] in ('bl', 'callq') and '<__cfi_slowpath' in ops[i]:
            slow.add(i)
            for j in range(i - 1, max(i - 8, -1), -1):
                if mnem[j] not in ('mov', 'movk', 'adrp', 'add', 'movq',
                                   'movabsq', 'leaq', 'movl'):
                    break
                slow.add(j)
    return marked - slow, slow


def cmd_tsv(arch, mode, vmlinux, sysmap, dump, outdir):
    if arch not in ROTATE:
        die('unknown architecture %s' % arch)
    marks = {name: addr for addr, _, name in read_system_map(sysmap)}
    addrs, mnem, ops, func = disassemble(arch, vmlinux)
    check, slow, entry_rng = set(), set(), None
    if mode == 'kcfi':
        check = mark_kcfi(arch, mnem, ops)
    elif mode == 'jt':
        if '__cfi_jt_start' not in marks or '__cfi_jt_end' not in marks:
            die('%s has no __cfi_jt_start/__cfi_jt_end' % sysmap)
        entry_rng = (marks['__cfi_jt_start'], marks['__cfi_jt_end'])
        check, slow = mark_jt(addrs, arch, mnem, ops, func, entry_rng)
        slow.update(i for i, f in enumerate(func) if RUNTIME.match(f))
    elif mode != 'none':
        die('unknown mode %s' % mode)
    # A compiler whose checks look different would leave every instruction
    # in "kernel" and the comparison silently wrong.
    if mode != 'none' and not check:
        die('no %s check found in %s: the patterns do not match this '
            "compiler's code" % (mode, vmlinux))
    # A check has run when its last instruction, the branch, has.
    ends = {i for i in check if is_cond_branch(arch, mnem[i])}

    # attribute.py has matched the windows with the console's benchmarks.
    benches = list(read_benchmarks(outdir))
    windows = read_blocks(dump)
    if len(windows) != 2 * len(benches) + 1:
        die('%s has %d windows for the %d benchmarks of %s'
            % (dump, len(windows), len(benches), outdir))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'classes.tsv'), 'w') as out:
        for k, name in enumerate(benches):
            sums = dict.fromkeys(CLASSES, 0)
            runs = 0
            for pc, ninsns, count in windows[2 * k + 1]:
                if pc is None:
                    sums['user'] += ninsns * count
                    continue
                i = bisect.bisect_left(addrs, pc)
                if i == len(addrs) or addrs[i] != pc:
                    # Not in .text (init text, modules): no checks counted.
                    sums['kernel'] += ninsns * count
                    continue
                for j in range(i, min(i + ninsns, len(addrs))):
                    if entry_rng and entry_rng[0] <= addrs[j] < entry_rng[1]:
                        c = 'entry'
                    elif j in slow:
                        c = 'slowpath'
                    elif j in check:
                        c = 'check'
                        runs += count if j in ends else 0
                    else:
                        c = 'kernel'
                    sums[c] += count
            for c in CLASSES:
                out.write('%s\t%s\t%d\n' % (name, c, sums[c]))
            out.write('%s\tchecks\t%d\n' % (name, runs))


def read_classes(d):
    rows = {}
    with open(os.path.join(d, 'classes.tsv')) as f:
        for line in f:
            name, c, n = line.rstrip('\n').split('\t')
            rows.setdefault(name, {})[c] = int(n)
    return rows


def cmd_compare(dirs):
    ops = [read_benchmarks(d) for d in dirs]
    cls = [read_classes(d) for d in dirs]
    names = [n for n in ops[0] if all(n in o for o in ops) and
             all(n in c for c in cls)]
    if not names:
        die('no benchmark common to %s' % ' '.join(dirs))
    out = ['| benchmark | class | none | kcfi | jt | jt − kcfi |',
           '| --- | --- | ---: | ---: | ---: | ---: |']
    for name in names:
        n_ops = ops[0][name][0]
        for c in CLASSES + ('all', 'checks'):
            v = [sum(x[name][k] for k in CLASSES) if c == 'all' else
                 x[name].get(c, 0) for x in cls]
            v = [x / n_ops for x in v]
            label = {'all': '**all**', 'checks': 'checks run'}.get(c, c)
            out.append('| %s | %s | %.1f | %.1f | %.1f | %+.1f |'
                       % (name, label, v[0], v[1], v[2], v[2] - v[1]))
    print('\n'.join(out))


def main(argv):
    if len(argv) == 7 and argv[0] == 'tsv':
        cmd_tsv(*argv[1:])
    elif len(argv) == 4 and argv[0] == 'compare':
        cmd_compare(argv[1:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
