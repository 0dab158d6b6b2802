"""``mysticvale bots``: the bots a player can choose, by strength.

The four levels (``bots/levels.py``) from the gentlest to the strongest, each with its rating
(measured in seeded arena games, ``benchmarks/rate_levels.py``), the configuration it plays
and its one-line description in English or German (``--language de``); then the bots
themselves (``random``, ``greedy``, ``ismcts``), which stay available for comparison.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots import BOTS, bot_names
from ..bots.levels import LANGUAGES, levels, message

_HEAD = {
    "en": ("Bots by strength (mysticvale play --bots NAME)", "name", "level", "rating", "how it plays",
           "plays as", "The bots themselves (for comparison)"),
    "de": ("Bots nach Stärke (mysticvale play --bots NAME)", "Name", "Stufe", "Wertung", "Spielweise",
           "spielt als", "Die Bots selbst (zum Vergleich)"),
}


def command(
    language: str = typer.Option("en", help=f"Language of the names and descriptions: {', '.join(LANGUAGES)}."),
) -> None:
    """List the bots: the four levels by strength with their ratings, then the bots themselves."""
    console = Console(highlight=False)
    if language not in LANGUAGES:
        console.print(f"[red]error:[/red] unknown language {language!r}; languages: {', '.join(LANGUAGES)}")
        raise typer.Exit(2)
    title, name_h, level_h, rating_h, about_h, spec_h, raw_title = _HEAD[language]
    table = Table(title=title, title_justify="left")
    for head in (name_h, level_h, rating_h, about_h):
        table.add_column(head)
    for lv in levels():
        about = Text(lv.description(language))
        about.append(f"\n{spec_h} {lv.spec}", style="dim")
        table.add_row(lv.name, lv.label(language), "" if lv.rating is None else str(lv.rating), about)
    console.print(table)
    raw = Table(title=raw_title, title_justify="left")
    raw.add_column(name_h)
    raw.add_column(about_h)
    for name in bot_names():
        if name in BOTS:
            raw.add_row(name, message(f"lobby.bot_about.{name}", language))
    console.print(raw)
