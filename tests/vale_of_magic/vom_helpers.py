"""Scenario helpers for the Vale of Magic tests (on top of tests/scenario.py)."""

from __future__ import annotations

from scenario import Scenario

SETS = ("base", "vale_of_magic")


def scenario(players: int = 2, ruleset: str = "yucata", **kw) -> Scenario:
    """A scenario with the Vale of Magic expansion in."""
    return Scenario(players=players, sets=SETS, ruleset=ruleset, **kw)


def vale_id(sc: Scenario, name: str) -> int:
    return sc.vale_id(name)


def put_vale_in_row(sc: Scenario, level: int, pos: int, name: str) -> int:
    return sc.put_vale_in_row(level, pos, name)


def put_on_vale_deck(sc: Scenario, level: int, name: str) -> int:
    """Make ``name`` the top card of the level-``level`` vale deck (from a deck or a row)."""
    st = sc.state
    v = vale_id(sc, name)
    for lvl in st.vale_decks:
        if v in st.vale_decks[lvl]:
            st.vale_decks[lvl].remove(v)
            break
    else:
        for lvl in st.vale_rows:
            if v in st.vale_rows[lvl]:
                # Refill the row slot from the deck so the vale count is unchanged.
                st.vale_rows[lvl][st.vale_rows[lvl].index(v)] = st.vale_decks[lvl].pop(0)
                break
    st.vale_decks[level].append(v)
    sc.invalidate()
    return v


def events_since(sc: Scenario, n: int, seat: int | None = None) -> list[str]:
    return [e["text"] for e in sc.game.log(seat, n)]


def play_until_turn_of(sc: Scenario, seat: int, *, prefer: tuple[str, ...] = (), limit: int = 200) -> None:
    """Answer decisions (preferring actions starting with ``prefer``, else the first legal
    one) until it is ``seat``'s Planting phase with no decision open."""
    g = sc.game
    for _ in range(limit):
        st = g.state
        if st.current == seat and st.turn.phase == "planting" and not st.pending:
            return
        legal = [str(a) for a in g.legal_actions()]
        pick = next((a for p in prefer for a in legal if a.startswith(p)), None)
        if pick is None:
            pick = "finish" if "finish" in legal else ("pass" if "pass" in legal else legal[0])
        g.apply_action(pick)
    raise AssertionError("the turn did not come round")
