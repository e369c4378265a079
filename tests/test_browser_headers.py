"""The pages under their Content-Security-Policy, and invite codes kept out of URLs
(issue 26, item 12), in a real Chromium against a real ``standoff serve``: every page
(lobby, game, history, log-in, sign-up, the API docs) loads with no CSP violation
reported and works (an order is given on the game page); a private game's link
carries its code in the fragment, and no request's URL or Referer ever holds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import expect

from browser_fixtures import NewContext, log_in, seated_game, sign_up_api
from judge_fixtures import Api

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

#: every CSP violation a page reports, collected before any of its scripts run
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def _watched(context: BrowserContext) -> tuple[Page, list[str]]:
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text)
            if "Content Security Policy" in m.text or m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(f"page error: {e}"))
    return page, console


def _clean(page: Page, console: list[str]) -> None:
    violations = page.evaluate("window.__violations")
    assert violations == [], violations
    assert [m for m in console if "Content Security Policy" in m or "page error" in m] == []


def test_every_page_runs_under_its_policy(new_context: NewContext, web_api: Api) -> None:
    # logged out: log-in and sign-up, and the API docs
    page, console = _watched(new_context())
    for path, ready in (("/login", "login-form"), ("/signup", "signup-form")):
        page.goto(path)
        expect(page.get_by_test_id(ready)).to_be_visible()
        _clean(page, console)
    page.goto("/docs")
    expect(page.locator(".swagger-ui .info")).to_be_visible()
    expect(page.locator(".opblock").first).to_be_visible()
    _clean(page, console)
    # a player: lobby, game (an order given), history
    seats = seated_game(web_api)
    context = new_context()
    log_in(context, seats.names["france"])
    page, console = _watched(context)
    page.goto("/lobby")
    expect(page.get_by_test_id(f"game-link-{seats.table.id}")).to_be_visible()
    _clean(page, console)
    page.goto(f"/games/{seats.table.id}")
    expect(page.locator("[data-testid=map] svg")).to_be_visible()
    page.get_by_test_id("order-text").fill("A PAR - BUR")
    page.get_by_test_id("order-add").click()
    expect(page.locator('[data-testid="my-order"][data-order="A PAR - BUR"]')).to_have_count(1)
    _clean(page, console)
    page.goto(f"/games/{seats.table.id}/history")
    expect(page.get_by_test_id("history-map")).to_be_visible()
    _clean(page, console)


def test_an_invite_link_keeps_the_code_off_the_wire(new_context: NewContext,
                                                     web_api: Api) -> None:
    master_name, master = sign_up_api(web_api)
    game = web_api.new_game(master, name="Friends only", private=True)
    code = game["invite"]
    master_context = new_context()
    log_in(master_context, master_name)
    master_page = master_context.new_page()
    master_page.goto(f"/games/{game['id']}")
    link = master_page.get_by_test_id("invite-link-shown").get_attribute("href")
    assert link == f"/games/{game['id']}#invite={code}"

    friend_name, _ = sign_up_api(web_api)
    context = new_context()
    log_in(context, friend_name)
    page, console = _watched(context)
    sent: list[tuple[str, str]] = []
    page.on("request", lambda r: sent.append((r.url, r.headers.get("referer", ""))))
    page.goto(link)
    page.get_by_test_id("join-germany").click()
    page.wait_for_url(f"**/games/{game['id']}")
    expect(page.get_by_test_id("my-power")).to_contain_text("Germany")
    _clean(page, console)
    assert sent, "no requests seen"
    leaks = [(url, referer) for url, referer in sent if code in url or code in referer]
    assert leaks == []
    assert code not in page.url
