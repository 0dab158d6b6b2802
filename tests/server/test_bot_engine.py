"""The server's searching bots think with the native core when it is built (issue 19 item 6):
``mysticvale serve --bot-engine auto|native|python``, ``server/bot_engine.py``.

The native bots choose as their Python twins do for the same seed (``tests/native/``), so the
worker's answer is the same with either engine for a bot without a time budget; with a time
budget the native one searches further.  A choice the machine cannot serve is refused with a
message before the server starts."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mysticvale import new_game
from mysticvale.cli.main import app as cli
from mysticvale.engine import native
from mysticvale.server import create_app
from mysticvale.server import bot_engine
from mysticvale.server.sessions import BadInput, think_in_process


def _positions(n: int = 6):
    """Saves of games part-way through (all three sets, leaders, 2-3 players), with the seat to act."""
    out = []
    for i in range(n):
        g = new_game(players=2 + i % 2, sets=("base", "vale_of_magic", "twilight_garden")[: 1 + i % 3],
                     leaders=i % 3 == 2, seed=40 + i)
        pick = random.Random(i)
        for _ in range(15 + 9 * i):
            if g.is_over():
                break
            g.apply_action(pick.choice(g.legal_actions()))
        if g.current_player is not None:
            out.append((g.to_json(), g.current_player, [str(a) for a in g.legal_actions()]))
    return out


def test_auto_means_native_where_the_core_is_built_and_python_always_means_python(built):
    assert bot_engine.resolve("auto") == "native"
    assert bot_engine.resolve("native") == "native"
    assert bot_engine.resolve("python") == "python"


def test_a_choice_the_machine_cannot_serve_is_refused_saying_why(monkeypatch):
    with pytest.raises(ValueError, match=r"unknown bot engine 'rust'; choices: auto, native, python"):
        bot_engine.resolve("rust")
    monkeypatch.setattr(native, "available", lambda: False)
    monkeypatch.setattr(native, "unavailable_reason", lambda: "no extension")
    assert bot_engine.resolve("auto") == "python"
    with pytest.raises(ValueError, match=r"needs the native core, which is not built: no extension"):
        bot_engine.resolve("native")
    with pytest.raises(ValueError, match="unknown bot engine"):
        create_app("sqlite:///unused.db", bot_engine="rust")


def test_serve_refuses_an_unknown_bot_engine_before_it_starts(tmp_path):
    r = CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path), "--bot-engine", "rust"])
    assert r.exit_code == 2
    assert "unknown bot engine 'rust'" in r.output
    assert not (tmp_path / "games.db").exists()        # nothing was served or stored


def test_the_worker_thinks_with_the_native_core_and_plays_as_the_python_bot_would(built, monkeypatch):
    used = []
    real = bot_engine.think

    def spy(engine, *args):
        answer = real(engine, *args)
        used.append((engine, answer is not None))
        return answer

    monkeypatch.setattr("mysticvale.server.sessions.bot_engine_think", spy)
    positions = _positions()
    assert len(positions) >= 5
    for i, (save, seat, legal) in enumerate(positions):
        for spec in ("greedy", "random"):
            by_native = think_in_process(save, seat, spec, 7 + i, None, "native")
            by_python = think_in_process(save, seat, spec, 7 + i, None, "python")
            assert by_native == by_python and by_native in legal, (i, spec)
    assert used and all(u == ("native", True) for u in used[::2])    # the native core answered
    assert all(u == ("python", False) for u in used[1::2])           # the Python engine did


def test_a_bot_the_core_does_not_have_is_played_by_the_python_engine(built, monkeypatch):
    monkeypatch.setattr("mysticvale.bots.native_bot.plays", lambda specs: False)
    save, seat, legal = _positions(1)[0]
    assert think_in_process(save, seat, "greedy", 3, None, "native") in legal


def test_a_bad_stored_bot_is_a_clear_error_with_either_engine(built):
    save, seat, _ = _positions(1)[0]
    for engine in ("native", "python"):
        with pytest.raises(BadInput, match="unknown bot 'wizard'"):
            think_in_process(save, seat, "wizard", 3, None, engine)


def test_the_server_says_what_its_bots_think_with(built, tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_engine="python")) as c:
        assert c.get("/api/bots").json()["engine"] == "python"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}")) as c:
        assert c.get("/api/bots").json()["engine"] == "native"


def test_a_searching_bot_thinks_with_the_native_core_for_its_time(native_bots_made):
    made = native_bots_made
    save, seat, legal = next(p for p in _positions() if len(p[2]) > 1)
    assert think_in_process(save, seat, "ismcts:0.2", 5, None, "native") in legal
    assert [b.name for b in made] == ["ismcts"]
    searched = made[0]._core.last()
    assert searched["iterations"] >= 1 and searched["seconds"] >= 0.2 * 0.9
    # a stored longer thinking time is cut to the server's limit, as for the Python bot
    assert think_in_process(save, seat, "ismcts:30", 5, 0.1, "native") in legal
    assert made[-1]._core.last()["seconds"] < 5
