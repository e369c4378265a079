"""Logging in and the account page in a real browser (Chromium, ``browser_fixtures``).

Issue 26, item 6: ``/login?next=/\\evil.example/x`` and ``next=/<TAB>/host`` passed the
server's "starts with /, not //" check, and the page's script navigated there:
Chromium reads a backslash as a slash and drops tabs, so it went to
``http://evil.example/x``. Whatever ``next`` says, a log-in ends on the judge's own
origin: the server refuses such a ``next``, and the script (checked here on its own,
with the server's check bypassed) resolves it with the browser's URL parser and
keeps it only when its origin is the page's.

Issue 26, item 4: while strangers' guesses keep an account's password out from
addresses its owner never used, the owner signs in on the log-in page with a
one-time code mailed to them (a real SMTP server, aiosmtpd), then sets a new
password on the account page without the old one.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from browser_fixtures import NewContext, sign_up_api
from judge_fixtures import PASSWORD, Api, ServerProcess
from test_judge_accounts import wait_code
from test_judge_mail import smtp_server

EVIL = ["/\\evil.example/x", "/\t/evil.example/x", "/\n/evil.example", "//evil.example/x",
        "/\\/evil.example", "https://evil.example/x", "http:evil.example", "/ /evil.example",
        "\\\\evil.example", "javascript:alert(1)"]


def _log_in_with_form(page: Page, name: str) -> None:
    page.get_by_test_id("login-username").fill(name)
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login-submit").click()


def _lands_home(page: Page, origin: str) -> None:
    """The page left the log-in form, and is still on the judge's origin (``http:x``
    is the same-origin path ``/x``, for instance: harmless)."""
    try:
        page.wait_for_url(lambda url: urlsplit(url).path != "/login")
    except PlaywrightError as exc:  # e.g. net::ERR_NAME_NOT_RESOLVED: it went elsewhere
        raise AssertionError(f"the log-in left the judge: {exc.message.splitlines()[0]}") \
            from exc
    page.wait_for_load_state()
    got = urlsplit(page.url)
    assert f"{got.scheme}://{got.netloc}" == origin, page.url


def test_log_in_never_leaves_the_judge(new_context: NewContext, web_api: Api) -> None:
    name, _ = sign_up_api(web_api)
    origin = web_api.client.base_url.scheme + "://" + web_api.client.base_url.netloc.decode()
    for evil in EVIL:
        # as the attacker's link gives it: the server must not pass it on
        page = new_context().new_page()
        page.goto("/login?next=" + quote(evil, safe=""))
        _log_in_with_form(page, name)
        _lands_home(page, origin)
        page.context.close()
        # as if the server had passed it on: the script must not follow it either
        page = new_context().new_page()
        page.goto("/login")
        page.get_by_test_id("login-form").evaluate("(f, next) => { f.dataset.next = next; }",
                                                   evil)
        _log_in_with_form(page, name)
        _lands_home(page, origin)
        page.context.close()
    # a path of the judge's own is followed, query and fragment included
    page = new_context().new_page()
    page.goto("/login?next=" + quote("/account?tab=1#tokens", safe=""))
    _log_in_with_form(page, name)
    page.wait_for_url(re.compile(r"/account\?tab=1#tokens$"))


def test_the_account_page(new_context: NewContext, web_api: Api) -> None:
    name, bot = sign_up_api(web_api)
    page = new_context().new_page()
    page.goto("/login?next=/account")
    _log_in_with_form(page, name)
    page.wait_for_url(re.compile(r"/account$"))
    # the bot's token and this page session, the current one marked; no secret shown
    tokens = page.get_by_test_id("token-list").locator("li")
    expect(tokens).to_have_count(2)
    expect(tokens.nth(1)).to_contain_text("(this one)")
    assert bot not in page.content()
    # the e-mail address
    page.get_by_test_id("email-input").fill("someone@example.org")
    page.get_by_test_id("email-submit").click()
    expect(page.get_by_test_id("email-done")).to_contain_text("someone@example.org")
    assert web_api.json("GET", "/account", bot)["email"] == "someone@example.org"
    # a weak new password is refused with the reason; a good one revokes the bot's token
    page.get_by_test_id("password-current").fill(PASSWORD)
    page.get_by_test_id("password-new").fill("12345678")
    page.get_by_test_id("password-submit").click()
    expect(page.get_by_test_id("password-error")).to_contain_text("too easy to guess")
    page.get_by_test_id("password-new").fill("another correct horse")
    page.get_by_test_id("password-submit").click()
    expect(page.get_by_test_id("password-done")).to_contain_text("Password changed")
    expect(tokens).to_have_count(1)
    web_api.call("GET", "/account", bot, expect=401)
    # sign out everywhere: back to the log-in page, and the session is gone
    page.get_by_test_id("revoke-all").click()
    page.wait_for_url(re.compile(r"/login"))
    page.goto("/account")
    page.wait_for_url(re.compile(r"/login\?next="))


def test_a_locked_out_owner_signs_in_with_a_mailed_code(new_context: NewContext,
                                                        servers: list[ServerProcess],
                                                        tmp_path: Path) -> None:
    with smtp_server() as (inbox, port):
        server = ServerProcess(f"sqlite:///{tmp_path / 'judge.db'}",
                               STANDOFF_SQLITE_SYNCHRONOUS="NORMAL",
                               STANDOFF_SMTP_HOST="127.0.0.1", STANDOFF_SMTP_PORT=str(port))
        servers.append(server.start())
        # the owner signed up (from elsewhere); strangers then guessed at the name from
        # eleven addresses, so from this browser's address the password gets 429
        with httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(
                local_address="127.0.4.1")) as home:
            assert home.post("/api/v1/accounts", json={
                "username": "sam", "password": PASSWORD,
                "email": "sam@example.org"}).status_code == 201
        for i in range(11):
            with httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(
                    local_address=f"127.0.4.{i + 10}")) as stranger:
                stranger.post("/api/v1/session", json={"username": "sam", "password": "guess"})
        page = new_context(base_url=server.url).new_page()
        page.goto("/login?next=/account")
        _log_in_with_form(page, "sam")
        expect(page.get_by_test_id("login-error")).to_contain_text("sign in with a one-time code")
        # the refused name is carried to the code form
        expect(page.get_by_test_id("code-username")).to_have_value("sam")
        expect(page.get_by_test_id("code-form")).to_be_hidden()
        page.get_by_test_id("code-ask").click()
        expect(page.get_by_test_id("code-sent")).to_contain_text("on its way")
        code = wait_code(inbox, "sam@example.org")
        page.get_by_test_id("code-input").fill(code.lower())
        page.get_by_test_id("code-submit").click()
        page.wait_for_url(re.compile(r"/account$"))
        # a new password, without the forgotten one
        expect(page.get_by_test_id("password-current")).to_have_attribute(
            "placeholder", re.compile("not needed"))
        page.get_by_test_id("password-new").fill("a freshly minted staple")
        page.get_by_test_id("password-submit").click()
        expect(page.get_by_test_id("password-done")).to_contain_text("Password changed")
        # and from this address, known now, the new password works despite the guesses
        assert page.context.request.post("/api/v1/session", data={
            "username": "sam", "password": "a freshly minted staple"}).status == 201
