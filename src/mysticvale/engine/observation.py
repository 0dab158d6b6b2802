"""What one seat may know: the only view bots, the terminal, the server and the web see.

Nearly everything in Mystic Vale is public.  Every card a player owns was bought and
sleeved in front of everyone, and the yucata interface shows any player's whole deck
(file 000: "If you click on the single card back, the whole deck of that player is
shown"), so each player's cards are public as a set: the ``owned`` list of every player,
sorted by card id, without saying where each card is.  Hidden are the *order* of every
deck (player decks below the on-deck card, the supply decks); which of another player's
cards are in the deck and which in the discard pile (file 000: "You may not look at cards
in other players' discard piles"); cards a player looks at privately; and which leader an
opponent keeps until it is face up (file 003; it shows as an unseen leader card).  An
observation never holds the order of a deck: a seat's own deck is listed sorted by card
id, and only the cards on top whose order that seat legitimately knows (after e.g. Wood
Sprite Hoard) are listed in order.

Schema (all keys always present unless noted):

``viewer``            seat index, or None for a spectator
``ruleset``, ``sets`` the game's rule set name and card sets
``round``, ``turn_number``, ``phase`` (planting / harvest / discard / prep / over)
``current_player``    whose turn it is; ``acting_player``: who must act now (None if over)
``first_player``, ``vp_pool``, ``vp_reserve_taken``, ``end_triggered`` (None or why), ``over``
``seen_leaders``      ids of leader cards that have been face up (which leader they are is public)
``commons``           {"1": [card or None] x3, "2": ..., "3": ...}, each card an advancement
                      copy ``{"label", "name", "level", "cost", "slots", "symbols", "text", ...}``
``fertile_soil``      {"top": n, "middle": n, "bottom": n} copies left, and ``fertile_soil_cost``
``advancement_decks`` {"1": count, ...}; ``vale_rows`` {"1": [vale or None] x4, "2": ...};
                      ``vale_decks`` {"1": count, "2": count}
``players``           one per seat: ``seat``, ``deck_count`` (without the on-deck card),
                      ``discard_count``, ``field`` [card], ``on_deck`` card or None,
                      ``vp_tokens``, ``curse_tokens``, ``mana_token_active``, ``star``,
                      ``vales`` [vale], ``decay`` (net decay showing), ``owned`` [card]
                      (every card the player owns wherever it is, sorted by id; another
                      player's leader never face up is an *unseen leader* card),
                      ``owned_count``,
                      ``set_aside`` [card] (revealed and set aside by Lore Keeper, public),
                      ``harvest_next`` (Hectoro: the next turn begins with the Harvest);
                      for the viewer's own seat also ``deck`` [card] (sorted by id, no
                      order), ``discard`` [card], ``known_top`` [card id] (top last) and
                      ``leaders_dealt`` [name] (the two leaders dealt to you, file 003)
``turn``              the active player's Harvest resources: ``mana``, ``spirits``
                      {animal, forest, sky, wild} still free, ``advancement_buys``,
                      ``vale_buys``, ``vale_limit``, ``bought`` [labels], ``spoiled``, ``used``
                      (abilities used this turn: ``c{card}.{layer}.{k}``, ``v{vale id}.{k}``); for that
                      player only, ``prices`` {buy action notation: mana it costs now},
                      ``upgrades`` [card id] (leaders upgraded this Harvest; they turn over
                      in the Discard phase)
``pending``           None or {"kind", "player", "description"} plus, for its player only,
                      ``cards`` [card] it shows privately; ``advancement`` (a copy) when the
                      decision is about one (sleeving), ``leaders`` [name] (the two
                      leaders dealt to choose from), ``advancement`` (a supply card looked
                      at, Snapjaw) and ``vale`` (a vale looked at, Ranger Captain)
``scores``            when the game is over: per seat a breakdown with ``total``; and ``winners``

A card is ``{"id", "name", "advancements": [label], "mana", "growth", "decay", "vp",
"curse", "guardian", "spirits": {animal, forest, sky, wild}, "abilities": [text], ...}``.
An unseen leader card is ``{"id", "name": "Leader (not yet revealed)", "unseen_leader": true}``
with no advancements, every symbol 0 and no abilities.
"""

from __future__ import annotations

from typing import Any

from .card_types import SLOTS, SPIRITS, SYMBOLS
from .catalogue import remember
from .flow import acting_player
from .harvest import buy_options, mana_available, spirits_available
from .leaders import unseen_leaders
from .registry import DECISIONS
from .scoring import breakdown, winners
from .state import State
from .zones import net_decay

