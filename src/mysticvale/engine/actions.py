"""Actions: hashable values with a text notation that round-trips.

An action is a verb plus arguments, written as words separated by single spaces:

============================  =====================================================
``push`` / ``pass``           Planting phase
``push`` / ``stop``           go on with or stop the Prep phase (German rules, > 2 decay)
``reveal``                    reveal the next on-deck card after a When Played ability
                              (interface option ``finish_turn``: yucata's click on the deck)
``buy 2.3``                   buy the 3rd advancement of the level-2 commons row
``buy soil.middle``           buy a Fertile Soil for the middle slot
``buy 1.1 on #7``             ... declaring it will be sleeved on card #7 (a discount)
``vale 1.4``                  buy the 4th vale of the level-1 row
``token``                     spend your active mana token (+1 mana)
``use #7.2``                  use the ability of layer 2 of card #7
``use vale.3``                use the ability of your 3rd vale
``trade``                     trade 3 spare spirit symbols for 1 VP (yucata, german)
``finish``                    end the Harvest phase; with ``finish_turn``, also Finish Turn
``sleeve #7``                 sleeve the advancement being placed on card #7
``upgrade #7``                upgrade your leader on card #7 (one of your two advancement buys)
``discard #7`` / ``keep``     answers to abilities (and ``skip``, ``resolve #7.2``, ...)
============================  =====================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidActionError

#: Every verb the engine uses, with a one-line meaning (for help texts).
VERBS: dict[str, str] = {
    "push": "play your on-deck card into your field and reveal the next",
    "pass": "stop planting and go to your Harvest phase",
    "buy": "buy an advancement from the commons",
    "vale": "buy a vale card",
    "token": "spend your active mana token for 1 mana",
    "use": "use an ability",
    "trade": "trade 3 spare spirit symbols for 1 VP from the reserve",
    "finish": "finish your Harvest phase",
    "sleeve": "sleeve the bought advancement on a card in your field",
    "discard": "discard the named card",
    "keep": "keep the card(s) where they are",
    "skip": "do not use this optional ability",
    "resolve": "resolve this ability next",
    "spoil": "accept spoiling",
    "guard": "use a spoil guard instead of spoiling",
    "take": "take the named card",
    "choose": "choose an option",
    "order": "put the cards back in this order",
    "upgrade": "pay a leader's upgrade cost to turn it to its upgraded side",
    "give": "give the named card or vale to another player",
    "stop": "stop the Prep phase now (German rules: more than 2 decay symbols show)",
    "reveal": "reveal the next on-deck card (after a When Played ability, with Finish Turn)",
}

_TOKEN = re.compile(r"^[A-Za-z0-9#.+_\-,:]+$")


@dataclass(frozen=True, slots=True)
class Action:
    """One action, e.g. ``Action("buy", ("2.3",))``; ``str(a)`` is its notation."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb,) + self.args) if self.args else self.verb

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read notation; InvalidActionError says what is wrong with malformed text."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text, not {type(text).__name__}")
        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action text")
        verb = words[0].lower()
        if verb not in VERBS:
            raise InvalidActionError(
                f"unknown verb {words[0]!r} in {text!r}; verbs are: {', '.join(VERBS)}")
        for w in words[1:]:
            if not _TOKEN.match(w):
                raise InvalidActionError(f"unexpected characters in {w!r} of {text!r}")
        return cls(verb, tuple(words[1:]))


def card_ref(card: int) -> str:
    """Notation of a card id (``#7``)."""
    return f"#{card}"
