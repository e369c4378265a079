"""Fixtures for the tests in a real browser (``tests/test_browser_*.py``).

Playwright for Python drives **Debian's Chromium** (``/usr/bin/chromium``, or
``STANDOFF_TEST_CHROMIUM``; ``.ci/browser.sh`` installs the ``chromium`` package
when it is missing). Playwright's own browser downloads are never used: never run
``playwright install``. If Chromium cannot be started the browser tests FAIL and
say why; they are never skipped.

* ``browser``: one Chromium for the session (headless, the flags of
  :data:`LAUNCH_ARGS`: root in a closed network).
* ``web_server``: one real ``standoff serve`` (:class:`ServerProcess`) for the
  session, on a temporary SQLite file; ``web_api`` drives it over HTTP (httpx),
  for the set-up steps a test is not about.
* ``new_context(...)``: a fresh browser context (its own cookies: one per player),
  with the server as ``base_url``; :data:`PHONE` gives the 390 px phone settings.
  :func:`log_in` gives a context a page session through the API, without the form.
* :func:`screenshot` saves a PNG to ``tests/artifacts/screenshots/`` (ignored by
  git); when a test fails, every page it opened is saved to
  ``tests/artifacts/failures/`` as well.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from judge_fixtures import PASSWORD, Api, ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = os.environ.get("STANDOFF_TEST_CHROMIUM", "/usr/bin/chromium")
#: root in a container with no network: no sandbox, no GPU, nothing fetched
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
FAILURES = ARTIFACTS / "failures"
#: a phone: 390 px wide (an iPhone 12 to 15), touch
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
#: how long a page may take to do something (ms): generous for a loaded 2-core machine
TIMEOUT_MS = 15_000
_names = itertools.count(1)


def unique_name(prefix: str = "player") -> str:
    """A user name no other test of this session (or process) has taken."""
    return f"{prefix}{next(_names)}x{os.getpid()}"


# -- the browser ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for the whole session; a clear failure if it
    cannot start (never a skip)."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError as exc:  # pragma: no cover - the test extra brings it
        pytest.fail(f"the browser tests need Playwright for Python (the 'test' extra: "
                    f"pip install -e '.[test]'): {exc}", pytrace=False)
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} and there is none: run "
                    f"`bash .ci/browser.sh` (installs Debian's chromium package), or set "
                    f"STANDOFF_TEST_CHROMIUM to a Chromium binary. Never `playwright install`.",
                    pytrace=False)
    manager = sync_playwright()
    playwright = manager.start()
    try:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS,
                                              headless=True, timeout=60_000)
    except Error as exc:
        manager.__exit__(None, None, None)
        pytest.fail(f"Chromium ({CHROMIUM}) could not be started by Playwright, so the browser "
                    f"tests cannot run: {exc}", pytrace=False)
    try:
        yield launched
    finally:
        with contextlib.suppress(Exception):
            launched.close()
        manager.__exit__(None, None, None)


# -- the server -------------------------------------------------------------------------

@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``standoff serve`` for the browser tests, on a temporary SQLite file."""
    db = tmp_path_factory.mktemp("browser") / "judge.db"
    server = ServerProcess(f"sqlite:///{db}", STANDOFF_SQLITE_SYNCHRONOUS="NORMAL")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def web_api(web_server: ServerProcess) -> Iterator[Api]:
    """The spec's routes on the browser tests' server, over HTTP."""
    made = web_server.client()
    try:
        yield made
    finally:
        made.client.close()


# -- contexts and pages -------------------------------------------------------------------

@dataclass
class Opened:
    """The contexts a test opened (closed, and saved when it failed, at its end)."""

    contexts: list[BrowserContext]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[
        None, Any, None]:
    """Keep each phase's report on the test item (``rep_call``), for the fixtures."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


NewContext = Callable[..., "BrowserContext"]


@pytest.fixture
def new_context(browser: Browser, web_server: ServerProcess,
                request: pytest.FixtureRequest) -> Iterator[NewContext]:
    """``new_context(**options)``: a fresh context (own cookies) on the server; Playwright's
    context options (e.g. ``**PHONE``) override the desktop defaults."""
    opened = Opened([])

    def make(**options: Any) -> BrowserContext:
        settings = {**DESKTOP, "base_url": web_server.url, **options}
        context = browser.new_context(**settings)
        context.set_default_timeout(TIMEOUT_MS)
        opened.contexts.append(context)
        return context

    yield make
    report = getattr(request.node, "rep_call", None)
    failed = report is not None and report.failed
    for n, context in enumerate(opened.contexts):
        if failed:
            for m, page in enumerate(context.pages):
                with contextlib.suppress(Exception):
                    FAILURES.mkdir(parents=True, exist_ok=True)
                    name = _safe(f"{request.node.name}-{n}-{m}")
                    page.screenshot(path=str(FAILURES / f"{name}.png"), full_page=True)
                    (FAILURES / f"{name}.html").write_text(page.content())
        with contextlib.suppress(Exception):
            context.close()


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:150]


def screenshot(page: Page, name: str, full_page: bool = False) -> Path:
    """Save the page as ``tests/artifacts/screenshots/<name>.png``; its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{_safe(name)}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def sign_up_api(api: Api, name: str | None = None) -> tuple[str, str]:
    """A new account made through the API: its name and a bearer token."""
    name = name or unique_name()
    return name, api.signup(name)


def log_in(context: BrowserContext, username: str, password: str = PASSWORD) -> None:
    """Give the context a page session (the cookies the log-in form would get), through
    ``POST /api/v1/session``: for tests about something other than logging in."""
    response = context.request.post("/api/v1/session",
                                    data={"username": username, "password": password})
    assert response.status == 201, (response.status, response.text()[:300])


def csrf(context: BrowserContext) -> str:
    """The CSRF token of the context's page session (its readable cookie)."""
    for cookie in context.cookies():
        if cookie.get("name") == "standoff_csrf":
            return str(cookie.get("value"))
    raise AssertionError("the context has no standoff_csrf cookie: not logged in")
