"""The rules help (web/static/help): English and German fragments with the same sections and keywords,
plain HTML only, served by the server."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HELP = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static" / "help"
KEYWORDS = {"when-played", "harvest", "ongoing", "discard", "when-bought", "eclipse", "legendary", "growth", "decay",
            "guardian", "curse", "spirits", "mana-token", "spoil", "on-deck-card"}
SECTIONS = {"help-summary", "help-setup", "help-turn", "help-end", "help-symbols", "help-rulesets", "help-expansions",
            "help-leaders", "help-keywords"}


class Outline(HTMLParser):
    """Ids, keyword entries, tags and attributes of a fragment, and whether every tag is closed."""

    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.keywords: dict[str, str] = {}
        self.tags: set[str] = set()
        self.attrs: set[str] = set()
        self.hrefs: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self._kw: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        self.attrs |= set(a)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a":
            self.hrefs.append(a.get("href", ""))
        self._kw = a.get("data-keyword") if tag == "dt" else self._kw
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        if tag == "dt":
            self._kw = None

    def handle_data(self, data):
        self.text.append(data)
        if self._kw:
            self.keywords[self._kw] = self.keywords.get(self._kw, "") + data


def outline(lang: str) -> Outline:
    o = Outline()
    o.feed((HELP / f"{lang}.html").read_text(encoding="utf-8"))
    o.close()
    return o


def test_both_languages_have_the_same_sections_and_every_keyword():
    en, de = outline("en"), outline("de")
    assert set(en.ids) == set(de.ids) and len(en.ids) == len(set(en.ids))
    assert SECTIONS <= set(en.ids)
    assert KEYWORDS <= set(en.keywords) and set(en.keywords) == set(de.keywords)
    assert {f"kw-{k}" for k in en.keywords} <= set(en.ids)
    assert en.open == [] and de.open == []
    # every link of the contents points to a section of the fragment
    for o in (en, de):
        assert o.hrefs and all(h.startswith("#") and h[1:] in o.ids for h in o.hrefs)


def test_the_german_text_uses_the_vocabulary_of_the_german_rules():
    de = " ".join(outline("de").text)
    for word in ("Deckkarte", "Feld", "Aufwertung", "Unterstützung", "Verfall", "Ernte", "Manaplättchen",
                 "Seelensymbol", "Ablagestapel", "Siegespunkt"):
        assert word in de, word
    assert outline("de").keywords["on-deck-card"] == "Deckkarte" and outline("de").keywords["decay"] == "Verfall"


def test_the_rule_sets_section_compares_all_three_rule_sets():
    import json
    for lang in ("en", "de"):
        text = (HELP / f"{lang}.html").read_text(encoding="utf-8")
        messages = json.loads((HELP.parent / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
        table = text[text.index('<table class="rulesets">'):text.index("</table>")]
        # named in words, as the lobby names them ("Deutsche Regeln"), never by their ids (issue 21)
        assert all(f"<th>{messages[f'ruleset.{r}']}" in table for r in ("yucata", "english", "german")), table[:400]
        assert not any(f"<code>{r}</code>" in text for r in ("yucata", "english", "german"))
        assert table.count("<tr>") == 6          # the heading and one row per rule that differs


def test_fragments_are_plain_html_without_scripts_or_outside_links():
    for lang in ("en", "de"):
        o = outline(lang)
        assert not o.tags & {"script", "style", "iframe", "object", "embed", "form", "html", "body", "head"}
        assert not {a for a in o.attrs if a.startswith("on")} and "style" not in o.attrs


def test_the_server_serves_the_help(sqlite_client):
    for lang in ("en", "de"):
        r = sqlite_client.get(f"/static/help/{lang}.html")
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert f'lang="{lang}"' in r.text


def test_the_rules_page_is_the_help_with_the_tables_styles(sqlite_client):
    """The top bar's Rules link opens /rules/<lang>: the fragment in a whole page with the stylesheet
    (it opened as unstyled text before), in its language; another language gets the English page."""
    for lang, back in (("en", "Back to the games"), ("de", "Zurück zu den Spielen")):
        r = sqlite_client.get(f"/rules/{lang}")
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        text = r.text
        assert text.startswith("<!doctype html>") and f'<html lang="{lang}">' in text
        assert '<link rel="stylesheet" href="/static/style.css">' in text
        assert '<body class="rules-page">' in text and back in text
        assert set(outline(lang).ids) <= set(re.findall(r'id="([^"]+)"', text))
    assert '<html lang="en">' in sqlite_client.get("/rules/fr").text
