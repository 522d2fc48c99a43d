#!/usr/bin/env python3
"""attribute.py: turn insn_profile.so's dumps into per-function profiles.

  attribute.py tsv SYSTEM.MAP DUMP CONSOLE OUTDIR
      Attributes each block's NINSNS * COUNT to the vmlinux function whose
      System.map symbol is the nearest at or below the block's first pc
      (a block is credited whole to the function it starts in).  Jump-table
      entries (NAME.cfi_jt under jt) are symbols of their own and keep
      their rows; pcs outside vmlinux's text count as "[module or other]",
      user space as "[user]".  ThinLTO's ".llvm.NNN" suffixes, which differ
      between builds, are dropped so that modes compare by name.
      The dump's windows come from mark= at the benchmarks' clock_gettime():
      window 2k-1 is the measured loop of the k-th "jtcfi-bench: macro"
      line of CONSOLE.  Writes OUTDIR/NAME.tsv ("function<TAB>instructions",
      largest first) per benchmark and OUTDIR/benchmarks.tsv ("name ops ns
      instructions"); under -icount shift=0 a window's instructions must
      equal the benchmark's ns, which is checked.  CONSOLE "-" (a dump
      without mark=): every window summed into OUTDIR/all.tsv.

  attribute.py compare [--top N] NONE_DIR KCFI_DIR JT_DIR
      Markdown to stdout: per benchmark, instructions per operation in each
      mode, then the N functions (15) whose instructions per operation grow
      most from kcfi to jt and from none to jt, and those that shrink most
      from kcfi to jt (inlining differs between builds: code a function
      gained may have left its callers).
"""
import bisect
import os
import re
import sys

BENCH_RE = re.compile(r'^jtcfi-bench: macro (\S+) ops=(\d+) ns=(\d+) ')
# What a build appends to a local symbol's name and that differs between
# builds: ThinLTO's .llvm.NNN, and the module hash jump-table CFI gives
# promoted local functions.
BUILD_SUFFIX = re.compile(r'\.llvm\.\d+|\.[0-9a-f]{32}(?=\.|$)')
# Text ranges of vmlinux, by their System.map markers.
TEXT_RANGES = (('_stext', '_etext'), ('_sinittext', '_einittext'))


def die(msg):
    sys.exit('attribute.py: error: %s' % msg)


def read_system_map(path):
    """System.map's (address, kind, name) lines."""
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3:
                syms.append((int(parts[0], 16), parts[1], parts[2]))
    return syms


def read_symbols(path):
    """Sorted text symbol addresses and names, and vmlinux's text ranges."""
    raw, marks = [], {}
    for addr, kind, name in read_system_map(path):
        marks[name] = addr
        if kind in 'tTwW':
            raw.append((addr, BUILD_SUFFIX.sub('', name)))
    # Jump-table CFI names a local function's body NAME.cfi and gives NAME
    # to its jump-table entry (a global's entry is NAME.cfi_jt): rename
    # them so that every entry is NAME.cfi_jt and every body NAME, as in
    # the other modes.
    names = {n for _, n in raw}
    syms = []
    for addr, n in raw:
        if n.endswith('.cfi'):
            n = n[:-len('.cfi')]
        elif n + '.cfi' in names:
            n += '.cfi_jt'
        syms.append((addr, n))
    syms.sort()
    ranges = [(marks[a], marks[b]) for a, b in TEXT_RANGES
              if a in marks and b in marks]
    if not syms or not ranges:
        die('%s has no text symbols or no _stext/_etext' % path)
    return [a for a, _ in syms], [n for _, n in syms], ranges


def read_blocks(path):
    """The dump's windows: lists of (pc or None for user, instructions in
    the block, executions)."""
    windows = []
    with open(path) as f:
        for line in f:
            if line.startswith('# window'):
                windows.append([])
                continue
            pc, ninsns, count = line.split()
            if not windows:
                die('%s: data before the first window' % path)
            windows[-1].append((None if pc == 'user' else int(pc, 16),
                                int(ninsns), int(count)))
    return windows


def read_windows(path):
    """The dump's windows: lists of (pc or None for user, instructions)."""
    return [[(pc, n * c) for pc, n, c in w] for w in read_blocks(path)]


def attribute(window, addrs, names, ranges):
    prof = {}
    for pc, insns in window:
        if pc is None:
            fn = '[user]'
        elif any(lo <= pc < hi for lo, hi in ranges):
            fn = names[bisect.bisect_right(addrs, pc) - 1]
        else:
            fn = '[module or other]'
        prof[fn] = prof.get(fn, 0) + insns
    return prof


