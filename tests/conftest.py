"""Shared pytest set-up: the judge's fixtures (``tests/judge_fixtures.py``)."""

pytest_plugins = ["judge_fixtures"]
