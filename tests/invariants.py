"""Invariant checks shared by the random-game harnesses of every set."""

from __future__ import annotations

import mysticvale as mv
from mysticvale.engine.rng import Rng

VP_POOL = {2: 23, 3: 28, 4: 33}


def check_state(game: mv.Game, *, deep: bool = True) -> None:
    st = game.state
    n = len(st.players)
    # Every card is in exactly one place; each player owns 20 unless cards changed hands.
    places = []
    for pl in st.players:
        places += pl.deck + pl.field + pl.discard + pl.aside + ([pl.on_deck] if pl.on_deck is not None else [])
    assert sorted(places) == list(range(len(st.cards))) == list(range(20 * n))
    # Advancement copies are conserved: supply + commons + sleeved + bought-not-sleeved.
    supply = sum(len(st.adv_decks[l]) for l in st.adv_decks) + sum(
        1 for l in st.commons for c in st.commons[l] if c is not None)
    sleeved = sum(1 for c in st.cards for layer in c if st.cat.copies[layer].type.kind == "advancement")
    bought = sum(1 for pu in st.turn.purchases if st.cat.copies[pu.copy].type.kind == "advancement")
    assert supply + sleeved + bought == _initial_supply(st)
    # Vales are conserved.
    vales = []
    for pl in st.players:
        vales += pl.vales + pl.removed_vales
    for l in st.vale_decks:
        vales += st.vale_decks[l] + [v for v in st.vale_rows[l] if v is not None]
    assert sorted(vales) == list(range(len(st.vale_types)))
    # VP tokens: the pool only shrinks; tokens held = taken from the pool + from the reserve.
    assert 0 <= st.vp_pool <= VP_POOL[n]
    assert sum(pl.vp_tokens for pl in st.players) == VP_POOL[n] - st.vp_pool + st.vp_reserve_taken
    for pl in st.players:
        assert pl.vp_tokens >= 0 and pl.curse_tokens >= 0
    assert all(v >= 0 for v in st.soil_left.values())
    t = st.turn
    assert t.mana_spent >= 0 and t.adv_buys <= 2 and t.vale_buys <= t.vale_limit
    if game.is_over():
        assert game.current_player is None and game.legal_actions() == []
        check_turn_starts(game)
        return
    legal = game.legal_actions()
    assert legal, "no legal action before the game is over"
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts), f"duplicate action strings: {texts}"
    for a in legal:
        assert mv.Action.parse(str(a)) == a
    if deep:
        check_turn_starts(game)
        text = game.to_json()
        assert game.clone().to_json() == text
        again = mv.Game.from_json(text)
        assert again.to_json() == text
        assert [str(a) for a in again.legal_actions()] == texts
        for seat in [None] + list(range(n)):
            assert again.observe(seat) == game.observe(seat)


def check_turn_starts(game: mv.Game) -> None:
    """Every turn starts exactly once: the turn events are numbered 1, 2, 3, ... up to the
    current turn, and between two turn starts at least one action was applied (every turn
    asks its player at least once: push or pass, or finish a Harvest)."""
    st = game.state
    turns = [e.data for e in st.events if e.kind == "turn"]
    if not turns:
        return      # leaders still being chosen
    numbers = [d["turn"] for d in turns]
    assert numbers == list(range(1, len(turns) + 1)), f"turns not numbered 1, 2, 3, ...: {numbers}"
    assert numbers[-1] == st.turn_number, f"turn {st.turn_number} is not the last turn started"
    actions = [d["action"] for d in turns]
    for before, after, n in zip(actions, actions[1:], numbers[1:]):
        assert after > before, f"turn {n} started with no action since turn {n - 1} started"


_INITIAL: dict[int, int] = {}


def _initial_supply(st) -> int:
    key = id(st.cat), len(st.players)
    if key not in _INITIAL:
        from mysticvale.engine.setup import LEVEL1_DECK
        l1 = min(len(st.cat.supply_copies(1)), LEVEL1_DECK[len(st.players)])
        _INITIAL[key] = l1 + len(st.cat.supply_copies(2)) + len(st.cat.supply_copies(3))
    return _INITIAL[key]


def play_random_game(players: int, seed: int, *, deep_every: int = 1, max_steps: int = 60_000,
                     **kw) -> mv.Game:
    """Play a seeded game of uniformly random legal actions, checking invariants."""
    game = mv.new_game(players=players, seed=seed, **kw)
    rng = Rng(seed)
    steps = 0
    while not game.is_over():
        check_state(game, deep=steps % deep_every == 0)
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("pick", len(legal))])
        steps += 1
        assert steps < max_steps, "the game did not end"
    check_state(game)
    return game
