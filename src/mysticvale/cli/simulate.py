"""``mysticvale simulate``: a seeded arena between bots, with statistics and a plot."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
    TimeRemainingColumn
from rich.table import Table

from ..bots.arena import MAX_ROUNDS, run_matches


def command(
    players: int = typer.Option(2, min=2, max=4, help="Players per game (2 to 4)."),
    games: int = typer.Option(100, min=1, help="Number of games."),
    bots: str = typer.Option("greedy,random", help="Bots, comma-separated, one per seat (repeated "
                             "to fill the seats); options after colons, e.g. ismcts:iterations=200."),
    seed: int = typer.Option(1, help="Arena seed: game i's seed is derived from it and i."),
    sets: str = typer.Option("base", help="Card sets, comma-separated (base, vale_of_magic, ...)."),
    ruleset: str = typer.Option("yucata", help="Rule set: yucata, english or german."),
    leaders: bool = typer.Option(False, "--leaders", help="Play with the Twilight Garden leaders "
                                 "(the sets must include twilight_garden)."),
    jobs: int = typer.Option(1, min=1, help="Parallel processes (same results as one; the local backend)."),
    backend: str = typer.Option("local", help="Where the games run: local (this machine, --jobs processes) or "
                                "ray (a Ray cluster: pip install 'mysticvale[cluster]'); the same results."),
    address: str = typer.Option(None, help="With --backend ray: the cluster to join (auto, host:6379, "
                                "ray://host:10001); default: a Ray instance started on this machine."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    timing: bool = typer.Option(False, help="With --json: include wall-clock timing figures."),
    plot: str = typer.Option(None, help="Write a PNG of win rates, scores and game lengths here."),
    think: float = typer.Option(None, min=0.0, help="Seconds per decision for search bots (ismcts)."),
    max_rounds: int = typer.Option(MAX_ROUNDS, min=1, help="Stop a game after this many rounds and score "
                                   "it as it stands (a guard against stalemates; counted as unfinished)."),
    engine: str = typer.Option("python", help="Engine: python (the reference) or native (the native core, "
                               "the same games; see mysticvale.native_available())."),
) -> None:
    """Play many seeded games between bots; report win rates with 95% intervals."""
    console = Console(stderr=json_out)
    if not console.is_terminal:
        console = Console(stderr=json_out, width=120)   # room for the table when piped
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    set_list = tuple(s.strip() for s in sets.split(",") if s.strip())
    try:
        if json_out:
            result = run_matches(specs, games=games, players=players, seed=seed, sets=set_list,
                                 ruleset=ruleset, jobs=jobs, think=think, max_rounds=max_rounds, engine=engine,
                                 leaders=leaders, backend=backend, address=address)
        else:
            columns = (TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TimeRemainingColumn())
            with Progress(*columns, console=console, transient=True) as bar:    # gone when done or refused
                task = bar.add_task("games", total=games)
                result = run_matches(specs, games=games, players=players, seed=seed, sets=set_list,
                                     ruleset=ruleset, jobs=jobs, think=think, max_rounds=max_rounds,
                                     engine=engine, leaders=leaders, backend=backend, address=address,
                                     progress=lambda n: bar.update(task, completed=n))
    except (ValueError, RuntimeError) as exc:   # RuntimeError: no native core, no Ray cluster
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if plot:
        from ..bots.plot import plot_results
        try:
            plot_results(result, plot)
        except (RuntimeError, OSError) as exc:
            console.print(f"[red]error:[/red] cannot write the plot: {exc}")
            raise typer.Exit(1) from None
    if json_out:
        out = dict(result)
        if not timing:
            out.pop("timing")
        typer.echo(json.dumps(out))
        return
    _print_summary(console, result)
    if plot:
        console.print(f"Plot written to {plot}")


def _print_summary(console: Console, r: dict) -> None:
    table = Table(title=f"{r['games']} games, {r['players']} players, {'+'.join(r['sets'])}"
                        f"{' with leaders' if r.get('leaders') else ''}, {r['ruleset']} rules, seed {r['seed']}")
    for col, just in (("bot", "left"), ("wins", "right"), ("win %", "right"), ("95% CI", "right"),
                      ("score", "right"), ("sd", "right"), ("margin", "right"), ("ms/dec", "right")):
        table.add_column(col, justify=just, no_wrap=True)
    for lb in r["bots"]:
        lo, hi = r["win_rate_ci95"][lb]
        ms = r["timing"]["bot_ms_per_decision"][lb]
        table.add_row(lb, str(r["wins"][lb]), f"{100 * r['win_rate'][lb]:.1f}%",
                      f"{100 * lo:.1f}-{100 * hi:.1f}", f"{r['scores'][lb]['mean']:.1f}",
                      f"{r['scores'][lb]['sd']:.1f}", f"{r['margin'][lb]['mean']:+.1f}",
                      f"{ms:.2f}" if ms is not None else "-")
    console.print(table)
    rd = r["rounds"]
    t = r["timing"]
    console.print(f"Ties (shared wins): {r['ties']}.  Game length: {rd['mean']:.1f} rounds "
                  f"(sd {rd['sd']:.1f}, {rd['min']}-{rd['max']}).  First seat won {r['first_seat_wins']:g} "
                  f"of {r['games']}.")
    if r.get("unfinished"):
        console.print(f"[yellow]{r['unfinished']} game(s) reached the round limit and were scored as "
                      f"they stood.[/yellow]")
    where = "on Ray" if t.get("backend") == "ray" else f"with {t['jobs']} job(s)"
    console.print(f"{t['seconds']:.1f} s {where}: {t['games_per_second']:.2f} games/s, "
                  f"{t['decisions_per_second']:.0f} decisions/s.")
