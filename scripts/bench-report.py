#!/usr/bin/env python3
"""bench-report.py DATADIR OUT.md: turn the figures scripts/bench-figures.py
collected (DATADIR/ARCH.tsv) into a Markdown report with the goals checked
and an SVG chart next to it (OUT without .md, plus -ARCH.svg).  The report
says only what the figures show; the compiler it names is clang$LLVM."""

import datetime
import glob
import operator
import os
import statistics
import subprocess
import sys

from figures import GOALS, load, stats_field

USAGE = "usage: bench-report.py DATADIR OUT.md"
LLVM = os.environ.get("LLVM") or "-19"  # as scripts/lib.sh

GOAL = {g[0]: g for g in GOALS}
COMPARE = {"<=": operator.le, ">=": operator.ge}

MODES = ["none", "kcfi", "jt"]
MICRO = ["loop", "direct", "unchecked", "checked", "cross", "into", "bpf-run", "bpf-direct"]
MICRO_WHAT = {
    "loop": "loop alone (reference)",
    "direct": "direct call",
    "unchecked": "indirect call, unchecked (`__nocfi`)",
    "checked": "indirect call, checked, same module",
    "cross": "indirect call, checked, module to core kernel (jt: slow path)",
    "into": "bsearch() of one element: the core kernel's checked call into the module",
    "bpf-run": "a JIT-compiled classic BPF program run, returning a constant (jt: the JIT entry set's look-up)",
    "bpf-direct": "the same program called as the dispatcher calls it, unchecked (reference for bpf-run)",
}


# Where a missed goal is explained (by hand, with what would close it):
# the section of results/notes/bench-goals.md for each goal, linked from
# the report in results/.
NOTES = "notes/bench-goals.md"
WHY = {
    "macro-overhead": "macro-overhead",
    "macro-vs-kcfi": "macro-overhead",
    "checked-call": "macro-overhead",
    "cross-module-call": "cross-module-calls",
    "core-to-module-call": "cross-module-calls",
    "precision": "precision",
}


def nums(fig, kind, name, mode):
    return [float(v) for v in fig.get((kind, name, mode), [])]


def med(fig, kind, name, mode):
    v = nums(fig, kind, name, mode)
    return statistics.median(v) if v else None


def spread(fig, kind, name, mode, fmt):
    v = sorted(nums(fig, kind, name, mode))
    if not v:
        return "n/a"
    m = statistics.median(v)
    if v[0] == v[-1]:
        return f"{fmt(m)} (all {len(v)} equal)"
    return f"{fmt(m)} [{fmt(v[0])}–{fmt(v[-1])}]"


def ratio(a, b):
    return f"{a / b:.4f}" if a is not None and b else "n/a"


def verdict(ok):
    return "met" if ok else "**not met**"


