"""A place where people meet, in the browser (issue 21): tables with names, open tables anyone may
join from the lobby without a link (live), profiles reached by clicking a name, ratings beside
names, and replays of finished games step by step from any seat's view with the log beside them.

Several browser contexts are different people.  English and German, desktop (1366x900) and phone
(390x844); screenshots go to ``build/screenshots/meeting/`` (or MYSTICVALE_SCREENSHOTS)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_helpers import PHONE, screenshot
from test_people_lobby import request
from waiting import PATIENCE_MS, wait_for

from mysticvale.bots import SeatView, make_bot
from mysticvale.engine.game import new_game

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}
STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
MESSAGES = {lang: json.loads((STATIC / "messages" / f"{lang}.json").read_text()) for lang in ("en", "de")}


class Person:
    """One person on their own device: a browser context in a language, at a size (page errors fail
    the test).  ``who``: a person made over the API ({id, name, key, link}), kept on this device."""

    def __init__(self, browser, *, phone: bool = False, lang: str = "en", who: dict | None = None):
        kw = {"is_mobile": True, "has_touch": True} if phone else {}
        self.ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, locale="de-DE" if lang == "de" else "en-US",
                                       **kw)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(PATIENCE_MS)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        settings = {"animations": False, "language": lang}
        script = f"localStorage.setItem('mysticvale.settings', JSON.stringify({json.dumps(settings)}));"
        if who is not None:
            kept = {k: who[k] for k in ("id", "name", "key", "link")}
            script += f"localStorage.setItem('mysticvale.person', JSON.stringify({json.dumps(kept)}));"
        self.page.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ {script} sessionStorage.setItem('seeded', '1'); }}")

    def enter(self, base: str, name: str):
        """Open the lobby and pick ``name``; the page, at the lobby."""
        self.page.goto(base + "/")
        self.page.wait_for_selector("#name-panel")
        self.page.fill("#person-name", name)
        self.page.click("#name-btn")
        self.page.wait_for_selector("#create-form")
        return self.page

    def close(self) -> None:
        self.ctx.close()
        assert not self.errors, f"JavaScript errors in the page: {self.errors}"


@pytest.fixture
def shots(shot_dir) -> Path:
    d = Path(shot_dir) / "meeting"
    d.mkdir(parents=True, exist_ok=True)
    return d


def no_sideways(page, what: str) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{what} scrolls sideways: {width} > {inner}"


def _row(gid: str) -> str:
    return f"#open-list .table-row[data-id='{gid}']"


# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_public_table_is_found_and_joined_from_the_lobby_and_its_name_follows(browser, server, shots, lang):
    """Anna creates a public, named table (one open seat, a bot); Ben and Cleo see it under Open
    tables without a link; Ben joins with one click and sits at the table, whose top bar shows the
    name; the table leaves Cleo's list live; Anna renames it from her games list and Ben's top bar
    follows.  In German, Anna is on a phone and Ben at a desktop; in English the other way round."""
    m = MESSAGES[lang]
    anna = Person(browser, phone=lang == "de", lang=lang)
    ben = Person(browser, phone=lang == "en", lang=lang)
    cleo = Person(browser, lang=lang, phone=lang == "de")
    try:
        a = anna.enter(server, f"Anna {lang}")
        c = cleo.enter(server, f"Cleo {lang}")
        c.wait_for_selector("#open-list .empty, #open-list .table-row")
        a.fill("#table-name", f"Friday evening {lang}")
        a.check("input[name=visibility][value=public]")
        a.select_option("#players", "3")
        a.select_option("select[name=seat-1]", "human")      # a friend's seat...
        a.check("input[name=visibility][value=private]")
        a.check("input[name=visibility][value=public]")       # ... becomes an open seat on a public table
        assert a.eval_on_selector("select[name=seat-1]", "s => s.value") == "open"
        a.select_option("select[name=seat-2]", "random")
        screenshot(a, shots / f"lobby-create-public-{lang}-{'phone' if lang == 'de' else 'desktop'}.png", full_page=True)
        a.click("#create-btn")
        a.wait_for_selector("#games-list .game-row .public-tag")
        gid = a.get_attribute("#games-list .game-row", "data-id")
        assert a.inner_text(f"#games-list .game-row[data-id='{gid}'] .game-title") == f"Friday evening {lang}"

        # Cleo's lobby shows it by itself: the name, the host, the free seat, the bot, and Join.
        c.wait_for_selector(_row(gid))
        row = c.inner_text(_row(gid))
        assert f"Friday evening {lang}" in row and f"Anna {lang}" in row
        assert m["tables.free"]["one"].replace("{n}", "1").replace("{seats}", "3") in row
        assert m["seats.bot"].replace("{bot}", m["seats.bot_kind.random"]) in row
        assert c.locator(f"{_row(gid)} button.join").count() == 1
        assert c.get_attribute(f"{_row(gid)} a.watch", "href") == f"/games/{gid}"
        no_sideways(c, "the lobby")
        screenshot(c, shots / f"lobby-open-tables-{lang}-{'phone' if lang == 'de' else 'desktop'}.png", full_page=True)

        # Ben joins with one click: no link, his name, his seat.
        b = ben.enter(server, f"Ben {lang}")
        b.wait_for_selector(_row(gid))
        no_sideways(b, "the lobby")
        screenshot(b, shots / f"lobby-open-tables-{lang}-{'phone' if lang == 'en' else 'desktop'}.png", full_page=True)
        b.click(f"{_row(gid)} button.join")
        b.wait_for_selector("#players .player.me", state="attached")
        assert b.get_attribute("#players .player.me", "data-seat") == "1" and "#token=" not in b.url      # read, then gone from the address
        top = "document.querySelector('#topinfo .top-game').textContent"
        b.wait_for_function(f"{top}.startsWith('Friday evening {lang} · ')")       # (then the rules)
        # at the table, the host's name opens her profile (in a new tab: the table stays)
        host = b.locator("#players .player[data-seat='0'] a.person-link")
        host.wait_for(state="attached")
        assert host.get_attribute("href").startswith("/people/") and host.get_attribute("target") == "_blank"

        # The table is full: it leaves Cleo's list without a reload; Anna's row shows Ben.
        c.wait_for_selector(_row(gid), state="detached")
        a.wait_for_function(f"document.querySelector(\"#games-list .game-row[data-id='{gid}'] .chip[data-seat='1']\")"
                            f".textContent.includes('Ben {lang}')")

        # Anna renames the table in her list; Ben's top bar follows live.
        a.click(f"#games-list .game-row[data-id='{gid}'] .edit-table")
        a.fill(f"#games-list .game-row[data-id='{gid}'] .table-name-input", f"Night owls {lang}")
        a.click(f"#games-list .game-row[data-id='{gid}'] .table-edit button[type=submit]")
        a.wait_for_function(f"document.querySelector(\"#games-list .game-row[data-id='{gid}'] .game-title\")"
                            f".textContent === 'Night owls {lang}'")
        b.wait_for_function(f"{top}.startsWith('Night owls {lang} · ')")
        screenshot(b, shots / f"table-named-{lang}-{'phone' if lang == 'en' else 'desktop'}.png")
        screenshot(a, shots / f"lobby-games-named-{lang}-{'phone' if lang == 'de' else 'desktop'}.png", full_page=True)
    finally:
        for p in (anna, ben, cleo):
            p.close()


# ------------------------------------------------------------------------------------------------
def play_out(server: str, gid: str, tokens: dict[int, str], seed: int) -> None:
    """Play both seats of a two-person game to its end with greedy choices made here on a copy of
    the server's game (the same seed and options: the same game), sent over the HTTP API."""
    game = new_game(players=2, seed=seed, finish_turn=True)
    bots = {s: make_bot("greedy", seed=s + 3) for s in tokens}
    seq = 0
    while not game.is_over():
        seat = game.current_player
        action = str(bots[seat].act(SeatView(game, seat)))
        request("POST", f"{server}/api/games/{gid}/actions", {"action": action, "seq": seq},
                headers={"X-Seat-Token": tokens[seat]})
        game.apply_action(action)
        seq += 1


