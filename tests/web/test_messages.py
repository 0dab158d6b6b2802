"""The browser client's texts for people come from messages/en.json: every key the code names
exists there, and every family of keys the code builds (symbols, triggers, slots, phases, score
rows, ...) is complete.  messages/de.json says the same in German: the same keys, the same
placeholders and plural forms, and no text left in English."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mysticvale.engine.card_types import SLOTS, SYMBOLS, TRIGGERS
from mysticvale.server.card_catalogue import build

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
MESSAGES = json.loads((STATIC / "messages" / "en.json").read_text())
GERMAN = json.loads((STATIC / "messages" / "de.json").read_text())

#: Words that are the same in German: names as printed (sets, cards, bots) and words German uses as
#: they are.  A German text may equal the English one only when nothing but these (and
#: placeholders, numbers, signs) is left.
SAME_IN_GERMAN = ("Fertile Soil", "Vale of Magic", "Twilight Garden", "Greedy", "Random", "ISMCTS", "Wanderer", "Soil", "Mana",
                  "Lobby", "Bot", "Chat", "live", "auto", "OK")
#: Keys whose text is the same in every language: each language's name in its own words.
AUTONYMS = ("settings.lang.",)


def _js() -> str:
    return "\n".join(p.read_text() for p in sorted((STATIC / "js").glob("*.js")))


def test_every_key_named_in_the_code_has_a_message():
    prefixes = {k.split(".")[0] for k in MESSAGES}
    literals = set(re.findall(r"""["'`]([a-z_]+(?:\.[a-z_0-9]+)+)["'`]""", _js()))
    keys = {k for k in literals if k.split(".")[0] in prefixes and not k.endswith((".js", ".json"))}
    missing = sorted(k for k in keys if k not in MESSAGES)
    assert len(keys) > 150
    assert not missing, missing


def test_families_of_keys_built_by_the_code_are_complete():
    want = [f"symbol.{s}" for s in SYMBOLS + ("any",)]
    want += [f"symbol.count.{s}" for s in SYMBOLS + ("any", "end_vp", "neg_vp")]
    want += [f"trigger.{t}" for t in TRIGGERS]
    want += [f"slot.{s}" for s in SLOTS]
    want += [f"phase.{p}" for p in ("planting", "harvest", "discard", "prep", "over")]
    want += [f"end.row.{k}" for k in ("vp_tokens", "advancements", "vales", "negative_vp", "curse_tokens", "total",
                                      "tiebreak")]
    want += [f"tab.{k}" for k in ("field", "commons", "players", "log")]
    want += [f"mark.{k}" for k in ("ondeck", "field", "deck", "discard", "aside", "upgraded", "known")]
    want += [f"leader.{k}" for k in ("start", "upgraded")]
    cat = build(("base", "vale_of_magic", "twilight_garden"))
    fields = {f for t in list(cat["types"].values()) + list(cat["vales"].values()) + list(cat["leaders"].values())
              for f in t["provisional"]}
    want += [f"value.{f}" for f in fields]
    # the legend: every icon named and explained
    legend = re.search(r"export const LEGEND = \[(.*?)\];", _js(), re.S).group(1)
    for group in re.findall(r"\[([^\[\]]*)\]\s*\.map\(\(k\) => \[k, `(\w+)\.\$\{k\}`, `(\w+)\.?(\$\{k\})?", legend):
        names, name_prefix, help_prefix, per_name = group
        for name in re.findall(r'"([a-z_]+)"', names):
            want.append(f"{name_prefix}.{name}")
            want.append(f"{help_prefix}.{name}" if per_name else help_prefix)
    assert sum(k.startswith("legend.") for k in want) >= 15
    missing = [k for k in want if k not in MESSAGES]
    assert not missing, missing


def test_messages_are_plain_text_with_known_placeholders():
    for key, msg in MESSAGES.items():
        forms = msg.values() if isinstance(msg, dict) else [msg]
        if isinstance(msg, dict):
            assert "other" in msg, key
        for m in forms:
            assert isinstance(m, str) and m.strip(), key
            assert not re.search(r"<[a-zA-Z/]", m), f"{key}: markup in a message"
            assert re.fullmatch(r"(?:[^{}]|\{\w+\})*", m), f"{key}: unbalanced placeholder"


def _forms(msg) -> list[str]:
    return list(msg.values()) if isinstance(msg, dict) else [msg]


def _placeholders(msg) -> set[str]:
    return {name for form in _forms(msg) for name in re.findall(r"\{(\w+)\}", form)}


def test_german_has_every_english_key_and_no_other():
    assert len(MESSAGES) > 300
    assert sorted(set(MESSAGES) - set(GERMAN)) == [], "keys without a German text"
    assert sorted(set(GERMAN) - set(MESSAGES)) == [], "German keys that English no longer has"


def test_german_placeholders_and_plural_forms_are_those_of_english():
    for key, en in MESSAGES.items():
        if key not in GERMAN:
            continue                # reported by the test above
        de = GERMAN[key]
        assert isinstance(de, dict) == isinstance(en, dict), f"{key}: plural in one language only"
        if isinstance(en, dict):
            assert set(de) == set(en), f"{key}: plural forms {sorted(de)} instead of {sorted(en)}"
        # A form may leave out the count it names in words ("die oberste Karte"), but no form
        # may use a placeholder English does not fill, and together they use all of them.
        assert _placeholders(de) == _placeholders(en), f"{key}: placeholders differ"
        for form in _forms(de):
            assert isinstance(form, str) and form.strip(), key
            assert not re.search(r"<[a-zA-Z/]", form), f"{key}: markup in a message"
            assert re.fullmatch(r"(?:[^{}]|\{\w+\})*", form), f"{key}: unbalanced placeholder"


def test_no_german_text_is_left_in_english():
    left = []
    for key, en in MESSAGES.items():
        if GERMAN.get(key, "") != en or key.startswith(AUTONYMS):
            continue
        rest = " ".join(_forms(en))
        rest = re.sub(r"\{\w+\}", " ", rest)
        for word in SAME_IN_GERMAN:
            rest = rest.replace(word, " ")
        if re.search(r"[A-Za-z]", rest):
            left.append(key)
    assert not left, f"still English in de.json: {left}"


def test_german_uses_the_words_of_the_german_rules():
    """File 004 (the German summary) names the phases and the game's things; the table uses them."""
    want = {"phase.planting": "Pflanzen", "phase.harvest": "Ernten", "phase.discard": "Aufräumen",
            "phase.prep": "Vorbereiten", "symbol.decay": "Verfall", "symbol.growth": "Wachstum",
            "commons.vales": "Unterstützungen", "mark.ondeck": "Deckkarte", "tab.field": "Feld",
            "trigger.when_played": "Beim Ausspielen", "end.row.vp_tokens": "Siegespunktplättchen"}
    assert {k: GERMAN[k] for k in want} == want
    help_de = (STATIC / "help" / "de.html").read_text()
    for word in want.values():
        assert word in help_de, f"the German help page does not use {word!r}"


def test_every_log_sentence_of_js_logtext_has_its_message_and_no_message_is_left_over():
    """js/logtext.js reads the server's English log sentences back and says them with `logk.*`."""
    src = (STATIC / "js" / "logtext.js").read_text()
    patterns = re.findall(r'^\s*\["(\w+)", "((?:[^"\\]|\\.)*)", "(\w+)"\],?$', src, re.M)
    reasons = re.findall(r'^\s*\["((?:[^"\\]|\\.)*)", "(why\.\w+)"\],?$', src, re.M)
    assert len(patterns) > 80 and len(reasons) >= 5
    used = {f"logk.{key}" for _, _, key in patterns} | {f"logk.{key}" for _, key in reasons}
    used |= {"logk.side.starting", "logk.side.upgraded"}
    assert len(used) == len(patterns) + len(reasons) + 2, "a message key is named twice"
    assert sorted(used - set(MESSAGES)) == []
    assert sorted(k for k in MESSAGES if k.startswith("logk.") and k not in used) == []
    for kind, sentence, key in patterns:
        # the message fills the placeholders the sentence reads, and a "(s)" sentence has plural forms
        assert _placeholders(MESSAGES[f"logk.{key}"]) == set(re.findall(r"\{(\w+)\}", sentence)), key
        assert isinstance(MESSAGES[f"logk.{key}"], dict) == ("(s)" in sentence), key