def svg_chart(fig, arch, modes, path):
    """Two panels: macro time per op relative to none, micro instructions
    per call.  Plain SVG, no plotting library needed."""
    colours = {"none": "#9e9e9e", "kcfi": "#1f77b4", "jt": "#d62728"}
    macro = sorted({k[1] for k in fig if k[0] == "macro"})
    w, h, top, left = 900, 640, 60, 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="24" text-anchor="middle" font-size="16">'
           f'jtcfi on {arch}: cost of CFI (QEMU TCG, -icount shift=0, median of repeats)</text>']
    for i, m in enumerate(modes):
        out.append(f'<rect x="{left + i * 90}" y="34" width="12" height="12" fill="{colours[m]}"/>'
                   f'<text x="{left + i * 90 + 16}" y="45">{m}</text>')

    def panel(y0, ph, title, groups, values, unit, base=None):
        pw = w - left - 20
        vmax = max([v for g in values for v in g if v is not None] + [1e-9])
        vmin = 0 if base is None else min([v for g in values for v in g if v is not None] + [base])
        vmin = min(vmin, base) if base is not None else 0
        lo = 0 if base is None else vmin - (vmax - vmin) * 0.2 - 0.1
        hi = vmax + (vmax - lo) * 0.1
        out.append(f'<text x="{left}" y="{y0 - 8}" font-size="14">{title}</text>')
        out.append(f'<line x1="{left}" y1="{y0 + ph}" x2="{left + pw}" y2="{y0 + ph}" stroke="black"/>')
        out.append(f'<line x1="{left}" y1="{y0}" x2="{left}" y2="{y0 + ph}" stroke="black"/>')
        for t in range(5):
            v = lo + (hi - lo) * t / 4
            y = y0 + ph - ph * t / 4
            out.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{v:.1f}</text>'
                       f'<line x1="{left}" y1="{y}" x2="{left + pw}" y2="{y}" stroke="#eee"/>')
        out.append(f'<text x="14" y="{y0 + ph / 2}" transform="rotate(-90 14 {y0 + ph / 2})" '
                   f'text-anchor="middle">{unit}</text>')
        gw = pw / max(len(groups), 1)
        bw = gw * 0.7 / len(modes)
        for gi, g in enumerate(groups):
            for mi, m in enumerate(modes):
                v = values[gi][mi]
                if v is None:
                    continue
                bh = ph * (v - lo) / (hi - lo)
                x = left + gi * gw + gw * 0.15 + mi * bw
                out.append(f'<rect x="{x:.1f}" y="{y0 + ph - bh:.1f}" width="{bw:.1f}" '
                           f'height="{bh:.1f}" fill="{colours[m]}"/>')
                out.append(f'<text x="{x + bw / 2:.1f}" y="{y0 + ph - bh - 3:.1f}" '
                           f'text-anchor="middle" font-size="9">{v:.1f}</text>')
            out.append(f'<text x="{left + gi * gw + gw / 2:.1f}" y="{y0 + ph + 16}" '
                       f'text-anchor="middle">{g}</text>')

    mvals = []
    for g in macro:
        base = med(fig, "macro", g, "none")
        mvals.append([100.0 * base / med(fig, "macro", g, m)
                      if base and med(fig, "macro", g, m) else None for m in modes])
    panel(90, 200, "Macro: guest time per operation, % of none (lower is better)",
          macro, mvals, "% of none", base=100.0)
    uvals = [[med(fig, "micro", g, m) for m in modes] for g in MICRO]
    panel(380, 200, "Micro: guest instructions per call (incl. the loop)",
          MICRO, uvals, "instructions")
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def compiler_version():
    """The first line of `clang$LLVM --version`, the compiler bench built with."""
    clang = f"clang{LLVM}"
    try:
        lines = subprocess.run([clang, "--version"], capture_output=True,
                               text=True).stdout.splitlines()
    except OSError:
        lines = []
    return lines[0] if lines else clang


