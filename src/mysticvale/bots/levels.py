"""The bots a player chooses by strength: four named levels, each a fixed configuration.

A player picking an opponent should not need to know what "greedy" or "ISMCTS" means.  The
levels are named in the game's own world, from a gentle beginner to the strongest bot we have,
each with a one-line description in English and German and a rating measured in seeded arena
games (``benchmarks/rate_levels.py``; the table and its command are in ``benchmarks/README.md``).

Each level is one of the engine's bots with fixed options (``Level.spec``), so a level plays
exactly as that configuration does: ``make_bot("druid")`` is ``make_bot("ismcts", ...)`` with
the level's options, and the native core plays a level wherever it plays its bot.  The
searching levels have an **iteration budget**, so their moves depend only on the seed, and
the native and the Python engine make the same ones; a time limit (``think``) caps a slow
machine, where a Python search would otherwise keep a player waiting (there a top level plays
weaker than its rating).

The configurations were chosen by measurement (``benchmarks/README.md``, "Bot levels"):

* the Seedling plays by the greedy bot's rules with a beginner's judgement: it reads the odds
  of a push exactly (one reveal ahead) but undervalues spirit symbols, the vales' currency, and
  does not price the decay it buys.  Sensible moves, weak plans: it beats ``random`` in nearly
  every game and loses most games to the other levels;
* the Wanderer is the greedy bot as it is (rules of thumb, no search);
* the Druid and the Archdruid search (ISMCTS with the fitted value model), 200 and 1 000
  iterations per decision; both win far more than their share against greedy seats in 3- and
  4-player games too, with every set and the leaders (``benchmarks/README.md``).

``random``, ``greedy`` and ``ismcts`` stay available under those names for comparison.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: Languages the levels' texts are written in (the web table's languages).
LANGUAGES = ("en", "de")
#: The translations of the web table, where the levels' names (``seats.bot_kind.<level>``)
#: and descriptions (``bots.level.<level>``) are written once for every place that shows them.
MESSAGES = Path(__file__).resolve().parent.parent / "web" / "static" / "messages"


@cache
def _messages(language: str) -> dict[str, Any]:
    return json.loads((MESSAGES / f"{language}.json").read_text("utf-8"))


def message(key: str, language: str = "en") -> str:
    """The table's text ``key`` in ``language`` (English for another language; "" if it has none)."""
    return str(_messages(_language(language)).get(key, ""))


@dataclass(frozen=True)
class Level:
    """A named bot level: ``bot`` with ``options``, and its measured rating (openskill's
    ordinal on the scale of people's ratings, 1000 = a new player's start; see
    ``benchmarks/rate_levels.py``)."""

    name: str
    rank: int
    bot: str
    options: tuple[tuple[str, Any], ...]
    rating: int | None = None

    @property
    def spec(self) -> str:
        """The level as an arena spec of its bot: ``ismcts:iterations=200:think=1.5``."""
        return ":".join([self.bot, *(f"{k}={v}" for k, v in self.options)])

    def label(self, language: str = "en") -> str:
        """The level's name in ``language`` (English for a language the table does not have)."""
        return message(f"seats.bot_kind.{self.name}", language)

    def description(self, language: str = "en") -> str:
        """The level's one-line description in ``language``."""
        return message(f"bots.level.{self.name}", language)

    def as_dict(self) -> dict[str, Any]:
        """The level as ``GET /api/bots`` lists it."""
        return {"name": self.name, "rank": self.rank, "bot": self.spec,
                "label": {lang: self.label(lang) for lang in LANGUAGES},
                "description": {lang: self.description(lang) for lang in LANGUAGES},
                "rating": self.rating}


def _language(language: str) -> str:
    return language if language in LANGUAGES else "en"


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("seedling", 1, "greedy", (("depth", 1), ("samples", 1), ("spirit_vp", 0.6), ("decay_vp", 0.0)), 1215),
    Level("wanderer", 2, "greedy", (), 1874),
    Level("druid", 3, "ismcts", (("iterations", 200), ("think", 1.5)), 2526),
    Level("archdruid", 4, "ismcts", (("iterations", 1000), ("think", 3.0)), 2584),
)}


def level(name: str) -> Level | None:
    """The level called ``name`` (``"druid"``), or None for another bot name."""
    return LEVELS.get(name)


def levels() -> list[Level]:
    """The levels from the gentlest to the strongest."""
    return sorted(LEVELS.values(), key=lambda lv: lv.rank)


def expand(name: str, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(bot, options) that ``name`` plays as: a level's bot with its options (options given
    beside a level's name are refused: a level is a fixed configuration); another name as given.

    ValueError saying so for options given to a level."""
    lv = LEVELS.get(name)
    if lv is None:
        return name, dict(options or {})
    if options:
        raise _takes_no_options(lv, ", ".join(sorted(options)))
    return lv.bot, dict(lv.options)


def expand_spec(spec: str) -> str:
    """An arena spec with a level's name replaced by its bot's spec (``druid`` ->
    ``ismcts:iterations=200:think=1.5``); other specs as given.  ValueError for options
    given to a level (``druid:think=3``)."""
    name, _, rest = spec.partition(":")
    lv = LEVELS.get(name.strip())
    if lv is None:
        return spec
    if rest.strip():
        raise _takes_no_options(lv, repr(rest.strip()))
    return lv.spec


def _takes_no_options(lv: Level, got: str) -> ValueError:
    return ValueError(f"the bot level {lv.name!r} is a fixed configuration ({lv.spec}); it takes no options "
                      f"(got {got})")


__all__ = ["LANGUAGES", "LEVELS", "Level", "expand", "expand_spec", "level", "levels", "message"]
