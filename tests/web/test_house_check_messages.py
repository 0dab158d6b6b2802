"""The catalogue validator's problems in the page's language (issue 21 items 1 and 2): every
problem code of cards/problems.py and every kind of place in a file has an English and a
German message, with the same placeholders as the English text the command line shows, and
the English message is that text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mysticvale.cards.problems import MESSAGES, WHERE

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
LANGS = {lang: json.loads((STATIC / "messages" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "de")}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"(?<!\{)\{(\w+)\}(?!\})", text))


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_problem_code_is_worded_with_the_same_placeholders(lang, code):
    msg = LANGS[lang].get(f"house.check.{code}")
    assert msg, f"no {lang} message house.check.{code}"
    assert _placeholders(msg) == _placeholders(MESSAGES[code]), (msg, MESSAGES[code])
    if lang == "en":
        assert msg == MESSAGES[code].replace("{{", "{").replace("}}", "}")


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("kind", sorted(WHERE))
def test_every_place_in_a_file_is_named(lang, kind):
    msg = LANGS[lang].get(f"house.where.{kind}")
    assert msg and _placeholders(msg) == _placeholders(WHERE[kind]), msg


def test_german_problems_are_german():
    de = LANGS["de"]
    english_words = re.compile(r"\b(must|unknown|missing|the name|is used|cannot|these give|belongs)\b")
    leaks = [k for k in MESSAGES if english_words.search(de[f"house.check.{k}"])]
    assert not leaks, leaks
