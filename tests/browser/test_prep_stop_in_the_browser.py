"""The German rules at the table, in Chromium: the Prep phase a player may stop early.

File 000 attributes to the German rules "the option to prematurely stop the Prepare Phase"; the
engine offers it as a Prep decision (``stop`` or ``push``) once the field and the on-deck card show
more than 2 decay symbols, counted without growth, while growth keeps the net decay below 3
(docs/rules-decisions.md, "Rule sets").  The test plays one seat by clicking, the other over the API,
until that decision comes, checks it is offered in plain words, clicks it, and checks the server's
game is exactly the engine's game after ``stop``.

The seed and the clicks were found by scanning seeds with the engine alone
(``mysticvale.new_game(players=2, seed=s, ruleset="german", finish_turn=True)``, both seats
passing the Planting and ending Harvest and turn, the first seat buying a commons card with growth
when it can): with seed 49 the first seat's Prep stop comes in its fourth turn, after 12 of its
decisions.  Both seats are people, so no bot's choice enters and the game is the same every run.
The turn then ends with Finish Turn (yucata's turn order at a table), and until then the stop can
be taken back.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mysticvale as mv
from browser_helpers import (MY_TURN, create_game, http_json, no_playback, open_seat, seat_state,
                             use_settings, wait_seq_change)

pytestmark = pytest.mark.browser

SEED = 49
#: The first seat's decisions up to its Prep stop, as clicked: three turns of passing (Planting,
#: End Harvest, Finish Turn after the Prep), then a Generic spirit with growth (commons 1.1) bought
#: in the fourth; its End Harvest starts the Prep that offers the stop.
SEAT0 = ["pass", "finish", "finish"] * 3 + ["pass", "buy 1.1", "finish"]
MESSAGES = json.loads((Path(__file__).parents[2] / "src/mysticvale/web/static/messages/en.json")
                      .read_text(encoding="utf-8"))


def _engine(actions: list[str]) -> mv.Game:
    """The game the server plays (people's tables end turns with Finish Turn), replayed."""
    g = mv.new_game(players=2, seed=SEED, sets=("base",), ruleset="german", finish_turn=True)
    for a in actions:
        g.apply_action(a)
    return g


def _second_seat(legal: list[str]) -> str:
    """The other seat goes straight to the Harvest and ends it and its turn."""
    return next(a for a in ("pass", "finish") if a in legal)


def _click(page, action: str) -> None:
    """Play ``action`` with the widget the table offers it on."""
    verb, _, arg = action.partition(" ")
    if verb == "pass":
        page.click("#buttons [data-action=pass]")
    elif verb == "finish":
        page.click("#finish")
    elif verb == "buy":
        page.click(f"#supply [data-commons='{arg}']")
    elif verb == "stop":
        page.click("#buttons [data-action=stop]")
    else:
        raise AssertionError(f"no click for {action!r}")


def _no_zoom(page) -> None:
    """Move the pointer off the cards so no zoom covers the bar for the screenshot.  (A click closes
    a hover zoom, and a zoom whose card was drawn anew closes when the mouse moves: js/zoom.js.)"""
    page.mouse.move(5, 5)
    page.mouse.move(8, 8)
    page.wait_for_function("!document.querySelector('#zoom:not([hidden])')")


def _play_to_prep_stop(page, server: str, game: dict) -> list[str]:
    """Click the first seat's SEAT0 and answer for the second over the API, until the first seat
    is asked whether to stop its Prep; every action played, in order."""
    token1 = next(s["token"] for s in game["seats"] if s["seat"] == 1)
    script = list(SEAT0)
    played: list[str] = []
    for _ in range(80):
        st = seat_state(server, game, 0)
        pending = st["observation"].get("pending")
        if pending and pending["kind"] == "prep_stop":
            assert pending["player"] == 0 and not script, (pending, script)
            return played
        if st["legal_actions"]:
            assert script, f"the first seat has a decision after its script: {st['legal_actions']}"
            action = script.pop(0)
            assert action in st["legal_actions"], (action, st["legal_actions"])
            page.wait_for_function(f"({MY_TURN}) && document.body.dataset.seq === '{st['seq']}'")
            _click(page, action)
            wait_seq_change(page, str(st["seq"]))
        else:
            st1 = seat_state(server, game, 1)
            action = _second_seat(st1["legal_actions"])
            http_json("POST", f"{server}/api/games/{game['id']}/actions",
                      {"token": token1, "action": action, "seq": st1["seq"]})
        played.append(action)
    raise AssertionError(f"no Prep stop after {played}")


def test_german_prep_stop_is_offered_in_words_and_stops_the_prep(page, browser, server, shot_dir):
    game = create_game(server, seed=SEED, bots={}, ruleset="german")
    no_playback(page)
    open_seat(page, server, game, 0)
    played = _play_to_prep_stop(page, server, game)
    st = seat_state(server, game, 0)
    assert st["legal_actions"] == ["stop", "push"]
    page.wait_for_function(f"({MY_TURN}) && document.body.dataset.seq === '{st['seq']}'")

    # Offered in plain words: a button that says what it does, the prompt names the decision,
    # and going on with the Prep is the deck's usual push.
    button = page.locator("#buttons [data-action=stop]")
    label = button.inner_text().strip()
    assert label == MESSAGES["action.stop"] == "Stop the Prep here"
    assert re.fullmatch(r"[A-Z][a-z]+( [A-Za-z]+)*", label), label     # words, no notation
    prompt = page.inner_text("#prompt")
    assert "Prep" in prompt and not re.search(r"prep_stop|_|#\d", prompt), prompt
    assert page.locator("#deck.clickable").count() == 1
    field_cards = len(st["observation"]["players"][0]["field"])
    _no_zoom(page)
    page.screenshot(path=str(shot_dir / "prep-stop-desktop.png"))

    # The same seat on a phone: the decision is in the bar without scrolling sideways.
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        phone = ctx.new_page()
        use_settings(phone, animations=False)
        open_seat(phone, server, game, 0)
        phone.wait_for_selector("#buttons [data-action=stop]")
        assert phone.locator("#buttons [data-action=stop]").inner_text().strip() == label
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(path=str(shot_dir / "prep-stop-phone.png"))
    finally:
        ctx.close()

    before = str(st["seq"])
    _click(page, "stop")
    wait_seq_change(page, before)

    # The Prep stopped: the server's game is the engine's game after 'stop', for both seats,
    # and not the one after 'push'.
    stopped, pushed = _engine(played + ["stop"]), _engine(played + ["push"])
    for seat in (0, 1):
        body = seat_state(server, game, seat)
        assert body["observation"] == json.loads(json.dumps(stopped.observe(seat))), seat
        assert body["log"] == json.loads(json.dumps(stopped.log(seat))), seat
        assert body["observation"] != json.loads(json.dumps(pushed.observe(seat))), seat
    stopped_state = seat_state(server, game, 0)
    after = stopped_state["observation"]
    assert len(after["players"][0]["field"]) == field_cards          # no card played after the stop
    # The turn ends with Finish Turn; until then the stop can be taken back.
    assert after["pending"]["kind"] == "finish_turn" and stopped_state["can_undo"] is True
    page.wait_for_selector("#finish")
    page.wait_for_selector("#undo")
    assert "Player 1 stops the Prep phase with 3 decay symbols showing." in page.inner_text("#log")
    before = str(stopped_state["seq"])
    page.click("#undo")
    wait_seq_change(page, before)
    page.wait_for_selector("#buttons [data-action=stop]")
    assert seat_state(server, game, 0)["observation"]["pending"]["kind"] == "prep_stop"
    before = page.evaluate("document.body.dataset.seq")
    _click(page, "stop")
    wait_seq_change(page, before)
    page.wait_for_selector("#finish")
    before = page.evaluate("document.body.dataset.seq")
    page.click("#finish")
    wait_seq_change(page, before)
    after = seat_state(server, game, 0)["observation"]
    assert after["current_player"] == 1 and not after.get("pending")  # the next player's turn
    page.wait_for_function("document.body.dataset.myturn === 'no'")
    _no_zoom(page)
    page.screenshot(path=str(shot_dir / "prep-stopped-desktop.png"))
