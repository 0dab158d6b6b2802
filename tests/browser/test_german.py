"""The interface in German (issue 15 item 7): a browser whose language is German ("de-DE") gets
the name panel, the lobby and the table in German, with the words of the German rules (file 004:
Pflanzen, Ernten, Aufräumen, Vorbereiten, Deckkarte, Unterstützungen ...), and the log in German
sentences.  German words are long: at desktop (1280x900) and phone (390x844) size nothing scrolls
sideways and no button's text is cut.  The settings dialog switches to English and back without
losing the game.  Screenshots go to MYSTICVALE_SCREENSHOTS (or the test's tmp dir)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from browser_helpers import MY_TURN, create_game, open_seat, play_api, screenshot

from mysticvale.engine.game import new_game
from mysticvale.server.updates import log_entries

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
EN = json.loads((STATIC / "messages" / "en.json").read_text())
DE = json.loads((STATIC / "messages" / "de.json").read_text())
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _phrases(messages: dict, other: dict) -> list[str]:
    """Pieces of the messages of one language long enough that finding one in a page shown in the
    other language means a text was left untranslated (short words such as "Harvest" are also in
    the printed card texts, which stay English).  The log's sentences are left out: they retell
    card texts ("pays 5 mana to turn Le Que back ...") and have their own test below."""
    out = set()
    for key, msg in messages.items():
        if key.startswith(("settings.lang.", "logk.")) or (isinstance(msg, str) and other.get(key) == msg):
            continue
        for form in msg.values() if isinstance(msg, dict) else [msg]:
            for piece in re.split(r"\{\w+\}", form):
                piece = piece.strip(" .,:;()·—")
                if len(piece) >= 14 and len(piece.split()) >= 3:
                    out.add(piece)
    return sorted(out)


ENGLISH = _phrases(EN, DE)
GERMAN = _phrases(DE, EN)


def english_left(page, where: str = "body") -> list[str]:
    text = page.inner_text(where)
    return [p for p in ENGLISH if p in text]


def overflow(page) -> dict:
    """Sideways scrolling of the page, buttons whose text is wider than the button (by > 2 px), and
    labels whose text does not fit them (the commons' row labels, whose decision it is in the top
    bar, the players' names on the end screen)."""
    return page.evaluate("""() => {
      const cut = [...document.querySelectorAll('button, a.button, .tab')]
        .filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth + 2)
        .map((b) => `${b.id || b.className}: ${b.textContent.trim()} (${b.scrollWidth} > ${b.clientWidth})`);
      const clipped = [...document.querySelectorAll('.row-label, #topinfo #whose, table.scores th')]
        .filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.id || e.className}: ${e.textContent.trim()} (${e.scrollWidth} > ${e.clientWidth})`);
      const bar = document.querySelector('#topbar').getBoundingClientRect().height;
      return { width: document.scrollingElement.scrollWidth, inner: window.innerWidth, cut, clipped, bar };
    }""")


def check_layout(page, name: str) -> None:
    o = overflow(page)
    assert o["width"] <= o["inner"], f"{name} scrolls sideways: {o['width']} > {o['inner']}"
    assert not o["cut"], f"{name}: buttons too narrow for their German text: {o['cut']}"
    assert not o["clipped"], f"{name}: labels too narrow for their German text: {o['clipped']}"
    assert o["bar"] < 50, f"{name}: the top bar takes two lines ({o['bar']} px high)"


@pytest.fixture(params=list(SIZES))
def german(request, browser):
    """A German browser (locale de-DE) at desktop or phone size, animations off."""
    phone = request.param == "phone"
    ctx = browser.new_context(viewport=SIZES[request.param], locale="de-DE", is_mobile=phone, has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # (only on the first load: a reload keeps what the page chose since, such as the language)
    pg.add_init_script("if (!localStorage.getItem('mysticvale.settings'))"
                       " localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
    yield request.param, pg
    ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def shots(shot_dir) -> Path:
    d = Path(shot_dir) / "german"
    d.mkdir(parents=True, exist_ok=True)
    return d


def test_name_panel_lobby_and_table_in_german(german, server, shots):
    size, pg = german
    phone = size == "phone"
    pg.goto(server + "/")
    pg.wait_for_selector("#name-panel")
    assert pg.evaluate("navigator.language") == "de-DE"
    assert pg.evaluate("document.documentElement.lang") == "de"
    assert DE["people.welcome"] in pg.inner_text("#name-panel")
    assert not english_left(pg)
    check_layout(pg, "the name panel")
    screenshot(pg, shots / f"name-panel-{size}.png")
    pg.fill("#person-name", "Uwe" if phone else "Ulla")      # a name of its own: names are unique
    pg.click("#name-btn")
    pg.wait_for_selector("#create-form")
    lobby = pg.inner_text("#app")
    assert DE["lobby.new_game"] in lobby and DE["lobby.create"] in lobby
    assert DE["ruleset.german"] in pg.inner_text("#ruleset")
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "the lobby")
    screenshot(pg, shots / f"lobby-{size}.png", full_page=True)

    # A game against a bot, created from the lobby form: the table opens, in German.
    pg.click("#create-btn")
    pg.wait_for_selector("#field")
    pg.wait_for_function(MY_TURN)
    pg.wait_for_selector("#deck.clickable")
    top = pg.inner_text("#topbar")
    assert DE["phase.planting"] in top and "Runde 1" in top
    assert pg.evaluate("document.documentElement.lang") == "de"
    assert DE["action.pass"] in pg.inner_text("#actionbar")
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "Planting")
    screenshot(pg, shots / f"table-planting-{size}.png", full_page=not phone)

    # The log in German sentences; the tabs on a phone say Feld / Auslage / Spieler / Verlauf.
    if phone:
        tabs = pg.inner_text("#tabs")
        for key in ("tab.field", "tab.commons", "tab.players", "tab.log"):
            assert DE[key] in tabs
        pg.click("#tabs [data-tab=log]")
    log = pg.inner_text("#log")
    assert "ist am Zug" in log and "Eine Partie mit 2 Spielern beginnt" in log
    assert "Player " not in log and "'s turn" not in log
    if phone:
        screenshot(pg, shots / f"table-log-{size}.png")
        pg.click("#tabs [data-tab=field]")

    # The Harvest: the buy buttons and the bar with the longest German words.
    pg.click("button[data-action='pass']")
    pg.wait_for_function("document.body.dataset.phase === 'harvest' && document.body.dataset.myturn === 'yes'")
    assert DE["phase.harvest"] in pg.inner_text("#topbar")
    assert DE["action.end_harvest"] in pg.inner_text("body")
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "the Harvest")
    screenshot(pg, shots / f"table-harvest-{size}.png", full_page=not phone)
    # The commons: the Fertile Soil row in German too (the cards' names stay English, as printed).
    soil_label = pg.inner_text("#supply .soil-row .row-label")
    assert DE["commons.soil_short"] in soil_label and "Soil" not in soil_label and "Fertile" not in soil_label, soil_label
    if phone:
        pg.click("#tabs [data-tab=commons]")
        check_layout(pg, "the commons")
        screenshot(pg, shots / f"table-commons-{size}.png")
        pg.click("#tabs [data-tab=players]")
        check_layout(pg, "the players")
        screenshot(pg, shots / f"table-players-{size}.png")

    # The symbols legend and the settings dialog.
    pg.click("#legend-btn")
    pg.wait_for_selector("#legend")
    assert DE["legend.growth"] in pg.inner_text("#legend")
    check_layout(pg, "the legend")
    screenshot(pg, shots / f"legend-{size}.png")
    pg.click("#legend .close")
    pg.click("#settings-btn")
    pg.wait_for_selector("#settings")
    assert DE["settings.language"] in pg.inner_text("#settings")
    assert not english_left(pg, "#settings")
    check_layout(pg, "the settings")
    screenshot(pg, shots / f"settings-{size}.png")

    # Back in the lobby: the game's row (status, players, buttons) in German.
    pg.goto(server + "/")
    pg.wait_for_selector("#games-list .game-row")
    games = pg.inner_text("#games-list")
    assert "Runde 1" in games and DE["phase.harvest"] in games
    # the lobby's default opponent, the Wanderer level, in the German chip ("Wanderer (Bot)")
    assert DE["lobby.chip_level"].replace("{bot}", DE["seats.bot_kind.wanderer"]) in games.splitlines()
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "the lobby with a game")
    screenshot(pg, shots / f"lobby-game-{size}.png", full_page=True)


