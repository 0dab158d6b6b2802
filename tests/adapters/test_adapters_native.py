"""The OpenSpiel game and the PettingZoo environment on the native core (``engine="native"``):
seeded games played through each adapter with both engines side by side show the same
observations, legal actions and masks, rewards and returns at every step, for every set
list, 2-4 players, every rule set and leaders (at every step every seat's mask and the
acting seat's observation, as string, tensor and information state; every seat's
observation every ``FULL_EVERY`` steps and at the end, as the native core's ``observe``
costs about 2 ms and a tensor about 1 ms); an
OpenSpiel state's clones, saves and resampled worlds, and a PettingZoo env's
``reset(seed)``, are the same games in both engines; a bad engine is refused clearly."""

from __future__ import annotations

import warnings

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import mysticvale as mv  # noqa: E402
from mysticvale import codec  # noqa: E402
from mysticvale.adapters import openspiel as mvos  # noqa: E402
from mysticvale.adapters.pettingzoo import env, raw_env  # noqa: E402
from mysticvale.engine import native  # noqa: E402
from mysticvale.engine.native_game import NativeGame  # noqa: E402

ENGINES = ("python", "native")
#: Every seat's tensors (and, in PettingZoo, observations) are compared every this many steps.
FULL_EVERY = 8
BASE, VOM, TG = "base", "vale_of_magic", "twilight_garden"

#: One game per row: every set list, 2-4 players, every rule set, leaders on and off.
OPTIONS = [
    dict(players=2, sets=(BASE,), ruleset="yucata", leaders=False),
    dict(players=3, sets=(BASE, VOM), ruleset="english", leaders=False),
    dict(players=4, sets=(BASE, TG), ruleset="german", leaders=True),
    dict(players=2, sets=(BASE, VOM, TG), ruleset="yucata", leaders=True),
    dict(players=3, sets=(VOM, TG), ruleset="german", leaders=False),
    dict(players=2, sets=(BASE, TG), ruleset="english", leaders=False),
]
IDS = [f"{o['players']}p-{'+'.join(o['sets'])}-{o['ruleset']}{'-leaders' if o['leaders'] else ''}"
       for o in OPTIONS]


def _spiel_params(o: dict, engine: str) -> dict:
    return {"players": o["players"], "sets": "+".join(o["sets"]), "ruleset": o["ruleset"],
            "leaders": o["leaders"], "engine": engine}


def _same_openspiel_state(py, nat, players: int, full: bool = True) -> None:
    """What OpenSpiel shows of a state is the same in both engines: the acting seat, the
    returns and rewards, the summary string, every seat's legal actions and mask, and the
    acting seat's observation string, tensor and information state (every seat's when
    ``full``)."""
    assert nat.current_player() == py.current_player()
    assert nat.is_terminal() == py.is_terminal()
    assert nat.is_chance_node() == py.is_chance_node()
    assert nat.returns() == py.returns()
    assert nat.rewards() == py.rewards()
    assert str(nat) == str(py)
    if py.is_chance_node():
        assert nat.chance_outcomes() == py.chance_outcomes()
        return
    acting = py.current_player()
    for p in range(players):
        assert nat.legal_actions(p) == py.legal_actions(p)
        assert nat.legal_actions_mask(p) == py.legal_actions_mask(p)
        if full or p == acting:
            assert nat.observation_string(p) == py.observation_string(p)
            assert nat.information_state_string(p) == py.information_state_string(p)
            assert nat.observation_tensor(p) == py.observation_tensor(p)


def _openspiel_pair(o: dict, deal: int):
    games = [pyspiel.load_game(mvos.SHORT_NAME, _spiel_params(o, e)) for e in ENGINES]
    states = [g.new_initial_state() for g in games]
    for s in states:
        s.apply_action(deal)
    assert type(states[0].mv_game) is mv.Game and type(states[1].mv_game) is NativeGame
    return games, states