# Views of immutable things are built once per catalogue and shared (observations are
# read-only data): a card's view depends only on its id and its layers.
def card_view(st: State, card: int) -> dict[str, Any]:
    layers = st.cards[card]
    key = ("card", layers, card)
    view = st.cat.views.get(key)
    if view is None:
        view = remember(st.cat.views, key, _card_view(st, card, layers))
    return view


def _card_view(st: State, card: int, layers: tuple[int, ...]) -> dict[str, Any]:
    """A card as every seat sees it.  Besides its symbols and abilities: ``stand_ins`` [name]
    for its advancements that stand in for a printed card the rules do not describe, and
    ``provisional`` [name] for those with a printed value the rules do not give (a cost, a
    symbol...; shared/cards/README.md).  Covered advancements are not counted.  The card
    data's notes are for the catalogue's readers, not for players: they are not here."""
    s = st.cat.stats(layers)
    labels = [st.cat.copies[i].label for i in layers]
    types = [st.cat.copies[layers[i]].type for i in s.active_layers]
    names = [t.name for t in types]
    sym = dict(zip(SYMBOLS, s.symbols))
    return {
        "id": card,
        "name": " + ".join(names) if names else "Blank",
        "advancements": labels,
        "covered": [st.cat.copies[layers[i]].label for i in range(len(layers)) if i not in s.active_layers],
        "mana": sym["mana"], "growth": sym["growth"], "decay": sym["decay"], "vp": sym["vp"],
        "curse": sym["curse"], "guardian": sym["guardian"],
        "spirits": {k: sym[k] for k in SPIRITS},
        "end_vp": s.end_vp, "neg_vp": s.neg_vp,
        "abilities": [_ability_text(st, layers[l], ab) for l, ab in s.abilities],
        "free_slots": [sl for sl in SLOTS if not any(
            sl in st.cat.copies[layers[i]].slots for i in s.active_layers)],
        "stand_ins": list(dict.fromkeys(t.name for t in types if t.stand_in)),
        "provisional": list(dict.fromkeys(t.name for t in types if t.provisional_fields())),
    }


def _ability_text(st: State, copy: int, ab) -> str:
    t = st.cat.copies[copy].type
    return f"{t.name}: {ab.text or t.text}"


def copy_view(st: State, copy: int) -> dict[str, Any]:
    key = ("copy", copy)
    view = st.cat.views.get(key)
    if view is None:
        view = remember(st.cat.views, key, _copy_view(st, copy))
    return view


def _copy_view(st: State, copy: int) -> dict[str, Any]:
    """An advancement copy (in the commons, being sleeved, looked at).  ``text`` is the
    printed card's text; ``stand_in`` marks a card standing in for a printed one the rules do
    not describe, and ``provisional`` lists its printed values the rules do not give
    (``cost``, ``symbols``, ...)."""
    c = st.cat.copies[copy]
    t = c.type
    return {
        "label": c.label, "name": t.name, "level": t.level, "cost": t.cost,
        "slots": [s for s in SLOTS if s in c.slots],
        "symbols": {k: v for k, v in zip(SYMBOLS, t.symbols) if v},
        "end_vp": t.end_vp, "neg_vp": t.neg_vp, "eclipse": t.eclipse, "longwise": t.longwise,
        "legendary": len(c.slots) > 1,
        "text": t.text, "set": t.set,
        "stand_in": t.stand_in, "provisional": list(t.provisional_fields()),
    }


def vale_view(st: State, v: int, *, new: bool = False) -> dict[str, Any]:
    key = ("vale", st.vale_types[v], v, new)
    view = st.cat.views.get(key)
    if view is None:
        view = remember(st.cat.views, key, _vale_view(st, v, new))
    return view


def _vale_view(st: State, v: int, new: bool) -> dict[str, Any]:
    """A vale card; ``text``, ``stand_in`` and ``provisional`` as in a copy view."""
    vt = st.cat.vale_list[st.vale_types[v]]
    return {
        "id": v, "name": vt.name, "level": vt.level,
        "cost": dict(zip(("animal", "forest", "sky", "any"), vt.cost)),
        "end_vp": vt.end_vp, "neg_vp": vt.neg_vp, "text": vt.text, "set": vt.set,
        "bought_this_turn": new,
        "stand_in": vt.stand_in, "provisional": list(vt.provisional_fields()),
    }


