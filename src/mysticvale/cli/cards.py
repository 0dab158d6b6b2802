"""``mysticvale cards``: inspect the card catalogue, its provenance, and check a user's file.

    mysticvale cards                       a table of every card of the shipped sets
    mysticvale cards --sets vale_of_magic  only some sets (comma-separated)
    mysticvale cards --json                the same as a JSON list of objects
    mysticvale cards --report              each set against the component counts of the rules
    mysticvale cards --check my_cards.toml validate your own catalogue file (exit code 1 if bad)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..cards.report import (
    available_sets, catalogue_rows, check_file, component_report, cost_text, set_rows, slots_text,
)
from ..cards.catalogue import builtin_set

_PROV_STYLE = {"rules": "green", "public": "cyan", "provisional": "yellow"}
#: After the name of a card with a note or a stand-in (the terminal's board uses the same).
MARK = " †"


def _prov_text(prov: dict[str, str]) -> str:
    groups: dict[str, list[str]] = {}
    for field, p in prov.items():
        groups.setdefault(p, []).append(field)
    return "; ".join(f"[{_PROV_STYLE[p]}]{p}[/]: {', '.join(fs)}" for p, fs in groups.items())


def _card_table(rows: list[dict]) -> Table:
    table = Table(title="Mystic Vale card catalogue", show_lines=False, expand=False)
    for col in ("Name", "Set", "Kind", "Lvl", "Cost", "Copies", "Symbols / VP", "Ability",
                "Provenance", "Impl.", "Tested"):
        table.add_column(col, overflow="fold")
    for r in rows:
        sym = " ".join(f"{n} {k}" for k, n in r["symbols"].items())
        if r["end_vp"]:
            sym += f" +{r['end_vp']} end VP"
        if r["neg_vp"]:
            sym += f" -{r['neg_vp']} VP"
        ability = ", ".join(f"{a['trigger']}: {a['effect']}" for a in r["abilities"])
        name = escape(r["name"]) + (MARK if marked(r) else "")
        name = f"[dim]{name}[/dim]" if r["generic"] else name
        table.add_row(name, r["set"], r["kind"] + (" (soil)" if r.get("fertile_soil") else ""),
                      str(r["level"]), cost_text(r), slots_text(r), sym.strip() or "-", ability or "-",
                      _prov_text(r["provenance"]), "yes" if r["implemented"] else "[red]no[/red]",
                      "yes" if r["tested"] else "[red]no[/red]")
    return table


def marked(row: dict) -> bool:
    """A card gets the marker when something a player reads on it is ours: it is a
    stand-in, or it has a note saying what of it is ours."""
    return bool(row.get("stand_in") or row.get("note"))


def _notes(rows: list[dict]) -> Text:
    """The marked cards' notes under the table, one paragraph per distinct note."""
    by_note: dict[str, list[str]] = {}
    for r in rows:
        if marked(r):
            by_note.setdefault(r.get("note") or "A stand-in for a printed card.", []).append(r["name"])
    out = Text()
    for note, names in by_note.items():
        if out:
            out.append("\n")
        out.append(f"{MARK.strip()} {', '.join(names)}: ", style="bold")
        out.append(note)
    return out


def _report_table(rows: list[dict]) -> Table:
    table = Table(title="Catalogue against the component counts in the rules")
    for col in ("Set", "Kind", "Level", "Printed copies", "Printed types", "Types", "Copies",
                "Named", "Generic", "Status"):
        table.add_column(col)
    for r in rows:
        style = "red" if r["status"].startswith(("fewer", "copies differ")) else ""
        table.add_row(r["set"], r["kind"], str(r["level"]), str(r["printed_copies"] or "-"),
                      str(r["printed_types"] or "-"), str(r["types"]), str(r["copies"]),
                      str(r["named_types"]), str(r["generic_types"]),
                      f"[{style}]{r['status']}[/]" if style else r["status"])
    return table


def _parse_sets(sets: Optional[str]) -> tuple[str, ...]:
    if not sets:
        return available_sets()
    return tuple(s.strip() for s in sets.split(",") if s.strip())


def command(
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    check: Optional[Path] = typer.Option(None, "--check", metavar="FILE",
                                         help="Validate your own catalogue file (TOML, same format as the shipped data)."),
    report: bool = typer.Option(False, "--report", help="Compare each set with the component counts in the rules."),
    sets: Optional[str] = typer.Option(None, "--sets", help="Sets to show, comma-separated (default: all shipped)."),
) -> None:
    """Show the card catalogue with the provenance of every value, or check a catalogue file."""
    console = Console()
    if check is not None:
        sd, problems = check_file(check)
        if json_out:
            out = {"file": str(check), "ok": not problems, "problems": problems}
            if sd is not None:
                out["set"] = sd.id
                out["cards"] = set_rows(sd)
            typer.echo(json.dumps(out, indent=2))
        elif problems:
            console.print(f"[red]{check}: {len(problems)} problem(s); the file is refused whole:[/red]")
            for p in problems:
                console.print(f"  - {p}", highlight=False, markup=False)
        else:
            n = len(sd.advancements) + len(sd.vales) + len(sd.starting)
            console.print(f"[green]{check}: OK[/green] (set {sd.id!r}, {n} card types). "
                          f"Play with it: new_game(..., sets=(\"base\", \"{sd.id}\"), catalogue=\"{check}\")"
                          if sd.id != "base" else f"[green]{check}: OK[/green] (set 'base', {n} card types).",
                          highlight=False)
        raise typer.Exit(1 if problems else 0)
    try:
        chosen = _parse_sets(sets)
        if report:
            rows = [r for s in chosen for r in component_report(builtin_set(s))]
        else:
            rows = catalogue_rows(chosen)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps(rows, indent=2))
    elif report:
        console.print(_report_table(rows))
    else:
        console.print(_card_table(rows))
        notes = _notes(rows)
        if notes:
            console.print(notes)