@pytest.mark.parametrize("o", OPTIONS, ids=IDS)
def test_openspiel_games_are_the_same_in_both_engines_at_every_step(core, o):
    games = [pyspiel.load_game(mvos.SHORT_NAME, _spiel_params(o, e)) for e in ENGINES]
    assert games[1].mv_engine == "native" and "engine=native" in str(games[1])
    py, nat = (g.new_initial_state() for g in games)
    rng = np.random.RandomState(o["players"] * 31 + len(o["sets"]))
    deal = int(rng.randint(games[0].max_chance_outcomes()))
    steps = 0
    while True:
        _same_openspiel_state(py, nat, o["players"], full=steps % FULL_EVERY == 0 or py.is_terminal())
        if py.is_terminal():
            break
        action = deal if py.is_chance_node() else int(rng.choice(py.legal_actions()))
        assert nat.action_to_string(nat.current_player(), action) == \
            py.action_to_string(py.current_player(), action)
        py.apply_action(action)
        nat.apply_action(action)
        steps += 1
    assert type(nat.mv_game) is NativeGame and nat.mv_game.is_over()
    assert nat.mv_game.to_json() == py.mv_game.to_json()
    assert nat.history() == py.history() and steps > 100
    assert abs(sum(nat.returns()) - 1.0) < 1e-9


def test_openspiel_clones_saves_and_resampled_worlds_are_the_same_games(core):
    o = OPTIONS[3]
    games, states = _openspiel_pair(o, deal=17)
    rng = np.random.RandomState(5)
    for _ in range(90):
        a = int(rng.choice(states[0].legal_actions()))
        for s in states:
            s.apply_action(a)
    saves = [s.mv_game.to_json() for s in states]
    assert saves[0] == saves[1]
    clones = [s.clone() for s in states]
    assert type(clones[1].mv_game) is NativeGame
    # Played on alike, the clones stay alike, and their originals stay as they were.
    for _ in range(60):
        a = int(rng.choice(clones[0].legal_actions()))
        for c in clones:
            c.apply_action(a)
        _same_openspiel_state(clones[0], clones[1], o["players"], full=False)
    assert [s.mv_game.to_json() for s in states] == saves
    assert clones[1].mv_game.to_json() != saves[1]
    # Serialization keeps the engine: the state comes back native, the same game.
    again = games[1].deserialize_state(states[1].serialize())
    assert type(again.mv_game) is NativeGame and again.mv_game.to_json() == saves[0]
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(games[1], states[1]))
    assert g2.mv_engine == "native" and type(s2.mv_game) is NativeGame
    _same_openspiel_state(states[0], s2, o["players"])
    # The same sampler value gives the same resampled world (Game.determinize's seed).
    p = states[0].current_player()
    worlds = [s.resample_from_infostate(p, lambda: 0.3) for s in states]
    assert type(worlds[1].mv_game) is NativeGame
    assert worlds[1].mv_game.to_json() == worlds[0].mv_game.to_json() != saves[0]
    assert worlds[1].information_state_string(p) == states[1].information_state_string(p)
    # A save of either engine becomes a native state of a native game.
    held = games[1].new_initial_state(states[0].mv_game.to_json())
    assert type(held.mv_game) is NativeGame
    _same_openspiel_state(states[0], held, o["players"])


