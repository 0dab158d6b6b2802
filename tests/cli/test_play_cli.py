"""``mysticvale play`` driven by scripted input through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mysticvale import bots as bots_mod
from mysticvale.cli.main import app
from mysticvale.cli.play import SESSION_FORMAT, PlaySession
from mysticvale.engine.game import Game

runner = CliRunner()


def play(args: list[str], script: str, *, columns: int = 200):
    """Run ``mysticvale play ARGS`` with ``script`` as the keyboard, on a terminal this wide."""
    return runner.invoke(app, ["play", *args], input=script, env={"COLUMNS": str(columns)})


def flat(text: str) -> str:
    """Output with line wrapping undone (Rich wraps long messages at the console width)."""
    return " ".join(text.split())


def saved(path: Path) -> dict:
    return json.loads(path.read_text())


def saved_game(path: Path) -> Game:
    return Game.from_json(saved(path)["game"])


def fresh_session(seed: int, *, bots: tuple[str, ...] = ("random",), seat: int = 0) -> PlaySession:
    """The session `play --bots ... --seed SEED` starts, with bots played up to the human."""
    s = PlaySession.new(players=None, bots=list(bots), seed=seed, sets=("base",), ruleset="yucata",
                        seat=seat, think=None, save_path=None)

    class _Quiet:
        is_terminal = False

    s.play_bots(_Quiet())  # type: ignore[arg-type]
    return s


# -- a whole game ----------------------------------------------------------------------
def test_full_game_against_a_random_bot_reaches_the_end_screen(tmp_path):
    f = tmp_path / "g.json"
    res = play(["--bots", "random", "--seed", "1", "--save", str(f)], "1\n" * 3000, columns=80)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Game over" in out and "Final scores" in out
    game = saved_game(f)
    assert game.is_over()
    # The end screen shows the engine's breakdown and winner.
    totals = [game.score_breakdown(p)["total"] for p in range(2)]
    total_line = next(line for line in out.splitlines() if line.startswith("│ total"))
    assert [int(x) for x in total_line.replace("│", " ").split()[1:]] == totals
    names = {0: "Player 1 (you)", 1: "Player 2 (random)"}
    (w,) = game.winners()
    assert f"{names[w]} wins!" in out
    # The human seat chose the first listed action every time it acted.
    assert "Player 1: " in out and "Your choices" in out


def test_a_german_game_offers_the_prep_stop_in_plain_words(tmp_path):
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from scenario import Scenario

    f = tmp_path / "g.json"
    res = play(["--bots", "random", "--seed", "2", "--ruleset", "german", "--save", str(f)], "quit\n")
    assert res.exit_code == 0, res.output
    # The German rules' decision of Prep: 3 decay symbols, 2 after the Wild Seed's growth.
    sc = Scenario(ruleset="german")
    cl = "Cursed Land"
    sc.player(0, field=["Blank"], on_deck="Generic Wild Seed", deck=[cl, cl, cl, "Blank", cl, "Blank"])
    sc.act("pass", "finish")
    assert sc.state.pending[-1].kind == "prep_stop"
    data = saved(f)
    data["game"] = sc.game.to_json()
    f.write_text(json.dumps(data))
    res = play(["--load", str(f), "--save", str(f)], "1\nquit\n")
    assert res.exit_code == 0, res.output
    out = flat(res.output)
    assert "german rules" in out and "stopping the Prep phase or playing on" in out
    assert "stop your Prep phase here" in out and "(your Prep phase goes on)" in out
    assert "Player 1 stops the Prep phase with 3 decay symbols showing." in out
    assert saved_game(f).history[:3] == ["pass", "finish", "stop"]


def test_the_board_shows_the_parts_of_the_table():
    res = play(["--players", "3", "--bots", "random,random", "--seed", "11"], "quit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    for part in ("Commons (advancements)", "Vale cards", "Players", "Your field (left to right)",
                 "on deck", "Decay showing:", "VP pool", "Fertile Soil", "mana token", "Your choices",
                 "Player 1 (you)", "Player 2 (random)", "Player 3 (random)", "seed 11"):
        assert part in out, part
    # The three commons rows and both vale rows are listed by their notation.
    for spot in ("1.1", "2.3", "3.3", "vale 1.4", "vale 2.1"):
        assert spot in out, spot


# -- input handling --------------------------------------------------------------------
def test_invalid_input_gets_a_message_and_changes_nothing(tmp_path):
    f = tmp_path / "g.json"
    res = play(["--bots", "random", "--seed", "4", "--save", str(f)],
               "xyz\n99\n0\nbuy 9.9\n\nbuy 1.1 ??\nlog x\nquit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Not understood: unknown verb 'xyz'" in out
    assert "There is no choice 99" in out and "There is no choice 0" in out
    assert "Not allowed: buy 9.9 is not legal now" in out
    assert "Type a number from 1 to" in out          # the empty line
    assert "unexpected characters in '??'" in out
    assert "give a positive number of events" in out
    assert "The game is saved in" in out
    # Nothing was applied for the human: the save equals the game right after the bots' moves.
    assert saved_game(f) == fresh_session(4).game


def test_actions_by_notation_and_by_number(tmp_path):
    f = tmp_path / "g.json"
    start = fresh_session(5).game
    human = start.current_player
    assert start.phase == "planting"
    res = play(["--bots", "random", "--seed", "5", "--save", str(f)], "PASS\n1\nquit\n")
    assert res.exit_code == 0, res.output
    g = saved_game(f)
    hist = g.history[len(start.history):]
    assert hist[0] == "pass"
    # "1" then took the first legal action of the Harvest.
    after_pass = start.clone()
    after_pass.apply_action("pass")
    assert hist[1] == str(after_pass.legal_actions()[0])
    assert g.current_player == human or hist[1] == "finish"
    assert "Player 1: pass — stop planting and go to your Harvest phase" in res.output


def test_help_deck_log_and_board_commands():
    res = play(["--bots", "random", "--seed", "6"], "help\ndeck\ndeck 2\ndeck 9\nlog\nlog 2\nboard\nquit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "save [FILE]" in out and "buy 1.1 on #7" in out       # help
    assert "order unknown" in out and "Discard pile" in out      # deck
    assert "Player 2's cards (20, in no order)" in out           # deck 2: the other player's cards
    assert "is not yours to know" in out
    assert "give a player number from 1 to 2" in out             # deck 9
    assert "Game log" in out and "A 2-player game begins" in out  # log
    assert "Game log (2 events)" in out                          # log 2
    assert out.count("Commons (advancements)") >= 2              # board shows it again
    assert "The game was not saved" in out


def test_end_of_input_leaves_the_game_cleanly():
    res = play(["--bots", "random", "--seed", "6"], "")
    assert res.exit_code == 0, res.output
    assert "Input ended" in res.output


# -- saving and loading ----------------------------------------------------------------
def test_save_and_load_continue_exactly_like_an_uninterrupted_game(tmp_path):
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    first, second = 15, 25
    r1 = play(["--bots", "random", "--seed", "8", "--save", str(a)], "1\n" * first + "quit\n")
    assert r1.exit_code == 0, r1.output
    r2 = play(["--load", str(a), "--save", str(b)], "1\n" * second + "quit\n")
    assert r2.exit_code == 0, r2.output
    assert "Resumed" in r2.output
    r3 = play(["--bots", "random", "--seed", "8", "--save", str(c)], "1\n" * (first + second) + "quit\n")
    assert r3.exit_code == 0, r3.output
    ga, gb, gc = saved_game(a), saved_game(b), saved_game(c)
    assert len(gb.history) > len(ga.history)
    assert gb.history == gc.history
    assert gb == gc
    # The bots' random streams are part of the session, so they match too.
    assert saved(b)["bot_rngs"] == saved(c)["bot_rngs"]
    assert saved(b)["seats"] == saved(c)["seats"] == [{"kind": "human"},
                                                      {"kind": "bot", "bot": "random",
                                                       "seed": saved(c)["seats"][1]["seed"], "options": {}}]


def test_the_save_command_writes_a_file_that_loads(tmp_path):
    f = tmp_path / "manual.json"
    res = play(["--bots", "random", "--seed", "9"], f"1\nsave {f}\nquit\n")
    assert res.exit_code == 0, res.output
    assert f"Saved to {f}" in flat(res.output)
    data = saved(f)
    assert data["format"] == SESSION_FORMAT
    s = PlaySession.load(f)
    assert s.game.current_player == 0 or s.game.is_over() or s.seats[s.game.current_player].human


def test_save_without_a_file_writes_back_to_the_loaded_file(tmp_path):
    f = tmp_path / "g.json"
    assert play(["--bots", "random", "--seed", "9", "--save", str(f)], "quit\n").exit_code == 0
    before = saved_game(f)
    res = play(["--load", str(f)], "pass\nsave\nquit\n")
    assert res.exit_code == 0, res.output
    assert f"Saved to {f}" in flat(res.output)
    after = saved_game(f)
    assert after.history == before.history + ["pass"]


def test_loading_a_finished_game_shows_the_end_screen(tmp_path):
    f = tmp_path / "g.json"
    s = fresh_session(12)
    while not s.game.is_over():   # the human seat takes its first choice each time
        s.game.apply_action(s.game.legal_actions()[0])
        s.play_bots(type("Quiet", (), {"is_terminal": False})())  # type: ignore[arg-type]
    s.save(f)
    res = play(["--load", str(f)], "")
    assert res.exit_code == 0, res.output
    assert "Final scores" in res.output


@pytest.mark.parametrize("content, message", [
    ("this is not json", "not valid JSON"),
    ('{"format": "something-else"}', "not a saved game of 'mysticvale play'"),
    ('{"format": "mysticvale-play-session", "version": 99}', "version 99 is not supported"),
    ('{"format": "mysticvale-play-session", "version": 1, "seats": []}', "the saved game is missing"),
    ('{"format": "mysticvale-play-session", "version": 1, "seats": [], "game": "{}"}', "not a saved game"),
])
def test_a_corrupt_save_is_refused_with_exit_code_2(tmp_path, content, message):
    f = tmp_path / "bad.json"
    f.write_text(content)
    res = play(["--load", str(f)], "")
    assert res.exit_code == 2
    assert "error:" in res.output and message in flat(res.output)


def test_a_save_with_a_damaged_game_or_seats_is_refused(tmp_path):
    f = tmp_path / "g.json"
    assert play(["--bots", "random", "--seed", "2", "--save", str(f)], "quit\n").exit_code == 0
    data = saved(f)
    game = json.loads(data["game"])
    game["players"][0]["vp_tokens"] = "lots"
    broken = dict(data, game=json.dumps(game))
    f.write_text(json.dumps(broken))
    res = play(["--load", str(f)], "")
    assert res.exit_code == 2 and "corrupt saved game" in flat(res.output)
    f.write_text(json.dumps(dict(data, seats=[{"kind": "bot", "bot": "nosuchbot", "seed": 1, "options": {}},
                                              {"kind": "human"}])))
    res = play(["--load", str(f)], "")
    assert res.exit_code == 2 and "unknown bot 'nosuchbot'" in flat(res.output)
    f.write_text(json.dumps(dict(data, seats=[{"kind": "robot"}, {"kind": "human"}])))
    res = play(["--load", str(f)], "")
    assert res.exit_code == 2 and "a seat must be" in flat(res.output)


def test_a_missing_save_file_is_refused(tmp_path):
    res = play(["--load", str(tmp_path / "nope.json")], "")
    assert res.exit_code == 2 and "cannot read" in flat(res.output)


# -- seats -----------------------------------------------------------------------------
def test_hotseat_without_bots_says_whose_turn_it_is(tmp_path):
    f = tmp_path / "g.json"
    res = play(["--players", "2", "--seed", "5", "--save", str(f)], "1\n" * 40 + "quit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Hotseat" in out
    assert "Player 1's turn — pass the keyboard to Player 1" in out
    assert "Player 2's turn — pass the keyboard to Player 2" in out
    assert saved(f)["seats"] == [{"kind": "human"}, {"kind": "human"}]
    # Both seats acted through the prompt.
    assert "Player 1: " in out and "Player 2: " in out


def test_you_can_take_another_seat():
    res = play(["--players", "3", "--bots", "random,random", "--seat", "2", "--seed", "1"], "quit\n")
    assert res.exit_code == 0, res.output
    assert "Player 1 (random), Player 2 (you), Player 3 (random)" in res.output
    assert "Player 2, your choice" in res.output


def test_fewer_bots_than_other_seats_leaves_human_seats():
    res = play(["--players", "3", "--bots", "random", "--seed", "1"], "quit\n")
    assert res.exit_code == 0, res.output
    assert "Player 1, Player 2 (random), Player 3" in res.output


@pytest.mark.parametrize("args, message", [
    (["--bots", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--bots", "random,"], "empty name"),
    (["--players", "2", "--bots", "random,random"], "do not fit"),
    (["--players", "5"], "2 to 4 players"),
    (["--players", "2", "--seat", "3"], "--seat must be from 1 to 2"),
    (["--ruleset", "house"], "unknown rule set 'house'"),
    (["--sets", "nosuchset"], "nosuchset"),
    (["--load", "x.json", "--players", "3"], "cannot be combined with --load"),
])
def test_bad_options_exit_with_code_2(args, message):
    res = play(args, "")
    assert res.exit_code == 2, res.output
    assert message in flat(res.output)


def test_think_goes_to_bots_that_take_it(tmp_path, monkeypatch):
    bots_mod._load_all()
    made: list[dict] = []

    def thinker(seed: int = 0, think: float = 1.0):
        made.append({"seed": seed, "think": think})
        bot = bots_mod.RandomBot(seed)
        bot.name = "thinker"
        return bot

    monkeypatch.setitem(bots_mod.BOTS, "thinker", thinker)
    f = tmp_path / "g.json"
    res = play(["--bots", "thinker,random", "--think", "0.25", "--seed", "2", "--save", str(f)], "quit\n")
    assert res.exit_code == 0, res.output
    assert "Note: --think does not apply to random" in res.output
    seats = saved(f)["seats"]
    assert seats[1]["bot"] == "thinker" and seats[1]["options"] == {"think": 0.25}
    assert seats[2]["bot"] == "random" and seats[2]["options"] == {}
    assert made and made[0]["think"] == 0.25
    # Loading rebuilds the bot with the same name, seed and options.
    made.clear()
    assert play(["--load", str(f)], "quit\n").exit_code == 0
    assert made == [{"seed": seats[1]["seed"], "think": 0.25}]


# -- hidden information ----------------------------------------------------------------
def test_the_screen_shows_nothing_the_seat_may_not_know():
    """Two games that differ only in what the human cannot know (deck orders, other
    players' deck contents) give the very same screen and the same choices."""
    from io import StringIO

    from rich.console import Console

    real = fresh_session(13)
    seat = real.game.current_player
    other = PlaySession(real.game.determinize(seat, 99), real.seats, seed=13)
    assert other.game != real.game          # the hidden order really differs

    def screen(session: PlaySession) -> str:
        console = Console(file=StringIO(), width=120, color_system=None)
        answers = iter(["deck", "deck 1", "deck 2", "log", "quit"])
        assert session.human_turn(console, lambda _prompt: next(answers)) == "quit"
        return console.file.getvalue()

    assert screen(real) == screen(other)
