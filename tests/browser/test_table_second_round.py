"""The smaller things of issue 21 (item 7), each as a player meets it in Chromium.

Games with people in every seat are played to the situation over the API by the fixed policies of
tests/table_policies.py (the seeds were found by playing the same policies with the engine), so
every run is the same game; games with bots are only looked at where the bots' choices do not
matter.  Screenshots of each: desktop (1366x900) and phone (390x844), English and German.
"""

from __future__ import annotations

import collections
import json
import re
import time
from datetime import datetime
from urllib.parse import urljoin

import pytest

import mysticvale as mv
from browser_helpers import (boxes, click_and_wait, create_game, open_tab, phone_page, play_api, screenshot, seat_state,
                             seat_url, seq, use_settings, views)
from table_policies import Wants, drive

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}


class _Desktop:
    """A desktop page (1366x900) in its own context, in ``lang``, the tour declined; page errors fail."""

    def __init__(self, browser, lang: str = "en", tour: bool = False, **settings) -> None:
        self.ctx = browser.new_context(viewport=DESKTOP)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        use_settings(self.page, animations=False, language=lang, languageAsked=True, **settings)
        if not tour:
            self.page.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")

    def __enter__(self):
        return self.page

    def __exit__(self, *exc) -> None:
        self.ctx.close()
        assert not self.errors, f"JavaScript errors in the page: {self.errors}"


def _people_game(server: str, seed: int, policy, until, **kw) -> tuple[dict, mv.Game]:
    game = create_game(server, seed=seed, bots={}, **kw)
    engine = mv.new_game(players=2, seed=seed, finish_turn=True)
    drive(server, game, engine, policy, until)
    return game, engine


# -- deck search: every card its own choice ----------------------------------------------------------------
def _searching(engine: mv.Game) -> bool:
    st = engine.state
    if not st.pending or st.pending[-1].kind != "search_deck" or st.pending[-1].player != 0:
        return False
    return max(collections.Counter(st.cards[c] for c in st.players[0].deck).values()) >= 2


def test_a_deck_search_offers_every_card_even_identical_ones(browser, server, shot_dir):
    """Cleansing Rain: "search your deck for a card; you may discard it".  The engine offers one
    answer per kind of card; the table puts it on every card of that kind."""
    game, engine = _people_game(server, 1, Wants(("Cleansing Rain",)), _searching)
    deck = engine.state.players[0].deck
    kinds = collections.Counter(engine.state.cards[c] for c in deck)
    with _Desktop(browser) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("body[data-myturn=yes] #private .card-slot")
        slots = page.locator("#private .card-slot")
        assert slots.count() == len(deck)
        # Each card shown has its own Discard button, identical cards too.
        assert page.locator("#private .card-slot .card-acts [data-action^=discard]").count() == len(deck)
        assert page.locator("#private .card-slot:not(.usable)").count() == 0
        screenshot(page, shot_dir / "search-identical-desktop-en.png")
        # A card that is not the engine's own choice of its kind: its button discards one of that kind.
        twin_kind = next(k for k, n in kinds.items() if n >= 2)
        offered = {int(str(a).split("#")[1]) for a in engine.legal_actions() if str(a).startswith("discard ")}
        twin = next(c for c in deck if engine.state.cards[c] == twin_kind and c not in offered)
        rep = next(c for c in offered if engine.state.cards[c] == twin_kind)
        assert page.get_attribute(f"#private .card-slot[data-card='{twin}'] [data-action^=discard]",
                                  "data-action") == f"discard #{rep}"
        click_and_wait(page, f"#private .card-slot[data-card='{twin}'] [data-action^=discard]")
        engine.apply_action(f"discard #{rep}")
        assert seat_state(server, game, 0)["observation"] == json.loads(json.dumps(engine.observe(0)))
        left = collections.Counter(engine.state.cards[c] for c in engine.state.players[0].deck)
        assert left[twin_kind] == kinds[twin_kind] - 1
    views(browser, seat_url(server, game, None), shot_dir / "search-identical-spectator", "#field")


# -- auto < 3 -------------------------------------------------------------------------------------------------
def _low_decay_planting(engine: mv.Game) -> bool:
    from mysticvale.engine.zones import net_decay
    st = engine.state
    return engine.current_player == 0 and st.turn.phase == "planting" and not st.pending and len(engine.history) > 0 \
        and "push" in [str(a) for a in engine.legal_actions()] and net_decay(st, 0) < 3