def unseen_leader_view(st: State, card: int) -> dict[str, Any]:
    """How a leader card that has never been face up looks to the other seats: a card
    with a leader in it, which one not yet known (file 003)."""
    key = ("unseen_leader", card)
    view = st.cat.views.get(key)
    if view is None:
        view = remember(st.cat.views, key, {
            "id": card, "name": "Leader (not yet revealed)", "advancements": [], "covered": [],
            "mana": 0, "growth": 0, "decay": 0, "vp": 0, "curse": 0, "guardian": 0,
            "spirits": {k: 0 for k in SPIRITS}, "end_vp": 0, "neg_vp": 0, "abilities": [],
            "free_slots": [], "unseen_leader": True,
        })
    return view


class _Owned:
    """One player's cards as views, for one set of card ids and their make-ups."""

    __slots__ = ("layers", "views", "by_id", "leaders")

    def __init__(self, st: State, ids: list[int], layers: list[tuple[int, ...]]) -> None:
        views, cards = st.cat.views, st.cards
        self.layers = layers
        self.views = [views.get(("card", cards[c], c)) or card_view(st, c) for c in ids]
        self.by_id = dict(zip(ids, self.views))
        parts = st.cat.leader_copies
        self.leaders = [c for c, lay in zip(ids, layers) if not parts.isdisjoint(lay)] if parts else []


def _owned(st: State, p: int) -> tuple[list[int], _Owned]:
    """(the ids of every card seat ``p`` owns, sorted; their views).  A player's cards
    change rarely (a sleeve, a leader turning over, a card changing hands), so the views
    are kept per set of ids and reused while every make-up is the same."""
    pl = st.players[p]
    ids = [*pl.deck, *pl.field, *pl.discard, *pl.aside]
    if pl.on_deck is not None:
        ids.append(pl.on_deck)
    ids.sort()
    layers = list(map(st.cards.__getitem__, ids))
    memo = st.cat.owned_views
    key = tuple(ids)
    hit = memo.get(key)
    if hit is None or hit.layers != layers:
        hit = remember(memo, key, _Owned(st, ids, layers))
    return ids, hit


def _hide_unseen_leaders(st: State, p: int, ids: list[int], own: _Owned) -> list[dict[str, Any]]:
    """``p``'s owned list as another seat sees it (see :func:`owned_view`)."""
    out = list(own.views)
    if own.leaders:
        pl, seen = st.players[p], st.seen_leaders
        # As leaders.unseen_leaders: not face up since it was sleeved.
        hidden = [c for c in own.leaders if c not in seen and c not in pl.field and c != pl.on_deck]
        if hidden:
            out = [unseen_leader_view(st, c) if c in hidden else v for c, v in zip(ids, out)]
    return out


def owned_view(st: State, p: int, viewer: int | None) -> list[dict[str, Any]]:
    """Every card seat ``p`` owns, as ``viewer`` may see it: sorted by card id, so that it
    says nothing of where each card is or in what order (the deck, the discard pile and
    the field are one list); another seat's leader never face up shows as
    :func:`unseen_leader_view`."""
    ids, own = _owned(st, p)
    return list(own.views) if p == viewer else _hide_unseen_leaders(st, p, ids, own)


_LEVELS3 = (("1", 1), ("2", 2), ("3", 3))
_LEVELS2 = (("1", 1), ("2", 2))
#: (market, declared target) -> the buy action's notation (``buy 2.1 on #7``).
_BUY_WORDS: dict[tuple[str, int | None], str] = {}


def _buy_words(market: str, target: int | None) -> str:
    words = f"buy {market}" if target is None else f"buy {market} on #{target}"
    return remember(_BUY_WORDS, (market, target), words)


