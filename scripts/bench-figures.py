#!/usr/bin/env python3
"""bench-figures.py: every figure of one `make bench` run, as the rows of
results/bench/ARCH.tsv (tab-separated: arch mode repeat kind name value
unit, with a header line), read by scripts/bench-report.py.

    bench-figures.py ARCH --out TSV --build MODE DIR [--build MODE DIR ...]
                     [--log MODE REPEAT LOG ...] [--cfi-precision PROG]

For each --build, in order (repeat 0): the sizes of DIR/vmlinux
(llvm-size$LLVM), the from-scratch build time (DIR/build-seconds, when
there) and the output of tools/cfi-precision on DIR/vmlinux, which is also
kept as ARCH-MODE.precision beside TSV.  Its `kcfi-typed-functions` line
becomes the static row of that name; every other line but `scheme:` is a
precision row.  For jt, tools/cfi-precision/cfi-jt-refs on DIR/vmlinux.o
adds the counts of entries only EXPORT_SYMBOL() refers to, that nothing
refers to, and that no relocation names (but code that knows their table's
layout may still derive), and the mean targets per call site without the
last two: what precision removing them would give at most.  For x86_64,
tools/cfi-precision/endbr-count on DIR/vmlinux adds the ENDBR64 objtool
leaves unsealed: the places IBT lets an indirect branch land on.
For each --log, in order: the console of boot REPEAT of
MODE, which must show the guest's `jtcfi-guest: done` and the micro, macro
and module-load results.  TSV is written only when every figure was read;
an error names the console or file at fault.
"""

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = os.environ.get("LLVM") or "-19"  # as scripts/lib.sh

# What the guest and the kernel print is the console parser's to know.
from console import (BENCH_MACRO as MACRO, BENCH_MICRO as MICRO,  # noqa: E402
                     BENCH_MODLOAD as MODLOAD, GUEST_DONE, RUN_INIT as TO_INIT)

KINDS = ("micro", "macro", "modload")


def die(msg):
    print(f"jtcfi: error: {msg}", file=sys.stderr)
    sys.exit(1)


