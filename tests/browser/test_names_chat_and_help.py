"""The table among people (issue 15), in Chromium: names at the seats and in the log, the game's chat
between two seated players (one at phone size) and a spectator who only reads it, markup in a
message shown as text, the chat's limits, the keyword help on hover and on tap, the rules link, the
first-game tour, and a rematch that keeps the names."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from contextlib import contextmanager
from urllib.parse import urljoin

import pytest

from browser_helpers import HTTP_TIMEOUT, MY_TURN, boxes, long_press, no_horizontal_scroll, play_api, seat_url

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
XSS = "<img src=x onerror=alert(1)><b>bold</b>"


# -- set-up over the API ------------------------------------------------------------------------------
def req(method: str, url: str, payload: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(payload).encode() if payload is not None else None
    hdrs = {"Content-Type": "application/json"} if data else {}
    hdrs.update(headers or {})
    r = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(r, timeout=HTTP_TIMEOUT) as resp:
            return resp.status, json.loads(resp.read().decode() or "null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode() or "null")


def person(server: str, name: str) -> dict:
    status, p = req("POST", server + "/api/people", {"name": name})
    assert status == 201, p
    return p


def people_game(server: str, creator: dict, seed: int, players: int = 2, bots: dict | None = None) -> dict:
    status, g = req("POST", server + "/api/games", {"players": players, "sets": ["base"], "ruleset": "yucata",
                                                    "bots": bots or {}, "seed": seed},
                    {"X-Player-Key": creator["key"]})
    assert status == 201, g
    return g


def claim(server: str, game: dict, seat: int, who: dict) -> None:
    """``who`` claims ``seat`` with its invitation; ``game`` then holds the seat's fresh token (the
    invitation's ended with the claim, issue 22) and its link."""
    link = next(s for s in game["seats"] if s["seat"] == seat)
    status, body = req("POST", f"{server}/api/games/{game['id']}/claim", {"token": link["token"]},
                       {"X-Player-Key": who["key"]})
    assert status == 200, body
    link["token"] = body["token"]
    link["url"] = link["url"].split("#")[0] + "#token=" + body["token"]


@contextmanager
def opened(browser, url: str, who: dict | None = None, phone: bool = False, **settings):
    """A fresh browser (desktop, or a touch phone) holding `who`'s personal key, at `url`."""
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    prefs = {"animations": False, **settings}
    pg.add_init_script(f"localStorage.setItem('mysticvale.settings', {json.dumps(json.dumps(prefs))})")
    if who:
        kept = json.dumps({"key": who["key"], "id": who["id"], "name": who["name"]})
        pg.add_init_script(f"localStorage.setItem('mysticvale.person', {json.dumps(kept)})")
    pg.dialogs = dialogs
    try:
        pg.goto(url)
        pg.wait_for_selector("#field")
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
    assert not dialogs, f"dialogs opened: {dialogs}"


def names(page) -> dict[int, str]:
    rows = page.locator("#players .player")
    return {int(rows.nth(i).get_attribute("data-seat")): rows.nth(i).locator(".pname").inner_text()
            for i in range(rows.count())}


def chat_texts(page) -> list[str]:
    return page.locator("#chat-list .chat-text").evaluate_all("els => els.map((e) => e.textContent)")


def wait_chat(page, text: str) -> None:
    page.wait_for_function("t => [...document.querySelectorAll('#chat-list .chat-text')].some((e) => e.textContent === t)",
                           arg=text)


