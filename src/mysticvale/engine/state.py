"""The game state: plain data (lists of ints, small records), cloned and serialised exactly.

Cards are identified by an integer id (``cards[id]`` is the tuple of advancement copies
sleeved on it).  Zones hold card ids; a deck's top card is the *last* element of its list,
and so is the top of a discard pile and of each supply deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field as _f
from typing import Any

from .catalogue import Catalogue
from .rng import Rng
from .rulesets import RuleSet

PHASES = ("planting", "harvest", "discard", "prep", "over")


@dataclass(slots=True)
class Player:
    """Everything one seat owns."""

    deck: list[int] = _f(default_factory=list)
    on_deck: int | None = None
    field: list[int] = _f(default_factory=list)
    discard: list[int] = _f(default_factory=list)
    vales: list[int] = _f(default_factory=list)       # vale ids, in the order bought
    vp_tokens: int = 0
    curse_tokens: int = 0
    mana_token_active: bool = False
    star: bool = False
    #: Cards on top of the deck whose order this player knows (top last), e.g. after
    #: Wood Sprite Hoard put cards back "in the same order".
    known_top: list[int] = _f(default_factory=list)
    #: Spoil guards used since the last Prep phase began (once per turn; a use during Prep
    #: counts for the next Planting phase, file 000 Peacekeeper Druid).
    guards_used: list[str] = _f(default_factory=list)
    #: Cards whose non-Cursed-Land decay Aether Tree cancelled, until the next Prep phase.
    aether_cards: list[int] = _f(default_factory=list)
    #: Vale ids removed from the game (Aether Tree is discarded to the box when used).
    removed_vales: list[int] = _f(default_factory=list)
    #: Cards revealed and set aside while an ability resolves (Lore Keeper, file 003).
    aside: list[int] = _f(default_factory=list)
    #: Hectoro's upgraded side was played in Prep: nothing more is played or spoiled and
    #: the next turn begins with the Harvest phase (file 003).
    harvest_next: bool = False
    #: The two leaders dealt to this player at setup (file 003), known only to this player.
    dealt_leaders: list[str] = _f(default_factory=list)
    #: Cards this player took out of the deck without showing them to the other seats (a
    #: search, a private look: Cleansing Rain, Calm Weather), until they are next face up.
    #: Those in the discard pile are cards the others know went there, not which ones
    #: (file 000: "You may not look at cards in other players' discard piles").
    taken_unseen: list[int] = _f(default_factory=list)

    def copy(self) -> "Player":
        return Player(
            list(self.deck), self.on_deck, list(self.field), list(self.discard), list(self.vales),
            self.vp_tokens, self.curse_tokens, self.mana_token_active, self.star,
            list(self.known_top), list(self.guards_used), list(self.aether_cards),
            list(self.removed_vales), list(self.aside), self.harvest_next, list(self.dealt_leaders),
            list(self.taken_unseen),
        )


@dataclass(slots=True)
class Purchase:
    """An advancement bought this turn and not yet sleeved."""

    copy: int
    target: int | None = None     # the card the buyer declared (Earthchant Chorus)


@dataclass(slots=True)
class Turn:
    """What the active player has done this turn."""

    player: int
    phase: str = "planting"
    spoiled: bool = False
    mana_bonus: int = 0           # mana from the token and from abilities
    mana_spent: int = 0
    spirit_spent: list[int] = _f(default_factory=lambda: [0, 0, 0, 0])  # animal forest sky any
    spirit_bonus: list[int] = _f(default_factory=lambda: [0, 0, 0, 0])  # animal forest sky wild
    vale_buys: int = 0
    vale_limit: int = 2
    adv_buys: int = 0
    purchases: list[Purchase] = _f(default_factory=list)
    new_vales: list[int] = _f(default_factory=list)   # vale ids bought this turn
    new_layers: list[list[int]] = _f(default_factory=list)  # [card, layer] sleeved this turn
    used: list[str] = _f(default_factory=list)        # abilities used this turn
    scored: list[int] = _f(default_factory=list)      # field cards whose VP were gained
    kept: list[int] = _f(default_factory=list)        # field cards kept for next turn
    upgrades: list[int] = _f(default_factory=list)    # leader cards upgraded this Harvest (file 003)
    #: Height of the step stack when the current phase began: the steps above it are that
    #: phase's work, which a spoil ends (flow.begin_phase, flow's "spoil" step).
    phase_floor: int = 0

    def copy(self) -> "Turn":
        return Turn(
            self.player, self.phase, self.spoiled, self.mana_bonus, self.mana_spent,
            list(self.spirit_spent), list(self.spirit_bonus), self.vale_buys, self.vale_limit,
            self.adv_buys, [Purchase(p.copy, p.target) for p in self.purchases],
            list(self.new_vales), [list(x) for x in self.new_layers], list(self.used),
            list(self.scored), list(self.kept), list(self.upgrades), self.phase_floor,
        )


@dataclass(slots=True)
class Step:
    """A piece of rules work waiting to run (the engine's to-do list)."""

    kind: str
    player: int
    data: dict[str, Any] = _f(default_factory=dict)


@dataclass(slots=True)
class Pending:
    """A decision someone must take before the game can go on."""

    kind: str
    player: int
    data: dict[str, Any] = _f(default_factory=dict)
    #: Card ids this decision shows only to ``player`` (kept out of others' observations).
    private: list[int] = _f(default_factory=list)


@dataclass(slots=True)
class Event:
    """A record of something that happened, for logs and presentation layers."""

    kind: str
    player: int | None
    text: str
    #: If set, only this seat may see ``text``; others see ``public_text``.
    private_to: int | None = None
    public_text: str = ""
    data: dict[str, Any] = _f(default_factory=dict)


@dataclass(slots=True)
class State:
    """A whole game."""

    cat: Catalogue
    ruleset: RuleSet
    rng: Rng
    cards: list[tuple[int, ...]]
    owner: list[int]                      # original owner of each card (its card back)
    players: list[Player]
    adv_decks: dict[int, list[int]]       # level -> face-down supply (top last)
    commons: dict[int, list[int | None]]  # level -> the 3 face-up copies
    soil_left: dict[str, int]             # Fertile Soil copies left per slot
    vale_types: list[int]                 # vale card id -> index in cat.vale_list
    vale_decks: dict[int, list[int]]      # level -> face-down vale card ids (top last)
    vale_rows: dict[int, list[int | None]]
    vp_pool: int
    vp_reserve_taken: int = 0
    curse_supply_taken: int = 0
    first_player: int = 0
    current: int = 0
    round: int = 1
    turn_number: int = 1
    turn: Turn = _f(default_factory=lambda: Turn(0))
    steps: list[Step] = _f(default_factory=list)
    pending: list[Pending] = _f(default_factory=list)
    end_triggered: str | None = None      # why the game will end after this round
    over: bool = False
    winner_override: list[int] | None = None   # "you win the game" (Le Que)
    extra_turns: list[int] = _f(default_factory=list)
    #: Leader cards that have been face up (on deck, in a field, revealed): which leader
    #: they are is public from then on (determinize keeps them; engine/leaders.py).
    seen_leaders: list[int] = _f(default_factory=list)
    #: Interface option (not a rule), yucata's turn order: the reveal after a When Played
    #: ability the player used waits for ``reveal``, and the turn ends with an explicit
    #: ``finish`` (Finish Turn) after the Prep phase (engine/flow.py), so an ability's use
    #: can be taken back before the next card is revealed.
    finish_turn: bool = False
    events: list[Event] = _f(default_factory=list)
    history: list[str] = _f(default_factory=list)   # notation of every action applied
    #: Results derived from this exact state (e.g. the buy options), dropped whenever the
    #: state changes through an action; never serialised, never shared by a clone.
    memo: dict[str, Any] = _f(default_factory=dict, compare=False, repr=False)

    def clone(self) -> "State":
        """A deep copy (cards are immutable tuples, so they are shared)."""
        return State(
            cat=self.cat,
            ruleset=self.ruleset,
            rng=self.rng.copy(),
            cards=list(self.cards),
            owner=list(self.owner),
            players=[p.copy() for p in self.players],
            adv_decks={k: list(v) for k, v in self.adv_decks.items()},
            commons={k: list(v) for k, v in self.commons.items()},
            soil_left=dict(self.soil_left),
            vale_types=self.vale_types,
            vale_decks={k: list(v) for k, v in self.vale_decks.items()},
            vale_rows={k: list(v) for k, v in self.vale_rows.items()},
            vp_pool=self.vp_pool,
            vp_reserve_taken=self.vp_reserve_taken,
            curse_supply_taken=self.curse_supply_taken,
            first_player=self.first_player,
            current=self.current,
            round=self.round,
            turn_number=self.turn_number,
            turn=self.turn.copy(),
            steps=[Step(s.kind, s.player, dict(s.data)) for s in self.steps],
            pending=[Pending(p.kind, p.player, _copy_data(p.data), list(p.private)) for p in self.pending],
            end_triggered=self.end_triggered,
            over=self.over,
            winner_override=list(self.winner_override) if self.winner_override is not None else None,
            extra_turns=list(self.extra_turns),
            seen_leaders=list(self.seen_leaders),
            finish_turn=self.finish_turn,
            events=list(self.events),
            history=list(self.history),
        )


def _copy_data(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}