def test_openspiel_random_simulation_checks_pass_on_the_native_engine(core):
    """OpenSpiel's own checks (clone, serialization at every step, masks, tensors)."""
    game = pyspiel.load_game(mvos.SHORT_NAME, {"players": 3, "sets": "base+twilight_garden",
                                               "leaders": True, "ruleset": "german", "engine": "native"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _same_env(py, nat, full: bool = True) -> None:
    """What a PettingZoo env shows is the same in both engines: its agents, rewards,
    terminations, truncations and infos, and every agent's action mask; every agent's
    observation vector when ``full`` (else the acting agent's, compared by ``last()``)."""
    assert nat.agents == py.agents and nat.agent_selection == py.agent_selection
    assert nat.rewards == py.rewards and nat._cumulative_rewards == py._cumulative_rewards
    assert nat.terminations == py.terminations and nat.truncations == py.truncations
    assert nat.infos == py.infos
    for agent in py.possible_agents:
        if not full:
            assert np.array_equal(codec.legal_mask(nat.game, py.possible_agents.index(agent)),
                                  codec.legal_mask(py.game, py.possible_agents.index(agent)))
            continue
        a, b = py.observe(agent), nat.observe(agent)
        assert np.array_equal(b["observation"], a["observation"]), agent
        assert np.array_equal(b["action_mask"], a["action_mask"]), agent


@pytest.mark.parametrize("o", OPTIONS, ids=IDS)
def test_pettingzoo_games_are_the_same_in_both_engines_at_every_step(core, o):
    envs = [env(**o, engine=e) for e in ENGINES]
    seed = 40 + o["players"] * 7 + len(o["sets"])
    for e in envs:
        e.reset(seed=seed)
    py, nat = (e.unwrapped for e in envs)
    assert type(py.game) is mv.Game and type(nat.game) is NativeGame
    rng = np.random.RandomState(seed)
    totals = {a: [0.0, 0.0] for a in py.possible_agents}
    steps = 0
    for agent, agent2 in zip(envs[0].agent_iter(20_000), envs[1].agent_iter(20_000)):
        assert agent2 == agent
        _same_env(py, nat, full=steps % FULL_EVERY == 0)
        last = [e.last() for e in envs]
        (obs, reward, term, trunc, info), (obs2, reward2, term2, trunc2, info2) = last
        assert (reward2, term2, trunc2, info2) == (reward, term, trunc, info)
        assert np.array_equal(obs2["observation"], obs["observation"])
        assert np.array_equal(obs2["action_mask"], obs["action_mask"])
        totals[agent][0] += reward
        totals[agent][1] += reward2
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for e in envs:
            e.step(action)
        steps += 1
    assert py.agents == [] and nat.agents == [] and steps > 100
    _same_env(py, nat)
    assert nat.game.is_over() and nat.game.to_json() == py.game.to_json()
    assert all(a == b for a, b in totals.values())
    assert abs(sum(a for a, _ in totals.values()) - 1.0) < 1e-9


def test_pettingzoo_reset_deals_the_same_games_in_both_engines(core):
    o = OPTIONS[2]
    envs = [raw_env(**o, seed=9, engine=e) for e in ENGINES]
    for seed in (None, None, 123, None, 2**40):     # the env's next seed, then given ones
        for e in envs:
            e.reset(seed=seed)
        assert envs[1].seed_used == envs[0].seed_used
        assert type(envs[1].game) is NativeGame
        assert envs[1].game.to_json() == envs[0].game.to_json()
        _same_env(*envs)
    assert [e.seed_used for e in envs] == [2**40, 2**40]
    # An illegal action gets the same message in both and changes neither game.
    before = envs[1].game.to_json()
    illegal = codec.encode("buy 3.3 on #79")
    messages = []
    for e in envs:
        with pytest.raises(mv.IllegalActionError, match="buy 3.3 on #79") as err:
            e.step(illegal)
        messages.append(str(err.value))
    assert messages[0] == messages[1] and envs[1].game.to_json() == before


def test_pettingzoo_own_tests_pass_on_the_native_engine(core):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # PettingZoo's advisory warnings (see test_pettingzoo_env)
        api_test(env(players=3, sets=(BASE, VOM), engine="native"), num_cycles=1000)
    seed_test(lambda: env(players=2, engine="native"), num_cycles=50)


# -- errors (these need no native build) --------------------------------------------------
def test_an_unknown_engine_is_refused_by_both_adapters():
    with pytest.raises(ValueError, match="unknown engine 'rust'; engines are: python, native"):
        pyspiel.load_game(mvos.SHORT_NAME, {"engine": "rust"})
    with pytest.raises(ValueError, match="unknown engine 'rust'; engines are: python, native"):
        raw_env(engine="rust")
    with pytest.raises(ValueError, match="unknown engine 'Native'"):
        env(engine="Native")
    # The default stays the Python engine.
    assert pyspiel.load_game(mvos.SHORT_NAME).mv_engine == "python"
    e = raw_env()
    e.reset(seed=1)
    assert e.engine == "python" and type(e.game) is mv.Game


def test_the_native_engine_without_a_usable_core_is_refused_saying_how_to_build_it(monkeypatch):
    reason = "the native core is not built (No module named 'mysticvale._native'); run `make native`"
    monkeypatch.setattr(native, "available", lambda: False)
    monkeypatch.setattr(native, "unavailable_reason", lambda: reason)
    expected = r"engine 'native' needs the native core, which cannot be used here: the native core " \
               r"is not built .*\(build it with `make native`, which needs cargo"
    with pytest.raises(ValueError, match=expected):
        pyspiel.load_game(mvos.SHORT_NAME, {"engine": "native"})
    with pytest.raises(ValueError, match=expected):
        mvos.load(players=3, engine="native")
    with pytest.raises(ValueError, match=expected):
        raw_env(engine="native")
    with pytest.raises(ValueError, match=expected):
        env(players=2, engine="native")
