"""The OpenSpiel game python_mystic_vale: loading, OpenSpiel's own checks, its bots."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import mysticvale as mv  # noqa: E402
from mysticvale import codec  # noqa: E402
from mysticvale.adapters import openspiel as mvos  # noqa: E402
from mysticvale.bots import SeatView, make_bot  # noqa: E402
from mysticvale.cards.catalogue import KNOWN_SETS, load_catalogue  # noqa: E402


def _all_sets() -> str:
    out = []
    for s in KNOWN_SETS:
        try:
            load_catalogue((s,))
        except (mv.CatalogueError, ValueError):
            continue
        out.append(s)
    return "+".join(out)


def _play_random(state, steps: int, seed: int = 0) -> None:
    """Apply up to ``steps`` uniformly random legal actions (deal included)."""
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(int(rng.randint(state.get_game().mv_deals)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_load_game_by_name_and_parameters():
    game = pyspiel.load_game("python_mystic_vale")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == codec.ACTION_SPACE_SIZE
    gt = game.get_type()
    assert gt.short_name == "python_mystic_vale"
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.max_chance_outcomes() == 10_000
    g3 = pyspiel.load_game("python_mystic_vale(players=3,ruleset=english,deals=50)")
    assert g3.num_players() == 3 and g3.max_chance_outcomes() == 50
    assert g3.mv_ruleset == "english"
    # A comma list of sets works in the dict form and is stored so the string reloads.
    g = pyspiel.load_game("python_mystic_vale", {"sets": "base,twilight_garden"})
    assert g.mv_sets == ("base", "twilight_garden")
    assert pyspiel.load_game(str(g)).mv_sets == ("base", "twilight_garden")
    assert mvos.load(players=4, sets=("base",)).num_players() == 4


@pytest.mark.parametrize("params,message", [
    ({"players": 5}, "players must be 2 to 4"),
    ({"ruleset": "house"}, "unknown rule set"),
    ({"sets": "base,expansion9"}, "unknown set"),
    ({"deals": 0}, "deals must be at least 1"),
])
def test_bad_parameters_fail_clearly(params, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_mystic_vale", params)


def test_the_deal_is_the_engine_seed():
    game = mvos.load(players=3)
    state = game.new_initial_state()
    assert state.is_chance_node() and not state.is_terminal()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10_000 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal 7"
    state.apply_action(7)
    assert state.mv_game.to_json() == mv.new_game(players=3, seed=7).to_json()
    assert state.current_player() == mv.new_game(players=3, seed=7).current_player


@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 3, "ruleset": "english"},
    {"players": 2, "ruleset": "german"},     # the German rules' Prep decision (stop / push)
    {"players": 4, "max_game_length": 60},   # cut games end as draws within the bound
])
def test_openspiel_random_simulation_checks(params):
    """OpenSpiel's own random-simulation test: clone, serialization, legal-action masks
    and sorting, observation tensors, returns within the utility range."""
    game = pyspiel.load_game("python_mystic_vale", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_simulation_all_sets_and_leaders():
    sets = _all_sets()
    leaders = "twilight_garden" in sets
    game = pyspiel.load_game("python_mystic_vale", {"players": 2, "sets": sets, "leaders": leaders})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_clone_and_serialization_are_exact():
    game = mvos.load(players=2)
    state = game.new_initial_state()
    _play_random(state, 120, seed=4)
    clone = state.clone()
    assert clone.mv_game.to_json() == state.mv_game.to_json()
    assert clone.history() == state.history()
    again = game.deserialize_state(state.serialize())
    assert again.mv_game.to_json() == state.mv_game.to_json()
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(g2) == str(game) and s2.mv_game.to_json() == state.mv_game.to_json()
    # The copies share no state and have the same future.
    for s in (state, clone, again, s2):
        _play_random(s, 40, seed=9)
    assert len({s.mv_game.to_json() for s in (state, clone, again, s2)}) == 1


def test_strings_and_tensors_come_from_observe():
    game = mvos.load(players=2)
    state = game.new_initial_state()
    assert state.observation_string(0) == "before the deal"
    _play_random(state, 50, seed=2)
    g = state.mv_game
    for p in range(2):
        assert json.loads(state.observation_string(p)) == json.loads(json.dumps(g.observe(p)))
        tensor = np.array(state.observation_tensor(p), dtype=np.float32)
        assert np.array_equal(tensor, game.encoder.encode(g.observe(p)))
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.information_state_string(0).startswith(state.observation_string(0))
    assert list(game.observation_tensor_shape()) == [game.encoder.size]


def test_resample_from_infostate_keeps_the_information_state():
    game = mvos.load(players=2)
    state = game.new_initial_state()
    _play_random(state, 80, seed=6)
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(3):
        other = state.resample_from_infostate(p, sampler)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.legal_actions() == state.legal_actions()
        seen.add(other.mv_game.to_json())
    assert state.mv_game.to_json() not in seen   # the hidden order was resampled


def test_returns_share_the_win_and_a_cut_game_is_a_draw():
    game = mvos.load(players=2)
    state = game.new_initial_state()
    _play_random(state, 20_000, seed=1)
    assert state.is_terminal()
    returns = state.returns()
    winners = state.mv_game.winners()
    assert abs(sum(returns) - 1.0) < 1e-9
    assert returns == [1.0 / len(winners) if p in winners else 0.0 for p in range(2)]
    cut = mvos.load(players=3, max_game_length=5).new_initial_state()
    _play_random(cut, 100, seed=1)
    assert cut.is_terminal() and not cut.mv_game.is_over()
    assert cut.returns() == [1 / 3] * 3 and len(cut.history()) == 6   # the deal + 5


def _bot_vs_random(game, bot, seat: int, deal: int) -> pyspiel.State:
    state = game.new_initial_state()
    state.apply_action(deal)
    rival = make_bot("random", seed=deal)
    while not state.is_terminal():
        p = state.current_player()
        if p == seat:
            action = bot.step(state)
        else:
            action = codec.encode(rival.act(SeatView(state.mv_game, p)))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_ismcts_plays_a_complete_game_against_the_random_bot():
    from open_spiel.python.algorithms import ismcts, mcts

    game = mvos.load(players=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2,
                           random_state=np.random.RandomState(2))
    state = _bot_vs_random(game, bot, seat=0, deal=3)
    assert state.mv_game.is_over()
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_mcts_plays_a_complete_game_against_the_random_bot():
    from open_spiel.python.algorithms import mcts

    game = mvos.load(players=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(3))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator,
                       random_state=np.random.RandomState(4))
    state = _bot_vs_random(game, bot, seat=1, deal=8)
    assert state.mv_game.is_over()
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_a_saved_engine_game_becomes_a_state():
    game = mvos.load(players=2)
    g = mv.new_game(players=2, seed=12)
    for _ in range(30):
        g.apply_action(g.legal_actions()[-1])
    state = game.new_initial_state(g.to_json())
    assert not state.is_chance_node() and state.current_player() == g.current_player
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        sorted((str(a) for a in g.legal_actions()), key=codec.encode)
    with pytest.raises(ValueError, match="3-player game"):
        game.new_initial_state(mv.new_game(players=3, seed=1).to_json())


def test_openspiel_rl_environment_runs_an_episode():
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("python_mystic_vale", players=2)
    env.seed(3)
    assert env.action_spec()["num_actions"] == codec.ACTION_SPACE_SIZE
    ts = env.reset()
    rng = np.random.RandomState(3)
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][p]
        assert len(ts.observations["info_state"][p]) == env.observation_spec()["info_state"][0]
        ts = env.step([int(rng.choice(legal))])
        steps += 1
        assert steps < 20_000
    assert sorted(ts.rewards) in ([0.0, 1.0], [0.5, 0.5])


def test_resampling_keeps_the_information_state_with_every_set_and_leaders():
    """ISMCTS asserts that a resampled world shows the searcher the same information
    state; check it along a whole random game with every set (and leaders)."""
    sets = _all_sets()
    game = pyspiel.load_game("python_mystic_vale", {
        "players": 3, "sets": sets, "leaders": "twilight_garden" in sets})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.RandomState(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    step = 0
    while not state.is_terminal():
        if step % 4 == 0:
            p = state.current_player()
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
        step += 1


def test_openspiel_playthrough_generator_and_factored_observations():
    """OpenSpiel's playthrough generator (the format of its golden files) runs; the
    public observation is a spectator's and the private one only what the seat adds."""
    from open_spiel.python.algorithms import generate_playthrough
    from open_spiel.python.observation import make_observation

    text = generate_playthrough.playthrough(
        "python_mystic_vale(max_game_length=6,deals=20)", action_sequence=None,
        alsologtostdout=False, seed=1)
    assert "IsTerminal() = True" in text and "Returns() = [0.5, 0.5]" in text

    game = mvos.load(players=2)
    state = game.new_initial_state()
    _play_random(state, 30, seed=3)
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    g = state.mv_game
    assert json.loads(public.string_from(state, 0)) == json.loads(json.dumps(g.observe(None)))
    public.set_from(state, 1)
    assert np.array_equal(public.tensor, game.encoder.encode(g.observe(None)))
    mine = json.loads(private.string_from(state, 0))
    assert set(mine["players"]) == {"0"}          # only the seat's own entry differs
    assert {c["id"] for c in mine["players"]["0"]["deck"]} == {c["id"] for c in g.observe(0)["players"][0]["deck"]}
    assert private.tensor is None
    with pytest.raises(ValueError, match="every player"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
