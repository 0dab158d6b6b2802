"""House cards in the browser (issue 21 item 1): the host loads a card-values file in the lobby's
new-game form.  A file with an error is refused with the error on its line, in the page's language
(the catalogue validator's problems too); a good file says how many values differ; the game is created with it,
and its table tells every seat ("Played with the host's card values") with a list of the values
that differ, and draws the cards with the host's values.  Desktop and phone, English and German;
screenshots go to MYSTICVALE_SCREENSHOTS/house-cards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from browser_helpers import MY_TURN, open_tab, screenshot

from house_files import BASE, with_value

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
MESSAGES = {lang: json.loads((STATIC / "messages" / f"{lang}.json").read_text()) for lang in ("en", "de")}
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


GOOD, _ = with_value(BASE, "Stag", "cost", "9")
BAD, BAD_LINE = with_value(GOOD, "Seedling", "level", "7")


@pytest.fixture
def shots(shot_dir) -> Path:
    d = Path(shot_dir) / "house-cards"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _file(name: str, text: str) -> dict:
    return {"name": name, "mimeType": "application/toml", "buffer": text.encode()}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_host_loads_house_cards_and_every_seat_is_told(browser, server, shots, size, locale):
    lang = locale[:2]
    M = MESSAGES[lang]
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], locale=locale, is_mobile=phone, has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
    try:
        pg.goto(server + "/")
        pg.wait_for_selector("#name-panel")
        pg.fill("#person-name", f"Host {locale} {size}")
        pg.click("#name-btn")
        pg.wait_for_selector("#create-form #house-file")
        assert M["house.legend"] in pg.inner_text("#create-form")

        # A file with an error on a known line: refused, the error on its line.
        pg.set_input_files("#house-file", files=[_file("my-base.toml", BAD)])
        pg.wait_for_selector("#house-result .house-problems li")
        result = pg.inner_text("#house-result")
        line = M["house.line"].split("{")[0]               # "Line " / "Zeile "
        # the validator's problem in the page's language: the card, then what is wrong with it
        where = M["house.where.advancement"].format(name="'Seedling'")
        wrong = M["house.check.out_of_range"].format(key="level", value="7", lo=1, hi=3)
        assert f"{line}{BAD_LINE}: {where}: {wrong}" in result, result
        if lang == "de":
            assert "out of range" not in result and "advancement" not in result, result
        assert M["house.problems"]["one"].split("{")[0] in result or "my-base.toml" in result
        pg.locator("#house-result").scroll_into_view_if_needed()
        screenshot(pg, shots / f"lobby-error-{lang}-{size}.png")
        # creating the game now is refused: the file is not played with silently
        pg.click("#create-btn")
        pg.wait_for_selector("#banner:not([hidden])")
        assert M["house.not_ready"] in pg.inner_text("#banner")
        assert "/games/" not in pg.url

        # The corrected file: accepted, with how many values differ.
        pg.set_input_files("#house-file", files=[_file("my-base.toml", GOOD)])
        pg.wait_for_selector("#house-result .house-ok")
        ok = pg.inner_text("#house-result")
        assert "my-base.toml" in ok and re.search(r"\b1\b", ok), ok
        pg.locator("#house-result").scroll_into_view_if_needed()
        screenshot(pg, shots / f"lobby-ok-{lang}-{size}.png")

        # The game (against a bot): the table says it is played with the host's values.
        with pg.expect_navigation():
            pg.click("#create-btn")
        pg.wait_for_selector("#field")
        pg.wait_for_function(MY_TURN)
        pg.wait_for_selector("#house-notice")
        notice = pg.inner_text("#house-notice")
        assert M["house.notice"].split("(")[0].strip() in notice, notice
        screenshot(pg, shots / f"table-notice-{lang}-{size}.png")
        pg.click("#house-show")
        pg.wait_for_selector("#house table.house-diffs")
        rows = pg.locator("#house tbody tr").all_inner_texts()
        assert len(rows) == 1 and re.fullmatch(r"Stag\s+\S+\s+4\s+9", rows[0].strip()), rows
        screenshot(pg, shots / f"table-differences-{lang}-{size}.png")
        pg.click("#house .close")
        # the cards are drawn with the host's values: a Stag costs 9 wherever it is shown
        cost = pg.evaluate("""async () => { const c = await import('/static/js/catalogue.js');
                                  return c.catalogue().types['Stag'].cost; }""")
        assert cost == 9

        # Every seat is told: the spectator's view (the same table, no seat) shows the notice too.
        game_id = re.search(r"/games/([^#?]+)", pg.url).group(1)
        other = ctx.new_page()
        other.goto(f"{server}/games/{game_id}")
        other.wait_for_selector("#house-notice")
        if phone:
            open_tab(other, "field")
        assert M["house.notice"].split("(")[0].strip() in other.inner_text("#house-notice")
        other.close()
    finally:
        ctx.close()
    assert not errors, errors
