"""Every convoy a map could ever see: the routes an action space must be able to name.

A convoy order (``F NTH C A LON - BEL``), the convoyed move it carries and a
support of a move that only a convoy makes possible exist only while fleets
stand on a route. The legal-order generator (``standoff.legal_orders``) finds
routes among the seas that hold fleets now; a fixed action space must name
every such order in advance, so it needs the routes with *every* sea occupied:
a route among occupied seas is a route among all of them.

A route is what ``Board.convoy_route_seas`` accepts: a chain of convoying seas
from a coast ``src`` to a coast ``dst`` with no short cut (only its first sea
touches ``src``, only its last touches ``dst``, and no two seas touch unless
they are consecutive: an induced path). Whether a sea lies on some induced
path between two places is NP-complete in general, and on a big map the paths
are many: The Twentieth Century's 68 seas have hundreds of thousands of
routes of up to 12 fleets, and more beyond. So routes are enumerated level by
level (routes of one fleet, of two, ...) from every coast at once, and the
enumeration stops before the total passes a budget of routes examined: a
map that fits (Standard: 892 routes, every one; Twin Earths: about 97,000)
is covered completely, a bigger one up to the longest route length that fits
(the length used is reported, so an environment can say what it leaves out).
Sharing one search from each coast among all destinations is what makes this
fast: asking ``convoy_route_seas`` pair by pair takes minutes on the same maps.
"""

from __future__ import annotations

from dataclasses import dataclass

from standoff import Board

#: routes examined before the search stops lengthening them (about a second)
ROUTE_BUDGET = 100_000


@dataclass(frozen=True, slots=True)
class ConvoyRoutes:
    """The convoys of one map: for each (army's province, destination), the seas
    on some route between them, and the longest route length included."""

    seas: dict[tuple[str, str], frozenset[str]]
    #: routes of at most this many fleets are included
    max_fleets: int
    #: True when every route of the map is included (the search ran out of routes)
    complete: bool


def convoy_routes(board: Board, max_fleets: int | None = None,
                  budget: int = ROUTE_BUDGET) -> ConvoyRoutes:
    """Every convoy route of ``board`` up to ``max_fleets`` seas long; with None,
    as long as ``budget`` routes examined allow (see the module's docstring)."""
    near = board.neighbours
    convoying, coastal = board.convoyable, board.coastal
    found: dict[tuple[str, str], set[str]] = {}
    # a route so far: (army's province, its seas, the places its seas but the last touch)
    level: list[tuple[str, tuple[str, ...], frozenset[str]]] = [
        (src, (sea,), frozenset()) for src in sorted(coastal)
        for sea in sorted(near[src]) if sea in convoying]
    examined = 0
    length = 0
    while level:
        if max_fleets is not None and length == max_fleets:
            break
        if max_fleets is None and examined + len(level) > budget:
            break
        length += 1
        examined += len(level)
        longer: list[tuple[str, tuple[str, ...], frozenset[str]]] = []
        for src, path, touched in level:
            last = path[-1]
            for dst in near[last]:
                if dst in coastal and dst != src and dst not in touched:
                    found.setdefault((src, dst), set()).update(path)
            touched_now = touched | near[last]
            for sea in sorted(near[last]):
                if sea in convoying and sea not in path and sea not in touched \
                        and src not in near[sea]:
                    longer.append((src, (*path, sea), touched_now))
        level = longer  # the routes one fleet longer: if any are left out, say so
    return ConvoyRoutes({k: frozenset(v) for k, v in found.items()}, length, not level)
