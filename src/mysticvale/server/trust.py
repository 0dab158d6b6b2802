"""Text that people can trust: what counts as visible, and when two names look alike.

Names and chat messages are shown to other people, so the server refuses text that could hide,
reorder or impersonate:

* **invisible text**: a name or a message needs a visible letter, digit (or, for a message, any
  visible sign).  Fillers that render as blank space (Hangul fillers U+3164, U+115F, U+1160,
  U+FFA0, the blank Braille pattern U+2800, ...) do not count, and neither do combining marks;
* **format characters**: bidi overrides, embeddings and isolates (U+202A..U+202E,
  U+2066..U+2069), zero-width characters and every other character of Unicode's format, control,
  private-use or unassigned categories, and the default-ignorable characters that are not of those
  categories (variation selectors, the combining grapheme joiner, the fillers above);
* **lone or stacked combining marks**: a mark must follow a base character, and at most
  :data:`MAX_MARKS` marks may sit on one (after NFC, where ``é`` is one character), so no
  "Zalgo" text climbs over the lines around it.

Two names are the same name when their :func:`name_key` is equal: Unicode compatibility folding
(NFKC, so full-width ``Ａｎｎａ`` is ``Anna``), case folding, and the confusables *skeleton* of
Unicode's security mechanisms (UTS #39), so that Cyrillic ``Аnna`` is ``Anna`` too.  The
confusables data comes from the ``confusable_homoglyphs`` package (Unicode's ``confusables.txt``).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import unicodedata
from pathlib import Path

#: Most combining marks on one base character (two covers Vietnamese and the Indic scripts).
MAX_MARKS = 2

#: Default-ignorable code points (Unicode's DerivedCoreProperties) whose category is not Cf/Cc/Cn,
#: and blank characters that render as nothing: categories alone do not catch them.
BLANKS = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0x180B, 0x180C, 0x180D, 0x180F]
    + list(range(0xFE00, 0xFE10)) + list(range(0xE0100, 0xE01F0)))
#: Categories never allowed: controls, format (bidi controls, zero-width ...), surrogates,
#: private use, unassigned, line and paragraph separators.
FORBIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


class Untrusted(ValueError):
    """Text that others could not trust; ``reason`` names the rule (a key of the client's message
    files, ``refusal.<reason>``), the message says it in English."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


#: Characters that join or style emoji (zero-width joiner, text and emoji presentation selectors):
#: allowed in chat right after a visible character, as in "❤️" or a family emoji.
EMOJI_JOINERS = frozenset([0x200D, 0xFE0E, 0xFE0F])


def check_characters(text: str, *, allow: str = "", what: str = "a name", emoji: bool = False) -> None:
    """:class:`Untrusted` if ``text`` holds a forbidden, blank or bidi character (``allow``: extra
    characters that are fine, such as line breaks in a chat message), or a lone or stacked mark.
    ``emoji``: the joiners of emoji sequences are fine after a visible character."""
    marks = 0
    base = False
    for ch in text:
        if ch in allow:
            marks, base = 0, False
            continue
        cp = ord(ch)
        if emoji and cp in EMOJI_JOINERS and base:
            continue
        if cp in BIDI_CONTROLS:
            raise Untrusted("bidi", f"{what} cannot contain characters that change the direction of text (U+{cp:04X})")
        if unicodedata.category(ch) in FORBIDDEN or cp in BLANKS:
            raise Untrusted("invisible", f"{what} cannot contain invisible or control characters (U+{cp:04X})")
        if _is_mark(ch):
            if not base:
                raise Untrusted("marks", f"{what} cannot start a word with a combining mark (U+{cp:04X})")
            marks += 1
            if marks > MAX_MARKS:
                raise Untrusted("marks", f"{what} cannot stack more than {MAX_MARKS} combining marks on one letter")
        else:
            marks = 0
            base = not ch.isspace()


def has_visible(text: str, *, letters_only: bool) -> bool:
    """Whether ``text`` shows something: a letter or digit (``letters_only``), or else any
    character that is neither space, mark nor blank."""
    for ch in text:
        if ord(ch) in BLANKS or ch.isspace() or _is_mark(ch):
            continue
        cat = unicodedata.category(ch)
        if cat in FORBIDDEN:
            continue
        if not letters_only or cat[0] in "LN":
            return True
    return False


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: one representative of its class of look-alikes
    (characters confused with a sequence, such as ``m`` with ``rn``, map to that sequence)."""
    # the package's data file, read without importing the package (which loads all its data at once)
    spec = importlib.util.find_spec("confusable_homoglyphs")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusable_homoglyphs package is missing (pip install 'mysticvale[server]')")
    folder = Path(next(iter(spec.submodule_search_locations)))
    data = json.loads((folder / "confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            # the representative: an ASCII character if the class has one, else the lowest
            keep, drop = sorted((ra, rb), key=lambda c: (not c.isascii(), c))
            parent[drop] = keep

    sequences: dict[str, str] = {}
    for ch, glyphs in data.items():
        for g in glyphs:
            target = "".join(c for c in g["c"] if ord(c) not in BIDI_CONTROLS)
            if len(target) == 1:
                union(ch, target)
            elif target and len(ch) == 1:
                sequences[ch] = target          # a character that looks like a sequence
    out = {c: find(c) for c in parent}
    for ch, seq in sequences.items():
        if ch not in out or out[ch] == ch:
            out[ch] = seq
    return out


@functools.lru_cache(maxsize=65536)
def skeleton(text: str) -> str:
    """The confusables skeleton of ``text`` (UTS #39: decompose, map each character to its
    prototype, decompose again): two strings that look alike have the same skeleton."""
    protos = _prototypes()
    out = unicodedata.normalize("NFD", text)
    for _ in range(3):                          # a sequence's characters may have prototypes too
        mapped = "".join(protos.get(c, c) for c in out)
        mapped = unicodedata.normalize("NFD", mapped)
        if mapped == out:
            break
        out = mapped
    return out


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """What two names must differ in: compatibility-folded (NFKC), case-folded, spaces removed
    and reduced to their confusables skeleton."""
    def fold(text: str) -> str:
        return "".join(unicodedata.normalize("NFKC", text).casefold().split())

    # Skeletons keep case apart (``l`` looks like ``I``, ``o`` like ``0`` only in upper case), so
    # the name is reduced once as written and once in capitals.
    once = fold(skeleton(fold(name)))
    return fold(skeleton(fold(skeleton(once.upper()))))


def is_mixed_script(text: str) -> bool:
    """Whether ``text`` mixes letters of several scripts (Common and Inherited characters, such as
    digits and hyphens, go with any), by the Unicode script data of ``confusable_homoglyphs``."""
    from confusable_homoglyphs import categories

    scripts = {categories.alias(ch) for ch in text if ch.isalpha()}
    return len(scripts - {"COMMON", "INHERITED"}) > 1
