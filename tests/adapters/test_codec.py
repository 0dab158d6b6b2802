"""The fixed integer action space and the observation tensor (mysticvale.codec)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")   # masks and tensors are numpy arrays (the extras bring it)

import mysticvale as mv  # noqa: E402
from mysticvale import codec  # noqa: E402
from mysticvale.bots import SeatView, make_bot  # noqa: E402
from mysticvale.cards.catalogue import KNOWN_SETS, load_catalogue  # noqa: E402
from mysticvale.engine.actions import VERBS, Action  # noqa: E402


def loadable_sets() -> list[str]:
    """The sets of KNOWN_SETS whose data loads (a set still being written may not)."""
    out = []
    for s in KNOWN_SETS:
        try:
            load_catalogue((s,))
        except (mv.CatalogueError, ValueError):
            continue
        out.append(s)
    assert "base" in out
    return out


# -- the action space ------------------------------------------------------------------------
def test_every_number_decodes_and_encodes_back():
    words = set()
    for i in range(codec.ACTION_SPACE_SIZE):
        a = codec.decode(i)
        assert codec.encode(a) == i
        assert codec.encode(str(a)) == i
        assert Action.parse(str(a)) == a
        words.add(str(a))
    assert len(words) == codec.ACTION_SPACE_SIZE


def test_layout_table_is_contiguous_and_documented():
    table = codec.action_space_table()
    assert table[0]["first"] == 0 and codec.encode("push") == 0
    for prev, row in zip(table, table[1:]):
        assert row["first"] == prev["last"] + 1
    assert table[-1]["last"] == codec.ACTION_SPACE_SIZE - 1
    assert sum(r["size"] for r in table) == codec.ACTION_SPACE_SIZE
    # The documented domain sizes (module docstring) are the real ones.
    assert codec.DOMAINS["card"].size == 80
    assert codec.DOMAINS["market"].size == 12
    assert codec.DOMAINS["card_ability"].size == 80 * 6 * 3


def test_every_engine_verb_has_a_notation_form():
    verbs = {f.verb for f in codec.GRAMMAR}
    missing = sorted(set(VERBS) - verbs)
    assert not missing, f"verbs without a codec form (append one to codec.GRAMMAR): {missing}"


def test_leader_words_cover_the_catalogue():
    if "twilight_garden" not in loadable_sets():
        pytest.skip("the Twilight Garden data does not load")
    cat = load_catalogue(("twilight_garden",))
    slugs = {lt.slug for lt in getattr(cat, "leaders", {}).values()}
    assert slugs <= set(codec.LEADERS)


@pytest.mark.parametrize("text", [
    "buy 4.1", "buy soil.left", "use #80.1", "use #7.7", "use #7.2.4", "vale 3.1",
    "guard vale.65 #3", "sleeve 7", "buy 1.1 under #7", "choose nobody",
])
def test_notation_outside_the_space_is_refused_clearly(text):
    with pytest.raises(codec.CodecError, match="outside the fixed action space"):
        codec.encode(text)


def test_non_canonical_and_unknown_forms_are_refused():
    # "#7.2.1" means "#7.2" but is not how the engine writes it: not in the space.
    with pytest.raises(codec.CodecError):
        codec.encode("use #7.2.1")
    with pytest.raises(codec.CodecError, match="knows the verbs"):
        codec.encode(Action("frobnicate", ("x",)))
    with pytest.raises(mv.InvalidActionError):
        codec.encode("frobnicate x")


@pytest.mark.parametrize("bad", [-1, codec.ACTION_SPACE_SIZE, 10**9, True, 2.5, "3"])
def test_numbers_outside_the_space_are_refused(bad):
    with pytest.raises(codec.CodecError):
        codec.decode(bad)


def test_numpy_integers_decode():
    assert str(codec.decode(np.int64(1))) == "pass"


def _configs():
    sets = loadable_sets()
    out = []
    for i, s in enumerate(sets):
        out.append(((s,), 2 + i % 3, ("yucata", "english", "german")[i % 3], False))
    if len(sets) > 1:
        out.append((tuple(sets), 3, "yucata", False))
        out.append((tuple(sets), 4, "english", False))
        out.append((tuple(sets), 2, "german", False))
    if "twilight_garden" in sets:
        out.append((tuple(sets), 2, "yucata", True))
        out.append((("twilight_garden",), 3, "english", True))
    return out


@pytest.mark.parametrize("sets,players,ruleset,leaders", _configs())
def test_every_legal_action_of_random_games_round_trips(sets, players, ruleset, leaders):
    """Every legal action of whole random games encodes, decodes back exactly, and the
    mask marks exactly the legal numbers; the observation encodes at every step."""
    opts = {"leaders": True} if leaders else {}
    enc = codec.ObservationEncoder(sets)
    for seed in (1, 2):
        game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, **opts)
        bots = [make_bot("random", seed=seed * 10 + p) for p in range(players)]
        steps = 0
        while not game.is_over():
            legal = game.legal_actions()
            ids = codec.legal_ids(game)
            assert len(set(ids)) == len(legal)
            assert [codec.decode(i) for i in ids] == sorted(legal, key=codec.encode)
            for a in legal:
                assert codec.decode(codec.encode(a)) == a
            mask = codec.legal_mask(game)
            assert mask.dtype == np.int8 and mask.sum() == len(legal) and mask[ids].all()
            p = game.current_player
            other = (p + 1) % players
            assert codec.legal_mask(game, other).sum() == 0
            unknown = codec.unknown_observation_keys(game.observe(p))
            assert not unknown, (f"observe() has keys the observation tensor does not know: "
                                 f"{unknown}; encode them in codec.ObservationEncoder or list "
                                 f"them in codec.OBSERVATION_KEYS")
            if steps % 7 == 0:
                vec = enc.encode(game.observe(p))
                assert vec.shape == (enc.size,) and np.isfinite(vec).all()
                assert enc.LOW <= vec.min() and vec.max() <= enc.HIGH
            game.apply_action(bots[p].act(SeatView(game, p)))
            steps += 1
            assert steps < 20_000
        assert codec.legal_ids(game) == []


# -- the observation tensor ------------------------------------------------------------------
def test_layout_sections_tile_the_vector():
    enc = codec.ObservationEncoder(("base",))
    offset = 0
    for sec in enc.layout():
        assert sec.offset == offset
        offset += sec.size
    assert offset == enc.size
    assert "cards: 80 row(s)" in enc.describe()
    with pytest.raises(KeyError, match="no column"):
        enc.column("cards", "colour")


def test_observation_tensor_contents():
    game = mv.new_game(players=3, seed=5)
    enc = codec.ObservationEncoder(("base",))
    viewer = game.current_player
    obs = game.observe(viewer)
    vec = enc.encode(obs)
    views = enc.sections(vec)
    col = {s.name: {c: enc.column(s.name, c) for c in s.columns} for s in enc.layout()}
    g = views["game"][0]
    assert g[col["game"][f"viewer_seat_{viewer + 1}"]] == 1
    assert g[col["game"]["players_3"]] == 1 and g[col["game"]["players_2"]] == 0
    assert g[col["game"]["i_must_act"]] == 1 and g[col["game"]["current_me"]] == 1
    assert g[col["game"]["vp_pool"]] == obs["vp_pool"]
    # Seats are relative to the viewer; the 4th row is empty in a 3-player game.
    players = views["players"]
    assert players[:3, col["players"]["present"]].tolist() == [1, 1, 1]
    assert players[3].sum() == 0
    me = obs["players"][viewer]
    assert players[0, col["players"]["deck_count"]] == me["deck_count"]
    # Card table: the viewer's deck cards are marked, the next player's deck is not shown.
    cards = views["cards"]
    cc = col["cards"]
    for card in me["deck"]:
        assert cards[card["id"], cc["own_deck"]] == 1
        assert cards[card["id"], cc["decay"]] == card["decay"]
    nxt = obs["players"][(viewer + 1) % 3]
    for pos, card in enumerate(nxt["field"], start=1):
        assert cards[card["id"], cc["field_next"]] == 1
        assert cards[card["id"], cc["field_position"]] == pos
    # Every owned card of every seat has its make-up and its owner, and no place unless the
    # viewer may know it; ids nobody owns (a 3-player game has 60 cards) are zero rows.
    place = [cc[c] for c in ("own_deck", "own_discard", "known_top", "top_rank", "field_position")] \
        + [cc[f"{z}_{r}"] for z in ("field", "on_deck", "set_aside") for r in ("me", "next", "next2", "next3")]
    for seat, pl in enumerate(obs["players"]):
        rel = ("me", "next", "next2")[(seat - viewer) % 3]
        for card in pl["owned"]:
            row = cards[card["id"]]
            assert row[cc[f"owned_{rel}"]] == 1 and row[cc["decay"]] == card["decay"]
            assert row[cc["mana"]] == card["mana"]
            public = card in pl["field"] or card == pl["on_deck"] or seat == viewer
            if not public:
                assert row[place].sum() == 0
        assert players[(seat - viewer) % 3, col["players"]["owned_decay"]] == sum(c["decay"] for c in pl["owned"])
        assert players[(seat - viewer) % 3, col["players"]["owned_mana"]] == sum(c["mana"] for c in pl["owned"])
    assert all(cards[c].sum() == 0 for c in range(60, codec.MAX_CARDS))
    # Commons: a present card with its cost and a one-hot identity.
    com = views["commons"]
    first = obs["commons"]["1"][0]
    assert com[0, col["commons"]["present"]] == 1
    assert com[0, col["commons"]["cost"]] == first["cost"]
    assert com[0, col["commons"][f"type:{first['name']}"]] == 1


def test_observation_tensor_hides_deck_order():
    """Two games that differ only in hidden order give the viewer the same tensor."""
    game = mv.new_game(players=2, seed=11)
    bots = [make_bot("random", seed=p) for p in range(2)]
    for _ in range(60):
        p = game.current_player
        game.apply_action(bots[p].act(SeatView(game, p)))
    enc = codec.ObservationEncoder(("base",))
    viewer = game.current_player
    other = game.determinize(viewer, 99)
    assert other.to_json() != game.to_json()
    assert np.array_equal(enc.encode(game.observe(viewer)), enc.encode(other.observe(viewer)))


def test_spectator_observation_has_no_private_rows():
    game = mv.new_game(players=2, seed=3)
    enc = codec.ObservationEncoder(("base",))
    views = enc.sections(enc.encode(game.observe(None)))
    assert views["cards"][:, enc.column("cards", "own_deck")].sum() == 0
    assert views["game"][0, :4].sum() == 0   # no viewer seat


def test_observation_string_is_canonical_json():
    game = mv.new_game(players=2, seed=3)
    import json
    assert json.loads(codec.observation_string(game, 0)) == json.loads(json.dumps(game.observe(0)))


def test_leaders_dealt_to_choose_from_are_seen_only_by_their_player():
    sets = tuple(s for s in ("base", "twilight_garden") if s in loadable_sets())
    if "twilight_garden" not in sets:
        pytest.skip("the Twilight Garden data does not load")
    game = mv.new_game(players=2, seed=4, sets=sets, leaders=True)
    obs = game.observe(game.current_player)
    assert obs["pending"] and obs["pending"]["kind"] == "choose_leader"
    enc = codec.ObservationEncoder(sets)
    mine = enc.sections(enc.encode(obs))["leaders"][0]
    dealt = {str(a).split()[1] for a in game.legal_actions()}
    assert {codec.LEADERS[i] for i in np.flatnonzero(mine)} == dealt
    other = 1 - game.current_player
    theirs = enc.sections(enc.encode(game.observe(other)))["leaders"]
    assert theirs[0].sum() == 0                  # not their choice to make
    # The leaders dealt to a player are known to that player only (file 003).
    for seat in (0, 1):
        obs = game.observe(seat)
        names = {codec._slug(n) for n in obs["players"][seat].get("leaders_dealt", ())}
        row = enc.sections(enc.encode(obs))["leaders"][1]
        assert {codec.LEADERS[i] for i in np.flatnonzero(row)} == names
    assert {codec._slug(n) for n in game.observe(game.current_player)["players"][game.current_player]
            .get("leaders_dealt", dealt)} == dealt


def test_module_docstring_examples_run():
    import doctest

    failures, tried = doctest.testmod(codec)
    assert tried >= 2 and failures == 0


def test_unknown_observation_keys_are_reported():
    import copy
    # Observations share their card views between calls (they are read-only data): change a copy.
    obs = copy.deepcopy(mv.new_game(players=2, seed=1).observe(0))
    assert codec.unknown_observation_keys(obs) == []
    obs["weather"] = "rain"
    obs["players"][0]["mood"] = "happy"
    obs["players"][0]["field"][0]["glow"] = 1
    assert codec.unknown_observation_keys(obs) == ["card.glow", "observation.weather", "player.mood"]


def test_an_unseen_leader_of_another_seat_is_only_marked_as_one():
    sets = ("base", "vale_of_magic", "twilight_garden")
    if not all(s in loadable_sets() for s in sets):
        pytest.skip("the expansion data does not load")
    from mysticvale.engine.leaders import unseen_leaders

    game = mv.new_game(players=4, seed=21, sets=sets, leaders=True)
    for _ in range(4):
        game.apply_action(game.legal_actions()[0])
    st = game.state
    enc = codec.ObservationEncoder(sets)
    q = next(q for q in range(4) if unseen_leaders(st, q))
    c = unseen_leaders(st, q)[0]
    viewer = (q + 1) % 4
    cc = {n: enc.column("cards", n) for n in enc.layout()[[s.name for s in enc.layout()].index("cards")].columns}
    vec = enc.encode(game.observe(viewer))
    row = enc.sections(vec)["cards"][c]
    rel = ("me", "next", "next2", "next3")[(q - viewer) % 4]
    assert row[cc[f"owned_{rel}"]] == 1 and row[cc["leader_unseen"]] == 1 and row.sum() == 2
    players = enc.sections(vec)["players"]
    assert players[(q - viewer) % 4, enc.column("players", "owned_unseen_leaders")] == 1
    # Its owner sees what it is; which leader it is changes nothing for the others.
    mine = enc.sections(enc.encode(game.observe(q)))["cards"][c]
    assert mine[cc["leader_unseen"]] == 0 and mine[cc["layers"]] >= 1
    for k in range(5):
        other = game.determinize(viewer, k)
        assert np.array_equal(enc.encode(other.observe(viewer)), vec)
