#!/usr/bin/env python3
"""console.py: the one place that knows what a guest console says.

Every console pattern of the harness is here: a CFI report, a panic, an
oops, a kernel warning, each arch's fault on a write to read-only memory,
the guest's own markers.  Tests, boot.sh and audit.sh ask it for a verdict
or a count; tests/consoles/ holds recorded consoles with the verdicts they
must give (make test-harness).

  console.py caught NAME LOG MARKER SURVIVED [SITE [REPORT]]
  console.py missed NAME LOG MARKER REASON SURVIVED...
  console.py reported NAME LOG MARKER SITE SURVIVED...
  console.py passed NAME LOG WHAT LINE...
  console.py refused NAME LOG REFUSAL SURVIVED [NEVER...]
      the verdicts: "ok NAME: ..." or "not ok NAME: ... (console: LOG)"
  console.py first-report LOG|- [MARKER]
      the first CFI report line (after MARKER), without its time stamp
  console.py find KIND[,KIND...] LOG|- [MARKER]
      the first line (after MARKER) that shows one of KIND: report, panic,
      oops, warning, test-failed, guest-error, survived, no-init, start
      (guest/init's first line), pti-on, call-depth-on; from where it
      matches.  Exit status 1 if there is none
  console.py write-fault ARCH LOG|- ADDRESS
      the arch's fault on a write to read-only memory at ADDRESS (hex)
  console.py summary LOG
      counts for a whole run: CFI reports, kernel warnings, oopses
  console.py title LOG
      what the console shows, in one line: the first CFI report, oops,
      panic or warning, or how the guest ended

MARKER, SURVIVED, SITE and LINE are grep basic regular expressions (the
tests' own); LOG is a console log as boot.sh writes it (its first line the
QEMU command, after "# jtcfi: ").
"""

import re
import sys

# Console lines, as the kernel and guest/init print them.
CFI_REPORT = r"CFI failure"
KERNEL_PANIC = r"Kernel panic"
KERNEL_WARNING = r"^WARNING:"
# The first line of a WARN(), as a whole run's count reads it.
WARN_LINE = r"^WARNING: CPU: "
TEST_FAILED = r"FAIL:"
GUEST_SURVIVED = r"^jtcfi-guest: survived"
GUEST_ERROR = r"^jtcfi-guest: error"
GUEST_START = r"^jtcfi-guest: start"
# An oops by any name: arm64's "Internal error: Oops - ...", x86's
# "Oops: ...", "BUG: ..." (page faults, lockups), "kernel BUG at".
OOPS = r"Internal error: |^Oops: |^Oops - |^BUG: |kernel BUG at|general protection fault"
# A jt report in permissive mode is a WARN() of the run time's; it is
# counted with the reports, not with the warnings.
CFI_WARNING = r" at kernel/cfi_jt"
NO_INIT = r"Kernel panic|Unable to mount|No working init"
# Mitigations a boot asked for, as each arch says they are on.
PTI_ON = r"^Kernel/User page tables isolation: enabled|detected: Kernel page table isolation \(KPTI\)"
CALL_DEPTH_ON = r"^RETBleed: Mitigation: Stuffing"
LOG_HEADER = "# jtcfi: "
# A benchmark boot's lines (guest/cfi-bench/cfi_bench.c, guest/bench/bench.h,
# guest/bench/modload.c) and the kernel's hand-over to init, read from the
# raw console (time stamps kept) by bench-figures.py.
BENCH_MICRO = re.compile(r".*jtcfi-bench: micro ([a-z-]+) calls=([0-9]+) ns=([0-9]+)$")
BENCH_MACRO = re.compile(r".*jtcfi-bench: macro ([a-z-]+) ops=([0-9]+) ns=([0-9]+) ")
BENCH_MODLOAD = re.compile(r".*jtcfi-bench: modload loads=([0-9]+) load_ns=([0-9]+) unload_ns=([0-9]+)$")
RUN_INIT = re.compile(r"\[ *([0-9.]*)\] Run /init as init process")
GUEST_DONE = "jtcfi-guest: done"
TIME_STAMP = re.compile(r"^\[ *[0-9]+\.[0-9]+\] ")


