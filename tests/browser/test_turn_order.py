"""yucata's turn order at the table (issue 21 item 4; file 000): Harvest, Discard, then the Prep, which
stops after a When Played ability the player used until they click the deck; Finish Turn ends the
turn.  The ability's use can be undone until the reveal, never after it.

And no decision on a hidden tab on a phone (item 5): after End Harvest on the Commons tab the table
goes to the Field tab, where the sleeve decision is; a decision that comes by itself while the
player reads another tab marks the tab that holds it instead of pulling the player away.

Both seats are people (the second played over the API), so every run is the same game: with seed 1
and tests/table_policies.py's policy that buys Mindful Owls, the first seat's Prep plays a Mindful
Owl after about 100 actions ("you may discard another card in your field": a choice that reveals
nothing).
"""

from __future__ import annotations

import json
import urllib.request

import pytest

import mysticvale as mv
from browser_helpers import (MY_TURN, click_and_wait, create_game, in_viewport, phone_page, screenshot, seat_state,
                             seat_url, use_settings, views)
from table_policies import OWLS, Wants, drive
from waiting import HTTP_TIMEOUT

pytestmark = pytest.mark.browser

SEED = 1
DESKTOP = {"width": 1366, "height": 900}


def _at_prep_owl(engine: mv.Game) -> bool:
    st = engine.state
    return bool(st.pending) and st.pending[-1].kind == "discard_field" and st.turn.phase == "prep"


def _game_at_the_owl(server: str) -> tuple[dict, mv.Game, int]:
    game = create_game(server, seed=SEED, bots={})
    engine = mv.new_game(players=2, seed=SEED, finish_turn=True)
    drive(server, game, engine, Wants(OWLS), _at_prep_owl)
    return game, engine, engine.current_player


def test_a_prep_ability_waits_for_the_deck_can_be_undone_and_finish_turn_ends_the_turn(browser, server, shot_dir):
    game, engine, seat = _game_at_the_owl(server)
    url = seat_url(server, game, seat)
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    use_settings(page, animations=False, language="en", languageAsked=True)
    page.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
    try:
        page.goto(url)
        page.wait_for_selector("body[data-myturn=yes] .card-acts [data-action^=discard]")
        owl = engine.state.players[seat].field[-1]
        owl_name = engine.observe(seat)["players"][seat]["field"][-1]["name"]
        assert owl_name in OWLS
        # The Prep played the Owl; its choice is offered on the field cards and as Skip.
        assert page.locator("#buttons [data-action=skip]").count() == 1
        assert page.locator("#reveal").count() == 0 and page.locator("#finish").count() == 0

        # Used: the next card waits for a click on the deck; the use can be undone.
        discard = page.locator(".card-acts [data-action^=discard]").first.get_attribute("data-action")
        click_and_wait(page, f".card-acts [data-action='{discard}']")
        page.wait_for_selector("#deck.reveal")
        prompt = page.inner_text("#prompt")
        assert owl_name in prompt and "Click your deck to reveal the next card" in prompt, prompt
        assert "You can still undo your last choice." in prompt, prompt
        assert page.inner_text("#reveal").strip() == "Reveal the next card"
        assert page.inner_text("#deck .pile-label").strip() == "click: reveal"
        assert page.locator("#undo").count() == 1
        st = seat_state(server, game, seat)
        assert st["legal_actions"] == ["reveal"] and st["can_undo"] is True
        assert st["observation"]["players"][seat]["on_deck"] is None        # nothing revealed yet
        screenshot(page, shot_dir / "turn-order-reveal-desktop-en.png")
        views(browser, url, shot_dir / "turn-order-reveal", "#deck.reveal")

        # Undo: the choice is back, as it was.
        click_and_wait(page, "#undo")
        page.wait_for_selector(".card-acts [data-action^=discard]")
        assert page.locator("#reveal").count() == 0 and page.locator("#deck.reveal").count() == 0
        back = seat_state(server, game, seat)
        assert back["observation"]["pending"]["kind"] == "discard_field" and back["can_undo"] is False
        assert back["observation"] == json.loads(json.dumps(engine.observe(seat)))

        # Declined this time, then one click on the deck: the Prep goes on by itself to its end (it
        # may play another Owl first: declined the same way).
        while engine.state.pending[-1].kind == "discard_field":
            click_and_wait(page, "#buttons [data-action=skip]")
            page.wait_for_selector("#deck.reveal")
            click_and_wait(page, "#deck")
            page.wait_for_selector("#finish, body[data-myturn=yes] .card-acts [data-action^=discard]")
            engine.apply_action("skip")
            engine.apply_action("reveal")
        assert engine.state.pending[-1].kind == "finish_turn"
        done = seat_state(server, game, seat)
        assert done["observation"] == json.loads(json.dumps(engine.observe(seat)))
        assert done["legal_actions"] == ["finish"] and done["can_undo"] is False   # a card was revealed
        assert page.locator("#undo").count() == 0
        assert page.inner_text("#finish").strip() == "Finish Turn"
        assert page.inner_text("#prompt").startswith("Your Prep is done")
        assert engine.observe(seat)["players"][seat]["on_deck"] is not None
        screenshot(page, shot_dir / "turn-order-finish-desktop-en.png")
        views(browser, url, shot_dir / "turn-order-finish", "#finish")

        # Finish Turn passes the turn on.
        click_and_wait(page, "#finish")
        page.wait_for_function("document.body.dataset.myturn === 'no'")
        assert seat_state(server, game, seat)["observation"]["current_player"] != seat
        assert owl in engine.state.players[seat].field
    finally:
        ctx.close()
    assert not errors, errors