def report_arch(fig, arch, modes, svg_name):
    L = []
    f0 = lambda v: f"{v:,.0f}"
    f1 = lambda v: f"{v:,.1f}"
    f3 = lambda v: f"{v:.3f}"
    cols = " | ".join(modes)
    L.append(f"## {arch}\n")
    L.append(f"![chart]({svg_name})\n")

    # Goals first: that is what a reader comes for.
    goals = []  # (name, text, measured as shown, met)

    def goal(name, value, shown, **text):
        _, comparison, threshold, what = GOAL[name]
        goals.append((name, what.format(t=threshold, **text), shown,
                      COMPARE[comparison](value, threshold)))

    macro = sorted({k[1] for k in fig if k[0] == "macro"})
    if "jt" in modes:
        for w in macro:
            n, k, j = (med(fig, "macro", w, m) for m in ("none", "kcfi", "jt"))
            if not (n and k and j):
                continue
            jo, ko = 100 * (n / j - 1), 100 * (n / k - 1)
            goal("macro-overhead", jo, f"{jo:+.2f} %", w=w)
            goal("macro-vs-kcfi", jo - ko,
                 f"jt {jo:+.2f} % vs kcfi {ko:+.2f} % ({jo - ko:+.2f} points)", w=w)
        jc, kc = med(fig, "micro", "checked", "jt"), med(fig, "micro", "checked", "kcfi")
        if jc is not None and kc is not None:
            goal("checked-call", jc - kc, f"jt {jc:.2f}, kcfi {kc:.2f}: {jc - kc:+.2f}")
        jx, lp = med(fig, "micro", "cross", "jt"), med(fig, "micro", "loop", "jt")
        if jx is not None and jc is not None and lp is not None and jc != lp:
            r = (jx - lp) / (jc - lp)
            goal("cross-module-call", r,
                 f"{jx - lp:.1f} vs {jc - lp:.1f} instructions: {r:.2f}×")
        # bsearch()'s own work is what the loop costs without CFI, less
        # its one indirect call there (none's unchecked call).
        ji, ni = med(fig, "micro", "into", "jt"), med(fig, "micro", "into", "none")
        nu, nl0 = med(fig, "micro", "unchecked", "none"), med(fig, "micro", "loop", "none")
        if None not in (ji, ni, nu, nl0, jc, lp) and jc != lp:
            c = ji - ni + nu - nl0
            r = c / (jc - lp)
            goal("core-to-module-call", r,
                 f"{c:.1f} vs {jc - lp:.1f} instructions: {r:.2f}×")
        jl, nl = med(fig, "modload", "load", "jt"), med(fig, "modload", "load", "none")
        if jl is not None and nl is not None:
            d = (jl - nl) / 1e6
            goal("module-load", d, f"{d:.3f} ms (jt {jl / 1e6:.3f} ms, none {nl / 1e6:.3f} ms)")
        jm = stats_field(" ".join(fig.get(("precision", "targets-per-call-site", "jt"), [])), "mean")
        km = stats_field(" ".join(fig.get(("precision", "targets-per-call-site", "kcfi"), [])), "mean")
        if jm is not None and km:
            below = 100 * (1 - jm / km)
            shown = f"jt {jm:.1f}, kcfi {km:.1f}: {below:.1f} % below"
            xm = stats_field(" ".join(fig.get(
                ("precision", "targets-per-call-site-without-export-only", "jt"), [])), "mean")
            if xm is not None:
                shown += (f" (without the entries only GPL-only exports make: "
                          f"{xm:.1f}, {100 * (1 - xm / km):.1f} % below)")
            goal("precision", below, shown)
        L.append("### Goals\n")
        L.append("| goal | measured | |\n| --- | --- | --- |")
        for _, g, v, ok in goals:
            L.append(f"| {g} | {v} | {verdict(ok)} |")
        L.append("")
        missed = {name for name, _, _, ok in goals if not ok}
        why = sorted({WHY[name] for name in missed if name in WHY})
        if why:
            L.append("### Where a goal is missed\n")
            L.append("What costs each missed goal and what would remove it is written by hand: " +
                     ", ".join(f"[{w}]({NOTES}#{w})"
                               for w in why) + ".\n")

    L.append("### Micro: guest instructions per call\n")
    L.append("Median [min–max] over the repeats; the kernel module `guest/cfi-bench` times "
             "a loop of calls of each kind with interrupts off.\n")
    L.append(f"| call | {cols} |\n| --- |" + " --- |" * len(modes))
    for g in MICRO:
        L.append(f"| {MICRO_WHAT[g]} | " + " | ".join(spread(fig, "micro", g, m, f3) for m in modes) + " |")
    L.append("")

    L.append("### Macro: operations per guest second\n")
    hdr = f"| workload | {cols} | kcfi/none | jt/none | jt/kcfi |"
    L.append(hdr + "\n| --- |" + " --- |" * (len(modes) + 3))
    for w in macro:
        n, k, j = (med(fig, "macro", w, m) for m in ("none", "kcfi", "jt"))
        L.append(f"| {w} | " + " | ".join(spread(fig, "macro", w, m, f1) for m in modes) +
                 f" | {ratio(k, n)} | {ratio(j, n)} | {ratio(j, k)} |")
    L.append("\nRatios are of throughput (below 1 = slower than the denominator).\n")

    L.append("### Module load and boot (guest time)\n")
    L.append(f"| figure | {cols} |\n| --- |" + " --- |" * len(modes))
    for phase in ("load", "unload"):
        L.append(f"| {phase} of `cfi_bench_load.ko`, µs | " +
                 " | ".join(spread(fig, "modload", phase, m, lambda v: f"{v / 1e3:,.1f}")
                            for m in modes) + " |")
    L.append("| boot to `Run /init`, ms | " +
             " | ".join(spread(fig, "boot", "to-init", m, lambda v: f"{v / 1e6:,.2f}")
                        for m in modes) + " |")
    L.append("")

    L.append("### Static figures\n")
    L.append(f"| figure | {cols} |\n| --- |" + " --- |" * len(modes))
    for name, what in [("vmlinux-text", "vmlinux text, bytes"), ("vmlinux-data", "data, bytes"),
                       ("vmlinux-bss", "bss, bytes"), ("vmlinux-total", "total, bytes"),
                       ("build-from-scratch", "build from scratch, s"),
                       ("kcfi-typed-functions", "functions with a kCFI type hash"),
                       ("endbr-total", "ENDBR64 at function and entry starts"),
                       ("endbr-sealed", "of those sealed by objtool"),
                       ("endbr-left", "left: where IBT lets an indirect branch land"),
                       ("endbr-in-jump-tables", "of those left, jump-table entries"),
                       ("endbr-sealed-in-jump-tables",
                        "jump-table entries sealed: targets IBT removes from the tables")]:
        # x86_64 only (IBT): no row where no mode has the figure.
        if name.startswith("endbr-") and all(med(fig, "static", name, m) is None for m in modes):
            continue
        L.append(f"| {what} | " + " | ".join(
            (f0(med(fig, "static", name, m)) if med(fig, "static", name, m) is not None else "n/a")
            for m in modes) + " |")
    L.append("")

    if "jt" in modes:
        L.append("Jump tables and their entries (jt) are the `jt-tables` and `jt-table-entries` "
                 "rows below. Where jt's image grows: text holds the jump tables, "
                 "`__cfi_check` and a check plus a slow-path call block per checked call "
                 "site; read-only data holds the diagnostic data of every check (type "
                 "names, source locations: what makes the reports readable) and the "
                 "kallsyms entries of the `.cfi_jt` symbols.\n")
    L.append("### Precision (tools/cfi-precision on each vmlinux)\n")
    keys = []
    for k in fig:
        if k[0] == "precision" and k[1] not in keys:
            keys.append(k[1])
    L.append(f"| figure | {cols} |\n| --- |" + " --- |" * len(modes))
    for key in keys:
        L.append(f"| {key} | " + " | ".join(
            " ".join(fig.get(("precision", key, m), ["n/a"])) for m in modes) + " |")
    L.append("")
    return L


