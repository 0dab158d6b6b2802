"""The shape of action notation, checked before a game looks at an action.

The engine reads any verb followed by words of notation characters (``Action.parse``); whether an
action is *legal* it decides against the game (an illegal action is 409).  Text that no legal
action could ever be, because an argument is not a word of the notation at all (``discard #``,
``buy .``, ``use #7.``) or the verb takes another number of arguments (``push 3``), is
*malformed* (422), as the README and ``/docs`` say, whatever the game's position.

The words of the notation: a card (``#7``), an ability of a card (``#7.2``, ``#7.2.1``), a place in
a commons or vale row (``2.3``), a named place or choice (``soil.top``, ``vale.3``, ``adv.2``,
``p2``, ``curses``, ``kojen_and_khan``) and the keyword ``on`` (``buy 1.1 on #7``).
"""

from __future__ import annotations

import re

from ..engine.actions import Action

#: One word of notation: a card or its ability, a row place, or a name with optional parts.
WORD = re.compile(r"^(#\d+(\.\d+){0,2}|\d+\.\d+|[a-z][a-z0-9_]*(\.[a-z0-9_]+)?)$")

#: How many arguments each verb takes (least, most).
ARGUMENTS: dict[str, tuple[int, int]] = {
    "push": (0, 0), "pass": (0, 0), "token": (0, 0), "trade": (0, 0), "finish": (0, 0), "skip": (0, 0),
    "spoil": (0, 0), "stop": (0, 0), "reveal": (0, 0),
    "keep": (0, 1),
    "buy": (1, 3), "vale": (1, 1), "use": (1, 1), "sleeve": (1, 1), "discard": (1, 1), "resolve": (1, 1),
    "take": (1, 1), "choose": (1, 1), "upgrade": (1, 1), "give": (1, 2), "guard": (1, 2),
    "order": (1, 16),
}


def notation_problem(action: Action) -> str | None:
    """What makes ``action`` the notation of no action at all (a word that is not notation, a
    number of arguments its verb never takes), or None when it is well formed.  The answer names
    at most the verb, never the input."""
    least, most = ARGUMENTS.get(action.verb, (0, 16))
    n = len(action.args)
    if not least <= n <= most:
        if most == 0:
            return f"'{action.verb}' takes no arguments"
        if least == most:
            return f"'{action.verb}' takes {least} argument{'s' if least > 1 else ''}, not {n}"
        return f"'{action.verb}' takes {least} to {most} arguments, not {n}"
    for i, word in enumerate(action.args, 1):
        if not WORD.match(word):
            return (f"argument {i} of '{action.verb}' is not action notation (a card is #7, an ability #7.2, "
                    f"a place 2.3 or soil.top)")
    if action.verb == "buy" and n != 1 and (n != 3 or action.args[1] != "on" or not action.args[2].startswith("#")):
        return "'buy' takes a place, optionally followed by 'on #card' (buy 1.1 on #7)"
    return None
