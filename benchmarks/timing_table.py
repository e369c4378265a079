"""The per-phase timings of ``adjudication.py`` and the table they are printed as.

A replay times each phase once in every engine (``diplomacy``, pydipcc when it
is found, standoff's first run) plus standoff's median of repeated runs. The
rows here turn those samples into medians per phase type and two kinds of
ratio, both read as "how many times faster standoff is": against pydipcc and
against ``diplomacy``, first like for like (standoff's first run, timed once as
the others are) and then against standoff's warm median. A ratio under 1x
means the other engine is faster; the table says so rather than hiding it.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass

KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


@dataclass
class Sample:
    kind: str  # M / R / A
    so_first_ns: int  # standoff's first run of the phase (timed once, like the others)
    so_ns: int  # median of the --repeat runs
    dip_ns: int
    pdc_ns: int | None = None  # pydipcc, when found and at the same position
    peer_first: bool = False  # pydipcc took its turn before standoff's (else after)


def _us(ns: float) -> str:
    return f"{ns / 1000:,.0f}" if ns >= 10_000 else f"{ns / 1000:,.1f}"


def _kib(b: float) -> str:
    return f"{b / 1024:,.0f}"


def _x(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x" if r < 10 else f"{r:.1f}x"


@dataclass
class Row:
    label: str
    phases: int
    so_first: float  # median ns of standoff's first run per phase
    so: float  # median ns of standoff's median-of-repeat per phase
    dip: float  # median ns of diplomacy's (single) run per phase
    so_rate: float  # phases/s: phases / summed first-run time
    dip_rate: float
    pdc: float | None = None  # median ns of pydipcc's (single) run, on its phases
    pdc_phases: int = 0
    pdc_rate: float | None = None
    #: standoff's first-run median on the phases pydipcc was timed on (the like-for-like base)
    so_first_pdc: float | None = None
    so_pdc: float | None = None

    @property
    def ratio(self) -> float:
        """standoff against diplomacy, like for like: both timed once per phase."""
        return self.dip / self.so_first

    @property
    def ratio_repeat(self) -> float:
        return self.dip / self.so

    @property
    def pdc_ratio(self) -> float | None:
        """standoff against pydipcc, like for like (> 1: standoff is faster)."""
        if self.pdc is None or self.so_first_pdc is None:
            return None
        return self.pdc / self.so_first_pdc

    @property
    def pdc_ratio_repeat(self) -> float | None:
        if self.pdc is None or self.so_pdc is None:
            return None
        return self.pdc / self.so_pdc


def timing_rows(samples: list[Sample]) -> list[Row]:
    rows = []
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        groups[KINDS[s.kind]].append(s)
    for label in [*KINDS.values(), "all"]:
        ss = samples if label == "all" else groups.get(label, [])
        if not ss:
            continue
        row = Row(
            label, len(ss),
            statistics.median(s.so_first_ns for s in ss),
            statistics.median(s.so_ns for s in ss),
            statistics.median(s.dip_ns for s in ss),
            len(ss) / (sum(s.so_first_ns for s in ss) / 1e9),
            len(ss) / (sum(s.dip_ns for s in ss) / 1e9),
        )
        with_pdc = [s for s in ss if s.pdc_ns is not None]
        if with_pdc:
            pdc = [s.pdc_ns for s in with_pdc if s.pdc_ns is not None]
            row.pdc = statistics.median(pdc)
            row.pdc_phases = len(pdc)
            row.pdc_rate = len(pdc) / (sum(pdc) / 1e9)
            row.so_first_pdc = statistics.median(s.so_first_ns for s in with_pdc)
            row.so_pdc = statistics.median(s.so_ns for s in with_pdc)
        rows.append(row)
    return rows


def order_effect(samples: list[Sample]) -> list[tuple[str, float, float, float, float]]:
    """Per phase type: (label, standoff's first run right after diplomacy, standoff's
    first run after pydipcc, pydipcc right after diplomacy, pydipcc after standoff),
    median ns. Whichever engine goes second finds the first one's data in the CPU
    caches instead of its own, and is slower for it; the turns alternate so that
    both pay this equally, and this shows how much it is."""
    out = []
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        if s.pdc_ns is not None:
            groups[KINDS[s.kind]].append(s)
    for label in KINDS.values():
        ss = groups.get(label, [])
        first = [s for s in ss if s.peer_first]
        second = [s for s in ss if not s.peer_first]
        if not first or not second:
            continue
        out.append((label,
                    statistics.median(s.so_first_ns for s in second),
                    statistics.median(s.so_first_ns for s in first),
                    statistics.median(s.pdc_ns or 0 for s in first),
                    statistics.median(s.pdc_ns or 0 for s in second)))
    return out


def print_timing(title: str, samples: list[Sample], repeat: int,
                 mem: dict[str, dict[str, list[int]]] | None) -> None:
    """Median µs per phase for each engine, then how many times faster standoff is
    than each peer (first run, then median of its runs), phases/s and peak memory."""
    print(f"\n{title}")
    rows = timing_rows(samples)
    peer = any(r.pdc is not None for r in rows)
    rep = f"med. of {repeat}"
    head = f"  {'':<18}{'standoff µs':^20}"
    sub = f"  {'phase type':<11}{'phases':>7}{'1 run':>9}{rep:>11}"
    if peer:
        head += f"{'pydipcc':>9}"
        sub += f"{'µs':>9}"
    head += f"{'diplomacy':>11}"
    sub += f"{'µs':>11}"
    if peer:
        head += f"{'x pydipcc':^18}"
        sub += f"{'1 run':>8}{rep:>10}"
    head += f"{'x diplomacy':^18}{'phases/s':^{29 if peer else 20}}"
    sub += f"{'1 run':>8}{rep:>10}{'standoff':>10}"
    if peer:
        sub += f"{'pydipcc':>9}"
    sub += f"{'diplomacy':>10}"
    if mem:
        head += f"{'peak KiB, median / max':^30}"
        sub += f"{'standoff':>15}{'diplomacy':>15}"
    print(head)
    print(sub)
    for r in rows:
        line = f"  {r.label:<11}{r.phases:>7}{_us(r.so_first):>9}{_us(r.so):>11}"
        if peer:
            line += f"{'-' if r.pdc is None else _us(r.pdc):>9}"
        line += f"{_us(r.dip):>11}"
        if peer:
            line += f"{_x(r.pdc_ratio):>8}{_x(r.pdc_ratio_repeat):>10}"
        line += f"{_x(r.ratio):>8}{_x(r.ratio_repeat):>10}{r.so_rate:>10,.0f}"
        if peer:
            line += f"{'-' if r.pdc_rate is None else f'{r.pdc_rate:,.0f}':>9}"
        line += f"{r.dip_rate:>10,.0f}"
        if mem:
            kinds = list(KINDS) if r.label == "all" else [k for k, v in KINDS.items()
                                                          if v == r.label]
            for eng in ("standoff", "diplomacy"):
                vals = [b for k in kinds for b in mem[eng].get(k, [])]
                cell = f"{_kib(statistics.median(vals))} / {_kib(max(vals))}" if vals else "-"
                line += f"{cell:>15}"
        print(line)
    print("  (x pydipcc, x diplomacy: the other engine's median µs over standoff's, i.e. "
          "how many times faster standoff is; under 1x it is slower. '1 run': standoff "
          "timed once per phase like the others, the like-for-like figure)")
