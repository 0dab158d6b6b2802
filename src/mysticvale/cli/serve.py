"""``mysticvale serve``: the web game (HTTP + WebSocket API and the browser client)."""

from __future__ import annotations

from pathlib import Path

import typer


def command(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, min=1, max=65535, help="port to listen on"),
    database: str = typer.Option(None, help="database URL, e.g. postgresql+psycopg://user@host/db "
                                             "(default: an SQLite file in --data-dir)"),
    data_dir: Path = typer.Option(Path("data"), help="folder of the default SQLite database"),
    allow_seed: bool = typer.Option(False, help="let new games fix their seed (tests; a known seed reveals "
                                                "every hidden order)"),
    log_level: str = typer.Option("warning", help="uvicorn log level"),
) -> None:
    """Serve the game in the browser; prints the address to open."""
    import uvicorn
    from rich.console import Console

    from ..server import create_app, normalize_url, sqlite_url

    url = normalize_url(database) if database else sqlite_url(data_dir)
    app = create_app(url, allow_seed=allow_seed)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    where = url if url.startswith("sqlite") else url.split("@")[-1]
    console = Console()
    console.print(f"Mystic Vale is served at [bold]http://{shown}:{port}/[/bold]  (API: http://{shown}:{port}/docs; "
                  f"database: {where})", highlight=False, soft_wrap=True)
    console.file.flush()
    uvicorn.run(app, host=host, port=port, log_level=log_level)
