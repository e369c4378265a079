"""Routes of the pages: sign-up, log-in, lobby, game, history, planning board.

Each page checks who is asking the way the API does (the session cookie, through
``auth.optional_caller``) and whether they may see the game (``access.require_view``,
the API's own handler), then renders a template. Changes are never made here:
the pages' scripts send them to the API, which checks the CSRF token, the rules
and the permissions. So there is one implementation of everything, and a page
that renders is a page whose reader the API would answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from standoff import __version__

from .. import auth
from ..access import get_game, require_view, seats_of
from ..auth import Caller, optional_caller
from ..bots import DEFAULT_STAND_IN, bots_on_offer
from ..errors import ApiError
from ..game_view import game_out
from ..models import GameRow
from ..rules import bundled_variants, rule_options
from ..schemas import GameOut
from ..variants import VariantUnavailable

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["version"] = __version__
router = APIRouter(include_in_schema=False)
_PHASE = re.compile(r"^[A-Za-z0-9_.-]{1,20}$")
_BOARD_KEY = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
#: the largest id a game can have (the database's 32-bit integer)
MAX_ID = 2**31 - 1


def page_caller(request: Request) -> Caller | None:
    """The signed-in account, or None (an ended session is simply signed out here:
    a page answers with the log-in form, not a JSON 401)."""
    try:
        return optional_caller(request, request.app.state.judge)
    except ApiError:
        return None


def _login(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)


def _render(request: Request, name: str, who: Caller | None, code: int = 200,
            **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, {"user": who, **context},
                                      status_code=code)


def _error(request: Request, who: Caller | None, exc: ApiError) -> HTMLResponse:
    return _render(request, "error.html", who, exc.status, status=exc.status,
                   detail=exc.detail)


def _game(request: Request, who: Caller, game_id: int) -> GameOut | HTMLResponse:
    """The game as the API shows it to the caller, or the error page it would give
    (an id no game can have, e.g. over 2**31 - 1, is simply not found). A private
    game not the caller's gives the invite page: its script takes the code from the
    box or the address's fragment (``#invite=CODE``, which no server and no Referer
    ever sees) and sends it to the API in a header, and offers the free powers."""
    if not 1 <= game_id <= MAX_ID:
        return _error(request, who, ApiError(404, f"there is no game {game_id}"))
    try:
        j = request.app.state.judge
        with j.db.read() as s:  # as GET /api/v1/games/{id} shows it, without a code
            game = get_game(s, game_id)
            require_view(game, who, seats_of(s, game_id))
            return game_out(s, game, who, j)
    except ApiError as exc:
        if exc.status == 403:  # the one refusal here: a private game not yours
            return _render(request, "invite.html", who, 403, game_id=game_id)
        return _error(request, who, exc)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/lobby") -> Response:
    who = page_caller(request)
    safe_next = auth.safe_next(next)
    if who is not None:
        return RedirectResponse(safe_next, status_code=303)
    return _render(request, "login.html", None, next=safe_next)


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request) -> Response:
    if page_caller(request) is not None:
        return RedirectResponse("/lobby", status_code=303)
    return _render(request, "signup.html", None)


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> Response:
    """Password, e-mail, sessions and tokens (the page's script uses /api/v1/account)."""
    who = page_caller(request)
    if who is None:
        return _login(request)
    return _render(request, "account.html", who,
                   email=auth.account_email(request.app.state.judge, who.user_id))


@router.get("/lobby", response_class=HTMLResponse)
def lobby_page(request: Request) -> Response:
    who = page_caller(request)
    if who is None:
        return _login(request)
    variants = [{"name": v.name, "title": v.title, "powers": v.powers}
                for v in bundled_variants()]
    options = [{"name": n, "values": vs, "description": text, "datc": issue,
                "link": _datc_link(issue)} for n, vs, issue, text in rule_options()]
    # the create form starts at the judge's own defaults (what a game created with no
    # deadlines gets), so the page and the API can never disagree
    deadlines = {phase: _minutes(seconds) for phase, seconds
                 in request.app.state.judge.settings.default_deadlines.items()}
    return _render(request, "lobby.html", who, variants=variants, options=options,
                   deadlines=deadlines, bots=_bots())


#: the DATC's public text, where each rule option's issue is discussed
DATC_URL = "https://webdiplomacy.net/doc/DATC_v3_0.html"


def _datc_link(issue: str) -> str | None:
    """The DATC section of a rule option's issue ("4.A.1" -> its anchor in the DATC's
    public text); None for an option that is not a DATC issue (a variant's own rule)."""
    if not re.fullmatch(r"\d+(\.[A-Z])?(\.\d+)?", issue):
        return None
    return f"{DATC_URL}#{issue}"


def _bots() -> dict[str, Any]:
    """The bots on offer (as ``GET /api/v1/bots`` lists them) and the one a form
    starts at: the judge's own stand-in, so the page never names a bot itself."""
    return {"choices": [{"name": n, "description": d} for n, d in bots_on_offer()],
            "default": DEFAULT_STAND_IN}


def _minutes(seconds: int) -> str:
    """A deadline in the create form's unit: whole minutes, or a fraction for a
    judge set to deadlines of seconds (as tests are)."""
    return str(seconds // 60) if seconds % 60 == 0 else f"{seconds / 60:.4f}".rstrip("0")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: int, invite: str | None = None) -> Response:
    if invite is not None:  # an old link: the code moves to the fragment, off the wire
        return RedirectResponse(f"/games/{game_id}#invite={quote(invite, safe='')}",
                                status_code=303)
    who = page_caller(request)
    if who is None:
        return _login(request)
    game = _game(request, who, game_id)
    if isinstance(game, HTMLResponse):
        return game
    return _render(request, "game.html", who, game=game,
                   names=_names(request, game),
                   is_master=game.master_name == who.username, bots=_bots(),
                   leave=game.your_away.model_dump(mode="json") if game.your_away else None)


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
@router.get("/games/{game_id}/history/{phase}", response_class=HTMLResponse)
def history_page(request: Request, game_id: int, phase: str | None = None) -> Response:
    who = page_caller(request)
    if who is None:
        return _login(request)
    if phase is not None and not _PHASE.match(phase):
        return _error(request, who, ApiError(404, f"there is no phase {phase!r}"))
    game = _game(request, who, game_id)
    if isinstance(game, HTMLResponse):
        return game
    return _render(request, "history.html", who, game=game, phase=(phase or "").upper(),
                   names=_names(request, game))


def _names(request: Request, game: GameOut) -> dict[str, str]:
    """Each power's id and name in the game's variant (its own file for an upload)."""
    j = request.app.state.judge
    with j.db.read() as s:
        row = s.get(GameRow, game.id)
    try:
        return j.variants.rules(row).power_names if row is not None else {}
    except VariantUnavailable:  # set aside until its master retries: its ids will do
        return {p: p.replace("_", " ").title() for p in game.powers}


@router.get("/boards/{key}", response_class=HTMLResponse)
def board_page(request: Request, key: str) -> Response:
    """A planning board (anyone with the link sees it, signed in or not; its owner
    changes it): the shell only, its script reads ``GET /api/v1/boards/{key}``."""
    if not _BOARD_KEY.match(key):
        return _error(request, page_caller(request), ApiError(404, "there is no such board"))
    who = page_caller(request)
    return _render(request, "board.html", who, key=key)


def install_pages(app: FastAPI) -> None:
    """Mount the pages and their static files (served by this server, never a CDN)."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
