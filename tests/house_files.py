"""House-cards files for tests (issue 21): the shipped base file with a value changed."""

from __future__ import annotations

from mysticvale.cards.catalogue import builtin_path

#: The shipped base set's card file, as a host would start from it.
BASE = builtin_path("base").read_text(encoding="utf-8")


def with_value(text: str, card: str, field: str, value: str) -> tuple[str, int]:
    """``text`` with ``field = value`` in the table of ``card``; (new text, the line of its name)."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f'name = "{card}"')
    for i in range(at, len(lines)):
        if lines[i].startswith(f"{field} ="):
            lines[i] = f"{field} = {value}"
            return "\n".join(lines) + "\n", at + 1
    raise AssertionError(f"{card} has no {field}")
