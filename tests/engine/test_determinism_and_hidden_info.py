"""Determinism, save/load, and the information-leak checks (DESIGN.md principles 2-4)."""

import json
import random
import re
from pathlib import Path

import pytest

import mysticvale as mv
from mysticvale.engine.rng import Rng


def _play(seed, steps, disturb=False):
    game = mv.new_game(players=3, seed=seed)
    pick = Rng(99)
    for _ in range(steps):
        if game.is_over():
            break
        if disturb:
            random.seed(12345)
            random.random()
        legal = game.legal_actions()
        game.apply_action(legal[pick.below("p", len(legal))])
    return game


def test_same_seed_and_actions_give_the_same_game_even_with_global_random_disturbed():
    a = _play(5, 300)
    b = _play(5, 300, disturb=True)
    assert a.to_json() == b.to_json()
    assert _play(6, 300).to_json() != a.to_json()


def test_nothing_in_the_package_imports_random():
    src = Path(mv.__file__).parent
    for f in src.rglob("*.py"):
        text = f.read_text()
        assert not re.search(r"^\s*(import random|from random import)", text, re.M), f


def test_replaying_the_history_reproduces_the_game():
    a = _play(8, 400)
    b = mv.new_game(players=3, seed=8)
    for text in a.history:
        b.apply_action(text)
    assert b.to_json() == a.to_json()


def test_saved_game_continues_identically():
    a = _play(3, 150)
    b = mv.Game.from_json(a.to_json())
    pick = Rng(1)
    for _ in range(200):
        if a.is_over():
            break
        legal = a.legal_actions()
        k = pick.below("p", len(legal))
        assert [str(x) for x in b.legal_actions()] == [str(x) for x in legal]
        a.apply_action(legal[k])
        b.apply_action(str(legal[k]))
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("text,why", [
    ("", "not valid JSON"),
    ("{}", "format"),
    ('{"format": "mysticvale-save", "version": 999}', "version"),
])
def test_corrupt_saves_are_refused(text, why):
    with pytest.raises(mv.SaveError, match=why):
        mv.Game.from_json(text)


def test_a_save_with_a_card_in_two_places_is_refused():
    import json
    g = _play(2, 50)
    data = json.loads(g.to_json())
    data["players"][0]["discard"].append(data["players"][0]["field"][0])
    with pytest.raises(mv.SaveError, match="exactly one place"):
        mv.Game.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["cards"][0] = ["No Such Card@top"]
    with pytest.raises(mv.SaveError, match="corrupt"):
        mv.Game.from_json(json.dumps(data))


def _reorder_hidden(game, viewer, seed, split="all"):
    """The same game with everything the viewer cannot know changed: every deck order it
    does not know shuffled, and for every other player, which of its cards are in the deck
    and which in the discard pile (the pile keeps its size).  The observation shows no
    split at all (``split="all"``: any card may change places); a viewer who watched the
    game knows where the cards discarded in public went (``split="unseen"``: only cards
    discarded unseen change places)."""
    other = game.clone()
    st = other.state
    r = Rng(seed)
    for p, pl in enumerate(st.players):
        k = len(pl.known_top) if p == viewer else 0
        hidden = pl.deck[: len(pl.deck) - k]
        if p != viewer and pl.discard:
            slots = [i for i, c in enumerate(pl.discard) if split == "all" or c in pl.taken_unseen]
            pool = hidden + [pl.discard[i] for i in slots]
            r.shuffle("x", pool)
            for i in slots:
                pl.discard[i] = pool.pop()
            hidden = pool
            if split == "unseen":
                pl.taken_unseen = [c for c in pl.discard if c in pl.taken_unseen or c in [pl.discard[i] for i in slots]]
        r.shuffle("x", hidden)
        pl.deck = hidden + pl.deck[len(pl.deck) - k:]
    for lvl in st.adv_decks:
        r.shuffle("x", st.adv_decks[lvl])
    for lvl in st.vale_decks:
        r.shuffle("x", st.vale_decks[lvl])
    other._legal = None
    return other


def _owned_ids(pl):
    return sorted(pl.deck + pl.field + pl.discard + pl.aside + ([pl.on_deck] if pl.on_deck is not None else []))


@pytest.mark.parametrize("seed", range(4))
def test_states_differing_only_in_hidden_information_look_the_same(seed):
    game = mv.new_game(players=3, seed=seed)
    pick = Rng(seed)
    for step in range(400):
        if game.is_over():
            break
        if step % 20 == 0:
            for viewer in [None, 0, 1, 2]:
                other = _reorder_hidden(game, viewer if viewer is not None else -1, step)
                seen = game.observe(viewer)
                assert other.observe(viewer) == seen
                # The comparison covers every player's owned cards (all of them, by id).
                assert [[c["id"] for c in p["owned"]] for p in seen["players"]] \
                    == [_owned_ids(pl) for pl in game.state.players]
                if viewer is not None and game.current_player == viewer:
                    assert [str(a) for a in other.legal_actions()] == [str(a) for a in game.legal_actions()]
        legal = game.legal_actions()
        game.apply_action(legal[pick.below("p", len(legal))])