def finished_duel(server: str, seed: int, tag: str) -> tuple[dict, dict, str]:
    anna = request("POST", f"{server}/api/people", {"name": f"Anna {tag}"})
    ben = request("POST", f"{server}/api/people", {"name": f"Ben {tag}"})
    g = request("POST", f"{server}/api/games", {"players": 2, "open_seats": [1], "seed": seed, "name": f"Duel {tag}"},
                headers={"X-Player-Key": anna["key"]})
    claim = request("POST", f"{server}/api/games/{g['id']}/claim", {"seat": 1}, headers={"X-Player-Key": ben["key"]})
    play_out(server, g["id"], {0: g["seats"][0]["token"], 1: claim["token"]}, seed)
    wait_for(lambda: request("GET", f"{server}/api/people/{ben['id']}/profile")["games"]["played"] >= 1, interval=0.1)
    return anna, ben, g["id"]


@pytest.mark.parametrize("size, lang", [("desktop", "en"), ("phone", "de")])
def test_a_finished_game_gives_ratings_profiles_and_a_replay_from_any_seat(browser, server, shots, size, lang):
    m = MESSAGES[lang]
    anna, ben, gid = finished_duel(server, seed=23 if lang == "en" else 24, tag=f"{lang} {size}")   # names are unique on the shared server
    profile = request("GET", f"{server}/api/people/{ben['id']}/profile")
    ben_rating = profile["rating"]["value"]
    who = Person(browser, phone=size == "phone", lang=lang, who=anna)
    try:
        pg = who.page
        # The lobby: the finished game by its name, the ratings beside the names, a Replay button.
        pg.goto(server + "/")
        row = f"#games-list .game-row[data-id='{gid}']"
        pg.wait_for_selector(row)
        assert pg.inner_text(f"{row} .game-title") == f"Duel {lang} {size}"
        assert str(ben_rating) in pg.inner_text(f"{row} .chip[data-seat='1']")
        assert pg.locator(f"{row} a.replay-game").count() == 1
        screenshot(pg, shots / f"lobby-finished-{lang}-{size}.png", full_page=True)

        # Ben's name opens his profile: rating with its meaning, games played and won, his game.
        pg.click(f"{row} .chip[data-seat='1'] a.person-link")
        pg.wait_for_selector("#profile-rating")
        assert pg.url.endswith(f"/people/{ben['id']}")
        assert pg.inner_text("#rating-value") == str(ben_rating)
        assert m["rating.explain"][:40] in pg.inner_text("#profile-rating")
        stats = pg.inner_text("#profile-stats")
        assert m["profile.vs_people"] in stats
        won = profile["games"]["won"]
        assert pg.inner_text("#profile-stats tr.all td >> nth=0") == "1"
        assert pg.inner_text("#profile-stats tr.all td >> nth=1") == str(won)
        change = profile["finished"][0]["rating_change"]
        assert pg.inner_text(f"#finished-games .game-row[data-id='{gid}'] .rating-change").replace("−", "-") == \
            f"{'+' if change >= 0 else ''}{change}"
        no_sideways(pg, "the profile")
        screenshot(pg, shots / f"profile-{lang}-{size}.png", full_page=True)

        # The replay, from Ben's seat: step by step, turn by turn, to the end; then from Anna's seat.
        pg.click(f"#finished-games .game-row[data-id='{gid}'] a.replay-game")
        pg.wait_for_selector("#replay-slider")
        assert pg.evaluate("document.body.dataset.step") == "0"
        steps = int(pg.evaluate("document.body.dataset.steps"))
        assert steps > 50 and pg.evaluate("document.body.dataset.replaySeat") == "1"
        assert pg.locator("#field").count() == 1 and pg.locator("#supply").count() == 1
        pg.click("#replay-next")
        pg.wait_for_function("document.body.dataset.step === '1'")
        pg.click("#replay-next-turn")
        pg.wait_for_function("Number(document.body.dataset.step) > 1")
        turn_start = int(pg.evaluate("document.body.dataset.step"))
        pg.click("#replay-next-turn")
        pg.wait_for_function(f"Number(document.body.dataset.step) > {turn_start}")
        pg.click("#replay-prev-turn")
        pg.wait_for_function(f"document.body.dataset.step === '{turn_start}'")
        # the slider, to the middle
        pg.eval_on_selector("#replay-slider", f"(s) => {{ s.value = {steps // 2}; s.dispatchEvent(new Event('input')); }}")
        pg.wait_for_function(f"document.body.dataset.step === '{steps // 2}'")
        assert f"{steps // 2}" in pg.inner_text("#replay-where")
        if size == "phone":
            pg.click("#tabs [data-tab=log]")
        screenshot(pg, shots / f"replay-middle-{lang}-{size}.png", full_page=size != "phone")
        # a line of the log goes to the step that wrote it
        first_line = pg.locator("#log li[data-i]:visible >> nth=-1")     # (older turns are folded)
        first_line.click()
        pg.wait_for_function(f"Number(document.body.dataset.step) < {steps // 2}")
        if size == "phone":
            pg.click("#tabs [data-tab=field]")
        # to the end: the scores
        pg.click("#replay-last")
        pg.wait_for_function(f"document.body.dataset.step === '{steps}'")
        pg.click("#replay-scores")
        pg.wait_for_selector("#end table.scores")
        screenshot(pg, shots / f"replay-end-{lang}-{size}.png")
        pg.keyboard.press("Escape")
        # another seat's view of the same step
        pg.select_option("#replay-seat", "0")
        pg.wait_for_function("document.body.dataset.replaySeat === '0'")
        assert pg.evaluate("document.body.dataset.step") == str(steps)
        assert "seat=0" in pg.url and f"step={steps}" in pg.url
        pg.keyboard.press("Home")
        pg.wait_for_function("document.body.dataset.step === '0'")
        no_sideways(pg, "the replay")
        screenshot(pg, shots / f"replay-start-{lang}-{size}.png", full_page=size != "phone")
    finally:
        who.close()


def test_a_running_game_says_it_can_be_replayed_once_over(browser, server):
    g = request("POST", f"{server}/api/games", {"players": 2, "bots": {"1": "random"}, "seed": 3})
    who = Person(browser)
    try:
        who.page.goto(f"{server}/games/{g['id']}/replay")
        who.page.wait_for_selector("#replay-error")
        assert MESSAGES["en"]["replay.not_over"] in who.page.inner_text("#replay-error")
        who.page.click("#replay-error a.primary")
        who.page.wait_for_selector("#field")
    finally:
        who.close()
