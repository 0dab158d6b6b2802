"""The native ISMCTS bot (``native/src/bots/ismcts/``) searches as the Python ``ISMCTS`` does:
for the same seed and an iteration budget it plays the same move with the same root
statistics (iterations, visits and mean reward of each root action), along games of every
set, leaders, 2-4 players and every value mode (the value network's too), the same pair of bots asked again and again
(so their random streams and what they have seen of the commons carry on alike).  Its
options fail with Python's messages, it lets the GIL go while it thinks, and the batch plays
it giving the Python arena's records."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import mysticvale as mv
from mysticvale.bots import native_batch
from mysticvale.bots.arena import parse_bot, play_game
from mysticvale.bots.base import SeatView
from mysticvale.bots.greedy import Greedy
from mysticvale.bots.ismcts import ISMCTS
from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native

from stepwise import SET_LISTS


def _spec(opts: dict) -> str:
    return "ismcts" + "".join(f":{k}={v}" for k, v in opts.items())


# seed, players, sets, ruleset, leaders, options of the searching bot
CASES = [
    (11, 2, ("base",), "yucata", False, {"iterations": 40, "value": "model"}),
    (12, 3, ("base", "vale_of_magic"), "english", False, {"iterations": 30, "value": "greedy"}),
    (13, 4, ("base", "twilight_garden"), "german", True, {"iterations": 20, "value": "model", "horizon": 2}),
    (14, 2, ("base", "vale_of_magic", "twilight_garden"), "yucata", True,
     {"iterations": 30, "value": "greedy", "scale": 5, "c": 0.7, "prior": 0.5, "margin": 1.2}),
    (15, 2, ("base",), "yucata", False, {"iterations": 40, "value": "net"}),
    (16, 3, ("base", "vale_of_magic", "twilight_garden"), "german", True, {"iterations": 25, "value": "net"}),
]


def play_both(core, seed, players, sets, ruleset, leaders, opts, every=2, max_compared=14) -> int:
    """A Python game in which seat 0's every ``every``-th decision with a choice is made by
    a Python ISMCTS and asked of the native one of the same seed (both kept for the whole
    game); the other decisions are a depth-1 greedy bot's.  Return the decisions compared."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=leaders)
    twin = native.catalogue(load_catalogue(tuple(sets)))
    py = ISMCTS(seed=seed, think=0, **opts)
    rs = core.NativeBot(_spec({"think": 0, **opts}), seed)
    others = [Greedy(seed=50 + s, depth=1, samples=1) for s in range(players)]
    choices = compared = 0
    while not game.is_over() and compared < max_compared and game.round <= 100:
        p = game.current_player
        legal = game.legal_actions()
        if p == 0 and len(legal) > 1:
            choices += 1
            if (choices - 1) % every == 0:
                state = core.State.from_json(twin, game.to_json())
                action = py.act(SeatView(game, p))
                k = rs.act(state, p)
                where = f"seed {seed} decision {choices} round {game.round}"
                assert str(legal[k]) == str(action), f"{where}: Python {action}, Rust {legal[k]}"
                last = rs.last()
                assert last["iterations"] == py.last["iterations"] == opts["iterations"], where
                assert list(last["root"]) == list(py.last["root"]), where
                for a, (visits, mean) in py.last["root"].items():
                    assert last["root"][a][0] == visits, f"{where}: visits of {a}"
                    assert last["root"][a][1] == pytest.approx(mean, abs=1e-9, rel=0), f"{where}: mean of {a}"
                compared += 1
                game.apply_action(action)
                continue
        game.apply_action(others[p].act(SeatView(game, p)))
    return compared


@pytest.mark.parametrize("case", CASES, ids=[f"{c[1]}p-{'+'.join(c[2])}-{c[5]['value']}" for c in CASES])
def test_the_same_moves_and_root_statistics_as_python(core, case):
    assert play_both(core, *case) >= 10


def test_asked_at_every_decision(core):
    """The same pair asked at each of seat 0's choices in a row (no greedy move between)."""
    assert play_both(core, 21, 2, ("base",), "english", False, {"iterations": 15}, every=1,
                     max_compared=16) == 16


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(sorted(mv.RULESETS)), leaders=st.booleans(),
       value=st.sampled_from(["model", "greedy", "net"]), iterations=st.integers(1, 25),
       horizon=st.integers(1, 3))
def test_hypothesis_games(core, seed, players, sets, ruleset, leaders, value, iterations, horizon):
    opts = {"iterations": iterations, "value": value, "horizon": horizon}
    play_both(core, seed, players, sets, ruleset, leaders and "twilight_garden" in sets, opts, every=3,
              max_compared=4)


