"""``standoff options``, ``variants``, ``check-variant``: what the engine knows."""

from __future__ import annotations

import sys

import click

from standoff import (
    CHOICES,
    available_variants,
    check_variant,
    load_variant,
    variant_summary,
)

from .app import cli, friendly


@cli.command("options")
def list_options() -> None:
    """List the rule options, their values (default first) and DATC issues."""
    for key, (values, issue, what) in CHOICES.items():
        source = issue if not issue[0].isdigit() else f"DATC {issue}"
        click.echo(f"{key} = {' | '.join(values)}   ({source}) {what}")


@cli.command("variants")
@friendly
def variants_cmd() -> None:
    """List the bundled variants."""
    seen: set[str] = set()
    for path in available_variants().values():
        v = load_variant(str(path))
        if v.name in seen:
            continue
        seen.add(v.name)
        aliases = f" (also: {', '.join(v.aliases)})" if v.aliases else ""
        click.echo(f"{v.name:14} {v.title}{aliases}")
        click.echo(f"{'':14} {v.description}")


def _plain(value: object) -> str:
    """A summary figure for people: lists and tables without Python's brackets."""
    if isinstance(value, dict):
        return ", ".join(f"{k.upper()} ({_plain(v)})" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(str(x).upper() for x in value)
    return str(value)


@cli.command("check-variant")
@click.argument("names", nargs=-1, required=True)
@friendly
def check_variant_cmd(names: tuple[str, ...]) -> None:
    """Validate variants (by name, alias or .toml file): links, coasts, reachability,
    centres and homes, the starting position and any schedules."""
    failed = 0
    for name in names:
        v = load_variant(name)
        problems = check_variant(v)
        info = variant_summary(v)
        counts: dict[str, int] = info["terrain"]  # type: ignore[assignment]
        terrain = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
        click.echo(f"{v.name}: {info['spaces']} spaces ({terrain}), {info['centres']} centres, "
                   f"{len(v.powers)} powers, {info['units']} starting units, "
                   f"{info['boards']} board(s); starts {info['start']}; "
                   f"victory: {info['victory']}")
        extras = [f"{k}: {_plain(info[k])}" for k in ("neutral units", "high seas", "canals",
                                                       "build centres") if info[k]]
        if extras:
            click.echo("  " + "; ".join(extras))
        for p in problems:
            click.echo(f"  problem: {p}")
        click.echo(f"  {'ok' if not problems else f'{len(problems)} problem(s)'}")
        failed += bool(problems)
    if failed:
        sys.exit(1)