def test_auto_reveal_counts_as_yucata_and_says_why_it_waits(browser, server, shot_dir):
    """File 000: "the player on turn may perform this action automatically with 3 or less decay in
    his display" (the checkbox "< 3", the setting "with less than 3 decay on display").  Below 3
    decay showing it reveals by itself; at 3 or more the player decides, and the table says so."""
    # A fresh game: every Prep leaves 3 or more decay showing, so the checkbox waits, and says why.
    fresh = create_game(server, seed=7, bots={})
    first = seat_state(server, fresh, 0)["observation"]["current_player"]
    with _Desktop(browser, autoReveal=True) as page:
        page.goto(seat_url(server, fresh, first))
        page.wait_for_selector("body[data-myturn=yes] #auto-state")
        decay = seat_state(server, fresh, first)["observation"]["players"][first]["decay"]
        assert decay >= 3
        assert page.inner_text("#auto-state") == f"waits: {decay} decay show"
        assert "less than 3 decay shows" in page.get_attribute("label.auto", "title")
        # Nothing planned: no automatic push is waiting to go (its timer is set only below the limit).
        seq_before = seq(page)
        page.wait_for_function("window.mysticvaleClient.table().autoTimer === null && !window.mysticvaleClient.playing()")
        assert seq(page) == seq_before and page.locator("#deck.clickable").count() == 1
        screenshot(page, shot_dir / "auto-waits-desktop-en.png")
    # Below 3 (a card with growth came up after a push): it reveals by itself.
    policy = Wants(("Mindful Owl", "Deadwood Harvester", "Lifebringer Seed", "Seedling"), discard_decay=True,
                   push_below=3)
    game, engine = _people_game(server, 4, policy, _low_decay_planting)
    at = seat_state(server, game, 0)
    assert at["observation"]["players"][0]["decay"] < 3
    with _Desktop(browser, autoReveal=True) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_function(f"Number(document.body.dataset.seq) > {at['seq']}")
        after = seat_state(server, game, 0)
        assert any(e["kind"] == "push" and e["player"] == 0 for e in after["log"][len(at["log"]):]), \
            after["log"][len(at["log"]):]
    with _Desktop(browser, lang="de", autoReveal=False) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("#field")
        page.check("#auto-reveal")
        page.wait_for_selector("#auto-state")
        screenshot(page, shot_dir / "auto-state-desktop-de.png")
    with phone_page(browser, animations=False, language="en", languageAsked=True, autoReveal=True) as pg:
        pg.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
        pg.goto(seat_url(server, fresh, first))
        pg.wait_for_selector("#auto-state")
        screenshot(pg, shot_dir / "auto-waits-phone-en.png")


# -- vales bought this turn as +X; the draw pile with the on-deck card; "Undone." off the bar -------------------
def _vale_offered(engine: mv.Game) -> bool:
    return engine.current_player == 0 and any(str(a).startswith("vale ") for a in engine.legal_actions())


def test_new_vales_count_as_plus_x_the_draw_pile_counts_the_on_deck_card_and_undo_leaves_the_bar_free(
        browser, server, shot_dir):
    game, engine = _people_game(server, 1, Wants((), vales=True), _vale_offered)
    st = seat_state(server, game, 0)
    me = st["observation"]["players"][0]
    owned = len(me["vales"])
    vale = next(a for a in st["legal_actions"] if a.startswith("vale "))
    with _Desktop(browser) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("body[data-myturn=yes] #players .player.me .vales-btn")
        # The draw pile: the deck and the on-deck card on it (file 000: "incl. on-deck card").
        pile = me["deck_count"] + (1 if me["on_deck"] else 0)
        assert page.get_attribute("#deck", "data-count") == str(pile)
        assert page.inner_text("#deck .pile-count") == str(pile)
        assert page.get_attribute("#deck", "title").startswith(f"Draw pile: {pile} cards")
        assert f"deck {pile} ·" in page.inner_text("#players .player.me .player-counts")
        assert page.inner_text("#players .player.me .vales-btn").strip() == f"vales {owned}"
        click_and_wait(page, f"[data-action='{vale}']")
        # Bought this turn: counted apart, "+1" (file 000: "given as +X in the number of cards").
        page.wait_for_selector("#players .player.me .vales-btn[data-new='1']")
        assert page.inner_text("#players .player.me .vales-btn").strip() == f"vales {owned}+1"
        assert "bought this turn" in page.get_attribute("#players .player.me .vales-btn", "title")
        screenshot(page, shot_dir / "vales-plus-x-desktop-en.png")
        views(browser, seat_url(server, game, 0), shot_dir / "vales-plus-x", "#players .vales-btn[data-new='1']",
              before=lambda p: open_tab(p, "players") if p.viewport_size["width"] < 700 else None)
        # Undo: said beside the prompt; Undo and End Harvest stay free to click (no banner over them).
        page.evaluate("window.scrollTo(0, 400)")
        click_and_wait(page, "#undo")
        page.wait_for_selector("#prompt #undone")
        assert page.inner_text("#undone").strip() == "↶ Undone."
        assert page.locator("#banner").is_hidden()
        for target in ("#finish", "#buttons [data-action=pass], #finish"):
            # the box and what stands at its middle, in one step of the page
            hit = page.evaluate("(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
                                " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)"
                                ".closest('#finish, #undo, #buttons')?.id; }", target)
            assert hit in ("finish", "buttons"), hit
        assert page.inner_text("#players .player.me .vales-btn").strip() == f"vales {owned}"
        screenshot(page, shot_dir / "undone-note-desktop-en.png")
        # The next version (an action) clears the note.
        click_and_wait(page, f"[data-action='{vale}']")
        assert page.locator("#undone").count() == 0


