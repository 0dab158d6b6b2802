"""Cards an ability lets its owner look at or search for stay the owner's knowledge.

File 000 (Open and Hidden Information): "You may not look at any cards in a deck unless an
ability allows you to do so. ... You may not look at cards in other players' discard piles
unless an ability allows you to do so."  File 003 (Astromancer, Sorcel): "You do not need to
reveal the card(s) that you look at to your opponents."  So every ability that looks at or
searches a face-down deck (Calm Weather, Cleansing Rain, Lifetap Oracle, Wood Sprite Hoard,
Astromancer, Truesight Archer, Sorcel, Le Que, Wayalieh) or a supply deck (Ranger Captain,
Snapjaw) names the cards in its owner's log and decision only: another seat's log and
observation do not say which card it was, nor where it went.  Lore Keeper reveals its cards
(file 003), so they are public.  Issue 13, item 4.
"""

from __future__ import annotations

import pytest

from mysticvale.engine.zones import card_name
from scenario import Scenario
from twilight_garden.tg_helpers import make_leader, ref, vale_on_top

ALL = ("base", "vale_of_magic", "twilight_garden")
CL = "Cursed Land"
SEATS = (1, None)     # the other player and a spectator


def _sc() -> Scenario:
    return Scenario(players=2, sets=ALL)


def _texts(sc: Scenario, seat, since: int) -> str:
    return " | ".join(e["text"] for e in sc.game.log(seat, since))


def _hidden_from_others(sc: Scenario, owner: int, card: int, since: int) -> None:
    """``card`` of ``owner`` (found in a face-down deck) is named to its owner only."""
    name = card_name(sc.state, card)
    assert name in _texts(sc, owner, since)
    for seat in SEATS:
        text = _texts(sc, seat, since)
        assert name not in text and f"#{card} " not in text, (seat, text)
        obs = sc.game.observe(seat)
        me = obs["players"][owner]
        assert not {"deck", "discard", "known_top"} & set(me)          # no location of hidden cards
        assert card not in [c["id"] for c in me["field"] + me["set_aside"]]
        assert me["on_deck"] is None or me["on_deck"]["id"] != card
        assert not obs["pending"] or not {"cards", "vale", "advancement"} & set(obs["pending"])


def _shown_to_owner_only(sc: Scenario, owner: int, cards: list[int]) -> None:
    """While the decision is open its cards are in the owner's observation only."""
    assert [c["id"] for c in sc.game.observe(owner)["pending"]["cards"]] == cards
    for seat in SEATS:
        assert "cards" not in sc.game.observe(seat)["pending"]


def test_calm_weather_discard_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=[], on_deck="Calm Weather", deck=["Stag", CL, CL])
    n = len(sc.state.events)
    sc.act("push")
    _shown_to_owner_only(sc, 0, [ids["deck"][0]])
    sc.act(f"discard #{ids['deck'][0]}")
    _hidden_from_others(sc, 0, ids["deck"][0], n)


def test_astromancer_discard_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=[], on_deck="Astromancer", deck=["Stag", CL, CL])
    n = len(sc.state.events)
    sc.act("push")
    _shown_to_owner_only(sc, 0, [ids["deck"][0]])
    sc.act(f"discard #{ids['deck'][0]}")
    _hidden_from_others(sc, 0, ids["deck"][0], n)


def test_cleansing_rain_search_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=[], on_deck="Cleansing Rain", deck=[CL, "Stag", "Blank"])
    n = len(sc.state.events)
    sc.act("push")
    assert sorted(c["id"] for c in sc.game.observe(0)["pending"]["cards"]) == sorted(sc.state.players[0].deck)
    assert "cards" not in sc.game.observe(1)["pending"]
    stag = ids["deck"][1]
    sc.act(f"discard #{stag}")
    assert stag in sc.state.players[0].discard
    _hidden_from_others(sc, 0, stag, n)
    assert "Player 1 searches the deck and discards a card." in _texts(sc, 1, n)


def test_lifetap_oracle_searches_are_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=["Blank"], on_deck=["Lifetap Oracle", "Generic Guardian Sapling"],
                    deck=["Stag", [CL, "Hulking Thornhide"], "Blank", "Blank"])
    n = len(sc.state.events)
    sc.act("push")
    assert sc.state.pending[-1].kind == "search_deck_n"
    assert "cards" not in sc.game.observe(1)["pending"]
    stag, thorn = ids["deck"][:2]
    sc.act(f"discard #{stag}")
    sc.act(f"discard #{thorn}")
    assert {stag, thorn} <= set(sc.state.players[0].discard)
    _hidden_from_others(sc, 0, stag, n)
    _hidden_from_others(sc, 0, thorn, n)


