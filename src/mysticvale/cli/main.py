"""The ``mysticvale`` command.  Each subcommand lives in its own module of this package."""

from __future__ import annotations

from importlib import import_module

import typer

app = typer.Typer(
    name="mysticvale",
    help="Mystic Vale: play, simulate, inspect the card catalogue, serve the web game.",
    no_args_is_help=True,
    add_completion=False,
)



@app.callback()
def _root() -> None:
    """Mystic Vale: play, simulate, inspect the card catalogue, serve the web game."""


# (module, command name): each module defines a function ``command`` with Typer options.
_COMMANDS = (
    ("demo", "demo"),
    ("cards", "cards"),
    ("simulate", "simulate"),
    ("selfplay", "selfplay"),
    ("train", "train"),
    ("play", "play"),
    ("bots", "bots"),
    ("serve", "serve"),
)

for _module, _name in _COMMANDS:
    try:
        _mod = import_module(f"{__package__}.{_module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{_module}":
            raise
        continue
    app.command(_name)(_mod.command)


def main() -> None:  # pragma: no cover
    app()
