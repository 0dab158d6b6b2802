"""Scenario helpers for the Twilight Garden tests (on top of tests/scenario.py)."""

from __future__ import annotations

from mysticvale.engine.leaders import leader_on, part_copy
from mysticvale.engine.zones import stats
from scenario import Scenario

SETS = ("base", "twilight_garden")
CL = "Cursed Land"


def scenario(players: int = 2, **kw) -> Scenario:
    """A scenario with the Twilight Garden expansion in (leaders not dealt)."""
    return Scenario(players=players, sets=SETS, **kw)


def make_leader(sc: Scenario, card: int, name: str, side: str = "start", extra: tuple[str, ...] = ()) -> None:
    """Turn ``card`` into the leader ``name`` showing ``side`` (advancement labels in
    ``extra`` are sleeved on top, as Kojen and Khan does)."""
    st = sc.state
    ld = st.cat.leaders[name]
    parts = ld.start if side == "start" else ld.upgraded
    st.cards[card] = tuple(part_copy(st, x) for x in parts) + tuple(st.cat.from_label(x) for x in extra)
    assert leader_on(st, card) == (name, side)
    sc.invalidate()


def ref(sc: Scenario, card: int, name: str, k: int = 0) -> str:
    """The ``#card.layer[.k]`` reference of the ability of ``name`` (a type name) on ``card``."""
    st = sc.state
    layer = [st.cat.copies[c].type.name for c in st.cards[card]].index(name)
    return f"#{card}.{layer + 1}" + (f".{k + 1}" if k else "")


def vale_id(sc: Scenario, name: str) -> int:
    return sc.vale_id(name)


def put_vale_in_row(sc: Scenario, level: int, pos: int, name: str) -> int:
    return sc.put_vale_in_row(level, pos, name)


def vale_on_top(sc: Scenario, level: int, name: str) -> int:
    """Put vale ``name`` on top of the level-``level`` vale deck (swapping places)."""
    st = sc.state
    v = vale_id(sc, name)
    deck = st.vale_decks[level]
    top = deck[-1]
    for lvl in st.vale_decks:
        if v in st.vale_decks[lvl]:
            st.vale_decks[lvl][st.vale_decks[lvl].index(v)] = top
            break
    else:
        for lvl in st.vale_rows:
            if v in st.vale_rows[lvl]:
                st.vale_rows[lvl][st.vale_rows[lvl].index(v)] = top
    deck[-1] = v
    sc.invalidate()
    return v


def pending(sc: Scenario):
    return sc.state.pending[-1] if sc.state.pending else None


def curse_symbols(sc: Scenario, card: int) -> int:
    return stats(sc.state, card).get("curse")
