"""The native bots (``native/src/bots/``): the Rust ``random`` bot chooses as the Python
``RandomBot`` for the same seed, and the batch (``_native.play_games``, ``bots/native_batch.py``)
gives the records of ``bots/arena.py`` ``play_game`` (the same seeds, seat rotation, round
limit and ``unfinished`` rule), with every decision made in Rust and the GIL released."""

from __future__ import annotations

import json
import sys
import threading

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale.bots import arena, native_batch
from mysticvale.bots.arena import game_seed, play_game, run_matches
from mysticvale.bots.base import RandomBot, SeatView
from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native
from mysticvale.engine.rng import derive_seed

from stepwise import SET_LISTS

RULESETS = sorted(mv.RULESETS)
_MASK = (1 << 62) - 1


def _without_time(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "bot_seconds"}


def _python(players, seed, i, sets, ruleset, max_rounds=arena.MAX_ROUNDS) -> dict:
    return play_game(["random"] * players, seed, i, players, tuple(sets), ruleset, max_rounds=max_rounds)


def _native(players, seed, indices, sets, ruleset, max_rounds=arena.MAX_ROUNDS, history=False) -> list[dict]:
    return native_batch.play_games(["random"] * players, seed, indices, players, tuple(sets), ruleset,
                                   max_rounds, history=history)


def _check_record(native: dict, python: dict) -> None:
    assert list(native) == list(python), "the same keys in the same order"
    assert _without_time(native) == _without_time(python)
    assert len(native["bot_seconds"]) == len(python["seats"])
    assert all(isinstance(t, float) and t >= 0 for t in native["bot_seconds"])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sets", SET_LISTS)
def test_every_set_list_and_player_count_gives_python_arenas_records(core, players, sets):
    """One game per rule set (a different rule set each seat count, so every pairing of rule
    set with set list and with player count is met)."""
    for k, ruleset in enumerate(RULESETS):
        i = 3 * players + k
        [native] = _native(players, 17, [i], sets, ruleset)
        _check_record(native, _python(players, 17, i, sets, ruleset))
        assert native["game"] == i and native["seed"] == game_seed(17, i)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers() | st.integers(-(2**80), 2**80),
       i=st.integers(0, 10**6), sets=st.sampled_from(SET_LISTS), ruleset=st.sampled_from(RULESETS),
       max_rounds=st.sampled_from([1, 2, 5, 100]))
def test_any_seed_game_and_round_limit_give_python_arenas_record(core, players, seed, i, sets, ruleset,
                                                                  max_rounds):
    [native] = _native(players, seed, [i], sets, ruleset, max_rounds)
    _check_record(native, _python(players, seed, i, sets, ruleset, max_rounds))


def test_the_round_limit_and_seat_rotation_are_met(core):
    """The batch's games include unfinished ones and every rotation of the seats."""
    records = _native(3, 4, range(6), ("base",), "yucata", max_rounds=3)
    assert all(r["unfinished"] and r["rounds"] == 4 for r in records)
    assert {tuple(r["seats"]) for r in records} == {
        ("random#1", "random#2", "random#3"), ("random#2", "random#3", "random#1"),
        ("random#3", "random#1", "random#2")}
    for r in records:
        _check_record(r, _python(3, 4, r["game"], ("base",), "yucata", 3))


def test_a_batch_is_its_games_one_by_one_in_the_order_asked(core):
    batch = _native(2, 8, [5, 1, 5, 0], ("base", "vale_of_magic"), "english")
    assert [r["game"] for r in batch] == [5, 1, 5, 0]
    for r in batch:
        [alone] = _native(2, 8, [r["game"]], ("base", "vale_of_magic"), "english")
        assert _without_time(r) == _without_time(alone)


@pytest.mark.parametrize("players,sets,ruleset,seed", [
    (2, ("base",), "yucata", 1),
    (3, ("base", "vale_of_magic"), "german", 2),
    (4, ("base", "twilight_garden"), "english", 3),
    (2, ("base", "vale_of_magic", "twilight_garden"), "german", 4),
])
def test_the_rust_bot_chooses_as_the_python_bot_step_by_step(core, players, sets, ruleset, seed):
    """The Python arena's game played by Python RandomBots, one decision at a time: at each,
    the Python bot's choice is the action the Rust bot played at that point."""
    for i in range(2):
        [native] = _native(players, seed, [i], sets, ruleset, history=True)
        played = native["history"]
        gseed = game_seed(seed, i)
        game = mv.new_game(players=players, seed=gseed, sets=sets, ruleset=ruleset)
        entry = [(s + i) % players for s in range(players)]
        bots = [RandomBot(seed=derive_seed(gseed, f"bot{s}") & _MASK) for s in range(players)]
        step = 0
        while not game.is_over() and game.round <= arena.MAX_ROUNDS:
            p = game.current_player
            action = bots[p].act(SeatView(game, p))
            assert step < len(played), f"the Rust game ended after {step} decisions; Python goes on"
            assert str(action) == played[step], f"decision {step} (seat {p}, entry {entry[p]})"
            game.apply_action(action)
            step += 1
        assert step == len(played) == sum(native["decisions"])
        assert game.scores() == native["scores"]