# -- the rules page -----------------------------------------------------------------------------------------
def test_the_rules_link_opens_a_styled_page(browser, server, shot_dir):
    with _Desktop(browser) as page:
        game = create_game(server, seed=3, bots={"1": "random"})
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("#rules-link")
        href = page.get_attribute("#rules-link", "href")
        assert href == "/rules/en"
        with page.context.expect_page() as opened:
            page.click("#rules-link")
        rules = opened.value
        rules.wait_for_load_state()
        assert rules.url.endswith("/rules/en")
        style = rules.evaluate("""(() => { const a = getComputedStyle(document.querySelector('article.help'));
          const b = getComputedStyle(document.body); const h = getComputedStyle(document.querySelector('article.help h1'));
          return [a.backgroundColor, a.maxWidth, b.fontFamily, h.color, document.title]; })()""")
        assert style[0] == "rgb(251, 249, 242)" and "serif" not in style[2].replace("sans-serif", "")
        assert style[3] == "rgb(47, 111, 79)" and style[4] == "Mystic Vale: how to play"
        rules.close()
    views(browser, urljoin(server, "/rules/en"), shot_dir / "rules-page-en", "article.help")
    views(browser, urljoin(server, "/rules/de#kw-when-played"), shot_dir / "rules-page-de", "article.help")


# -- friendly error pages --------------------------------------------------------------------------------------
def test_a_wrong_link_gets_a_friendly_page_in_the_players_language(browser, server, shot_dir):
    game = create_game(server, seed=3, bots={"1": "random"})
    wrong = urljoin(server, f"/games/{game['id']}#token=not-a-token-of-this-game")
    for lang, title, watch in (("en", "This invitation link does not fit this game", "Watch this game"),
                               ("de", "Dieser Einladungslink passt nicht zu diesem Spiel", "Diesem Spiel zuschauen")):
        with _Desktop(browser, lang=lang) as page:
            page.goto(wrong)
            page.wait_for_selector("#error-page[data-status='403']")
            text = page.inner_text("#app")
            assert page.inner_text("#error-page h1") == title and watch in text
            assert "does not belong" not in text and "token" not in text.lower()
            page.goto(urljoin(server, "/games/no-such-game-here"))
            page.wait_for_selector("#error-page[data-status='404']")
            assert "does not" not in page.inner_text("#app").lower() or lang == "en"
            page.goto(wrong)
            page.wait_for_selector("#watch-game")
            page.click("#watch-game")
            page.wait_for_selector("#field")              # the game, as a spectator
            assert page.locator("#error-page").count() == 0
    views(browser, wrong, shot_dir / "error-link", "#error-page")
    views(browser, urljoin(server, "/games/no-such-game-here"), shot_dir / "error-no-game", "#error-page")