def test_a_forced_move_and_a_greedy_bot_have_no_statistics(core):
    game = mv.new_game(players=2, seed=3)
    twin = native.catalogue(load_catalogue(("base",)))
    bot = core.NativeBot("ismcts:think=0:iterations=3", 3)
    assert bot.last() == {}
    while len(game.legal_actions()) > 1:
        p = game.current_player
        game.apply_action(Greedy(seed=1, depth=1).act(SeatView(game, p)))
    p = game.current_player
    bot.act(core.State.from_json(twin, game.to_json()), p)
    assert bot.last() == {} == core.NativeBot("greedy", 1).last()


BAD = ["ismcts:think=-1", "ismcts:iterations=0", "ismcts:think=0", "ismcts:horizon=0",
       "ismcts:scale=big", "ismcts:scale=0", "ismcts:scale=-0.5", "ismcts:value=best", "ismcts:value=3",
       "ismcts:c=x", "ismcts:prior=x", "ismcts:margin=x", "ismcts:speed=2", "ismcts:seed=2",
       "ismcts:horizon=0:think=-2", "ismcts:think=0:iterations=x",
       # a think time that never ends would search forever
       "ismcts:think=inf", "ismcts:think=nan", "ismcts:think=nan:iterations=5"]


@pytest.mark.parametrize("spec", BAD)
def test_option_errors_are_pythons(core, spec):
    from mysticvale.bots import make_bot

    name, opts = parse_bot(spec)
    with pytest.raises((ValueError, TypeError)) as py_err:
        make_bot(name, seed=1, **opts)     # as the arena calls it
    with pytest.raises(ValueError) as rs_err:
        core.NativeBot(spec, 1)
    # (compiled with Cython, the Python bot's TypeError lacks the class: "__init__() got an
    # unexpected keyword argument"; the native core says it as the interpreter does)
    assert str(rs_err.value) in (str(py_err.value), f"ISMCTS.{py_err.value}")


def test_good_options_make_a_bot(core):
    for spec in ["ismcts", "ismcts:iterations=40", "ismcts:think=0.2:value=greedy:scale=auto",
                 "ismcts:think=0:iterations=2.5:horizon=1.5:c=1:prior=0:margin=1"]:
        assert core.NativeBot(spec, 1).name == "ismcts"


def test_the_gil_is_released_while_it_thinks(core):
    """A Python thread counts while the native bot thinks for 0.3 s: it makes progress only
    if the bot lets the GIL go."""
    game = mv.new_game(players=2, seed=5)
    twin = native.catalogue(load_catalogue(("base",)))
    while len(game.legal_actions()) < 2:
        game.apply_action(game.legal_actions()[0])
    state = core.State.from_json(twin, game.to_json())
    bot = core.NativeBot("ismcts:think=0.3", 5)
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    try:
        time.sleep(0.05)
        before = count[0]
        t0 = time.perf_counter()
        bot.act(state, game.current_player)
        spent = time.perf_counter() - t0
        during = count[0] - before
    finally:
        stop.set()
        t.join()
    last = bot.last()
    assert spent >= 0.3 and last["seconds"] >= 0.3 and last["iterations"] >= 1
    assert during > 1000, f"the counting thread made {during} steps in {spent:.2f} s"


def test_the_batch_plays_ismcts_giving_the_python_arenas_records(core):
    specs = ["ismcts:think=0:iterations=8:horizon=1", "greedy:depth=1"]
    assert native_batch.plays(specs) and native_batch.plays(["ismcts:iterations=3", "random"])
    twin = native.catalogue(load_catalogue(("base",)))
    got = core.play_games(twin, "yucata", 2, 4, specs, [0, 1], 10, False)
    for i, rec in enumerate(got):
        want = play_game(specs, 4, i, 2, ("base",), "yucata", max_rounds=10)
        assert {k: v for k, v in rec.items() if k != "bot_seconds"} == {
            k: v for k, v in want.items() if k != "bot_seconds"}
    # The arena's think time is written into an ismcts without its own, as the Python arena gives it.
    assert native_batch.with_think(["ismcts:iterations=3", "random", "ismcts:think=0", "ismcts"], 0.1) == [
        "ismcts:iterations=3:think=0.1", "random", "ismcts:think=0", "ismcts:think=0.1"]
    assert native_batch.plays(["ismcts:iterations=3", "random"], think=0.1)
    assert not native_batch.plays(["ismcts:iterations=3", "random:think=1"], think=0.1)
