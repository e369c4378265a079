"""The report as a picture: one PNG of four panels, drawn with Matplotlib (the ``plot`` extra).

1. mean supply centres of each power at the end of each year (a game over
   before a year counts its final centres, as the report does), with the
   variant's supply centres split evenly as a dotted line for scale;
2. each power's solo wins, draws shared and eliminations, side by side;
3. the games' lengths in years, each bar split by how the games ended;
4. the solo wins of each year, stacked by power: when the winners win.

Matplotlib is imported only here and only when a picture is asked for
(:func:`check_plotting` lets a command fail before any game is played, not
after); the figure is drawn without pyplot's global state, on the Agg canvas,
so it works with no display and in any thread.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .report import ENDS, Report
from .settings import PlaytestError

#: the colours of solo wins and draws, in every panel
WIN, DRAW = "#2e7d32", "#9aa5b1"
#: how each end is named in the picture
END_LABELS = {"win": "solo win", "draw": "draw", "no_winner": "no winner",
              "unfinished": "unfinished"}


def check_plotting() -> None:
    """Matplotlib can be imported, or one :class:`PlaytestError` naming the extra."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise PlaytestError("the playtest's plot needs the 'plot' extra: "
                            "pip install 'standoff[plot]'") from None


def write_plot(report: Report, path: str | Path,
               colours: Mapping[str, str] | None = None) -> None:
    """Draw ``report`` into the PNG file ``path``; ``colours`` maps powers to
    colours (the maps' own, :func:`standoff.render.power_colours`; Matplotlib's
    cycle where missing or shared)."""
    check_plotting()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(14, 10), layout="constrained")
    axes = fig.subplots(2, 2)
    palette = _palette(report, colours or {})
    names = {p.power: p.name for p in report.powers}
    _centres(axes[0][0], report, palette, names)
    _outcomes(axes[0][1], report)
    _lengths(axes[1][0], report)
    _winners(axes[1][1], report, palette, names)
    fig.suptitle(f"{report.title}: {report.games} games, the {report.bot} bot at every power, "
                 f"to {report.max_year} (seed {report.seed})")
    fig.savefig(str(path), format="png", dpi=100)


def _palette(report: Report, colours: Mapping[str, str]) -> dict[str, Any]:
    from matplotlib import colormaps

    cycle = colormaps["tab20"]
    out: dict[str, Any] = {}
    taken: set[str] = set()
    for i, figures in enumerate(report.powers):
        colour = colours.get(figures.power)
        if colour is None or colour in taken:
            out[figures.power] = cycle(i % 20)
        else:
            out[figures.power] = colour
            taken.add(colour)
    return out


def _centres(ax: Any, report: Report, palette: Mapping[str, Any],
             names: Mapping[str, str]) -> None:
    years = list(range(report.first_year, report.max_year + 1))
    for power, series in report.centres_by_year.items():
        ax.plot(years, series, color=palette[power], label=names[power], linewidth=1.8)
    fair = report.supply_centres / max(len(report.powers), 1)
    ax.axhline(fair, color="grey", linestyle=":", linewidth=1, label="centres / powers")
    ax.set_title("Mean supply centres at the end of each year")
    _whole_years(ax)
    ax.set_xlabel("year")
    ax.set_ylabel("centres")
    ax.grid(alpha=0.3)
    # beside the panel, not over the lines (thirteen powers fill a corner)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _outcomes(ax: Any, report: Report) -> None:
    labels = [p.name for p in report.powers]
    xs = list(range(len(labels)))
    width = 0.27
    ax.bar([x - width for x in xs], [p.solo_wins for p in report.powers], width,
           label="solo wins", color=WIN)
    ax.bar(xs, [p.draws for p in report.powers], width, label="draws shared",
           color=DRAW)
    ax.bar([x + width for x in xs], [p.eliminated for p in report.powers], width,
           label="eliminated", color="#444444")
    ax.set_xticks(xs, labels, rotation=45 if len(labels) > 7 else 0, ha="right"
                  if len(labels) > 7 else "center")
    ax.set_title(f"Outcomes per power ({report.games} games)")
    _whole(ax.yaxis)
    ax.set_ylim(0, report.games * 1.15)  # room for the legend above the tallest bars
    ax.set_ylabel("games")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper center", ncols=3)


def _lengths(ax: Any, report: Report) -> None:
    counts: dict[str, dict[int, int]] = {e: {} for e in ENDS}
    for game in report.played:
        counts[game.end][game.years] = counts[game.end].get(game.years, 0) + 1
    longest = max(g.years for g in report.played)
    xs = list(range(1, longest + 1))
    bottom = [0] * len(xs)
    for end, colour in zip(ENDS, (WIN, DRAW, "#c62828", "#f9a825"), strict=True):
        heights = [counts[end].get(x, 0) for x in xs]
        if any(heights):
            ax.bar(xs, heights, bottom=bottom, color=colour,
                   label=f"{END_LABELS[end]} ({report.ends[end]})")
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_title(f"Game lengths: mean {report.lengths.mean_years:.1f} years, "
                 f"median {report.lengths.median_years:g}, longest {report.lengths.max_years}")
    _whole_years(ax)
    ax.set_xlabel("years played")
    ax.set_ylabel("games")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")


def _winners(ax: Any, report: Report, palette: Mapping[str, Any],
             names: Mapping[str, str]) -> None:
    years = list(range(report.first_year, report.max_year + 1))
    bottom = [0] * len(years)
    for figures in report.powers:
        won = report.wins_by_year.get(figures.power, {})
        heights = [won.get(y, 0) for y in years]
        if any(heights):
            ax.bar(years, heights, bottom=bottom, color=palette[figures.power],
                   label=names[figures.power])
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_title("Solo wins by year")
    ax.set_xlim(report.first_year - 0.5, report.max_year + 0.5)
    _whole_years(ax)
    ax.set_xlabel("year")
    ax.set_ylabel("games")
    ax.grid(axis="y", alpha=0.3)
    if any(bottom):
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "no solo win", transform=ax.transAxes, ha="center", va="center",
                color="grey")


def _whole_years(ax: Any) -> None:
    """Ticks on whole years and whole games only (no 1902.5)."""
    _whole(ax.xaxis)
    _whole(ax.yaxis)


def _whole(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))