def _pick(prefixes):
    def choose(st):
        return next((a for p in prefixes for a in st["legal_actions"] if a.startswith(p)), st["legal_actions"][0])
    return choose


def test_leader_choice_sleeving_deck_view_and_end_screen_in_german(german, server, shots):
    size, pg = german
    phone = size == "phone"
    # The leader choice (Twilight Garden): the two sides and their costs in German.
    game = create_game(server, seed=61, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True,
                       bots={"1": "greedy"})
    open_seat(pg, server, game)
    pg.wait_for_function(MY_TURN)
    pg.wait_for_selector("#private .leader-choice")
    choice = pg.inner_text("#private")
    assert DE["leader.title"] in choice and DE["leader.start"] in choice and DE["leader.upgraded"] in choice
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "the leader choice")
    screenshot(pg, shots / f"leader-choice-{size}.png", full_page=not phone)

    # Sleeving what was bought: the prompt and the "hier einstecken" targets.
    game = create_game(server, seed=47, sets=("base", "vale_of_magic", "twilight_garden"))
    play_api(server, game, 0, _pick(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    open_seat(pg, server, game)
    pg.wait_for_function(MY_TURN)
    if phone:
        pg.click("#tabs [data-tab=commons]")
    soil = pg.locator("#supply .soil.clickable[data-soil=top]")
    before = pg.evaluate("document.body.dataset.seq")
    soil.click()
    pg.wait_for_function(f"document.body.dataset.seq !== '{before}'")
    pg.click("#finish")
    if phone:
        pg.click("#tabs [data-tab=field]")
    pg.wait_for_selector("#field .sleeve-target")
    assert "Wähle die Karte, in die du Fertile Soil steckst (Platz oben)" in pg.inner_text("#field")
    assert DE["sleeve.here"] in pg.inner_text("#field")
    assert not english_left(pg), english_left(pg)
    check_layout(pg, "sleeving")
    screenshot(pg, shots / f"sleeve-{size}.png", full_page=not phone)
    # The whole deck: where each card is, in German.
    if phone:
        pg.click("#tabs [data-tab=players]")
    pg.click(f"#players .player.me button[title='{DE['player.deck_title']}']")
    pg.wait_for_selector("#deck-view")
    assert DE["deckview.own_help"] in pg.inner_text("#deck-view")
    check_layout(pg, "the deck view")
    screenshot(pg, shots / f"deck-view-{size}.png")
    pg.click("#deck-view .close")

    # The end screen: the score rows, the tie-break, rematch and back to the lobby.
    game = create_game(server, seed=62)
    play_api(server, game, 0, _pick(["buy 3", "buy 2", "vale", "buy", "push", "finish"]), lambda s: False, limit=5000)
    open_seat(pg, server, game)
    pg.wait_for_selector("#end table.scores")
    end = pg.inner_text("#end")
    for key in ("end.row.vp_tokens", "end.row.vales", "end.row.total", "end.row.tiebreak", "end.lobby"):
        assert DE[key] in end, key
    assert not english_left(pg, "#end"), english_left(pg, "#end")
    # The bot's seat is named after its bot: no line under its name says it again ("Bot random").
    assert pg.locator("#end thead th .muted").count() == 0, pg.inner_text("#end thead")
    check_layout(pg, "the end screen")
    screenshot(pg, shots / f"end-{size}.png", full_page=not phone)


def test_switching_the_language_in_the_settings_keeps_the_game(german, server, shots):
    size, pg = german
    game = create_game(server, seed=7, bots={"1": "greedy"})
    open_seat(pg, server, game)
    pg.wait_for_function(MY_TURN)
    pg.wait_for_selector("#deck.clickable")
    assert DE["phase.planting"] in pg.inner_text("#topbar")
    seq = pg.evaluate("document.body.dataset.seq")
    pg.click("#settings-btn")
    pg.wait_for_selector("#set-language")
    options = pg.eval_on_selector_all("#set-language option", "os => os.map(o => [o.value, o.textContent])")
    assert options == [["", "Automatisch (Deutsch)"], ["en", "English"], ["de", "Deutsch"]]
    assert pg.input_value("#set-language") == ""

    # English: the page loads again in English, at the same table, seat and version of the game.
    url = pg.url
    with pg.expect_navigation():
        pg.select_option("#set-language", "en")
    pg.wait_for_selector("#field")
    pg.wait_for_function(MY_TURN)
    assert pg.url == url
    assert pg.evaluate("document.documentElement.lang") == "en"
    assert EN["phase.planting"] in pg.inner_text("#topbar") and DE["phase.planting"] not in pg.inner_text("#topbar")
    assert pg.evaluate("document.body.dataset.seq") == seq
    assert pg.evaluate("window.mysticvaleClient.table().view.seat") == 0
    assert pg.evaluate("JSON.parse(localStorage.getItem('mysticvale.settings')).language") == "en"
    if pg.locator("#chat").count():             # the chat panel too, not only what the table draws
        assert DE["chat.placeholder"] not in pg.inner_html("#chat")
    if size == "phone":
        pg.click("#tabs [data-tab=log]")
    log = pg.inner_text("#log")
    assert "'s turn" in log and "ist am Zug" not in log and "A 2-player game begins" in log
    assert not [p for p in GERMAN if p in pg.inner_text("body")]
    assert [p for p in ENGLISH if p in pg.inner_text("body")]      # (the check finds what is there)
    pg.click("#settings-btn")
    pg.wait_for_selector("#set-language")
    assert pg.input_value("#set-language") == "en"
    assert EN["settings.title"] in pg.inner_text("#settings")
    check_layout(pg, "the settings in English")
    screenshot(pg, shots / f"settings-switched-en-{size}.png")

    # The choice is kept on this device: a reload stays English although the browser is German.
    pg.reload()
    pg.wait_for_selector("#field")
    assert pg.evaluate("document.documentElement.lang") == "en"
    assert EN["phase.planting"] in pg.inner_text("#topbar")

    # Back to automatic: German again (the browser's language).
    pg.click("#settings-btn")
    with pg.expect_navigation():
        pg.select_option("#set-language", "")
    pg.wait_for_selector("#field")
    assert pg.evaluate("document.documentElement.lang") == "de"
    assert DE["phase.planting"] in pg.inner_text("#topbar")
    assert pg.evaluate("JSON.parse(localStorage.getItem('mysticvale.settings')).language") == ""
    check_layout(pg, "the table after switching back")


def _sample_log() -> list[dict]:
    """Log entries of a few whole games (random moves, every set, leaders, three rule sets, with and
    without Finish Turn) as the server sends them, for the seat-0 viewer and for a spectator."""
    out: dict[str, dict] = {}
    setups = [(2, ("base",), False, "yucata"), (3, ("base", "vale_of_magic"), False, "english"),
              (4, ("base", "vale_of_magic", "twilight_garden"), True, "german"),
              (2, ("twilight_garden", "base"), True, "yucata")]
    for seed, (players, sets, leaders, ruleset) in enumerate(setups):
        g = new_game(players=players, seed=seed, sets=sets, leaders=leaders, ruleset=ruleset,
                     finish_turn=seed % 2 == 0)
        rng = random.Random(seed)
        for _ in range(4000):
            if g.is_over():
                break
            g.apply_action(rng.choice(g.legal_actions()))
        for viewer in (None, 0):
            for e in log_entries(g, viewer):
                out.setdefault(e["t"], e)
    return list(out.values())


#: Sentences of rarer events (from the engine's wording) that random games seldom reach.
RARE = [
    ("win", "Player 2 has 20 cards in the field and wins the game (Le Que)."),
    ("extra_turn", "Player 1 takes another turn."),
    ("end_triggered", "The last level-2 vale enters the commons: the game ends after this round."),
    ("guard", "Player 1 discards Protective Ward to cancel the decay on Cursed Land + Stag."),
    ("ability", "Player 2 gives the vale Amberwood to player 1 (Griffin Rider)."),
    ("ability", "Player 1 claims the vale World Tree from player 2 (Griffin Rider)."),
    ("ability", "Player 3 will take another turn (Witches of Deephollow)."),
    ("ability", "Player 1 chooses VP tokens for every player (Flame Geysers)."),
    ("ability", "Player 1's Hectoro places 2 card(s) into the field: Blank, Cursed Land."),
    ("ability", "Player 2 pays 5 mana to turn Le Que back to the starting side."),
    ("curse", "Player 2 gains 2 curse token(s) (Deepwood Veteran of player 3; no VP token to give)."),
    ("vp", "Player 1 gains 1 VP (3 spirit symbols traded)."),
]
#: Sentences that name an empty card first, or as the on-deck card (said in their own words).
RARE_EMPTY_FIRST = "Blank is the first card in the field and is discarded as normal."
RARE_EMPTY_ON_DECK = "Player 1 discards the on-deck Blank (Echoing Waterfalls)."
RARE += [("ability", RARE_EMPTY_FIRST), ("ability", RARE_EMPTY_ON_DECK),
         ("guard", "Player 2 uses Peacekeeper Druid to discard the on-deck Blank instead of spoiling.")]


def as_players_say(text: str) -> str:
    """The server's English log text with a card without advancements (the engine's "Blank") said
    in the rules' words (file 000: "8 blank cards"): "a blank card" (the one place where the English log is not word for word
    the server's)."""
    text = text.replace("the on-deck Blank", "the blank on-deck card")
    return re.sub(r"\bBlank\b", "a blank card", text)


def test_every_log_sentence_is_said_in_german_and_in_english_as_the_server_says_it(browser, server):
    entries = _sample_log() + [{"i": 9000 + i, "k": k, "p": 0, "t": text} for i, (k, text) in enumerate(RARE)]
    kinds = {e["k"] for e in entries}
    assert {"setup", "turn", "push", "reveal", "buy", "sleeve", "vale", "vp", "ability", "finish_turn"} <= kinds
    ctx = browser.new_context(locale="de-DE")
    pg = ctx.new_page()
    try:
        # On the lobby (no table: players are "Player n" / "Spieler n", as in the server's text).
        pg.goto(server + "/")
        pg.wait_for_function("document.documentElement.lang === 'de'")
        said = pg.evaluate("""async (entries) => {
          const lt = await import('/static/js/logtext.js');
          const i18n = await import('/static/js/i18n.js');
          const de = entries.map((e) => [lt.logMessage(e) && lt.logMessage(e).key, lt.logText(e)]);
          i18n.setMessages(await (await fetch('/static/messages/en.json')).json(), 'en');
          const en = entries.map((e) => lt.logText(e));
          return { de, en };
        }""", entries)
    finally:
        ctx.close()
    unknown = [e["t"] for e, (key, _) in zip(entries, said["de"]) if key is None]
    assert not unknown, f"log sentences js/logtext.js does not know: {unknown[:10]}"
    for e, (key, german_text), english_text in zip(entries, said["de"], said["en"]):
        assert german_text != e["t"] and "Player " not in german_text and "player " not in german_text, (e, german_text)
        assert "{" not in german_text, german_text
        assert "Blank" not in english_text and "Blank" not in german_text and "Leerkarte" not in german_text
        if key != "logk.setup":                 # the setup line names the sets in words, not codes
            assert english_text.lower() == as_players_say(e["t"]).lower(), (key, english_text, e["t"])
        assert english_text[:1] == english_text[:1].upper() and german_text[:1] == german_text[:1].upper(), (english_text, german_text)
    german = dict(zip((e["t"] for e in entries), (d for _, d in said["de"])))
    english = dict(zip((e["t"] for e in entries), said["en"]))
    assert german["Player 1 gains 1 VP (3 spirit symbols traded)."] == "Spieler 1 erhält 1 SP (3 Seelensymbole getauscht)."
    sleeve = next(t for t in german if " sleeves " in t and " on Blank." in t)
    assert re.fullmatch(r"Spieler \d steckt .+ \((oben|Mitte|unten)( \+ (oben|Mitte|unten))*\) auf eine leere Karte\.", german[sleeve]), german[sleeve]
    assert english[sleeve].endswith(" on a blank card."), english[sleeve]
    reveal = next(t for t in german if t.endswith(" reveals Blank on deck."))
    assert german[reveal].endswith(" deckt eine leere Karte als Deckkarte auf."), german[reveal]
    assert english[reveal].endswith(" reveals a blank card on deck."), english[reveal]
    assert german[RARE_EMPTY_FIRST] == "Eine leere Karte ist die erste Karte im Feld und wird wie üblich abgelegt."
    assert english[RARE_EMPTY_FIRST] == "A blank card is the first card in the field and is discarded as normal."
    assert german[RARE_EMPTY_ON_DECK] == "Spieler 1 wirft die leere Deckkarte ab (Echoing Waterfalls)."
    assert english[RARE_EMPTY_ON_DECK] == "Player 1 discards the blank on-deck card (Echoing Waterfalls)."