def main():
    if len(sys.argv) != 3:
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    data, out = sys.argv[1], sys.argv[2]
    tsvs = sorted(glob.glob(os.path.join(data, "*.tsv")))
    if not tsvs:
        print(f"bench-report.py: no ARCH.tsv in '{data}'\n{USAGE}", file=sys.stderr)
        sys.exit(2)
    L = ["# jtcfi benchmark results", ""]
    L.append(f"Written {datetime.date.today().isoformat()} by `make bench`; compiler "
             f"{compiler_version()}; ThinLTO; configs `common` + `base-ARCH` + `mode-MODE`. "
             "Guests run under QEMU TCG with `-icount shift=0,sleep=off` on one vCPU: guest "
             "time advances one nanosecond per instruction, so every figure below counts "
             "instructions. Repeat N runs with `-seed N` and a fixed guest clock, so that the "
             "min–max spread over the seeds shows what the guest's own randomness "
             "(address-space layout, hash seeds) does to a figure.")
    L.append("")
    for tsv in tsvs:
        arch = os.path.basename(tsv)[:-4]
        fig = load(tsv)
        modes = [m for m in MODES if any(k[2] == m for k in fig)]
        svg = os.path.splitext(out)[0] + f"-{arch}.svg"
        svg_chart(fig, arch, modes, svg)
        L += report_arch(fig, arch, modes, os.path.basename(svg))
    L.append("## What instruction counting cannot show\n")
    L.append("Guest time under `-icount` counts instructions, each costing the same. "
             "It does not model caches, TLBs, branch prediction or pipelines: the extra "
             "jump through a jump-table entry, the kCFI hash load from the target's "
             "cache line, and the I-cache footprint of jump tables and `__cfi_check` "
             "cost one instruction each here, but on hardware a predicted branch can be "
             "nearly free while a cold cache line costs tens of cycles. Treat these as "
             "instruction-count overheads; confirm cycle overheads on real hardware.")
    open(out, "w").write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
