#!/usr/bin/env python3
"""bench-report.py DATADIR OUT.md: turn the figures scripts/bench-figures.py
collected (DATADIR/ARCH.tsv) into a Markdown report with the goals checked
and an SVG chart next to it (OUT without .md, plus -ARCH.svg).  The report
says only what the figures show; the compiler it names is clang$LLVM."""

import csv
import datetime
import glob
import operator
import os
import re
import statistics
import subprocess
import sys

USAGE = "usage: bench-report.py DATADIR OUT.md"
LLVM = os.environ.get("LLVM") or "-19"  # as scripts/lib.sh

# The goals of the benchmark issue, checked against jt:
# (name, comparison, threshold, text).  A goal is met when its measured
# value compares so with the threshold; the text names the goal in the
# report ({t}: the threshold, {w}: the macro workload).
GOALS = [
    ("macro-overhead", "<=", 1.0, "macro `{w}`: jt overhead ≤ {t:g} % over none"),
    ("macro-vs-kcfi", "<=", 0.5, "macro `{w}`: jt ≤ kcfi + {t:g} points"),
    ("checked-call", "<=", 3, "checked same-module call ≤ kcfi's + {t:g} instructions"),
    ("cross-module-call", "<=", 2,
     "module-to-core call ≤ {t:g}× a same-module checked call (loop subtracted)"),
    ("core-to-module-call", "<=", 2,
     "core-to-module call ≤ {t:g}× a same-module checked call (bsearch() and loop as without CFI)"),
    ("module-load", "<=", 1.0,
     "module load: CFI's share (jt − none per load, shadow update included) ≤ {t:g} ms"),
    ("precision", ">=", 30, "jt allowed targets per call site ≥ {t:g} % below kcfi's (mean)"),
]
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


