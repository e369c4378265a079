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
import os
import re
import uuid
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from judge_fixtures import PASSWORD, Api, ServerProcess, Table

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


def unique_name(prefix: str = "player", length: int | None = None) -> str:
    """A user name nobody has taken: ``prefix-`` and six hex digits (a fixed length, so
    the pages' layout does not change from run to run), padded to ``length`` (at most
    32, the longest name the judge takes) when given."""
    name = f"{prefix}-{uuid.uuid4().hex[:6]}"
    if length is not None:
        name = (name + "_" + "longname" * 4)[:length]
    return name


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
    name = name or unique_name("player")
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


# -- set-up through the API and the forms ---------------------------------------------------

@dataclass
class Seats:
    """A started game made through the API: its table (tokens) and each power's
    player's name (to log a browser context in as them)."""

    table: Table
    master_name: str
    names: dict[str, str]


def seated_game(api: Api, variant: str = "standard", name_length: int | None = None,
                **fields: Any) -> Seats:
    """A game of ``variant`` with every power taken (so started), through the API; its
    players' names are the power's first three letters and six hex digits (padded to
    ``name_length``, when given)."""
    master_name, master = sign_up_api(api, unique_name("master", name_length))
    game = api.new_game(master, variant=variant, name=f"{variant} {unique_name('game')}",
                        **fields)
    seats = Seats(Table(game["id"], master), master_name, {})
    for power in game["powers"]:
        name, token = sign_up_api(api, unique_name(power[:3], name_length))
        body: dict[str, Any] = {"power": power}
        if game.get("invite"):
            body["invite"] = game["invite"]
        api.call("POST", f"/games/{game['id']}/seats", token, body, expect=201)
        seats.table.players[power] = token
        seats.names[power] = name
    return seats


def send_orders(api: Api, seats: Seats, orders: dict[str, list[str]],
                ready: bool = True) -> None:
    """Each power's orders through the API (and its ready flag)."""
    for power, listed in orders.items():
        token = seats.table.players[power]
        api.call("PUT", f"/games/{seats.table.id}/orders", token, {"orders": listed},
                 expect=200)
        if ready:
            api.call("POST", f"/games/{seats.table.id}/ready", token, {"ready": True},
                     expect=200)


def process_now(api: Api, seats: Seats) -> dict[str, Any]:
    """The master processes the phase now; the game after it."""
    phase = api.game(seats.table)["phase"]
    api.call("POST", f"/games/{seats.table.id}/master/process", seats.table.master, expect=200)
    return api.wait_phase(seats.table, phase)


def sign_up(page: Page, name: str, password: str = PASSWORD) -> None:
    """Sign up through the form; the page lands in the lobby, logged in."""
    page.goto("/signup")
    page.get_by_test_id("signup-username").fill(name)
    page.get_by_test_id("signup-password").fill(password)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(re.compile(r"/lobby$"))
    page.get_by_test_id("nav-user").wait_for()
    assert page.get_by_test_id("nav-user").inner_text().strip() == name


def player_page(new_context: NewContext, username: str, path: str = "/lobby",
                **options: Any) -> Page:
    """A new context logged in as ``username`` (through the API) and a page on ``path``."""
    context = new_context(**options)
    log_in(context, username)
    page = context.new_page()
    page.goto(path)
    return page


# -- the game page's map ------------------------------------------------------------------

#: a point of the map (client coordinates) where a click lands on ``loc``: on its unit,
#: or on its space where no name, line or other space's shape covers it
_POINT_ON = """([loc, unitFirst]) => {
  const box = document.querySelector('[data-testid="map"]');
  if (!box) return null;
  const base = (s) => (s || '').toLowerCase().split('/')[0];
  const at = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !box.contains(hit)) return null;
    const u = hit.closest('[data-unit]'), s = hit.closest('[data-space]');
    return u ? base(u.dataset.location) : s ? base(s.dataset.space) : null;
  };
  const units = [...box.querySelectorAll('[data-unit]')].filter(
    (u) => base(u.dataset.location) === loc);
  const spaces = [...box.querySelectorAll('[data-space]')].filter(
    (s) => base(s.dataset.space) === loc);
  const b = box.getBoundingClientRect();
  for (const node of unitFirst ? [...units, ...spaces] : [...spaces, ...units]) {
    const r = node.getBoundingClientRect();
    const points = [[r.left + r.width / 2, r.top + r.height / 2]];
    for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
      points.push([r.left + r.width * i / 24, r.top + r.height * j / 24]);
    }
    for (const [x, y] of points) {
      if (x < b.left || x > b.right || y < b.top || y > b.bottom) continue;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (at(x, y) === loc) return [x, y];
    }
  }
  return null;
}"""


def map_point(page: Page, location: str, unit_first: bool = True) -> tuple[float, float]:
    """A point of the page (client coordinates) where a click lands on ``location``."""
    loc = location.lower().split("/")[0]
    box = page.get_by_test_id("map")
    box.locator("svg").first.wait_for()
    box.scroll_into_view_if_needed()
    point = page.evaluate(_POINT_ON, [loc, unit_first])
    if point is None:
        raise AssertionError(f"no visible point of {location} on the map to click")
    return float(point[0]), float(point[1])


