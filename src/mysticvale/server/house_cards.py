"""House cards: a host's own card values for one game (issue 21 item 1).

A host who owns the printed cards may load a card-values file in the catalogue format
(docs/catalogue.md) when creating a game.  It is checked here, whole, before anything is stored:

- bounded first: at most :data:`MAX_BYTES` of UTF-8 text, :data:`MAX_CARDS` card entries and
  :data:`MAX_COPIES` advancement copies (a file cannot make a game of thousands of cards), all
  counted before the file is validated; parsing a file of the largest size takes a few
  milliseconds (tests/server/test_house_cards.py measures it);
- then by the catalogue's own validator (``cards.catalogue.parse_set`` and the catalogue that
  game's sets build), whose every problem is reported with the line it is about: the line of the
  card's ``name``, of its ``[[advancement]]`` heading, or the line a TOML syntax error names.

A problem is ``{"line": N or None, "code": C, "message": M}``: ``code`` names the problems that
are ours to word (``too_large``, ``too_many_cards``, ``not_utf8``, ``wrong_set``, ``toml``, ...),
which the browser says in the page's language; ``message`` is the English text.  The catalogue
validator's own problems (code ``catalogue``) also carry ``check`` (its code), ``args`` and
``where`` (cards/problems.py), so the browser words them in the page's language too.

A game with house cards keeps the file's text in its stored configuration (``house_cards``), so
its rematch uses the same values, and its engine save carries the catalogue (``catalogue.custom``),
so a restarted server plays on with them.  :func:`differences` says which values differ from the
shipped ones, for the notice every seat sees.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from typing import Any

from ..cards.catalogue import check_sets, load_catalogue, parse_set
from ..errors import CatalogueError

#: Largest house-cards file (bytes of UTF-8).  The largest shipped set file is about 45 KB.
MAX_BYTES = 96 * 1024
#: Most card entries ([[advancement]], [[vale]], [[starting]], [[leader]] tables) in one file.
MAX_CARDS = 300
#: Most advancement and vale copies one file may put in the game (the base game has 114 + 36).
MAX_COPIES = 400


class HouseCardsError(ValueError):
    """A house-cards file refused; ``problems`` lists every problem found."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(_said(p) for p in problems))
        self.problems = problems


def _said(p: dict[str, Any]) -> str:
    return f"line {p['line']}: {p['message']}" if p.get("line") else p["message"]


def _problem(code: str, message: str, line: int | None = None, **args: Any) -> dict[str, Any]:
    return {"line": line, "code": code, "message": message, **({"args": args} if args else {})}


_HEADING = re.compile(r"^\s*\[\[\s*(advancement|vale|starting|leader)\s*\]\]")
_NAME = re.compile(r"""^\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')""")
_WHERE = re.compile(r"""^(advancement|vale|starting card|leader) (?:'([^']*)'|"([^"]*)"):""")
#: A table heading ("[set]", "[set.extra]"), not a line that goes on with an array ('["middle"],').
_TABLE = re.compile(r"""^\s*\[[^\[\]"']*\]\s*(?:#.*)?$""")
_TOML_LINE = re.compile(r"at line (\d+)")


def _lines_of(text: str) -> tuple[dict[tuple[str, str], int], dict[tuple[str, int], int], int | None]:
    """Where the file names its cards: (kind, name) -> line of ``name = ...``, (kind, n) -> line
    of the n-th heading of that kind, and the line of ``[set]``."""
    by_name: dict[tuple[str, str], int] = {}
    by_index: dict[tuple[str, int], int] = {}
    counts: dict[str, int] = {}
    kind = None
    set_line = None
    for number, line in enumerate(text.splitlines(), start=1):
        m = _HEADING.match(line)
        if m:
            kind = m.group(1)
            counts[kind] = counts.get(kind, 0) + 1
            by_index[(kind, counts[kind])] = number
            continue
        if re.match(r"^\s*\[\s*set\s*\]", line):
            set_line, kind = number, None
            continue
        if _TABLE.match(line):
            kind = None
            continue
        m = _NAME.match(line)
        if m and kind:
            by_name.setdefault((kind, m.group(1) if m.group(1) is not None else m.group(2)), number)
    return by_name, by_index, set_line


def _located(exc: CatalogueError, text: str) -> list[dict[str, Any]]:
    """The validator's problems, each with the line it is about (None: the whole file), and
    as data (``check``, ``args``, ``where``: cards/problems.py) for the page to word in its
    reader's language."""
    by_name, by_index, set_line = _lines_of(text)
    problems = exc.problems
    coded = [f.as_dict() for f in exc.found] if len(exc.found) == len(problems) else [{}] * len(problems)
    out = []
    for p, data in zip(problems, coded):
        line = None
        m = _WHERE.match(p)
        if m:
            kind = "starting" if m.group(1) == "starting card" else m.group(1)
            label = m.group(2) if m.group(2) is not None else m.group(3)
            line = by_name.get((kind, label))
            if line is None and label.startswith("#") and label[1:].isdigit():
                line = by_index.get((kind, int(label[1:])))
        elif p.startswith("[set]"):
            line = set_line
        out.append({**_problem("catalogue", p, line), **data})
    return out


