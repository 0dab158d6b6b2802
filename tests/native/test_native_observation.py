"""Observation: what each seat may know, and the readable log, are the same in the native core
as in engine/observation.py, for every seat and the spectator, all along random games of every
set list, rule set, player count, with and without leaders and ``finish_turn``.

The pending decision's ``description`` comes from each rules module's ``describe``; every
module is in the twin (merged from native-flow, native-harvest, native-vom, native-tg and,
through native-tg, native-leaders), so it is compared like the rest.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from mysticvale.engine import discard, harvest, leaders  # noqa: F401  (they register their decisions)
from mysticvale.engine.registry import DECISIONS
from stepwise import SET_LISTS, random_games, twin

RULESETS = ["yucata", "english", "german"]


def _text(value) -> str:
    """A Python value as the twin writes its JSON (``json.dumps(sort_keys=True)``, compact)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _since_values(n: int) -> list[int]:
    return sorted({0, n // 2, n - 1, n + 2, -3})


def _compare(core, game, seen: Counter, *, logs: bool = True) -> None:
    """Every seat's and the spectator's observation (and log), native against Python: the
    same JSON text, which with sorted keys is the same value."""
    tw = twin(game)
    st = game.state
    pending = st.pending[-1].kind if st.pending else None
    for seat in [None, *range(game.players)]:
        python = game.observe(seat)
        want, got = _text(python), core.observe_json(tw, seat)
        if got != want:
            want, got = json.loads(want), json.loads(got)
            assert got == want, f"observation of seat {seat} differs (phase {want['phase']}, pending {pending})"
        if pending is not None:
            seen["decision " + pending] += 1
        _features(python, seat, seen)
        if logs:
            for since in _since_values(len(st.events)):
                assert core.log_json(tw, seat, since) == _text(game.log(seat, since)), \
                    f"log of seat {seat} since {since}"
            seen["logs"] += 1
    if logs and any(e.private_to is not None for e in st.events):
        seen["log with another seat's private text"] += 1
    seen["states"] += 1


def _features(obs, seat, seen: Counter) -> None:
    """Count the parts of the schema this observation exercises (so that the tests below can
    say every part was compared at least once)."""
    seen["phase " + obs["phase"]] += 1
    if "prices" in obs["turn"]:
        seen["prices"] += 1
    pd = obs["pending"]
    if pd is not None:
        seen["pending"] += 1
        for key in ("cards", "advancement", "vale", "leaders"):
            if key in pd:
                seen["pending " + key] += 1
        if "advancement" in pd and pd["kind"] != "sleeve":
            seen["pending advancement looked at"] += 1
    if "scores" in obs:
        seen["scores"] += 1
    for p in obs["players"]:
        if any(c.get("unseen_leader") for c in p["owned"]):
            seen["unseen leader"] += 1
        if p["set_aside"]:
            seen["set aside"] += 1
        if any(v["bought_this_turn"] for v in p["vales"]):
            seen["vale bought this turn"] += 1
        if p.get("known_top"):
            seen["known top"] += 1
        if any(c["covered"] for c in p["owned"]):
            seen["covered advancement"] += 1
    if seat is None:
        seen["spectator"] += 1


def _play(core, seen: Counter, seed: int, *, every: int, **options) -> None:
    per_kind: Counter = Counter()
    for n, game in enumerate(random_games(seed, **options)):
        # Every few states, and the first few of each kind of decision (some are rare).
        kind = game.state.pending[-1].kind if game.state.pending else None
        if n % every == 0 or (kind is not None and per_kind[kind] < 4):
            per_kind[kind] += 1
            _compare(core, game, seen, logs=seen["states"] % 3 == 0)
    _compare(core, game, seen)   # the game over: scores and winners


# Games chosen to reach every part of the schema between them (see the coverage test).
GAMES = [
    dict(seed=3, players=3, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True),
    dict(seed=1, players=2, sets=("base", "twilight_garden"), leaders=True, finish_turn=True),
    dict(seed=4, players=4, sets=("vale_of_magic", "twilight_garden"), ruleset="german"),
    dict(seed=2, players=2, sets=("base", "vale_of_magic"), ruleset="english"),
    dict(seed=5, players=3, sets=("base", "twilight_garden"), leaders=True),   # Snapjaw
    # Althena, Griffin, Le Que, Rockspine Zenith and Flame Geysers' decisions:
    dict(seed=0, players=3, sets=("base", "twilight_garden"), leaders=True),
    dict(seed=1, players=4, sets=("vale_of_magic", "twilight_garden"), leaders=True),
    dict(seed=2, players=3, sets=("base", "twilight_garden"), leaders=True),
    dict(seed=2, players=4, sets=("vale_of_magic", "twilight_garden"), leaders=True),
]


def test_every_part_of_the_observation_is_compared(core):
    seen: Counter = Counter()
    for options in GAMES:
        _play(core, seen, every=12, **options)
    for part in ["phase planting", "phase harvest", "phase discard", "phase prep", "phase over", "prices",
                 "pending", "pending cards", "pending advancement", "pending advancement looked at",
                 "pending vale", "pending leaders", "scores",
                 "unseen leader", "set aside", "vale bought this turn", "known top", "spectator",
                 "log with another seat's private text"]:
        assert seen[part] > 0, f"no state compared had {part!r}: {sorted(seen.items())}"
    missing = [kind for kind in sorted(DECISIONS) if not seen["decision " + kind]]
    assert not missing, f"no state compared had these decisions open: {missing}"


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**40), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(RULESETS), leaders=st.booleans(), finish_turn=st.booleans())
def test_random_games_are_observed_alike_by_every_seat(core, players, seed, sets, ruleset, leaders,
                                                       finish_turn):
    seen: Counter = Counter()
    _play(core, seen, seed, every=12, players=players, sets=sets, ruleset=ruleset, leaders=leaders,
          finish_turn=finish_turn)
    assert seen["states"] > 1 and seen["phase over"] > 0


def test_a_seat_outside_the_game_is_refused_as_python_refuses_it(core):
    game = next(random_games(1, players=2))
    tw = twin(game)
    for seat in (2, -1):
        with pytest.raises(ValueError) as python:
            game.observe(seat)
        with pytest.raises(ValueError) as native_:
            core.observe_json(tw, seat)
        assert str(native_.value) == str(python.value) == f"no seat {seat} in a 2-player game"
