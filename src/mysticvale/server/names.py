"""Display names a player can trust: visible, unique up to look-alikes, and never a table's label.

:func:`clean_name` makes a name as stored (or refuses it); :func:`name_key` (from :mod:`.trust`)
is what two names of different people must differ in; :func:`reserved_keys` are the keys of what
the table itself writes in place of a name ("Player 1" to "Player 4", "Greedy bot", "Bot Greedy 2",
... in every language of the interface), so that no person can pass for a seat or a bot.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from pathlib import Path
from typing import Any

from .sessions import BadInput, Conflict
from .trust import Untrusted, check_characters, has_visible, name_key

#: Longest display name, in characters, after trimming.
NAME_MAX = 24
MESSAGES = Path(__file__).resolve().parent.parent / "web" / "static" / "messages"
#: The message keys whose texts stand for a seat or a bot at the table (see seats.js, welcome.js).
LABELS = ("player.name", "seats.bot", "seats.bot_numbered", "player.bot", "top.bot_turn")
#: The keys whose texts name a bot level ("Druid", "Druid 2", "Druid (bot)"): only a level's own
#: name goes into them, so "Greedy 1" stays a person's name (the table says "Greedy bot 1").
LEVEL_LABELS = ("seats.bot_level", "seats.bot_level_numbered", "lobby.chip_level")


class NameRefused(BadInput):
    """A name that cannot be used (422); ``reason`` names the rule for the client's message files
    (``refusal.<reason>``), so the page can say it in its own language."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class NameTaken(Conflict):
    """A name that somebody else uses, or one that looks like it (409)."""

    reason = "name_taken"


def clean_name(raw: Any) -> str:
    """A display name as stored: NFC, trimmed, runs of spaces made one; :class:`NameRefused` if unfit.

    Refused: control, format (bidi, zero-width) and blank characters, lone or stacked combining
    marks, no visible letter or digit, more than :data:`NAME_MAX` characters, and the table's own
    labels.  Whether the name is taken by somebody else is for :class:`.people.People` to say.
    """
    if not isinstance(raw, str):
        raise NameRefused("type", "a name must be text")
    name = unicodedata.normalize("NFC", raw)
    try:
        check_characters(name, allow=" ", what="a name")
    except Untrusted as exc:
        raise NameRefused(exc.reason, exc.message) from None
    name = " ".join(name.split())          # trimmed; any run of spaces becomes one space
    if not has_visible(name, letters_only=True):
        raise NameRefused("no_letter", "a name needs at least one visible letter or digit")
    if len(name) > NAME_MAX:
        raise NameRefused("too_long", f"a name has at most {NAME_MAX} characters (this one has {len(name)})")
    if name_key(name) in reserved_keys():
        raise NameRefused("reserved", f"{name!r} is what the table calls a seat or a bot; choose another name")
    return name


@functools.cache
def reserved_keys() -> frozenset[str]:
    """The name keys of every label the table shows instead of a name, in every language."""
    from ..bots import bot_names
    from ..bots.levels import LEVELS

    kinds = set(bot_names())
    level_kinds = set(LEVELS)
    texts = []
    for path in sorted(MESSAGES.glob("*.json")):
        messages = json.loads(path.read_text("utf-8"))
        kinds |= {v for k, v in messages.items() if k.startswith("seats.bot_kind.")}
        level_kinds |= {messages[f"seats.bot_kind.{lv}"] for lv in LEVELS if f"seats.bot_kind.{lv}" in messages}
        texts.append(messages)
    out = set()
    for messages in texts:
        for key in LABELS + LEVEL_LABELS:
            pattern = messages.get(key)
            if not pattern:
                continue
            for n in range(1, 5):
                for kind in (level_kinds if key in LEVEL_LABELS else kinds) | {""}:
                    label = pattern.replace("{n}", str(n)).replace("{k}", str(n)).replace("{bot}", kind)
                    label = label.replace("{name}", kind or "bot")
                    out.add(name_key(label))
        out |= {name_key(k) for k in kinds}
    out |= {name_key("bot"), name_key("Bot")}
    return frozenset(k for k in out if k)