def _bounds(raw_bytes: bytes) -> tuple[str, dict[str, Any]]:
    """The file's text and its TOML, once its size, encoding and number of cards are within bounds."""
    if len(raw_bytes) > MAX_BYTES:
        raise HouseCardsError([_problem("too_large", f"the file has {len(raw_bytes)} bytes; at most {MAX_BYTES} are "
                                        "accepted", size=len(raw_bytes), max=MAX_BYTES)])
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HouseCardsError([_problem("not_utf8", "the file is not UTF-8 text",
                                        raw_bytes[:exc.start].count(b"\n") + 1)]) from None
    if "\x00" in text:
        raise HouseCardsError([_problem("not_utf8", "the file is not a text file (it has NUL characters)")])
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_LINE.search(str(exc))
        raise HouseCardsError([_problem("toml", f"not valid TOML: {exc}", int(m.group(1)) if m else None)]) from None
    except RecursionError:
        raise HouseCardsError([_problem("toml", "not valid TOML: its arrays or tables are nested too deeply")]) from None
    cards = sum(len(raw.get(k, [])) if isinstance(raw.get(k), list) else 0
                for k in ("advancement", "vale", "starting", "leader"))
    if cards > MAX_CARDS:
        raise HouseCardsError([_problem("too_many_cards", f"the file has {cards} cards; at most {MAX_CARDS} are accepted",
                                        n=cards, max=MAX_CARDS)])
    copies = 0
    for k in ("advancement", "vale"):
        for card in raw.get(k, []) if isinstance(raw.get(k), list) else []:
            c = card.get("copies") if isinstance(card, dict) else None
            copies += len(c) if isinstance(c, list) else (c if isinstance(c, int) and not isinstance(c, bool) else 3)
    if copies > MAX_COPIES:
        raise HouseCardsError([_problem("too_many_copies", f"the file puts {copies} cards into the game; at most "
                                        f"{MAX_COPIES} are accepted", n=copies, max=MAX_COPIES)])
    return text, raw


def check(raw_bytes: bytes, sets: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Check a house-cards file for a game of ``sets``: ``{"set", "text", "cards"}`` (``text``, the
    file as it is stored), or :class:`HouseCardsError` with every problem, each with its line."""
    text, raw = _bounds(raw_bytes)
    try:
        sd = parse_set(text, "house cards")
    except CatalogueError as exc:
        raise HouseCardsError(_located(exc, text)) from None
    try:
        sets = check_sets(sets)
    except ValueError as exc:
        raise HouseCardsError([_problem("sets", str(exc))]) from None
    if sd.id not in sets:
        _, _, set_line = _lines_of(text)
        raise HouseCardsError([_problem("wrong_set", f"the file is for the set {sd.id!r}, which this game does not "
                                        f"play (its sets: {', '.join(sets)})", set_line, set=sd.id)])
    try:
        catalogue(text, sets)
    except CatalogueError as exc:
        raise HouseCardsError(_located(exc, text)) from None
    return {"set": sd.id, "text": text, "cards": len(sd.advancements) + len(sd.vales) + len(sd.leaders)}


def catalogue(text: str, sets: tuple[str, ...]):
    """The engine catalogue of ``sets`` with the house file ``text`` in place of its set's data."""
    fd, path = tempfile.mkstemp(prefix="house-cards-", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return load_catalogue(sets, path)
    finally:
        os.unlink(path)


def game_file(text: str):
    """A temporary file holding ``text``, for ``new_game(catalogue=...)``; the caller removes it."""
    fd, path = tempfile.mkstemp(prefix="house-cards-", suffix=".toml")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


#: The values a player sees on a card, compared by :func:`differences`.
_COMPARED = ("level", "cost", "symbols", "end_vp", "neg_vp", "text", "eclipse", "longwise")


def differences(doc: dict[str, Any], sets: tuple[str, ...]) -> list[dict[str, Any]]:
    """Which card values of the catalogue document ``doc`` (``card_catalogue.build_from``) differ
    from the shipped catalogue of ``sets``: ``{"name", "kind", "field", "shipped", "house"}``
    (``field`` "card" with shipped/house None: a card only one of them has)."""
    from .card_catalogue import build

    shipped = build(check_sets(sets))
    out: list[dict[str, Any]] = []
    for section, kind in (("types", "advancement"), ("vales", "vale")):
        ours, theirs = shipped[section], doc[section]
        for name in sorted(set(ours) | set(theirs)):
            a, b = ours.get(name), theirs.get(name)
            if a is None or b is None:
                out.append({"name": name, "kind": kind, "field": "card", "shipped": a is not None, "house": b is not None})
                continue
            for f in _COMPARED:
                if a.get(f) != b.get(f):
                    out.append({"name": name, "kind": kind, "field": f, "shipped": a.get(f), "house": b.get(f)})
        if section == "types":
            copies = {}
            for lab, name in shipped["copies"].items():
                copies.setdefault(name, [0, 0])[0] += 1
            for lab, name in doc["copies"].items():
                copies.setdefault(name, [0, 0])[1] += 1
            for name, (x, y) in sorted(copies.items()):
                if x != y and x and y:
                    out.append({"name": name, "kind": kind, "field": "copies", "shipped": x, "house": y})
    return out

