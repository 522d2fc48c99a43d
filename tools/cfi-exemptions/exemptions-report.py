#!/usr/bin/env python3
"""exemptions-report.py PROFILE DIR REPORT: the unchecked surface side by side.
exemptions-report.py --unexplained JSON: what one build leaves unchecked (a
function or an object without CFI) that no reason names, one per line.

DIR holds cfi-exemptions.py's ARCH-MODE.json for kcfi and jt of each arch
measured; REPORT (markdown) gets, per arch, the counts side by side and
every function whose indirect calls one mode leaves unchecked and the
other checks, with the reason tools/cfi-exemptions/reasons gives for it.
Exits 1 if jt leaves unchecked an indirect call of a function whose calls
kcfi checks (or has not), or builds without CFI an object kcfi builds with
it, and no reason names it.
"""
import fnmatch
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = [
    ('c-objects', 'C objects compiled'),
    ('c-objects-lto', '... with LTO (read as IR)'),
    ('ir-indirect-calls', 'indirect calls in their IR'),
    ('ir-indirect-calls-checked', '... checked'),
    ('ir-indirect-calls-checked-by-bpf-jit-entries', '... of those, against the set of BPF JIT entries'),
    ('ir-indirect-calls-unchecked', '... unchecked'),
    ('functions-with-unchecked-calls', 'functions with unchecked indirect calls'),
    ('c-objects-without-cfi', 'C objects without CFI (no LTO, no kCFI)'),
    ('machine-indirect-branches-without-cfi', '... their indirect branches'),
    ('function_nocfi-uses', 'function_nocfi() in the C files compiled'),
    ('CFI_NOSEAL-uses', 'CFI_NOSEAL() in the C files compiled'),
]


def reasons():
    """(pattern, reason) pairs: tab-separated, # comments."""
    out = []
    with open(os.path.join(HERE, 'reasons')) as fh:
        for line in fh:
            line = line.rstrip('\n')
            if line and not line.startswith('#'):
                pattern, reason = line.split('\t', 1)
                out.append((pattern, reason.strip()))
    return out


def plain(name):
    """file:function without the hash ThinLTO appends to promoted locals."""
    return re.sub(r'\.[0-9a-f]{32}$', '', name)


def unchecked(d):
    out = {}
    for k, n in d['unchecked'].items():
        out[plain(k)] = out.get(plain(k), 0) + n
    return out


def why(name, table):
    for pattern, reason in table:
        if fnmatch.fnmatchcase(name, pattern):
            return reason
    return None


def unexplained(path):
    """Names in one cfi-exemptions.py output that no reason covers."""
    with open(path) as fh:
        d = json.load(fh)
    table = reasons()
    names = set(unchecked(d)) | set(d['objects-without-cfi'])
    for name in sorted(n for n in names if not why(n, table)):
        print(name)
    return 0


def main():
    if sys.argv[1] == '--unexplained':
        return unexplained(sys.argv[2])
    profile, figures, report = sys.argv[1:4]
    table = reasons()
    arches = sorted({f.rsplit('-', 1)[0] for f in os.listdir(figures)
                     if f.endswith('.json')})
    lines = [f'# The unchecked surface, `PROFILE={profile}`: jt beside kcfi', '',
             'Written by `make exemptions ARCH=... PROFILE=...` (scripts/exemptions.sh,',
             'tools/cfi-exemptions/); the kernels are built, not booted. An indirect',
             "call is read from the IR of every C object of vmlinux and the modules",
             '(objects of one-object modules are compiled again to get it): under',
             'kcfi it is checked if it carries the "kcfi" bundle, under jt if the',
             'pointer it calls is tested by llvm.type.test in the function or is',
             "what bpf_jit_entry_check() returned (the run time's check of BPF",
             'code, which no jump table holds). The reasons are',
             '`tools/cfi-exemptions/reasons`; `make check` (`cfi-exemptions`) fails',
             'on an unchecked call under jt that none names.', '']
    missing = []
    for arch in arches:
        runs = {}
        for mode in ('kcfi', 'jt'):
            path = os.path.join(figures, f'{arch}-{mode}.json')
            if os.path.exists(path):
                with open(path) as fh:
                    runs[mode] = json.load(fh)
        if len(runs) != 2:
            continue
        lines += [f'## {arch}', '', '| figure | kcfi | jt |', '| --- | --- | --- |']
        for key, label in FIGURES:
            lines.append(f"| {label} | {runs['kcfi'].get(key, 0)} | {runs['jt'].get(key, 0)} |")
        k, j = unchecked(runs['kcfi']), unchecked(runs['jt'])
        added = sorted(set(j) - set(k))
        lines += ['', f'Functions with indirect calls jt leaves unchecked and kcfi does not: {len(added)}.', '']
        if added:
            grouped = {}
            for name in added:
                reason = why(name, table)
                if not reason:
                    missing.append(f'{arch}: {name}')
                grouped.setdefault(reason or '**no reason recorded**', []).append(name)
            lines += ['| why | functions (unchecked calls) |', '| --- | --- |']
            for reason, names in sorted(grouped.items()):
                lines.append(f'| {reason} | ' +
                             ', '.join(f'`{n}` ({j[n]})' for n in names) + ' |')
        fewer = sorted(set(k) - set(j))
        lines += ['', f'Functions with indirect calls kcfi leaves unchecked and jt does not: {len(fewer)}.', '']
        if fewer:
            lines += ['| function | unchecked calls | why |', '| --- | --- | --- |']
            for name in fewer:
                lines.append(f'| `{name}` | {k[name]} | {why(name, table) or ""} |')
        both = sorted(set(k) & set(j))
        lines += ['', f'Functions both leave unchecked: {len(both)} '
                  f'({", ".join(f"`{n}`" for n in both)}).', '']
        only = {m: sorted(set(runs[m]['objects-without-cfi'])) for m in runs}
        for m, other in (('jt', 'kcfi'), ('kcfi', 'jt')):
            extra = sorted(set(only[m]) - set(only[other]))
            if extra:
                lines += [f'C objects without CFI under {m} only: ' +
                          ', '.join(f'`{o}` ({why(o, table) or "**no reason recorded**"})'
                                    for o in extra) + '.', '']
                missing += [f'{arch}: {o} (no CFI under jt only)'
                            for o in extra if m == 'jt' and not why(o, table)]
    with open(report, 'w') as fh:
        fh.write('\n'.join(lines).rstrip('\n') + '\n')
    if missing:
        print('exemptions: no reason recorded for what jt leaves unchecked beyond kcfi:',
              *missing, sep='\n  ', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
