"""One order kind, one place: the kinds, their registry, and the dispatches that
must handle every kind.

Each kind is a module of ``standoff/core/orders`` (fields, notation, ``kind``,
phase, legality checks); ``orders/__init__.py`` lists the kinds (``OrderKind``
and the union of each phase). Everything else that treats kinds differently is
a ``match`` ending in ``assert_never``, so adding a kind makes mypy name every
dispatch that must say what the new kind does: the last test proves it by
adding a kind to a copy of the package.
"""

from __future__ import annotations

import ast
import copy
import pickle
import re
import shutil
import typing
from pathlib import Path

import pytest

from standoff import (
    COMPILED,
    IllegalOrderError,
    Order,
    Phase,
    PhaseKind,
    Position,
    adjudicate,
    check_order,
    load_variant,
    narrow_order,
    parse_order,
)
from standoff.core import orders as orders_module
from standoff.core.geography import UnitType
from standoff.core.legal_orders import _changes_board
from standoff.core.orders import (
    ORDER_CLASSES,
    AdjustmentOrder,
    AnyOrder,
    MovementOrder,
    OrderKind,
    RetreatOrder,
)
from standoff.core.position import Dislodged, Unit
from standoff.render.svg import render_svg

ROOT = Path(__file__).resolve().parent.parent
V = load_variant("standard")

#: one order of every kind
SAMPLES = {
    "hold": "A PAR H", "move": "A PAR - BUR", "support_hold": "A MAR S A PAR",
    "support_move": "A MAR S A PAR - BUR", "convoy": "F ENG C A LON - BRE",
    "no_convert": "F BRE NO CONVERT", "permit": "PAR PERMIT ITALY", "retreat": "A PAR R BUR",
    "disband": "A PAR D", "build": "BUILD A PAR", "remove": "REMOVE A PAR", "waive": "WAIVE",
}
PHASE_OF = {MovementOrder: PhaseKind.MOVEMENT, RetreatOrder: PhaseKind.RETREAT,
            AdjustmentOrder: PhaseKind.ADJUSTMENT}


def _sample(kind: str) -> Order:
    return parse_order(SAMPLES[kind], V)


def test_the_registry_lists_every_kind_once() -> None:
    """OrderKind names exactly the kinds of the classes, each phase's union holds
    the kinds given in that phase, and AnyOrder is the phases' unions together."""
    kinds = typing.get_args(OrderKind)
    assert sorted(kinds) == sorted(SAMPLES)
    assert sorted(_sample(k).kind for k in kinds) == sorted(kinds)
    assert {type(_sample(k)) for k in kinds} == set(ORDER_CLASSES)
    in_phases = [c for union in PHASE_OF for c in typing.get_args(union)]
    assert sorted(c.__name__ for c in in_phases) == sorted(c.__name__ for c in ORDER_CLASSES)
    assert set(typing.get_args(AnyOrder)) == set(ORDER_CLASSES)
    for union, phase in PHASE_OF.items():
        for kind in kinds:
            order = _sample(kind)
            assert (order.phase is phase) == (type(order) in typing.get_args(union)), kind


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_kind_lives_in_its_module(kind: str) -> None:
    """The class of a kind is defined in the module named after the kind (the two
    supports share support.py), with its notation: str() parses back, repr too."""
    order = _sample(kind)
    cls = type(order)
    module = "support" if kind.startswith("support") else kind
    assert cls.__module__ == f"standoff.core.orders.{module}"
    assert getattr(orders_module, cls.__name__) is cls
    assert parse_order(str(order), V) == order
    assert repr(order) == f"Order.parse({str(order)!r})"
    assert narrow_order(order) is order


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_kind_is_an_immutable_value(kind: str) -> None:
    """Orders are shared by the parser's and the legal orders' tables, so no
    attribute may change after the constructor (in both builds: Final attributes
    compiled, a write-once __setattr__ in pure Python)."""
    order = _sample(kind)
    again = pickle.loads(pickle.dumps(order))
    assert again == order and hash(again) == hash(order) and again is not order
    assert copy.copy(order) == order and parse_order(str(order), V) == order
    for name in ("unit", "location", *(a for a in ("dest", "target", "power")
                                       if hasattr(order, a))):
        before = getattr(order, name)
        with pytest.raises(AttributeError):
            setattr(order, name, "x")
        with pytest.raises(AttributeError):
            delattr(order, name)
        assert getattr(order, name) == before
    other = next(o for k, o in ((k, _sample(k)) for k in sorted(SAMPLES)) if k != kind)
    assert order != other and (order == str(order)) is False


@pytest.mark.skipif(COMPILED, reason="compiled classes cannot be subclassed in Python")
def test_an_order_of_no_known_kind_is_refused() -> None:
    class Teleport(Order):  # a kind nobody registered
        pass

    with pytest.raises(TypeError, match="Teleport"):
        narrow_order(Teleport(None, "par"))
    with pytest.raises(NotImplementedError):
        _ = Teleport(None, "par").kind


def _positions() -> dict[PhaseKind, Position]:
    start = Position.initial(V)
    return {
        PhaseKind.MOVEMENT: start,
        PhaseKind.RETREAT: Position(V.name, Phase(1901, 0, PhaseKind.RETREAT),
                                    tuple(u for u in start.units if u.location != "par"),
                                    start.centres,
                                    (Dislodged(Unit("france", UnitType.ARMY, "par"), "pic"),)),
        PhaseKind.ADJUSTMENT: Position(V.name, Phase(1901, 1, PhaseKind.ADJUSTMENT),
                                       tuple(u for u in start.units if u.location != "par"),
                                       start.centres),
    }


