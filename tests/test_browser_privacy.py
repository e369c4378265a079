"""Nobody reads another power's pending orders or private press in a page: the DOM
of every page a player (or the master, or an onlooker) can reach, after its scripts
ran (``page.content()``), and every answer the server sent those pages."""

from __future__ import annotations

import random
import re
import uuid

from playwright.sync_api import Page, Response, expect

from browser_fixtures import (
    NewContext,
    log_in,
    open_game,
    player_page,
    seated_game,
    send_orders,
    sign_up_api,
)
from judge_fixtures import Api, play_phase


def secret(label: str) -> str:
    return f"{label}-{uuid.uuid4().hex[:12]}"


def test_no_other_powers_orders_or_press_in_any_page(new_context: NewContext,
                                                     web_api: Api) -> None:
    seats = seated_game(web_api, "standard")
    table, game_id = seats.table, seats.table.id
    # one processed phase (its orders are public now: the history shows them)
    play_phase(web_api, table, random.Random(15))
    assert web_api.game(table)["phase"] == "F1901M"
    pos = web_api.game(table)["position"]["units"]
    # pending orders of France and England (not ready: the phase stays open)
    france = web_api.json("GET", f"/games/{game_id}/legal", table.players["france"])
    england = web_api.json("GET", f"/games/{game_id}/legal", table.players["england"])
    given = {o for orders in web_api.phases(table)[0]["orders"].values() for o in orders}
    fr_orders = [next(o for o in opts if " - " in o and o not in given)
                 for _, opts in sorted(france.items())]
    en_orders = [next(o for o in opts if " - " in o and o not in given)
                 for _, opts in sorted(england.items())]
    send_orders(web_api, seats, {"france": fr_orders, "england": en_orders}, ready=False)
    # press: private France-England, a group without Germany, a public one
    private = secret("private-fr-en")
    group = secret("group-au-it-tu")
    public = secret("public")
    web_api.call("POST", f"/games/{game_id}/messages", table.players["france"],
                 {"to": ["england"], "body": private}, expect=201)
    web_api.call("POST", f"/games/{game_id}/messages", table.players["austria"],
                 {"to": ["italy", "turkey"], "body": group}, expect=201)
    web_api.call("POST", f"/games/{game_id}/messages", table.players["russia"],
                 {"to": "all", "body": public}, expect=201)
    hidden = [private, group]

    def pending(text: str) -> bool:
        """A pending order of France or England in the text, not as part of one of the
        reader's own supports or convoys (``A MUN S A BUR - BEL``)."""
        return any(re.search(rf"(?<![SC] ){re.escape(o)}(?![A-Z/*])", text)
                   for o in fr_orders + en_orders)

    # France's own page shows its orders and its press: the check below can see them
    fr = player_page(new_context, seats.names["france"], f"/games/{game_id}")
    open_game(fr, game_id, "F1901M")
    expect(fr.locator('[data-testid="my-order"]')).to_have_count(len(fr_orders))
    fr.get_by_test_id("conversation-england,france").click()
    expect(fr.get_by_test_id("messages")).to_contain_text(private)
    assert any(o in fr.content() for o in fr_orders)

    readers = {"germany": seats.names["germany"], "master": seats.master_name,
               "onlooker": sign_up_api(web_api)[0]}
    for who, name in readers.items():
        context = new_context()
        answers: list[Response] = []

        def keep(answer: Response, answers: list[Response] = answers) -> None:
            answers.append(answer)

        context.on("response", keep)
        log_in(context, name)
        page = context.new_page()
        seen: dict[str, str] = {}

        def visit(path: str, settle: str, page: Page = page, seen: dict[str, str] = seen) -> None:
            page.goto(path)
            page.locator(settle).first.wait_for(state="attached")
            page.wait_for_load_state("networkidle")
            seen[path] = page.content()

        visit("/lobby", '[data-testid="my-games"] li:not(:has-text("Loading"))')
        visit(f"/games/{game_id}", '[data-testid="conversation-all"]' if who != "onlooker"
              else '[data-testid="powers"] tr[data-power]')
        if who == "germany":  # every conversation tab it has
            tabs = page.locator('[data-testid^="conversation-"]')
            for n in range(tabs.count()):
                tabs.nth(n).click()
                page.wait_for_load_state("networkidle")
                seen[f"tab {n}"] = page.content()
            assert public in seen[f"/games/{game_id}"] or any(public in s for s in seen.values())
        visit(f"/games/{game_id}/history", '[data-testid="history-map"] svg')
        visit(f"/games/{game_id}/history/S1901M", '[data-testid="history-map"] svg')
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
        page.wait_for_load_state("networkidle")
        seen["history after keys"] = page.content()
        for where, html in seen.items():
            for text in hidden:
                assert text not in html, f"{who} reads {text} in {where}"
            assert not pending(html), f"{who} sees France's or England's pending orders in {where}"
        for answer in answers:
            if not answer.url.startswith(page.url.split("/games")[0].split("/lobby")[0]):
                continue
            try:
                body = answer.text()
            except Exception:  # a redirect or an aborted fetch has no body
                continue
            for text in hidden:
                assert text not in body, f"{who}'s page was sent {text} by {answer.url}"
            assert not pending(body), f"{who}'s page was sent pending orders by {answer.url}"
    # the units the pending orders would move are still where they were
    assert web_api.game(table)["position"]["units"] == pos
