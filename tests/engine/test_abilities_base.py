"""A scenario for every base-set ability (file 000, Card Clarifications)."""

from mysticvale.engine.harvest import mana_available
from mysticvale.engine.zones import card_decay, net_decay, stats
from exercised import exercises
from scenario import Scenario

CL = "Cursed Land"


def ref(sc, card, name):
    """The ``#card.layer`` reference of advancement ``name`` on ``card``."""
    st = sc.state
    layer = [st.cat.copies[c].type.name for c in st.cards[card]].index(name)
    return f"#{card}.{layer + 1}"


# -- Harvest abilities -----------------------------------------------------------
@exercises("Aurora")
def test_aurora_one_mana_per_two_field_cards_rounded_down():
    sc = Scenario()
    ids = sc.player(0, field=["Aurora"] + ["Blank"] * 8, on_deck=CL, deck=[CL, CL, CL])
    sc.act("pass")
    sc.act(f"use {ref(sc, ids['field'][0], 'Aurora')}")
    assert mana_available(sc.state) == 4   # 9 cards -> 4 (the example of file 000)
    assert not any(a.startswith("use") for a in sc.legal())   # once per Harvest


@exercises("Magic Seed")
def test_magic_seed_counts_other_field_cards():
    sc = Scenario()
    ids = sc.player(0, field=["Blank", "Magic Seed", "Blank", CL], on_deck=CL, deck=[CL, CL, CL])
    sc.act("pass")
    base = mana_available(sc.state)
    sc.act(f"use {ref(sc, ids['field'][1], 'Magic Seed')}")
    assert mana_available(sc.state) == base + 3


def test_mandatory_harvest_abilities_resolve_when_the_harvest_ends():
    sc = Scenario()
    sc.player(0, field=["Magic Seed", "Blank"], on_deck=CL, deck=[CL, CL, CL])
    sc.act("pass", "finish")
    assert any("gains 1 mana for the other cards" in e.text for e in sc.state.events)


def test_harvest_abilities_are_not_used_after_a_spoil():
    sc = Scenario()
    sc.player(0, field=["Aurora", CL, CL], on_deck=CL, deck=[CL])
    sc.act("push")
    assert not any(e.kind == "ability" for e in sc.state.events)
    assert sc.game.current_player == 1


# -- When Played abilities --------------------------------------------------------
@exercises("Calm Weather")
def test_calm_weather_discard_the_top_card():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Calm Weather", deck=[CL, "Blank"])
    sc.act("push")
    pd = sc.state.pending[-1]
    assert pd.kind == "look_top" and pd.private == [ids["deck"][0]]
    # The card looked at is shown to its player only.
    assert "cards" in sc.game.observe(0)["pending"]
    assert "cards" not in sc.game.observe(1)["pending"]
    sc.act(f"discard #{ids['deck'][0]}")
    pl = sc.state.players[0]
    assert ids["deck"][0] in pl.discard
    assert pl.on_deck == ids["deck"][1]


def test_calm_weather_keep_the_top_card():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Calm Weather", deck=[CL, "Blank"])
    sc.act("push", "keep")
    assert sc.state.players[0].on_deck == ids["deck"][0]


@exercises("Cleansing Rain")
def test_cleansing_rain_search_discard_then_shuffle():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Cleansing Rain", deck=["Blank", CL, "Blank", "Blank"])
    sc.act("push")
    legal = sc.legal()
    # Identical cards are one choice: a blank and a Cursed Land, or nothing.
    assert len(legal) == 3 and "skip" in legal
    sc.act(f"discard #{ids['deck'][1]}")
    pl = sc.state.players[0]
    assert ids["deck"][1] in pl.discard
    assert pl.on_deck in ids["deck"] and len(pl.deck) == 2


def test_cleansing_rain_with_an_empty_deck_shuffles_the_discard_pile_first():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Cleansing Rain", deck=[], discard=[CL, "Blank"])
    sc.act("push")
    assert sc.state.pending[-1].kind == "search_deck"
    assert sorted(sc.state.players[0].deck) == sorted(ids["discard"] + ids["rest"])
    sc.act("skip")
    assert sc.state.players[0].on_deck is not None


@exercises("Mindful Owl", "Deadwood Harvester")
def test_mindful_owl_and_deadwood_harvester_discard_another_field_card():
    for name in ("Mindful Owl", "Deadwood Harvester"):
        sc = Scenario()
        ids = sc.player(0, field=[CL, "Blank"], on_deck=name, deck=["Blank", "Blank"])
        sc.act("push")
        assert sorted(sc.legal()) == sorted([f"discard #{ids['field'][0]}", f"discard #{ids['field'][1]}", "skip"])
        sc.act(f"discard #{ids['field'][0]}")
        assert sc.state.players[0].field == [ids["field"][1], ids["on_deck"][0]]


