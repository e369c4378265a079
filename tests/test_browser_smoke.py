"""The browser tests' own machinery: Debian's Chromium starts under Playwright, loads
a page of a real ``standoff serve`` and holds a page session (``browser_fixtures``)."""

from __future__ import annotations

from browser_fixtures import NewContext, csrf, log_in, sign_up_api
from judge_fixtures import Api


def test_chromium_loads_the_judge(new_context: NewContext, web_api: Api) -> None:
    context = new_context()
    page = context.new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto("/docs")
    page.wait_for_selector(".swagger-ui", state="attached")
    assert "standoff judge" in page.title() or "standoff" in page.content()
    assert not failed, failed
    name, _token = sign_up_api(web_api)
    log_in(context, name)
    assert len(csrf(context)) == 64
    me = context.request.get("/api/v1/account")
    assert me.status == 200 and me.json()["username"] == name
