"""``mysticvale selfplay``: seeded self-play games, and the positions a learner fits to."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
    TimeRemainingColumn

from ..bots.arena import MAX_ROUNDS
from .output import check_folder, write


def command(
    out: Path = typer.Option(..., help="Write the positions here (a numpy .npz file)."),
    games: int = typer.Option(100, min=1, help="Number of games."),
    bots: str = typer.Option("greedy", help="Bots, comma-separated, one per seat (repeated to fill the seats); "
                             "options after colons, e.g. ismcts:iterations=200; levels by name (druid)."),
    players: int = typer.Option(2, min=2, max=4, help="Players per game (2 to 4)."),
    seed: int = typer.Option(1, help="Run seed: game i's seed is derived from it and i (as the arena's)."),
    sets: str = typer.Option("base", help="Card sets, comma-separated (base, vale_of_magic, ...)."),
    ruleset: str = typer.Option("yucata", help="Rule set: yucata, english or german."),
    leaders: bool = typer.Option(False, "--leaders", help="Play with the Twilight Garden leaders."),
    jobs: int = typer.Option(1, min=1, help="Parallel processes (the local backend; the same positions)."),
    backend: str = typer.Option("local", help="Where the games run: local (this machine, --jobs processes) or "
                                "ray (a Ray cluster: pip install 'mysticvale[cluster]'); the same positions."),
    address: str = typer.Option(None, help="With --backend ray: the cluster to join (auto, host:6379, "
                                "ray://host:10001); default: a Ray instance started on this machine."),
    think: float = typer.Option(None, min=0.0, help="Seconds per decision for search bots (ismcts)."),
    max_rounds: int = typer.Option(MAX_ROUNDS, min=1, help="Stop a game after this many rounds."),
    engine: str = typer.Option("python", help="The engine that plays: python, or native (the native core and "
                               "its twins of the bots: the same positions with iteration budgets, far faster)."),
) -> None:
    """Play seeded games between bots; write each turn's position (every seat's value-model
    features) and who won, for learning an evaluation."""
    from ..learn.selfplay import generate

    console = Console(stderr=True, soft_wrap=True)   # a path is never cut across lines
    check_folder(console, out)
    set_list = tuple(s.strip() for s in sets.split(",") if s.strip())
    columns = (TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("games", total=games)
            positions = generate(bots.split(","), games=games, players=players, seed=seed, sets=set_list,
                                 ruleset=ruleset, jobs=jobs, think=think, max_rounds=max_rounds, leaders=leaders,
                                 backend=backend, address=address, engine=engine,
                                 progress=lambda n: bar.update(task, completed=n))
    except (ValueError, RuntimeError) as exc:   # RuntimeError: no Ray cluster
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    write(console, out, positions.save)
    seconds = positions.meta["seconds"]
    where = "on Ray" if backend == "ray" else f"with {jobs} job(s)"
    console.print(f"{len(positions)} positions from {games} games written to {out} "
                  f"({seconds:.1f} s {where}: {games / max(seconds, 1e-9):.1f} games/s).")