def test_observation_has_the_documented_fields_and_no_deck_order():
    game = _play(4, 60)
    obs = game.observe(0)
    for key in ("vp_pool", "commons", "vale_rows", "players", "phase", "current_player"):
        assert key in obs
    for p in obs["players"]:
        for key in ("deck_count", "discard_count", "field", "on_deck", "vp_tokens", "mana_token_active"):
            assert key in p
    me = obs["players"][0]
    assert [c["id"] for c in me["deck"]] == sorted(c["id"] for c in me["deck"])
    assert "deck" not in obs["players"][1] and "discard" not in obs["players"][1]
    assert "deck" not in game.observe(None)["players"][0]
    with pytest.raises(ValueError, match="no seat 7"):
        game.observe(7)


def test_determinize_keeps_what_the_viewer_knows_and_hides_the_rest():
    game = _play(7, 80)
    st = game.state
    d = game.determinize(0, 123)
    for p in range(3):
        assert sorted(d.state.players[p].deck) == sorted(st.players[p].deck)
        assert d.state.players[p].field == st.players[p].field
        assert d.state.players[p].on_deck == st.players[p].on_deck
    assert d.observe(0) == game.observe(0)
    assert d.state.rng.seed != st.rng.seed


def test_determinize_does_not_depend_on_the_real_hidden_order():
    game = _play(9, 120)
    for viewer in range(3):
        other = _reorder_hidden(game, viewer, 5, split="unseen")
        assert game.determinize(viewer, 77).to_json() == other.determinize(viewer, 77).to_json()


def test_determinize_does_not_depend_on_which_card_was_discarded_unseen():
    sc, top = _calm_weather_discard()
    game = sc.game
    slot = game.state.players[0].discard.index(top)
    moved = 0
    for seed in range(5):
        other = _reorder_hidden(game, 1, seed, split="unseen")
        moved += other.state.players[0].discard[slot] != top
        assert game.determinize(1, 77).to_json() == other.determinize(1, 77).to_json()
    assert moved


# -- the owned cards: public as a set, never their place ----------------------------------
def test_every_seat_and_spectators_see_every_players_owned_cards_sorted_by_id():
    from mysticvale.engine.observation import card_view

    game = _play(11, 200)
    st = game.state
    seen = {v: game.observe(v) for v in (None, 0, 1, 2)}
    for p, pl in enumerate(st.players):
        ids = _owned_ids(pl)
        assert len(ids) == 20
        for v, obs in seen.items():
            entry = obs["players"][p]
            # Every card with its advancements, exactly as the card view shows it anywhere.
            assert entry["owned"] == [card_view(st, c) for c in ids]
            assert entry["owned_count"] == len(ids)
        # Whoever looks, the owned list is the same: it holds nothing private.
        assert len({json.dumps(o["players"][p]["owned"], sort_keys=True) for o in seen.values()}) == 1
    # The own deck and discard pile (their places) still only for their player.
    assert "deck" in seen[0]["players"][0] and "deck" not in seen[1]["players"][0]
    assert "discard" not in seen[None]["players"][0]


def test_owned_lists_follow_a_sleeve_at_once():
    game = _play(12, 40)
    st = game.state
    before = {v: game.observe(v)["players"][0]["owned"] for v in (None, 1)}
    c = st.players[0].field[0] if st.players[0].field else st.players[0].deck[0]
    soil = st.cat.soil_copies["top"]
    st.cards[c] = st.cards[c] + (soil,) if st.cat.fits(st.cards[c], soil) else ()
    game._legal = None
    for v in (None, 1):
        after = game.observe(v)["players"][0]["owned"]
        changed = [a["id"] for a, b in zip(after, before[v]) if a != b]
        assert changed == [c]


def test_determinize_keeps_every_players_owned_cards_and_public_discards():
    for seed in range(6):
        game = _play(20 + seed, 150)
        st = game.state
        for viewer in range(3):
            dg = game.determinize(viewer, 31 * seed + viewer)
            d = dg.state
            obs = game.observe(viewer)
            for p in range(3):
                a, b = st.players[p], d.players[p]
                # Exactly the owned cards the observation showed, make-ups included.
                assert _owned_ids(b) == _owned_ids(a) == [c["id"] for c in obs["players"][p]["owned"]]
                assert all(d.cards[c] == st.cards[c] for c in _owned_ids(a))
                assert (b.field, b.on_deck, b.aside) == (a.field, a.on_deck, a.aside)
                assert len(b.deck) == len(a.deck) and len(b.discard) == len(a.discard)
                # Cards discarded in public stay in their places; only those discarded
                # unseen share the deck's pool.
                public = [i for i, c in enumerate(a.discard) if p == viewer or c not in a.taken_unseen]
                assert [b.discard[i] for i in public] == [a.discard[i] for i in public]
                assert sorted(b.deck + b.discard) == sorted(a.deck + a.discard)
            assert dg.observe(viewer) == obs


