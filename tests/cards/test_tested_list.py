"""The ``tested`` flag of the catalogue (``mysticvale cards --json``) is derived, not claimed.

``mysticvale/cards/data/tested.toml`` lists the cards with abilities that scenario tests
exercise; tests declare what they exercise with ``@exercises("Card Name")``
(tests/exercised.py).  This test reads those declarations from every test file and checks
that the list is exactly the declared cards that have abilities, so a card is reported
tested only while a test really exercises it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mysticvale.cards.catalogue import builtin_set
from mysticvale.cards import report
from mysticvale.cards.report import available_sets, catalogue_rows

TESTS = Path(__file__).resolve().parents[1]


def declared() -> dict[str, list[str]]:
    """Card name -> test functions declaring it (parsed, so comments do not count)."""
    out: dict[str, list[str]] = {}
    for path in TESTS.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
                continue
            for dec in node.decorator_list:
                if isinstance(dec, ast.Call) and getattr(dec.func, "id", None) == "exercises":
                    for arg in dec.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            out.setdefault(arg.value, []).append(f"{path.name}::{node.name}")
    return out


def _with_abilities() -> set[str]:
    names = set()
    for s in available_sets():
        sd = builtin_set(s)
        names |= {t.name for t in sd.advancements if t.abilities}
        names |= {v.name for v in sd.vales if v.abilities}
        names |= {ld.name for ld in sd.leaders}   # leaders (Twilight Garden) all have abilities
    return names


def test_tested_list_matches_the_declared_scenario_tests():
    decl = declared()
    unknown = set(decl) - _with_abilities()
    assert not unknown, f"tests declare cards that have no abilities in the catalogue: {sorted(unknown)}"
    assert report.tested_names() == set(decl), (
        f"update mysticvale/cards/data/tested.toml: missing {sorted(set(decl) - report.tested_names())}, "
        f"not exercised {sorted(report.tested_names() - set(decl))}")


def test_every_vale_of_magic_card_with_an_ability_is_tested():
    rows = [r for r in catalogue_rows(["vale_of_magic"]) if r["abilities"]]
    assert rows
    untested = [r["name"] for r in rows if not r["tested"]]
    assert not untested


def test_the_declarations_come_from_real_test_functions():
    decl = declared()
    assert "Hatchery" in decl and len(decl["Hatchery"]) >= 3
