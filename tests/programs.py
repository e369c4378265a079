"""The programs the test command installs (``.ci/*.sh``), found on PATH or the test
fails saying how to install them: never skipped, since a check that did not run
must not read as one that passed."""

from __future__ import annotations

import shutil

import pytest


def program(name: str, install: str) -> str:
    """The path of ``name``; a failure naming the script that installs it."""
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"`{name}` is not installed: run {install}", pytrace=False)
    return found