def bre(pattern):
    """A grep basic regular expression as a Python one."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            out.append({"|": "|", "(": "(", ")": ")", "{": "{", "}": "}",
                        "+": "+", "?": "?"}.get(n, "\\" + n))
            i += 2
            continue
        out.append("\\" + c if c in "|(){}+?" else c)
        i += 1
    return re.compile("".join(out))


def read(path):
    """The console's lines, time stamps off, the harness's header dropped."""
    if path == "-":
        text = sys.stdin.read()
    else:
        with open(path, errors="replace") as f:
            text = f.read()
    return [TIME_STAMP.sub("", line) for line in text.splitlines()
            if not line.startswith(LOG_HEADER)]


def after(lines, marker):
    """The lines from the first that matches MARKER on (none if none does)."""
    m = bre(marker)
    for i, line in enumerate(lines):
        if m.search(line):
            return lines[i:]
    return []


def has(lines, pattern):
    p = re.compile(pattern) if isinstance(pattern, str) else pattern
    return any(p.search(line) for line in lines)


KINDS = {
    "report": CFI_REPORT,
    "panic": KERNEL_PANIC,
    "oops": OOPS,
    "warning": KERNEL_WARNING,
    "test-failed": TEST_FAILED,
    "guest-error": GUEST_ERROR,
    "survived": GUEST_SURVIVED,
    "no-init": NO_INIT,
    "start": GUEST_START,
    "pti-on": PTI_ON,
    "call-depth-on": CALL_DEPTH_ON,
}


def find(kinds, log, marker=None):
    """The first line showing one of KINDS, from where it matches."""
    try:
        p = re.compile("|".join(f"(?:{KINDS[k]})" for k in kinds.split(",")))
    except KeyError as e:
        sys.exit(f"console.py: unknown kind {e} (known: {', '.join(KINDS)})")
    lines = read(log)
    for line in after(lines, marker) if marker else lines:
        m = p.search(line)
        if m:
            return line[m.start():]
    return None


def first(lines, pattern):
    p = re.compile(pattern) if isinstance(pattern, str) else pattern
    return next((line for line in lines if p.search(line)), "")


def first_report(lines):
    return first(lines, CFI_REPORT)


def site_why(lines, site):
    """Why the first CFI report does not blame SITE (empty if it does)."""
    report = first_report(lines)
    if not site or not report:
        return ""
    if bre(r"^" + CFI_REPORT + r" at \(" + site + r"\)+").search(report):
        return ""
    return f" the report does not name the call site {site.replace(chr(92) + '|', ' or ')}: {report};"


def caught(name, log, marker, survived, site="", report=""):
    """The violation was reported and stopped: a CFI report (naming SITE,
    matching REPORT), nothing matching SURVIVED (the test's own line that
    the call went on) or the guest's survived marker, no warning in place
    of the stop, and the kernel panicked (the tests boot with oops=panic)."""
    rest = after(read(log), marker)
    why = ""
    if not rest:
        why += " the call was never made;"
    if not has(rest, CFI_REPORT):
        why += " no CFI report;"
    why += site_why(rest, site)
    if report and first_report(rest) and not bre(report).search(first_report(rest)):
        why += f" the report does not say '{report}': {first_report(rest)};"
    if (survived and has(rest, bre(survived))) or has(rest, GUEST_SURVIVED):
        why += " the call or the guest survived;"
    if has(rest, KERNEL_WARNING):
        why += " the stop was only a warning;"
    if not has(rest, KERNEL_PANIC):
        why += " the guest did not go down;"
    if why:
        return f"not ok {name}:{why} (console: {log})"
    return f"ok {name}: caught: {first_report(rest)}"


def missed(name, log, marker, reason, *survived):
    """The expected miss: every SURVIVED line and the guest's survived
    marker, and no CFI report."""
    rest = after(read(log), marker)
    why = "" if rest else " the call was never made;"
    for line in (*survived, GUEST_SURVIVED):
        if not has(rest, bre(line)):
            why += f" no '{line}';"
    if has(rest, CFI_REPORT):
        why += " a CFI report;"
    if why:
        return f"not ok {name}: expected a missed violation ({reason}):{why} (console: {log})"
    return f"ok {name}: not caught {reason}"


def reported(name, log, marker, site, *survived):
    """Permissive mode: a CFI report (naming SITE), counted (against SITE),
    every SURVIVED line and the guest's survived marker: the guest stayed
    up."""
    rest = after(read(log), marker)
    why = "" if rest else " the call was never made;"
    if not has(rest, CFI_REPORT):
        why += " no CFI report;"
    why += site_why(rest, site)
    if site and not has(rest, bre(r"^jtcfi-guest: cfi-violations: [0-9]* \(" + site + r"\)+")):
        why += f" no violation counted for the call site {site};"
    for line in (*survived, GUEST_SURVIVED):
        if not has(rest, bre(line)):
            why += f" no '{line}' (the call did not go on);"
    if has(rest, KERNEL_PANIC):
        why += " the guest went down;"
    counted = "jtcfi-guest: cfi-violations: total: "
    totals = [line[len(counted):] for line in rest if line.startswith(counted)]
    total = totals[-1] if totals else ""
    if not (total.isdigit() and int(total) >= 1):
        why += f" violation counter is '{total or 'missing'}';"
    if why:
        return f"not ok {name}:{why} (console: {log})"
    return f"ok {name}: reported, counted ({total}) and survived"


def passed(name, log, what, *lines):
    """Every LINE, and no CFI report, test failure, warning or guest error."""
    text = read(log)
    why = next((f"no line '{line}'" for line in lines if not has(text, bre(line))), "")
    bad = re.compile("|".join([CFI_REPORT, TEST_FAILED, KERNEL_WARNING.lstrip("^"),
                               GUEST_ERROR.lstrip("^")]))
    for line in text:
        m = bad.search(line)
        if m:
            why = line[m.start():]
            break
    if why:
        return f"not ok {name}: {why} (console: {log})"
    return f"ok {name}: {what}"


def refused(name, log, refusal, survived, *never):
    """The kernel refused the operation up front and said why: a line
    matching REFUSAL, the guest's SURVIVED line (it saw the operation fail
    and went on), no NEVER line, and no CFI report, oops, warning or panic."""
    text = read(log)
    why = "" if has(text, bre(refusal)) else f" no refusal '{refusal}';"
    if not has(text, bre(survived)):
        why += f" no '{survived}' (the guest did not see it fail);"
    why += "".join(f" '{first(text, bre(line))}';" for line in never if has(text, bre(line)))
    for kind, pattern in (("a CFI report", CFI_REPORT), ("an oops", OOPS),
                          ("a warning", KERNEL_WARNING), ("a panic", KERNEL_PANIC)):
        if has(text, pattern):
            why += f" {kind}: {first(text, pattern)};"
    if why:
        return f"not ok {name}:{why} (console: {log})"
    return f"ok {name}: refused: {first(text, bre(refusal))}"


def write_fault(arch, log, address):
    """The arch's fault on a write to read-only memory at ADDRESS."""
    lines = read(log)
    address = address.lower().lstrip("0")
    if arch == "x86_64":
        # The page fault, then that it was a write to a present, read-only page.
        at = re.compile(r"BUG: unable to handle page fault for address: 0*" + address + "$")
        for i, line in enumerate(lines):
            if at.search(line):
                near = lines[i:i + 3]
                if has(near, "supervisor write access in kernel mode") and \
                   has(near, "permissions violation"):
                    return line + " (a write, permissions violation)"
                return ""
        return ""
    return first(lines, r"Unable to handle kernel write to read-only memory at virtual address 0*"
                 + address + "$")


