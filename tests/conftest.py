"""Shared pytest set-up: the judge's fixtures (``tests/judge_fixtures.py``) and the
browser tests' (``tests/browser_fixtures.py``)."""

pytest_plugins = ["judge_fixtures", "browser_fixtures"]