def test_wood_sprite_hoard_look_is_named_to_its_owner_only():
    sc = _sc()
    rich = ["Generic Spirit Guardian", "Generic Spirit Guardian", "Generic Mana Spring", "Generic Mana Spring"]
    ids = sc.player(0, field=rich, on_deck="Blank", deck=["Stag", CL, "Blank", CL])
    sc.put_vale_in_row(1, 1, "Wood Sprite Hoard")
    sc.act("pass")
    n = len(sc.state.events)
    sc.act("vale 1.1")
    _shown_to_owner_only(sc, 0, ids["deck"][:3])
    sc.act(f"discard #{ids['deck'][0]}", "keep")
    _hidden_from_others(sc, 0, ids["deck"][0], n)


def test_truesight_archer_look_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=[], on_deck=["Truesight Archer", "Pixie Skyguard"],
                    deck=["Stag", CL, "Blank", CL, CL])
    n = len(sc.state.events)
    sc.act("push")
    looked = sc.state.pending[-1].private
    assert looked == ids["deck"][:len(looked)] and len(looked) >= 2
    _shown_to_owner_only(sc, 0, looked)
    sc.act(f"discard #{ids['deck'][0]}")
    while sc.state.pending and sc.state.pending[-1].kind in ("look_top_n", "order_top"):
        sc.act("keep" if "keep" in sc.legal() else sc.legal()[0])
    _hidden_from_others(sc, 0, ids["deck"][0], n)


@pytest.mark.parametrize("leader,side", [("Sorcel", "start"), ("Sorcel", "upgraded"),
                                         ("Le Que", "upgraded"), ("Wayalieh", "start")])
def test_leaders_that_look_at_the_top_cards_name_them_to_their_owner_only(leader, side):
    sc = _sc()
    ids = sc.player(0, field=[], on_deck="Blank", deck=["Stag", CL, "Blank", CL, CL, CL])
    make_leader(sc, ids["on_deck"][0], leader, side)
    n = len(sc.state.events)
    sc.act("push")
    pd = sc.state.pending[-1]
    assert ids["deck"][0] in pd.private
    _shown_to_owner_only(sc, 0, pd.private)
    sc.act(f"discard #{ids['deck'][0]}")
    while sc.state.pending and sc.game.current_player == 0 and sc.state.turn.phase == "planting" \
            and sc.state.pending[-1].kind != "spoil_guard":
        sc.act("keep" if "keep" in sc.legal() else sc.legal()[0])
    _hidden_from_others(sc, 0, ids["deck"][0], n)


def test_ranger_captain_vale_put_back_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=["Ranger Captain"], on_deck=CL, deck=[CL])
    vale_on_top(sc, 1, "Rotted Weald")
    sc.act("pass")
    n = len(sc.state.events)
    sc.act(f"use {ref(sc, ids['field'][0], 'Ranger Captain')}")
    assert sc.game.observe(0)["pending"]["vale"]["name"] == "Rotted Weald"
    assert all("vale" not in sc.game.observe(s)["pending"] for s in SEATS)
    sc.act("skip")
    assert "Rotted Weald" in _texts(sc, 0, n)
    assert all("Rotted Weald" not in _texts(sc, s, n) for s in SEATS)


def test_snapjaw_advancement_put_back_is_named_to_its_owner_only():
    sc = _sc()
    ids = sc.player(0, field=["Snapjaw", "Blank"], on_deck=CL, deck=[CL])
    st = sc.state
    top = st.adv_decks[3][-1]
    name = st.cat.copies[top].type.name
    visible = {st.cat.copies[c].type.name for row in st.commons.values() for c in row if c is not None}
    sc.act("pass")
    st.turn.mana_bonus = 10
    sc.invalidate()
    n = len(st.events)
    sc.act(f"use {ref(sc, ids['field'][0], 'Snapjaw')}")
    assert sc.game.observe(0)["pending"]["advancement"]["name"] == name
    assert all("advancement" not in sc.game.observe(s)["pending"] for s in SEATS)
    sc.act("skip")
    assert st.cat.label(top) in _texts(sc, 0, n)
    if name not in visible:
        assert all(name not in _texts(sc, s, n) for s in SEATS)
    assert all(st.cat.label(top) not in _texts(sc, s, n) for s in SEATS)


def test_lore_keeper_reveals_are_public():
    # File 003: Lore Keeper *reveals* cards until two Cursed Lands: everyone sees them.
    sc = _sc()
    ids = sc.player(0, field=[], on_deck="Lore Keeper", deck=["Stag", CL, "Blank", CL, CL, CL])
    n = len(sc.state.events)
    sc.act("push")
    stag = ids["deck"][0]
    for seat in (0,) + SEATS:
        assert card_name(sc.state, stag) in _texts(sc, seat, n)
        assert stag in [c["id"] for c in sc.game.observe(seat)["players"][0]["set_aside"]]
