"""The native game facade: ``new_game(..., engine="native")`` and ``Game.from_json(...,
engine="native")`` give a :class:`NativeGame` with the face of ``Game``: the same set-up,
the same values and errors with the same messages, and the game unchanged after any error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale import codec
from mysticvale.engine.native_game import NativeGame
from mysticvale.engine.rng import Rng
from mysticvale.errors import IllegalActionError, InvalidActionError, SaveError

from stepwise import SET_LISTS


def _both(**options):
    return mv.new_game(**options), mv.new_game(engine="native", **options)


def _same_face(py, nat) -> None:
    """Everything the two games say about themselves is the same."""
    assert nat.to_json() == py.to_json()
    assert nat.legal_actions() == py.legal_actions()
    assert [type(a) for a in nat.legal_actions()] == [mv.Action] * len(py.legal_actions())
    assert nat.current_player == py.current_player
    assert nat.phase == py.phase
    assert nat.players == py.players
    assert nat.round == py.round
    assert nat.is_over() == py.is_over()
    assert nat.scores() == py.scores()
    assert nat.winners() == py.winners()
    assert nat.history == py.history
    for seat in range(py.players):
        assert nat.score_breakdown(seat) == py.score_breakdown(seat)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers() | st.integers(-(2**80), 2**80),
       sets=st.sampled_from(SET_LISTS), ruleset=st.sampled_from(sorted(mv.RULESETS)),
       leaders=st.booleans(), finish_turn=st.booleans())
def test_a_native_game_is_set_up_as_the_python_game(core, players, seed, sets, ruleset, leaders, finish_turn):
    py, nat = _both(players=players, seed=seed, sets=sets, ruleset=ruleset, finish_turn=finish_turn,
                    leaders=leaders and "twilight_garden" in sets)
    assert isinstance(nat, NativeGame)
    _same_face(py, nat)
    assert nat == py and py == nat


def test_python_stays_the_default_and_an_unknown_engine_is_refused(core):
    assert type(mv.new_game(seed=1)) is mv.Game
    assert type(mv.new_game(seed=1, engine="python")) is mv.Game
    for bad in ("rust", None, 1):
        with pytest.raises(ValueError, match="engines are: python, native"):
            mv.new_game(seed=1, engine=bad)
        with pytest.raises(ValueError, match="engines are: python, native"):
            mv.Game.from_json(mv.new_game(seed=1).to_json(), engine=bad)


@pytest.mark.parametrize("options, message", [
    (dict(players=5), "Mystic Vale is for 2 to 4 players, not 5"),
    (dict(players=1), "Mystic Vale is for 2 to 4 players, not 1"),
    (dict(players=True), "players must be a whole number"),
    (dict(seed=1.5), "seed must be a whole number"),
    (dict(ruleset="klingon"), "klingon"),
    (dict(sets=("base", "nonsense")), "nonsense"),
    (dict(leaders=True), "leaders come with the Twilight Garden set"),
    (dict(leaders="yes"), "leaders must be True or False"),
    (dict(finish_turn=1), "finish_turn must be True or False"),
    (dict(colour="red"), "unknown option"),
])
def test_bad_options_are_refused_with_python_s_message(core, options, message):
    with pytest.raises(Exception) as ref:
        mv.new_game(**options)
    with pytest.raises(Exception) as mine:
        mv.new_game(engine="native", **options)
    assert type(mine.value) is type(ref.value)
    assert str(mine.value) == str(ref.value)
    assert message in str(mine.value)


@pytest.mark.parametrize("action", [
    "", "   ", "jump", "JUMP now", "buy 1.1 it's", "push\x00", "buy 9.9", "finish", "use #99.1",
    "pass extra", mv.Action("buy", ("1.1",)), mv.Action("PUSH"), 3.5, None, b"push",
    codec.ACTION_SPACE_SIZE, -1, codec.encode("finish"), True,
])
def test_a_bad_action_raises_python_s_error_and_changes_nothing(core, action):
    py, nat = _both(players=3, seed=11)
    before = nat.to_json()
    with pytest.raises(ValueError) as ref:
        py.apply_action(action) if not isinstance(action, int) or isinstance(action, bool) \
            else py.apply_action(codec.decode(action))
    with pytest.raises(ValueError) as mine:
        nat.apply_action(action)
    assert type(mine.value) is type(ref.value)
    assert str(mine.value) == str(ref.value)
    assert nat.to_json() == before
    assert nat.legal_actions() == py.legal_actions()


def test_the_error_types_are_the_engine_s(core):
    nat = mv.new_game(seed=3, engine="native")
    with pytest.raises(InvalidActionError, match="unknown verb 'jump'"):
        nat.apply_action("jump")
    with pytest.raises(IllegalActionError, match=r"finish is not legal now \(player \d to act, phase planting\)"):
        nat.apply_action("finish")
    with pytest.raises(codec.CodecError):
        nat.apply_action(codec.ACTION_SPACE_SIZE)


def test_an_action_its_notation_and_its_number_are_the_same_action(core):
    games = [mv.new_game(seed=5, engine="native") for _ in range(3)]
    for g, a in zip(games, [mv.Action("pass"), "pass", codec.encode("pass")]):
        g.apply_action(a)
    assert games[0].history == ["pass"]
    assert games[0] == games[1] == games[2]


def test_either_engine_s_save_loads_into_the_native_core(core):
    py = mv.new_game(players=3, seed=8, sets=("base", "vale_of_magic"), ruleset="german")
    text = py.to_json()
    for nat in (NativeGame.from_json(text), mv.Game.from_json(text, engine="native"),
                mv.Game.from_json(text.encode(), engine="native")):
        assert isinstance(nat, NativeGame)
        _same_face(py, nat)
    back = mv.Game.from_json(NativeGame.from_json(text).to_json())
    assert type(back) is mv.Game and back == py


@pytest.mark.parametrize("text", [
    "", "{", "[]", '{"format": "mysticvale-save"}', b"\xff\xfe",
])
def test_a_corrupt_save_is_refused_with_save_error(core, text):
    with pytest.raises(SaveError) as ref:
        mv.Game.from_json(text)
    with pytest.raises(SaveError) as mine:
        mv.Game.from_json(text, engine="native")
    assert str(mine.value) == str(ref.value)


def test_a_save_corrupt_inside_is_refused_whole(core):
    import json
    data = json.loads(mv.new_game(seed=2).to_json())
    data["players"][0]["deck"].append(999)
    with pytest.raises(SaveError):
        mv.Game.from_json(json.dumps(data))
    with pytest.raises(SaveError):
        NativeGame.from_json(json.dumps(data))


def test_a_clone_is_independent(core):
    nat = mv.new_game(seed=4, engine="native")
    legal = nat.legal_actions()
    twin = nat.clone()
    assert twin == nat and twin is not nat and twin.legal_actions() == legal
    twin.apply_action("pass")
    assert nat.history == [] and twin.history == ["pass"]
    assert nat.legal_actions() == legal


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**40), sets=st.sampled_from(SET_LISTS),
       sample=st.integers() | st.integers(-(2**70), 2**70), draws=st.integers(0, 3))
def test_determinize_samples_python_s_world_and_moves_the_generator_as_python(core, players, seed, sets,
                                                                             sample, draws):
    py, nat = _both(players=players, seed=seed, sets=sets)
    for viewer in [None, *range(players)]:
        assert nat.determinize(viewer, sample).to_json() == py.determinize(viewer, sample).to_json()
        r_py, r_nat = Rng(sample), Rng(sample)
        for _ in range(draws):       # a generator that has drawn before
            r_py.below("determinize", 1000)
            r_nat.below("determinize", 1000)
        r_py.below("other", 7)
        r_nat.below("other", 7)
        d_py, d_nat = py.determinize(viewer, r_py), nat.determinize(viewer, r_nat)
        assert isinstance(d_nat, NativeGame)
        assert d_nat.to_json() == d_py.to_json()
        assert r_nat.to_dict() == r_py.to_dict()
    assert nat.to_json() == py.to_json()


def test_a_seat_outside_the_game_is_a_value_error(core):
    py, nat = _both(players=2, seed=1)
    for seat in (2, -1, 7):
        for call in ("score_breakdown", "observe"):
            with pytest.raises(ValueError) as ref:
                getattr(py, call)(seat)
            with pytest.raises(ValueError) as mine:
                getattr(nat, call)(seat)
            assert str(mine.value) == str(ref.value) == f"no seat {seat} in a 2-player game"
        with pytest.raises(ValueError) as mine:
            nat.determinize(seat, 1)
        assert str(mine.value) == f"no seat {seat} in a 2-player game"


def test_the_full_state_is_python_s_state_of_the_same_game(core):
    from mysticvale.engine.serialize import dumps
    py, nat = _both(players=3, seed=9, sets=("base", "twilight_garden"))
    st = nat.state
    assert dumps(st) == py.to_json()
    st.round = 99                       # a copy: the game does not change
    assert nat.round == 1


def test_repr_names_the_engine_and_where_the_game_stands(core):
    nat = mv.new_game(players=3, seed=9, engine="native")
    assert repr(nat) == "<NativeGame 3p round 1 phase planting>"
    assert repr(mv.new_game(players=3, seed=9)) == "<Game 3p round 1 phase planting>"


def test_observations_and_logs_are_python_s(core):
    py, nat = _both(players=3, seed=12, sets=("base", "vale_of_magic"))
    for seat in (None, 0, 1, 2):
        assert nat.observe(seat) == py.observe(seat)
        for since in (0, 1, 5):
            assert nat.log(seat, since) == py.log(seat, since)
