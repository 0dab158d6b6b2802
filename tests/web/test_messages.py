"""The browser client's texts for people come from messages/en.json: every key the code names
exists there, and every family of keys the code builds (symbols, triggers, slots, phases, score
rows, ...) is complete."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mysticvale.engine.card_types import SLOTS, SYMBOLS, TRIGGERS
from mysticvale.server.card_catalogue import build

STATIC = Path(__file__).resolve().parents[2] / "src" / "mysticvale" / "web" / "static"
MESSAGES = json.loads((STATIC / "messages" / "en.json").read_text())


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