def write_tsv(path, prof):
    with open(path, 'w') as f:
        for fn, n in sorted(prof.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write('%s\t%d\n' % (fn, n))


def cmd_tsv(sysmap, dump, console, outdir):
    addrs, names, ranges = read_symbols(sysmap)
    windows = read_windows(dump)
    os.makedirs(outdir, exist_ok=True)
    if console == '-':
        merged = [blk for w in windows for blk in w]
        write_tsv(os.path.join(outdir, 'all.tsv'),
                  attribute(merged, addrs, names, ranges))
        return
    benches = []
    with open(console, errors='replace') as f:
        for line in f:
            m = BENCH_RE.match(line)
            if m:
                benches.append((m.group(1), int(m.group(2)), int(m.group(3))))
    if not benches:
        die('%s has no "jtcfi-bench: macro" line' % console)
    # Boot, then (loop, between) per benchmark, the last "between" ending
    # at exit.
    if len(windows) != 2 * len(benches) + 1:
        die('%s has %d windows, but %s shows %d benchmarks (expected %d windows)'
            % (dump, len(windows), console, len(benches), 2 * len(benches) + 1))
    with open(os.path.join(outdir, 'benchmarks.tsv'), 'w') as f:
        for k, (name, ops, ns) in enumerate(benches):
            prof = attribute(windows[2 * k + 1], addrs, names, ranges)
            total = sum(prof.values())
            # One guest ns per instruction; the clock is read inside the
            # window's edges, and a block left in its middle (a fault, an
            # interrupt) is counted whole, so a few instructions in a
            # thousand may differ (x86_64's syscall-heavy loops reach 1.5).
            if abs(total - ns) > max(100, ns // 200):
                die('%s: window of %s counts %d instructions but it took %d ns'
                    ' (not run with -icount shift=0, or the windows are off)'
                    % (dump, name, total, ns))
            write_tsv(os.path.join(outdir, name + '.tsv'), prof)
            f.write('%s\t%d\t%d\t%d\n' % (name, ops, ns, total))


def read_tsv(path):
    prof = {}
    with open(path) as f:
        for line in f:
            fn, n = line.rstrip('\n').split('\t')
            prof[fn] = int(n)
    return prof


def read_benchmarks(d):
    with open(os.path.join(d, 'benchmarks.tsv')) as f:
        return {r[0]: (int(r[1]), int(r[3]))
                for r in (line.split('\t') for line in f)}


def entries(prof):
    """Instructions in jump-table entries."""
    return sum(n for fn, n in prof.items() if fn.endswith('.cfi_jt'))


def top_table(out, title, profs, ops, key, top):
    fns = set().union(*profs)
    # Only functions that grew (by 0.05 per operation or more, as shown).
    rows = [fn for fn in sorted(fns, key=lambda fn: (-key(fn), fn))
            if key(fn) / ops >= 0.05][:top]
    out.append('%s\n' % title)
    if not rows:
        out.append('(none)\n')
        return
    out.append('| function | none | kcfi | jt | jt − kcfi | jt − none |')
    out.append('| --- | ---: | ---: | ---: | ---: | ---: |')
    for fn in rows:
        n, k, j = (p.get(fn, 0) / ops for p in profs)
        out.append('| `%s` | %.1f | %.1f | %.1f | %+.1f | %+.1f |'
                   % (fn, n, k, j, j - k, j - n))
    out.append('')


def cmd_compare(dirs, top):
    benches = [read_benchmarks(d) for d in dirs]
    names = [n for n in benches[0] if all(n in b for b in benches[1:])]
    if not names:
        die('no benchmark common to %s' % ' '.join(dirs))
    profs = {name: [read_tsv(os.path.join(d, name + '.tsv')) for d in dirs]
             for name in names}
    out = ['Instructions per operation of each benchmark\'s measured loop'
           ' (kernel and user); "in entries": of jt\'s, those executed in'
           ' jump-table entries (`*.cfi_jt`).\n',
           '| benchmark | ops | none | kcfi | jt | jt − kcfi | jt − none | jt: in entries |',
           '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    for name in names:
        ops = benches[0][name][0]
        if any(b[name][0] != ops for b in benches):
            die('%s ran a different number of operations per mode' % name)
        n, k, j = (b[name][1] / ops for b in benches)
        out.append('| %s | %d | %.1f | %.1f | %.1f | %+.1f (%+.1f %%) | %+.1f (%+.1f %%) | %.1f |'
                   % (name, ops, n, k, j, j - k, 100 * (j - k) / k,
                      j - n, 100 * (j - n) / n, entries(profs[name][2]) / ops))
    out.append('')
    for name in names:
        ops = benches[0][name][0]
        p = profs[name]
        out.append('### %s\n' % name)
        top_table(out, 'Top %d by jt − kcfi, instructions per operation:' % top,
                  p, ops, lambda fn: p[2].get(fn, 0) - p[1].get(fn, 0), top)
        top_table(out, 'Top %d by jt − none, instructions per operation:' % top,
                  p, ops, lambda fn: p[2].get(fn, 0) - p[0].get(fn, 0), top)
        # Inlining differs between builds: a function that grew under jt
        # often shrank in its callers, which this shows.
        top_table(out, 'Top %d by kcfi − jt (smaller under jt), instructions per operation:' % top,
                  p, ops, lambda fn: p[1].get(fn, 0) - p[2].get(fn, 0), top)
    print('\n'.join(out))


def main(argv):
    if len(argv) == 5 and argv[0] == 'tsv':
        cmd_tsv(*argv[1:])
    elif argv[:1] == ['compare']:
        top = 15
        rest = argv[1:]
        if rest[:1] == ['--top'] and len(rest) > 1:
            top = int(rest[1])
            rest = rest[2:]
        if len(rest) != 3:
            sys.exit(__doc__)
        cmd_compare(rest, top)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