def test_mindful_owl_as_first_card_does_nothing():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Mindful Owl", deck=["Blank", "Blank"])
    sc.act("push")
    assert not sc.state.pending
    assert sc.state.players[0].on_deck == ids["deck"][0]


def test_two_when_played_abilities_on_one_card_are_ordered_by_the_player():
    sc = Scenario()
    ids = sc.player(0, field=[CL], on_deck=["Calm Weather", "Mindful Owl"], deck=["Blank", "Blank"])
    sc.act("push")
    legal = sc.legal()
    assert len(legal) == 2 and all(a.startswith("resolve ") for a in legal)
    c = ids["on_deck"][0]
    sc.act(f"resolve {ref(sc, c, 'Mindful Owl')}")
    assert sc.state.pending[-1].kind == "discard_field"
    sc.act("skip")
    assert sc.state.pending[-1].kind == "look_top"


# -- Ongoing abilities -----------------------------------------------------------
@exercises("Grovetender")
def test_grovetender_one_mana_per_guardian_on_its_card():
    sc = Scenario()
    st = sc.state
    one = sc.layers(["Grovetender"])
    two = sc.layers(["Grovetender", "Generic Spirit Guardian"])
    assert st.cat.stats(one).get("mana") == 1
    # Two guardians (one on each advancement) give 2 mana, plus Spirit Guardian's printed mana.
    assert st.cat.stats(two).get("mana") == 2 + 1


def test_grovetender_example_of_file_000_with_stag():
    """File 000: "if Grovetender and Stag were sleeved together on the same card,
    Grovetender would be considered to have 2 [mana]" (docs/rules-decisions.md, base 19)."""
    sc = Scenario()
    st = sc.state
    stag = st.cat.stats(sc.layers([CL, "Stag"]))
    both = st.cat.stats(sc.layers([CL, "Stag", "Grovetender"]))
    assert both.get("mana") - stag.get("mana") == 2
    # The same with Grovetender sleeved first, and on a blank card.
    assert st.cat.stats(sc.layers(["Grovetender", "Stag"])).get("mana") == 2 + 2
    # Alone, Grovetender has 1 mana (its own guardian); Gaia's Chosen does not count guardians,
    # so its two examples with Stag are unchanged (test_gaias_chosen_examples_of_file_000).
    assert st.cat.stats(sc.layers(["Grovetender"])).get("mana") == 1


@exercises("Lifebringer Seed")
def test_lifebringer_seed_removes_all_decay_everywhere():
    sc = Scenario()
    st = sc.state
    card = sc.layers([CL, "Lifebringer Seed"])
    assert st.cat.stats(card).get("decay") == 0
    # On the on-deck card too: 2 CL in field + CL/Lifebringer on deck = 2 decay.
    sc.player(0, field=[CL, CL], on_deck=[CL, "Lifebringer Seed"], deck=[CL])
    assert net_decay(st, 0) == 2


@exercises("Seedling")
def test_seedling_caps_decay_at_one():
    sc = Scenario()
    st = sc.state
    assert st.cat.stats(sc.layers([CL, "Seedling"])).get("decay") == 1
    assert st.cat.stats(sc.layers([CL, "Hulking Thornhide"])).get("decay") == 2
    assert st.cat.stats(sc.layers([CL, "Hulking Thornhide", "Seedling"])).get("decay") == 1


@exercises("Dawnsinger")
def test_dawnsinger_provisional_mana_per_sky_on_its_card():
    sc = Scenario()
    st = sc.state
    assert st.cat.stats(sc.layers(["Dawnsinger"])).get("mana") == 2
    assert st.cat.stats(sc.layers(["Dawnsinger", "Generic Sun Temple"])).get("mana") == 4


@exercises("Earthchant Chorus")
def test_earthchant_chorus_discount_when_sleeved_on_its_card():
    sc = Scenario()
    st = sc.state
    ids = sc.player(0, field=["Earthchant Chorus", "Blank"], on_deck=CL, deck=[CL, CL, CL])
    sc.put_in_commons(2, 1, "Aurora", "middle")     # costs 6
    sc.act("pass")
    assert mana_available(st) == 1
    c = ids["field"][0]
    assert "buy 2.1" not in sc.legal()
    assert f"buy soil.middle on #{c}" in sc.legal()   # 2 - 2 = 0
    sc.act(f"buy soil.middle on #{c}")
    # Usable more than once a turn: another discounted buy onto the same card.
    assert f"buy soil.bottom on #{c}" in sc.legal()
    sc.act(f"buy soil.bottom on #{c}", "finish")
    labels = [st.cat.label(x) for x in st.cards[c]]
    assert labels == ["Earthchant Chorus@top", "Fertile Soil@middle", "Fertile Soil@bottom"]


