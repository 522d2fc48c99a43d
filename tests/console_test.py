#!/usr/bin/env python3
"""console_test.py: scripts/console.py against recorded consoles.

Each file in tests/consoles/ is a real console of a test boot, trimmed to
what follows "Run /init" (arm64-jt-timeout.log: a caught boot cut before
its report, as a console ends when QEMU is killed).  Each case says what
verdict, count or line the parser must draw from one of them; make
test-harness runs them, in seconds and with no kernel, and the cases of
the audit's trinity_for() with a stand-in trinity.
"""

import importlib.util
import os
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("console", os.path.join(TOP, "scripts", "console.py"))
console = importlib.util.module_from_spec(spec)
spec.loader.exec_module(console)


def log(name):
    return os.path.join(TOP, "tests", "consoles", name + ".log")


LKDTM = "lkdtm: Performing direct entry CFI_FORWARD_PROTO"
SURVIVED = r"FAIL: survived"
SITE = "lkdtm_indirect_call"
ARCHES = ("arm64", "x86_64")


class Caught(unittest.TestCase):
    def test_caught(self):
        for arch in ARCHES:
            v = console.caught("t", log(f"{arch}-jt-caught"), LKDTM, SURVIVED, SITE)
            self.assertTrue(v.startswith("ok t: caught: CFI failure at lkdtm_indirect_call+0x"), v)
            self.assertTrue(v.endswith("expected type: 'void (int *)') [enforcing]"), v)

    def test_wrong_site(self):
        v = console.caught("t", log("arm64-jt-caught"), LKDTM, SURVIVED, r"other_fn\|another_fn")
        self.assertIn("the report does not name the call site other_fn or another_fn", v)
        self.assertTrue(v.startswith("not ok t:"), v)

    def test_report_must_say(self):
        ok = console.caught("t", log("arm64-jt-caught"), LKDTM, SURVIVED, SITE,
                            r"target: lkdtm_increment_int+0x0/0x[0-9a-f]* through")
        self.assertTrue(ok.startswith("ok t: caught:"), ok)
        v = console.caught("t", log("arm64-jt-caught"), LKDTM, SURVIVED, SITE, r"target: init_module+")
        self.assertIn("the report does not say 'target: init_module+'", v)

    def test_permissive_is_not_caught(self):
        v = console.caught("t", log("arm64-jt-reported"), LKDTM, SURVIVED, SITE)
        self.assertEqual(v, "not ok t: the call or the guest survived; the stop was only a warning;"
                            " the guest did not go down; (console: %s)" % log("arm64-jt-reported"))

    def test_missed_is_not_caught(self):
        v = console.caught("t", log("arm64-none-missed"), LKDTM, SURVIVED, SITE)
        self.assertEqual(v, "not ok t: no CFI report; the call or the guest survived;"
                            " the guest did not go down; (console: %s)" % log("arm64-none-missed"))

    def test_no_marker(self):
        v = console.caught("t", log("arm64-jt-caught"), "never printed", SURVIVED)
        self.assertTrue(v.startswith("not ok t: the call was never made; no CFI report;"), v)

    def test_cut_before_the_report(self):
        v = console.caught("t", log("arm64-jt-timeout"), LKDTM, SURVIVED, SITE)
        self.assertTrue(v.startswith("not ok t: no CFI report;"), v)


class Missed(unittest.TestCase):
    def test_missed(self):
        v = console.missed("t", log("arm64-none-missed"), LKDTM, "without CFI",
                           "FAIL: survived")
        self.assertEqual(v, "ok t: not caught without CFI")

    def test_caught_is_not_missed(self):
        v = console.missed("t", log("arm64-jt-caught"), LKDTM, "without CFI",
                           "FAIL: survived")
        self.assertEqual(v, "not ok t: expected a missed violation (without CFI): no 'FAIL: survived';"
                            " no '^jtcfi-guest: survived'; a CFI report; (console: %s)"
                         % log("arm64-jt-caught"))


