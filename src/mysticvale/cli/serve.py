"""``mysticvale serve``: the web game (HTTP + WebSocket API and the browser client)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

#: Environment variable that carries the server's settings to ``--workers`` processes.
CONFIG_ENV = "MYSTICVALE_SERVER_CONFIG"
#: Largest WebSocket frame uvicorn accepts (bytes); larger ones close the socket (code 1009).
WS_MAX_SIZE = 64 * 1024


def command(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, min=1, max=65535, help="port to listen on"),
    database: str = typer.Option(None, help="database URL, e.g. postgresql+psycopg://user@host/db "
                                             "(default: an SQLite file in --data-dir)"),
    data_dir: Path = typer.Option(Path("data"), help="folder of the default SQLite database"),
    workers: int = typer.Option(1, min=1, max=64, help="server processes (PostgreSQL only: an SQLite database "
                                                       "serves one process)"),
    public_url: str = typer.Option(None, help="the address people use to reach this server, e.g. "
                                              "https://vale.example.org; invitation links start with it "
                                              "(default: http://HOST:PORT)"),
    allow_seed: bool = typer.Option(False, help="let new games fix their seed (tests; a known seed reveals "
                                                "every hidden order)"),
    max_think: float = typer.Option(5.0, min=0.1, max=60, help="longest thinking time a bot may be given "
                                                              "(seconds per decision)"),
    bot_workers: int = typer.Option(2, min=1, max=64, help="processes for searching bots, per server process"),
    bot_engine: str = typer.Option("auto", help="what searching bots think with: 'native' (the native core: in the "
                                                "same time it searches further), 'python', or 'auto' (native when "
                                                "it is built)"),
    games_per_minute: int = typer.Option(20, min=1, help="games one client address may create per minute"),
    bot_only_per_minute: int = typer.Option(4, min=0, help="... of which without a human seat"),
    max_bot_only_games: int = typer.Option(32, min=0, help="unfinished games without a human seat the server "
                                                           "runs at once"),
    people_per_10min: int = typer.Option(20, min=1, help="new names (people) one client address may make per 10 minutes"),
    joins_per_10min: int = typer.Option(10, min=1, help="seats at open (public) tables one client address may "
                                                        "take per 10 minutes"),
    sockets_per_address: int = typer.Option(24, min=1, help="WebSockets (tables and lobbies) one client address "
                                                            "may hold open at once"),
    messages_per_address: int = typer.Option(100, min=1, help="WebSocket messages one client address may send per "
                                                              "10 seconds over all its sockets"),
    forwarded_allow_ips: str = typer.Option(None, help="proxies whose X-Forwarded-For is trusted for the client "
                                                       "address (comma-separated; '*' for any)"),
    log_level: str = typer.Option("warning", help="uvicorn log level"),
    # e-mail "your turn" messages (issue 15)
    smtp: str = typer.Option(None, envvar="MYSTICVALE_SMTP",
                             help="send 'your turn' e-mails through this SMTP server: smtp://user:pass@host:port "
                                  "(STARTTLS when offered) or smtps://user:pass@host:port; needs --public-url. "
                                  "The environment variable MYSTICVALE_SMTP keeps the password out of the process "
                                  "list"),
    mail_from: str = typer.Option(None, help="the From: of e-mails (default: Mystic Vale <noreply@public host>)"),
    mail_delay: float = typer.Option(120.0, min=0, help="seconds a turn waits before its e-mail: a player who acts "
                                                         "sooner gets none"),
    absent_after: float = typer.Option(120.0, min=0, help="seconds after the last request that a game with no socket "
                                                          "open still counts as attended: a searching bot of a game "
                                                          "nobody attends waits until somebody is back"),
    presence_expiry: float = typer.Option(30.0, min=0.3, help="(several processes) seconds a process's word that "
                                                              "somebody attends a game there lasts without its "
                                                              "heartbeat (a third of it)"),
    turn_mails_per_hour: int = typer.Option(10, min=1, help="'your turn' e-mails one recipient address gets per hour "
                                                           "at most"),
    turn_mails_per_address: int = typer.Option(30, min=1, help="'your turn' e-mails one client address may cause per "
                                                              "hour (by creating the game or making the move that "
                                                              "hands the turn over)"),
) -> None:
    """Serve the game in the browser; prints the address to open."""
    import uvicorn
    from rich.console import Console

    from ..server import normalize_url, sqlite_url
    from ..server.notify import parse_smtp_url

    if smtp:
        if not public_url:
            raise typer.BadParameter("--smtp needs --public-url: e-mails link to the game at that address")
        try:
            described = parse_smtp_url(smtp).describe()
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    from ..server.bot_engine import resolve as resolve_bot_engine

    try:
        thinks_with = resolve_bot_engine(bot_engine)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bot-engine") from None
    url = normalize_url(database) if database else sqlite_url(data_dir)
    console = Console()
    if workers > 1 and not url.startswith("postgresql"):
        console.print("[red]--workers above 1 needs PostgreSQL (--database postgresql://...): an SQLite database "
                      "serves one server process.[/red]")
        raise typer.Exit(2)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    public = (public_url or f"http://{shown}:{port}").rstrip("/")
    if not public.startswith(("http://", "https://")):
        console.print(f"[red]--public-url must start with http:// or https://, not {public_url!r}[/red]")
        raise typer.Exit(2)
    config = {"database": url, "allow_seed": allow_seed, "public_url": public, "max_think": max_think,
              "bot_workers": bot_workers, "games_per_minute": games_per_minute,
              "bot_only_per_minute": bot_only_per_minute, "max_bot_only_games": max_bot_only_games,
              "people_per_10min": people_per_10min, "joins_per_10min": joins_per_10min,
              "sockets_per_address": sockets_per_address, "messages_per_address": messages_per_address,
              "watch_parent": workers > 1, "smtp": smtp, "mail_from": mail_from, "mail_delay": mail_delay,
              "turn_mails_per_hour": turn_mails_per_hour, "turn_mails_per_address": turn_mails_per_address,
              "absent_after": absent_after, "presence_expiry": presence_expiry, "bot_engine": bot_engine}
    where = url if url.startswith("sqlite") else url.split("@")[-1]
    console.print(f"Mystic Vale is served at [bold]{public}/[/bold]  (API: {public}/docs; database: {where}"
                  f"{f'; {workers} processes' if workers > 1 else ''}; e-mail: {described if smtp else 'off'}; "
                  f"bots think with the {'native core' if thinks_with == 'native' else 'Python engine'})",
                  highlight=False, soft_wrap=True)
    console.print("Open the address in a browser; press Ctrl+C here to stop the server.", highlight=False)
    console.file.flush()
    options = dict(host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_SIZE,
                   proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips)
    if workers > 1:
        os.environ[CONFIG_ENV] = json.dumps(config)
        uvicorn.run("mysticvale.cli.serve:app_from_environment", factory=True, workers=workers, **options)
    else:
        uvicorn.run(build_app(config), **options)


def build_app(config: dict):
    """The application for a ``serve`` configuration (see :func:`command`)."""
    from ..server import create_app
    from ..server.limits import Limits

    from ..server.notify import MailSettings, default_sender, parse_smtp_url

    limits = Limits(max_think=config["max_think"], games_per_minute=config["games_per_minute"],
                    bot_only_per_minute=config["bot_only_per_minute"], max_bot_only_games=config["max_bot_only_games"],
                    people_per_10min=config.get("people_per_10min", 20),
                    joins_per_10min=config.get("joins_per_10min", 10),
                    sockets_per_address=config.get("sockets_per_address", 24),
                    messages_per_10s_per_address=config.get("messages_per_address", 100))
    mail = None
    if config.get("smtp"):
        public = config["public_url"]
        mail = MailSettings(parse_smtp_url(config["smtp"]), public, config.get("mail_from") or default_sender(public),
                            delay=config.get("mail_delay", 120.0),
                            turn_mails_per_hour=config.get("turn_mails_per_hour", 10),
                            turn_mails_per_address=config.get("turn_mails_per_address", 30))
    return create_app(config["database"], allow_seed=config["allow_seed"], public_url=config["public_url"],
                      bot_workers=config["bot_workers"], limits=limits, mail=mail,
                      absent_after=config.get("absent_after"), presence_expiry=config.get("presence_expiry"),
                      bot_engine=config.get("bot_engine", "auto"))


def app_from_environment():
    """(In each ``--workers`` process.)  The application, configured by the serving command."""
    config = json.loads(os.environ[CONFIG_ENV])
    if config.get("watch_parent"):
        _exit_with_parent()
    return build_app(config)


def _exit_with_parent() -> None:
    # uvicorn's supervisor may be killed without a chance to stop its workers (kill -9): a worker
    # then ends by itself rather than serve on, unsupervised, on a port nobody restarts.
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="mysticvale-parent-watch", daemon=True).start()