def _calm_weather_discard():
    """Player 0 looks at the top card of the deck with Calm Weather and discards it."""
    from scenario import Scenario

    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Calm Weather",
                    deck=["Cursed Land", "Blank", "Stag", "Aurora", "Blank"], discard=["Blank"])
    sc.act("push")
    top = ids["deck"][0]
    sc.act(f"discard #{top}")
    return sc, top


def test_a_card_discarded_unseen_is_resampled_for_the_other_seats_only():
    sc, top = _calm_weather_discard()
    game, st = sc.game, sc.state
    pl = st.players[0]
    assert top in pl.discard and pl.taken_unseen == [top]
    slot = pl.discard.index(top)
    pool = sorted(pl.deck + [top])
    landed = set()
    for k in range(40):
        d = game.determinize(1, k).state
        q = d.players[0]
        landed.add(q.discard[slot])
        assert q.taken_unseen == [q.discard[slot]]
        assert sorted(q.deck + [q.discard[slot]]) == pool
        assert [c for i, c in enumerate(q.discard) if i != slot] == [c for i, c in enumerate(pl.discard) if i != slot]
        assert game.determinize(1, k).observe(1) == game.observe(1)
        # Its owner knows which card it discarded.
        assert game.determinize(0, k).state.players[0].discard == pl.discard
        # A spectator knows no more than the other seat.
        spec = game.determinize(None, k)
        assert spec.observe(None) == game.observe(None)
    assert landed == set(pool)          # any card of the pool may be the one discarded
    # Another seat's observation says nothing of which card it was.
    other = game.clone()
    o = other.state.players[0]
    i = o.deck.index(pool[0] if pool[0] != top else pool[1])
    o.deck[i], o.discard[slot] = o.discard[slot], o.deck[i]
    other._legal = None
    assert other.observe(1) == game.observe(1) and other.observe(None) == game.observe(None)
    assert other.observe(0) != game.observe(0)


def test_a_card_discarded_unseen_is_public_again_once_face_up_or_reshuffled():
    from mysticvale.engine.zones import mark_seen, shuffle_discard_into_deck

    sc, top = _calm_weather_discard()
    st = sc.state
    saved = mv.Game.from_json(sc.game.to_json()).state
    assert saved.players[0].taken_unseen == [top]           # kept by a save
    mark_seen(st, top)
    assert st.players[0].taken_unseen == []
    sc2, top2 = _calm_weather_discard()
    shuffle_discard_into_deck(sc2.state, 0)
    assert sc2.state.players[0].taken_unseen == []


def test_determinize_for_a_spectator_resamples_every_players_hidden_split():
    game = _play(13, 120)
    st = game.state
    orders = set()
    for k in range(10):
        d = game.determinize(None, k)
        assert d.observe(None) == game.observe(None)
        orders.add(tuple(tuple(pl.deck) for pl in d.state.players))
        for a, b in zip(st.players, d.state.players):
            assert sorted(a.deck) == sorted(b.deck) and a.discard == b.discard
    assert len(orders) > 1
    with pytest.raises(ValueError, match="no seat 5"):
        game.determinize(5, 1)


def test_a_leader_never_face_up_shows_to_the_others_as_an_unseen_leader():
    from mysticvale.engine.leaders import leader_on, unseen_leaders
    from mysticvale.engine.observation import card_view
    from mysticvale.engine.zones import mark_seen

    game = mv.new_game(players=4, seed=21, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    for _ in range(4):
        game.apply_action(game.legal_actions()[0])       # every player keeps a leader
    st = game.state
    hidden = {q: unseen_leaders(st, q) for q in range(4)}
    assert any(hidden.values()), "every leader was seen in the starting fields; choose another seed"
    for q, cards in hidden.items():
        for c in cards:
            assert leader_on(st, c) is not None and c not in st.seen_leaders
            for v in (None, 0, 1, 2, 3):
                view = next(x for x in game.observe(v)["players"][q]["owned"] if x["id"] == c)
                if v == q:
                    assert view == card_view(st, c) and view["advancements"]
                else:
                    assert view["unseen_leader"] is True and view["advancements"] == [] \
                        and view["abilities"] == [] and view["name"] == "Leader (not yet revealed)"
                    assert view["mana"] == view["vp"] == view["decay"] == 0
    # Which leader it is changes nothing for the others (and the spectator) ...
    q, c = next((q, cs[0]) for q, cs in hidden.items() if cs)
    for k in range(10):
        d = game.determinize((q + 1) % 4, k)
        assert d.observe((q + 1) % 4) == game.observe((q + 1) % 4)
        assert game.determinize(None, k).observe(None) == game.observe(None)
    # ... until it is face up: then everyone sees it.
    mark_seen(st, c)
    for v in (None, 0, 1, 2, 3):
        view = next(x for x in game.observe(v)["players"][q]["owned"] if x["id"] == c)
        assert view == card_view(st, c)
