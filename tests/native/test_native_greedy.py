"""The native greedy bot (``native/src/bots/greedy/``) makes the Python ``Greedy``'s choice at
every decision: along seeded and Hypothesis games (every set list, rule set, 2-4 players,
leaders, ``finish_turn``, and every option: ``depth``, ``samples``, ``mana_vp``, ``spirit_vp``,
``decay_vp``, ``play_rate``), the Python bot plays the Python game, and at each decision with
two or more legal actions the Rust bot of the same seed, kept beside it for the whole game
(``_native.NativeBot``), is asked on the twin state: both must choose the same action.
Every kind of decision greedy has a handler for is compared (push/pass, the Harvest, the
lookahead, and each ``_decide_*``)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import mysticvale as mv
from mysticvale.bots.base import SeatView
from mysticvale.bots.greedy import Greedy
from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native

from stepwise import SET_LISTS

RULESETS = sorted(mv.RULESETS)
#: Every option of the bot, with values other than the defaults.
OPTIONS = [{}, {"depth": 1}, {"depth": 3, "samples": 1}, {"spirit_vp": 1.6, "mana_vp": 0.6},
           {"decay_vp": 0.3, "play_rate": 0.25}, {"samples": 3, "depth": 1}]
#: The handlers of Greedy.choose: push/pass, the Harvest, and each pending decision kind
#: with a rule (``_decide_*``); the lookahead is counted apart.
HANDLERS = {"push_pass", "harvest", "prep_stop", "order", "spoil_guard", "look_top", "discard_field",
            "search_deck", "sleeve"}

#: What the comparisons met, over the whole module.
SEEN: Counter = Counter()


def _spec(opts: dict) -> str:
    return "greedy" + "".join(f":{k}={v}" for k, v in opts.items())


def _kind(game, legal) -> str:
    obs = game.observe(game.current_player)
    if obs["pending"] is not None:
        return obs["pending"]["kind"]
    if {a.verb for a in legal} <= {"push", "pass"}:
        return "push_pass"
    return obs["phase"]


def play_both(core, seed: int, players: int, sets, ruleset: str, leaders: bool = False,
              finish_turn: bool = False, opts: dict | None = None, max_decisions: int = 10_000) -> int:
    """Play a Python game with Python greedy bots, asking the native bot of the same seed at
    every decision with a choice; return the number of decisions compared."""
    opts = opts or {}
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=leaders,
                       finish_turn=finish_turn)
    twin = native.catalogue(load_catalogue(tuple(sets)))
    pys = [Greedy(seed=100 + s, **opts) for s in range(players)]
    rust = [core.NativeBot(_spec(opts), 100 + s) for s in range(players)]
    looks = Counter()
    for bot in pys:
        real = bot.lookahead

        def counted(view, obs, legal, _real=real, _bot=bot):
            if not _bot._in_lookahead:
                looks["lookahead"] += 1
            return _real(view, obs, legal)

        bot.lookahead = counted
    compared = 0
    while not game.is_over() and game.round <= 100 and compared < max_decisions:
        p = game.current_player
        legal = game.legal_actions()
        before = looks["lookahead"]
        action = pys[p].act(SeatView(game, p))
        if len(legal) > 1:
            kind = _kind(game, legal)
            state = core.State.from_json(twin, game.to_json())
            k = rust[p].act(state, p)
            assert str(legal[k]) == str(action), (
                f"seed {seed} decision {compared} ({kind}, seat {p}): Python chose {action}, Rust {legal[k]}")
            SEEN[kind] += 1
            if looks["lookahead"] > before:
                SEEN["lookahead"] += 1
            compared += 1
        game.apply_action(action)
    return compared


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sets", SET_LISTS)
def test_every_set_list_rule_set_and_player_count(core, players, sets):
    """One game per pairing; the rule set, the options, leaders and finish_turn cycle."""
    i = SET_LISTS.index(sets) * 3 + players
    ruleset = RULESETS[i % 3]
    leaders = "twilight_garden" in sets and i % 2 == 0
    assert play_both(core, 300 + i, players, sets, ruleset, leaders, finish_turn=(i % 4 == 1),
                     opts=OPTIONS[i % len(OPTIONS)]) > 20


# Games found to reach the rarer decisions (the order of simultaneous abilities, the deck
# search, a spoil guard), and a German one (the early end of Prep).
RARE = [(5000, 2, ("base",), "yucata"), (5001, 2, ("base", "vale_of_magic"), "yucata"),
        (5051, 2, ("base", "vale_of_magic"), "english"), (5010, 2, ("base",), "german")]


def test_every_handler_is_compared(core):
    """Every kind of decision greedy has a handler for (push/pass, the Harvest, each
    ``_decide_*``) and the lookahead are met and compared in these games."""
    SEEN.clear()
    for seed, players, sets, ruleset in RARE:
        assert play_both(core, seed, players, sets, ruleset, opts={"depth": 1, "samples": 1}) > 0
    missing = (HANDLERS | {"lookahead"}) - set(SEEN)
    assert not missing, f"never compared: {sorted(missing)} (seen: {dict(SEEN)})"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(RULESETS), finish_turn=st.booleans(), opts=st.sampled_from(OPTIONS),
       leaders=st.booleans())
def test_hypothesis_games(core, seed, players, sets, ruleset, finish_turn, opts, leaders):
    leaders = leaders and "twilight_garden" in sets
    play_both(core, seed, players, sets, ruleset, leaders, finish_turn, opts, max_decisions=120)


def test_options_and_their_errors_are_pythons(core):
    for spec, message in [("greedy:depth=4", "greedy depth must be 1, 2 or 3, not 4"),
                          ("greedy:samples=0", "greedy samples must be at least 1, not 0"),
                          ("greedy:spirit_vp=x", "could not convert string to float: 'x'")]:
        opts = dict(p.split("=") for p in spec.split(":")[1:])
        with pytest.raises(ValueError) as py_err:
            from mysticvale.bots.arena import parse_bot
            name, o = parse_bot(spec)
            Greedy(seed=1, **o)
        assert str(py_err.value) == message, opts
        with pytest.raises(ValueError, match=f"^{message}$"):
            core.NativeBot(spec, 1)
    with pytest.raises(ValueError, match="^unexpected keyword argument|got an unexpected keyword argument 'speed'$"):
        core.NativeBot("greedy:speed=2", 1)
    assert core.NativeBot("greedy:depth=1:spirit_vp=1.6", 3).name == "greedy"
