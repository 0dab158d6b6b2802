"""Names a player can trust, in Chromium (issue 22): the name panel refuses a table's label and a
look-alike of a name in use in the page's language, bots carry a badge at the table that no name
can make, the chat refuses invisible and direction-changing text in the page's language, and the
e-mail confirmation page takes its code out of the address bar.  English and German, desktop and
phone, with screenshots."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from browser_helpers import HTTP_TIMEOUT, PHONE, http_json, open_tab, phone_tabs_shown, screenshot

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}
MESSAGES = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static" / "messages"
LABEL = {"en": "Greedy bot", "de": "Bot Greedy"}


def texts(lang: str) -> dict:
    return json.loads((MESSAGES / f"{lang}.json").read_text("utf-8"))


@pytest.fixture
def page_in(browser):
    contexts = []

    def make(lang: str, size: str):
        phone = size == "phone"
        ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, locale="de-DE" if lang == "de" else "en-GB",
                                  is_mobile=phone, has_touch=phone)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.add_init_script("if (!localStorage.getItem('mysticvale.settings'))"
                           " localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
        return pg

    yield make
    for ctx in contexts:
        errors = ctx.pages[0].errors if ctx.pages else []
        ctx.close()
        assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_names_refused_in_the_pages_language_and_bots_badged_at_the_table(page_in, server, shot_dir, lang, size):
    m = texts(lang)
    tag = f"{lang} {size}"
    taken = http_json("POST", server + "/api/people", {"name": f"Olga {tag}"})
    pg = page_in(lang, size)
    pg.goto(server + "/")
    pg.wait_for_selector("#name-panel")

    def refused(name: str, reason: str) -> None:
        pg.fill("#person-name", name)
        pg.click("#name-btn")
        want = m["people.name_failed"].replace("{why}", m[f"refusal.{reason}"])
        pg.wait_for_function("t => document.querySelector('#name-error').textContent === t", arg=want)
        assert pg.locator("#name-panel").count() == 1          # still asked for a name

    refused(LABEL[lang], "reserved")
    screenshot(pg, shot_dir / f"name-reserved-{lang}-{size}.png")
    refused(f"\u041elga {tag}", "name_taken")                 # a Cyrillic O: looks like the name in use
    screenshot(pg, shot_dir / f"name-taken-{lang}-{size}.png")
    refused("\u3164\u3164", "invisible")
    pg.fill("#person-name", f"Tilda {tag}")
    pg.click("#name-btn")
    pg.wait_for_selector("#create-form")
    assert taken["name"] == f"Olga {tag}"

    # a table with a greedy bot: the bot's seat has the badge, the person's has none
    kept = json.loads(pg.evaluate("localStorage.getItem('mysticvale.person')"))
    req = urllib.request.Request(server + "/api/games", method="POST", data=json.dumps(
        {"players": 3, "bots": {"1": "greedy", "2": "random"}, "seed": 5}).encode(),
        headers={"Content-Type": "application/json", "X-Player-Key": kept["key"]})
    with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as r:
        game = json.loads(r.read())
    token = game["seats"][0]["token"]
    pg.goto(f"{server}/games/{game['id']}#token={token}")
    pg.wait_for_selector("#players .player[data-seat='1'] .bot-badge", state="attached")
    for seat, badged in ((0, False), (1, True), (2, True)):
        assert pg.locator(f"#players .player[data-seat='{seat}'] .bot-badge").count() == int(badged), seat
    label = pg.get_attribute("#players .player[data-seat='1'] .bot-badge", "aria-label")
    assert label == m["seats.bot_title"].replace("{bot}", m["seats.bot_kind.greedy"])
    # the badge is a drawing, not text: a name cannot make it
    assert pg.locator("#players .player[data-seat='1'] .bot-badge svg use").count() == 1
    assert pg.inner_text("#players .player[data-seat='1'] .bot-badge").strip() == ""
    if size == "phone" and phone_tabs_shown(pg):
        open_tab(pg, "players")
    screenshot(pg, shot_dir / f"bot-badge-{lang}-{size}.png")

    if size == "desktop":
        # the chat refuses invisible and direction-changing text, in the page's language, text kept
        pg.wait_for_selector("#chat-input")
        for text, reason in (("\u200b\u3164", "chat_empty"), ("gg \u202eolleh", "bidi")):
            pg.fill("#chat-input", text)
            pg.click("#chat-send")
            want = m["chat.refused"].replace("{why}", m[f"refusal.{reason}"])
            pg.wait_for_function("t => document.querySelector('#chat-error').textContent === t", arg=want)
            assert pg.input_value("#chat-input") == text
        assert pg.locator("#chat-list .chat-msg").count() == 0
        screenshot(pg, shot_dir / f"chat-refused-{lang}.png")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_confirmation_page_takes_the_code_out_of_the_address_bar(page_in, server, shot_dir, lang):
    pg = page_in(lang, "desktop")
    posted = []
    pg.on("request", lambda r: posted.append((r.method, r.url, r.post_data)) if "/api/people/email" in r.url else None)
    pg.goto(server + "/confirm-email#code=not-a-real-code")
    pg.wait_for_selector("#confirm-btn")
    pg.wait_for_function("location.hash === ''")
    assert pg.evaluate("location.href") == server + "/confirm-email"
    pg.click("#confirm-btn")
    want = "Dieser Link ist unbekannt" if lang == "de" else "This link is unknown"
    pg.wait_for_function("t => document.querySelector('#confirm-text').textContent.startsWith(t)", arg=want)
    # the code went in the body of a POST, never in a URL
    assert [(method, url, json.loads(body)) for method, url, body in posted] == [
        ("POST", server + "/api/people/email/confirm", {"code": "not-a-real-code"})]
    screenshot(pg, shot_dir / f"confirm-email-{lang}.png")