def summary(log):
    lines = read(log)
    reports = [line for line in lines if re.search(CFI_REPORT, line)]
    warnings = [line for line in lines
                if re.search(WARN_LINE, line) and not re.search(CFI_WARNING, line)]
    oopses = [line for line in lines if re.search(OOPS, line)]
    out = [f"reports {len(reports)}", f"warnings {len(warnings)}", f"oopses {len(oopses)}"]
    out += [f"report {line}" for line in reports]
    out += [f"warning {line}" for line in warnings]
    out += [f"oops {line}" for line in oopses]
    return "\n".join(out)


def title(log):
    lines = read(log)
    for pattern in (CFI_REPORT, OOPS, KERNEL_PANIC, WARN_LINE):
        line = first(lines, pattern)
        if line:
            return line
    if not has(lines, GUEST_START):
        return "never reached init: " + (first(lines, NO_INIT) or "no panic line either")
    if any(line.startswith(GUEST_DONE) for line in lines):
        return "done"
    return "no end: the console stops after " + (lines[-1] if lines else "nothing")


COMMANDS = {
    "caught": (caught, 4, 6),
    "missed": (missed, 5, None),
    "reported": (reported, 5, None),
    "passed": (passed, 3, None),
    "refused": (refused, 4, None),
    "first-report": (lambda log, marker=None: first_report(
        after(read(log), marker) if marker else read(log)), 1, 2),
    "find": (find, 2, 3),
    "write-fault": (write_fault, 3, 3),
    "summary": (summary, 1, 1),
    "title": (title, 1, 1),
}


def main(argv):
    if len(argv) < 2 or argv[1] not in COMMANDS:
        sys.exit(__doc__)
    fn, least, most = COMMANDS[argv[1]]
    args = argv[2:]
    if len(args) < least or (most is not None and len(args) > most):
        sys.exit(__doc__)
    out = fn(*args)
    if out is None:
        sys.exit(1)
    if out:
        print(out)


if __name__ == "__main__":
    main(sys.argv)
