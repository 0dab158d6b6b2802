"""German cards (issue 21 item 2): at a German table every card text, trigger keyword, stand-in
sentence, rule-set name and score row is German (the card texts from messages/cards/de.json, the
rest from messages/de.json); the cards' names stay as printed.  No line mixes the two languages
("Statt zu verderben: Once per turn ..." was one).  English tables are unchanged.

Checked in the zoom, the commons, the log and the end screen of a game played into, and for every
card of every set in the words the client makes of it (face text, zoom lines, text alternative).
Screenshots go to MYSTICVALE_SCREENSHOTS/german-cards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from browser_helpers import MY_TURN, create_game, long_press, open_seat, open_tab, play_api, screenshot

from mysticvale.server.card_catalogue import build

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
EN = json.loads((STATIC / "messages" / "en.json").read_text())
DE = json.loads((STATIC / "messages" / "de.json").read_text())
CARDS_DE = json.loads((STATIC / "messages" / "cards" / "de.json").read_text())
ALL_SETS = ("base", "vale_of_magic", "twilight_garden")
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
#: A game whose first commons show cards with texts (Peacekeeper Druid's "Instead of spoiling"
#: among them) and vales with texts.
SEED = 1

_CAT = build(ALL_SETS)
NAMES = sorted({*(_CAT["types"]), *(_CAT["vales"]), *(_CAT["leaders"])}, key=len, reverse=True)


def _english_pieces() -> list[str]:
    """Pieces of the English card texts and notes (3 words or more, card names taken out) that no
    German page may show."""
    out = set()
    texts = [t["text"] for t in _CAT["types"].values() if t.get("text")]
    texts += [v["text"] for v in _CAT["vales"].values() if v.get("text")]
    # the notes (what of a card is ours) are English card data too
    texts += [e["note"] for section in ("types", "vales", "leaders") for e in _CAT[section].values() if e.get("note")]
    for text in texts:
        for name in NAMES:
            text = text.replace(name, "|")
        for piece in re.split(r"[.;:,()|]", text):
            piece = piece.strip()
            if len(piece.split()) >= 3:
                out.add(piece)
    return sorted(out)


ENGLISH_PIECES = _english_pieces()
#: The English trigger keywords (as whole words) and rule-set ids.
ENGLISH_KEYWORDS = re.compile(r"\b(?:%s)\b" % "|".join(re.escape(EN[k]) for k in EN if k.startswith("trigger.")))
RULESET_IDS = re.compile(r"Regeln: |\bgerman\b|\benglish\b|\byucata\b(?!\.de)")


def english_in(text: str) -> list[str]:
    found = [p for p in ENGLISH_PIECES if p in text]
    found += ENGLISH_KEYWORDS.findall(text)
    return found


def _page(browser, size: str, locale: str):
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], locale=locale, is_mobile=phone, has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.add_init_script("if (!localStorage.getItem('mysticvale.settings'))"
                       " localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
    return ctx, pg, errors


@pytest.fixture
def shots(shot_dir) -> Path:
    d = Path(shot_dir) / "german-cards"
    d.mkdir(parents=True, exist_ok=True)
    return d


#: Every card's words as the client makes them: for every copy label the text alternative
#: (layerWords) and the zoom's lines (faceDetails); for every vale its zoom lines and text.
WORDS_OF_EVERY_CARD = """async (url) => {
  const cat = await import('/static/js/catalogue.js');
  const cards = await import('/static/js/cards.js');
  const c = await cat.useCatalogue(url);
  const out = [];
  for (const [label, name] of Object.entries(c.copies)) {
    out.push({ name, kind: 'advancement', text: c.types[name].text,
               words: [cards.layerWords(label), ...cards.faceDetails({ label }).map((r) => r[1])] });
  }
  for (const [name, v] of Object.entries(c.vales)) {
    out.push({ name, kind: 'vale', text: v.text,
               words: cards.faceDetails({ vale: { name, text: 'ENGLISH FROM THE STATE', level: v.level } }).map((r) => r[1]) });
  }
  return out;
}"""


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_every_card_of_every_set_is_worded_in_the_pages_language(browser, server, locale):
    ctx, pg, errors = _page(browser, "desktop", locale)
    try:
        pg.goto(server + "/")
        # (not documentElement.lang: the page's <html lang="en"> is there before its English messages)
        pg.wait_for_function(f"document.documentElement.dataset.messages === '{locale[:2]}'")
        cards = pg.evaluate(WORDS_OF_EVERY_CARD, "/api/catalogue/" + "+".join(ALL_SETS))
    finally:
        ctx.close()
    assert not errors, errors
    assert len(cards) > 200
    german = locale.startswith("de")
    texts = {**CARDS_DE["advancements"], **CARDS_DE["vales"]} if german else {}
    checked = 0
    for card in cards:
        words = " / ".join(card["words"])
        assert "ENGLISH FROM THE STATE" not in words or not card["text"], card
        section = CARDS_DE["vales" if card["kind"] == "vale" else "advancements"]
        english = (_CAT["vales"] if card["kind"] == "vale" else _CAT["types"])[card["name"]]["text"]
        if german:
            assert not english_in(words), (card["name"], english_in(words), words)
            # no keyword twice ("Ernte: Ernte: ..."): a German text that names its trigger gets none added
            assert not re.search(r"(\b[\wäöü ]+): \1:", words), words
            if english:
                assert card["text"] == section[card["name"]] and section[card["name"]] in words, (card["name"], words)
                checked += 1
        elif english:
            # English as the card data says it, word for word
            assert card["text"] == english and english in words, (card["name"], words)
            checked += 1
    assert checked >= 60
    if german:
        druid = next(c for c in cards if c["name"] == "Peacekeeper Druid")
        assert f"{DE['trigger.spoil_guard']}: {CARDS_DE['advancements']['Peacekeeper Druid']}" in " ".join(druid["words"])
        assert texts


def _zoom_text(pg, target, phone: bool) -> str:
    # (in the middle of the screen: on a phone the bottom bar covers the foot of the page)
    target.evaluate("el => el.scrollIntoView({ block: 'center' })")
    if phone:
        long_press(pg, target)
    else:
        target.hover()
        pg.wait_for_selector("#zoom:not([hidden]) .face.zoomed")
    return pg.inner_text("#zoom")


def _close_zoom(pg, phone: bool) -> None:
    if phone:
        pg.click("#zoom")
    else:
        pg.mouse.move(2, 2)
    pg.wait_for_selector("#zoom", state="hidden")


def _pick(prefixes):
    def choose(st):
        return next((a for p in prefixes for a in st["legal_actions"] if a.startswith(p)), st["legal_actions"][0])
    return choose


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_a_german_table_shows_no_english_card_text_and_an_english_one_is_unchanged(browser, server, shots, size, locale):
    german = locale.startswith("de")
    phone = size == "phone"
    lang = "de" if german else "en"
    game = create_game(server, seed=SEED, sets=ALL_SETS, ruleset="german", bots={"1": "random"})
    ctx, pg, errors = _page(browser, size, locale)
    try:
        open_seat(pg, server, game)
        pg.wait_for_function(MY_TURN)
        if phone:
            open_tab(pg, "commons")
        # The commons: the advancements and vales with a text, as the page's own state shows them.
        shown = pg.evaluate("""() => { const o = window.mysticvaleClient.table().view.observation;
          return { adv: Object.entries(o.commons).flatMap(([r, cs]) => cs.map((c, i) => [`${r}.${i + 1}`, c.name, c.text])),
                   vales: Object.values(o.vale_rows).flat().map((v) => [v.id, v.name, v.text]) }; }""")
        adv = [(pos, name) for pos, name, text in shown["adv"] if text]
        vales = [(vid, name) for vid, name, text in shown["vales"] if text]
        assert len(adv) >= 2 and vales, shown
        commons = pg.inner_text("#supply")
        if german:
            assert not english_in(commons), english_in(commons)
        for pos, name in adv:
            text = _zoom_text(pg, pg.locator(f"#supply [data-commons='{pos}']"), phone)
            want = CARDS_DE["advancements"][name] if german else _CAT["types"][name]["text"]
            assert want in text, (name, text)
            if german:
                assert not english_in(text), (name, english_in(text))
                assert not RULESET_IDS.search(text), text
            if name == "Peacekeeper Druid":
                # the mixed line of issue 21: the trigger's word and the text in one language
                assert f"{(DE if german else EN)['trigger.spoil_guard']}: {want}" in text, text
            if (pos, name) == adv[0]:
                screenshot(pg, shots / f"zoom-{lang}-{size}.png")
            _close_zoom(pg, phone)
        vid, vname = vales[0]
        text = _zoom_text(pg, pg.locator(f"#supply .vale-face[data-vale='{vid}']"), phone)
        assert (CARDS_DE["vales"][vname] if german else _CAT["vales"][vname]["text"]) in text, text
        if german:
            assert not english_in(text), english_in(text)
        _close_zoom(pg, phone)
        screenshot(pg, shots / f"commons-{lang}-{size}.png", full_page=not phone)

        # The log's setup line names the rule set in words.
        if phone:
            open_tab(pg, "log")
        log = pg.inner_text("#log")
        rules = DE["ruleset.german"] if german else EN["ruleset.german"]
        assert f"({rules}, " in log, log[:300]
        if german:
            assert not RULESET_IDS.search(log), RULESET_IDS.findall(log)
            assert not english_in(log), english_in(log)
        else:
            assert "German rules" in log and "Deutsche Regeln" not in log

        # Play on to the end (the page away meanwhile: it would draw each of the game's versions),
        # then the end screen's rows, its tie-break row, in the page's language.
        pg.goto(server + "/rules/en")
        play_api(server, game, 0, _pick(["buy 3", "buy 2", "vale", "buy", "push", "finish", "reveal"]),
                 lambda s: False, limit=8000)
        open_seat(pg, server, game)
        pg.wait_for_selector("#end table.scores")
        end = pg.inner_text("#end")
        messages = DE if german else EN
        for key in ("end.row.vp_tokens", "end.row.advancements", "end.row.vales", "end.row.total", "end.row.tiebreak"):
            assert messages[key] in end, key
        if german:
            row = pg.inner_text("#end tr[data-row=tiebreak] th")
            assert row.startswith("Stichentscheid") and not row.startswith("Gleichstand"), row
            assert not english_in(end) and not RULESET_IDS.search(end), end
        screenshot(pg, shots / f"end-{lang}-{size}.png")
        if german:
            log = pg.locator("#log").text_content()          # the whole game's log, on any tab
            assert not english_in(log), english_in(log)
    finally:
        ctx.close()
    assert not errors, errors