def test_earthchant_chorus_is_not_active_the_turn_it_is_sleeved():
    sc = Scenario()
    st = sc.state
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, CL])
    st.turn.new_layers.append([ids["field"][0], 0])
    st.cards[ids["field"][0]] = sc.layers(["Earthchant Chorus"])
    sc.invalidate()
    sc.act("pass")
    assert not any(" on #" in a for a in sc.legal())


# -- End of game -----------------------------------------------------------------
@exercises("Gaia's Chosen")
def test_gaias_chosen_examples_of_file_000():
    sc = Scenario()
    st = sc.state
    from mysticvale.engine.scoring import card_end_vp
    sc.player(0, field=[["Gaia's Chosen", "Stag", "Dawnsinger"], ["Gaia's Chosen", "Stag", "Lifebringer Seed"]],
              on_deck=CL, deck=[CL])
    a, b = st.players[0].field
    # 2 as normal + 6 (3 mana, animal and decay, sky) and + 4 (2 mana, animal, decay)
    assert card_end_vp(st, a, 0)[0] == 2 + 6
    assert card_end_vp(st, b, 0)[0] == 2 + 4
    # Lifebringer Seed cancels Stag's decay for play, but Gaia's Chosen ignores text effects.
    assert stats(st, b).get("decay") == 0


# -- Spoil guards ----------------------------------------------------------------
@exercises("Peacekeeper Druid")
def test_peacekeeper_druid_discards_the_on_deck_card_instead_of_spoiling():
    sc = Scenario()
    ids = sc.player(0, field=["Peacekeeper Druid", CL, CL], on_deck="Blank", deck=[CL, CL, "Blank"])
    sc.act("push")   # reveals CL: 3 decay showing... push again to reach 4
    assert not sc.state.pending
    sc.act("push")   # field 3 CL-ish + on-deck CL = 4
    assert sc.state.pending[-1].kind == "spoil_guard"
    guard = [a for a in sc.legal() if a.startswith("guard")]
    assert guard == [f"guard {ref(sc, ids['field'][0], 'Peacekeeper Druid')}"]
    sc.act(guard[0])
    pl = sc.state.players[0]
    assert ids["deck"][1] in pl.discard          # the on-deck CL was discarded
    assert pl.on_deck == ids["deck"][2]          # and a new card revealed
    assert sc.game.current_player == 0 and sc.game.phase == "planting"


def test_peacekeeper_druid_only_once_per_turn():
    sc = Scenario()
    sc.player(0, field=["Peacekeeper Druid", CL, CL, CL], on_deck="Blank", deck=[CL, CL, "Blank"])
    sc.act("push")
    assert sc.state.pending[-1].kind == "spoil_guard"
    sc.act([a for a in sc.legal() if a.startswith("guard")][0])
    # The new on-deck card spoils again: no second use.
    assert any(e.kind == "spoil" for e in sc.state.events)
    assert sc.game.current_player == 1


def test_peacekeeper_used_in_prep_is_spent_for_the_next_planting():
    sc = Scenario()
    st = sc.state
    # Prep: the on-deck Peacekeeper card is played, then CL, then a double-decay card would spoil.
    sc.player(0, field=["Blank"], on_deck="Peacekeeper Druid",
              deck=[CL, CL, [CL, "Stag"], "Blank", CL, "Blank", "Blank"])
    sc.act("pass", "finish")
    assert st.pending and st.pending[-1].kind == "spoil_guard"
    sc.act([a for a in sc.legal() if a.startswith("guard")][0])
    assert st.players[0].guards_used
    while st.pending:
        sc.act(sc.legal()[0])
    # Next turn of player 0: the guard stays used.
    assert st.players[0].guards_used


def test_choosing_to_spoil_is_always_possible():
    sc = Scenario()
    sc.player(0, field=["Peacekeeper Druid", CL, CL, CL], on_deck="Blank", deck=[CL, "Blank"])
    sc.act("push", "spoil")
    assert any(e.kind == "spoil" for e in sc.state.events)


def test_card_decay_respects_aether_cancel_with_seedling():
    sc = Scenario()
    st = sc.state
    ids = sc.player(0, field=[[CL, "Stag", "Seedling"], [CL, "Seedling"]], on_deck=CL, deck=[CL])
    a, b = ids["field"]
    st.players[0].aether_cards = [a, b]
    # Seedling leaves one decay from Stag on card a, which Aether Tree cancels; card b keeps
    # its Cursed Land decay (file 000, Aether Tree + Seedling).
    assert card_decay(st, 0, a) == 0
    assert card_decay(st, 0, b) == 1
