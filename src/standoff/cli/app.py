"""The command group, the error-to-exit-code wrapper and the shared option flag."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from standoff import (
    BUILD,
    CorruptGameError,
    GameStateError,
    IllegalOrderError,
    InvalidOrderError,
    NotationError,
    Options,
    StandoffError,
    storage,
)

F = TypeVar("F", bound=Callable[..., Any])


EXIT_CODES: list[tuple[type[StandoffError], int]] = [
    (CorruptGameError, 4),
    (IllegalOrderError, 3),
    (GameStateError, 5),
    (InvalidOrderError, 2),
    (NotationError, 2),
    (StandoffError, 2),
]


def friendly(func: F) -> F:
    """Turn standoff errors into one line on stderr and a documented exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", storage.VariantChangedWarning)
                warnings.showwarning = _show_warning
                return func(*args, **kwargs)
        except StandoffError as exc:
            click.echo(f"error: {exc}", err=True)
            code = next(c for t, c in EXIT_CODES if isinstance(exc, t))
            sys.exit(code)
        except UnicodeDecodeError as exc:
            click.echo(f"error: input is not UTF-8 text ({exc.reason} at byte {exc.start})",
                       err=True)
            sys.exit(2)
        except BrokenPipeError:
            sys.exit(0)  # output cut short by e.g. `| head`: not an error
        except OSError as exc:
            click.echo(f"error: {exc.strerror or exc}: {getattr(exc, 'filename', '')}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as one line on stderr, like the errors (not Python's file:line form)."""
    click.echo(f"warning: {message}", err=True)


def parse_options(items: tuple[str, ...]) -> Options:
    """The rule options given as :data:`option_flag` (``KEY=VALUE``, repeatable)."""
    return Options.parse(list(items))


option_flag = click.option(
    "--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
    help="Rule option, e.g. paradox=1982 (see 'standoff options').",
)


@click.group()
@click.version_option(package_name="standoff", message=f"%(prog)s %(version)s ({BUILD})")
def cli() -> None:
    """standoff: a Diplomacy adjudicator and judge."""


variant_flag = click.option(
    "--variant", default="standard", show_default=True,
    help="A bundled variant (see 'standoff variants') or a variant file (path ending in .toml).")


def main() -> None:
    cli()