def send(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


# -- names ---------------------------------------------------------------------------------------------
def test_names_at_the_seats_and_in_the_log_follow_a_claim_live(browser, server, shot_dir):
    anna, bob = person(server, "Amy"), person(server, "Bob")
    game = people_game(server, anna, seed=61, players=3, bots={"2": "greedy"})
    with opened(browser, seat_url(server, game, 0), anna) as pg:
        pg.wait_for_selector("#players .player[data-seat='0'] .pname")
        pg.wait_for_function("document.querySelector(\"#players .player[data-seat='0'] .pname\").textContent.startsWith('Amy')")
        seen = names(pg)
        assert seen[0] == "Amy (you)" and seen[1] == "Player 2" and seen[2] == "Greedy bot"
        # Bob has not opened his invitation yet; the bot needs no tag beside its name.
        assert pg.locator("#players .player[data-seat='1'] .seat-tag.invited").count() == 1
        assert pg.locator("#players .player[data-seat='2'] .bot-tag").count() == 0
        # Bob claims his seat: Amy's table hears of it without a reload.
        claim(server, game, 1, bob)
        pg.wait_for_function("document.querySelector(\"#players .player[data-seat='1'] .pname\").textContent === 'Bob'")
        assert pg.locator("#players .seat-tag").count() == 0
        # The log speaks of the people by name (the server writes "Player n").
        star = next(i for i, p in enumerate(play_state(server, game, 0)["observation"]["players"]) if p["star"])
        starter = ["Amy", "Bob", "Greedy bot"][star]
        log = pg.inner_text("#log")
        assert f"{starter} has the star token and starts" in log, log
        assert not re.search(r"\bPlayer [123]\b", log), log
        # The top bar and the prompt name whose turn it is.
        assert starter in pg.inner_text("#topinfo")
        pg.screenshot(path=str(shot_dir / "names-desktop.png"))


def play_state(server: str, game: dict, seat: int) -> dict:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    status, st = req("GET", f"{server}/api/games/{game['id']}/state", headers={"X-Seat-Token": token})
    assert status == 200, st
    return st


# -- chat ----------------------------------------------------------------------------------------------
def test_chat_between_a_desktop_player_a_phone_player_and_a_spectator(browser, server, shot_dir):
    anna, bob = person(server, "Alma"), person(server, "Bruno")
    game = people_game(server, anna, seed=62)
    claim(server, game, 1, bob)
    with opened(browser, seat_url(server, game, 0), anna) as a, \
            opened(browser, seat_url(server, game, 1), bob, phone=True) as b, \
            opened(browser, seat_url(server, game, None)) as spec:
        for pg in (a, b, spec):
            pg.wait_for_selector("#chat", state="attached")
            pg.wait_for_function("document.querySelector('#conn').classList.contains('live')")
        # The spectator reads but does not write.
        assert spec.locator("#chat-input").count() == 0 or not spec.locator("#chat-input").is_visible()
        assert spec.locator("#chat-readonly").is_visible()
        assert "only the seated players write" in spec.inner_text("#chat-readonly")
        assert a.locator("#chat-readonly").is_hidden()

        # Alma writes (Enter sends); Bruno, on another tab of his phone, gets a badge.
        assert b.evaluate("document.querySelector('.table').dataset.tab") == "field"
        a.fill("#chat-input", "Hello Bruno, good luck!")
        a.press("#chat-input", "Enter")
        for pg in (a, b, spec):
            wait_chat(pg, "Hello Bruno, good luck!")
        assert a.input_value("#chat-input") == ""
        assert a.locator("#chat-list .chat-msg.mine .chat-name").first.inner_text() == "Alma (you)"
        assert spec.locator("#chat-list .chat-msg .chat-name").first.inner_text() == "Alma"
        b.wait_for_selector("#tabs .tab[data-tab=chat] .badge")
        assert b.inner_text("#tabs .tab[data-tab=chat] .badge") == "1"
        assert not b.locator("#chat").is_visible()
        b.screenshot(path=str(shot_dir / "chat-phone-badge.png"))

        # Bruno opens the chat tab: the message is there, the badge gone; he answers with the button.
        b.tap("#tabs .tab[data-tab=chat]")
        b.wait_for_selector(".table[data-tab=chat]")
        assert b.locator("#chat").is_visible() and not b.locator("#field").is_visible()
        assert b.locator("#tabs .tab[data-tab=chat] .badge").count() == 0
        b.fill("#chat-input", "Thanks Alma!\nSee you in the Harvest.")
        b.tap("#chat-send")
        for pg in (a, b, spec):
            wait_chat(pg, "Thanks Alma!\nSee you in the Harvest.")
        width, inner = no_horizontal_scroll(b)
        assert width <= inner
        # The box keeps its text and caret through the table's redraws (a game update redraws all).
        b.fill("#chat-input", "half a thou")
        renders = b.evaluate("window.mysticvaleClient.table().renders")
        acting = next(st for st in (play_state(server, game, 0), play_state(server, game, 1)) if st["legal_actions"])
        status, _ = req("POST", f"{server}/api/games/{game['id']}/actions",
                        {"action": acting["legal_actions"][0], "seq": acting["seq"]},
                        {"X-Seat-Token": game["seats"][acting["seat"]]["token"]})
        assert status == 200
        b.wait_for_function(f"window.mysticvaleClient.table().renders > {renders}")
        assert b.input_value("#chat-input") == "half a thou"
        assert b.evaluate("document.activeElement.id") == "chat-input"

        # Markup and script in a message are shown as the characters typed, never run.
        send(a, XSS)
        for pg in (a, b, spec):
            wait_chat(pg, XSS)
            assert pg.locator("#chat-list img, #chat-list b, #chat-list script").count() == 0
            assert pg.locator("#chat-list .chat-text").last.inner_text() == XSS
        # (no wait for a script to run late: the lists hold no element that could run one, as above)
        assert a.dialogs == [] and b.dialogs == [] and spec.dialogs == []
        a.screenshot(path=str(shot_dir / "chat-desktop.png"))
        b.screenshot(path=str(shot_dir / "chat-phone.png"))
        spec.screenshot(path=str(shot_dir / "chat-spectator.png"))


def test_chat_without_the_socket_posts_and_polls(browser, server):
    anna, bob = person(server, "Carla"), person(server, "Dirk")
    game = people_game(server, anna, seed=67)
    claim(server, game, 1, bob)
    with opened(browser, seat_url(server, game, 0), anna) as a:
        ctx = browser.new_context(viewport=DESKTOP)
        try:
            b = ctx.new_page()
            b.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
            # A network that lets no WebSocket through: the table polls and the chat POSTs.
            b.add_init_script("window.WebSocket = class { constructor() { throw new Error('no sockets here'); } };")
            b.goto(seat_url(server, game, 1))
            b.wait_for_selector("#chat-input")
            assert "live" not in b.locator("#conn").get_attribute("class")
            send(b, "Dirk here, without a socket")
            wait_chat(b, "Dirk here, without a socket")
            wait_chat(a, "Dirk here, without a socket")
            assert b.input_value("#chat-input") == ""
            send(a, "Carla answers")
            b.wait_for_function("[...document.querySelectorAll('#chat-list .chat-text')].some((e) => e.textContent === 'Carla answers')")
            assert chat_texts(b) == ["Dirk here, without a socket", "Carla answers"]
        finally:
            ctx.close()


def test_chat_limits_are_shown_plainly_and_keep_the_text(browser, server, shot_dir):
    anna = person(server, "Hanna")
    game = people_game(server, anna, seed=63, bots={"1": "random"})
    with opened(browser, seat_url(server, game, 0), anna) as pg:
        pg.wait_for_selector("#chat-input")
        # The counter counts characters and stops the send button above 500.
        pg.fill("#chat-input", "x" * 480)
        assert pg.inner_text("#chat-count") == "480/500" and pg.is_enabled("#chat-send")
        pg.fill("#chat-input", "y" * 501)
        assert pg.inner_text("#chat-count") == "501/500"
        assert pg.is_disabled("#chat-send")
        assert "at most 500" in pg.inner_text("#chat-error")
        assert pg.input_value("#chat-input") == "y" * 501
        # Thirteen lines: said in the page's own words before sending (the server would refuse it
        # too, in English), the send button stops, and the text stays.
        many = "\n".join(f"line {i}" for i in range(13))
        pg.fill("#chat-input", many)
        assert pg.inner_text("#chat-error") == "Too many lines: 13, at most 12."
        assert pg.is_disabled("#chat-send")
        pg.press("#chat-input", "Enter")
        assert pg.input_value("#chat-input") == many
        assert pg.locator("#chat-list .chat-msg").count() == 0
        # A refusal the page cannot foresee is shown with the server's reason ("Not sent: ..."):
        # a message of control characters only.
        send(pg, "\u0007\u0007")
        pg.wait_for_function("document.querySelector('#chat-error').textContent.startsWith('Not sent')")
        assert pg.locator("#chat-list .chat-msg").count() == 0
        # Too many too fast (5 per seat in 10 s): "slow down", the text kept.  (The first four go by
        # the API at once, so that the six messages stay within the 10 s on a loaded machine.)
        token = next(s["token"] for s in game["seats"] if s["seat"] == 0)
        for i in range(4):
            status, body = req("POST", f"{server}/api/games/{game['id']}/chat", {"text": f"message {i}"},
                               {"X-Seat-Token": token})
            assert status == 201, body
        send(pg, "message 4")
        for i in range(5):
            wait_chat(pg, f"message {i}")
        send(pg, "one more")
        pg.wait_for_function("document.querySelector('#chat-error').textContent.startsWith('Slow down')")
        assert pg.input_value("#chat-input") == "one more"
        assert "one more" not in chat_texts(pg)
        pg.screenshot(path=str(shot_dir / "chat-limits-desktop.png"))
        # Typing again clears the message; the history survives a reload.
        pg.type("#chat-input", "!")
        assert pg.locator("#chat-error").is_hidden()
        pg.reload()
        pg.wait_for_function("document.querySelectorAll('#chat-list .chat-msg').length === 5")
        assert chat_texts(pg) == [f"message {i}" for i in range(5)]


# -- help ----------------------------------------------------------------------------------------------
def test_keyword_help_on_hover_rules_link_and_tour_on_desktop(browser, server, shot_dir):
    anna = person(server, "Ines")
    game = people_game(server, anna, seed=64, bots={"1": "random"})
    with opened(browser, seat_url(server, game, 0), anna) as pg:
        lang = pg.evaluate("document.documentElement.lang")
        link = pg.locator("#rules-link")
        assert link.get_attribute("href") == f"/rules/{lang}"
        assert link.get_attribute("target") == "_blank"
        assert req("GET", urljoin(server, "/api/health"))[0] == 200
        with urllib.request.urlopen(urljoin(server, link.get_attribute("href")), timeout=HTTP_TIMEOUT) as resp:
            assert resp.status == 200 and "When Played" in resp.read().decode()
        # A trigger label on a card in the commons: its explanation on hover.
        trigger = pg.locator("#supply [data-help]").first
        key = trigger.get_attribute("data-help")
        trigger.hover()
        pg.wait_for_selector("#help-tip:not([hidden])")
        tip = pg.inner_text("#help-tip")
        expected = json.loads(urllib.request.urlopen(urljoin(server, "/static/messages/en.json")).read())
        assert expected[f"help.keyword.{key}"] in tip and expected[f"help.name.{key}"] in tip and "null" not in tip
        assert trigger.get_attribute("aria-describedby") == "help-tip"
        assert pg.locator("#help-tip a").get_attribute("href").startswith(f"/rules/{lang}#")
        pg.screenshot(path=str(shot_dir / "help-hover-desktop.png"))
        # A symbol: its count and what it does; the tooltip goes when the mouse leaves.
        pg.mouse.move(5, 450)
        pg.wait_for_selector("#help-tip", state="hidden")
        assert trigger.get_attribute("aria-describedby") is None
        mana = pg.locator("#supply .sym-mana, #field .sym-mana").first
        mana.hover()
        pg.wait_for_function("document.querySelector('#help-tip').dataset.key === 'mana' && !document.querySelector('#help-tip').hidden")
        assert "Pays for advancements" in pg.inner_text("#help-tip")
        # The tour: offered once, five steps, each pointing at its part of the table.
        pg.mouse.move(5, 450)
        pg.click("#tour-start")
        steps = []
        for _ in range(5):
            pg.wait_for_selector("#tour")
            steps.append(pg.inner_text("#tour-title"))
            assert pg.locator(".tour-target").count() == 1
            if len(steps) == 3:
                pg.screenshot(path=str(shot_dir / "tour-desktop.png"))
            pg.click("#tour-next")
        assert steps == ["Your field", "What to do now", "The commons", "Players, chat and log", "Help"]
        pg.wait_for_selector("#tour", state="detached")
        assert pg.locator(".tour-target").count() == 0
        pg.reload()
        pg.wait_for_selector("#field")
        assert pg.locator("#tour-offer").count() == 0             # once per device
        pg.click("#tour-btn")                                      # ... and again from the top bar
        pg.wait_for_selector("#tour")
        pg.click("#tour-skip")
        pg.wait_for_selector("#tour", state="detached")


def test_keyword_help_on_tap_and_long_press_on_a_phone(browser, server, shot_dir):
    anna = person(server, "Julia")
    game = people_game(server, anna, seed=65, bots={"1": "random"})
    with opened(browser, seat_url(server, game, 0), anna, phone=True) as pg:
        # The rules link is in the top bar at phone size too.
        assert pg.locator("#rules-link").is_visible()
        pg.click("#tour-decline")
        assert pg.locator("#tour-offer").count() == 0
        # The tour comes again from the foot of the players tab (the top bar has no room for it).
        assert pg.locator("#tour-btn").is_hidden()
        pg.tap("#tabs .tab[data-tab=players]")
        lang = pg.evaluate("document.documentElement.lang")
        assert pg.locator("#rules-foot").get_attribute("href") == f"/rules/{lang}"
        pg.tap("#tour-foot")
        pg.wait_for_selector("#tour")
        pg.wait_for_selector(".table[data-tab=field] #field.tour-target")     # step 1 shows its tab
        pg.screenshot(path=str(shot_dir / "tour-phone.png"))
        pg.tap("#tour-skip")
        pg.wait_for_selector("#tour", state="detached")
        pg.tap("#tabs .tab[data-tab=commons]")
        pg.wait_for_selector(".table[data-tab=commons]")
        # A long press on a card opens the zoom; a tap on a keyword in it explains the keyword, and
        # the zoom stays open.
        long_press(pg, pg.locator("#supply .adv-face").filter(has=pg.locator("[data-help]")).first)
        word = pg.locator("#zoom [data-help]").first
        key = word.get_attribute("data-help")
        word.tap()
        pg.wait_for_selector("#help-tip.touch:not([hidden])")
        assert pg.locator("#zoom").is_visible()
        expected = json.loads(urllib.request.urlopen(urljoin(server, "/static/messages/en.json")).read())
        assert expected[f"help.keyword.{key}"] in pg.inner_text("#help-tip")
        tip, = boxes(pg, "#help-tip")
        assert tip["x"] >= 0 and tip["x"] + tip["width"] <= PHONE["width"] + 1
        pg.screenshot(path=str(shot_dir / "help-tap-phone.png"))
        # Its close button closes it; a tap outside then closes the zoom as before.
        pg.tap("#help-tip .close")
        pg.wait_for_selector("#help-tip", state="hidden")
        assert pg.locator("#zoom").is_visible()
        pg.mouse.click(10, 10)
        pg.wait_for_selector("#zoom", state="hidden")
        # A tap on a symbol of a card that offers nothing (another player's vale or field): its help.
        pg.tap("#tabs .tab[data-tab=field]")
        sym = pg.locator("#field .sym").first
        sym.tap()
        pg.wait_for_selector("#help-tip.touch:not([hidden])")
        assert pg.locator("#zoom").is_hidden()


# -- rematch -------------------------------------------------------------------------------------------
def test_the_rematch_keeps_the_names(browser, server, shot_dir):
    anna = person(server, "Karla")
    game = people_game(server, anna, seed=66, bots={"1": "random"})

    def first(st):
        for p in ("push", "buy 3", "buy 2", "vale", "buy", "finish"):
            for a in st["legal_actions"]:
                if a.startswith(p):
                    return a
        return st["legal_actions"][0]

    st = play_api(server, game, 0, first, lambda s: False, limit=5000)
    assert st["observation"]["over"]
    with opened(browser, seat_url(server, game, 0), anna) as pg:
        pg.wait_for_selector("#end table.scores")
        heads = pg.locator("#end thead th").all_inner_texts()
        assert any(h.startswith("Karla (you)") for h in heads) and any("Random bot" in h for h in heads), heads
        pg.screenshot(path=str(shot_dir / "rematch-end-desktop.png"))
        pg.click("#rematch")
        pg.wait_for_url(re.compile(r"/games/(?!" + re.escape(game["id"]) + r")[^#?/]+$"))     # (the token read and gone)
        pg.wait_for_selector("#field")
        pg.wait_for_function(MY_TURN)
        pg.wait_for_function("document.querySelector(\"#players .player[data-seat='0'] .pname\").textContent === 'Karla (you)'")
        assert names(pg)[1] == "Random bot"
        log = pg.inner_text("#log")
        assert "Karla" in log and not re.search(r"\bPlayer [12]\b", log), log


def test_two_friends_finish_a_game_and_meet_again_in_the_rematch(browser, server, shot_dir):
    # Lena (desktop) and Milo (phone) play a game to its end; Lena starts the rematch from her end
    # screen; Milo's end screen offers to join it, and he arrives at his own seat under his name.
    anna, ben = person(server, "Lena"), person(server, "Milo")
    game = people_game(server, anna, seed=67)
    claim(server, game, 1, ben)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    # Both seats play greedy moves, chosen on a copy of the same seeded game (a table with people
    # ends each turn with Finish Turn), each sent once: the server must agree with every one.
    local = mv.new_game(players=2, seed=67, sets=("base",), ruleset="yucata", finish_turn=True)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    while not local.is_over():
        seat = local.current_player
        action = str(bots[seat].act(SeatView(local, seat)))
        status, body = req("POST", f"{server}/api/games/{game['id']}/actions?since={len(local.history)}",
                           {"action": action, "seq": len(local.history)}, {"X-Seat-Token": tokens[seat]})
        assert status == 200, body
        local.apply_action(action)
    status, st = req("GET", f"{server}/api/games/{game['id']}/state")
    assert st["observation"]["over"]
    with opened(browser, seat_url(server, game, 0), anna) as a, \
            opened(browser, seat_url(server, game, 1), ben, phone=True) as b:
        for pg in (a, b):
            pg.wait_for_selector("#end table.scores")
            assert pg.locator("#rematch").inner_text() == "Rematch (same seats and bots)"
        a.click("#rematch")
        a.wait_for_url(re.compile(r"/games/(?!" + re.escape(game["id"]) + r")[^#?/]+$"))      # (the token read and gone)
        new_id = a.url.split("/games/")[1].split("#")[0]
        a.wait_for_selector("#field")
        # Milo's end screen learns of it live, and offers to join rather than start another.
        b.wait_for_function("document.querySelector('#rematch') && "
                            "document.querySelector('#rematch').textContent === 'Join the rematch'")
        b.screenshot(path=str(shot_dir / "rematch-join-phone.png"))
        b.click("#rematch")
        b.wait_for_url(re.compile(r"/games/" + re.escape(new_id) + r"$"))
        b.wait_for_selector("#field")
        b.wait_for_function("document.querySelector(\"#players .player[data-seat='1'] .pname\").textContent === 'Milo (you)'")
        assert names(b)[0] == "Lena"
        a.wait_for_function("document.querySelector(\"#players .player[data-seat='1'] .pname\").textContent === 'Milo'")
        assert names(a)[0] == "Lena (you)"
        # Both are rated now (a finished game between people): the rating stands beside the name
        # and its "(you)", not inside it.
        for pg in (a, b):
            for seat in (0, 1):
                pg.wait_for_selector(f"#players .player[data-seat='{seat}'] .player-head > .rating", state="attached")
        a.locator("#players").screenshot(path=str(shot_dir / "rematch-players-ratings-desktop.png"))
        # The same seats, and each person's list of games has the new one under both names.
        for who in (anna, ben):
            status, mine = req("GET", f"{server}/api/people/me/games/{new_id}", headers={"X-Player-Key": who["key"]})
            assert status == 200 and mine["seat"] == (0 if who is anna else 1)
            assert [p["name"] for p in mine["players"]] == ["Lena", "Milo"]
