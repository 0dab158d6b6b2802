"""The output file of a command that works for a while (self-play, training): its folder is
checked before the work starts, and a failed write is one clear line and exit status 1."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import typer
from rich.console import Console


def check_folder(console: Console, out: Path) -> None:
    """Exit with status 2 now, not after the games or the training, if ``out``'s folder is missing."""
    if not out.parent.is_dir():
        console.print(f"[red]error:[/red] cannot write {out}: the folder {out.parent} does not exist")
        raise typer.Exit(2)


def write(console: Console, out: Path, save: Callable[[Path], None]) -> None:
    """``save(out)``; a file that cannot be written is said in one line and exits with status 1."""
    try:
        save(out)
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot write {out}: {exc}")
        raise typer.Exit(1) from None
