"""Which engine the server's searching bots think with (``mysticvale serve --bot-engine``).

A searching bot (``ismcts``) has a thinking time per decision.  The native core
(``native/``) gives the same game step for step and searches many times faster, so in the same
time it looks further ahead: the same bot, stronger.  ``auto`` (the default) thinks with the
native core when it is built and has the bot, else with the Python engine; ``python`` always
uses the Python engine; ``native`` requires the core (the server refuses to start without it).
A bot the core does not have is played by the Python engine under every choice.
"""

from __future__ import annotations

from typing import Any

#: The choices of ``--bot-engine``.
CHOICES = ("auto", "native", "python")


def resolve(choice: str) -> str:
    """The engine (``"native"`` or ``"python"``) that ``choice`` means on this machine.

    ValueError saying what is wrong for an unknown choice, or for ``native`` without the core."""
    from ..engine import native

    if choice not in CHOICES:
        raise ValueError(f"unknown bot engine {choice!r}; choices: {', '.join(CHOICES)}")
    if choice == "python":
        return "python"
    if native.available():
        return "native"
    if choice == "native":
        raise ValueError(f"the bot engine 'native' needs the native core, which is not built: "
                         f"{native.unavailable_reason()} (make native)")
    return "python"


def think(engine: str, game_json: str, seat: int, name: str, options: dict[str, Any], seed: int):
    """The action (its notation) bot ``name`` with ``options`` and ``seed`` plays for ``seat`` in
    the saved game ``game_json``, thought with ``engine``; None when that engine is Python or the
    core has no such bot (the caller then plays the Python bot)."""
    if engine != "native":
        return None
    from ..bots.native_bot import NativeBot, has_bot

    if not has_bot(name, options):
        return None
    return NativeBot(name, seed, **options).act_on_save(game_json, seat)


__all__ = ["CHOICES", "resolve", "think"]
