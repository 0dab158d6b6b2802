"""The key screens at desktop (1280x900) and phone (390x844) size, saved as screenshots (set
MYSTICVALE_SCREENSHOTS to keep them): leader choice, Planting, Harvest, the sleeve preview, the whole
deck, the symbols legend, the settings and the end screen.  Each screen is checked for what a player
must see on it, and for no sideways scrolling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_helpers import MY_TURN, create_game, no_horizontal_scroll, open_seat, play_api, screenshot

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
EN = json.loads((Path(__file__).resolve().parents[2] / "src/mysticvale/web/static/messages/en.json").read_text())
TRIGGER_NAMES = [v for k, v in EN.items() if k.startswith("trigger.")]


def _pick(prefixes):
    def choose(st):
        for p in prefixes:
            for a in st["legal_actions"]:
                if a.startswith(p):
                    return a
        return st["legal_actions"][0]
    return choose


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    phone = request.param == "phone"
    ctx = browser.new_context(viewport=SIZES[request.param], is_mobile=phone, has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false, spoilChance: true}))")
    yield request.param, pg
    ctx.close()
    assert not errors, errors


#: Whether the text of the top bar's element `sel` is whole: as wide as its box at most (an
#: ellipsis cuts it otherwise) and the box within the bar's line (which cuts what overflows it).
TEXT_FITS = """(sel) => { const el = document.querySelector(sel); if (!el) return true;
  const r = document.createRange(); r.selectNodeContents(el);
  const box = el.getBoundingClientRect(), line = document.querySelector('#topinfo').getBoundingClientRect();
  return r.getBoundingClientRect().width <= box.width + 0.01 && box.left >= line.left - 0.5 && box.right <= line.right + 0.5; }"""


def _shot(pg, shot_dir, name, size):
    width, inner = no_horizontal_scroll(pg)
    assert width <= inner, f"{name} scrolls sideways at {size}: {width} > {inner}"
    # whose decision it is is never cut short in the top bar ("Your decisio…")
    assert pg.evaluate(TEXT_FITS, "#whose"), \
        f"{name} at {size}: the top bar cuts {pg.inner_text('#whose')!r}"
    # the whole page at desktop size; a dialog as the window shows it (its backdrop covers the window)
    screenshot(pg, shot_dir / f"screen-{name}-{size}.png", full_page=size == "desktop")


def test_key_screens(sized, server, shot_dir):
    size, pg = sized
    phone = size == "phone"
    # leader choice
    game = create_game(server, seed=61, sets=SETS, leaders=True, bots={"1": "greedy"})
    open_seat(pg, server, game)
    pg.wait_for_function(MY_TURN)
    pg.wait_for_selector("#private .leader-choice")
    assert pg.locator("#private .leader-choice").count() == 2
    _shot(pg, shot_dir, "leader-choice", size)
    pg.click("#private .leader-choice >> nth=0 >> button")
    pg.wait_for_selector("#private .leader-choice", state="detached")
    # Planting, with the spoil chance (a setting) and the deck view
    pg.wait_for_function(MY_TURN)
    pg.wait_for_selector("#deck.clickable")
    assert "next reveal spoils:" in pg.inner_text("#field") and "spoils at 4 net decay; you show" in pg.inner_text("#field")
    # The top bar names the game as players know it (who plays, which rules), not by its id; the
    # id is its tooltip.  A bot's seat says "bot" once.
    top = pg.locator("#topinfo .top-game")
    assert top.get_attribute("title") == f"Game {game['id']}" and game["id"] not in pg.inner_text("#topinfo")
    if not phone:
        assert "Player 1 vs. Greedy bot · yucata.de rules" in pg.inner_text("#topinfo")
    assert "(bot)" not in pg.inner_text("#topinfo")
    _shot(pg, shot_dir, "planting", size)
    if phone:
        pg.click("#tabs [data-tab=players]")
    pg.click("#players .player.me button[title='whole deck']")
    pg.wait_for_selector("#deck-view")
    assert pg.locator("#deck-view .card-slot").count() == 20
    _shot(pg, shot_dir, "deck-view", size)
    pg.click("#deck-view .close")
    # another player's deck: every card they own when the observation lists them (public), as
    # yucata's deck view; otherwise what is face up
    pg.click("#players .player[data-seat='1'] button[title='whole deck']")
    pg.wait_for_selector("#deck-view")
    owned = pg.evaluate("window.mysticvaleClient.table().view.observation.players[1].owned")
    if owned is not None:
        counts = [int(x) for x in pg.eval_on_selector_all("#deck-view .card-slot", "els => els.map(e => e.dataset.count)")]
        assert sum(counts) == len(owned) == 20 and len(counts) < 20       # alike cards grouped
        assert "Every card this player owns" in pg.inner_text("#deck-view")
    else:
        assert "not shown" in pg.inner_text("#deck-view")
    _shot(pg, shot_dir, "deck-view-other", size)
    pg.click("#deck-view .close")
    pg.click("#legend-btn")
    pg.wait_for_selector("#legend dl.legend")
    # Each trigger is explained in a sentence of its own (from the rules), not by its name again.
    rows = dict(pg.eval_on_selector_all("#legend dl.legend dt", "dts => dts.map((dt) => [dt.textContent.trim(), dt.nextElementSibling.textContent.trim()])"))
    triggers = {name: rows[name] for name in TRIGGER_NAMES}
    for name, meaning in triggers.items():
        assert not meaning.startswith(name) and "when the ability acts" not in meaning and len(meaning) > 40, (name, meaning)
    assert len(set(triggers.values())) == len(triggers)
    assert "Harvest phase" in triggers["Harvest"] and "once" in triggers["Harvest"]
    assert "Discard phase" in triggers["Discard"] and "on deck" in triggers["When Played"]
    _shot(pg, shot_dir, "legend", size)
    pg.click("#legend .close")
    pg.click("#settings-btn")
    pg.wait_for_selector("#settings")
    _shot(pg, shot_dir, "settings", size)
    pg.click("#settings .close")
    if phone:
        pg.click("#tabs [data-tab=field]")

    # Harvest and the sleeve preview
    game = create_game(server, seed=47, sets=SETS)
    play_api(server, game, 0, _pick(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    open_seat(pg, server, game)
    pg.wait_for_function(MY_TURN)
    assert "End Harvest" in pg.inner_text("#actionbar")
    # The buys left are said once (in the bar), and spoiling, which no longer matters, not at all.
    assert "buys 0/2 · vales 0/2" in pg.inner_text("#actionbar")
    assert "0/2" not in pg.inner_text("#field") and "spoils at" not in pg.inner_text("#field")
    _shot(pg, shot_dir, "harvest", size)
    if phone:
        pg.click("#tabs [data-tab=commons]")
        _shot(pg, shot_dir, "harvest-commons", size)
    for _ in range(2):
        soil = pg.locator("#supply .soil.clickable[data-soil=top]")
        if soil.count():
            before = pg.evaluate("document.body.dataset.seq")
            soil.click()
            pg.wait_for_function(f"document.body.dataset.seq !== '{before}'")
    pg.click("#finish")
    if phone:
        pg.click("#tabs [data-tab=field]")
    pg.wait_for_selector("#field .sleeve-target")
    _shot(pg, shot_dir, "sleeve-preview", size)

    # the end
    game = create_game(server, seed=62)
    play_api(server, game, 0, _pick(["buy 3", "buy 2", "vale", "buy", "push", "finish"]), lambda s: False, limit=5000)
    open_seat(pg, server, game)
    pg.wait_for_selector("#end table.scores")
    # "Random bot" once (no "bot random" under it), its column header two lines at most on a phone.
    assert pg.locator("#end thead th .muted").count() == 0, pg.inner_text("#end thead")
    lines = pg.eval_on_selector_all("#end thead th.player-col", """ths => ths.map((th) => {
        const cs = getComputedStyle(th);
        const inner = th.getBoundingClientRect().height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
        return inner / (parseFloat(cs.fontSize) * 1.35); })""")
    assert len(lines) == 2 and max(lines) < 2.5, lines
    _shot(pg, shot_dir, "end", size)
