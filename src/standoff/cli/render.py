"""``standoff render``: draw a saved game's board (SVG, PNG, or a viewer page)."""

from __future__ import annotations

from pathlib import Path

import click

from standoff import (
    GameStateError,
    Phase,
    StandoffError,
    storage,
)

from .app import cli, friendly


@cli.command()
@click.argument("game", type=click.Path())
@click.option("--phase", default=None, metavar="PHASE",
              help="Phase to draw, e.g. S1902M (default: the current phase).")
@click.option("--orders", "with_orders", is_flag=True,
              help="Draw the phase's orders (and their results, once processed).")
@click.option("--controllers", is_flag=True,
              help="Also fill land by the power standing in it (centres: by owner).")
@click.option("--all", "all_phases", is_flag=True,
              help="One picture per phase into directory OUT, plus index.html to step through.")
@click.option("--width", type=click.IntRange(1, 20000), default=None,
              help="PNG width in pixels.")
@click.option("-o", "--out", required=True, type=click.Path(),
              help="map.svg or map.png (with --all: a directory).")
@friendly
def render(game: str, phase: str | None, with_orders: bool, controllers: bool,
           all_phases: bool, width: int | None, out: str) -> None:
    """Draw a saved game's board as SVG or PNG (or every phase, with a viewer)."""
    from standoff.render import game_viewer, phase_pictures, render_png, render_svg

    g = storage.load(game)
    if all_phases:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        pictures = phase_pictures(g, orders=True)
        for i, pic in enumerate(pictures):
            (folder / f"{i:03d}-{pic.phase}.svg").write_text(pic.svg)
        (folder / "index.html").write_text(game_viewer(g))
        click.echo(f"wrote {len(pictures)} pictures and index.html to {folder}")
        return
    suffix = Path(out).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise StandoffError(f"the output must end in .svg or .png, not {suffix or 'nothing'!r}")
    cal = g.variant.calendar
    # by the phase itself, not its printed name: a calendar reads every name and
    # letter it has had in every year (Sahara, rule 6: F1906M is L1906M)
    records = {r.position.phase: r for r in g.history}
    wanted = Phase.parse(phase, cal) if phase else g.position.phase
    if wanted == g.position.phase:
        svg = render_svg(g.position, orders=g.pending() if with_orders else None,
                         controllers=controllers)
    elif wanted in records:
        rec = records[wanted]
        svg = render_svg(rec.position, orders=rec.orders if with_orders else None,
                         results=rec.results, controllers=controllers)
    else:
        played = [p.name(cal) for p in [*records, g.position.phase]]
        raise GameStateError(f"no phase {wanted.name(cal)} in this game (played: "
                             f"{', '.join(played)})")
    if suffix == ".png":
        Path(out).write_bytes(render_png(svg, width))
    else:
        Path(out).write_text(svg)
    click.echo(f"wrote {out}")
