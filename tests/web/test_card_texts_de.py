"""German card texts (issue 21 item 2): messages/cards/de.json gives every card with an English
text (src/mysticvale/cards/data/*.toml) its German text, keyed by the printed name, saying the
same numbers, naming its trigger the way the English one does (with the German keyword of
messages/de.json), in the German rules' words and with no English left.  The rule sets are named
in words, and the tie-break row is not called a tie."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from mysticvale.server.card_catalogue import build

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
EN = json.loads((STATIC / "messages" / "en.json").read_text())
DE = json.loads((STATIC / "messages" / "de.json").read_text())
CARDS_DE = json.loads((STATIC / "messages" / "cards" / "de.json").read_text())
ALL_SETS = ("base", "vale_of_magic", "twilight_garden")

#: A keyword a card's text may start with ("Harvest: ...") and its message: the trigger words of
#: messages/*.json.
KEYWORDS = sorted((k for k in EN if k.startswith("trigger.")), key=lambda k: -len(EN[k]))
#: Words of the German texts that are English too: the names as printed, and units.
PRINTED_NAMES = ("Cursed Lands", "Cursed Land", "Fertile Soil", "Kojen and Khan", "Le Que", "Hectoro", "Althena")
#: English words that must not appear in a German text ("Deck" is German too: file 004).
ENGLISH_WORDS = ("the", "your", "you", "card", "cards", "this", "each", "when", "may", "field", "and",
                 "spoil", "decay", "vale", "vales", "curse", "token", "gain", "harvest", "played", "ongoing")


def _english_texts() -> dict[str, dict[str, str]]:
    cat = build(ALL_SETS)
    return {"advancements": {n: t["text"] for n, t in cat["types"].items() if t.get("text")},
            "vales": {n: v["text"] for n, v in cat["vales"].items() if v.get("text")}}


def _keyword(text: str, messages: dict) -> str | None:
    """The trigger message key a text starts with ("Ernte: ..." -> "trigger.harvest"), or None."""
    for key in sorted(KEYWORDS, key=lambda k: -len(messages[k])):
        if text.startswith(messages[key] + ":"):
            return key
    return None


def test_every_card_with_an_english_text_has_a_german_one_and_no_other():
    english = _english_texts()
    assert sum(map(len, english.values())) >= 60
    for section, texts in english.items():
        german = CARDS_DE[section]
        assert sorted(texts) == sorted(german), (section, set(texts) ^ set(german))
        for name, text in german.items():
            assert isinstance(text, str) and text.strip() and text != texts[name], name


def test_german_texts_carry_the_same_numbers():
    english = _english_texts()
    for section, texts in english.items():
        for name, text in texts.items():
            numbers = Counter(re.findall(r"\d+", text))
            assert Counter(re.findall(r"\d+", CARDS_DE[section][name])) == numbers, (name, text, CARDS_DE[section][name])


def test_a_german_text_names_its_trigger_as_the_english_one_does():
    """"Harvest: ..." is "Ernte: ..." (the German keyword of messages/de.json, which the card faces
    and the zoom print in bold); a text without a keyword of its own has none in German either
    (the face then puts the trigger's word before it, in the page's language)."""
    english = _english_texts()
    named = 0
    for section, texts in english.items():
        for name, text in texts.items():
            key = _keyword(text, EN)
            assert _keyword(CARDS_DE[section][name], DE) == key, (name, text, CARDS_DE[section][name])
            named += key is not None
            # every keyword a text names on the way ("... Discard: turn Hectoro back") too
            inner_en = [k for k in KEYWORDS if f". {EN[k]}:" in text]
            inner_de = [k for k in KEYWORDS if f". {DE[k]}:" in CARDS_DE[section][name]]
            assert inner_en == inner_de, (name, inner_en, inner_de)
    assert named >= 50


def test_german_texts_have_no_english_left_and_use_the_german_rules_words():
    everything = " ".join(t for section in ("advancements", "vales") for t in CARDS_DE[section].values())
    rest = everything
    for name in PRINTED_NAMES:
        rest = rest.replace(name, " ")
    words = set(re.findall(r"[A-Za-zäöüÄÖÜß]+", rest))
    english = set(ENGLISH_WORDS) | {w.capitalize() for w in ENGLISH_WORDS}
    assert not words & english, sorted(words & english)
    for word in ("Deckkarte", "Feld", "Verfall", "Wächter", "Unterstützung", "Fluchmarker", "Siegespunktplättchen",
                 "Manaplättchen", "Ablagestapel", "Auslage", "verderben", "Aufwertung"):
        assert word in everything, word


def test_rule_sets_are_named_in_words_and_the_tie_break_is_not_a_tie():
    assert [EN[f"ruleset.{r}"] for r in ("yucata", "english", "german")] == \
        ["yucata.de rules", "English rules", "German rules"]
    assert [DE[f"ruleset.{r}"] for r in ("yucata", "english", "german")] == \
        ["yucata.de-Regeln", "Englische Regeln", "Deutsche Regeln"]
    # the setup line says the rule set's name, not "Regeln: german"
    assert "{ruleset}" in DE["logk.setup"] and "Regeln: {ruleset}" not in DE["logk.setup"]
    assert "{ruleset} rules" not in EN["logk.setup"]
    assert DE["end.row.tiebreak"] not in ("Gleichstand",) and DE["end.row.tiebreak"] == "Stichentscheid"