def run(args, stdout=subprocess.PIPE):
    """Run a figure's tool; stop the report if it cannot run or fails.
    stderr is kept in the result (cfi-jt-refs writes its counts there)."""
    try:
        res = subprocess.run(args, stdout=stdout, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        die(f"cannot run {args[0]}: {e.strerror}")
    if res.returncode:
        die(f"{os.path.basename(args[0])} failed on {args[-1]}: {res.stderr.strip()}")
    return res


def static_rows(mode, build, precision_out, tool):
    """Sizes, build time and precision of one build's vmlinux."""
    vmlinux = os.path.join(build, "vmlinux")
    size = f"llvm-size{LLVM}"
    lines = run([size, vmlinux]).stdout.splitlines()
    if not lines:
        die(f"{size} printed nothing for {vmlinux}")
    # Berkeley format: text data bss dec hex filename
    try:
        text, data, bss = (int(f) for f in lines[-1].split()[:3])
    except ValueError:
        die(f"cannot read the sizes {size} gave for {vmlinux}: {lines[-1]!r}")

    res = run([tool, vmlinux])
    with open(precision_out, "w") as f:
        f.write(res.stdout)
    precision, typed = [], None
    for line in res.stdout.splitlines():
        key, value = key_value(line)
        if key == "scheme":
            continue
        if key == "kcfi-typed-functions":
            typed = value
        else:
            precision.append((key, value))

    rows = [(mode, 0, "static", "vmlinux-text", text, "bytes"),
            (mode, 0, "static", "vmlinux-data", data, "bytes"),
            (mode, 0, "static", "vmlinux-bss", bss, "bytes"),
            (mode, 0, "static", "vmlinux-total", text + data + bss, "bytes")]
    if typed is not None:
        rows.append((mode, 0, "static", "kcfi-typed-functions", typed, "functions"))
    seconds = os.path.join(build, "build-seconds")
    if os.path.isfile(seconds):
        with open(seconds) as f:
            rows.append((mode, 0, "static", "build-from-scratch", f.read().rstrip("\n"), "s"))
    rows += [(mode, 0, "precision", k, v, "") for k, v in precision]
    rows += reference_rows(mode, build, precision_out, tool)
    if config_has(build, "CONFIG_X86_KERNEL_IBT=y"):
        rows += endbr_rows(mode, vmlinux, tool)
    return rows


def config_has(build, line):
    """Whether the build's .config has LINE."""
    with open(os.path.join(build, ".config")) as f:
        return any(l.rstrip("\n") == line for l in f)


def endbr_rows(mode, vmlinux, tool):
    """IBT (x86_64): the ENDBR64 left once objtool's seal list is applied (the
    places IBT lets an indirect branch land on), tools/cfi-precision's
    endbr-count."""
    prog = os.path.join(os.path.dirname(tool), "endbr-count")
    rows = []
    for line in run([prog, vmlinux]).stdout.splitlines():
        key, value = key_value(line)
        rows.append((mode, 0, "static", key, value, "instructions"))
    return rows


def reference_rows(mode, build, precision_out, tool):
    """jt: the entries nothing in the image refers to or names, and those
    only an export refers to (cfi-jt-refs -e on DIR/vmlinux.o), and the
    precision without each kind, the listings kept as ARCH-MODE.unreferenced
    and ARCH-MODE.export-only beside the .precision file."""
    vmlinux_o = os.path.join(build, "vmlinux.o")
    vmlinux = os.path.join(build, "vmlinux")
    refs = os.path.join(os.path.dirname(tool), "cfi-jt-refs")
    if mode != "jt" or not os.path.isfile(vmlinux_o):
        return []
    res = run([refs, "-e", vmlinux_o, vmlinux])
    rows = []
    for line in res.stderr.splitlines():
        key, value = key_value(line)
        if key in ("jt-entries-export-only", "jt-entries-unreferenced",
                   "jt-entries-unnamed"):
            rows.append((mode, 0, "precision", key, value, ""))
    # "ADDRESS NAME KIND"; unreferenced entries are unnamed ones too.
    lines = res.stdout.splitlines()
    for suffix, kinds, figure in (
            ("unreferenced", ("unnamed", "unreferenced"),
             "targets-per-call-site-without-unnamed"),
            ("export-only", ("export-only",),
             "targets-per-call-site-without-export-only")):
        listing = precision_out[:-len(".precision")] + "." + suffix
        with open(listing, "w") as f:
            f.writelines(l + "\n" for l in lines if l.split()[-1] in kinds)
        for line in run([tool, "-x", listing, vmlinux]).stdout.splitlines():
            key, value = key_value(line)
            if key == "targets-per-call-site":
                rows.append((mode, 0, "precision", figure, value, ""))
    return rows


def key_value(line):
    """A `key: value` line split as the shell's `IFS=': ' read key value`."""
    m = re.match(r" *([^: ]*)[ ]*:?[ ]*(.*?) *$", line)
    return m.group(1), m.group(2)


def per_call(total, calls, where):
    if not calls:
        die(f"zero calls in {where}")
    return float(total) / float(calls)


def log_rows(arch, mode, repeat, log):
    """The figures of one benchmark boot's console."""
    try:
        with open(log, "rb") as f:
            # Bytes as they are: a console may hold anything.
            lines = f.read().decode("latin-1").split("\n")
    except OSError as e:
        die(f"cannot read the console {log}: {e.strerror}")
    if not any(l.startswith(GUEST_DONE) for l in lines):
        die(f"benchmark guest {arch}/{mode} stopped early (console: {log})")
    # Guest time when the kernel hands over to init (the first such line).
    boot = next((m.group(1) for m in map(TO_INIT.match, lines) if m), "")
    try:
        boot_ns = "%.0f" % (float(boot) * 1e9)
    except ValueError:
        die(f"no 'Run /init' line with a timestamp in {log}")
    rows = [(mode, repeat, "boot", "to-init", boot_ns, "ns")]
    for i, l in enumerate(lines):
        m = MICRO.match(l)
        if m:
            ns = per_call(m[3], m[2], f"{log}:{i + 1}")
            rows.append((mode, repeat, "micro", m[1], "%.3f" % ns, "ns/call"))
    for i, l in enumerate(lines):
        m = MACRO.match(l)
        if m:
            if not int(m[3]):
                die(f"zero time in {log}:{i + 1}")
            rows.append((mode, repeat, "macro", m[1],
                         "%.1f" % (float(m[2]) * 1e9 / float(m[3])), "ops/s"))
    for i, l in enumerate(lines):
        m = MODLOAD.match(l)
        if m:
            n = int(m[1])
            if not n:
                die(f"zero loads in {log}:{i + 1}")
            rows.append((mode, repeat, "modload", "load", int(m[2]) // n, "ns"))
            rows.append((mode, repeat, "modload", "unload", int(m[3]) // n, "ns"))
    for kind in KINDS:
        if not any(f"jtcfi-bench: {kind} " in l for l in lines):
            die(f"no {kind} results from {arch}/{mode} (console: {log})")
    return rows


def repeat_number(s):
    if not s.isdigit() or not int(s):
        raise argparse.ArgumentTypeError(f"not a repeat number: '{s}'")
    return int(s)


def main():
    p = argparse.ArgumentParser(
        prog="bench-figures.py",
        description="Write the figures of one `make bench` run as ARCH.tsv rows.")
    p.add_argument("arch", metavar="ARCH")
    p.add_argument("--out", metavar="TSV", required=True,
                   help="the table to write (ARCH-MODE.precision go beside it)")
    p.add_argument("--build", nargs=2, metavar=("MODE", "DIR"), action="append",
                   required=True, help="a mode and its build directory")
    p.add_argument("--log", nargs=3, metavar=("MODE", "REPEAT", "LOG"), action="append",
                   default=[], help="the console of boot REPEAT (1, 2, ...) of MODE")
    p.add_argument("--cfi-precision", metavar="PROG",
                   default=os.path.join(TOP, "tools", "cfi-precision", "cfi-precision"),
                   help="the precision analyser (default: the one in tools/)")
    a = p.parse_args()
    built = [m for m, _ in a.build]
    for mode, repeat, _ in a.log:
        if mode not in built:
            p.error(f"--log for mode '{mode}', which has no --build")
        try:
            repeat_number(repeat)
        except argparse.ArgumentTypeError as e:
            p.error(str(e))

    figures = os.path.dirname(os.path.abspath(a.out))
    rows = []
    for mode, build in a.build:
        rows += static_rows(mode, build,
                            os.path.join(figures, f"{a.arch}-{mode}.precision"),
                            a.cfi_precision)
    for mode, repeat, log in a.log:
        rows += log_rows(a.arch, mode, repeat_number(repeat), log)

    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("arch\tmode\trepeat\tkind\tname\tvalue\tunit\n")
        for r in rows:
            f.write("\t".join(str(v) for v in (a.arch,) + r) + "\n")
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