@pytest.mark.parametrize("phase", list(PhaseKind))
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_kind_in_every_phase_is_checked_and_adjudicated(kind: str, phase: PhaseKind
                                                              ) -> None:
    """Each phase's check either accepts a kind (as an order of that phase: a move
    in a retreat phase is a retreat, a disband in an adjustment phase a removal)
    or refuses it with a reason; adjudication never trips over a kind."""
    position = _positions()[phase]
    order = _sample(kind)
    union = {PhaseKind.MOVEMENT: MovementOrder, PhaseKind.RETREAT: RetreatOrder,
             PhaseKind.ADJUSTMENT: AdjustmentOrder}[phase]
    try:
        checked = check_order(position, "france", order)
    except IllegalOrderError as exc:
        assert exc.reason
    else:
        assert type(checked) in typing.get_args(union)
    result = adjudicate(position, {"france": [order]})
    assert any(r.order is not None and r.power == "france" for r in result.results)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_kind_is_drawn_and_rated_by_the_bots(kind: str) -> None:
    order = _sample(kind)
    assert _changes_board(order) == (kind in ("move", "retreat", "build", "remove"))
    svg = render_svg(Position.initial(V), orders={"france": [order]})
    assert svg.startswith("<svg")


#: every dispatch on kinds, by file and function: where a new kind must be handled
DISPATCHES = {
    ("core/adjudicator.py", "_movement"),  # noted instructions vs orders for the resolver
    ("core/movement.py", "_classify"),  # the movement classifier
    ("core/adjustments.py", "_builds"),
    ("core/adjustments.py", "_removals"),
    ("core/legal_orders.py", "_changes_board"),  # what a biased random player prefers
    ("render/svg.py", "_order"),  # how an order is drawn
    ("core/record.py", "_slot_kind"),  # where a pending order is kept
}


def _function_at(path: Path, line: int) -> str:
    """The innermost function of ``path`` containing ``line``."""
    best = ""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            best = node.name
    return best


def test_adding_a_kind_makes_mypy_name_every_dispatch(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A new movement kind, added to a copy of the package as the kinds' docstring
    says (its module, OrderKind, its phase's union): mypy then fails at each
    dispatch of the list above, and nowhere else."""
    api = pytest.importorskip("mypy.api")
    pkg = tmp_path / "standoff"
    shutil.copytree(ROOT / "src" / "standoff", pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "judge", "cli"))
    (pkg / "core" / "orders" / "teleport.py").write_text(
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "from typing import Literal, final\n"
        "from ..phase import PhaseKind\n"
        "from .base import Order\n\n\n"
        "@final\n"
        "@dataclass(frozen=True, slots=True, repr=False)\n"
        "class Teleport(Order):\n"
        "    @property\n"
        "    def kind(self) -> Literal['teleport']:\n"
        "        return 'teleport'\n\n"
        "    @property\n"
        "    def phase(self) -> PhaseKind:\n"
        "        return PhaseKind.MOVEMENT\n")
    init = pkg / "core" / "orders" / "__init__.py"
    text = init.read_text()
    registry = ((r"\nOrderKind = Literal\[", '\nOrderKind = Literal["teleport", '),
                (r"\nMovementOrder = ", "\nMovementOrder = Teleport | "),
                (r"\nfrom \.waive import", "\nfrom .teleport import Teleport\nfrom .waive import"))
    for old, new in registry:
        text, n = re.subn(old, new, text)
        assert n == 1, old
    init.write_text(text)
    monkeypatch.chdir(tmp_path)  # mypy reads the copy, not the installed package
    out, err, status = api.run(["--strict", "--no-incremental", "--config-file", "",
                                "--cache-dir", str(tmp_path / "cache"),
                                "--ignore-missing-imports", "-p", "standoff.core",
                                "-p", "standoff.render"])
    errors = re.findall(r"^(standoff/[\w/]+\.py):(\d+): error: (.*)$", out, re.M)
    assert status == 1 and errors, out + err
    found = set()
    for path, line, message in errors:
        assert "assert_never" in message and "teleport" in message.lower(), (path, message)
        found.add((path.removeprefix("standoff/"), _function_at(tmp_path / path, int(line))))
    assert found == DISPATCHES


def test_each_order_module_names_where_its_kind_is_checked_adjudicated_and_listed() -> None:
    """One order kind's whole meaning is found from its module: the docstring of
    each kind's module names the modules that check, adjudicate and list it,
    and every module it names exists (a rename that forgets them fails here)."""
    core = ROOT / "src" / "standoff" / "core"
    for path in sorted((core / "orders").glob("*.py")):
        if path.name in ("__init__.py", "base.py"):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        for step in ("* read:", "* checked:", "* listed:", "* drawn:"):
            assert step in doc, f"{path.name} does not say where it is {step[2:-1]}"
        assert "* adjudicated:" in doc or "* acted on:" in doc, path.name
        named = set(re.findall(r"``([a-z_/]+\.py)``", doc))
        assert "legal_orders.py" in named, path.name
        for name in named:
            where = core.parent / name if name.startswith("render/") else core / name
            if not where.exists():
                where = core / "orders" / name
            assert where.exists(), f"{path.name} names {name}, which does not exist"
