"""``mysticvale train``: fit the value network to self-play positions."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .output import check_folder, write


def command(
    data: list[Path] = typer.Argument(..., help="Positions files written by mysticvale selfplay (.npz)."),
    out: Path = typer.Option(..., help="Write the network's weights here (a JSON file)."),
    hidden: str = typer.Option("32", help="Hidden layers' widths, comma-separated (32 or 64,32)."),
    alpha: float = typer.Option(1e-3, min=0.0, help="L2 penalty on the weights."),
    epochs: int = typer.Option(60, min=1, help="At most this many passes over the training positions."),
    patience: int = typer.Option(8, min=1, help="Stop after this many passes without a lower held-out loss."),
    batch: int = typer.Option(256, min=1, help="Positions per step of the optimizer."),
    rate: float = typer.Option(1e-3, min=1e-9, help="The optimizer's (Adam's) step size."),
    held_out: float = typer.Option(0.2, min=0.01, max=0.99, help="Share of the games held out to measure on."),
    seed: int = typer.Option(1, help="Seed of the held-out split, the first weights and the shuffles."),
) -> None:
    """Train the value network on self-play positions, printing the held-out log-loss after
    every pass; the best pass's weights are written with a record of how they were made."""
    from ..errors import SaveError
    from ..learn.selfplay import Positions
    from ..learn.train import train

    console = Console(stderr=True, soft_wrap=True)
    check_folder(console, out)
    try:
        widths = tuple(int(h) for h in hidden.split(",") if h.strip())
    except ValueError:
        console.print(f"[red]error:[/red] --hidden takes widths such as 32 or 64,32, not {hidden!r}")
        raise typer.Exit(2) from None
    try:
        sets = [Positions.load(p) for p in data]
    except SaveError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    console.print(f"{sum(len(s) for s in sets)} positions of {sum(s.meta.get('games', 0) for s in sets)} games "
                  f"from {len(sets)} file(s)")
    columns = (TextColumn("[bold]epochs"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[note]}"))

    try:
        with Progress(*columns, console=console) as bar:
            task = bar.add_task("epochs", total=epochs, note="")

            def on_epoch(epoch: int, loss: float, best: float) -> None:
                bar.console.print(f"epoch {epoch:3d}: held-out log-loss {loss:.4f} (best {best:.4f})")
                bar.update(task, completed=epoch, note=f"best {best:.4f}")

            command_line = shlex.join(["mysticvale", "train", *sys.argv[2:]]) if sys.argv[1:2] == ["train"] else ""
            net, report = train(sets, hidden=widths, alpha=alpha, epochs=epochs, patience=patience, batch=batch,
                                rate=rate, held_out=held_out, seed=seed, on_epoch=on_epoch,
                                record={"command": command_line})
    except (ValueError, ImportError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    write(console, out, net.save)
    console.print(f"held-out log-loss {report.held_out_loss:.4f} after pass {report.best_epoch} "
                  f"(the value model: {report.model_loss:.4f}) on {report.held_out_rows} rows; "
                  f"{report.train_rows} rows trained on in {report.seconds:.1f} s; weights written to {out}")
