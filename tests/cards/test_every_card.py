"""Every card of every shipped set loads, can be bought and sleeved (or bought, for vales),
and runs its triggers in play.

An ability with a handler must actually run (its ``ability`` step is recorded) in the
situation its trigger names; a passive ability must be read where the rules read it.
"""

from __future__ import annotations

import pytest

from mysticvale.cards.catalogue import builtin_set
from mysticvale.cards.report import available_sets
from mysticvale.engine.card_types import SLOTS
from mysticvale.engine.registry import EFFECTS, STEPS
from mysticvale.engine.zones import stats
from scenario import Scenario

PREFER = ("guard", "keep #", "discard #", "choose", "resolve", "sleeve", "take")


def _sets_for(set_id: str) -> tuple[str, ...]:
    return ("base",) if set_id == "base" else ("base", set_id)


def _advancements():
    for s in available_sets():
        for t in builtin_set(s).advancements:
            if t.kind == "advancement":
                yield pytest.param(s, t.name, id=f"{s}:{t.name}")


def _vales():
    for s in available_sets():
        for v in builtin_set(s).vales:
            yield pytest.param(s, v.name, id=f"{s}:{v.name}")


@pytest.fixture
def ran(monkeypatch):
    """Records the data of every ability step that runs."""
    seen: list[dict] = []
    original = STEPS["ability"]

    def spy(st, s):
        seen.append(dict(s.data))
        original(st, s)

    monkeypatch.setitem(STEPS, "ability", spy)
    return seen


def _drive(sc: Scenario, until_seat: int = 1, limit: int = 300) -> None:
    """Answer everything (preferring to use abilities) until ``until_seat``'s Planting phase."""
    g = sc.game
    for _ in range(limit):
        st = g.state
        if g.is_over() or (st.current == until_seat and st.turn.phase == "planting" and not st.pending):
            return
        legal = [str(a) for a in g.legal_actions()]
        pick = next((a for p in PREFER for a in legal if a.startswith(p)), None)
        if pick is None:
            pick = next((a for a in legal if a.startswith("use ")), None)
        if pick is None:
            pick = "finish" if "finish" in legal else ("pass" if "pass" in legal else legal[0])
        g.apply_action(pick)
    raise AssertionError("the game did not reach the next turn")


def _rich_field() -> list:
    return ["Generic Mana Spring"] * 4 + ["Generic Spirit Guardian"] * 2