@pytest.fixture
def batch_calls(monkeypatch) -> list:
    """The game numbers of each call the arena makes to the native batch, as they come."""
    calls: list = []
    real = native_batch.play_games

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(native_batch, "play_games", spy)
    return calls


def test_the_arena_plays_native_bots_in_the_batch_and_the_others_in_python(core, batch_calls):
    calls = batch_calls
    for players, sets, ruleset in [(2, ("base",), "yucata"), (3, ("base", "twilight_garden"), "german")]:
        options = dict(games=3, players=players, seed=6, sets=sets, ruleset=ruleset)
        python = run_matches(["random"], **options)
        calls.clear()
        native = run_matches(["random"], engine="native", **options)
        assert calls == [[0], [1], [2]]
        assert native["timing"]["engine"] == "native"
        assert {k: v for k, v in native.items() if k != "timing"} == {
            k: v for k, v in python.items() if k != "timing"}
    calls.clear()
    search = ["random", "ismcts:iterations=2:think=0:horizon=1"]
    native = run_matches(search, games=1, seed=6, engine="native")
    assert calls == [[0]] and native["per_game"] == run_matches(search, games=1, seed=6)["per_game"]
    calls.clear()
    # The arena's think time reaches an ismcts naming none in the batch too (here far longer
    # than its 2 iterations take, so the games are the same), and the records name it as given.
    timed = ["random", "ismcts:iterations=2:horizon=1"]
    batch = run_matches(timed, games=1, seed=6, engine="native", think=60)
    assert calls == [[0]] and batch["per_game"] == run_matches(timed, games=1, seed=6, think=60)["per_game"]
    assert batch["per_game"][0]["seats"] and "ismcts:iterations=2:horizon=1" in batch["per_game"][0]["seats"]
    assert not native_batch.plays(["random", "random:think=1"]) and not native_batch.plays([" random"])
    assert native_batch.plays(["greedy:depth=1:spirit_vp=1.6", "random", "greedy"])


def test_the_arena_with_two_processes_gives_the_same_result(core):
    one = run_matches(["random"], games=4, seed=12, engine="native")
    two = run_matches(["random"], games=4, seed=12, engine="native", jobs=2)
    assert {k: v for k, v in one.items() if k != "timing"} == {k: v for k, v in two.items() if k != "timing"}


def test_what_the_batch_cannot_play_is_a_clear_error(core):
    twin = native.catalogue(load_catalogue(("base",)))
    play = core.play_games
    with pytest.raises(ValueError, match="^the native core has no bot 'mcts'; its bots: greedy, ismcts, random$"):
        play(twin, "yucata", 2, 1, ["random", "mcts"], [0])
    with pytest.raises(ValueError, match="^give ismcts a budget: think > 0 seconds and/or iterations >= 1$"):
        play(twin, "yucata", 2, 1, ["random", "ismcts:think=0"], [0])
    with pytest.raises(ValueError, match="^greedy depth must be 1, 2 or 3, not 7$"):
        play(twin, "yucata", 2, 1, ["random", "greedy:depth=7"], [0])
    with pytest.raises(ValueError, match="^1 bots named for 2 seats: name one per seat$"):
        play(twin, "yucata", 2, 1, ["random"], [0])
    with pytest.raises(ValueError, match="^players must be 2 to 4, not 5$"):
        play(twin, "yucata", 5, 1, ["random"] * 5, [0])
    with pytest.raises(ValueError, match="^players must be 2 to 4, not -1$"):
        play(twin, "yucata", -1, 1, ["random"], [0])
    with pytest.raises(ValueError, match="^max_rounds must be at least 1$"):
        play(twin, "yucata", 2, 1, ["random"] * 2, [0], 0)
    with pytest.raises(ValueError, match="^unknown rule set 'chess'"):
        play(twin, "chess", 2, 1, ["random"] * 2, [0])
    with pytest.raises(TypeError, match="a seed is an int"):
        play(twin, "yucata", 2, "1", ["random"] * 2, [0])
    assert play(twin, "yucata", 2, 1, ["random"] * 2, []) == []