class Reported(unittest.TestCase):
    def test_reported(self):
        for arch in ARCHES:
            v = console.reported("t", log(f"{arch}-jt-reported"), LKDTM, SITE,
                                 "FAIL: survived")
            self.assertEqual(v, "ok t: reported, counted (1) and survived")

    def test_caught_is_not_reported(self):
        v = console.reported("t", log("arm64-jt-caught"), LKDTM, SITE,
                             "FAIL: survived")
        self.assertIn("no violation counted for the call site", v)
        self.assertIn("the guest went down;", v)
        self.assertIn("violation counter is 'missing';", v)


class Passed(unittest.TestCase):
    LINES = ("cfi_noprobe: a kprobe on notify_die (.*) was refused (-22)",
             "^jtcfi-guest: kprobe-blacklist: every listed function refused")

    def test_passed(self):
        v = console.passed("t", log("arm64-jt-passed"), "refused", *self.LINES)
        self.assertEqual(v, "ok t: refused")

    def test_missing_line(self):
        v = console.passed("t", log("arm64-jt-passed"), "refused", "no such line")
        self.assertTrue(v.startswith("not ok t: no line 'no such line'"), v)

    def test_warning_fails(self):
        v = console.passed("t", log("arm64-none-warning"), "x")
        self.assertTrue(v.startswith("not ok t: WARNING: CPU: 0 PID: 53 at drivers/misc/lkdtm/bugs.c"), v)


class Refused(unittest.TestCase):
    REFUSAL = "cfi_nocheck: .*refusing the module"
    SURVIVED = "^jtcfi-guest: survived module-nocheck (insmod exit status [1-9]"

    # The verdict that passes is Stanzas.test_recorded's, with the stanza's
    # own patterns; these are the ways it must fail.
    def test_never(self):
        v = console.refused("t", log("arm64-jt-refused"), self.REFUSAL, self.SURVIVED, "insmod: can't insert")
        self.assertTrue(v.startswith("not ok t: 'insmod: can't insert '/lib/modules/jtcfi/cfi_nocheck.ko'"), v)

    def test_caught_is_not_refused(self):
        v = console.refused("t", log("arm64-jt-caught"), self.REFUSAL, self.SURVIVED)
        self.assertIn("no refusal 'cfi_nocheck: .*refusing the module';", v)
        self.assertIn(" a CFI report: CFI failure at lkdtm_indirect_call", v)
        self.assertIn(" an oops: Internal error: ", v)


