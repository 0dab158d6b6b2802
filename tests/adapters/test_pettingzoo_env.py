"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, masks."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import mysticvale as mv  # noqa: E402
from mysticvale import codec  # noqa: E402
from mysticvale.adapters.pettingzoo import env, raw_env  # noqa: E402


def _tg_loads() -> bool:
    try:
        mv.new_game(players=2, sets=("base", "twilight_garden"), leaders=True)
    except (mv.CatalogueError, ValueError):
        return False
    return True


@pytest.mark.parametrize("players,ruleset,sets,leaders", [
    (2, "yucata", ("base",), False),
    (3, "english", ("base",), False),
    (2, "german", ("base",), False),
    pytest.param(4, "yucata", ("base", "twilight_garden"), True, marks=pytest.mark.skipif(
        not _tg_loads(), reason="the Twilight Garden data does not load")),
])
def test_pettingzoo_api_test_passes(players, ruleset, sets, leaders):
    e = env(players=players, ruleset=ruleset, sets=sets, leaders=leaders)
    with warnings.catch_warnings():
        # PettingZoo warns that dict observations are not arrays for every env outside
        # its own whitelist (its classic games use the same dict with an action mask).
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=1000)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: env(players=2), num_cycles=50)


def _play(e, seed: int, max_steps: int = 20_000) -> dict[str, float]:
    """Play random masked actions to the end; the total reward each agent received."""
    rng = np.random.RandomState(seed)
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_steps):
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert [str(codec.decode(i)) for i in legal] == sorted(info["legal_actions"], key=codec.encode)
        e.step(int(rng.choice(legal)))
    return total


def test_rewards_come_at_the_end_and_the_winners_share_one_point():
    e = raw_env(players=3)
    rewards_seen = []
    rng = np.random.RandomState(0)
    e.reset(seed=4)
    while not all(e.terminations.values()):
        rewards_seen.append(sum(e.rewards.values()))
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not any(rewards_seen)              # nothing before the end
    winners = e.game.winners()
    expected = {f"player_{p}": (1.0 / len(winners) if p in winners else 0.0) for p in range(3)}
    assert e.rewards == expected
    assert abs(sum(e.rewards.values()) - 1.0) < 1e-9
    # Through the AEC loop each agent collects exactly its payout once.
    totals = _play(raw_env(players=2), seed=5)
    assert abs(sum(totals.values()) - 1.0) < 1e-9 and max(totals.values()) >= 0.5


def test_observation_is_that_seats_view_with_a_mask_only_for_the_acting_agent():
    e = raw_env(players=2)
    e.reset(seed=7)
    acting = e.agent_selection
    seat = e.possible_agents.index(acting)
    idle = e.possible_agents[1 - seat]
    obs = e.observe(acting)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert np.array_equal(obs["observation"], e.encoder.encode(e.game.observe(seat)))
    assert obs["action_mask"].sum() == len(e.game.legal_actions())
    assert e.observe(idle)["action_mask"].sum() == 0
    assert e.observation_space(acting).contains(obs)
    # The same seed deals the same game as the engine.
    assert e.game.to_json() == mv.new_game(players=2, seed=7).to_json()


def test_illegal_action_is_refused_and_changes_nothing():
    e = raw_env(players=2)
    e.reset(seed=1)
    before = e.game.to_json()
    illegal = codec.encode("buy 3.3 on #79")
    with pytest.raises(mv.IllegalActionError, match="buy 3.3 on #79"):
        e.step(illegal)
    assert e.game.to_json() == before
    with pytest.raises(codec.CodecError):
        e.step(codec.ACTION_SPACE_SIZE)


def test_a_game_cut_at_max_steps_is_truncated_without_reward():
    e = raw_env(players=2, max_steps=10)
    e.reset(seed=2)
    rng = np.random.RandomState(1)
    for _ in range(10):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert not any(e.rewards.values())


def test_reset_without_seed_deals_the_next_game_and_render_shows_it():
    e = raw_env(players=2, seed=20, render_mode="ansi")
    e.reset()
    assert e.seed_used == 20
    e.reset()
    assert e.seed_used == 21
    text = e.render()
    assert "round 1" in text and "legal:" in text


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 1}, "players must be"),
    ({"ruleset": "house"}, "unknown rule set"),
    ({"sets": ""}, "at least one card set"),
    ({"render_mode": "rgb_array"}, "render_mode"),
])
def test_bad_arguments_fail_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        env(**kwargs)