def test_the_batch_releases_the_gil_while_it_plays(core):
    """With a switch interval far longer than the batch, another thread gets the GIL only
    when the batch lets it go: if it is let go only at the end, the other thread finds the
    batch done; since it is released while the games are played, it finds it still running."""
    twin = native.catalogue(load_catalogue(("base",)))
    result: list = []
    started = threading.Event()

    def worker():
        started.set()
        result.append(core.play_games(twin, "yucata", 2, 1, ["random"] * 2, list(range(400))))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=worker)
        t.start()
        started.wait()
        running = not result      # this line runs only once the worker lets the GIL go
    finally:
        sys.setswitchinterval(old)
    t.join()
    assert running, "the batch held the GIL until it had played every game"
    assert len(result[0]) == 400


def test_simulate_with_native_random_bots_gives_the_python_json(core):
    from typer.testing import CliRunner

    from mysticvale.cli.main import app

    def simulate(*extra):
        r = CliRunner().invoke(app, ["simulate", "--json", "--games", "3", "--players", "3", "--bots", "random",
                                     "--sets", "base,vale_of_magic", "--seed", "21", *extra])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    assert simulate("--engine", "native") == simulate()


# -- greedy in the batch -----------------------------------------------------------------

GREEDY_SPECS = ["greedy", "greedy:depth=1:samples=1", "greedy:spirit_vp=1.6:mana_vp=0.6",
                "greedy:decay_vp=0.3:play_rate=0.25:depth=3"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sets", SET_LISTS)
def test_greedy_games_in_the_batch_give_python_arenas_records(core, players, sets):
    """Greedy against greedy (with options) and against random, every set list with each
    player count, the rule set cycling: the batch's record is ``play_game``'s with the
    Python bots."""
    k = SET_LISTS.index(sets) + players
    ruleset = RULESETS[k % 3]
    specs = [GREEDY_SPECS[k % 4]] + ["random" if (k + s) % 2 else GREEDY_SPECS[(k + s) % 4]
                                     for s in range(1, players)]
    i = k % 5
    [native] = native_batch.play_games(specs, 23, [i], players, tuple(sets), ruleset, arena.MAX_ROUNDS)
    python = play_game(specs, 23, i, players, tuple(sets), ruleset)
    _check_record(native, python)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_with_leaders_in_the_batch_give_python_arenas_records(core, players):
    """With the Twilight Garden leaders the bots first choose theirs: the same records."""
    sets = ("base", "vale_of_magic", "twilight_garden") if players != 3 else ("base", "twilight_garden")
    specs = ["greedy", "random", "greedy:depth=1:samples=1:spirit_vp=0.6:decay_vp=0.0", "greedy"][:players]
    ruleset = RULESETS[players % 3]
    for i in (0, players):
        [native] = native_batch.play_games(specs, 29, [i], players, sets, ruleset, arena.MAX_ROUNDS, leaders=True)
        python = play_game(specs, 29, i, players, sets, ruleset, leaders=True)
        _check_record(native, python)


def test_the_arena_plays_greedy_in_the_batch(core, batch_calls):
    calls = batch_calls
    options = dict(games=2, players=2, seed=8, sets=("base",), ruleset="german")
    bots = ["greedy:depth=1", "random"]
    python = run_matches(bots, **options)
    native = run_matches(bots, engine="native", **options)
    assert calls == [[0], [1]]
    assert {k: v for k, v in native.items() if k != "timing"} == {k: v for k, v in python.items() if k != "timing"}


def test_every_native_bot_asked_out_of_turn_says_so_as_the_python_bots_do(core):
    from mysticvale import new_game
    from mysticvale.bots import SeatView, make_bot

    g = new_game(seed=3, engine="native")
    idle = 1 - g.current_player
    for spec, name in (("random", "random"), ("greedy", "greedy"), ("ismcts:iterations=3:think=0", "ismcts")):
        with pytest.raises(ValueError) as py_err:
            make_bot(name, seed=1, **({"iterations": 3, "think": 0} if name == "ismcts" else {})).act(
                SeatView(new_game(seed=3), idle))
        with pytest.raises(ValueError) as rs_err:
            core.NativeBot(spec, 1).act(g._st, idle)
        assert str(rs_err.value) == str(py_err.value) == "the bot was asked to act when its seat has nothing to do"
