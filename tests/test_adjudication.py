"""Movement-phase details that case files cannot express: stand-off provinces and
the reasons given for failed orders."""

from __future__ import annotations

from standoff import Position, Reason, adjudicate


def _pos(text: str) -> Position:
    return Position.from_text(f"standard | F1901M | {text} | - | - | -")


def test_head_to_head_loser_leaves_no_standoff_behind() -> None:
    """DATC 6.H.9 / 4.A.7: a province is closed to retreats only after a stand-off.
    A MUN loses the head-to-head with A BUR; BUR is empty but nobody bounced
    there, so the German A RUH dislodged in the same phase may retreat to BUR."""
    pos = _pos("france: A BEL, A BUR, A KIE, A TYR; germany: A MUN, A RUH")
    result = adjudicate(pos, {
        "france": ["A BUR - MUN", "A TYR S A BUR - MUN", "A BEL - RUH", "A KIE S A BEL - RUH"],
        "germany": ["A MUN - BUR", "A RUH H"],
    })
    nxt = result.next_position
    assert "bur" not in nxt.contested
    retreat = adjudicate(nxt, {"germany": ["A RUH R BUR"]})
    assert ("germany", "A BUR") in {(u.power, str(u)) for u in retreat.next_position.units}


def test_two_equal_moves_into_an_empty_province_leave_a_standoff() -> None:
    """DATC 6.H.6 (stand-off closes the province to retreats)."""
    pos = _pos("france: A BUR, A PAR, A PIC; germany: A MUN, A RUH, A KIE")
    result = adjudicate(pos, {
        "france": ["A PAR - BUR", "A PIC S A PAR - BUR"],  # BUR's own unit stays: no
        "germany": ["A MUN - BUR", "A RUH S A MUN - BUR"],
    })
    # BUR was occupied and held: no stand-off in an empty province
    assert result.next_position.contested == frozenset()
    # a unit dislodged elsewhere keeps the retreat phase (and its stand-off list)
    pos2 = _pos("austria: A TRI, A TYR; france: A PAR, A PIC; germany: A MUN, A RUH; "
                "italy: A VEN")
    r2 = adjudicate(pos2, {"france": ["A PAR - BUR", "A PIC S A PAR - BUR"],
                           "germany": ["A MUN - BUR", "A RUH S A MUN - BUR"],
                           "austria": ["A TRI - VEN", "A TYR S A TRI - VEN"]})
    assert r2.next_position.contested == frozenset({"bur"})
    reasons = {str(r.order): (r.reason, r.by) for r in r2.results}
    assert reasons["A PAR - BUR"] == (Reason.BOUNCED, ("mun",))
    assert reasons["A MUN - BUR"] == (Reason.BOUNCED, ("par",))


def test_support_cut_reason_names_the_attacker() -> None:
    """DATC 6.D.1-6.D.3 family: a support cut by an attack from elsewhere says by
    whom, and the attack it supported bounces with the unit it met."""
    pos = _pos("france: A PAR, A MAR; germany: A BUR; italy: A PIE")
    result = adjudicate(pos, {"france": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                              "germany": ["A BUR H"], "italy": ["A PIE - MAR"]})
    by_order = {str(r.order): r for r in result.results}
    cut = by_order["A MAR S A PAR - BUR"]
    assert not cut.success and cut.reason is Reason.CUT and cut.by == ("pie",)
    move = by_order["A PAR - BUR"]
    assert not move.success and move.reason is Reason.BOUNCED and move.by == ("bur",)


def test_an_illegal_retreat_says_where_the_unit_may_go_in_order() -> None:
    """A refused retreat names the unit's options, sorted, whatever order the
    adjudicator found them in (it keeps them unsorted: DATC 4.A.5 decides which
    they are, this test only how they are reported)."""
    pos = Position.from_text(
        "standard | F1914R | austria: A SEV, A TRI, A TUS, F ALB; france: A BUR, A MUN, "
        "F BAL, F BAR, F POR; germany: A PIC, A RUH, F HEL; italy: A APU, A ROM, F EAS, "
        "F ION, F MAR, F NAP; russia: A BEL, A BUD, A LVN, A NWY, A PRU, A RUM, A SWE, "
        "A UKR, A VIE, A WAR, F ANK, F BOT; turkey: F ARM | austria: SER TRI VEN WAR; "
        "france: BEL BRE LON LVP MUN POR SPA; germany: BUL EDI HOL; italy: GRE MAR NAP "
        "PAR ROM SMY; russia: ANK BER BUD DEN KIE MOS NWY RUM SEV STP SWE VIE; "
        "turkey: CON | france: F BEL<RUH | BLA STP VEN")
    res = adjudicate(pos, {"france": ["F BEL R PAR"]})
    refused = [r for r in res.results if r.reason is Reason.ILLEGAL]
    assert [r.detail for r in refused] == [
        "F BEL cannot retreat to PAR: may retreat only to ENG, HOL, NTH"]
    # no legal order: the unit is disbanded, and the others stand where they were
    assert [str(u) for u in res.disbanded] == ["F BEL"]
    assert len(res.next_position.units) == len(pos.units)
