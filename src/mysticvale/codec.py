"""Numbers for research frameworks: a fixed integer action space and observation tensors.

Reinforcement-learning and search libraries (OpenSpiel, PettingZoo, ...) want every action
as an integer in a fixed range and every observation as a fixed-size array of numbers.
This module provides both, on top of the engine's public API only.

Action space
============
Every action the engine can ever offer maps to exactly one integer in
``range(ACTION_SPACE_SIZE)`` and back::

    >>> from mysticvale import codec
    >>> codec.encode("push"), codec.decode(codec.encode("buy 1.1 on #7"))
    (0, Action('buy 1.1 on #7'))

The space is the concatenation of the blocks of :data:`GRAMMAR`, a table of notation
forms: a verb followed by argument *slots*.  A slot is a literal word (``on``) or a finite
domain of words (:data:`DOMAINS`): a block's size is the product of its domains' sizes and
an action's number is the block's offset plus the mixed-radix number of its arguments
(first argument most significant).  The domains are bounded by the game's maxima:

==================  =======================================================  =======
domain              words                                                    size
==================  =======================================================  =======
``card``            ``#0`` ... ``#79``: card ids (4 players x 20 cards; a       80
                    card taken from another player keeps its id)
``market``          ``1.1`` ... ``3.3`` (level.position in the commons) and     12
                    ``soil.top``, ``soil.middle``, ``soil.bottom``
``vale_market``     ``1.1`` ... ``2.4`` (level.position of the vale rows)        8
``vale``            ``vale.1`` ... ``vale.64``: a position among your vales      64
``card_ability``    ``#C.L`` or ``#C.L.K``: ability K (2..3) of layer L          1440
                    (1..6) of card C; ``#C.L`` is ability 1
``vale_ability``    ``vale.P`` or ``vale.P.K``: ability K of your P-th vale      192
``seat``            ``p1`` ... ``p4``: a player                                   4
``supply_deck``     ``adv.1`` ... ``adv.3``: top of an advancement supply deck    3
``leader``          the 8 leaders of Twilight Garden (``kojen_and_khan``, ...)    8
==================  =======================================================  =======

:func:`action_space_table` lists every block with its offset (the documented layout);
``python -m mysticvale.codec`` prints it.  New notation forms are appended at the end of
:data:`GRAMMAR`, so the numbers of existing forms never change.  Anything outside the
space raises :class:`CodecError` naming the verb forms that exist, so an engine change that
adds a verb or a new argument form fails loudly (the adapter tests encode every legal
action of many random games) instead of being dropped silently.

Observation tensor
==================
:class:`ObservationEncoder` turns ``game.observe(seat)`` (and nothing else, so it cannot
leak hidden information) into a flat ``float32`` vector.  Its layout is a list of named
sections (:meth:`ObservationEncoder.layout`, printed by ``python -m mysticvale.codec
--observation``): global facts, the turn, the open decision, the leaders dealt, each
seat's public counts and the symbol totals over every card it owns, the supply and the
commons, a table with one row per card id and one with one row per vale id.  Seats are
*relative to the viewer* (row 0 is the viewer, row 1 the next player in turn order, ...),
and absent seats are zero rows.  Every card a player owns is public (its row holds its
make-up and ``owned_<seat>``), but where it is only when the viewer may know: the field,
the on-deck card, the cards set aside, and the viewer's own deck and discard pile.  A
leader another player has never shown is a row with only ``owned_<seat>`` and
``leader_unseen``; vales the viewer cannot see and card ids nobody owns are zero rows.
Values are raw counts and 0/1 flags (not normalised).  Card and vale identities are
one-hot columns over the advancement and vale names of the game's catalogue (sorted by
name, plus an ``(other)`` column), so the tensor size depends on the card sets chosen.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .engine.actions import Action
from .errors import MysticValeError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .engine.game import Game

# -- bounds ------------------------------------------------------------------------------
MAX_PLAYERS = 4
CARDS_PER_DECK = 20          # 9 Cursed Land, 3 Fertile Soil, 8 blank (file 000, Setup)
#: Card ids are global and never change owner with their card, so 80 ids cover every
#: card, including cards taken from another player's field (Le Que).
MAX_CARDS = MAX_PLAYERS * CARDS_PER_DECK
#: Layers a card may carry: its printed starting advancement, one per slot, and eclipse
#: advancements covered by others (file 003) -- 6 is more than any legal card reaches.
MAX_LAYERS = 6
#: Abilities on one advancement layer (Le Que has two Harvest abilities).
MAX_ABILITIES = 3
#: Vales one player may own: more than the vale decks of any game hold for one player in
#: practice (random play of the base game peaks near 20).
MAX_VALES = 64
COMMONS_LEVELS, COMMONS_PER_LEVEL = 3, 3
VALE_LEVELS, VALES_PER_LEVEL = 2, 4
SOIL_SLOTS = ("top", "middle", "bottom")
#: The eight leaders of Twilight Garden (file 003, Components and Leaders), by the word
#: that names them in actions (``cards.catalogue.leader_slug``).
LEADERS = ("althena", "hectoro", "kojen_and_khan", "le_que", "sorcel", "boeglebee", "truffta", "wayalieh")


class CodecError(MysticValeError, ValueError):
    """An action or number outside the fixed action space (or not in canonical form)."""


# -- domains -----------------------------------------------------------------------------
class Domain:
    """A finite, ordered set of argument words; ``index(word)`` is its position."""

    __slots__ = ("name", "words", "_index", "doc")

    def __init__(self, name: str, words: Iterable[str], doc: str) -> None:
        self.name = name
        self.words: tuple[str, ...] = tuple(words)
        self._index = {w: i for i, w in enumerate(self.words)}
        if len(self._index) != len(self.words):
            raise ValueError(f"domain {name!r} lists a word twice")
        self.doc = doc

    @property
    def size(self) -> int:
        return len(self.words)

    def index(self, word: str) -> int | None:
        return self._index.get(word)

    def __repr__(self) -> str:
        return f"<Domain {self.name} ({self.size} words)>"


def _card_ability_words() -> list[str]:
    out = []
    for c in range(MAX_CARDS):
        for layer in range(1, MAX_LAYERS + 1):
            out.append(f"#{c}.{layer}")
            out.extend(f"#{c}.{layer}.{k}" for k in range(2, MAX_ABILITIES + 1))
    return out


def _vale_ability_words() -> list[str]:
    out = []
    for p in range(1, MAX_VALES + 1):
        out.append(f"vale.{p}")
        out.extend(f"vale.{p}.{k}" for k in range(2, MAX_ABILITIES + 1))
    return out


DOMAINS: dict[str, Domain] = {d.name: d for d in (
    Domain("card", (f"#{c}" for c in range(MAX_CARDS)), "a card id"),
    Domain("market", [f"{lv}.{pos}" for lv in range(1, COMMONS_LEVELS + 1)
                      for pos in range(1, COMMONS_PER_LEVEL + 1)]
           + [f"soil.{s}" for s in SOIL_SLOTS], "an advancement of the commons or a Fertile Soil slot"),
    Domain("vale_market", (f"{lv}.{pos}" for lv in range(1, VALE_LEVELS + 1)
                           for pos in range(1, VALES_PER_LEVEL + 1)), "a vale of the vale rows"),
    Domain("vale", (f"vale.{p}" for p in range(1, MAX_VALES + 1)), "a position among your vales"),
    Domain("card_ability", _card_ability_words(), "an ability of a card layer"),
    Domain("vale_ability", _vale_ability_words(), "an ability of one of your vales"),
    Domain("seat", (f"p{s}" for s in range(1, MAX_PLAYERS + 1)), "a player"),
    Domain("supply_deck", (f"adv.{lv}" for lv in range(1, COMMONS_LEVELS + 1)),
           "the top card of an advancement supply deck"),
    Domain("leader", LEADERS, "a leader, by its action word"),
)}


# -- the grammar -------------------------------------------------------------------------
@dataclass(frozen=True)
class Form:
    """One notation form: a verb and its argument slots (domain names, or ``=word`` for a
    literal word)."""

    verb: str
    slots: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [self.verb] + [s[1:] if s.startswith("=") else f"<{s}>" for s in self.slots]
        return " ".join(parts)

    @property
    def size(self) -> int:
        n = 1
        for s in self.slots:
            if not s.startswith("="):
                n *= DOMAINS[s].size
        return n


#: Every notation form of the engine, in action-number order.  Append new forms at the
#: end: the numbers of the existing forms then stay the same.
GRAMMAR: tuple[Form, ...] = (
    Form("push"), Form("pass"),                                   # Planting
    Form("token"), Form("trade"), Form("finish"),                 # Harvest
    Form("buy", ("market",)), Form("buy", ("market", "=on", "card")),
    Form("vale", ("vale_market",)),
    Form("use", ("card_ability",)), Form("use", ("vale_ability",)),
    Form("sleeve", ("card",)),                                    # Discard phase
    Form("discard", ("card",)), Form("keep"), Form("skip"),       # answers to abilities
    Form("resolve", ("card_ability",)), Form("resolve", ("vale_ability",)),
    Form("spoil"), Form("guard", ("card_ability",)), Form("guard", ("vale", "card")),
    Form("keep", ("card",)), Form("order", ("card",)),
    Form("choose", ("card",)), Form("choose", ("=curses",)), Form("choose", ("=vp",)),
    Form("choose", ("leader",)),
    Form("take", ("card",)), Form("take", ("vale",)), Form("take", ("=vale",)),
    Form("take", ("supply_deck",)),
    Form("give", ("card",)), Form("give", ("=vp",)), Form("give", ("vale", "seat")),
    Form("upgrade", ("card",)),                                   # leaders (Twilight Garden)
    Form("stop"),                                                 # Prep (German rules)
    Form("reveal"),                                               # after When Played (finish_turn)
)


class ActionSpace:
    """The action numbering built from a grammar (the module-level functions use
    :data:`SPACE`, built from :data:`GRAMMAR`)."""

    def __init__(self, grammar: Sequence[Form]) -> None:
        self.grammar = tuple(grammar)
        self.offsets: list[int] = []
        total = 0
        by_shape: dict[tuple[str, int], list[int]] = {}
        for i, form in enumerate(self.grammar):
            for s in form.slots:
                if not s.startswith("=") and s not in DOMAINS:
                    raise ValueError(f"form {form}: unknown domain {s!r}")
            self.offsets.append(total)
            total += form.size
            by_shape.setdefault((form.verb, len(form.slots)), []).append(i)
        self.size = total
        self._by_shape = by_shape
        self._verbs = sorted({f.verb for f in self.grammar})

    # -- notation -> number ----------------------------------------------------------------
    def encode(self, action: Action | str) -> int:
        """The number of an action (or its notation); :class:`CodecError` if outside."""
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise CodecError(f"expected an Action or its notation, not {type(action).__name__}")
        forms = self._by_shape.get((action.verb, len(action.args)))
        if forms is None:
            raise CodecError(self._outside(action, "no notation form has this verb and number of words"))
        for fi in forms:
            form = self.grammar[fi]
            number = 0
            for slot, word in zip(form.slots, action.args):
                if slot.startswith("="):
                    if word != slot[1:]:
                        break
                    continue
                dom = DOMAINS[slot]
                k = dom.index(word)
                if k is None:
                    break
                number = number * dom.size + k
            else:
                return self.offsets[fi] + number
        raise CodecError(self._outside(action, "its words fit none of the verb's forms"))

    def _outside(self, action: Action, why: str) -> str:
        forms = [str(f) for f in self.grammar if f.verb == action.verb]
        known = f"; forms of {action.verb!r}: {', '.join(forms)}" if forms else \
            f"; the codec knows the verbs {', '.join(self._verbs)}"
        return (f"action {str(action)!r} is outside the fixed action space ({why}){known}. "
                f"A new notation form needs a new entry at the end of mysticvale.codec.GRAMMAR.")

    # -- number -> notation ----------------------------------------------------------------
    def decode(self, number: int) -> Action:
        """The action with this number; :class:`CodecError` if out of range."""
        if isinstance(number, bool) or not hasattr(number, "__index__"):
            raise CodecError(f"an action number must be an integer, not {number!r}")
        number = int(number)
        if not 0 <= number < self.size:
            raise CodecError(f"action number {number} is outside the action space 0..{self.size - 1}")
        fi = bisect.bisect_right(self.offsets, number) - 1
        form = self.grammar[fi]
        rest = number - self.offsets[fi]
        words: list[str] = []
        for slot in reversed(form.slots):
            if slot.startswith("="):
                words.append(slot[1:])
                continue
            dom = DOMAINS[slot]
            rest, k = divmod(rest, dom.size)
            words.append(dom.words[k])
        return Action(form.verb, tuple(reversed(words)))

    def table(self) -> list[dict[str, Any]]:
        """Every block of the layout: form, first and last number, size."""
        return [{"form": str(f), "first": off, "last": off + f.size - 1, "size": f.size}
                for f, off in zip(self.grammar, self.offsets)]


SPACE = ActionSpace(GRAMMAR)
#: Number of distinct actions: every action number is in ``range(ACTION_SPACE_SIZE)``.
ACTION_SPACE_SIZE = SPACE.size


def encode(action: Action | str) -> int:
    """The integer of an action or of its notation (:class:`CodecError` if outside the space)."""
    return SPACE.encode(action)


def decode(number: int) -> Action:
    """The action of an integer of ``range(ACTION_SPACE_SIZE)``."""
    return SPACE.decode(number)


def action_space_table() -> list[dict[str, Any]]:
    """The documented layout: one row per notation form with its range of numbers."""
    return SPACE.table()


def legal_ids(game: "Game") -> list[int]:
    """The numbers of the legal actions, ascending (empty when the game is over)."""
    return sorted(SPACE.encode(a) for a in game.legal_actions())


def legal_mask(game: "Game", seat: int | None = None) -> "np.ndarray":
    """A 0/1 ``int8`` array of length ``ACTION_SPACE_SIZE``, 1 at each legal action.

    With ``seat``, the mask is all zeros unless that seat must act now.
    """
    import numpy as np

    mask = np.zeros(ACTION_SPACE_SIZE, dtype=np.int8)
    if seat is None or game.current_player == seat:
        ids = legal_ids(game)
        if ids:
            mask[ids] = 1
    return mask


# -- observation tensor ------------------------------------------------------------------
SYMBOL_NAMES = ("mana", "growth", "decay", "vp", "animal", "forest", "sky", "wild", "guardian", "curse")
PHASE_NAMES = ("planting", "harvest", "discard", "prep", "over")
SPIRIT_NAMES = ("animal", "forest", "sky", "wild")
COST_NAMES = ("animal", "forest", "sky", "any")
OTHER = "(other)"


#: Every key of ``observe()`` the encoder knows, per part: encoded, or left out on
#: purpose (texts and names, whose identity columns stand for them; the seat and turn
#: player, implied by the seat rotation; the Harvest ``prices``, which the action mask and
#: the costs imply; the turn's ``used`` abilities, which the action mask implies; a card's
#: ``note``, ``stand_in``, ``provisional`` and ``legendary``, fixed by the card's identity).  :func:`unknown_observation_keys` reports anything else, so a new
#: observation field fails a test instead of being dropped silently.
OBSERVATION_KEYS: dict[str, frozenset[str]] = {
    "observation": frozenset({
        "viewer", "ruleset", "sets", "round", "turn_number", "phase", "current_player",
        "acting_player", "first_player", "vp_pool", "vp_reserve_taken", "end_triggered", "over",
        "commons", "fertile_soil", "fertile_soil_cost", "advancement_decks", "vale_rows",
        "vale_decks", "players", "turn", "pending", "scores", "winners", "seen_leaders"}),
    "player": frozenset({
        "seat", "deck_count", "discard_count", "field", "on_deck", "vp_tokens", "curse_tokens",
        "mana_token_active", "star", "vales", "decay", "owned", "owned_count", "set_aside",
        "harvest_next", "deck", "discard", "known_top", "leaders_dealt"}),
    "turn": frozenset({
        "player", "spoiled", "advancement_buys", "vale_buys", "vale_limit", "bought", "upgrades",
        "mana", "spirits", "spirits_spent", "prices", "used"}),
    "pending": frozenset({"kind", "player", "description", "cards", "leaders", "advancement", "vale"}),
    "card": frozenset({
        "id", "name", "advancements", "covered", "mana", "growth", "decay", "vp", "curse",
        "guardian", "spirits", "end_vp", "neg_vp", "abilities", "free_slots",
        "notes", "stand_ins", "provisional", "unseen_leader"}),
    "vale": frozenset({"id", "name", "level", "cost", "end_vp", "neg_vp", "text", "set", "bought_this_turn",
                       "note", "stand_in", "provisional"}),
    "advancement": frozenset({
        "label", "name", "level", "cost", "slots", "symbols", "end_vp", "neg_vp", "eclipse",
        "longwise", "text", "set", "legendary", "note", "stand_in", "provisional"}),
}


def unknown_observation_keys(obs: dict[str, Any]) -> list[str]:
    """Keys of an observation that :data:`OBSERVATION_KEYS` does not list (``part.key``)."""
    out: set[str] = set()

    def check(part: str, d: Any) -> None:
        if isinstance(d, dict):
            out.update(f"{part}.{k}" for k in d if k not in OBSERVATION_KEYS[part])

    check("observation", obs)
    check("turn", obs.get("turn"))
    pd = obs.get("pending")
    check("pending", pd)
    if pd:
        check("advancement", pd.get("advancement"))
        check("vale", pd.get("vale"))
        for c in pd.get("cards") or ():
            check("card", c)
    for pl in obs.get("players", ()):
        check("player", pl)
        for key in ("field", "deck", "discard", "set_aside", "owned"):
            for c in pl.get(key) or ():
                check("card", c)
        check("card", pl.get("on_deck"))
        for v in pl.get("vales", ()):
            check("vale", v)
    for row in (obs.get("commons") or {}).values():
        for cp in row:
            check("advancement", cp)
    for row in (obs.get("vale_rows") or {}).values():
        for v in row:
            check("vale", v)
    return sorted(out)


@dataclass(frozen=True)
class Section:
    """A named, contiguous part of the observation vector: ``rows`` x ``columns``."""

    name: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    offset: int

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), len(self.columns))

    @property
    def size(self) -> int:
        return len(self.rows) * len(self.columns)


def _rel_names(prefix: str) -> list[str]:
    return [f"{prefix}_{r}" for r in ("me", "next", "next2", "next3")]


class ObservationEncoder:
    """Fixed-size numeric encoding of ``observe(seat)`` for one game configuration.

    ``ObservationEncoder(sets)`` builds the layout for those card sets (the catalogue's
    advancement and vale names become one-hot columns); ``encode(observation)`` returns a
    ``float32`` vector of length :attr:`size`; :meth:`sections` gives named views.
    """

    #: Bounds of every value (counts are far below; a few scores may be negative).
    LOW, HIGH = -1_000_000.0, 1_000_000.0

    def __init__(self, sets: Iterable[str] = ("base",), catalogue: Any = None) -> None:
        from .cards.catalogue import load_catalogue
        from .engine import game as _game  # noqa: F401  (registers decisions and effects)
        from .engine.registry import DECISIONS
        from .engine.rulesets import RULESETS

        if isinstance(sets, str):
            sets = (sets,)
        cat = catalogue if catalogue is not None else load_catalogue(tuple(sets))
        self.sets = tuple(cat.sets)
        self.adv_names = tuple(sorted(cat.advancements)) + (OTHER,)
        self.vale_names = tuple(sorted(cat.vales)) + (OTHER,)
        self._adv_col = {n: i for i, n in enumerate(self.adv_names)}
        self._vale_col = {n: i for i, n in enumerate(self.vale_names)}
        self.n_vales = len(cat.supply_vales(1)) + len(cat.supply_vales(2))
        self.rulesets = tuple(sorted(RULESETS))
        self.decisions = tuple(sorted(DECISIONS)) + (OTHER,)

        game_cols = (
            [f"viewer_seat_{s + 1}" for s in range(MAX_PLAYERS)]
            + [f"players_{n}" for n in range(2, MAX_PLAYERS + 1)]
            + [f"ruleset_{r}" for r in self.rulesets]
            + [f"set_{s}" for s in ("base", "vale_of_magic", "twilight_garden")]
            + ["round", "turn_number"]
            + [f"phase_{p}" for p in PHASE_NAMES]
            + _rel_names("current") + _rel_names("acting") + _rel_names("first")
            + ["i_must_act", "vp_pool", "vp_reserve_taken", "end_triggered", "over"]
        )
        turn_cols = (
            ["mana"] + [f"spirit_{s}" for s in SPIRIT_NAMES] + [f"spent_{s}" for s in COST_NAMES]
            + ["advancement_buys", "vale_buys", "vale_limit", "bought", "spoiled", "upgrades"]
        )
        pending_cols = ["open"] + [f"kind_{k}" for k in self.decisions] + _rel_names("player")
        player_cols = [
            "present", "deck_count", "discard_count", "vp_tokens", "curse_tokens",
            "mana_token_active", "star", "decay", "owned_count", "field_count", "on_deck",
            "vales", "set_aside", "harvest_next", "final_score", "winner",
        ] + [f"owned_{s}" for s in SYMBOL_NAMES] + [
            "owned_end_vp", "owned_neg_vp", "owned_abilities", "owned_unseen_leaders",
        ]
        supply_cols = (
            [f"soil_{s}" for s in SOIL_SLOTS] + ["soil_cost"]
            + [f"advancement_deck_{lv}" for lv in range(1, COMMONS_LEVELS + 1)]
            + [f"vale_deck_{lv}" for lv in range(1, VALE_LEVELS + 1)]
        )
        commons_cols = (
            ["present", "level", "cost"] + [f"slot_{s}" for s in SOIL_SLOTS] + list(SYMBOL_NAMES)
            + ["end_vp", "neg_vp", "eclipse", "longwise"] + [f"type:{n}" for n in self.adv_names]
        )
        card_cols = (
            _rel_names("field") + _rel_names("on_deck") + _rel_names("set_aside") + _rel_names("owned")
            + ["own_deck", "own_discard", "known_top", "top_rank", "shown_to_me", "field_position",
               "leader_seen", "leader_unseen"]
            + list(SYMBOL_NAMES) + ["end_vp", "neg_vp"] + [f"free_{s}" for s in SOIL_SLOTS]
            + ["layers", "covered", "abilities"] + [f"type:{n}" for n in self.adv_names]
        )
        vale_cols = (
            [f"row{lv}_{pos}" for lv in range(1, VALE_LEVELS + 1) for pos in range(1, VALES_PER_LEVEL + 1)]
            + _rel_names("owned") + ["owner_position", "bought_this_turn", "shown_to_me", "level"]
            + [f"cost_{c}" for c in COST_NAMES] + ["end_vp", "neg_vp"]
            + [f"type:{n}" for n in self.vale_names]
        )
        specs = [
            ("game", ("game",), game_cols),
            ("turn", ("turn",), turn_cols),
            ("pending", ("pending",), pending_cols),
            ("leaders", ("to_choose", "dealt_to_me"), [f"leader:{slug}" for slug in LEADERS]),
            ("players", tuple(_rel_names("seat")), player_cols),
            ("supply", ("supply",), supply_cols),
            ("commons", tuple(f"commons_{lv}.{pos}" for lv in range(1, COMMONS_LEVELS + 1)
                              for pos in range(1, COMMONS_PER_LEVEL + 1)), commons_cols),
            ("pending_advancement", ("advancement",), commons_cols),
            ("cards", tuple(f"#{c}" for c in range(MAX_CARDS)), card_cols),
            ("vales", tuple(f"vale_id_{v}" for v in range(self.n_vales)), vale_cols),
        ]
        self._sections: list[Section] = []
        offset = 0
        for name, rows, cols in specs:
            sec = Section(name, tuple(rows), tuple(cols), offset)
            self._sections.append(sec)
            offset += sec.size
        self.size = offset
        self._owned_cols = tuple(c for c in player_cols if c.startswith("owned_") and c != "owned_count")
        self._col = {sec.name: {c: i for i, c in enumerate(sec.columns)} for sec in self._sections}

    # -- layout ----------------------------------------------------------------------------
    def layout(self) -> list[Section]:
        """The sections in vector order (each with offset, rows and column names)."""
        return list(self._sections)

    def column(self, section: str, name: str) -> int:
        """The index of column ``name`` within the rows of ``section``."""
        try:
            return self._col[section][name]
        except KeyError:
            raise KeyError(f"no column {name!r} in section {section!r} of this layout") from None

    def sections(self, vector: "np.ndarray") -> dict[str, "np.ndarray"]:
        """Named 2-D views (rows x columns) into a vector of this layout."""
        return {s.name: vector[s.offset:s.offset + s.size].reshape(s.shape) for s in self._sections}

    def describe(self) -> str:
        """The layout as text: one line per section."""
        lines = [f"observation vector: {self.size} float32 values (sets: {', '.join(self.sets)})"]
        for s in self._sections:
            lines.append(f"  [{s.offset:>6} .. {s.offset + s.size - 1:>6}] {s.name}: "
                         f"{len(s.rows)} row(s) x {len(s.columns)} columns: "
                         f"{', '.join(s.columns[:12])}{' ...' if len(s.columns) > 12 else ''}")
        return "\n".join(lines)

    # -- encoding --------------------------------------------------------------------------
    def encode(self, obs: dict[str, Any], out: "np.ndarray | None" = None) -> "np.ndarray":
        """Encode an observation dict (``game.observe(seat)``) into a ``float32`` vector.

        A spectator's observation (viewer None) is encoded from the first player's
        point of view for the seat rotation, with no private rows.
        """
        import numpy as np

        vec = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            vec.fill(0.0)
        views = self.sections(vec)
        n = len(obs["players"])
        if not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"an observation of a {n}-player game cannot be encoded")
        viewer = obs.get("viewer")
        base = viewer if viewer is not None else 0

        def rel(seat: int | None) -> int | None:
            return None if seat is None else (seat - base) % n

        def put(section: str, row: int, col: str, value: float) -> None:
            views[section][row, self._col[section][col]] = value

        rel_suffix = ("me", "next", "next2", "next3")
        # game
        if viewer is not None:
            put("game", 0, f"viewer_seat_{viewer + 1}", 1)
        put("game", 0, f"players_{n}", 1)
        if obs["ruleset"] in self.rulesets:
            put("game", 0, f"ruleset_{obs['ruleset']}", 1)
        for s in obs["sets"]:
            col = f"set_{s}"
            if col in self._col["game"]:
                put("game", 0, col, 1)
        put("game", 0, "round", obs["round"])
        put("game", 0, "turn_number", obs["turn_number"])
        put("game", 0, f"phase_{obs['phase']}", 1)
        for key in ("current", "acting", "first"):
            r = rel(obs.get(f"{key}_player"))
            if r is not None:
                put("game", 0, f"{key}_{rel_suffix[r]}", 1)
        if viewer is not None and obs.get("acting_player") == viewer:
            put("game", 0, "i_must_act", 1)
        put("game", 0, "vp_pool", obs["vp_pool"])
        put("game", 0, "vp_reserve_taken", obs["vp_reserve_taken"])
        put("game", 0, "end_triggered", obs["end_triggered"] is not None)
        put("game", 0, "over", bool(obs["over"]))
        # turn
        t = obs["turn"]
        put("turn", 0, "mana", t.get("mana", 0))
        for s, v in (t.get("spirits") or {}).items():
            put("turn", 0, f"spirit_{s}", v)
        for s, v in (t.get("spirits_spent") or {}).items():
            put("turn", 0, f"spent_{s}", v)
        put("turn", 0, "advancement_buys", t.get("advancement_buys", 0))
        put("turn", 0, "vale_buys", t.get("vale_buys", 0))
        put("turn", 0, "vale_limit", t.get("vale_limit", 0))
        put("turn", 0, "bought", len(t.get("bought", ())))
        put("turn", 0, "spoiled", bool(t.get("spoiled")))
        put("turn", 0, "upgrades", len(t.get("upgrades") or ()))
        # pending decision
        pd = obs.get("pending")
        shown: list[dict] = []
        if pd:
            put("pending", 0, "open", 1)
            kind = pd["kind"] if pd["kind"] in self.decisions else OTHER
            put("pending", 0, f"kind_{kind}", 1)
            r = rel(pd.get("player"))
            if r is not None:
                put("pending", 0, f"player_{rel_suffix[r]}", 1)
            shown = list(pd.get("cards") or ())
            for name in pd.get("leaders") or ():
                col = f"leader:{_slug(name)}"
                if col in self._col["leaders"]:
                    put("leaders", 0, col, 1)
            if pd.get("advancement"):
                self._copy(views["pending_advancement"][0], self._col["pending_advancement"], pd["advancement"])
            if pd.get("vale"):
                self._vale(views["vales"], pd["vale"])[self._col["vales"]["shown_to_me"]] = 1
        # players, their cards and vales
        winners = set(obs.get("winners") or ())
        scores = obs.get("scores")
        cards = views["cards"]
        cc = self._col["cards"]
        for seat, pl in enumerate(obs["players"]):
            r = rel(seat)
            assert r is not None
            row = views["players"][r]
            pc = self._col["players"]
            row[pc["present"]] = 1
            for key in ("deck_count", "discard_count", "vp_tokens", "curse_tokens", "decay", "owned_count"):
                row[pc[key]] = pl.get(key, 0)
            row[pc["mana_token_active"]] = bool(pl.get("mana_token_active"))
            row[pc["star"]] = bool(pl.get("star"))
            row[pc["field_count"]] = len(pl["field"])
            row[pc["on_deck"]] = pl.get("on_deck") is not None
            row[pc["vales"]] = len(pl["vales"])
            row[pc["set_aside"]] = len(pl.get("set_aside") or ())
            row[pc["harvest_next"]] = bool(pl.get("harvest_next"))
            for card in pl.get("set_aside") or ():
                self._card(cards, cc, card)
                cards[card["id"], cc[f"set_aside_{rel_suffix[r]}"]] = 1
            # Every card the seat owns (public, with no place): its row, and the seat's
            # symbol totals over them; a leader never face up is only marked as one.
            totals = dict.fromkeys(self._owned_cols, 0.0)
            for card in pl.get("owned") or ():
                self._check_card(card["id"])
                cards[card["id"], cc[f"owned_{rel_suffix[r]}"]] = 1
                if card.get("unseen_leader"):
                    cards[card["id"], cc["leader_unseen"]] = 1
                    totals["owned_unseen_leaders"] += 1
                    continue
                self._card(cards, cc, card)
                for sym in ("mana", "growth", "decay", "vp", "curse", "guardian", "end_vp", "neg_vp"):
                    totals[f"owned_{sym}"] += card.get(sym, 0)
                for sym, v in (card.get("spirits") or {}).items():
                    totals[f"owned_{sym}"] += v
                totals["owned_abilities"] += len(card.get("abilities") or ())
            for name, v in totals.items():
                row[pc[name]] = v
            if scores:
                row[pc["final_score"]] = scores[seat]["total"]
                row[pc["winner"]] = seat in winners
            for pos, card in enumerate(pl["field"], start=1):
                self._card(cards, cc, card)
                cards[card["id"], cc[f"field_{rel_suffix[r]}"]] = 1
                cards[card["id"], cc["field_position"]] = pos
            if pl.get("on_deck") is not None:
                card = pl["on_deck"]
                self._card(cards, cc, card)
                cards[card["id"], cc[f"on_deck_{rel_suffix[r]}"]] = 1
            if seat == viewer:
                for key, col in (("deck", "own_deck"), ("discard", "own_discard")):
                    for card in pl.get(key) or ():
                        self._card(cards, cc, card)
                        cards[card["id"], cc[col]] = 1
                for name in pl.get("leaders_dealt") or ():
                    col = f"leader:{_slug(name)}"
                    if col in self._col["leaders"]:
                        put("leaders", 1, col, 1)
                known = list(pl.get("known_top") or ())
                for rank, cid in enumerate(reversed(known), start=1):
                    self._check_card(cid)
                    cards[cid, cc["known_top"]] = 1
                    cards[cid, cc["top_rank"]] = rank
            for pos, v in enumerate(pl["vales"], start=1):
                vrow = self._vale(views["vales"], v)
                vrow[self._col["vales"][f"owned_{rel_suffix[r]}"]] = 1
                vrow[self._col["vales"]["owner_position"]] = pos
                vrow[self._col["vales"]["bought_this_turn"]] = bool(v.get("bought_this_turn"))
        for card in shown:
            self._card(cards, cc, card)
            cards[card["id"], cc["shown_to_me"]] = 1
        for cid in obs.get("seen_leaders") or ():
            self._check_card(cid)
            cards[cid, cc["leader_seen"]] = 1   # which card carries a leader is public
        # supply and commons
        sup = views["supply"][0]
        sc = self._col["supply"]
        for s in SOIL_SLOTS:
            sup[sc[f"soil_{s}"]] = obs["fertile_soil"].get(s, 0)
        sup[sc["soil_cost"]] = obs.get("fertile_soil_cost", 0)
        for lv, count in obs["advancement_decks"].items():
            sup[sc[f"advancement_deck_{lv}"]] = count
        for lv, count in obs["vale_decks"].items():
            sup[sc[f"vale_deck_{lv}"]] = count
        com = views["commons"]
        kc = self._col["commons"]
        for lv in range(1, COMMONS_LEVELS + 1):
            for pos, cp in enumerate(obs["commons"].get(str(lv), ())[:COMMONS_PER_LEVEL]):
                if cp is not None:
                    self._copy(com[(lv - 1) * COMMONS_PER_LEVEL + pos], kc, cp)
        vc = self._col["vales"]
        for lv in range(1, VALE_LEVELS + 1):
            for pos, v in enumerate(obs["vale_rows"].get(str(lv), ())[:VALES_PER_LEVEL], start=1):
                if v is not None:
                    self._vale(views["vales"], v)[vc[f"row{lv}_{pos}"]] = 1
        return vec

    def _copy(self, row: "np.ndarray", kc: dict[str, int], cp: dict) -> None:
        """Write an advancement copy (a commons card, or one a decision shows)."""
        row[kc["present"]] = 1
        row[kc["level"]] = cp.get("level", 0)
        row[kc["cost"]] = cp.get("cost", 0)
        for s in cp.get("slots", ()):
            row[kc[f"slot_{s}"]] = 1
        for s, v in (cp.get("symbols") or {}).items():
            if s in kc:
                row[kc[s]] = v
        row[kc["end_vp"]] = cp.get("end_vp", 0)
        row[kc["neg_vp"]] = cp.get("neg_vp", 0)
        row[kc["eclipse"]] = bool(cp.get("eclipse"))
        row[kc["longwise"]] = bool(cp.get("longwise"))
        row[kc[f"type:{cp['name'] if cp['name'] in self._adv_col else OTHER}"]] = 1

    def _check_card(self, cid: int) -> None:
        if not 0 <= cid < MAX_CARDS:
            raise CodecError(f"card id {cid} is outside the observation's card table 0..{MAX_CARDS - 1}")

    def _card(self, cards: "np.ndarray", cc: dict[str, int], card: dict) -> None:
        """Write a card's contents (symbols, slots, identities) into its row."""
        cid = card["id"]
        self._check_card(cid)
        row = cards[cid]
        for s in ("mana", "growth", "decay", "vp", "curse", "guardian"):
            row[cc[s]] = card.get(s, 0)
        for s, v in (card.get("spirits") or {}).items():
            row[cc[s]] = v
        row[cc["end_vp"]] = card.get("end_vp", 0)
        row[cc["neg_vp"]] = card.get("neg_vp", 0)
        for s in card.get("free_slots") or ():
            row[cc[f"free_{s}"]] = 1
        labels = list(card.get("advancements") or ())
        covered = list(card.get("covered") or ())
        row[cc["layers"]] = len(labels)
        row[cc["covered"]] = len(covered)
        row[cc["abilities"]] = len(card.get("abilities") or ())
        for lab in covered:
            if lab in labels:
                labels.remove(lab)
        row[cc[f"type:{self.adv_names[0]}"]:] = 0   # the card may be written twice
        for lab in labels:
            name = lab.split("@", 1)[0]
            row[cc[f"type:{name if name in self._adv_col else OTHER}"]] += 1

    def _vale(self, vales: "np.ndarray", v: dict) -> "np.ndarray":
        vid = v["id"]
        if not 0 <= vid < self.n_vales:
            raise CodecError(f"vale id {vid} is outside the observation's vale table 0..{self.n_vales - 1}")
        row = vales[vid]
        vc = self._col["vales"]
        row[vc["level"]] = v.get("level", 0)
        for c, amount in (v.get("cost") or {}).items():
            if f"cost_{c}" in vc:
                row[vc[f"cost_{c}"]] = amount
        row[vc["end_vp"]] = v.get("end_vp", 0)
        row[vc["neg_vp"]] = v.get("neg_vp", 0)
        row[vc[f"type:{v['name'] if v['name'] in self._vale_col else OTHER}"]] = 1
        return row


def _slug(name: str) -> str:
    """A leader's action word (as ``cards.catalogue.leader_slug``)."""
    return "_".join("".join(ch for ch in w if ch.isalnum()) for w in name.lower().split())


def observation_string(game: "Game", seat: int | None) -> str:
    """The string form of an observation: ``observe(seat)`` as canonical JSON."""
    return json.dumps(game.observe(seat), sort_keys=True, separators=(",", ":"))


def _main(argv: Sequence[str] | None = None) -> None:
    """``python -m mysticvale.codec [--observation [SETS]]``: print the layouts."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--observation":
        sets = tuple(args[1].split(",")) if len(args) > 1 else ("base",)
        print(ObservationEncoder(sets).describe())  # noqa: T201  (a command-line tool)
        return
    print(f"action space: {ACTION_SPACE_SIZE} actions")  # noqa: T201
    for row in action_space_table():
        print(f"  {row['first']:>6} .. {row['last']:>6}  {row['form']}")  # noqa: T201


if __name__ == "__main__":
    _main()