def click_map(page: Page, location: str, tap: bool = False, unit_first: bool = True) -> None:
    """Click (or, on a touch screen, tap) the game page's map on ``location`` (a space id
    such as ``bur``, ``mun1`` or ``par*``; a coast's province): on the unit there when
    there is one, else on a visible point of its space, as a player would."""
    x, y = map_point(page, location, unit_first)
    if tap:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def map_units(page: Page) -> dict[str, str]:
    """The units drawn on the game page's map: location (lower case, coast included) to
    ``"<A|F> <power>"``; once the map shows the phase the page names (its panel may
    name the new phase a moment before the new map has come)."""
    page.wait_for_function("""() => {
        const box = document.querySelector('[data-testid="map"]');
        const svg = box && box.querySelector('svg');
        const named = document.querySelector(
            '[data-testid="game-phase"], [data-testid="board-phase"]');
        if (!svg) return false;
        if (!named || box.dataset.showing === 'last') return true;
        return svg.dataset.phase === named.textContent.trim();
    }""")
    found: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="map"] [data-unit]')].map(
              (u) => [u.dataset.location, u.dataset.unit.split(' ')[0], u.dataset.power])""")
    return {loc.lower(): f"{kind} {power}" for loc, kind, power in found}


# -- ordering on the game page ------------------------------------------------------------

def order_by_clicks(page: Page, unit: str, kind: str, *targets: str, expected: str,
                    option: str | None = None, tap: bool = False) -> None:
    """Click the unit (or site) ``unit`` on the map, the order kind, then each target on
    the map (and ``option`` among the offered orders, when several are left: a coast,
    a unit type, "by land" or "by convoy", whose buttons carry the order's canonical
    text as ``data-order``): the order ``expected`` is in the player's list afterwards."""
    from playwright.sync_api import expect

    click_map(page, unit, tap=tap)
    kind_button = page.get_by_test_id(f"order-kind-{kind}")
    if tap:
        kind_button.tap()
    else:
        kind_button.click()
    for target in targets:
        click_map(page, target, tap=tap, unit_first=True)
    listed = page.locator(f'[data-testid="my-order"][data-order="{expected}"]')
    offered = page.locator(f'[data-testid="order-option"][data-order="{option or expected}"]')
    if option is None:  # sent at once, or several orders left (a move by land or by convoy)?
        listed.or_(offered).first.wait_for()
    if option is not None or not listed.count():
        if tap:
            offered.tap()
        else:
            offered.click()
    expect(listed).to_have_count(1)
    expect(page.get_by_test_id("order-error")).to_be_empty()


def order_by_text(page: Page, *lines: str) -> None:
    """Type orders in the text box and add them; no error shown."""
    from playwright.sync_api import expect

    page.get_by_test_id("order-text").fill("\n".join(lines))
    page.get_by_test_id("order-add").click()
    expect(page.get_by_test_id("order-text")).to_have_value("")
    expect(page.get_by_test_id("order-error")).to_be_empty()


def my_orders(page: Page) -> list[str]:
    return [str(o) for o in page.locator('[data-testid="my-order"]').evaluate_all(
        "(els) => els.map((e) => e.dataset.order)")]


