"""The terminal renderer: plain-words actions, the spoil outlook, the deck and end screens."""

from __future__ import annotations

import re

import copy

import pytest
from rich.console import Console

import mysticvale as mv
from mysticvale.cli import render


def text_of(renderable, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


@pytest.fixture
def game():
    return mv.new_game(players=2, seed=7)


@pytest.fixture
def obs(game):
    # Observations share read-only card views: copy before editing one in a test.
    return copy.deepcopy(game.observe(game.current_player))


def test_buying_from_the_commons_is_described_with_name_level_cost_and_slot(obs):
    c = obs["commons"]["2"][1]
    words = render.describe_action("buy 2.2", obs)
    assert words.startswith(f"buy {c['name']} (level 2, {c['cost']} mana, {'/'.join(c['slots'])} slot")
    soil = render.describe_action("buy soil.middle", obs)
    assert soil == f"buy Fertile Soil for the middle slot ({obs['fertile_soil_cost']} mana, 1 mana symbol)"


def test_a_declared_sleeve_target_and_card_references_are_named(obs):
    me = obs["players"][obs["viewer"]]
    card = me["on_deck"]
    words = render.describe_action(f"buy 1.1 on #{card['id']}", obs)
    assert f"to be sleeved on #{card['id']} {card['name']}" in words
    assert render.describe_action(f"discard #{card['id']}", obs) == f"discard #{card['id']} {card['name']}"
    assert render.describe_action(f"sleeve #{card['id']}", obs).endswith(f"on #{card['id']} {card['name']}")
    assert render.describe_action("push", obs) == (
        f"play your on-deck card #{card['id']} {card['name']} into your field and reveal the next card")


def test_vales_are_described_with_spirit_cost_and_vp(obs):
    v = obs["vale_rows"]["2"][3]
    words = render.describe_action("vale 2.4", obs)
    assert words.startswith(f"buy vale {v['name']} (level 2, ")
    assert words.endswith(f"{v['end_vp'] - v['neg_vp']} VP)")
    cost = render.vale_cost_text({"animal": 1, "forest": 0, "sky": 2, "any": 1}).plain
    assert cost == "1 animal + 2 sky + 1 any"


def test_abilities_are_described_by_their_text(obs):
    me = obs["players"][obs["viewer"]]
    card = me["on_deck"]
    card.update(advancements=["Blank@top", "Aurora@middle"],
                abilities=["Aurora: Harvest: gain 1 mana for every 2 cards in your field (rounded down)."])
    words = render.describe_action(f"use #{card['id']}.2", obs)
    assert words.startswith("use Aurora: Harvest: gain 1 mana")
    assert words.endswith(f"(on #{card['id']} {card['name']})")


def test_unknown_verbs_fall_back_to_the_verbs_meaning(obs):
    assert render.describe_action("keep", obs) == "keep the card(s) where they are"
    assert render.describe_action("choose 2", obs) == "choose an option: 2"


def test_finish_turn_is_described_as_ending_the_turn(obs):
    assert render.describe_action("finish", obs).startswith("finish your Harvest")
    obs = dict(obs, pending={"kind": "finish_turn", "player": 0, "description": "finishing the turn"})
    assert render.describe_action("finish", obs).startswith("finish your turn")


def test_the_reveal_after_a_when_played_ability_is_described(obs):
    obs = dict(obs, phase="prep", pending={"kind": "reveal_next", "player": 0, "description": "revealing"})
    text = render.describe_action("reveal", obs)
    assert text.startswith("reveal your next on-deck card (your Prep phase goes on")
    assert "can no longer be taken back" in text
    assert "Planting phase goes on" in render.describe_action("reveal", dict(obs, phase="planting"))


def test_the_german_prep_decision_is_described(obs):
    obs = dict(obs, phase="prep")
    assert render.describe_action("stop", obs).startswith("stop your Prep phase here (German rules")
    assert render.describe_action("push", obs).endswith("(your Prep phase goes on)")


def test_the_spoil_outlook_counts_the_next_cards_that_would_spoil(obs):
    seat = obs["viewer"]
    me = obs["players"][seat]
    obs["phase"], obs["acting_player"], obs["pending"] = "planting", seat, None
    blank = {"id": 90, "name": "Blank", "decay": 0, "growth": 0}
    cursed = {"id": 91, "name": "Cursed Land", "decay": 1, "growth": 0}
    double = {"id": 92, "name": "Rot", "decay": 2, "growth": 0}
    me["deck"] = [blank, cursed, double, dict(blank, id=93)]
    me["known_top"] = []
    me["decay"] = 2
    text = render.spoil_outlook(obs, seat).plain
    assert "Decay showing: 2/4" in text and "2 more decay spoils" in text
    assert "1 of 4 possible next cards spoil you (25%)" in text
    me["decay"] = 3
    assert "2 of 4 possible next cards spoil you (50%)" in render.spoil_outlook(obs, seat).plain
    # A known top card makes it certain.
    me["known_top"] = [91]
    assert "1 of 1 possible next cards spoil you (100%)" in render.spoil_outlook(obs, seat).plain
    # An empty deck: the discard pile will be shuffled into a new deck.
    me["known_top"], me["deck"], me["discard"] = [], [], [blank, cursed]
    assert "1 of 2 possible next cards" in render.spoil_outlook(obs, seat).plain
    # Outside the Planting phase there is no push to weigh.
    obs["phase"] = "harvest"
    assert "possible next cards" not in render.spoil_outlook(obs, seat).plain


def test_the_board_shows_every_players_tokens_and_vales(obs):
    other = obs["players"][1 - obs["viewer"]]
    other["vp_tokens"], other["curse_tokens"], other["mana_token_active"] = 9, 2, False
    other["vales"] = [dict(obs["vale_rows"]["1"][0], bought_this_turn=True)]
    out = text_of(render.board(obs))
    vale = obs["vale_rows"]["1"][0]
    name = vale["name"] + (f" {render.MARK}" if vale["stand_in"] else "")
    assert f"Player {other['seat'] + 1}'s vales: {name} (3 VP) *just bought*" in out
    row = next(line for line in out.splitlines() if line.startswith(f"│ Player {other['seat'] + 1}"))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[1:4] == ["9", "2", "used"]   # VP tokens, curse tokens, mana token side
    for part in ("Commons (advancements)", "Vale cards", "Your field", "on deck", "VP pool"):
        assert part in out


def test_the_short_view_keeps_what_the_phase_needs(obs):
    obs["phase"] = "harvest"
    short = text_of(render.board(obs, full=False))
    assert "Commons (advancements)" in short and "Players" not in short
    obs["phase"] = "planting"
    short = text_of(render.board(obs, full=False))
    assert "Commons (advancements)" not in short and "Your field" in short


def test_the_deck_view_lists_contents_without_order(game, obs):
    seat = obs["viewer"]
    out = text_of(render.deck_view(obs, seat))
    me = obs["players"][seat]
    assert f"Your deck ({me['deck_count']} cards, order unknown)" in out
    for c in me["deck"]:
        assert f"#{c['id']}" in out
    # Another player's cards: every one it owns (public), not where each one is.
    other = game.observe(1 - seat)
    theirs = text_of(render.deck_view(other, seat))
    assert f"Player {seat + 1}'s cards (20, in no order)" in theirs and "Your deck" not in theirs
    for c in me["deck"] + me["discard"]:
        assert f"#{c['id']}" in theirs
    assert "not yours to know" in theirs and "Discard pile (" not in theirs


def test_an_unseen_leader_is_shown_to_the_others_as_such():
    game = mv.new_game(players=4, seed=21, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    for _ in range(4):
        game.apply_action(game.legal_actions()[0])
    from mysticvale.engine.leaders import unseen_leaders
    q = next(q for q in range(4) if unseen_leaders(game.state, q))
    out = text_of(render.deck_view(game.observe((q + 1) % 4), q))
    assert "Leader (not yet revealed)" in out and "which one it is stays hidden" in out
    assert "Leader (not yet revealed)" not in text_of(render.deck_view(game.observe(q), q))


def test_the_end_screen_shows_the_breakdown_and_the_winners():
    b = [{"vp_tokens": 10, "vales": 6, "total": 16, "tiebreak": 1},
         {"vp_tokens": 12, "vales": 4, "total": 16, "tiebreak": 1}]
    out = text_of(render.end_screen(b, [0, 1], rounds=9))
    assert "Final scores after 9 rounds" in out and "Shared win: Player 1, Player 2" in out
    assert "VP tokens" in out and "16" in out
    out = text_of(render.end_screen(b, [1], names=["Ann", "Bob"]))
    assert "Bob wins!" in out


def test_the_log_view_shows_only_the_latest_entries_when_limited():
    entries = [{"index": i, "kind": "x", "player": 0, "text": f"event {i}"} for i in range(10)]
    out = text_of(render.log_view(entries, limit=3))
    assert "7 earlier events" in out and "event 9" in out and "event 6" not in out


def test_stand_ins_are_marked_and_said_in_a_players_words(obs):
    """A dagger after a stand-in's name, and beside the table and in the deck view the sentence
    the browser's zoom uses; a card as its sources give it carries neither, and no note of the
    card data (file numbers, "ours") reaches the terminal."""
    commons = [c for row in obs["commons"].values() for c in row if c]
    marked = [c for c in commons if c["stand_in"]]
    plain = [c for c in commons if not c["stand_in"]]
    assert marked and plain, [c["name"] for c in commons]
    assert not any("note" in c for c in commons)
    out = text_of(render.commons_table(obs), width=400)
    for c in marked:
        assert f"{c['name']} {render.MARK}" in out
    assert render.STAND_IN in out.replace("\n", " ")
    for c in plain:
        assert f"{c['name']} {render.MARK}" not in out
    assert not re.search(r"\b(file 00\d|ours|provisional)\b", out, re.IGNORECASE), out
    # A card of the deck with a stand-in advancement: marked, and the sentence is in the deck view.
    seat = obs["viewer"]
    card = obs["players"][seat]["deck"][0]
    card.update(name="Cursed Land + Dawnsinger", stand_ins=["Dawnsinger"])
    deck = text_of(render.deck_view(obs, seat), width=600)
    assert f"Cursed Land + Dawnsinger {render.MARK}" in deck
    assert f"{render.MARK} Dawnsinger: {render.STAND_IN}" in deck
    assert f"Blank {render.MARK}" not in deck
