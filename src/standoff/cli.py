"""The ``standoff`` command line (click): a thin adapter over the rules core."""

from __future__ import annotations

import sys

import click

from .casefile import run_files


@click.group()
@click.version_option(package_name="standoff")
def cli() -> None:
    """standoff: a Diplomacy adjudicator and judge."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--variant", default=None, help="Override the variant of every case.")
@click.option("--verbose", "-v", is_flag=True, help="Also list passing and skipped cases.")
def cases(files: tuple[str, ...], variant: str | None, verbose: bool) -> None:
    """Run adjudication case files (jDip/godip format) and report failures."""
    report = run_files(list(files), variant, verbose)
    for line in report.lines:
        click.echo(line)
    click.echo(report.summary())
    sys.exit(0 if report.failed == 0 else 1)


def main() -> None:
    cli()