def ready(page: Page, last: bool = False) -> None:
    """Click "I'm ready"; the toggle shows it (unless this was the last power, whose
    ready processes the phase at once: the page then shows the next phase, not ready)."""
    from playwright.sync_api import expect

    toggle = page.get_by_test_id("ready-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    phase = page.get_by_test_id("game-phase").inner_text()
    if int(toggle.get_attribute("data-unordered") or "0"):  # the page asks first (issue 29 §3)
        page.once("dialog", lambda dialog: dialog.accept())
    toggle.click()
    if last:
        expect(page.get_by_test_id("game-phase")).not_to_have_text(phase)
    else:
        expect(toggle).to_have_attribute("aria-pressed", "true")


def all_ready(pages: list[Page]) -> None:
    for n, page in enumerate(pages):
        ready(page, last=n == len(pages) - 1)


def open_game(page: Page, game_id: int, phase: str) -> None:
    """(Re)load the game page and wait until its scripts have shown ``phase`` and the map."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    try:
        page.goto(f"/games/{game_id}")
    except PlaywrightError as exc:
        # the page reloaded itself at that moment (a forming game's page does when the
        # game starts): it is on the same address, load it once more
        if "interrupted by another navigation" not in str(exc):
            raise
        page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id("game-phase")).to_have_text(phase)
    page.get_by_test_id("map").locator("svg").wait_for()
    if page.get_by_test_id("orders-panel").count():  # a player's: their orders are loaded
        page.locator('[data-testid="order-locations"] button, '
                     '[data-testid="order-locations"] span').first.wait_for()


#: Standard 1901 without a dislodgement: every power gains centres (the builds of Winter)
OPENINGS_1901: list[dict[str, list[str]]] = [
    {"austria": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
     "england": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
     "france": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
     "germany": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
     "italy": ["A VEN H", "A ROM - APU", "F NAP - ION"],
     "russia": ["F STP/SC - BOT", "A MOS - UKR", "F SEV - RUM", "A WAR H"],
     "turkey": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"]},
    {"austria": ["F ALB - GRE", "A SER H", "A GAL H"],
     "england": ["F NWG - NWY", "F NTH H", "A YOR H"],
     "france": ["A BUR - BEL", "F MAO - POR", "A MAR - SPA"],
     "germany": ["A RUH - HOL", "F DEN H", "A KIE H"],
     "italy": ["F ION C A APU - TUN", "A APU - TUN", "A VEN H"],
     "russia": ["F BOT - SWE", "F RUM H", "A UKR H", "A WAR H"],
     "turkey": ["A BUL H", "F BLA H", "A ARM H"]},
    {"austria": ["BUILD A VIE", "BUILD A BUD"], "england": ["BUILD F LON"],
     "france": ["BUILD A PAR", "BUILD F BRE", "BUILD A MAR"],
     "germany": ["BUILD A BER", "BUILD A MUN"], "italy": ["BUILD F NAP"],
     "russia": ["BUILD A MOS", "BUILD F SEV"], "turkey": ["BUILD F ANK"]},
]


def played_1901(api: Api) -> Seats:
    """A Standard game with 1901 played through the API (:data:`OPENINGS_1901`):
    three processed phases, now in Spring 1902."""
    seats = seated_game(api, "standard")
    for orders in OPENINGS_1901:
        phase = api.game(seats.table)["phase"]
        send_orders(api, seats, orders)
        api.wait_phase(seats.table, phase, timeout=30)
    assert api.game(seats.table)["phase"] == "S1902M"
    return seats


def a_legal_move(api: Api, seats: Seats, power: str) -> dict[str, Any]:
    """One legal move of ``power`` (the engine's own option, as ``GET .../legal/options``
    gives it), or a build in a variant that starts with builds (the Twentieth
    Century's Winter 1900)."""
    table = api.json("GET", f"/games/{seats.table.id}/legal/options", seats.table.players[power])
    for kind in ("move", "build"):
        for options in table.values():
            for option in options:
                if option["kind"] == kind:
                    return dict(option)
    raise AssertionError(f"{power} has no move nor build")


def refuse_dialogs(page: Page) -> list[str]:
    """Dismiss the page's next question (a confirm()), keeping what it asked: the list
    fills when it is asked. Call again before each question to refuse."""
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()
    page.once("dialog", refuse)
    return asked


def no_sideways_scroll(page: Page) -> None:
    """Nothing on the page is wider than its viewport (no sideways scrolling)."""
    width = int(page.evaluate("document.documentElement.scrollWidth"))
    viewport = page.viewport_size
    assert viewport is not None
    assert width <= viewport["width"], (
        f"{page.url} is {width} px wide in a {viewport['width']} px viewport")


# -- games with bots, through the pages -------------------------------------------------

def create_game_by_form(page: Page, name: str, variant: str = "standard",
                        power: str | None = None, empty: str = "wait",
                        fill_bot: str | None = None, hours: float | None = None,
                        bots: dict[str, str] | None = None,
                        takeover: tuple[int, str] | None = None) -> int:
    """Fill the lobby's create form as a person would and create the game; its id (the
    page is then on the game's page). ``power``: the creator's own; ``empty``:
    ``wait``, ``now`` (bots take every other seat at once) or ``later`` (those still
    empty after ``hours``), with ``fill_bot``; ``bots``: a bot for chosen powers;
    ``takeover``: (missed phases, bot)."""
    page.goto("/lobby")
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-variant").select_option(variant)
    if power is not None:
        page.get_by_test_id("create-power").select_option(power)
    page.get_by_test_id(f"create-empty-{empty}").check()
    if hours is not None:
        page.get_by_test_id("create-join-hours").fill(str(hours))
    if fill_bot is not None:
        page.get_by_test_id("create-fill-bot").select_option(fill_bot)
    if bots:
        page.locator("#create-bots-box > summary").click()
        for p, bot in bots.items():
            page.get_by_test_id(f"create-bot-{p}").select_option(bot)
    if takeover is not None:
        page.get_by_test_id("create-takeover").check()
        page.get_by_test_id("create-takeover-after").fill(str(takeover[0]))
        page.get_by_test_id("create-takeover-bot").select_option(takeover[1])
    page.get_by_test_id("create-submit").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def seat_badges(page: Page, kind: str) -> dict[str, str]:
    """The powers table's badges of ``kind`` (``bot``, ``away``, ``open``): power to
    the badge's text."""
    found: list[list[str]] = page.get_by_test_id("powers").locator(
        f'[data-testid^="{kind}-"]').evaluate_all(
        "(els) => els.map((e) => [e.dataset.testid, e.textContent])")
    return {testid.split("-", 1)[1]: text for testid, text in found}