def test_on_a_phone_the_reveal_is_in_the_bar_and_in_german(browser, server, shot_dir):
    game, engine, seat = _game_at_the_owl(server)
    with phone_page(browser, animations=False, language="de", languageAsked=True) as pg:
        pg.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
        pg.goto(seat_url(server, game, seat))
        pg.wait_for_selector("body[data-myturn=yes] .card-acts [data-action^=discard]")
        click_and_wait(pg, "#buttons [data-action=skip]")
        pg.wait_for_selector("#reveal")
        # In the sticky bar, on screen without scrolling, in German; the prompt says what to do.
        assert in_viewport(pg, "#reveal")
        assert pg.inner_text("#reveal").strip() == "Nächste Karte aufdecken"
        assert "Klicke auf deinen Stapel" in pg.inner_text("#prompt")
        assert "zurücknehmen" in pg.inner_text("#prompt")
        screenshot(pg, shot_dir / "turn-order-reveal-phone-de-bar.png")
        click_and_wait(pg, "#reveal")
        pg.wait_for_selector("#finish")
        assert pg.inner_text("#finish").strip() == "Zug beenden"
        assert in_viewport(pg, "#finish")


# -- item 5: no decision on a hidden tab -----------------------------------------------------------------
def test_on_a_phone_the_decision_is_never_on_a_hidden_tab(browser, server, shot_dir):
    """End Harvest on the Commons tab: the sleeve decision is on the Field tab, and the table goes
    there.  Reading the log when the turn comes back: the table stays, the Field tab is marked."""
    game = create_game(server, seed=11, bots={})
    token1 = next(s["token"] for s in game["seats"] if s["seat"] == 1)
    assert seat_state(server, game, 0)["observation"]["current_player"] == 0
    with phone_page(browser, animations=False, language="en", languageAsked=True) as pg:
        pg.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
        pg.goto(seat_url(server, game, 0))
        pg.wait_for_selector("body[data-myturn=yes] #buttons [data-action=pass]")
        click_and_wait(pg, "#buttons [data-action=pass]")
        pg.click("#tabs [data-tab=commons]")
        pg.wait_for_selector(".table[data-tab=commons]")
        click_and_wait(pg, "#supply [data-action^='buy soil'] >> nth=0")
        assert pg.evaluate("document.querySelector('.table').dataset.tab") == "commons"   # buying on: stays
        click_and_wait(pg, "#finish")
        # The sleeve decision: the table shows the Field tab with the cards to sleeve on.
        pg.wait_for_selector(".table[data-tab=field] #field .sleeve-target")
        assert seat_state(server, game, 0)["observation"]["pending"]["kind"] == "sleeve"
        assert pg.locator("#tabs .tab.on").get_attribute("data-tab") == "field"
        assert in_viewport(pg, "#sleeve-prompt")
        screenshot(pg, shot_dir / "phone-sleeve-after-end-harvest-en.png")
        # Looking at the log now (the player's own choice): it stays, and the bar offers the way back.
        pg.click("#tabs [data-tab=log]")
        pg.wait_for_selector(".table[data-tab=log] #go-decision")
        assert pg.inner_text("#go-decision").strip() == "Go to Field" and in_viewport(pg, "#go-decision")
        assert pg.locator("#tabs [data-tab=field] .badge.decision").count() == 1
        screenshot(pg, shot_dir / "phone-go-to-decision-en.png")
        pg.click("#go-decision")
        pg.wait_for_selector(".table[data-tab=field] #field .sleeve-target")
        assert pg.locator("#go-decision").count() == 0
        # Sleeve; the Prep and Finish Turn; the other seat plays its turn while I read the log.
        click_and_wait(pg, "#field .sleeve-target >> nth=0")
        pg.wait_for_selector("#finish")
        click_and_wait(pg, "#finish")
        pg.click("#tabs [data-tab=log]")
        pg.wait_for_selector(".table[data-tab=log]")
        for _ in range(20):
            st = seat_state(server, game, 1)
            if not st["legal_actions"]:
                break
            action = next(a for a in ("pass", "finish") if a in st["legal_actions"])
            req = json.dumps({"token": token1, "action": action, "seq": st["seq"]}).encode()
            urllib.request.urlopen(urllib.request.Request(f"{server}/api/games/{game['id']}/actions", data=req,
                                                          method="POST", headers={"Content-Type": "application/json"}),
                                   timeout=HTTP_TIMEOUT).read()
        pg.wait_for_function(MY_TURN)
        # My turn came by itself: the log I am reading stays; the Field tab carries the mark.
        pg.wait_for_selector("#tabs [data-tab=field] .badge.decision")
        assert pg.evaluate("document.querySelector('.table').dataset.tab") == "log"
        assert pg.get_attribute("#tabs [data-tab=field] .badge.decision", "title") == "Your decision is here"
        screenshot(pg, shot_dir / "phone-decision-badge-en.png")
        pg.click("#tabs [data-tab=field]")
        pg.wait_for_selector(".table[data-tab=field]")
        assert pg.locator("#tabs .badge.decision").count() == 0 or \
            pg.locator("#tabs [data-tab=field] .badge.decision").count() == 0
    # The turn's start as four players see it (desktop and phone, English and German).
    views(browser, seat_url(server, game, 0), shot_dir / "phone-decision", "body[data-myturn=yes] #field")