@pytest.mark.parametrize("set_id,name", list(_advancements()))
def test_every_advancement_is_bought_sleeved_and_runs_its_triggers(set_id, name, ran):
    t = builtin_set(set_id).advancements[[a.name for a in builtin_set(set_id).advancements].index(name)]
    for slots in t.copies:
        slot = "+".join(s for s in SLOTS if s in slots)
        # Buy it from the commons and sleeve it on the blank card of the field.
        sc = Scenario(sets=_sets_for(set_id))
        ids = sc.player(0, field=_rich_field() + ["Blank"], on_deck="Blank", deck=["Cursed Land"] * 4,
                        mana_token=True)
        copy = sc.put_in_commons(t.level, 1, name, slot)
        sc.act("pass", "token")
        legal = sc.legal()
        buy = next(a for a in legal if a.split()[:2] == ["buy", f"{t.level}.1"])
        sc.act(buy)
        sc.act("finish")
        blank = ids["field"][-1]
        st = sc.state
        while st.pending and st.pending[-1].kind == "sleeve":
            sc.act(f"sleeve #{blank}" if f"sleeve #{blank}" in sc.legal() else sc.legal()[0])
        assert any(copy in st.cards[c] for c in ids["field"]), f"{name}@{slot} was not sleeved"
        _drive(sc)
    # Its triggers: pushed from on deck (When Played), in the field for a Harvest, discarded.
    sc = Scenario(sets=_sets_for(set_id))
    ids = sc.player(0, field=["Fertile Soil"], on_deck=name, deck=["Blank", "Blank"] + ["Cursed Land"] * 3,
                    mana_token=False)
    card = ids["on_deck"][0]
    assert stats(sc.state, card).active_layers == (0,)
    ran.clear()
    sc.act("push")
    _drive_own_turn(sc, card)
    ran_here = {(d.get("card"), d.get("layer"), d.get("k", 0)) for d in ran}
    for k, ab in enumerate(t.abilities):
        spec = EFFECTS[ab.effect]
        if spec.handler is not None and ab.trigger in ("when_played", "harvest", "discard"):
            # The card holds this one advancement: layer 0, k-th ability.
            assert (card, 0, k) in ran_here, f"{name}: its {ab.trigger} ability did not run"
        elif ab.trigger == "end_game":
            assert sc.game.score_breakdown(0)["advancements"] >= t.end_vp
    if any(ab.trigger in ("spoil_guard", "on_spoil") for ab in t.abilities):
        sc = Scenario(sets=_sets_for(set_id))
        sc.player(0, field=[name, "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
                  deck=["Cursed Land", "Cursed Land", "Blank", "Blank"])
        ran.clear()
        sc.act("push")
        assert sc.state.pending or ran, f"{name}: nothing happened when spoiling"
        _drive(sc)


def _drive_own_turn(sc: Scenario, card: int) -> None:
    """Finish player 0's turn using every ability of ``card`` that is offered."""
    g = sc.game
    for _ in range(300):
        st = g.state
        if st.current == 1 and st.turn.phase == "planting" and not st.pending:
            return
        legal = [str(a) for a in g.legal_actions()]
        mine = [a for a in legal if a.startswith(f"use #{card}.")]
        pick = mine[0] if mine else next((a for p in PREFER for a in legal if a.startswith(p)), None)
        if pick is None:
            pick = "pass" if "pass" in legal else ("finish" if "finish" in legal else legal[0])
        g.apply_action(pick)
    raise AssertionError("the turn did not end")


@pytest.mark.parametrize("set_id,name", list(_vales()))
def test_every_vale_is_bought_and_runs_its_triggers(set_id, name, ran):
    vt = next(v for v in builtin_set(set_id).vales if v.name == name)
    sc = Scenario(sets=_sets_for(set_id))
    sc.player(0, field=_rich_field() + ["Generic Spirit Guardian"] * 2, on_deck="Blank",
              deck=["Cursed Land"] * 6, mana_token=False)
    v = sc.put_vale_in_row(vt.level, 1, name)
    sc.act("pass")
    assert f"vale {vt.level}.1" in sc.legal(), f"{name} cannot be bought"
    ran.clear()
    n = len(sc.state.events)
    sc.act(f"vale {vt.level}.1")
    assert v in sc.state.players[0].vales
    if any(ab.trigger == "when_bought" for ab in vt.abilities):
        assert any(d.get("vale") == v and d.get("bought") for d in ran), f"{name}: When Bought did not run"
        assert len(sc.state.events) > n + 1
    _drive(sc)
    # Owned from an earlier turn: Harvest abilities run.
    if any(ab.trigger == "harvest" for ab in vt.abilities):
        sc = Scenario(sets=_sets_for(set_id))
        sc.player(0, field=["Grovetender", "Fertile Soil"], on_deck="Blank",
                  deck=["Cursed Land"] * 6, vales=[name])
        ran.clear()
        sc.act("pass")
        _drive(sc)
        assert any(d.get("vale") == v for d in ran), f"{name}: Harvest ability did not run"
    if any(ab.trigger in ("spoil_guard", "on_spoil") for ab in vt.abilities):
        sc = Scenario(sets=_sets_for(set_id))
        sc.player(0, field=["Cursed Land", "Cursed Land", "Stag"], on_deck="Blank",
                  deck=["Hulking Thornhide", "Cursed Land", "Blank", "Blank"], vales=[name])
        ran.clear()
        sc.act("push")
        kinds = [p.kind for p in sc.state.pending]
        assert kinds, f"{name}: nothing offered when about to spoil"
        _drive(sc)




def test_every_shipped_set_loads_with_the_base_game():
    from mysticvale.cards.catalogue import load_catalogue

    for s in available_sets():
        cat = load_catalogue(_sets_for(s))
        sd = builtin_set(s)
        assert all(t.name in cat.advancements for t in sd.advancements)
        assert all(v.name in cat.vale_index for v in sd.vales)