# -- the tour beside its step ----------------------------------------------------------------------------------
def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_the_tour_never_covers_chat_and_log_on_a_desktop(browser, server, shot_dir):
    game = create_game(server, seed=3, bots={"1": "random"})
    with _Desktop(browser, tour=True) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("#tour-start")
        page.click("#tour-start")
        for step in range(5):
            page.wait_for_selector("#tour")
            page.wait_for_function("!!document.querySelector('.tour-target')")
            tour, chat, log_panel, target = boxes(page, "#tour", "#chat", "#log-panel", ".tour-target")
            for side, box in (("#chat", chat), ("#log-panel", log_panel)):
                assert not _overlap(tour, box), (step, side, tour, box)
            assert not _overlap(tour, target) or target["height"] > 700, (step, tour, target)
            screenshot(page, shot_dir / f"tour-step-{step + 1}-desktop-en.png")
            page.click("#tour-next")


# -- a phone's first screen ------------------------------------------------------------------------------------
def test_on_a_phone_the_tour_offer_and_summary_leave_the_field_on_the_first_screen(browser, server, shot_dir):
    game = create_game(server, seed=5, players=4, bots={"1": "random", "2": "random", "3": "random"})
    play_api(server, game, 0, lambda s: next(a for a in ("pass", "finish", "skip", "keep") if a in s["legal_actions"])
             if any(a in s["legal_actions"] for a in ("pass", "finish", "skip", "keep")) else s["legal_actions"][0],
             lambda s: s["observation"]["turn_number"] > 4 and s["observation"]["phase"] == "planting")
    for lang in ("en", "de"):
        with phone_page(browser, animations=False, language=lang, languageAsked=True) as pg:
            pg.goto(seat_url(server, game, 0))
            pg.wait_for_selector("body[data-myturn=yes] #summary")
            pg.wait_for_selector("#tour-offer")
            assert pg.locator("#summary li").count() == 3            # three other players
            # One line each: the offer and the folded summary.
            offer, summary, bar, first = boxes(pg, "#tour-offer", "#summary", "#actionbar",
                                               "#field .field-cards .card-slot")
            assert offer["height"] <= 46
            assert summary["height"] <= 46
            assert first["y"] + first["height"] <= bar["y"], (first, bar)
            screenshot(pg, shot_dir / f"phone-first-screen-{lang}.png")
            # The summary opens on a tap and shows a line per player.
            pg.click("#summary summary")
            pg.wait_for_selector("#summary details[open]")
            assert pg.locator("#summary li").first.is_visible()
            screenshot(pg, shot_dir / f"phone-summary-open-{lang}.png")


# -- the log: the Prep in one line, and times -------------------------------------------------------------------
def test_the_log_folds_the_prep_and_shows_when_each_turn_began(browser, server, shot_dir):
    game = create_game(server, seed=5, players=3, bots={"1": "random", "2": "random"})
    play_api(server, game, 0, lambda s: next(a for a in ("pass", "finish") if a in s["legal_actions"])
             if any(a in s["legal_actions"] for a in ("pass", "finish")) else s["legal_actions"][0],
             lambda s: s["observation"]["turn_number"] > 6 and s["observation"]["phase"] == "planting")
    start = time.time()
    with _Desktop(browser) as page:
        page.goto(seat_url(server, game, 0))
        page.wait_for_selector("body[data-myturn=yes] #log .log-prep")
        log = seat_state(server, game, 0)["log"]
        reveals = [e for e in log if e["kind"] == "reveal"]
        prep_lines = page.locator("#log .log-prep")
        # Every Prep of a finished turn is one line; the lines say all its reveals, with their number.
        shown = sum(int(x) for x in prep_lines.evaluate_all("els => els.map((e) => e.dataset.n)"))
        assert shown >= 2 * prep_lines.count() and shown <= len(reveals)
        lines = page.locator("#log .turn-entries > li").count()
        assert lines <= len(log) - shown + prep_lines.count()
        text = prep_lines.first.inner_text()
        assert re.match(r"^.+'s Prep: \d+ cards: .+\.$", text), text
        # Each turn's header shows when it began.
        times = page.locator("#log .turn-head time")
        assert times.count() >= 6
        for iso in times.evaluate_all("els => els.map((e) => e.getAttribute('datetime'))"):
            when = datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
            assert start - 3600 < when <= time.time() + 5, iso
        assert re.fullmatch(r"\d{1,2}:\d{2}( [AP]M)?", times.first.inner_text().strip())
        screenshot(page, shot_dir / "log-prep-times-desktop-en.png")
    views(browser, seat_url(server, game, 0), shot_dir / "log-prep-times", "#log .log-prep",
          before=lambda p: open_tab(p, "log") if p.viewport_size["width"] < 700 else None)