# What costs a missed goal and what would remove it, for the goals named:
# said once however many of them are missed.  {unchecked}, {tables} and
# {entries} come from the figures.
WHY = [
    (("macro-overhead", "macro-vs-kcfi"),
     "**Macro overhead.** `make insn-profile` classifies every instruction the "
     "macro benchmarks run (results/insn-profile-ARCH.md, \"What kind of "
     "instruction the difference is\"). On arm64 jt's inline checks run "
     "fewer instructions than kCFI's (`sub`, `ror`, `cmp`, `b.hs`, the table "
     "address often hoisted, against kCFI's hash load, two `movk`, `cmp`, "
     "`b.eq`), and the jump through the table entry{unchecked} about makes up "
     "the difference: the whole gap is in the rest of the code, what LTO "
     "makes of the same source when each check block ends in a call. jt's "
     "check is IR when LTO inlines, and its slow-path call costs the inliner "
     "55 per indirect call, so functions kCFI inlines stay calls under jt; "
     "giving the inliner that back recovers 14-41 % of the gap on three "
     "benchmarks and none on two (results/notes/jt-inlining.md); the slow-path "
     "call also keeps a call's arguments and target in callee-saved "
     "registers around it (bsearch() saves four pairs and a register under "
     "jt, four pairs under kCFI). Where a check is in a loop, MachineLICM "
     "hoisted the slow-path call's constant arguments (the 64-bit type id, "
     "the diagnostic data) "
     "out of the cold block into callee-saved registers, which every call "
     "of the function then set up, saved and restored; since v1 patch 0077 "
     "vmlinux is linked with `-disable-hoisting-to-hotter-blocks=all`, so "
     "that the branch weights keep them in the block (arm64: 1150 of 4166 "
     "slow-path calls took their id from a callee-saved register, 174 "
     "since; fork-wait over none 1.33 to 0.99 %, pipe-pingpong 3.90 to "
     "3.51, tmpfs-read 1.30 "
     "to 1.05; x86_64 332 of 4662 to 75, pipe-pingpong 2.10 to 2.03; the "
     "kernel without CFI linked so moves by 0.01-0.03 % on the two "
     "deterministic benchmarks). Modules keep the hoisting, as there the "
     "block is the way into vmlinux: linked with the option, a module's call "
     "into vmlinux in a loop cost 38 instructions instead of 34. fork-wait, "
     "getppid "
     "and socketpair-fanout also run background work (RCU, the page "
     "allocator) whose share moves by up to 1 % between runs of the same "
     "kernel; pipe-pingpong and tmpfs-read do not. On x86_64 the checks "
     "themselves cost twice kCFI's: LLVM's "
     "ThinLTO backends import a table's alignment as an absolute symbol on "
     "x86 ELF (LowerTypeTests' shouldExportConstantsAsAbsoluteSymbols()), "
     "which no `ror` can take as an immediate, so a third of the checks "
     "rotate with two shifts by `%cl` and an `or`, their amounts held in two "
     "more callee-saved registers (modules, linked with full LTO under jt on "
     "x86 since v1 patch 0056, are free of it). An entry's JMP lands past the "
     "function's ENDBR64 (v1 patch 0058), so that a call through the table runs "
     "one instruction more than kCFI's, not two. What would remove the rest is LLVM's: an "
     "inline cost that discounts the check, the slow path as a cold, "
     "register-preserving call (the kernel cannot ask for one: clang 19 "
     "emits the slow-path call with the C calling convention even where "
     "`__cfi_slowpath_diag` is declared `preserve_most`), constants rather "
     "than absolute symbols for the rotate, and a direct call to the "
     "function once the check has passed."),
    (("cross-module-call", "core-to-module-call"),
     "**Cross-module calls.** A pointer made in another image is never "
     "in the caller's tables, so each call costs the caller's failed inline "
     "check, the setup of the slow-path call (the 64-bit type id, the "
     "diagnostic data) and `__cfi_slowpath_diag`. A target in vmlinux's "
     "tables, what a module calls through a pointer the core kernel made, is "
     "judged by the type id of its entry: its offset from the tables' start, "
     "rotated by the entry size as the compiler's own checks do, indexes a "
     "read-only array of the ids of vmlinux's {entries} entries that the "
     "build reads back from vmlinux's `__cfi_check` ({tables} types here; "
     "checked against `__cfi_check` when vmlinux is linked), in a leaf "
     "function that saves no registers; before it, `__cfi_check`'s binary "
     "search over 64-bit constants and the slow path's RCU and owner "
     "bookkeeping made the call 155 instructions, and a hash table from "
     "type id to table (v1 patches 0035, 0059, 0062) 45 on arm64 and 48 on "
     "x86_64; one load and one comparison with the entry's id (v1 patch 0065) "
     "make it 36 on both, and the tables' start read with the index (patch "
     "0068) 34 on arm64. What is left is the compiler's: the inline check "
     "that fails, the slow-path call it emits and the call itself, and a "
     "look-up of 11 instructions on arm64 (the index's address, one load of "
     "the tables' start and the number of entries, the rotated offset and "
     "the range test, the id's load and comparison, the return), which no "
     "scheme without a compiler change can make much shorter: on arm64 2x "
     "a same-module call is one instruction out of reach. A call into a "
     "module goes from the CFI shadow straight to the module's own "
     "`__cfi_check` (v1 patch 0055, then only where RCU already watched; 166 to 134 "
     "instructions on arm64, 154 to 113 on x86_64), without the general "
     "slow path's frame, and without recording the call site for reports, "
     "which a failure now finds by unwinding (v1 patch 0057; 122 and 107), "
     "and hands the call on by tail calls, so that on arm64, whose frame "
     "pointers turn sibling calls off, the slow path sets up no frame of "
     "its own, and the shadow's bounds are read with its slots (patches "
     "0059-0063: 111 and 96); since v1 patch 0064 module unload waits for "
     "every CPU to schedule, so the slow path needs no RCU test (105 and "
     "93; v1 patch 0065's range test, which rotates the offset and reads the "
     "number of entries first, adds 2: 107 and 95), and where nothing "
     "preempts (no preemption count, as here) the slow path jumps to the "
     "module's `__cfi_check` rather than calling it (v1 patch 0066: 103 and "
     "93; v1 patch 0068 takes the 2 back on arm64: 101). Since v1 patch 0072 the "
     "shadow leads to an index of the module's own entries, which the build "
     "reads back from the module's `__cfi_check` when the .ko is linked "
     "(v1 patch 0071), and the call is judged as a call into vmlinux's tables "
     "is, by one load and comparison (arm64 90, x86_64 90; arm64 86 since "
     "v1 patch 0077 keeps the slow-path call's set-up out of bsearch()'s "
     "loop), rather than by the "
     "module's search over 64-bit constants (5 comparisons in the "
     "benchmark's module; a median of 14 in the server profile's modules, "
     "ipv6 234, which no longer count). Since v1 patch 0078 vmlinux's own "
     "slow-path calls ask the shadow first: a valid target vmlinux calls "
     "outside its own tables is in a module or BPF code, so the range test "
     "of vmlinux's tables, which a module's calls into vmlinux pass, only "
     "sent them on; the module loader binds modules to a slow path that "
     "keeps it first (arm64 86 to 78, x86_64 90 to 82; module to core "
     "unchanged). What is left is the caller's check and slow-path call "
     "(bsearch() keeps one more callee-saved register for it), the shadow "
     "look-up (14 instructions on arm64, with the index's address) and the "
     "index (9). A cache of verdicts would not do, as it would be a "
     "writable word deciding one."),
    (("precision",),
     "**Precision.** kCFI accepts every function carrying the type's hash, "
     "which clang emits for address-taken functions and for functions with "
     "external linkage; jump tables hold the functions whose address C takes, "
     "as LTO sees them before it optimises. So an address taken only in code "
     "that inlining later removes still makes an entry, LLVM counts "
     "function_nocfi() (NOKPROBE_SYMBOL() uses it) as taking the address, "
     "and GPL-only exports keep one for symbol_get() (non-GPL exports no "
     "longer get one, v1 patch 0031). `jt-entries-unnamed` below counts the "
     "entries no relocation in vmlinux.o names (tools/cfi-precision/"
     "cfi-jt-refs); `targets-per-call-site-without-unnamed` is the mean "
     "without them, the most a fix after LTO could give. No tool after LTO "
     "can remove them soundly: code in LTO's own partition derives entries "
     "from a table's address by arithmetic, with no relocation (gic_smp_init() "
     "passes the entry of gic_check_rdist() plus 4, gic_starting_cpu()'s), "
     "so `jt-entries-unreferenced` counts only unnamed entries of tables no "
     "such code refers to (results/notes/jt-unreferenced.md). The fix is LLVM's: give "
     "an entry only to functions whose address optimised code still uses. "
     "More of the gap is the GPL-only exports' entries, which only the "
     "export makes (`jt-entries-export-only`; "
     "`targets-per-call-site-without-export-only` is the mean without them): "
     "symbol_get() hands them out, as its pointer must pass the caller's "
     "check, and nothing at vmlinux's link tells which exports a module will "
     "ask it for. A caller names its target when it is compiled, so it could "
     "take the address itself and get an entry in its own tables, but only "
     "for a target in vmlinux: one in a module that is not loaded yet has no "
     "address when the caller is loaded, and symbol_get() exists for such "
     "targets (results/notes/jt-export-entries.md). "
     "Tighter sets than that need more than the prototype: per-call-site or "
     "per-struct-field type ids. The same figures for a distribution-like "
     "configuration: `make precision PROFILE=server`, "
     "results/precision-server.md."),
]


def load(path):
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    fig = {}
    for r in rows:
        key = (r["kind"], r["name"], r["mode"])
        fig.setdefault(key, []).append(r["value"])
    return fig


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


def stats_field(text, field):
    m = re.search(field + r"\s+([0-9.]+)", text or "")
    return float(m.group(1)) if m else None


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
        why = [text for names, text in WHY if missed & set(names)]
        if why:
            L.append("### Where a goal is missed: what costs it, what would remove it\n")
            tables = " ".join(fig.get(("precision", "jt-tables", "jt"), ["n/a"]))
            entries = " ".join(fig.get(("precision", "jt-table-entries", "jt"), ["n/a"]))
            ku, ju = (med(fig, "micro", "unchecked", m) for m in ("kcfi", "jt"))
            unchecked = (f" (the micro figures: unchecked {ku:g} vs {ju:g})"
                         if ku is not None and ju is not None else "")
            L += [f"- {text.format(tables=tables, entries=entries, unchecked=unchecked)}" for text in why]
            L.append("")

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
