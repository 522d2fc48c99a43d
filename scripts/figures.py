"""figures.py: what the measurement reports share: the goals jt is held
to, and the reading of the figures' tables (ARCH.tsv, as
bench-figures.py writes them), so that bench-report.py and
precision-report.py read and judge alike."""

import csv
import re

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


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    fig = {}
    for r in rows:
        key = (r["kind"], r["name"], r["mode"])
        fig.setdefault(key, []).append(r["value"])
    return fig


def stats_field(text, field):
    m = re.search(field + r"\s+([0-9.]+)", text or "")
    return float(m.group(1)) if m else None
