"""``mysticvale demo``: play and print one complete game between bots."""

from __future__ import annotations

import typer
from rich.console import Console

from ..bots import SeatView, make_bot
from ..engine.game import new_game
from .render import end_screen


def command(
    players: int = typer.Option(2, min=2, max=4, help="Number of players (2 to 4)."),
    seed: int = typer.Option(1, help="Seed of the game (and of the bots)."),
    bot: str = typer.Option("random", help="Bot that plays every seat."),
    sets: str = typer.Option("base", help="Card sets, comma-separated."),
    ruleset: str = typer.Option("yucata", help="Rule set: yucata, english or german."),
    quiet: bool = typer.Option(False, help="Print only the final scores."),
) -> None:
    """Play one complete game between bots and print what happens."""
    console = Console()
    try:
        game = new_game(players=players, seed=seed, sets=tuple(s.strip() for s in sets.split(",")),
                        ruleset=ruleset)
        bots = [make_bot(bot, seed=seed * 10 + p) for p in range(players)]
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    seen = 0
    while not game.is_over():
        p = game.current_player
        game.apply_action(bots[p].act(SeatView(game, p)))
        if not quiet:
            for e in game.log(None, seen):
                console.print(e["text"], highlight=False)
        seen = len(game.state.events)
    console.print(f"\n[bold]Game over after {game.state.round} rounds.[/bold]")
    console.print(end_screen([game.score_breakdown(p) for p in range(players)], game.winners(),
                             names=[f"Player {p + 1} ({bot})" for p in range(players)]))