class Stanzas(unittest.TestCase):
    """tests/boot-tests through tests/boot-test.sh, on recorded consoles."""

    def judge(self, arch, mode, name, console_log):
        with tempfile.TemporaryDirectory() as logs:
            out = subprocess.run([os.path.join(TOP, "tests", "boot-test.sh"), arch, mode, logs, *name.split()],
                                 env=dict(os.environ, JTCFI_CONSOLE=console_log),
                                 capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def test_every_stanza_is_complete(self):
        with open(os.path.join(TOP, "tests", "boot-tests")) as f:
            names = [line.strip() for line in f if line.strip() and line[0] not in "#\t "]
        self.assertIn("module-nocheck", names)
        for name in names:
            for mode in ("jt", "kcfi"):
                v = self.judge("arm64", mode, name, "/dev/null")
                self.assertTrue(v.startswith(f"not ok {name}:") and "tests/boot-tests" not in v, v)

    def test_recorded(self):
        self.assertEqual(self.judge("arm64", "jt", "kprobe-blacklist", log("arm64-jt-passed")),
                         "ok kprobe-blacklist: kprobes refused on notify_die(), a module's NOKPROBE_SYMBOL()"
                         " function and a module's jump-table entry")
        self.assertTrue(self.judge("arm64", "jt", "module-nocheck", log("arm64-jt-refused")).startswith(
            "ok module-nocheck: refused: cfi_nocheck: the CFI shadow cannot map it"))
        v = self.judge("arm64", "jt", "module-nocheck", log("arm64-jt-passed"))
        self.assertTrue(v.startswith("not ok module-nocheck: no refusal"), v)


class Faults(unittest.TestCase):
    ADDRESS = {"arm64": "ffff8000807b9cd8", "x86_64": "ffffffff8f173898"}

    def test_write_fault(self):
        self.assertEqual(console.write_fault("arm64", log("arm64-jt-write-fault"), self.ADDRESS["arm64"]),
                         "Unable to handle kernel write to read-only memory at virtual address "
                         "ffff8000807b9cd8")
        self.assertEqual(console.write_fault("x86_64", log("x86_64-jt-write-fault"), self.ADDRESS["x86_64"]),
                         "BUG: unable to handle page fault for address: ffffffff8f173898"
                         " (a write, permissions violation)")

    def test_other_address(self):
        for arch in ARCHES:
            self.assertEqual(console.write_fault(arch, log(f"{arch}-jt-write-fault"), "ffff0000dead0000"), "")

    def test_other_arch_format(self):
        self.assertEqual(console.write_fault("x86_64", log("arm64-jt-write-fault"), self.ADDRESS["arm64"]), "")


class Counts(unittest.TestCase):
    def counts(self, name):
        lines = console.summary(log(name)).splitlines()
        return {k: int(v) for k, v in (l.split(" ", 1) for l in lines[:3])}

    def test_permissive_report_is_no_warning(self):
        self.assertEqual(self.counts("arm64-jt-reported"), {"reports": 1, "warnings": 0, "oopses": 0})
        self.assertEqual(self.counts("x86_64-jt-reported"), {"reports": 1, "warnings": 0, "oopses": 0})

    def test_enforcing_report_is_an_oops(self):
        for arch in ARCHES:
            self.assertEqual(self.counts(f"{arch}-jt-caught"), {"reports": 1, "warnings": 0, "oopses": 1})

    def test_warning(self):
        self.assertEqual(self.counts("arm64-none-warning"), {"reports": 0, "warnings": 1, "oopses": 0})

    def test_find(self):
        self.assertEqual(console.find("panic,oops", log("x86_64-jt-caught")), "Oops: CFI: 0000 [#1] SMP NOPTI")
        self.assertIsNone(console.find("report,warning", log("arm64-none-missed")))
        self.assertEqual(console.find("survived", log("arm64-none-missed"), LKDTM),
                         "jtcfi-guest: survived lkdtm CFI_FORWARD_PROTO (writer exit status 0)")
        # guest/init's start line (time stamp off: it writes through /dev/kmsg).
        self.assertTrue(console.find("start", log("arm64-jt-caught")).startswith(
            "jtcfi-guest: start run=lkdtm:CFI_FORWARD_PROTO "))
        self.assertIsNone(console.find("start", log("arm64-none-no-init")))


class Titles(unittest.TestCase):
    def test_titles(self):
        self.assertTrue(console.title(log("arm64-jt-caught")).startswith("CFI failure at lkdtm_indirect_call"))
        self.assertEqual(console.title(log("arm64-none-warning")),
                         "WARNING: CPU: 0 PID: 53 at drivers/misc/lkdtm/bugs.c:112 lkdtm_WARNING+0x20/0x30")
        self.assertEqual(console.title(log("arm64-none-missed")), "done")
        self.assertTrue(console.title(log("arm64-none-no-init")).startswith(
            "Kernel panic - not syncing: VFS: Unable to mount root fs"), console.title(log("arm64-none-no-init")))
        self.assertEqual(console.title(log("arm64-jt-timeout")),
                         "no end: the console stops after lkdtm: Calling mismatched prototype ...")


class Bench(unittest.TestCase):
    """bench-figures.py reads the raw console, time stamps kept."""

    def test_bench_lines(self):
        with open(log("arm64-jt-bench")) as f:
            lines = f.read().splitlines()
        micro = [m[1] for m in map(console.BENCH_MICRO.match, lines) if m]
        self.assertEqual(micro[:3], ["loop", "direct", "unchecked"])
        self.assertTrue(any(map(console.BENCH_MACRO.match, lines)))
        self.assertTrue(any(map(console.BENCH_MODLOAD.match, lines)))
        self.assertEqual(next(m[1] for m in map(console.RUN_INIT.match, lines) if m), "0.385902")
        self.assertTrue(any(l.startswith(console.GUEST_DONE) for l in lines))


class Patterns(unittest.TestCase):
    def test_bre(self):
        self.assertTrue(console.bre(r"a\|b").search("b"))
        self.assertTrue(console.bre("f (-22)").search("f (-22)"))
        self.assertTrue(console.bre(r"x \.\.\.").search("x ..."))
        self.assertFalse(console.bre(r"x \.\.\.").search("x abc"))
        self.assertTrue(console.bre("forged [0-9]* copies").search("forged 12 copies"))


# A stand-in trinity: its Nth run does the Nth of $ACTIONS (the last one
# again after that): crash, bail (give up with a total, as trinity's
# "locking catastrophe") or run (until trinity_for()'s SIGINT).
STAND_IN = """#!/bin/bash
n=$(cat "$COUNT" 2>/dev/null || echo 0)
echo $((n + 1)) > "$COUNT"
read -r -a acts <<< "$ACTIONS"
case ${acts[n]:-${acts[-1]}} in
crash)	kill -SEGV $$ ;;
bail)	echo "[main] Bailing main loop because some kind of locking catastrophe."
	echo "[main] Ran 8006 syscalls. Successes: 2104  Failures: 5723"
	exit 1 ;;
run)	trap 'echo "[main] Ran 100 syscalls. Successes: 10  Failures: 90"; exit 0' INT
	while :; do sleep 0.1; done ;;
esac
"""


class TrinityFor(unittest.TestCase):
    """guest/image/jtcfi-audit's trinity_for(): the time left after trinity
    ends early on its own is fuzzed too, an oops or repeated crashes end it,
    and the last line sums the runs."""

    def run_for(self, actions, tainted=0):
        with open(os.path.join(TOP, "guest", "image", "jtcfi-audit")) as f:
            src = f.read()
        fn = src[src.index("trinity_for() {"):]
        fn = fn[:fn.index("\n}\n") + 3]
        # The kernel's taint, as the guest would read it.
        taint = ('cat() { if [ "$1" = /proc/sys/kernel/tainted ]; then echo %d; '
                 'else command cat "$@"; fi; }\n' % tainted)
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "trinity")
            with open(fake, "w") as f:
                f.write(STAND_IN)
            os.chmod(fake, 0o755)
            env = dict(os.environ, ACTIONS=actions, COUNT=os.path.join(d, "count"))
            p = subprocess.run(["bash", "-c", taint + fn + "trinity_for 2 " + fake],
                               env=env, capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout.splitlines()[-1]

    def test_again_after_giving_up(self):
        self.assertEqual(self.run_for("bail run"), (0, "[main] Ran 8106 syscalls. "
                         "Successes: 2114  Failures: 5813 (trinity runs: 2)"))

    def test_again_after_crashes(self):
        self.assertEqual(self.run_for("crash crash bail run"), (0, "[main] Ran 8106 syscalls. "
                         "Successes: 2114  Failures: 5813 (trinity runs: 4)"))

    def test_three_crashes_end_it(self):
        self.assertEqual(self.run_for("crash"), (139, "[main] Ran 0 syscalls. "
                         "Successes: 0  Failures: 0 (trinity runs: 3)"))

    def test_an_oops_ends_it(self):
        self.assertEqual(self.run_for("bail run", tainted=128), (1, "[main] Ran 8006 syscalls. "
                         "Successes: 2104  Failures: 5723 (trinity runs: 1)"))


if __name__ == "__main__":
    result = unittest.TextTestRunner().run(unittest.defaultTestLoader.loadTestsFromModule(
        __import__("__main__")))
    bad = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - bad} passed, {bad} failed")
    raise SystemExit(1 if bad else 0)