def observe(st: State, viewer: int | None) -> dict[str, Any]:
    """What seat ``viewer`` (None: a spectator) may know now; the schema is above."""
    t = st.turn
    views, vale_types = st.cat.views, st.vale_types

    players = []
    for p, pl in enumerate(st.players):
        new = t.new_vales if t.player == p else ()
        ids, own = _owned(st, p)
        # Every card view below comes from the owned views (checked against the make-ups).
        view_of = own.by_id.__getitem__
        entry: dict[str, Any] = {
            "seat": p,
            "deck_count": len(pl.deck),
            "discard_count": len(pl.discard),
            "field": list(map(view_of, pl.field)),
            "on_deck": view_of(pl.on_deck) if pl.on_deck is not None else None,
            "vp_tokens": pl.vp_tokens,
            "curse_tokens": pl.curse_tokens,
            "mana_token_active": pl.mana_token_active,
            "star": pl.star,
            "vales": [views.get(("vale", vale_types[v], v, v in new)) or vale_view(st, v, new=v in new)
                      for v in pl.vales],
            "decay": net_decay(st, p),
            "owned": list(own.views) if p == viewer else _hide_unseen_leaders(st, p, ids, own),
            "owned_count": len(ids),
            "set_aside": list(map(view_of, pl.aside)),
            "harvest_next": pl.harvest_next,
        }
        if viewer == p:
            entry["deck"] = list(map(view_of, sorted(pl.deck)))
            entry["discard"] = list(map(view_of, sorted(pl.discard)))
            entry["known_top"] = list(pl.known_top)
            entry["leaders_dealt"] = list(pl.dealt_leaders)
        players.append(entry)
    turn: dict[str, Any] = {"player": t.player, "spoiled": t.spoiled,
                            "advancement_buys": t.adv_buys, "vale_buys": t.vale_buys,
                            "vale_limit": t.vale_limit,
                            "bought": [st.cat.label(pu.copy) for pu in t.purchases],
                            "upgrades": list(t.upgrades),
                            "used": list(t.used)}
    if t.phase == "harvest":
        have = spirits_available(st)
        turn["mana"] = mana_available(st)
        turn["spirits"] = dict(zip(SPIRITS, have))
        turn["spirits_spent"] = dict(zip(("animal", "forest", "sky", "any"), t.spirit_spent))
        if viewer == t.player and not st.pending:
            turn["prices"] = {_BUY_WORDS.get((m, tgt)) or _buy_words(m, tgt): price
                              for m, _c, tgt, price in buy_options(st)}
    pending = None
    if st.pending:
        pd = st.pending[-1]
        d = DECISIONS[pd.kind].describe
        pending = {"kind": pd.kind, "player": pd.player,
                   "description": d(st, pd) if d else pd.kind.replace("_", " ")}
        if viewer == pd.player and pd.private:
            pending["cards"] = [card_view(st, c) for c in pd.private]
        if pd.kind == "sleeve":   # the advancement being sleeved was bought in public
            pending["advancement"] = copy_view(st, pd.data["copy"])
        if viewer == pd.player:
            # What a decision shows only its player (file 003: the leaders dealt to you,
            # Ranger Captain's vale, Snapjaw's advancement).
            if "leaders" in pd.data:
                pending["leaders"] = list(pd.data["leaders"])
            if pd.data.get("shows") == "copy":
                pending["advancement"] = copy_view(st, pd.data["copy"])
            if pd.data.get("shows") == "vale":
                pending["vale"] = vale_view(st, pd.data["looked_vale"])
    obs: dict[str, Any] = {
        "viewer": viewer,
        "ruleset": st.ruleset.name,
        "sets": list(st.cat.sets),
        "round": st.round,
        "turn_number": st.turn_number,
        "phase": "over" if st.over else t.phase,
        "current_player": None if st.over else st.current,
        "acting_player": acting_player(st),
        "first_player": st.first_player,
        "vp_pool": st.vp_pool,
        "vp_reserve_taken": st.vp_reserve_taken,
        "end_triggered": st.end_triggered,
        "seen_leaders": list(st.seen_leaders),
        "over": st.over,
        "commons": {k: [None if c is None else views.get(("copy", c)) or copy_view(st, c)
                        for c in st.commons[l]] for k, l in _LEVELS3},
        "fertile_soil": dict(st.soil_left),
        "fertile_soil_cost": st.cat.fertile_soil.cost,
        "advancement_decks": {k: len(st.adv_decks[l]) for k, l in _LEVELS3},
        "vale_rows": {k: [None if v is None else views.get(("vale", vale_types[v], v, False))
                          or vale_view(st, v) for v in st.vale_rows[l]] for k, l in _LEVELS2},
        "vale_decks": {k: len(st.vale_decks[l]) for k, l in _LEVELS2},
        "players": players,
        "turn": turn,
        "pending": pending,
    }
    if st.over:
        obs["scores"] = [breakdown(st, p) for p in range(len(st.players))]
        obs["winners"] = winners(st)
    return obs


def visible_log(st: State, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The event log as ``viewer`` may read it (private texts replaced for others)."""
    out = []
    for i, e in enumerate(st.events[since:], start=since):
        text = e.text if e.private_to is None or e.private_to == viewer else e.public_text
        if text:
            out.append({"index": i, "kind": e.kind, "player": e.player, "text": text})
    return out
